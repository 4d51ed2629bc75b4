# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


cdef class Stream:
    cdef cydriver.CUstream _handle
    cdef cydriver.CUcontext _context   # NULL until known; always NULL for the default streams
    cdef int _device_id                # -1 until known
    cdef int _nonblocking              # -1 until known
    cdef int _priority
    cdef bint _priority_known
    cdef bint _owned                   # made here: close() destroys it
    cdef bint _closed
    # What the stream needs alive: a foreign stream's owner, or the GreenContext of a green
    # context's stream.
    cdef object _foreign
    cdef object __weakref__

    # The CUstream, or a RuntimeError once the stream is closed.
    cdef cydriver.CUstream _live_handle(self) except? <cydriver.CUstream>1

    # Learn the context and device of a stream not made here (no-op for default streams).
    cdef int _resolve(self) except -1
    # The stream's context; for a default stream, the current one (an error if none).
    cdef cydriver.CUcontext _current_context(self) except? NULL
    # The stream's device; for a default stream, the current device (else 0).
    cdef int _current_device_id(self) except -2


# The legacy or the per-thread default stream, as CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM
# selects (read on each call): what Device.default_stream returns.
cpdef Stream default_stream()

# ``arg`` if it is a Stream; with ``allow_stream_protocol``, a Stream over an object's
# ``__cuda_stream__`` (with a DeprecationWarning); a TypeError otherwise (None included).
cpdef Stream Stream_accept(arg, bint allow_stream_protocol=*)

# ``obj`` itself if it is a Stream, else a non-owning Stream over its ``__cuda_stream__``.
cpdef Stream as_stream(object obj, int device_id=*)


# ---- Green contexts (device resources) ----
# A new owned non-blocking stream on the green context ``green`` (``context`` as a CUcontext)
# of device ``device_id``, made with StreamOptions ``options``; it holds ``owner`` (the
# GreenContext) alive. What Context.create_stream() returns.
cdef Stream new_green_stream(object owner, cydriver.CUgreenCtx green, cydriver.CUcontext context,
                             int device_id, object options)
