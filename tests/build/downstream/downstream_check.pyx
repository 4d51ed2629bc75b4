# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# cython: language_level=3
"""A downstream extension of cuda.core: it cimports cuda.core's public .pxd files and includes
its headers (utility.hpp, layout.hpp, dlpack.h, aoti_shim.h). ``report()`` returns what it saw,
for tests/build/test_downstream.py to compare with cuda.core's Python side.

Importing it checks the .pxd files against the compiled modules: Cython compares the size of
every cdef class this module uses with the installed module's type, and looks up every cdef
function it calls in that module's C API table.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, intptr_t, uintptr_t
from libcpp.vector cimport vector

cimport cuda.bindings.cydriver as cydriver
cimport cuda.bindings.cynvrtc as cynvrtc
from cuda.bindings.driver cimport CUevent as PyCUevent, CUstream as PyCUstream
from cuda.bindings.nvrtc cimport nvrtcProgram as PyNvrtcProgram

from cuda.core._layout cimport _StridedLayout
from cuda.core._memory._buffer cimport Buffer, MemoryResource
from cuda.core._memory._managed_memory_resource cimport ManagedMemoryResource
from cuda.core._memory._pinned_memory_resource cimport PinnedMemoryResource
from cuda.core._memoryview cimport StridedMemoryView
from cuda.core._stream cimport Stream
from cuda.core._utils.version cimport cy_binding_version
from cuda.core.graph cimport GraphDefinition, GraphNode, IfElseNode, KernelNode

import numpy

cdef extern from "utility.hpp":
    cydriver.CUstream& stream_handle "get_cuda_native_handle"(PyCUstream)
    cydriver.CUevent event_handle "get_cuda_native_handle"(PyCUevent)
    cynvrtc.nvrtcProgram program_handle "get_cuda_native_handle"(PyNvrtcProgram)

cdef extern from *:
    """
    #include "utility.hpp"
    // An object laid out as cuda.bindings before 12.8 laid its handle objects out (`_ptr`).
    struct downstream_legacy_handle { long value; long* _ptr; };
    static long downstream_legacy_value(long value) {
        downstream_legacy_handle legacy{value, nullptr};
        legacy._ptr = &legacy.value;
        return get_cuda_native_handle(&legacy);
    }
    """
    long legacy_value "downstream_legacy_value"(long value)

cdef extern from "layout.hpp":
    int STRIDED_LAYOUT_MAX_NDIM
    unsigned long long AXES_MASK_ALL
    void order_from_strides "_order_from_strides"(vector[int]& indices, const int64_t* shape, const int64_t* strides,
                                                  int ndim)

cdef extern from "dlpack.h":
    ctypedef struct DLPackVersion:
        unsigned int major
        unsigned int minor
    ctypedef struct DLDataType:
        unsigned char code
        unsigned char bits
        unsigned short lanes
    ctypedef struct DLDevice:
        int device_type
        int device_id
    ctypedef struct DLTensor:
        void* data
        DLDevice device
        int ndim
        DLDataType dtype
        int64_t* shape
        int64_t* strides
        unsigned long long byte_offset
    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        unsigned long long flags
        DLTensor dl_tensor
    int DLPACK_MAJOR_VERSION
    int kDLCPU
    int kDLFloat
    unsigned long long DLPACK_FLAG_BITMASK_READ_ONLY

cdef extern from "aoti_shim.h":
    ctypedef void* AtenTensorHandle  # only declared: libtorch defines the functions


cdef dict handles():
    """The native handles that utility.hpp reads out of cuda.bindings objects."""
    stream, event, program = PyCUstream(0x1234), PyCUevent(0x5678), PyNvrtcProgram(0x9abc)
    cdef cydriver.CUstream* inside = &stream_handle(stream)
    inside[0] = <cydriver.CUstream><uintptr_t>0x4321  # the reference is the object's own storage
    return {"stream": int(stream), "event": <uintptr_t>event_handle(event),
            "program": <uintptr_t>program_handle(program), "legacy": legacy_value(77)}


cdef list stride_order(tuple shape, tuple strides):
    """layout.hpp's order of the axes, by decreasing stride."""
    cdef vector[int64_t] c_shape = shape, c_strides = strides
    cdef vector[int] order
    order_from_strides(order, c_shape.data(), c_strides.data(), len(shape))
    return list(order)


cdef dict exported(object array):
    """What a consumer of dlpack.h reads in the versioned DLPack capsule of a cuda.core view."""
    cdef StridedMemoryView view = StridedMemoryView.from_array_interface(array)
    capsule = view.__dlpack__(max_version=(1, 0))
    cdef DLManagedTensorVersioned* managed = <DLManagedTensorVersioned*>PyCapsule_GetPointer(
        capsule, "dltensor_versioned")
    cdef DLTensor* tensor = &managed.dl_tensor
    return {"view_ptr": view.ptr, "view_readonly": view.readonly, "data": <intptr_t>tensor.data,
            "version_major": managed.version.major, "supported_major": DLPACK_MAJOR_VERSION,
            "read_only": bool(managed.flags & DLPACK_FLAG_BITMASK_READ_ONLY),
            "cpu": tensor.device.device_type == kDLCPU, "float": tensor.dtype.code == kDLFloat,
            "bits": tensor.dtype.bits, "shape": [tensor.shape[i] for i in range(tensor.ndim)]}


# cuda.core's cdef classes, as this module's C types: importing the module checked their sizes.
KINDS = (Buffer, MemoryResource, ManagedMemoryResource, PinnedMemoryResource, Stream, GraphDefinition, GraphNode,
         IfElseNode, KernelNode)


cdef dict classes():
    """C-level attribute reads and type checks of cuda.core objects that need no GPU."""
    import cuda.core
    cdef _StridedLayout layout = _StridedLayout((2, 3), None, 4)
    instances = {"stream": cuda.core.LEGACY_DEFAULT_STREAM, "buffer": cuda.core.Buffer.from_handle(0x1000, 16),
                 "other": object()}
    return {"layout_itemsize": layout.itemsize,
            **{name: [kind.__name__ for kind in KINDS if isinstance(instance, kind)]
               for name, instance in instances.items()}}


def report() -> dict:
    """Everything this extension saw, for the test to compare with cuda.core's Python side."""
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    array.flags.writeable = False
    return {"handles": handles(), "binding_version": list(cy_binding_version()),
            "max_ndim": STRIDED_LAYOUT_MAX_NDIM, "all_axes": AXES_MASK_ALL,
            "stride_order": stride_order((2, 3, 4, 5), (1, 80, 20, -4)),
            "tied_order": stride_order((3, 5, 5), (5, 1, 1)),
            "array_ptr": array.ctypes.data, "dlpack": exported(array), "classes": classes(),
            "aoti_handle_size": sizeof(AtenTensorHandle)}
