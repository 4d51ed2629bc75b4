# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Host callbacks for graphs: a Python callable (called through a trampoline that takes the
GIL) or a ctypes function pointer declared as the driver's CUhostFn, ``void (*)(void*)``."""

import ctypes
import sys

cimport cuda.bindings.cydriver as cydriver
from cpython.bytes cimport PyBytes_AS_STRING
from libc.stdint cimport uintptr_t

_CUHOSTFN_HINT = ('ctypes.CFUNCTYPE(None, ctypes.c_void_p)' if sys.platform != 'win32' else
                  'ctypes.CFUNCTYPE(None, ctypes.c_void_p) or ctypes.WINFUNCTYPE(None, ctypes.c_void_p)')


cdef void _python_trampoline(void* callable_object) noexcept with gil:
    """The CUhostFn of Python callables. An exception cannot reach the driver: it goes to
    sys.unraisablehook."""
    try:
        (<object>callable_object)()
    except BaseException as error:
        sys.unraisablehook(_Unraisable(error, <object>callable_object))


class _Unraisable:
    """What sys.unraisablehook gets for an exception raised by a graph host callback."""

    def __init__(self, error: BaseException, callable_object) -> None:
        self.exc_type = type(error)
        self.exc_value = error
        self.exc_traceback = error.__traceback__
        self.err_msg = "Exception ignored in a CUDA graph host callback"
        self.object = callable_object


cdef bint is_python_trampoline(cydriver.CUhostFn fn) noexcept nogil:
    return fn == _python_trampoline


def _cuhostfn_type_error(detail):
    """Build the rejection message for a non-conforming ctypes callback."""
    return TypeError(f"a ctypes host callback must be declared as {_CUHOSTFN_HINT} (the driver's CUhostFn, "
                     f"void (*)(void*)): {detail}")


def _validate_ctypes_host_callback(fn):
    """Reject ctypes callbacks whose declared prototype is not CUhostFn.

    The declared ``restype`` and ``argtypes`` are what the driver calls through; a pointer
    taken from a shared library keeps ctypes' defaults (an int result, arguments unknown)
    until declared, so it must be declared to be accepted.
    """
    restype = getattr(fn, "restype", None)
    if restype is not None:
        raise _cuhostfn_type_error(f"its restype is {restype!r}, not None")
    argtypes = getattr(fn, "argtypes", None)
    if argtypes is None or tuple(argtypes) != (ctypes.c_void_p,):
        raise _cuhostfn_type_error(f"its argtypes are {argtypes!r}, not (ctypes.c_void_p,)")


cdef int resolve_host_callback(object fn, object user_data, cydriver.CUhostFn* out_fn, void** out_data,
                               list keepalive) except -1:
    cdef bytes copied
    if isinstance(fn, ctypes._CFuncPtr):
        _validate_ctypes_host_callback(fn)
        address = ctypes.cast(fn, ctypes.c_void_p).value
        if not address:
            raise ValueError("the ctypes host callback is a NULL function pointer")
        out_fn[0] = <cydriver.CUhostFn><uintptr_t>address
        keepalive.append(fn)
        if user_data is None:
            out_data[0] = NULL
        elif isinstance(user_data, int):
            out_data[0] = <void*><uintptr_t>user_data  # the caller keeps it valid
        else:
            try:
                copied = bytes(memoryview(user_data))
            except TypeError:
                raise TypeError(f"user_data must be an int (a pointer) or a bytes-like object, "
                                f"not {type(user_data).__name__}") from None
            out_data[0] = <void*>PyBytes_AS_STRING(copied)
            keepalive.append(copied)
        return 0
    if callable(fn):
        if user_data is not None:
            raise ValueError("user_data is only supported with ctypes function pointer callbacks; bind state to "
                             "a Python callable with a closure or functools.partial")
        out_fn[0] = _python_trampoline
        out_data[0] = <void*>fn
        keepalive.append(fn)
        return 0
    raise TypeError(f"a host callback must be a Python callable or a ctypes function pointer ({_CUHOSTFN_HINT}), "
                    f"not {type(fn).__name__}")
