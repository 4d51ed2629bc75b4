# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
from cuda.core.texture._texture cimport _BindlessObject


cdef class SurfaceObject(_BindlessObject):
    cdef object _source_ref  # the ResourceDescriptor, for introspection
