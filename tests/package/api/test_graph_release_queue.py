# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The queue that finalizes what graphs keep alive on the main thread, without a GPU: references
queued from other threads as the driver's user-object destructor queues them (no GIL), dropped
by a drain on the main thread, also when the interpreter's pending-call queue is full when they
come, and with nothing of cuda.core called afterwards."""

from __future__ import annotations

import ctypes
import threading
import time

import pytest

PENDING_CALL = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


@PENDING_CALL
def _nothing(_) -> int:
    return 0


def fill_pending_calls() -> None:
    """Fill the interpreter's pending-call queue (the main thread empties it as it runs Python)."""
    add = ctypes.pythonapi.Py_AddPendingCall
    add.argtypes = [PENDING_CALL, ctypes.c_void_p]
    add.restype = ctypes.c_int
    while add(_nothing, None) == 0:
        pass


class FinalizedWhere:
    """Records the name of the thread it is finalized on."""

    def __init__(self, threads: list[str]) -> None:
        self.threads = threads

    def __del__(self) -> None:
        self.threads.append(threading.current_thread().name)


def wait_for(threads: list[str], count: int, timeout: float = 5.0) -> None:
    """Run Python on the main thread, calling nothing of cuda.core, until ``count`` were finalized."""
    deadline = time.monotonic() + timeout
    while len(threads) < count and time.monotonic() < deadline:
        time.sleep(0.001)


def release_from_workers(workers: int, each: int, fill_first: bool) -> list[str]:
    """Each worker queues ``each`` objects (holding the only references) after filling the
    pending-call queue if ``fill_first``; the threads they were finalized on."""
    from cuda.core.graph._graph_node import _release_from_this_thread_for_testing as release

    threads: list[str] = []
    ready = threading.Barrier(workers)

    def work() -> None:
        held = [FinalizedWhere(threads) for _ in range(each)]
        ready.wait()
        if fill_first:
            fill_pending_calls()
        while held:
            release(held)

    started = [threading.Thread(target=work, name=f"worker-{n}") for n in range(workers)]
    for worker in started:
        worker.start()
    for worker in started:
        worker.join()
    wait_for(threads, workers * each)
    return threads


def test_released_by_a_worker_goes_on_the_main_thread() -> None:
    assert release_from_workers(1, 5, fill_first=False) == ["MainThread"] * 5


def test_released_with_the_pending_call_queue_full_goes_on_the_main_thread_unprompted() -> None:
    """The drain may not be schedulable when the references come: it is retried until there is room,
    with no later cuda.core call needed (before, they waited for the next graph call). Whether a retry
    was needed depends on how soon the main thread emptied the queue, so only the outcome is checked."""
    from cuda.core.graph._graph_node import _release_queue_state

    assert release_from_workers(1, 3, fill_first=True) == ["MainThread"] * 3
    assert _release_queue_state()[0] == 0


def test_many_workers_racing_a_full_queue_strand_nothing() -> None:
    """Releases from several threads while scheduling fails: none is left queued without a drain
    to come (a release that found a drain 'scheduled' by a thread whose scheduling then failed
    used to wait for the next graph call)."""
    threads = release_from_workers(8, 25, fill_first=True)
    assert len(threads) == 200 and set(threads) == {"MainThread"}


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # the fork is the point
def test_a_forked_child_gets_its_own_release_queue() -> None:
    """fork() copies the queue's lock and condition variable with the parent's retry thread
    waiting on them, a thread the child lacks: the child takes a queue of its own, so each of
    its rounds (a full pending-call queue, then a wake of its own retry thread) drains on its
    main thread. Before, a child's notify could hang or wake the parent's absent thread."""
    import os
    import signal

    release_from_workers(1, 1, fill_first=True)  # the parent's retry thread now waits
    pid = os.fork()
    if pid == 0:  # the child: report through the exit status only, never return into pytest
        ok = False
        try:
            ok = all(release_from_workers(1, 2, fill_first=True) == ["MainThread"] * 2 for _ in range(5))
        finally:
            os._exit(0 if ok else 3)
    deadline = time.monotonic() + 60
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert done[0] == pid, "the forked child hung releasing (killed after 60 s)"
    assert os.waitstatus_to_exitcode(done[1]) == 0
