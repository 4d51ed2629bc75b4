# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""tools/gpu/numba_suite.py on a tiny synthetic numba-cuda: its tests found through importlib as
the installed numba-cuda's are, both sides, the counts per module, subtests, crashes, timeouts,
modules that do not import, the deadline, the tests that pass on one side only, and the verdict
(exit status 1) on a module whose process ends otherwise than on NVIDIA's, as one that aborts or
segfaults at interpreter exit after unittest printed "OK"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gpu" / "numba_suite.py"
TESTS = "numba_cuda/numba/cuda/tests"

# A numba-cuda as installed: the tests live in numba_cuda/numba/cuda/tests and import as
# numba.cuda.tests (numba-cuda redirects numba.cuda there; here numba's __path__ does).
NUMBA_CUDA = {
    "numba_cuda/__init__.py": "",
    "numba_cuda/numba/cuda/__init__.py": "",
    f"{TESTS}/__init__.py": "",
    f"{TESTS}/cudapy/__init__.py": "",
    f"{TESTS}/cudadrv/__init__.py": "",
    "numba/__init__.py": "import os\n__path__.append(os.path.join(os.path.dirname(__file__), '..', 'numba_cuda', 'numba'))\n",
    f"{TESTS}/cudapy/test_plain.py": """
        import unittest
        import fakecore

        class TestPlain(unittest.TestCase):
            def test_both_pass(self):
                pass

            def test_only_ours_passes(self):
                self.assertEqual(fakecore.SIDE, "ours")

            def test_only_nvidia_passes(self):
                self.assertEqual(fakecore.SIDE, "nvidia")

            def test_skipped(self):
                self.skipTest("no reason")

            @unittest.expectedFailure
            def test_xfailed(self):
                self.fail("expected")

            @unittest.expectedFailure
            def test_xpassed(self):
                pass

            def test_error(self):
                raise RuntimeError("broken")

            def test_subtest_fails(self):
                for value in (1, 2):
                    with self.subTest(value=value):
                        self.assertEqual(value, 1)
    """,
    f"{TESTS}/cudadrv/test_crash.py": """
        import os
        import unittest

        class TestCrash(unittest.TestCase):
            def test_a_first(self):
                pass

            def test_b_dies(self):
                os._exit(7)
    """,
    f"{TESTS}/cudapy/test_unimportable.py": "import no_such_module_anywhere\n",
    f"{TESTS}/cudadrv/test_skipped_module.py": "import unittest\n\nraise unittest.SkipTest('not here')\n",
    f"{TESTS}/cudapy/test_slow.py": """
        import time
        import unittest

        class TestSlow(unittest.TestCase):
            def test_a_fast(self):
                pass

            def test_b_sleeps(self):
                time.sleep(60)
    """,
}
PREFIX = "numba.cuda.tests."

# Every test passes on both sides; on ours the process then dies at interpreter exit, after
# unittest printed "OK" (as numba-cuda's did on ours when two owners unloaded one library).
AT_EXIT = """
    import atexit
    import ctypes
    import os
    import unittest

    import fakecore

    if fakecore.SIDE == "ours":
        atexit.register({})

    class TestFine(unittest.TestCase):
        def test_passes(self):
            pass
"""
EXIT_CLEAN = {
    "__init__.py": "",
    "test_fine.py": """
        import unittest

        class TestFine(unittest.TestCase):
            def test_passes(self):
                pass
    """,
}


def write_tree(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


def sides(base: Path) -> list[str]:
    """Our fakecore on the ours side; NVIDIA's through a wrapper python (as installed there)."""
    write_tree(base / "ours", {"fakecore/__init__.py": "SIDE = 'ours'\n"})
    write_tree(base / "nvidia", {"fakecore/__init__.py": "SIDE = 'nvidia'\n"})
    wrapper = base / "nvidia-python"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="$PYTHONPATH:{base / "nvidia"}" exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    return ["--ours-python", sys.executable, "--ours-path", str(base / "ours"), "--nvidia-python", str(wrapper)]


def run_tool(arguments: list[str], timeout: float = 300, returncode: int = 0) -> subprocess.CompletedProcess:
    """The tool run by path in a fresh process; its exit status must be ``returncode``."""
    done = subprocess.run(
        [sys.executable, str(TOOL), *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    )
    assert done.returncode == returncode, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> dict:
    """The tool run once over the synthetic numba-cuda, found through importlib; its report."""
    base = tmp_path_factory.mktemp("numba")
    write_tree(base / "site", NUMBA_CUDA)
    report = base / "report.json"
    # A test passes on NVIDIA's only (test_plain): the verdict fails, exit status 1.
    done = run_tool(
        [*sides(base), "--common-path", str(base / "site"), "--timeout", "8", "--jobs", "2", "--json", str(report)],
        returncode=1,
    )
    return {"json": json.loads(report.read_text()), "table": done.stdout, "progress": done.stderr}


def counts(entry: dict) -> tuple:
    return tuple(entry[key] for key in ("passed", "failed", "errors", "skipped", "xfailed"))


def test_the_modules_are_found_in_the_installed_package(suite) -> None:
    assert sorted(suite["json"]["modules"]) == [
        f"{PREFIX}cudadrv.test_crash",
        f"{PREFIX}cudadrv.test_skipped_module",
        f"{PREFIX}cudapy.test_plain",
        f"{PREFIX}cudapy.test_slow",
        f"{PREFIX}cudapy.test_unimportable",
    ]
    assert f"{TESTS}" in suite["progress"].splitlines()[0]


def test_counts_per_side(suite) -> None:
    plain = suite["json"]["modules"][f"{PREFIX}cudapy.test_plain"]
    # passed: both, one side's own; failed: the other side's, the subtest, the unexpected success.
    assert counts(plain["ours"]) == (2, 3, 1, 1, 1) and plain["ours"]["status"] == "ok"
    assert counts(plain["nvidia"]) == (2, 3, 1, 1, 1) and plain["ours"]["collected"] == 8
    test = f"{PREFIX}cudapy.test_plain.TestPlain.test_only_ours_passes"
    assert plain["ours"]["tests"][test] == "passed" and plain["nvidia"]["tests"][test] == "failed"
    assert plain["ours"]["tests"][f"{PREFIX}cudapy.test_plain.TestPlain.test_xpassed"] == "xpassed"


def test_failures_and_skips_say_why(suite) -> None:
    why = suite["json"]["modules"][f"{PREFIX}cudapy.test_plain"]["ours"]["why"]
    name = f"{PREFIX}cudapy.test_plain.TestPlain."
    assert why[name + "test_skipped"] == "no reason"
    assert why[name + "test_error"] == "RuntimeError: broken"
    assert why[name + "test_subtest_fails"] == "AssertionError: 2 != 1"
    assert name + "test_both_pass" not in why


def test_one_side_passes_are_listed_with_the_other_sides_reason(suite) -> None:
    name = f"{PREFIX}cudapy.test_plain.TestPlain."
    assert suite["json"]["nvidia_passes_ours_not"] == [
        {"test": name + "test_only_nvidia_passes", "other": "AssertionError: 'ours' != 'nvidia'"}
    ]
    assert [item["test"] for item in suite["json"]["ours_passes_nvidia_not"]] == [name + "test_only_ours_passes"]
    assert "1 tests pass on NVIDIA's cuda.core and not on ours:" in suite["table"]
    assert f"  {name}test_only_nvidia_passes: AssertionError: 'ours' != 'nvidia'" in suite["table"]


def test_a_crash_keeps_the_results_before_it_and_names_the_test(suite) -> None:
    for side in ("ours", "nvidia"):
        entry = suite["json"]["modules"][f"{PREFIX}cudadrv.test_crash"][side]
        assert entry["status"] == "crashed (rc 7)" and counts(entry) == (1, 0, 0, 0, 0)
        assert entry["last_started"] == f"{PREFIX}cudadrv.test_crash.TestCrash.test_b_dies"
        assert entry["returncode"] == 7 and entry["end"] == "7"
    assert f"! ours cudadrv.test_crash: crashed (rc 7) during {PREFIX}cudadrv.test_crash" in suite["table"]
    # Both sides ended alike: not a difference.
    assert suite["json"]["ends_differ"] == []


def test_a_module_that_does_not_import_is_an_error(suite) -> None:
    entry = suite["json"]["modules"][f"{PREFIX}cudapy.test_unimportable"]["nvidia"]
    assert entry["status"] == "import error" and entry["errors"] == 1 and entry["passed"] == 0
    assert "no_such_module_anywhere" in entry["tail"]


def test_a_module_skipped_as_it_imports_is_one_skip(suite) -> None:
    entry = suite["json"]["modules"][f"{PREFIX}cudadrv.test_skipped_module"]["ours"]
    assert entry["status"] == "ok" and counts(entry) == (0, 0, 0, 1, 0)
    assert entry["why"] == {f"{PREFIX}cudadrv.test_skipped_module::<module>": "not here"}


def test_a_timeout_is_reported_with_what_finished(suite) -> None:
    entry = suite["json"]["modules"][f"{PREFIX}cudapy.test_slow"]["ours"]
    assert entry["status"].startswith("timeout") and entry["passed"] == 1 and entry["seconds"] < 30
    # Stopped with SIGABRT first: faulthandler's stacks say where it was stuck.
    assert "Fatal Python error: Aborted" in entry["tail"] and "test_b_sleeps" in entry["tail"]


def test_the_table(suite) -> None:
    lines = suite["table"].splitlines()
    row = next(line for line in lines if line.startswith("cudapy.test_plain "))
    # pass, fail, err, skip, xfail, then the exit status, per side; the ratio and whether both ended alike.
    assert [part.split() for part in row.split("|")[1:]] == [["2", "3", "1", "1", "1", "1"]] * 2 + [["1.00", "same"]]
    crash = next(line for line in lines if line.startswith("cudadrv.test_crash "))
    assert [part.split()[-1] for part in crash.split("|")[1:3]] == ["7!", "7!"]
    total = next(line for line in lines if line.startswith("TOTAL"))
    assert total.split("|")[1].split() == ["4", "3", "2", "2", "1"]  # plain 2, crash 1, slow 1 passed
    assert lines[-1] == "verdict: FAIL: 1 test(s) pass on NVIDIA's only"
    assert suite["json"]["verdict"] == "FAIL: 1 test(s) pass on NVIDIA's only"


@pytest.mark.parametrize(
    ("dies", "signal"), [("os.abort", "SIGABRT"), ("ctypes.string_at, 0", "SIGSEGV")], ids=["abort", "segfault"]
)
def test_a_module_that_dies_at_exit_after_ok_on_ours_only_fails_the_run(tmp_path, dies: str, signal: str) -> None:
    package = tmp_path / "root" / "fakepkg"
    write_tree(package, {**EXIT_CLEAN, "test_dies_at_exit.py": AT_EXIT.format(dies)})
    report = tmp_path / "report.json"
    arguments = [*sides(tmp_path), "--tests-dir", str(package), "--package", "fakepkg", "--jobs", "2"]
    done = run_tool([*arguments, "--common-path", str(tmp_path / "root"), "--json", str(report)], returncode=1)
    result = json.loads(report.read_text())
    ours, nvidia = (result["modules"]["fakepkg.test_dies_at_exit"][side] for side in ("ours", "nvidia"))
    # Every test passed on both sides and unittest said "OK"; only the processes' ends differ.
    assert counts(ours) == counts(nvidia) == (1, 0, 0, 0, 0) and "\nOK" in ours["tail"]
    assert (ours["status"], ours["end"], nvidia["status"], nvidia["end"]) == (f"crashed ({signal})", signal, "ok", "0")
    assert result["nvidia_passes_ours_not"] == []
    assert result["ends_differ"] == [{"module": "fakepkg.test_dies_at_exit", "ours": signal, "nvidia": "0"}]
    lines = done.stdout.splitlines()
    row = next(line for line in lines if line.startswith("fakepkg.test_dies_at_exit "))
    assert row.split("|")[1].split()[-1] == f"{signal}!" and row.split("|")[2].split()[-1] == "0"
    assert row.split("|")[3].split() == ["1.00", "DIFF"]
    assert f"  fakepkg.test_dies_at_exit: ours {signal}, nvidia 0" in lines
    assert lines[-1] == "verdict: FAIL: 1 module(s) end differently from NVIDIA's"


def test_modules_that_end_alike_on_both_sides_pass_the_run(tmp_path) -> None:
    package = tmp_path / "root" / "fakepkg"
    write_tree(package, EXIT_CLEAN)
    report = tmp_path / "report.json"
    arguments = [*sides(tmp_path), "--tests-dir", str(package), "--package", "fakepkg"]
    done = run_tool([*arguments, "--common-path", str(tmp_path / "root"), "--json", str(report)], returncode=0)
    assert json.loads(report.read_text())["ends_differ"] == []
    assert done.stdout.splitlines()[-1].startswith("verdict: pass")


def test_the_deadline_ends_the_run_and_keeps_the_report(tmp_path) -> None:
    # Given --tests-dir and --package instead of an installed numba-cuda; the slow module first.
    package = tmp_path / "root" / "fakepkg"
    write_tree(
        package,
        {
            "__init__.py": "",
            "cudapy/__init__.py": "",
            "cudapy/test_a_slow.py": NUMBA_CUDA[f"{TESTS}/cudapy/test_slow.py"],
            "cudapy/test_plain.py": NUMBA_CUDA[f"{TESTS}/cudapy/test_plain.py"],
        },
    )
    report = tmp_path / "report.json"
    arguments = [*sides(tmp_path)[:4], "--tests-dir", str(package), "--package", "fakepkg"]
    arguments += ["--common-path", str(tmp_path / "root"), "--jobs", "1", "--deadline", "6", "--json", str(report)]
    run_tool(arguments, timeout=120)
    modules = json.loads(report.read_text())["modules"]
    slow, plain = modules["fakepkg.cudapy.test_a_slow"]["ours"], modules["fakepkg.cudapy.test_plain"]["ours"]
    assert slow["status"].startswith("timeout") and slow["passed"] == 1 and slow["seconds"] < 20
    assert plain["status"] == "not run (deadline)" and plain["passed"] == 0


def test_a_pattern_that_matches_nothing_is_refused(tmp_path) -> None:
    write_tree(tmp_path / "site", NUMBA_CUDA)
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "--ours-python",
            sys.executable,
            "--common-path",
            str(tmp_path / "site"),
            "--modules",
            "cudapy/test_nothing*.py",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "no test module under" in done.stderr and "test_nothing" in done.stderr


def test_no_numba_cuda_is_one_line(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--ours-python", sys.executable, "--ours-path", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
    )
    assert done.returncode != 0 and "numba-cuda's tests are not found" in done.stderr
