# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver


# The CUmemLocation of a ``_LocSpec`` (cuda.core._memory._managed_location); None is the host.
cdef int fill_location(cydriver.CUmemLocation* out, object spec) except -1
