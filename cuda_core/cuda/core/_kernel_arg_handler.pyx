# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Kernel arguments packed in C for cuLaunchKernel (launch() and ParamHolder).

Each argument's type is classified once (cached per type) and its value copied into a
small buffer on launch()'s stack; cuLaunchKernel then gets an array of pointers into
it. There is no Python-level work per argument: its type is found among the last few
types packed by comparing pointers (a dict lookup otherwise), and its value read in C.
"""

cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.complex cimport PyComplex_ImagAsDouble, PyComplex_RealAsDouble
from cpython.float cimport PyFloat_AsDouble
from cpython.long cimport PyLong_AsLongLong
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport Py_TPFLAGS_HEAPTYPE, Py_TYPE, PyObject, PyTypeObject
from cpython.sequence cimport PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_GET_SIZE
from libc.stdint cimport int64_t, intptr_t, uint8_t
from libc.string cimport memcpy

cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory._buffer cimport Buffer


cdef extern from "Python.h":
    PyTypeObject PyFloat_Type

cdef enum:
    # Every value starts at a multiple of this: enough for any scalar kernels take by value.
    SLOT_ALIGN = 16
    # The widest value packed from a numpy or ctypes scalar (complex128, long double).
    MAX_SCALAR_BYTES = 16

# How an argument of a given type is packed.
cdef enum ArgKind:
    KIND_UNSUPPORTED = 0
    KIND_BUFFER = 1      # cuda.core Buffer: its device pointer
    KIND_BOOL = 2        # Python bool: one byte
    KIND_INT = 3         # Python int: intptr_t, as NVIDIA's cuda.core packs it
    KIND_FLOAT = 4       # Python float: double
    KIND_COMPLEX = 5     # Python complex: two doubles
    KIND_RAW_BYTES = 6   # ctypes scalar/pointer (or numpy scalar): its own bytes (buffer protocol)
    KIND_VIEW = 7        # cuda.core.utils.StridedMemoryView: its data pointer
    KIND_CONDITION = 8   # cuda.core.graph.GraphCondition: its CUgraphConditionalHandle (64 bits)
    KIND_TEXTURE = 9     # cuda.core.texture TextureObject/SurfaceObject: its CUtexObject/CUsurfObject (64 bits)
    KIND_TENSOR_MAP = 10  # cuda.core.TensorMapDescriptor: its 128-byte CUtensorMap, by value
    KIND_INLINE = 11     # numpy scalar of numpy's own types: its bytes, read where it keeps them

# How the arguments of one type are packed: its kind, and for KIND_INLINE where the value
# lies in the object and how wide it is.
cdef struct TypeRecord:
    PyTypeObject* type
    int kind
    Py_ssize_t offset
    size_t size

# type -> (kind, offset, size), filled on first sight of each type (and keeping it alive).
cdef dict _kind_of_type = {}

# The records of the last TYPE_CACHE types packed, read before the dict: a launch's
# arguments are a few types, found here by comparing pointers. The types are borrowed:
# _kind_of_type holds each one for good. (Written under the GIL: a build for free-threaded
# Python would need this cache made atomic or per thread.)
cdef enum:
    TYPE_CACHE = 8
cdef TypeRecord _records[TYPE_CACHE]
cdef unsigned int _records_next = 0


cdef tuple _classify(object arg):
    """How arguments of the type of ``arg``, never seen before, are packed, as a
    (kind, offset, size) record; numpy and ctypes are looked up lazily."""
    arg_type = type(arg)
    cdef int kind = KIND_UNSUPPORTED
    if issubclass(arg_type, Buffer):
        kind = KIND_BUFFER
    elif issubclass(arg_type, bool):
        kind = KIND_BOOL
    elif issubclass(arg_type, int):
        kind = KIND_INT
    elif issubclass(arg_type, float):
        kind = KIND_FLOAT
    elif issubclass(arg_type, complex):
        kind = KIND_COMPLEX
    elif _is_numpy_scalar_type(arg_type) or _is_ctypes_scalar_type(arg_type):
        kind = KIND_RAW_BYTES
    elif _is_strided_memory_view_type(arg_type):
        kind = KIND_VIEW
    elif _is_graph_condition_type(arg_type):
        kind = KIND_CONDITION
    elif _is_texture_type(arg_type):
        kind = KIND_TEXTURE
    elif _is_tensor_map_type(arg_type):
        kind = KIND_TENSOR_MAP
    record = (kind, 0, 0)
    if kind in (KIND_FLOAT, KIND_COMPLEX, KIND_RAW_BYTES) and _is_numpy_scalar_type(arg_type):
        record = _inline_record(arg, record)  # numpy.float64 and complex128 too: float and complex subclasses
    _kind_of_type[arg_type] = record
    return record


cdef tuple _inline_record(object arg, tuple otherwise):
    """The record of a numpy scalar's type: numpy keeps a scalar's value in the scalar object,
    so for numpy's own (static) types the bytes its buffer gives lie at one offset in every
    instance, and are read there (the same bytes, without the buffer protocol). For any other
    layout, or a subclass, ``otherwise``."""
    cdef Py_buffer view
    arg_type = type(arg)
    PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE)
    cdef Py_ssize_t offset = <char*>view.buf - <char*><PyObject*>arg
    cdef size_t size = <size_t>view.len
    PyBuffer_Release(&view)
    if arg_type.__flags__ & Py_TPFLAGS_HEAPTYPE or not 0 < size <= MAX_SCALAR_BYTES or \
            not <Py_ssize_t>sizeof(PyObject) <= offset <= arg_type.__basicsize__ - <Py_ssize_t>size:
        return otherwise
    return (KIND_INLINE, offset, size)


cdef bint _is_numpy_scalar_type(type arg_type) except -1:
    import sys
    numpy = sys.modules.get("numpy")  # a numpy scalar means numpy is imported already
    if numpy is None or not issubclass(arg_type, numpy.generic):
        return False
    dtype = numpy.dtype(arg_type)
    # long double has no device counterpart of its host size: refused, as NVIDIA's cuda.core does.
    return dtype.kind in "biu" or (dtype.kind == "f" and dtype.itemsize <= 8) or \
        (dtype.kind == "c" and dtype.itemsize <= 16)


cdef bint _is_strided_memory_view_type(type arg_type) except -1:
    import sys
    views = sys.modules.get("cuda.core._memoryview")  # a view means its module is imported already
    return views is not None and issubclass(arg_type, views.StridedMemoryView)


cdef bint _is_graph_condition_type(type arg_type) except -1:
    import sys
    graphs = sys.modules.get("cuda.core.graph._graph_definition")  # a condition means it is imported
    return graphs is not None and issubclass(arg_type, graphs.GraphCondition)


cdef bint _is_texture_type(type arg_type) except -1:
    import sys
    # A texture or surface object means its module is imported already.
    textures = sys.modules.get("cuda.core.texture._texture")
    surfaces = sys.modules.get("cuda.core.texture._surface")
    return (textures is not None and issubclass(arg_type, textures.TextureObject)) or \
        (surfaces is not None and issubclass(arg_type, surfaces.SurfaceObject))


# ---- tensor maps: 128 bytes, too wide for a slot, so the slot points at the descriptor's own
# CUtensorMap (cuLaunchKernel copies parameter values at the call; the caller's args keep the
# descriptor alive until then, a ParamHolder its kernel_args). ----

cdef bint _is_tensor_map_type(type arg_type) except -1:
    import sys
    maps = sys.modules.get("cuda.core._tensor_map")  # a descriptor means its module is imported already
    return maps is not None and issubclass(arg_type, maps.TensorMapDescriptor)


cdef bint _tensor_map_slot(void** slot, object arg) except -1:
    """Point ``slot`` at ``arg``'s encoded CUtensorMap if ``arg`` is a TensorMapDescriptor."""
    if _kind(arg) != KIND_TENSOR_MAP:
        return False
    slot[0] = <void*><intptr_t>arg._tensor_map_address
    return True


cdef bint _is_ctypes_scalar_type(type arg_type) except -1:
    import ctypes
    return issubclass(arg_type, (ctypes._SimpleCData, ctypes._Pointer)) and \
        not issubclass(arg_type, (ctypes.py_object, ctypes.c_longdouble))


cdef inline int _slot(object arg) except -1:
    """The index in _records of the record of ``arg``'s type."""
    cdef PyTypeObject* arg_type = Py_TYPE(arg)
    cdef int index
    for index in range(TYPE_CACHE):
        if _records[index].type == arg_type:
            return index
    return _slot_from_dict(arg)


cdef int _slot_from_dict(object arg) except -1:
    """_slot() of a type not in the cache, which takes it in place of its oldest entry."""
    global _records_next
    arg_type = type(arg)
    cdef tuple record = _kind_of_type.get(arg_type)
    if record is None:
        record = _classify(arg)
    cdef int index = _records_next % TYPE_CACHE
    _records[index].kind = record[0]
    _records[index].offset = record[1]
    _records[index].size = record[2]
    _records[index].type = <PyTypeObject*>arg_type
    _records_next += 1
    return index


cdef inline int _kind(object arg) except -1:
    return _records[_slot(arg)].kind


cdef int pack_arguments(PackedArgs* packed, tuple args, const size_t* sizes) except -1:
    """pack_argument_array() of the items of ``args``."""
    return pack_argument_array(packed, <PyObject**>PySequence_Fast_ITEMS(args), PyTuple_GET_SIZE(args), sizes, NULL)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int pack_argument_array(PackedArgs* packed, PyObject** args, Py_ssize_t count, const size_t* sizes,
                             size_t* packed_sizes) except -1:
    """Fill ``packed`` with the ``count`` arguments at ``args`` (borrowed: the caller holds
    them), each at least as wide as its parameter's size in ``sizes`` (one per argument);
    release_arguments() must follow, also on error. ``packed_sizes``, unless NULL, gets the
    bytes each argument was packed as.

    The common kinds (numpy scalars read in place, Buffers) are packed here, on pointers
    alone, with no reference taken; the others by _pack_other."""
    cdef Py_ssize_t index
    cdef size_t offset = 0
    cdef size_t size
    cdef int slot, kind
    cdef PyObject* arg
    cdef PyTypeObject* arg_type
    cdef uint8_t* out
    cdef cydriver.CUdeviceptr pointer
    packed.slots = packed.inline_slots
    packed.values = packed.inline_values
    if count > INLINE_ARGS:
        packed.slots = <void**>PyMem_Malloc(count * sizeof(void*))
    if <size_t>count * SLOT_ALIGN > INLINE_BYTES:
        packed.values = <uint8_t*>PyMem_Malloc(count * SLOT_ALIGN)
    if packed.slots == NULL or packed.values == NULL:
        raise MemoryError()
    for index in range(count):
        arg = args[index]
        arg_type = arg.ob_type
        # The type's record: the cache scanned by pointer, the dict on a miss.
        slot = 0
        while slot < TYPE_CACHE and _records[slot].type != arg_type:
            slot += 1
        if slot == TYPE_CACHE:
            slot = _slot_from_dict(<object>arg)
        kind = _records[slot].kind
        out = packed.values + offset
        if kind == KIND_INLINE:
            size = _records[slot].size
            _copy_value(out, <char*>arg + _records[slot].offset, size)
        elif kind == KIND_BUFFER and not (<Buffer>arg)._closed:
            pointer = (<Buffer>arg)._ptr
            memcpy(out, &pointer, sizeof(pointer))
            size = sizeof(pointer)
        elif kind == KIND_TENSOR_MAP:
            packed.slots[index] = <void*><intptr_t>(<object>arg)._tensor_map_address
            if packed_sizes != NULL:
                packed_sizes[index] = sizeof(cydriver.CUtensorMap)
            if sizeof(cydriver.CUtensorMap) < sizes[index]:
                _raise_too_narrow(index, <object>arg, sizeof(cydriver.CUtensorMap), sizes[index])
            continue
        else:
            size = _pack_slot(slot, index, <object>arg, out)
        packed.slots[index] = out
        if packed_sizes != NULL:
            packed_sizes[index] = size
        offset = (offset + size + SLOT_ALIGN - 1) & ~(<size_t>SLOT_ALIGN - 1)
        if size < sizes[index]:
            _raise_too_narrow(index, <object>arg, size, sizes[index])
        if kind == KIND_FLOAT and sizes[index] == 4 and arg_type == &PyFloat_Type:
            # A Python float for a float parameter: its value as a float, not a double's low bytes.
            _narrow_to_float(out)
    return 0


cdef int _raise_too_narrow(Py_ssize_t index, object arg, size_t size, size_t wanted) except -1:
    # The driver would read past the value: garbage in the parameter's upper bytes. Wider
    # values are fine (the driver takes the low bytes), as in NVIDIA's cuda.core.
    raise TypeError(f"kernel argument {index}: a {type(arg).__name__} is {size} byte(s), but the "
                    f"kernel's parameter {index} takes {wanted}: pass a numpy scalar of that type")


cdef inline void _copy_value(uint8_t* out, const char* value, size_t size) noexcept:
    """memcpy, with the common sizes spelled out so that the C compiler copies them inline."""
    if size == 8:
        memcpy(out, value, 8)
    elif size == 4:
        memcpy(out, value, 4)
    elif size == 1:
        memcpy(out, value, 1)
    elif size == 2:
        memcpy(out, value, 2)
    else:
        memcpy(out, value, size)


cdef inline void _narrow_to_float(uint8_t* slot) noexcept:
    cdef double wide
    cdef float narrow
    memcpy(&wide, slot, sizeof(wide))
    narrow = <float>wide
    memcpy(slot, &narrow, sizeof(narrow))


cdef void release_arguments(PackedArgs* packed) noexcept:
    if packed.slots != NULL and packed.slots != packed.inline_slots:
        PyMem_Free(packed.slots)
    if packed.values != NULL and packed.values != packed.inline_values:
        PyMem_Free(packed.values)


cdef size_t _pack_one(Py_ssize_t index, object arg, uint8_t* out) except 0:
    """Write one argument at ``out`` (SLOT_ALIGN bytes of room); return how many bytes it took."""
    return _pack_slot(_slot(arg), index, arg, out)


cdef inline size_t _pack_slot(int slot, Py_ssize_t index, object arg, uint8_t* out) except 0:
    """_pack_one for an argument whose type's record is _records[slot]."""
    cdef int kind = _records[slot].kind
    cdef size_t size = _records[slot].size
    cdef cydriver.CUdeviceptr pointer
    cdef int64_t integer
    cdef double real
    cdef double pair[2]
    if kind == KIND_INLINE:
        _copy_value(out, <char*><PyObject*>arg + _records[slot].offset, size)
        return size
    if kind == KIND_BUFFER:
        # The pointer read in place; _live_ptr() raises its error for a closed Buffer.
        pointer = (<Buffer>arg)._live_ptr() if (<Buffer>arg)._closed else (<Buffer>arg)._ptr
        memcpy(out, &pointer, sizeof(pointer))
        return sizeof(pointer)
    if kind == KIND_VIEW:
        pointer = <cydriver.CUdeviceptr><intptr_t>arg.ptr
        memcpy(out, &pointer, sizeof(pointer))
        return sizeof(pointer)
    if kind == KIND_CONDITION:
        # The device code's cudaGraphConditionalHandle parameter (an unsigned long long).
        pointer = <cydriver.CUdeviceptr>int(arg.handle)
        memcpy(out, &pointer, sizeof(pointer))
        return sizeof(pointer)
    if kind == KIND_TEXTURE:
        # The device code's cudaTextureObject_t / cudaSurfaceObject_t (an unsigned long long).
        pointer = <cydriver.CUdeviceptr>int(arg.handle)
        if pointer == 0:
            raise RuntimeError(f"kernel argument {index}: the {type(arg).__name__} is closed")
        memcpy(out, &pointer, sizeof(pointer))
        return sizeof(pointer)
    if kind == KIND_INT:
        try:
            integer = PyLong_AsLongLong(arg)
        except OverflowError:
            raise OverflowError(f"kernel argument {index}: the int {arg} does not fit the 64-bit integer a Python "
                                "int is passed as; pass a numpy scalar of the kernel's type") from None
        memcpy(out, &integer, sizeof(integer))
        return sizeof(integer)
    if kind == KIND_FLOAT:
        real = PyFloat_AsDouble(arg)
        memcpy(out, &real, sizeof(real))
        return sizeof(real)
    if kind == KIND_BOOL:
        out[0] = 1 if arg else 0
        return 1
    if kind == KIND_COMPLEX:
        pair[0] = PyComplex_RealAsDouble(arg)
        pair[1] = PyComplex_ImagAsDouble(arg)
        memcpy(out, pair, sizeof(pair))
        return sizeof(pair)
    if kind == KIND_RAW_BYTES:
        return _copy_scalar_bytes(index, arg, out)
    raise TypeError(f"kernel argument {index} has unsupported type {type(arg).__module__}.{type(arg).__qualname__}: "
                    "pass a cuda.core Buffer, StridedMemoryView, TextureObject, SurfaceObject or TensorMapDescriptor, "
                    "a numpy scalar (e.g. numpy.float32(x)), a ctypes scalar or pointer, or a Python bool, int, float "
                    "or complex")


cdef size_t _copy_scalar_bytes(Py_ssize_t index, object arg, uint8_t* out) except 0:
    """A numpy or ctypes scalar's value, read through the buffer protocol."""
    cdef Py_buffer view
    cdef size_t size
    PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE)
    try:
        size = <size_t>view.len
        if size == 0 or size > MAX_SCALAR_BYTES:
            raise TypeError(f"kernel argument {index}: a {type(arg).__name__} of {size} bytes cannot be passed "
                            f"by value (at most {MAX_SCALAR_BYTES} bytes)")
        memcpy(out, view.buf, size)
    finally:
        PyBuffer_Release(&view)
    return size


cdef class ParamHolder:
    """Kernel arguments packed for the driver without a kernel at hand: ``ptr`` is the
    address of the ``void*`` array (cuLaunchKernel's kernelParams), 0 for no arguments.
    Each argument is packed as launch() packs it; the holder keeps the packed values
    (and the arguments) alive as long as it lives."""

    cdef void** _slots
    cdef uint8_t* _values
    cdef object kernel_args
    cdef readonly intptr_t ptr

    def __init__(self, kernel_args):
        cdef Py_ssize_t index, count = len(kernel_args)
        self.kernel_args = tuple(kernel_args)
        if count == 0:
            return
        self._slots = <void**>PyMem_Malloc(count * sizeof(void*))
        self._values = <uint8_t*>PyMem_Malloc(count * SLOT_ALIGN)
        if self._slots == NULL or self._values == NULL:
            raise MemoryError()
        for index in range(count):
            if not _tensor_map_slot(&self._slots[index], self.kernel_args[index]):
                self._slots[index] = self._values + index * SLOT_ALIGN
                _pack_one(index, self.kernel_args[index], self._values + index * SLOT_ALIGN)
        self.ptr = <intptr_t>self._slots

    def __dealloc__(self):
        PyMem_Free(self._slots)
        PyMem_Free(self._values)


def _packed_arguments(*kernel_args, parameter_sizes=None) -> list[bytes]:
    """The bytes each argument is passed to the kernel as, packed by launch()'s own code for
    parameters of ``parameter_sizes`` bytes (default: none wider than the values), for tests
    and debugging."""
    cdef tuple args = tuple(kernel_args)
    cdef Py_ssize_t index, count = len(args)
    cdef PackedArgs packed
    cdef size_t* sizes = <size_t*>PyMem_Malloc(max(count, 1) * 2 * sizeof(size_t))
    if sizes == NULL:
        raise MemoryError()
    packed.slots = packed.inline_slots
    packed.values = packed.inline_values
    try:
        for index in range(count):
            sizes[index] = 0 if parameter_sizes is None else parameter_sizes[index]
        pack_argument_array(&packed, <PyObject**>PySequence_Fast_ITEMS(args), count, sizes, sizes + count)
        return [(<uint8_t*>packed.slots[index])[:sizes[count + index]] for index in range(count)]
    finally:
        release_arguments(&packed)
        PyMem_Free(sizes)
