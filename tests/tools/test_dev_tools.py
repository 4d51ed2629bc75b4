# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The developer tools of tools/dev as a user meets them: run_tests.py's help and its results,
run_matrix.py's table in docs/matrix.md, devenv's venvs (with pip), and cells' progress.

None of these builds the package: they run the tools' own code on real files, processes and
venvs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import cells
import devenv
import pytest
import run_matrix
import run_tests
from builds import MAJORS, REPO_ROOT, copy_checkout, venv_for
from cuda_core_build import facts

RUN_TESTS = Path("tools") / "dev" / "run_tests.py"


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and directory under ``root``, ignored ones included: (size, mtime)."""
    return {str(path.relative_to(root)): (path.lstat().st_size, path.lstat().st_mtime_ns) for path in root.rglob("*")}


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_run_tests_help_prints_help_at_once_and_changes_nothing(tmp_path: Path, flag: str) -> None:
    """``run_tests.py --help`` prints its usage and exits 0 within 5 s (it used to make venvs and
    build for 150 s, delete the last results and exit 1), leaving every file of the tree as it was."""
    checkout = copy_checkout(tmp_path / "checkout")
    before = tree_state(checkout)
    process = subprocess.Popen(
        [sys.executable, RUN_TESTS, flag],
        cwd=checkout,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"run_tests.py {flag} was still running after 5 s, so it did work instead of printing help:\n{out}")
    assert process.returncode == 0, out + err
    assert out.startswith("Run the whole test suite") and "--help" in out and not err
    assert tree_state(checkout) == before


def test_a_run_keeps_the_last_results_until_it_has_its_own(tmp_path: Path) -> None:
    session = tmp_path / "tests"
    (session / "last" / "reports").mkdir(parents=True)
    (session / "last" / "summary.md").write_text("the previous run")
    (session / "running").mkdir()
    (session / "running" / "interrupted.xml").write_text("a run stopped half-way")
    running = run_tests.start_run(session)
    assert (session / "last" / "summary.md").read_text() == "the previous run"
    assert running == session / "running" and list(running.rglob("*")) == [running / "reports"]
    (running / "summary.md").write_text("this run")
    assert run_tests.finish_run(running) == session / "last"
    assert (session / "last" / "summary.md").read_text() == "this run" and not running.exists()


def test_the_runners_venvs_are_not_the_users() -> None:
    """The runners and the build tests install into build/.venvs/, never into .venvs/ where
    README's editable install goes."""
    assert run_tests.VENVS == devenv.TEST_VENVS_DIR == REPO_ROOT / "build" / ".venvs"
    assert devenv.VENVS_DIR == REPO_ROOT / ".venvs"
    for major in MAJORS:
        assert venv_for(major).root == devenv.TEST_VENVS_DIR / f"cu{major}"


def matrix_row(cell: str, passed: str, date: str) -> list[str]:
    return [cell, "3.11", "13.0.3", "13.0.96", "newest", "4 s", passed, "0", "3", date]


def test_one_cell_written_replaces_its_row_alone() -> None:
    """``run_matrix.py CELL --write`` merges that cell's row into docs/matrix.md: every other row,
    their dates, and the text around the table stay; the line of the last full run too."""
    order = list(devenv.cells())
    document = (REPO_ROOT / "docs" / "matrix.md").read_text()
    before, rows, after = run_matrix.split_document(document)
    assert [row[0] for row in rows] == order and all(row[-1] for row in rows)
    cell = order[4]
    merged = run_matrix.merge_document(document, [matrix_row(cell, "12345", "2030-01-02")], order, None)
    new_before, new_rows, new_after = run_matrix.split_document(merged)
    assert (new_before, new_after) == (before, after)
    assert [row[0] for row in new_rows] == order
    assert new_rows[4] == matrix_row(cell, "12345", "2030-01-02")
    assert new_rows[:4] + new_rows[5:] == rows[:4] + rows[5:]


def test_a_run_of_every_cell_says_when() -> None:
    order = list(devenv.cells())
    old = run_matrix.merge_document(None, [matrix_row(order[0], "1", "2030-01-01")], order, None)
    assert run_matrix.FULL_RUN not in old
    rows = [matrix_row(cell, "2", "2030-01-02") for cell in reversed(order)]
    full = run_matrix.merge_document(old, rows, order, run_matrix.full_run_line("2030-01-02", 600))
    again = run_matrix.merge_document(full, rows, order, run_matrix.full_run_line("2030-01-03", 60))
    for text, date in ((full, "2030-01-02"), (again, "2030-01-03")):
        lines = [line for line in text.splitlines() if line.startswith(run_matrix.FULL_RUN)]
        assert len(lines) == 1 and f" {date}, " in lines[0]
        assert [row[0] for row in run_matrix.split_document(text)[1]] == order


def test_an_older_table_without_dates_is_read() -> None:
    old = "# The matrix\n\n| cell | passed | build |\n|---|---|---|\n| cu13 | 7 | 4 s |\n\nAfter.\n"
    before, rows, after = run_matrix.split_document(old)
    assert before == "# The matrix\n\n" and after == "\nAfter.\n"
    assert rows == [["cu13", "", "", "", "", "4 s", "7", "", "", ""]]


@pytest.mark.network
def test_devenv_venvs_made_with_uv_hold_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With uv on PATH, devenv's venv still has pip, so README's ``.venvs/cu13/bin/python -m pip
    install --no-build-isolation -e .`` works there. A venv devenv made before without pip gets it
    back on the next ``devenv.py`` run, keeping what it holds."""
    uv_only = tmp_path / "uv-only"
    uv_only.mkdir()
    (uv_only / "uv").symlink_to(venv_for(MAJORS[-1]).bin / "uv")
    monkeypatch.setenv("PATH", f"{uv_only}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setenv("UV_CACHE_DIR", str(devenv.TEST_VENVS_DIR / "uv-cache"))
    monkeypatch.setenv("UV_LINK_MODE", "hardlink")
    cell = devenv.default_cell(MAJORS[-1]).name
    # Made with another Python than the cell's (devenv.py --python): the newest supported one (the newest
    # tool set needs 3.11: cuda-pathfinder 1.9.1; 3.10's cells use the floor set).
    other = facts.matrix()["python"]["versions"].split()[-1]
    python = devenv.ensure(cell, root=tmp_path / "venvs", python_version=other)
    version = subprocess.run([str(python), "-c", "import sys; print(sys.version_info[:2])"], capture_output=True)
    assert version.stdout.decode().strip() == str(tuple(map(int, other.split("."))))
    pip = [str(python), "-m", "pip", "--version"]
    assert subprocess.run(pip, capture_output=True).returncode == 0
    subprocess.run([str(python), "-m", "pip", "uninstall", "-y", "-q", "pip"], check=True)
    assert subprocess.run(pip, capture_output=True).returncode != 0
    stamp = (python.parent.parent / devenv.STAMP_NAME).read_text()
    devenv.ensure(cell, root=tmp_path / "venvs", python_version=other)
    assert subprocess.run(pip, capture_output=True).returncode == 0
    assert (python.parent.parent / devenv.STAMP_NAME).read_text() == stamp
    assert subprocess.run([str(python), "-c", "import cuda.bindings, mesonpy"]).returncode == 0


def test_devenv_refuses_an_unsupported_python_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, REPO_ROOT / "tools" / "dev" / "devenv.py", "cu12", "--python", "3.9"],
        capture_output=True,
        text=True,
    )
    versions = ", ".join(facts.matrix()["python"]["versions"].split())
    assert result.returncode == 1 and result.stderr == f"devenv: Python 3.9 is not supported: use one of {versions}\n"


def test_devenv_refuses_a_python_its_tools_do_not_install_on_in_one_line(tmp_path: Path) -> None:
    """cu12 --python 3.10 ended in uv's resolver (cuda-pathfinder 1.9.1 needs 3.11): now one line, before
    anything is made, naming the cells made for that Python, the major's own first."""
    oldest = facts.tools_python("newest")
    key = lambda version: tuple(map(int, version.split(".")))  # noqa: E731
    older = next(v for v in facts.matrix()["python"]["versions"].split() if key(v) < key(oldest))
    made_for_it = [c for c in devenv.cells().values() if c.python == older and c.cuda.startswith("12.")]
    result = subprocess.run(
        [sys.executable, REPO_ROOT / "tools" / "dev" / "devenv.py", "cu12", "--python", older],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1, result.stderr
    assert f"cu12's newest tools need Python {oldest} or later" in result.stderr
    assert f"python3 tools/dev/devenv.py {made_for_it[0].name}" in result.stderr


def test_a_silent_step_says_what_it_is_doing(capsys: pytest.CaptureFixture[str]) -> None:
    """A long step relays the progress lines asked for as they come, and says it is still running,
    with its last line, whenever it was silent for the heartbeat's time (15 s in use, 1 s here)."""
    script = (
        "import time; print('configuring', flush=True); time.sleep(2.5); "
        "print('[1/2] Compiling a', flush=True); print('noise'); print('[2/2] Linking b', flush=True); "
        "print('[1/1] /site/cuda/core/__init__.py', flush=True); "
        "time.sleep(1.5); raise SystemExit(3)"
    )
    status, output = cells.stream(
        [sys.executable, "-c", script],
        cells.clean_env(),
        "the step",
        shown=lambda line: bool(cells.PROGRESS_LINE.match(line)),
        heartbeat=1.0,
    )
    shown = capsys.readouterr().out.splitlines()
    assert status == 3 and output.splitlines() == [
        "configuring",
        "[1/2] Compiling a",
        "noise",
        "[2/2] Linking b",
        "[1/1] /site/cuda/core/__init__.py",
    ]
    assert [line for line in shown if "still running" not in line] == ["    [1/2] Compiling a", "    [2/2] Linking b"]
    beats = [line for line in shown if "still running" in line]
    assert beats and beats[0].startswith("the step: still running, ") and beats[0].endswith(": configuring")
    assert beats[-1].endswith(": [1/1] /site/cuda/core/__init__.py")


def test_a_pytest_run_says_which_test_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Relayed whole (pytest -v), a run silent for the heartbeat's time names the test it is in."""
    (tmp_path / "test_slow.py").write_text("import time\n\ndef test_sleeps():\n    time.sleep(2.5)\n")
    status, _ = cells.stream(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", tmp_path / "test_slow.py"],
        cells.clean_env(PYTHONUNBUFFERED="1"),
        "build tests",
        cwd=tmp_path,
        heartbeat=1.0,
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "build tests: still running, " in out
    beat = next(line for line in out.splitlines() if "still running" in line)
    assert beat.endswith("test_slow.py::test_sleeps")
