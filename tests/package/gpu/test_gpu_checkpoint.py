# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.checkpoint on the real driver: another process's CUDA state, locked, checkpointed,
restored and unlocked. The target is a child Python that made its context current and waits;
a driver or platform without checkpoint support skips, saying so."""

from __future__ import annotations

import subprocess
import sys

import pytest

TARGET = (
    "import sys; from cuda.core import Device; d = Device(0); d.set_current(); "
    "print('READY', d.uuid, flush=True); sys.stdin.readline(); print('ALIVE', Device().uuid, flush=True); "
    "sys.stdin.readline()"
)


@pytest.fixture
def target(cuda_core):
    from cuda.core import checkpoint

    try:
        checkpoint._get_driver()
    except RuntimeError as err:
        pytest.skip(str(err))
    child = subprocess.Popen(
        [sys.executable, "-c", TARGET], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    line = child.stdout.readline().split()
    if not line or line[0] != "READY":
        child.kill()
        pytest.fail(f"the target process did not start: {child.stderr.read()}")
    yield child, line[1]
    child.kill()
    child.wait(timeout=30)


def unsupported_skips(action) -> None:
    try:
        action()
    except RuntimeError as err:
        if "CUDA checkpointing is not supported" in str(err):
            pytest.skip(str(err))
        raise


def test_state_and_restore_thread(cuda_core, target) -> None:
    from cuda.core import checkpoint

    child, _ = target
    process = checkpoint.Process(child.pid)
    assert process.pid == child.pid
    unsupported_skips(lambda: process.state)
    assert process.state == "running"
    assert process.restore_thread_id > 0


def test_full_cycle_keeps_the_process_working(cuda_core, target) -> None:
    from cuda.core import checkpoint

    child, uuid = target
    process = checkpoint.Process(child.pid)
    unsupported_skips(lambda: process.lock(timeout_ms=5000))
    assert process.state == "locked"
    unsupported_skips(process.checkpoint)
    assert process.state == "checkpointed"
    unsupported_skips(process.restore)
    assert process.state == "locked"
    process.unlock()
    assert process.state == "running"
    child.stdin.write("go\n")
    child.stdin.flush()
    assert child.stdout.readline().split() == ["ALIVE", uuid]


def test_lock_unlock_default_timeout(cuda_core, target) -> None:
    from cuda.core import checkpoint

    process = checkpoint.Process(target[0].pid)
    unsupported_skips(process.lock)
    assert process.state == "locked"
    process.unlock()
    assert process.state == "running"
