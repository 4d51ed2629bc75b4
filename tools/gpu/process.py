# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The one way the GPU harness runs a process, and the few things every room says with.

``run()`` is the only caller of subprocess in tools/gpu (gpu_check's steps, upstream_suite.py,
numba_suite.py): one place decides how output is kept, how a timeout stops a process (SIGABRT
to its whole group first, so faulthandler prints where every thread was stuck, then SIGKILL),
and what a process that could not start looks like. Standard library only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# How run() treats a child's output: its streams passed through, stdout kept (stderr passed
# through), both kept apart, both kept as one stream; a Path: both written to that file.
OUTPUTS = {
    "inherit": (None, None),
    "stdout": (subprocess.PIPE, None),
    "capture": (subprocess.PIPE, subprocess.PIPE),
    "merge": (subprocess.PIPE, subprocess.STDOUT),
}
GRACE_SECONDS = 5  # after SIGABRT, before SIGKILL


class Fatal(Exception):
    """A step that everything after it needs failed: the run stops, exit status 1."""


def say(line: str) -> None:
    """A progress line, out before the output of the next child process."""
    print(line, flush=True)


@dataclass(frozen=True)
class Finished:
    """A process that ran: its exit status (-N when signal N ended it), what was kept of its
    output (str, or bytes with ``text=False``), its time, and whether run() stopped it."""

    returncode: int
    stdout: str | bytes
    stderr: str | bytes
    seconds: float
    timed_out: bool


def signal_name(returncode: int) -> str:
    """'SIGSEGV' for -11: the signal that ended a process, from its negative exit status."""
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def environment(pythonpath: Sequence[Path] = (), ld_paths: Sequence[Path] = (), **extra: str) -> dict[str, str]:
    """This process's environment, PYTHONPATH replaced by ``pythonpath`` if given, ``ld_paths`` first
    on LD_LIBRARY_PATH, and ``extra`` set."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(str(path) for path in pythonpath)
    if ld_paths:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [*(str(path) for path in ld_paths), *filter(None, [env.get("LD_LIBRARY_PATH")])]
        )
    env.update(extra)
    return env


def run(
    command: Sequence[object],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    timeout: float | None = None,
    output: str | Path = "inherit",
    input: bytes | None = None,
    text: bool = True,
) -> Finished:
    """Run ``command`` (its parts made strings) and wait for it.

    ``output`` is a key of OUTPUTS or a log file. With a ``timeout`` the process gets a session
    of its own, and past the timeout its whole group gets SIGABRT, then SIGKILL 5 s later.
    OSError (a program that is not there) is raised: each caller says it in its own words.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    log = output.open("wb") if isinstance(output, Path) else None
    stdout, stderr = (log, subprocess.STDOUT) if log else OUTPUTS[str(output)]
    started = time.monotonic()
    timed_out = False
    try:
        process = subprocess.Popen(
            [str(part) for part in command],
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.PIPE if input is not None else None,
            stdout=stdout,
            stderr=stderr,
            start_new_session=timeout is not None,
        )
        try:
            out, err = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGABRT)
            try:
                out, err = process.communicate(timeout=GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                out, err = process.communicate()
    finally:
        if log:
            log.close()
    out, err = out or b"", err or b""
    if text:
        out, err = out.decode(errors="replace"), err.decode(errors="replace")
    return Finished(process.returncode, out, err, time.monotonic() - started, timed_out)
