# placeholder: replaced by branch graphdef
"""The smallest resolve_host_callback the graph builder compiles against: Python callables
and ctypes CFUNCTYPE(None, c_void_p) functions."""

import ctypes

cimport cuda.bindings.cydriver as cydriver
from cpython.ref cimport PyObject
from libc.stdint cimport uintptr_t

__all__ = []


cdef void _call_python(void* data) noexcept with gil:
    try:
        (<object><PyObject*>data)()
    except BaseException:
        import traceback
        traceback.print_exc()


cdef int resolve_host_callback(object fn, object user_data, cydriver.CUhostFn* out_fn, void** out_data,
                               list keepalive) except -1:
    if isinstance(fn, ctypes._CFuncPtr):
        out_fn[0] = <cydriver.CUhostFn><uintptr_t>ctypes.cast(fn, ctypes.c_void_p).value
        keepalive.append(fn)
        if user_data is None or isinstance(user_data, int):
            out_data[0] = <void*><uintptr_t>(user_data or 0)
            return 0
        copied = ctypes.create_string_buffer(bytes(user_data), len(bytes(user_data)))
        keepalive.append(copied)
        out_data[0] = <void*><uintptr_t>ctypes.addressof(copied)
        return 0
    if not callable(fn):
        raise TypeError(f"a host callback is a callable or a ctypes function pointer, got {type(fn).__name__}")
    if user_data is not None:
        raise ValueError("user_data is only supported with ctypes function pointers")
    keepalive.append(fn)
    out_fn[0] = _call_python
    out_data[0] = <PyObject*>fn
    return 0
