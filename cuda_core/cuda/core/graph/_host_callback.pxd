# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Host callbacks for graphs (HostCallbackNode, GraphBuilder.callback).
cimport cuda.bindings.cydriver as cydriver


# The driver function and userData that call ``fn``: a Python callable (called with
# ``user_data`` when it is not None) or a ctypes CFUNCTYPE(None, c_void_p) function pointer
# (given ``user_data`` as its pointer). Whatever must outlive the graph is appended to
# ``keepalive``; a TypeError names a bad ``fn``.
cdef int resolve_host_callback(object fn, object user_data, cydriver.CUhostFn* out_fn, void** out_data,
                               list keepalive) except -1

# Whether ``fn`` is the trampoline that calls Python callables (its userData is the callable).
cdef bint is_python_trampoline(cydriver.CUhostFn fn) noexcept nogil
