# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A cell of the matrix made real: its venv, its package built once, and its package tests run.

tools/dev/run_tests.py and tools/dev/run_matrix.py drive cells through this module, and the
package tests' conftest (tests/package/conftest.py) uses it to build the cell a lone test
runs in. Standard library only, beside the build's own facts.

A cell's package is built by meson-python into its own build directory, ``build/cells/CELL``
(kept: a second build of unchanged sources is a no-op), packed as a wheel, and installed into
the cell's venv, as a user installs it. (Not beside it with ``pip --target``: cuda-bindings
12.8 ships ``cuda/__init__.py``, and a regular ``cuda`` package hides every ``cuda.core``
that is not inside it.) The runners pass ``venvs=devenv.TEST_VENVS_DIR``: their own venvs,
never the user's ``.venvs/``.

Long steps say what they are doing: a build relays ninja's ``[N/M]`` lines as they come, and
a run (stream) that has been silent for HEARTBEAT_SECONDS says so, with its last line, unless its
caller turns that off (the package tests print a dot a test).
"""

from __future__ import annotations

import codecs
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import devenv
from cuda_core_build import facts

REPO_ROOT = facts.REPO_ROOT
CELLS_DIR = REPO_ROOT / "build" / "cells"
PACKAGE_TESTS = REPO_ROOT / "tests" / "package"
NO_TESTS_COLLECTED = 5
HEARTBEAT_SECONDS = 15.0  # the longest a long step stays silent
# ninja's status line, "[12/95] Compiling C++ object ...", not meson-python's list of the files
# it installs, "[3/167] /abs/path" (a burst at the end, not progress).
PROGRESS_LINE = re.compile(r"^\[\d+/\d+\] (?!/)")


@dataclass
class Outcome:
    """What happened to one cell: its build time, the package tests' counts, or why it stopped."""

    cell: devenv.Cell
    build_seconds: float | None = None
    counts: dict[str, int] = field(default_factory=dict)
    stopped: str = ""  # a one-line reason when the cell was skipped or its build failed
    status: int = 0

    @property
    def failed(self) -> bool:
        return self.status != 0 or self.counts.get("failed", 0) > 0 or self.counts.get("errors", 0) > 0


def log(message: str) -> None:
    print(f"cells: {message}", flush=True)


def run(
    command: list[str | Path], env: dict[str, str] | None = None, cwd: Path = REPO_ROOT, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a command from the repo root; its output goes to ours unless ``capture``."""
    return subprocess.run([str(part) for part in command], env=env, cwd=cwd, text=True, capture_output=capture)


def _pump(pipe: IO[bytes], chunks: queue.Queue[bytes]) -> None:
    """Hand everything read from ``pipe`` to ``chunks``, then b"" at its end."""
    while chunk := os.read(pipe.fileno(), 65536):
        chunks.put(chunk)
    chunks.put(b"")


def stream(
    command: list[str | Path],
    env: dict[str, str],
    label: str,
    shown: Callable[[str], bool] | None = None,
    cwd: Path = REPO_ROOT,
    heartbeat: float = HEARTBEAT_SECONDS,
    echo: bool = True,
) -> tuple[int, str]:
    """Run a command, relaying its output as it comes: all of it (``shown`` None), or the lines
    ``shown`` accepts, indented. Whenever nothing was said for ``heartbeat`` seconds, one line says
    that ``label`` is still running, for how long, and the command's last line (for pytest -v,
    the test that runs). Without ``echo``, nothing is relayed. Returns the exit status and the
    whole output (stderr merged)."""
    process = subprocess.Popen(
        [str(part) for part in command], env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert process.stdout is not None
    chunks: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, chunks), daemon=True).start()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    output: list[str] = []
    partial = ""  # the output's unfinished last line
    start = said = time.monotonic()
    while (chunk := _next_chunk(chunks, min(1.0, heartbeat / 4))) != b"":
        now = time.monotonic()
        if chunk is None:
            if echo and now - said >= heartbeat:
                last = (partial or "".join(output[-20:]).rstrip("\n").rpartition("\n")[2]).strip()
                newline = "\n" if partial and shown is None else ""
                print(f"{newline}{label}: still running, {now - start:.0f} s: {last[:160]}", flush=True)
                said = now
            continue
        text = decoder.decode(chunk)
        output.append(text)
        lines = (partial + text).split("\n")
        partial = lines.pop()
        if not echo:
            continue
        if shown is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            said = now
        else:
            for line in filter(shown, lines):
                print(f"    {line}", flush=True)
                said = now
    return process.wait(), "".join(output)


def _next_chunk(chunks: queue.Queue[bytes], wait: float) -> bytes | None:
    """The next piece of output, or None when there was none for ``wait`` seconds."""
    try:
        return chunks.get(timeout=wait)
    except queue.Empty:
        return None


def clean_env(**updates: str) -> dict[str, str]:
    """The environment without variables that would point a build or a test elsewhere."""
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(updates)
    return env


def build_env(python: Path) -> dict[str, str]:
    """A cell's build environment: its venv's tools first on PATH, ccache among them (requirements/test.txt),
    into the checkout's one cache. Meson keeps the launcher it found at setup, so every runner that builds a
    cell's directory must offer the same one: run_tests and run_matrix share build/cells."""
    path = f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    # A cache already chosen wins: a runner inside the suite (README's run_matrix, in a clone) shares its caches.
    return clean_env(
        PATH=path,
        CCACHE_DIR=os.environ.get("CCACHE_DIR") or str(REPO_ROOT / "build" / "ccache"),
        CUDA_CORE_CYTHON_CACHE=os.environ.get("CUDA_CORE_CYTHON_CACHE") or str(REPO_ROOT / "build" / "cython-cache"),
    )


def build_wheel(cell: str, python: Path, root: Path = CELLS_DIR, beside: bool = False) -> Path:
    """Build the cell's wheel with its venv's tools into ``root/CELL`` (kept between runs); return it.
    Ninja's progress lines are shown as they come; ``beside`` other work, silently and at the lowest
    CPU priority (``nice``), so that it takes only the cores that work leaves idle.

    Raises RuntimeError with the build's first error line if it fails.
    """
    build_dir, out = root / cell, root / f"{cell}-wheel"
    shutil.rmtree(out, ignore_errors=True)
    status, output = stream(
        [
            *(["nice", "-n", "19"] if beside else []),
            python,
            "-m",
            "pip",
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            "-v",
            f"--config-settings=build-dir={build_dir}",
            "-w",
            out,
            REPO_ROOT,
        ],
        build_env(python),
        f"cells: {cell}: building",
        shown=lambda line: bool(PROGRESS_LINE.match(line.strip())),
        echo=not beside,
    )
    if status != 0:
        raise RuntimeError(first_build_error(output))
    return next(out.glob("cuda_core-*.whl"))


def first_build_error(output: str) -> str:
    """The line of a failed build's output that names the cause: Meson's ERROR (a configure-time
    refusal), else the first compiler or Cython error after ninja's FAILED, else pip's last word."""
    lines = [line.strip() for line in output.splitlines()]
    for line in lines:
        if "ERROR:" in line and "Problem encountered" in line:
            return line.split("Problem encountered: ", 1)[-1]
    failed = next((index for index, line in enumerate(lines) if line.startswith("FAILED:")), None)
    if failed is not None:
        for line in lines[failed + 1 :]:
            if re.search(r":\d+:\d+: (fatal )?error|\.p[yx][xdi]:\d+:\d+: ", line) or line.startswith("Error"):
                if not line.startswith("Error compiling Cython file"):
                    return line
        return lines[failed]
    return next((line for line in reversed(lines) if line), "no output")


def install(wheel: Path, python: Path) -> None:
    """Install one wheel into the venv of ``python``, no dependencies (the venv has them)."""
    result = run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--force-reinstall", wheel],
        clean_env(),
        capture=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"installing {wheel.name} failed: {result.stderr.strip().splitlines()[-1]}")


def install_package(
    cell: str, wheelhouse: Path | None = None, root: Path = CELLS_DIR, venvs: Path = devenv.VENVS_DIR
) -> float | None:
    """The cell's package installed in its venv under ``venvs``: the wheel in ``wheelhouse/CELL``
    where there is one (the build tests leave theirs), else built now. Returns the build's
    seconds, if built."""
    python = devenv.venv_python(cell, venvs)
    made = sorted((wheelhouse / cell).glob("cuda_core-*.whl")) if wheelhouse else []
    seconds = None
    if made:
        wheel = made[-1]
        log(f"{cell}: installing {wheel.name} from {wheel.parent}")
    else:
        log(f"{cell}: building the package (meson-python, build dir {(root / cell).relative_to(REPO_ROOT)})")
        start = time.monotonic()
        wheel = build_wheel(cell, python, root)
        seconds = time.monotonic() - start
        log(f"{cell}: built in {seconds:.0f} s")
    install(wheel, python)
    return seconds


def junit_counts(report: Path) -> dict[str, int]:
    """passed, failed, errors and skipped from pytest's JUnit XML report."""
    if not report.is_file():
        return {}
    suite = ElementTree.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    assert suite is not None
    total, failed, errors, skipped = (int(suite.get(key, "0")) for key in ("tests", "failures", "errors", "skipped"))
    return {"passed": total - failed - errors - skipped, "failed": failed, "errors": errors, "skipped": skipped}


def run_package_tests(
    cell: str, pytest_args: list[str], report: Path, venvs: Path = devenv.VENVS_DIR
) -> tuple[int, dict[str, int]]:
    """pytest over tests/package in the cell's venv under ``venvs``, on two workers (pytest-xdist:
    a test that crashes its worker fails alone). Returns pytest's status and the counts."""
    python = devenv.venv_python(cell, venvs)
    report.parent.mkdir(parents=True, exist_ok=True)
    command = [
        python,
        "-m",
        "pytest",
        str(PACKAGE_TESTS),
        "-q",
        "-n",
        "2",
        "-p",
        "no:cacheprovider",
        f"--junitxml={report}",
        *pytest_args,
    ]
    log(f"{cell}: {' '.join(map(str, command))}")
    status, _ = stream(command, clean_env(PYTHONUNBUFFERED="1"), f"cells: {cell}: package tests", heartbeat=math.inf)
    return status, junit_counts(report)


def run_cell(
    cell: devenv.Cell,
    pytest_args: list[str],
    wheelhouse: Path | None = None,
    reports: Path = CELLS_DIR / "reports",
    venvs: Path = devenv.VENVS_DIR,
) -> Outcome:
    """Make the cell's venv under ``venvs``, get its package (from ``wheelhouse``, else built in
    build/cells/), run its package tests; their JUnit report goes to ``reports/CELL.xml``."""
    outcome = Outcome(cell)
    try:
        devenv.ensure(cell.name, root=venvs)
    except devenv.PythonMissing as err:
        outcome.stopped = f"skipped: {err}"
        log(f"{cell.name}: {outcome.stopped}")
        return outcome
    except subprocess.CalledProcessError as err:
        outcome.stopped, outcome.status = f"venv failed: {Path(err.cmd[0]).name} exited with {err.returncode}", 1
        log(f"{cell.name}: {outcome.stopped}")
        return outcome
    try:
        outcome.build_seconds = install_package(cell.name, wheelhouse, venvs=venvs)
    except RuntimeError as err:
        outcome.stopped, outcome.status = f"build failed: {err}", 1
        log(f"{cell.name}: {outcome.stopped}")
        return outcome
    outcome.status, outcome.counts = run_package_tests(cell.name, pytest_args, reports / f"{cell.name}.xml", venvs)
    return outcome
