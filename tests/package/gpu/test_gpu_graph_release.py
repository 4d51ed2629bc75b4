# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What a graph keeps alive is finalized on the main thread, whichever thread lets go of it: a
definition, an executable Graph (dropped, closed or updated), a capture's builder, a destroyed
node; while the main thread runs Python (so it drains at once, racing the worker) or waits
with the interpreter's pending-call queue full (so the drain must wait for room, with no
later cuda.core call to prompt it)."""

from __future__ import annotations

import ctypes
import gc
import threading
import time

import pytest

ROUNDS = 20
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


class _FinalizedWhere:
    """A callable that records the thread it is finalized on."""

    def __init__(self, threads: list[int]) -> None:
        self.threads = threads

    def __call__(self) -> None:
        pass

    def __del__(self) -> None:
        self.threads.append(threading.get_ident())


def wait_for(threads: list[int], count: int, timeout: float = 5.0) -> None:
    """Run Python on the main thread (pending calls run between its bytecodes) until ``count``
    callables were finalized, calling nothing of cuda.core."""
    deadline = time.monotonic() + timeout
    while len(threads) < count and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.001)


def definition_with(cuda_core, threads: list[int]):
    from cuda.core.graph import GraphDefinition

    definition = GraphDefinition()
    definition.callback(_FinalizedWhere(threads))
    return definition


def holders(cuda_core, device, threads: list[int], kind: str):
    """(what the worker gets, what it does with it) for one kind of holder."""
    if kind == "definition":
        return [definition_with(cuda_core, threads)], lambda held: held.clear()
    if kind == "executable graph":
        return [definition_with(cuda_core, threads).instantiate()], lambda held: held.clear()
    if kind == "closed graph":
        return [definition_with(cuda_core, threads).instantiate()], lambda held: held[0].close()
    if kind == "updated graph":
        from cuda.core.graph import GraphDefinition

        other = GraphDefinition()
        other.callback(lambda: None)
        return [definition_with(cuda_core, threads).instantiate(), other], lambda held: held[0].update(held[1])
    if kind == "capture":
        builder = device.create_graph_builder().begin_building()
        builder.callback(_FinalizedWhere(threads))
        builder.end_building()
        return [builder], lambda held: held.pop().close()
    if kind == "destroyed node":
        definition = definition_with(cuda_core, threads)
        node = next(iter(definition.nodes()))
        return [definition, node], lambda held: held[1].destroy()
    raise AssertionError(kind)


KINDS = ("definition", "executable graph", "closed graph", "updated graph", "capture", "destroyed node")


@pytest.mark.parametrize("kind", KINDS)
def test_let_go_by_a_worker_while_the_main_thread_runs_python(cuda_core, device, kind) -> None:
    """The main thread spins in Python, so a drain runs as soon as the worker releases the GIL
    in the driver: the worker's own reference must be gone by then."""
    threads: list[int] = []
    for _ in range(ROUNDS):
        held, let_go = holders(cuda_core, device, threads, kind)
        done = threading.Event()
        worker = threading.Thread(target=lambda: (let_go(held), held.clear(), done.set()))
        worker.start()
        while not done.is_set():
            pass
        worker.join()
    wait_for(threads, ROUNDS)
    assert len(threads) == ROUNDS
    assert set(threads) == {threading.main_thread().ident}


@pytest.mark.parametrize("kind", KINDS)
def test_let_go_by_a_worker_with_the_pending_call_queue_full(cuda_core, device, kind) -> None:
    """The worker fills the interpreter's pending-call queue first, while the main thread waits:
    the drain cannot be scheduled then, and nothing of cuda.core is called afterwards."""
    threads: list[int] = []
    for _ in range(ROUNDS):
        held, let_go = holders(cuda_core, device, threads, kind)

        def fill_then_let_go():
            fill_pending_calls()
            let_go(held)
            held.clear()

        worker = threading.Thread(target=fill_then_let_go)
        worker.start()
        worker.join()
    wait_for(threads, ROUNDS)
    assert len(threads) == ROUNDS
    assert set(threads) == {threading.main_thread().ident}
