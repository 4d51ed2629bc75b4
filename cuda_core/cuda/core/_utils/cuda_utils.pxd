# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The one error-checking helper of cuda.core: every driver call goes through it.
# cimport the module form: Cython's depfile (-M) leaves out a .pxd cimported as
# `from cuda.bindings cimport cydriver`, so a changed cydriver.pxd would rebuild nothing.
cimport cuda.bindings.cydriver as cydriver

# Raise CUDAError for a failed CUresult; return 0 on success.
cdef int HANDLE_RETURN(cydriver.CUresult result) except -1 nogil

# Load and initialise the driver once; raise DriverNotFoundError without one.
cdef int ensure_driver() except -1

# How many devices the driver sees (loading the driver first).
cdef int device_count() except -1

# The device of this thread's current context, or -1 when no context is current.
cdef int current_device() except -2
