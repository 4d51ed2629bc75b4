# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""upstream_suite's diagnosis of objects finalized off the main thread: where and when.

Loaded with ``upstream_suite.py --plugin offthread_finalizer``. Before each test it wraps
``__del__`` of the classes named in OFFTHREAD_FINALIZER_CLASSES (comma-separated; default
``_ThreadRecordingCallback``, the callable NVIDIA's graph lifetime tests record the finalizing
thread of) found in the test's module. An instance finalized on a thread other than the main
one writes a JSON line to UPSTREAM_SUITE_RECORDS: the test, the class, the thread, its Python
stack (the frames that dropped the last reference), the main thread's stack at that moment,
and the state of cuda.core's release queue where the cuda.core under test has one. The
original ``__del__`` then runs as before, so the test sees what it always saw.
"""

import json
import os
import sys
import threading
import traceback

_PATH = os.environ.get("UPSTREAM_SUITE_RECORDS")
_CLASSES = [
    name for name in os.environ.get("OFFTHREAD_FINALIZER_CLASSES", "_ThreadRecordingCallback").split(",") if name
]
_current = {"test": ""}


def pytest_runtest_setup(item):
    _current["test"] = item.nodeid
    module = getattr(item, "module", None)
    for name in _CLASSES:
        watched = getattr(module, name, None)
        if isinstance(watched, type) and not watched.__dict__.get("_offthread_watched"):
            _watch(watched)


def _watch(cls) -> None:
    original = cls.__dict__.get("__del__")

    def __del__(self):
        if threading.current_thread() is not threading.main_thread():
            _record(cls)
        if original is not None:
            original(self)

    cls.__del__ = __del__
    cls._offthread_watched = True


def _queue_state():
    """cuda.core's release queue (queued, times the interpreter's queue was full), if it has one."""
    module = sys.modules.get("cuda.core.graph._graph_node")
    state = getattr(module, "_release_queue_state", None)
    try:
        return list(state()) if state is not None else None
    except Exception as error:  # noqa: BLE001 - a diagnosis must not raise from __del__
        return repr(error)


def _record(cls) -> None:
    main = sys._current_frames().get(threading.main_thread().ident)
    record = {
        "offthread": {
            "test": _current["test"],
            "class": cls.__qualname__,
            "thread": threading.current_thread().name,
            "stack": "".join(traceback.format_stack()[:-2]),
            "main_stack": "".join(traceback.format_stack(main)) if main is not None else "",
            "release_queue": _queue_state(),
        }
    }
    if _PATH:
        with open(_PATH, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
    else:
        print(json.dumps(record), file=sys.stderr)
