# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The versions of what cuda.core runs against, for C callers: the same (major, minor, patch)
# tuples as binding_version() and driver_version(), computed once.
cdef tuple cy_binding_version()
cdef tuple cy_driver_version()
