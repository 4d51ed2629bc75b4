# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""StridedMemoryView: a strided array of another library (numpy, CuPy, PyTorch, numba...) or
of a cuda.core Buffer, seen through DLPack, the CUDA Array Interface or the NumPy array
interface, with the stream of its producer ordered before its consumer.

A view owns nothing but the DLPack tensor it consumed (released when the view goes) and a
reference to the object it views. Its layout (cuda.core._layout._StridedLayout) is built
only when asked for, or given by from_buffer() and view().
"""

import functools
import sys
import warnings

from cpython.long cimport PyLong_FromLongLong
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
from cpython.ref cimport Py_INCREF, PyObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int32_t, int64_t, intptr_t
from libc.stdlib cimport free, malloc

cimport cuda.bindings.cydriver as cydriver
from cuda.core._dlpack cimport (DLDataType, DLManagedTensorVersioned, DLPackVersion, DLPACK_MAJOR_VERSION,
                                DLPACK_MINOR_VERSION, DLTensor, adopt_versioned, export_tensor,
                                import_capsule, kDLBfloat, kDLBool, kDLComplex, kDLCPU, kDLCUDA, kDLCUDAHost,
                                kDLCUDAManaged, kDLFloat, kDLInt, kDLUInt, new_versioned_tensor, release_imported)
from cuda.core._layout cimport _StridedLayout
from cuda.core._memory._buffer cimport Buffer
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN


cdef extern from "Python.h":
    object PyObject_VectorcallMethod(object name, PyObject** args, size_t nargsf, object kwnames)


__all__ = ["StridedMemoryView", "args_viewable_as_strided_memory"]

# DLPack's C exchange API: the table a type publishes as ``__dlpack_c_exchange_api__`` (a
# capsule named "dlpack_exchange_api"). Every entry returns 0, or -1 with a Python exception set.
ctypedef void (*_SetError)(void* error_ctx, const char* kind, const char* message) noexcept

cdef struct _ExchangeHeader:
    DLPackVersion version
    _ExchangeHeader* prev_api

cdef struct _ExchangeAPI:
    _ExchangeHeader header
    int (*managed_tensor_allocator)(DLTensor*, DLManagedTensorVersioned**, void*, _SetError) except -1 with gil
    int (*managed_tensor_from_py_object_no_sync)(void*, DLManagedTensorVersioned**) except -1 with gil
    int (*managed_tensor_to_py_object_no_sync)(DLManagedTensorVersioned*, void**) except -1 with gil
    int (*dltensor_from_py_object_no_sync)(void*, DLTensor*) except -1 with gil
    int (*current_work_stream)(int, int32_t, void**) except -1 with gil

# ml_dtypes' bfloat16, imported at first need: None when ml_dtypes is not installed.
_UNRESOLVED = object()
bfloat16 = _UNRESOLVED

# The consumer stream value that asks for no ordering at all.
cdef intptr_t _NO_SYNC = -1


# ---------------------------------------------------------------------------------------------
# dtypes

cdef object _numpy_module = None


cdef object _numpy():
    """numpy, imported at first need (importing cuda.core.utils does not import it)."""
    global _numpy_module
    if _numpy_module is None:
        import numpy
        _numpy_module = numpy
    return _numpy_module


cdef object _bfloat16():
    global bfloat16
    if bfloat16 is _UNRESOLVED:
        try:
            from ml_dtypes import bfloat16 as found
        except ImportError:
            found = None
        bfloat16 = found
    return bfloat16


cdef dict _dtype_cache = {}


cdef object _dtype_of(int code, int bits, int lanes):
    """The numpy dtype of a DLPack data type, cached (bfloat16 is not: ml_dtypes may come and go)."""
    cdef long key = (code << 24) | (bits << 8) | lanes
    found = _dtype_cache.get(key)
    if found is not None:
        return found
    dtype = _new_dtype(code, bits, lanes)
    if code != kDLBfloat:
        _dtype_cache[key] = dtype
    return dtype


cdef object _new_dtype(int code, int bits, int lanes):
    np = _numpy()
    if lanes != 1:
        raise NotImplementedError(f"DLPack data types with {lanes} lanes have no numpy dtype")
    if code == kDLBool and bits == 8:
        return np.dtype(np.bool_)
    if code == kDLInt and bits in (8, 16, 32, 64):
        return np.dtype(f"int{bits}")
    if code == kDLUInt and bits in (8, 16, 32, 64):
        return np.dtype(f"uint{bits}")
    if code == kDLFloat and bits in (16, 32, 64):
        return np.dtype(f"float{bits}")
    if code == kDLComplex and bits in (64, 128):
        return np.dtype(f"complex{bits}")
    if code == kDLBfloat and bits == 16:
        narrow = _bfloat16()
        if narrow is None:
            raise NotImplementedError("the bfloat16 dtype requires `ml_dtypes` (pip install ml_dtypes)")
        return np.dtype(narrow)
    raise NotImplementedError(f"the DLPack data type (code={code}, bits={bits}) has no numpy dtype here")


cdef DLDataType _dl_dtype_of(object dtype) except *:
    """The DLPack data type of a numpy dtype; BufferError for one DLPack cannot carry."""
    cdef DLDataType result
    if dtype is None:
        raise BufferError("the view has no dtype, so it cannot be exported through DLPack: make it with a dtype "
                          "(from_buffer(..., dtype=...) or view(dtype=...))")
    if dtype.fields is not None:
        raise BufferError(f"Structured dtypes cannot be exported through DLPack (got {dtype})")
    if not dtype.isnative:
        raise BufferError(f"Non-native-endian dtypes cannot be exported through DLPack (got {dtype.str})")
    result.lanes = 1
    result.bits = dtype.itemsize * 8
    kind = dtype.kind
    if kind == "b":
        result.code = kDLBool
    elif kind == "i":
        result.code = kDLInt
    elif kind == "u":
        result.code = kDLUInt
    elif kind == "f":
        result.code = kDLFloat
    elif kind == "c":
        result.code = kDLComplex
    elif dtype.name == "bfloat16":
        result.code = kDLBfloat
    else:
        raise BufferError(f"Unsupported dtype for DLPack export: {dtype}")
    return result


@functools.lru_cache
def _typestr2dtype(typestr: str):
    """The numpy dtype of an array-interface type string."""
    return _numpy().dtype(typestr)


@functools.lru_cache
def _typestr2itemsize(typestr: str) -> int:
    """The item size of an array-interface type string."""
    return _typestr2dtype(typestr).itemsize


# ---------------------------------------------------------------------------------------------
# Streams

# One event per context, reused by every ordering: a wait binds to the event's latest record
# when it is queued, so re-recording later is safe. Record and wait happen under the GIL, so no
# other thread re-records between them. Creating and destroying an event per view cost more
# than the rest of a CUDA Array Interface view. The contexts are the producers' (a client's):
# one may be destroyed, or reset (cuDevicePrimaryCtxReset), with our event in it and its
# address reused, so an event is found by the context's unique ID, which the driver never
# gives twice in a process, and never by its address alone.
cdef dict _ordering_events = {}  # (context address, context ID) -> event address


cdef tuple _context_key(cydriver.CUcontext context):
    """(address, the driver's unique ID of the context; 0 where it cannot say)."""
    cdef unsigned long long ident = 0
    try:
        with nogil:
            if cydriver.cuCtxGetId(context, &ident) != cydriver.CUDA_SUCCESS:
                ident = 0
    except Exception:
        ident = 0  # cuda-bindings raises for an entry point the driver lacks
    return (<intptr_t>context, ident)


cdef cydriver.CUevent _ordering_event(tuple key) except NULL:
    cdef cydriver.CUevent event = NULL
    address = _ordering_events.get(key)
    if address is not None:
        return <cydriver.CUevent><intptr_t>address
    with nogil:
        HANDLE_RETURN(cydriver.cuEventCreate(&event, cydriver.CU_EVENT_DISABLE_TIMING))
    _ordering_events[key] = <intptr_t>event
    return event


cdef int _order_after_producer(intptr_t producer, intptr_t consumer) except -1:
    """Make ``consumer`` wait for the work queued on ``producer`` so far (an event between them,
    recorded in the producer's context as the driver requires)."""
    cdef cydriver.CUcontext context = NULL
    cdef cydriver.CUstream source = <cydriver.CUstream>producer
    cdef cydriver.CUresult status
    with nogil:
        HANDLE_RETURN(cydriver.cuStreamGetCtx(source, &context))
    cdef tuple key = _context_key(context)
    cdef cydriver.CUevent event = _ordering_event(key)
    with nogil:
        status = cydriver.cuEventRecord(event, source)
    if status != cydriver.CUDA_SUCCESS:  # e.g. a driver without context IDs, its context reused: a fresh event
        del _ordering_events[key]
        event = _ordering_event(key)
        with nogil:
            HANDLE_RETURN(cydriver.cuEventRecord(event, source))
    with nogil:
        HANDLE_RETURN(cydriver.cuStreamWaitEvent(<cydriver.CUstream>consumer, event, 0))
    return 0


cdef object _DLPACK_NAME = "__dlpack__"
cdef tuple _DLPACK_KEYWORDS = ("stream", "max_version")
cdef tuple _DLPACK_VERSION = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)


cdef object _call_dlpack(object obj, object stream):
    """``obj.__dlpack__(stream=stream, max_version=(1, 0))`` through vectorcall: no bound
    method and no keyword dict (a third of a view's cost otherwise)."""
    cdef PyObject* args[3]
    args[0] = <PyObject*>obj
    args[1] = <PyObject*>stream
    args[2] = <PyObject*>_DLPACK_VERSION
    return PyObject_VectorcallMethod(_DLPACK_NAME, args, 1, _DLPACK_KEYWORDS)


cdef int _import_dlpack(StridedMemoryView view, object obj, object stream) except -1:
    """Consume ``obj.__dlpack__(stream=stream)`` into ``view``'s tensor: versioned first, then
    the legacy call for a producer of DLPack before 1.0 (no max_version: a TypeError)."""
    try:
        capsule = _call_dlpack(obj, stream)
    except TypeError:
        capsule = obj.__dlpack__(stream=stream)
    return import_capsule(capsule, &view._imported)


cdef intptr_t _stream_value(object stream_ptr) except? -2:
    """``stream_ptr`` as an address; BufferError for None, which is ambiguous here."""
    if stream_ptr is None:
        raise BufferError("stream=None is ambiguous: pass the consumer stream's address (e.g. stream.handle), "
                          "or -1 to skip stream ordering")
    if type(stream_ptr) is int:
        return <intptr_t>stream_ptr
    return <intptr_t>int(stream_ptr)


cdef int _device_of_pointer(intptr_t ptr) except -2:
    """The device ordinal the driver gives a device pointer; the current device for NULL."""
    cdef int ordinal = 0
    cdef cydriver.CUdeviceptr address = <cydriver.CUdeviceptr>ptr
    if ptr == 0:
        return _current_device_or_none()
    with nogil:
        HANDLE_RETURN(cydriver.cuPointerGetAttribute(&ordinal, cydriver.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                                     address))
    return ordinal


cdef int _current_device() except -2:
    from cuda.core._device import Device
    return Device().device_id


cdef int _current_device_or_none() except -2:
    """The current device, as NVIDIA's cuda.core gives host views of the array interface;
    -1 where there is no CUDA driver at all."""
    from cuda.core._utils.cuda_utils import DriverNotFoundError
    try:
        return _current_device()
    except DriverNotFoundError:
        return -1


# ---------------------------------------------------------------------------------------------
# The view

cdef tuple _strides_in_items(object byte_strides, int itemsize):
    if byte_strides is None:
        return None
    if itemsize <= 0 or any(stride % itemsize for stride in byte_strides):
        raise ValueError(f"strides must be divisible by itemsize: strides {tuple(byte_strides)} (in bytes), "
                         f"itemsize {itemsize}")
    return tuple(stride // itemsize for stride in byte_strides)


cdef class StridedMemoryView:
    """A strided view of array memory on the host or a device: DLPack (up to 1.0), the CUDA
    Array Interface (v3) or the NumPy array interface (v3), or a Buffer with a layout.

    Make one with ``from_any_interface(obj, stream_ptr)`` (DLPack first, then CAI),
    ``from_dlpack``, ``from_cuda_array_interface``, ``from_array_interface`` or
    ``from_buffer``, or through ``args_viewable_as_strided_memory``. ``stream_ptr`` is the
    consumer stream's address: the producer's work is ordered before it; -1 skips ordering.
    """

    # Its fields are declared in _memoryview.pxd.

    # DLPack's C exchange API for native consumers (the second name is its former spelling).
    __dlpack_c_exchange_api__ = _exchange_capsule()
    __c_dlpack_exchange_api__ = __dlpack_c_exchange_api__

    def __init__(self, obj=None, stream_ptr=None):
        self._reset()
        if obj is None:
            warnings.warn("StridedMemoryView() with no object is deprecated: use StridedMemoryView.from_dlpack, "
                          "from_cuda_array_interface, from_array_interface or from_buffer",
                          DeprecationWarning, stacklevel=2)
            return
        if _has_dlpack(obj):
            warnings.warn("Constructing a StridedMemoryView directly from a DLPack-supporting object is deprecated: "
                          "use StridedMemoryView.from_dlpack or from_any_interface", DeprecationWarning, stacklevel=2)
        else:
            warnings.warn("Constructing a StridedMemoryView directly from a CUDA-array-interface-supporting object "
                          "is deprecated: use StridedMemoryView.from_cuda_array_interface or from_any_interface",
                          DeprecationWarning, stacklevel=2)
        _fill_from_any(self, obj, stream_ptr)

    cdef void _reset(self):
        self.ptr = 0
        self.device_id = -1
        self.is_device_accessible = False
        self.readonly = False
        self.exporting_obj = None
        self._shape = ()
        self._strides = None
        self._itemsize = 0
        self._dtype = None
        self._dl_device_type = 0

    cdef int _resolve_dims(self) except -1:
        """Read shape and strides from the imported DLPack tensor, once, when first needed."""
        cdef DLTensor* tensor
        if self._dims_pending:
            tensor = self._imported.tensor
            self._shape = _int64_tuple(tensor.shape, tensor.ndim)
            if tensor.strides != NULL:
                self._strides = _int64_tuple(tensor.strides, tensor.ndim)
            self._dims_pending = False
        return 0

    # ---- constructors ----

    @classmethod
    def from_dlpack(cls, obj, stream_ptr=None) -> StridedMemoryView:
        """A view of an object with ``__dlpack__``, ordered after its producer on the consumer
        stream ``stream_ptr`` (-1: no ordering; None is ambiguous, a BufferError)."""
        cdef StridedMemoryView view = _new_view(cls)
        _fill_from_dlpack(view, obj, stream_ptr)
        return view

    @classmethod
    def from_cuda_array_interface(cls, obj, stream_ptr=None) -> StridedMemoryView:
        """A view of an object with ``__cuda_array_interface__`` (v3), its producer stream
        ordered before the consumer stream ``stream_ptr`` (-1: no ordering)."""
        cdef StridedMemoryView view = _new_view(cls)
        _fill_from_cai(view, obj, stream_ptr)
        return view

    @classmethod
    def from_array_interface(cls, obj) -> StridedMemoryView:
        """A view of host memory with ``__array_interface__`` (v3), e.g. a numpy array."""
        cdef StridedMemoryView view = _new_view(cls)
        _fill_from_array_interface(view, obj)
        return view

    @classmethod
    def from_any_interface(cls, obj, stream_ptr=None) -> StridedMemoryView:
        """A view through DLPack if ``obj`` has it, else the CUDA Array Interface."""
        cdef StridedMemoryView view = _new_view(cls)
        _fill_from_any(view, obj, stream_ptr)
        return view

    @classmethod
    def from_buffer(cls, buffer, shape, strides=None, *, itemsize=None, dtype=None,
                    bint is_readonly=False) -> StridedMemoryView:
        """A view of a Buffer's memory with ``shape`` and ``strides`` (in items; None:
        C-contiguous), of ``dtype`` or of items of ``itemsize`` bytes. No stream ordering:
        the caller makes sure the Buffer's data is ready."""
        if not isinstance(buffer, Buffer):
            raise TypeError(f"buffer must be a cuda.core Buffer, got {type(buffer).__name__}")
        dtype = None if dtype is None else _as_dtype(dtype)
        size = _checked_itemsize(itemsize, dtype)
        layout = _StridedLayout(shape if type(shape) is tuple else tuple(shape),
                                None if strides is None else tuple(strides), size)
        cdef Buffer memory = <Buffer>buffer
        cdef StridedMemoryView view = _new_view(cls)
        view._buffer = memory
        view.exporting_obj = memory
        view.is_device_accessible = memory.is_device_accessible
        view.device_id = memory.device_id if view.is_device_accessible else -1
        view.readonly = is_readonly
        view._dtype = dtype
        _set_layout(view, layout, <intptr_t>memory._live_ptr(), memory._size)
        return view

    # ---- views of views ----

    def view(self, layout=None, dtype=None) -> StridedMemoryView:
        """A view of the same memory with another layout and/or dtype (self for neither). The
        layout's slice offset is counted from this view's base (its pointer minus its own
        slice offset)."""
        if layout is None and dtype is None:
            return self
        if layout is not None and not isinstance(layout, _StridedLayout):
            raise TypeError(f"layout must be a _StridedLayout (e.g. view._layout sliced or permuted), got "
                            f"{type(layout).__name__}")
        current = self._layout
        new_layout = current if layout is None else layout
        new_dtype = self.dtype if dtype is None else _as_dtype(dtype)
        if new_dtype is not None and new_dtype.itemsize != new_layout.itemsize:
            raise ValueError(f"the dtype's itemsize ({new_dtype.itemsize}) does not match the layout's itemsize "
                             f"({new_layout.itemsize})")
        cdef StridedMemoryView view = _new_view(type(self))
        view.exporting_obj = self.exporting_obj
        view.device_id = self.device_id
        view.is_device_accessible = self.is_device_accessible
        view.readonly = self.readonly
        view._dl_device_type = self._dl_device_type
        view._buffer = self._buffer
        view._keepalive = self if self._keepalive is None else self._keepalive
        view._dtype = new_dtype
        base = self.ptr - current.slice_offset_in_bytes
        _set_layout(view, new_layout, base, -1 if self._buffer is None else (<Buffer>self._buffer)._size)
        return view

    # ---- what it describes ----

    @property
    def _layout(self):
        """The layout (shape, strides, itemsize and slice offset) as a _StridedLayout."""
        if self._layout_obj is None:
            if self._itemsize <= 0:
                raise ValueError("Cannot infer layout: this StridedMemoryView views nothing (it was made "
                                 "with no object)")
            self._resolve_dims()
            self._layout_obj = _StridedLayout(self._shape, self._strides, self._itemsize)
        return self._layout_obj

    @property
    def shape(self) -> tuple:
        """The extent of each axis."""
        self._resolve_dims()
        return self._shape

    @property
    def strides(self):
        """The stride of each axis, in items (not bytes); None for a C-contiguous view that
        was given no strides."""
        self._resolve_dims()
        return self._strides

    @property
    def size(self) -> int:
        """The number of items."""
        cdef Py_ssize_t count = 1
        self._resolve_dims()
        for extent in self._shape:
            count *= extent
        return count

    @property
    def dtype(self):
        """The items' numpy dtype (None when the view was made without one). A DLPack bfloat16
        needs ml_dtypes (NotImplementedError without it)."""
        if self._dtype is _UNRESOLVED:
            self._dtype = _dtype_of(self._dl_code, self._dl_bits, self._dl_lanes)
        return self._dtype

    def __repr__(self) -> str:
        dtype = self.dtype
        dtype_text = type(dtype).__name__ if dtype is None else str(dtype)
        self._resolve_dims()
        return (f"StridedMemoryView(ptr={self.ptr:#x}, shape={self._shape}, strides={self._strides}, "
                f"dtype={dtype_text}, device_id={self.device_id}, is_device_accessible={self.is_device_accessible}, "
                f"readonly={self.readonly})")

    # ---- DLPack export ----

    def __dlpack_device__(self) -> tuple:
        """(DLPack device type, device id) of the memory."""
        if self._dl_device_type == 0:
            self._dl_device_type = _classify_device(self)
        device_id = 0 if self._dl_device_type in (kDLCPU, kDLCUDAHost) else self.device_id
        return (self._dl_device_type, device_id)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The view as a DLPack capsule, versioned when ``max_version`` allows 1.0; the
        capsule keeps this view (and so the memory's owner) alive. No copies, no device
        change, and no stream ordering (the view's memory is already ordered)."""
        if dl_device is not None:
            raise BufferError("StridedMemoryView exports on its own device: dl_device other than None is not "
                              "supported")
        if copy:
            raise BufferError("StridedMemoryView exports without copying: copy=True is not supported")
        if max_version is not None and not (isinstance(max_version, tuple) and len(max_version) == 2):
            raise BufferError(f"Expected max_version to be a (major, minor) tuple, got {max_version!r}")
        cdef bint versioned = max_version is not None and tuple(max_version) >= (1, 0)
        cdef DLTensor described
        _fill_dltensor(self, &described)
        return export_tensor(self, &described, versioned, self.readonly)

    cdef int64_t* _c_dims(self) except NULL:
        """Shape and strides as C arrays that live as long as the view."""
        self._resolve_dims()
        cdef int ndim = len(self._shape)
        cdef int axis
        if self._dims == NULL:
            self._dims = <int64_t*>malloc(2 * max(ndim, 1) * sizeof(int64_t))
            if self._dims == NULL:
                raise MemoryError()
            for axis in range(ndim):
                self._dims[axis] = self._shape[axis]
                if self._strides is not None:
                    self._dims[ndim + axis] = self._strides[axis]
        return self._dims

    # ---- not in this cuda.core release ----

    def copy_from(self, other, stream, allocator=None, blocking=None) -> None:
        """Copying between views: not implemented (NotImplementedError), as in NVIDIA's 1.2."""
        raise NotImplementedError("StridedMemoryView.copy_from is not implemented yet: copy the underlying "
                                  "Buffers (Buffer.copy_from) or use the producer library")

    def copy_to(self, other, stream=None, allocator=None, blocking=None) -> None:
        """Copying between views: not implemented (NotImplementedError), as in NVIDIA's 1.2."""
        raise NotImplementedError("StridedMemoryView.copy_to is not implemented yet: copy the underlying "
                                  "Buffers (Buffer.copy_to) or use the producer library")

    def as_tensor_map(self, box_dim=None, *, options=None, element_strides=None, data_type=None, interleave=None,
                      swizzle=None, l2_promotion=None, oob_fill=None):
        """A tiled TMA descriptor (cuda.core.TensorMapDescriptor) of this view, for sm_90+
        kernels: ``box_dim`` and the other arguments one by one, or bundled as ``options``
        (a TensorMapDescriptorOptions or a dict of its fields); None takes the default."""
        from cuda.core._tensor_map import TensorMapDescriptor  # imports numpy: at first use
        return TensorMapDescriptor._from_tiled(self, box_dim, options=options, element_strides=element_strides,
                                               data_type=data_type, interleave=interleave, swizzle=swizzle,
                                               l2_promotion=l2_promotion, oob_fill=oob_fill)

    def __dealloc__(self):
        release_imported(&self._imported)
        free(self._dims)
        self._dims = NULL


cdef int _fill_dltensor(StridedMemoryView view, DLTensor* out) except -1:
    """Describe ``view`` as a DLTensor whose shape and strides point into the view (valid as
    long as it lives): what __dlpack__ and the exchange API export."""
    device_type, device_id = view.__dlpack_device__()
    out.dtype = _dl_dtype_of(view.dtype)
    cdef int64_t* dims = view._c_dims()
    cdef int ndim = len(view._shape)
    out.data = <void*>view.ptr
    out.device.device_type = device_type
    out.device.device_id = device_id
    out.ndim = ndim
    out.shape = dims
    out.strides = dims + ndim if view._strides is not None else NULL
    out.byte_offset = 0
    return 0


cdef StridedMemoryView _new_view(type cls):
    cdef StridedMemoryView view
    if cls is StridedMemoryView:  # the common case, without a Python-level __new__ call
        view = StridedMemoryView.__new__(StridedMemoryView)
    else:
        view = <StridedMemoryView>cls.__new__(cls)
    view._reset()
    return view


cdef tuple _int64_tuple(const int64_t* values, int count):
    """A tuple of ``count`` ints, built in C (the view's shape and strides)."""
    cdef tuple result = PyTuple_New(count)
    cdef int index
    for index in range(count):
        item = PyLong_FromLongLong(values[index])
        Py_INCREF(item)  # PyTuple_SET_ITEM steals the reference
        PyTuple_SET_ITEM(result, index, item)
    return result


cdef object _as_dtype(object dtype):
    """``dtype`` as a numpy dtype (as is when it is one already)."""
    np = _numpy()
    return dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)


cdef int _checked_itemsize(object itemsize, object dtype) except -1:
    """The item size ``itemsize`` and ``dtype`` (a numpy dtype or None) agree on."""
    if dtype is None and itemsize is None:
        raise ValueError("itemsize or dtype must be specified")
    if dtype is None:
        return int(itemsize)
    dtype_size = dtype.itemsize
    if itemsize is not None and int(itemsize) != dtype_size:
        raise ValueError(f"itemsize ({itemsize}) does not match dtype.itemsize ({dtype_size})")
    return dtype_size


cdef int _set_layout(StridedMemoryView view, _StridedLayout layout, intptr_t base, int64_t limit) except -1:
    """Give ``view`` ``layout`` over memory at ``base``. ``limit`` (bytes) bounds it to a
    Buffer: no element before its start or past its end. -1: memory another library
    described (e.g. a reversed array, whose elements lie before its pointer)."""
    cdef int64_t needed
    if limit >= 0 and layout._get_volume() > 0:
        layout._compute_bounds()
        if layout._min_offset < 0:
            raise ValueError(f"the layout reaches {-layout._min_offset * layout.itemsize} bytes before the start of "
                             f"the buffer (offset bounds {layout.offset_bounds} in items): a view cannot start "
                             "before its buffer")
        needed = (layout._max_offset + 1) * layout.itemsize
        if needed > limit:
            raise ValueError(f"Expected at least {needed} bytes, got {limit} bytes.")
    view._layout_obj = layout
    view._shape = layout.shape
    view._strides = layout.strides
    view._itemsize = layout.itemsize
    view.ptr = base + layout.slice_offset * layout.itemsize
    return 0


cdef bint _has_dlpack(object obj) except -1:
    """Whether ``obj`` is read through DLPack (True) or the CUDA Array Interface (False): DLPack
    is preferred; BufferError when it speaks neither."""
    if hasattr(obj, "__dlpack__"):
        return True
    if hasattr(obj, "__cuda_array_interface__"):
        return False
    raise BufferError(f"{type(obj).__name__} does not support any data exchange protocol cuda.core reads "
                      "(__dlpack__ or __cuda_array_interface__)")


cdef int _fill_from_any(StridedMemoryView view, object obj, object stream_ptr) except -1:
    if _has_dlpack(obj):
        return _fill_from_dlpack(view, obj, stream_ptr)
    return _fill_from_cai(view, obj, stream_ptr)


cdef int _classify_device(StridedMemoryView view) except -1:
    """The DLPack device type of a view made without one (CAI, array interface, Buffer)."""
    if not view.is_device_accessible:
        return kDLCPU
    if view._buffer is not None:
        return view._buffer.__dlpack_device__()[0]
    cdef unsigned int memory_type = 0
    cdef cydriver.CUdeviceptr address = <cydriver.CUdeviceptr>view.ptr
    if view.ptr == 0:
        return kDLCUDA
    with nogil:
        HANDLE_RETURN(cydriver.cuPointerGetAttribute(&memory_type, cydriver.CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                                     address))
    return kDLCUDAHost if memory_type == cydriver.CU_MEMORYTYPE_HOST else kDLCUDA


# ---------------------------------------------------------------------------------------------
# The three protocols

cdef int _check_device_type(int device_type, object obj) except -1:
    if device_type != kDLCPU and device_type != kDLCUDA and device_type != kDLCUDAHost \
            and device_type != kDLCUDAManaged:
        raise BufferError(f"the DLPack device type {device_type} of {type(obj).__name__} is a device not supported "
                          "by cuda.core (CPU, CUDA, CUDA host or CUDA managed memory only)")
    return 0


cdef int _fill_from_dlpack(StridedMemoryView view, object obj, object stream_ptr) except -1:
    cdef intptr_t producer = _producer_of(obj)
    if producer > 0:
        return _fill_through_exchange_api(view, obj, <_ExchangeAPI*>producer, _stream_value(stream_ptr))
    if producer == _CUPY:
        return _fill_from_cupy(view, obj, _stream_value(stream_ptr))
    cdef int device_type = kDLCPU if producer == _NUMPY else obj.__dlpack_device__()[0]
    _check_device_type(device_type, obj)
    cdef intptr_t consumer = _stream_value(stream_ptr)
    # DLPack spells the legacy default stream (CUstream 0) as 1, and forbids 0.
    stream = None if device_type == kDLCPU else (1 if consumer == 0 else consumer)
    _import_dlpack(view, obj, stream)
    _describe_imported(view, obj)
    return 0


# How each type read so far is imported: the address of the DLPack exchange table it
# publishes, _CUPY, _NUMPY (host memory always: no __dlpack_device__ call), or _PLAIN (its
# __dlpack__). One lookup per view.
cdef enum:
    _PLAIN = 0
    _CUPY = -1
    _NUMPY = -2
cdef dict _producers = {}


cdef intptr_t _producer_of(object obj) except? -3:
    cls = type(obj)
    kind = _producers.get(cls)
    if kind is None:
        kind = _producers[cls] = _classify_producer(cls)
    return kind


cdef intptr_t _classify_producer(type cls) except? -3:
    cdef intptr_t api = _find_exchange_api(cls)
    if api != 0:
        return api
    if _is_cupy_array_type(cls):
        return _CUPY
    numpy = sys.modules.get("numpy")
    return _NUMPY if numpy is not None and cls is getattr(numpy, "ndarray", None) else _PLAIN


cdef intptr_t _find_exchange_api(type cls) except? -1:
    """The address of the newest table of major version 1 that ``cls`` publishes (later
    majors link older tables through prev_api), or 0."""
    capsule = getattr(cls, "__dlpack_c_exchange_api__", None)
    if capsule is None:
        capsule = getattr(cls, "__c_dlpack_exchange_api__", None)
    if capsule is None or not PyCapsule_IsValid(capsule, b"dlpack_exchange_api"):
        return 0
    cdef _ExchangeHeader* header = <_ExchangeHeader*>PyCapsule_GetPointer(capsule, b"dlpack_exchange_api")
    while header != NULL and header.version.major > DLPACK_MAJOR_VERSION:
        header = header.prev_api
    if header == NULL or header.version.major != DLPACK_MAJOR_VERSION:
        return 0
    cdef _ExchangeAPI* api = <_ExchangeAPI*>header
    if api.managed_tensor_from_py_object_no_sync == NULL or api.current_work_stream == NULL:
        return 0
    return <intptr_t>api


cdef int _fill_through_exchange_api(StridedMemoryView view, object obj, _ExchangeAPI* api,
                                    intptr_t consumer) except -1:
    """Import through the producer's C table: an owned versioned tensor without a capsule or a
    Python call, then the ordering __dlpack__(stream=) would have made, against the
    producer's current work stream (PyTorch's own takes some 20 us of Python per call)."""
    cdef DLManagedTensorVersioned* tensor = NULL
    cdef void* producer = NULL
    api.managed_tensor_from_py_object_no_sync(<void*>obj, &tensor)
    if tensor == NULL:
        raise BufferError(f"{type(obj).__name__}'s DLPack exchange API returned no tensor")
    adopt_versioned(tensor, &view._imported)  # from here the view releases it
    cdef int device_type = tensor.dl_tensor.device.device_type
    _check_device_type(device_type, obj)
    if device_type != kDLCPU and consumer != _NO_SYNC:
        api.current_work_stream(device_type, tensor.dl_tensor.device.device_id, &producer)
        if <intptr_t>producer != consumer:
            _order_after_producer(<intptr_t>producer, consumer)
    _describe_imported(view, obj)
    return 0


# CuPy's current-stream getter, once a CuPy array has been seen.
cdef object _cupy_current_stream = None


cdef bint _is_cupy_array_type(type cls) except -1:
    global _cupy_current_stream
    cupy = sys.modules.get("cupy")
    if cupy is None or cls is not getattr(cupy, "ndarray", None):
        return False
    _cupy_current_stream = cupy.cuda.get_current_stream
    return True


cdef int _fill_from_cupy(StridedMemoryView view, object obj, intptr_t consumer) except -1:
    """A CuPy array through DLPack without CuPy's synchronisation (stream -1), then the same
    ordering CuPy would make, of its current stream before the consumer, done here: CuPy's
    __dlpack__(stream=s) builds a Python stream and event per call (~3 us of 3.5)."""
    _import_dlpack(view, obj, _NO_SYNC)
    _check_device_type(view._imported.tensor.device.device_type, obj)
    cdef intptr_t producer
    if consumer != _NO_SYNC:
        producer = _cupy_current_stream().ptr
        if producer != consumer:
            _order_after_producer(producer, consumer)
    _describe_imported(view, obj)
    return 0


cdef int _describe_imported(StridedMemoryView view, object obj) except -1:
    """Fill ``view`` from the DLPack tensor it holds, exported by ``obj``."""
    cdef DLTensor* tensor = view._imported.tensor
    view.exporting_obj = obj
    view.ptr = <intptr_t>tensor.data + <intptr_t>tensor.byte_offset
    view._dl_device_type = tensor.device.device_type
    view.device_id = -1 if tensor.device.device_type == kDLCPU else tensor.device.device_id
    view.is_device_accessible = tensor.device.device_type != kDLCPU
    view.readonly = view._imported.readonly
    view._dims_pending = True  # shape and strides become tuples when first read
    view._dl_code = tensor.dtype.code
    view._dl_bits = tensor.dtype.bits
    view._dl_lanes = tensor.dtype.lanes
    view._itemsize = (tensor.dtype.bits * tensor.dtype.lanes + 7) // 8
    view._dtype = _UNRESOLVED
    return 0


def view_as_cai(obj, stream_ptr, view=None) -> StridedMemoryView:
    """A view of an object with ``__cuda_array_interface__`` (v3); ``view`` (optional) is
    the StridedMemoryView to fill."""
    cdef StridedMemoryView target = _new_view(StridedMemoryView) if view is None else view
    _fill_from_cai(target, obj, stream_ptr)
    return target


def view_as_array_interface(obj, view=None) -> StridedMemoryView:
    """A view of an object with ``__array_interface__`` (v3)."""
    cdef StridedMemoryView target = _new_view(StridedMemoryView) if view is None else view
    _fill_from_array_interface(target, obj)
    return target


cdef dict _checked_interface(object obj, str name):
    interface = getattr(obj, name)
    if interface.get("version", 0) < 3:
        raise BufferError(f"{name} v{interface.get('version')} is not supported: only v3 or above")
    if interface.get("mask") is not None:
        raise BufferError(f"{name} with a mask is not supported")
    return interface


cdef int _fill_common(StridedMemoryView view, object obj, dict interface) except -1:
    typestr = interface["typestr"]
    itemsize = _typestr2itemsize(typestr)
    ptr, is_readonly = interface["data"]
    view.exporting_obj = obj
    view.ptr = <intptr_t>ptr
    view.readonly = bool(is_readonly)
    view._shape = tuple(interface["shape"])
    view._strides = _strides_in_items(interface.get("strides"), itemsize)
    view._itemsize = itemsize
    view._dtype = _typestr2dtype(typestr)
    return 0


cdef bint _is_torch_tensor(object obj):
    """A PyTorch tensor: its CUDA Array Interface is v2, so it is read through DLPack, as
    NVIDIA's cuda.core reads tensors whichever protocol was asked for."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


cdef int _fill_from_cai(StridedMemoryView view, object obj, object stream_ptr) except -1:
    if _is_torch_tensor(obj):
        return _fill_from_dlpack(view, obj, stream_ptr)
    cdef dict interface = _checked_interface(obj, "__cuda_array_interface__")
    cdef intptr_t consumer = _stream_value(stream_ptr)
    _fill_common(view, obj, interface)
    view.is_device_accessible = True
    view.device_id = _device_of_pointer(view.ptr)
    producer = interface.get("stream")
    if consumer != _NO_SYNC and producer is not None and <intptr_t>producer != consumer:
        _order_after_producer(<intptr_t>producer, consumer)
    return 0


cdef int _fill_from_array_interface(StridedMemoryView view, object obj) except -1:
    cdef dict interface = _checked_interface(obj, "__array_interface__")
    _fill_common(view, obj, interface)
    view.is_device_accessible = False
    view.device_id = _current_device_or_none()
    view._dl_device_type = kDLCPU
    return 0


# ---------------------------------------------------------------------------------------------
# The decorator

class _StridedMemoryViewProxy:
    """What a function decorated by args_viewable_as_strided_memory receives in place of an
    array: ``view(stream_ptr)`` makes the StridedMemoryView."""

    __slots__ = ("obj", "has_dlpack")

    def __init__(self, obj):
        self.obj = obj
        self.has_dlpack = _has_dlpack(obj)

    def view(self, stream_ptr=None) -> StridedMemoryView:
        if self.has_dlpack:
            return StridedMemoryView.from_dlpack(self.obj, stream_ptr)
        return StridedMemoryView.from_cuda_array_interface(self.obj, stream_ptr)


def args_viewable_as_strided_memory(tuple arg_indices):
    """Decorate a function so that its positional arguments at ``arg_indices`` arrive as
    proxies whose ``view(stream_ptr)`` gives a StridedMemoryView: the function body stays
    independent of the array library."""
    def wrap(function):
        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            args = list(args)
            for index in arg_indices:
                args[index] = _StridedMemoryViewProxy(args[index])
            return function(*args, **kwargs)
        return wrapped
    return wrap


# ---------------------------------------------------------------------------------------------
# DLPack's C exchange API (StridedMemoryView.__dlpack_c_exchange_api__): the same export and
# import for native consumers, without a capsule per call. Each entry point holds the GIL and
# returns 0, or -1 with a Python exception set.


cdef StridedMemoryView _as_view(void* py_object):
    obj = <object>py_object
    if not isinstance(obj, StridedMemoryView):
        raise TypeError(f"the object must be a StridedMemoryView, got {type(obj).__name__}")
    return <StridedMemoryView>obj


cdef int _allocate_tensor(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                          _SetError set_error) except -1 with gil:
    out[0] = NULL
    raise NotImplementedError("managed_tensor_allocator is not supported: a StridedMemoryView never allocates")


cdef int _tensor_from_object(void* py_object, DLManagedTensorVersioned** out) except -1 with gil:
    out[0] = NULL
    cdef StridedMemoryView view = _as_view(py_object)
    cdef DLTensor described
    _fill_dltensor(view, &described)
    out[0] = new_versioned_tensor(view, &described, view.readonly)
    return 0


cdef int _tensor_to_object(DLManagedTensorVersioned* tensor, void** out) except -1 with gil:
    out[0] = NULL
    if tensor == NULL:
        raise RuntimeError("the DLPack tensor cannot be NULL")
    cdef StridedMemoryView view = _new_view(StridedMemoryView)
    adopt_versioned(tensor, &view._imported)
    _describe_imported(view, None)
    Py_INCREF(view)  # the caller owns this reference
    out[0] = <void*>view
    return 0


cdef int _tensor_of_object(void* py_object, DLTensor* out) except -1 with gil:
    return _fill_dltensor(_as_view(py_object), out)


cdef int _current_work_stream(int device_type, int32_t device_id, void** out) except -1 with gil:
    out[0] = NULL  # cuda.core keeps no current stream
    return 0


cdef _ExchangeAPI _exchange_api


cdef object _exchange_capsule():
    """The capsule of the exchange API table (filled here, once: the class body calls this)."""
    _exchange_api.header.version.major = DLPACK_MAJOR_VERSION
    _exchange_api.header.version.minor = DLPACK_MINOR_VERSION
    _exchange_api.header.prev_api = NULL
    _exchange_api.managed_tensor_allocator = _allocate_tensor
    _exchange_api.managed_tensor_from_py_object_no_sync = _tensor_from_object
    _exchange_api.managed_tensor_to_py_object_no_sync = _tensor_to_object
    _exchange_api.dltensor_from_py_object_no_sync = _tensor_of_object
    _exchange_api.current_work_stream = _current_work_stream
    return PyCapsule_New(&_exchange_api, b"dlpack_exchange_api", NULL)
