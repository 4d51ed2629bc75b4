from cuda.core.texture._texture cimport _BindlessObject


cdef class SurfaceObject(_BindlessObject):
    cdef object _source_ref  # the ResourceDescriptor, for introspection
