# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""tools/gpu/upstream_suite.py on a tiny synthetic suite: both sides, the counts, crashes,
timeouts, collection errors, the post-release and later-part placeholders and the layout from git."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gpu" / "upstream_suite.py"

FILES = {
    "cuda_core/pytest.ini": "[pytest]\n",
    "cuda_core/tests/conftest.py": "import fakecore  # both sides import 'their' package, as NVIDIA's conftest does\n",
    "cuda_python_test_helpers/cuda_python_test_helpers/__init__.py": "HELPER = 'found'\n",
    "cuda_core/tests/test_plain.py": """
        import pytest
        import fakecore
        from cuda_python_test_helpers import HELPER

        def test_helpers_are_on_the_path():
            assert HELPER == "found"

        def test_only_ours_passes():
            assert fakecore.SIDE == "ours"

        def test_only_nvidia_passes():
            assert fakecore.SIDE == "nvidia"

        def test_skipped():
            pytest.skip("no reason")

        @pytest.mark.xfail(strict=True)
        def test_xfailed():
            assert False

        @pytest.fixture
        def broken():
            raise RuntimeError("fixture")

        def test_setup_error(broken):
            pass
    """,
    "cuda_core/tests/sub/test_post_release.py": """
        from fakecore.mem import NewName

        def test_ipc_uses_the_new_name():
            assert NewName().ok

        def test_other():
            assert True
    """,
    "cuda_core/tests/test_later_part.py": """
        from fakecore.util import LaterName

        def test_uses_the_later_name():
            assert LaterName().ok

        def test_does_not():
            assert True
    """,
    "cuda_core/tests/test_crash.py": """
        import os

        def test_first():
            assert True

        def test_dies():
            os._exit(7)
    """,
    "cuda_core/tests/test_uncollectable.py": "import no_such_module_anywhere\n\ndef test_x():\n    pass\n",
    "cuda_core/tests/test_slow.py": "import time\n\ndef test_fast():\n    pass\n\ndef test_sleeps():\n    time.sleep(60)\n",
}


def write_tree(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> dict:
    """Run the tool once on the synthetic suite; its JSON report."""
    base = tmp_path_factory.mktemp("suite")
    write_tree(base / "root", FILES)
    # "ours" has the post-release name; "nvidia" lacks it and is reached through a wrapper
    # python that adds its package (as NVIDIA's environment would have it installed).
    write_tree(
        base / "ours",
        {
            "fakecore/__init__.py": "SIDE = 'ours'\n",
            "fakecore/mem.py": "class NewName:\n    ok = True\n",
            "fakecore/util.py": "OTHER = 1\n",
        },
    )
    write_tree(
        base / "nvidia",
        {
            "fakecore/__init__.py": "SIDE = 'nvidia'\n",
            "fakecore/mem.py": "OLD = 1\n",
            "fakecore/util.py": "class LaterName:\n    ok = True\n",
        },
    )
    wrapper = base / "nvidia-python"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="$PYTHONPATH:{base / "nvidia"}" exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    report = base / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "--root",
            str(base / "root"),
            "--ours-python",
            sys.executable,
            "--ours-path",
            str(base / "ours"),
            "--nvidia-python",
            str(wrapper),
            "--timeout",
            "8",
            "--jobs",
            "2",
            "--post-release-name",
            "fakecore.mem:NewName",
            "--later-part-name",
            "fakecore.util:LaterName",
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {"json": json.loads(report.read_text()), "table": done.stdout}


def counts(entry: dict) -> tuple:
    return tuple(entry[key] for key in ("passed", "failed", "errors", "skipped", "xfailed"))


def test_counts_per_side(suite) -> None:
    plain = suite["json"]["files"]["test_plain.py"]
    assert counts(plain["ours"]) == (2, 1, 1, 1, 1) and plain["ours"]["status"] == "ok"
    assert counts(plain["nvidia"]) == (2, 1, 1, 1, 1)
    assert plain["ours"]["tests"]["tests/test_plain.py::test_only_ours_passes"] == "passed"
    assert plain["nvidia"]["tests"]["tests/test_plain.py::test_only_ours_passes"] == "failed"
    assert plain["ours"]["tests"]["tests/test_plain.py::test_setup_error"] == "errors"


def test_nvidia_only_passes_are_listed(suite) -> None:
    assert suite["json"]["nvidia_passes_ours_not"] == [
        "test_later_part.py::test_uses_the_later_name",
        "test_plain.py::test_only_nvidia_passes",
    ]
    assert "2 tests pass on NVIDIA's cuda.core and not on ours" in suite["table"]


def test_post_release_names_get_a_placeholder_and_are_counted_apart(suite) -> None:
    entry = suite["json"]["files"]["sub/test_post_release.py"]
    assert entry["post_release_names"] == ["fakecore.mem.NewName"]
    assert entry["not_collectable_by_nvidia_release"] == 2
    # The ipc rule takes test_ipc_uses_the_new_name apart; test_other is in the main counts.
    assert entry["ours"]["ipc_rule"] == {"passed": 1, "total": 1} and counts(entry["ours"]) == (1, 0, 0, 0, 0)
    assert entry["nvidia"]["ipc_rule"] == {"passed": 0, "total": 1} and counts(entry["nvidia"]) == (1, 0, 0, 0, 0)
    assert entry["nvidia"]["placeholder_tests"] == ["tests/sub/test_post_release.py::test_ipc_uses_the_new_name"]
    assert entry["ours"]["placeholder_tests"] == []


def test_later_part_names_get_a_placeholder_on_our_side_and_fail(suite) -> None:
    entry = suite["json"]["files"]["test_later_part.py"]
    assert entry["later_part_names"] == ["fakecore.util.LaterName"] and entry["post_release_names"] == []
    assert entry["ours"]["status"] == "ok" and counts(entry["ours"]) == (1, 1, 0, 0, 0)
    assert entry["ours"]["placeholder_tests"] == ["tests/test_later_part.py::test_uses_the_later_name"]
    assert counts(entry["nvidia"]) == (2, 0, 0, 0, 0)
    assert "~ ours test_later_part.py: collected with placeholders" in suite["table"]


def test_a_crash_keeps_the_results_before_it(suite) -> None:
    for side in ("ours", "nvidia"):
        entry = suite["json"]["files"]["test_crash.py"][side]
        assert entry["status"] == "crashed (rc 7)"
        assert entry["tests"] == {"tests/test_crash.py::test_first": "passed"} and entry["passed"] == 1


def test_a_crash_names_the_test_it_was_running(suite) -> None:
    entry = suite["json"]["files"]["test_crash.py"]["ours"]
    assert entry["last_started"] == "tests/test_crash.py::test_dies"
    assert "during tests/test_crash.py::test_dies" in suite["table"]


def test_failures_and_skips_say_why(suite) -> None:
    why = suite["json"]["files"]["test_plain.py"]["ours"]["why"]
    assert why["tests/test_plain.py::test_skipped"] == "Skipped: no reason"
    assert why["tests/test_plain.py::test_setup_error"] == "RuntimeError: fixture"
    assert why["tests/test_plain.py::test_only_nvidia_passes"].startswith("AssertionError")
    assert "tests/test_plain.py::test_only_ours_passes" not in why


def test_the_deadline_ends_the_run_and_keeps_the_report(tmp_path) -> None:
    write_tree(
        tmp_path / "root",
        {name: text for name, text in FILES.items() if not name.endswith(("test_crash.py", "test_later_part.py"))},
    )
    write_tree(tmp_path / "ours", {"fakecore/__init__.py": "SIDE = 'ours'\n", "fakecore/mem.py": "OLD = 1\n"})
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "--root",
            str(tmp_path / "root"),
            "--ours-python",
            sys.executable,
            "--ours-path",
            str(tmp_path / "ours"),
            "--files",
            "test_slow.py",
            "test_plain.py",
            "--jobs",
            "1",
            "--deadline",
            "6",
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    files = json.loads(report.read_text())["files"]
    slow, plain = files["test_slow.py"]["ours"], files["test_plain.py"]["ours"]
    assert slow["status"].startswith("timeout") and slow["passed"] == 1 and slow["seconds"] < 20
    assert plain["status"] == "not run (deadline)" and plain["passed"] == 0


def test_a_timeout_is_reported_with_what_finished(suite) -> None:
    entry = suite["json"]["files"]["test_slow.py"]["ours"]
    assert entry["status"].startswith("timeout") and entry["passed"] == 1 and entry["seconds"] < 30
    # Stopped with SIGABRT first: faulthandler's stacks say where it was stuck.
    assert "Fatal Python error: Aborted" in entry["tail"] and "test_sleeps" in entry["tail"]


def test_a_collection_error_is_an_error(suite) -> None:
    entry = suite["json"]["files"]["test_uncollectable.py"]["nvidia"]
    assert entry["status"] == "collection error" and entry["errors"] == 1 and entry["passed"] == 0
    assert "no_such_module_anywhere" in entry["tail"]


def test_the_table(suite) -> None:
    lines = suite["table"].splitlines()
    row = next(line for line in lines if line.startswith("sub/test_post_release.py"))
    assert row.split("|")[-1].split() == ["2", "(1/0", "of", "1)"]
    total = next(line for line in lines if line.startswith("TOTAL"))
    assert total.split("|")[3].split() == ["0.86"]  # 6 passes of ours, 7 of NVIDIA's


def load_tool():
    """The tool as a module of the harness (tools/ is on pytest's pythonpath)."""
    from gpu import upstream_suite

    return upstream_suite


def test_layout_from_git_leaves_the_package_out(tmp_path) -> None:
    tool = load_tool()
    checkout = tmp_path / "cuda-python"
    write_tree(
        checkout,
        {
            **{name: text for name, text in FILES.items() if "/test_" not in name},
            "cuda_core/tests/test_one.py": "def test_one():\n    pass\n",
            "cuda_core/cuda/core/__init__.py": "raise ImportError('the source package')\n",
        },
    )
    git = ["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "suite"], check=True)
    root = tmp_path / "root"
    tool.make_layout(checkout, "HEAD", root)
    tool.check_layout(root)
    assert (root / "cuda_core/tests/test_one.py").exists() and not (root / "cuda_core/cuda").exists()
    assert tool.test_files(root, None) == ["test_one.py"]
    (root / "cuda_core/cuda").mkdir()
    with pytest.raises(SystemExit, match="would shadow"):
        tool.check_layout(root)
    with pytest.raises(SystemExit, match="lacks cuda_python_test_helpers"):
        (checkout / "cuda_python_test_helpers/cuda_python_test_helpers/__init__.py").unlink()
        subprocess.run([*git, "commit", "-qam", "no helpers"], check=True)
        tool.make_layout(checkout, "HEAD", tmp_path / "other")


FLAKY = """
    import os
    import threading
    from pathlib import Path

    import fakecore


    class _ThreadRecordingCallback:
        def __del__(self):
            pass


    def test_dropped_by_a_worker():
        holder = [_ThreadRecordingCallback()]

        def drop_the_callback():
            holder.clear()

        worker = threading.Thread(target=drop_the_callback, name="dropper")
        worker.start()
        worker.join()


    def test_fails_in_the_second_run():
        runs = Path(os.environ["FLAKY_RUNS"])
        done = len(list(runs.glob(f"{fakecore.SIDE}-*")))
        (runs / f"{fakecore.SIDE}-{done}").touch()
        assert done != 1, "the second run"
"""


def test_repeated_runs_count_flakes_and_record_off_thread_finalizers(tmp_path) -> None:
    write_tree(
        tmp_path / "root",
        {
            **{name: text for name, text in FILES.items() if "/test_" not in name},
            "cuda_core/tests/test_flaky.py": FLAKY,
        },
    )
    write_tree(tmp_path / "ours", {"fakecore/__init__.py": "SIDE = 'ours'\n"})
    write_tree(tmp_path / "nvidia", {"fakecore/__init__.py": "SIDE = 'nvidia'\n"})
    (tmp_path / "runs").mkdir()
    wrapper = tmp_path / "nvidia-python"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="$PYTHONPATH:{tmp_path / "nvidia"}" exec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    report = tmp_path / "report.json"
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "--root",
            str(tmp_path / "root"),
            "--ours-python",
            sys.executable,
            "--ours-path",
            str(tmp_path / "ours"),
            "--nvidia-python",
            str(wrapper),
            "--repeat",
            "3",
            "--nvidia-repeat",
            "2",
            "--plugin",
            "offthread_finalizer",
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "FLAKY_RUNS": str(tmp_path / "runs")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    repeats = json.loads(report.read_text())["repeats"]["test_flaky.py"]
    flaky = "tests/test_flaky.py::test_fails_in_the_second_run"
    assert repeats["ours"]["runs"] == 3 and repeats["nvidia"]["runs"] == 2
    for side in ("ours", "nvidia"):
        assert repeats[side]["failed_runs"] == 1
        assert repeats[side]["tests"] == {flaky: {"runs": 1, "why": "AssertionError: the second run\nassert 1 != 1"}}
    offthread = repeats["ours"]["offthread"]
    assert [record["run"] for record in offthread] == [1, 2, 3]
    assert {record["thread"] for record in offthread} == {"dropper"}
    assert "holder.clear()" in offthread[0]["stack"] and "test_dropped_by_a_worker" in offthread[0]["main_stack"]
    assert offthread[0]["test"] == "tests/test_flaky.py::test_dropped_by_a_worker"
    assert re.search(r"test_flaky\.py +ours +1 of 3\n", done.stdout) and re.search(r"nvidia +1 of 2\n", done.stdout)
    assert f"1x {flaky}: AssertionError: the second run" in done.stdout
    assert "finalized off the main thread, run 2, tests/test_flaky.py::test_dropped_by_a_worker" in done.stdout
