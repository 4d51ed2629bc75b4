"""cuda.core launches: LaunchConfig, launch(), and the packing of kernel arguments in C.

The packing classifies each argument's type once (cached per type) and copies its
value into a small stack buffer; cuLaunchKernel then gets an array of pointers into
it. There is no Python-level work per argument beyond one type lookup.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.complex cimport PyComplex_ImagAsDouble, PyComplex_RealAsDouble
from cpython.float cimport PyFloat_AsDouble
from cpython.long cimport PyLong_AsLongLong
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy

cimport cuda.bindings.cydriver as cydriver
from cuda.core._memory cimport Buffer
from cuda.core._module cimport Kernel
from cuda.core._stream cimport Stream, as_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

# How an argument of a given type is packed.
cdef enum ArgKind:
    KIND_UNSUPPORTED = 0
    KIND_BUFFER = 1      # cuda.core Buffer: its device pointer
    KIND_BOOL = 2        # Python bool: one byte
    KIND_INT = 3         # Python int: intptr_t, as NVIDIA's cuda.core packs it
    KIND_FLOAT = 4       # Python float: double
    KIND_COMPLEX = 5     # Python complex: two doubles
    KIND_RAW_BYTES = 6   # numpy scalar or ctypes scalar/pointer: its own bytes (buffer protocol)

cdef enum:
    # Arguments up to this many, of up to INLINE_BYTES packed, need no heap allocation.
    INLINE_ARGS = 32
    INLINE_BYTES = 512
    # Every value starts at a multiple of this: enough for any scalar kernels take by value.
    SLOT_ALIGN = 16
    # The widest value packed from a numpy or ctypes scalar (complex128, long double).
    MAX_SCALAR_BYTES = 16

# type -> ArgKind, filled on first sight of each type.
cdef dict _kind_of_type = {}


cdef int _classify(type arg_type) except -1:
    """The ArgKind of a type never seen before; numpy and ctypes are looked up lazily."""
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
    _kind_of_type[arg_type] = kind
    return kind


cdef bint _is_numpy_scalar_type(type arg_type) except -1:
    import sys
    numpy = sys.modules.get("numpy")  # a numpy scalar means numpy is imported already
    if numpy is None or not issubclass(arg_type, numpy.generic):
        return False
    return numpy.dtype(arg_type).kind in "biufc"


cdef bint _is_ctypes_scalar_type(type arg_type) except -1:
    import ctypes
    return issubclass(arg_type, (ctypes._SimpleCData, ctypes._Pointer)) and arg_type is not ctypes.py_object


cdef inline int _kind(object arg) except -1:
    cdef object known = _kind_of_type.get(type(arg))
    return _classify(type(arg)) if known is None else <int>known


# The packed values of one launch and the pointer to each (cuLaunchKernel's kernelParams).
# It lives on the C stack of launch(); the heap is used only past the inline room.
cdef struct PackedArgs:
    void* inline_slots[INLINE_ARGS]
    uint8_t inline_values[INLINE_BYTES]
    void** slots
    uint8_t* values


cdef int _check_count(Kernel kernel, tuple sizes, tuple args) except -1:
    if len(args) != len(sizes):
        raise TypeError(f"kernel {kernel._name!r} takes {len(sizes)} argument(s), got {len(args)}")
    return 0


cdef int _pack(PackedArgs* packed, tuple args, tuple sizes) except -1:
    """Fill ``packed`` with ``args``, each at least as wide as its parameter's size in
    ``sizes``; _release() must follow, also on error."""
    cdef Py_ssize_t index, count = len(args)
    cdef size_t offset = 0
    cdef size_t size
    if count > INLINE_ARGS:
        packed.slots = <void**>PyMem_Malloc(count * sizeof(void*))
    if <size_t>count * SLOT_ALIGN > INLINE_BYTES:
        packed.values = <uint8_t*>PyMem_Malloc(count * SLOT_ALIGN)
    if packed.slots == NULL or packed.values == NULL:
        raise MemoryError()
    for index in range(count):
        packed.slots[index] = packed.values + offset
        size = _pack_one(index, args[index], packed.values + offset)
        if size < <size_t>sizes[index]:
            # The driver would read past the value: garbage in the parameter's upper bytes.
            # Wider values are fine (the driver takes the low bytes), as in NVIDIA's cuda.core.
            raise TypeError(f"kernel argument {index}: a {type(args[index]).__name__} is {size} byte(s), but the "
                            f"kernel's parameter {index} takes {sizes[index]}: pass a numpy scalar of that type")
        if size == 8 and <size_t>sizes[index] == 4 and type(args[index]) is float:
            # A Python float for a float parameter: its value as a float, not a double's low bytes.
            _narrow_to_float(packed.values + offset)
        offset = (offset + size + SLOT_ALIGN - 1) & ~(<size_t>SLOT_ALIGN - 1)
    return 0


cdef inline void _narrow_to_float(uint8_t* slot) noexcept:
    cdef double wide
    cdef float narrow
    memcpy(&wide, slot, sizeof(wide))
    narrow = <float>wide
    memcpy(slot, &narrow, sizeof(narrow))


cdef void _release(PackedArgs* packed) noexcept:
    if packed.slots != NULL and packed.slots != packed.inline_slots:
        PyMem_Free(packed.slots)
    if packed.values != NULL and packed.values != packed.inline_values:
        PyMem_Free(packed.values)


cdef size_t _pack_one(Py_ssize_t index, object arg, uint8_t* out) except 0:
    """Write one argument at ``out`` (SLOT_ALIGN bytes of room); return how many bytes it took."""
    cdef int kind = _kind(arg)
    cdef cydriver.CUdeviceptr pointer
    cdef int64_t integer
    cdef double real
    cdef double pair[2]
    if kind == KIND_BUFFER:
        pointer = (<Buffer>arg)._live_ptr()
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
                    "pass a cuda.core Buffer, a numpy scalar (e.g. numpy.float32(x)), a ctypes scalar or pointer, "
                    "or a Python bool, int, float or complex")


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


def _packed_arguments(*kernel_args) -> list[bytes]:
    """The bytes each argument is passed to the kernel as, by the same code launch() uses
    (for tests and debugging)."""
    cdef uint8_t slot[SLOT_ALIGN]
    cdef Py_ssize_t index
    cdef size_t size
    result = []
    for index, arg in enumerate(kernel_args):
        size = _pack_one(index, arg, slot)
        result.append(slot[:size])
    return result


cdef tuple _dims(object value, str name):
    """A grid or block given as an int or a 1-3 tuple of positive ints, as a 3-tuple."""
    dims = (value,) if isinstance(value, int) else value
    if not isinstance(dims, tuple) or not 1 <= len(dims) <= 3 or \
            not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in dims):
        raise ValueError(f"LaunchConfig {name} must be a positive int or a tuple of 1 to 3 positive ints, "
                         f"got {value!r}")
    if any(d > 0xFFFFFFFF for d in dims):
        raise ValueError(f"LaunchConfig {name} {value!r} does not fit 32-bit dimensions")
    return dims + (1,) * (3 - len(dims))


cdef class LaunchConfig:
    """How a kernel is launched: ``grid`` and ``block`` (an int or a 1-3 tuple of ints),
    and ``shmem_size``, the bytes of dynamic shared memory per block."""

    cdef readonly tuple grid
    cdef readonly tuple block
    cdef readonly unsigned int shmem_size
    cdef unsigned int dims[6]

    def __init__(self, grid=None, cluster=None, block=None, shmem_size=None, cooperative_launch=False):
        if grid is None or block is None:
            raise ValueError("LaunchConfig needs both grid and block, e.g. LaunchConfig(grid=(n + 255) // 256, block=256)")
        if cluster is not None:
            raise NotImplementedError("thread block clusters (LaunchConfig cluster=) are not supported by this "
                                      "cuda.core build yet")
        if cooperative_launch:
            raise NotImplementedError("cooperative launches are not supported by this cuda.core build yet")
        shmem_size = 0 if shmem_size is None else shmem_size
        if not isinstance(shmem_size, int) or isinstance(shmem_size, bool) or not 0 <= shmem_size <= 0xFFFFFFFF:
            raise ValueError(f"LaunchConfig shmem_size must be a non-negative int (bytes), got {shmem_size!r}")
        self.grid = _dims(grid, "grid")
        self.block = _dims(block, "block")
        self.shmem_size = shmem_size
        for axis in range(3):
            self.dims[axis] = self.grid[axis]
            self.dims[3 + axis] = self.block[axis]

    @property
    def cluster(self):
        return None

    @property
    def cooperative_launch(self) -> bool:
        return False

    def __eq__(self, other) -> bool:
        if not isinstance(other, LaunchConfig):
            return NotImplemented
        return (self.grid, self.block, self.shmem_size) == \
            ((<LaunchConfig>other).grid, (<LaunchConfig>other).block, (<LaunchConfig>other).shmem_size)

    def __hash__(self) -> int:
        return hash((self.grid, self.block, self.shmem_size))

    def __repr__(self) -> str:
        return f"LaunchConfig(grid={self.grid}, block={self.block}, shmem_size={self.shmem_size})"


def launch(stream, config, kernel, *kernel_args) -> None:
    """Launch ``kernel`` on ``stream`` (a Stream, or any object with ``__cuda_stream__``)
    with ``config``, passing ``kernel_args`` by value in order.

    The arguments must match the kernel's parameters in number, and each must be at least
    as wide as its parameter (a wider one gives its low bytes, as in NVIDIA's cuda.core):
    a mismatch is a TypeError, never a launch that reads past a value. A Python float for
    a 4-byte parameter is passed as a float."""
    if type(config) is not LaunchConfig:
        raise TypeError(f"launch() config must be a LaunchConfig, got {type(config).__name__}")
    if type(kernel) is not Kernel:
        raise TypeError(f"launch() kernel must be a Kernel (from ObjectCode.get_kernel), got {type(kernel).__name__}")
    cdef Stream target = <Stream>stream if type(stream) is Stream else as_stream(stream)
    cdef cydriver.CUstream handle = target._live_handle()
    cdef cydriver.CUfunction function = <cydriver.CUfunction>(<Kernel>kernel)._handle
    cdef unsigned int* dims = (<LaunchConfig>config).dims
    cdef unsigned int shmem_size = (<LaunchConfig>config).shmem_size
    cdef tuple sizes = (<Kernel>kernel)._parameter_sizes()
    _check_count(<Kernel>kernel, sizes, kernel_args)
    cdef PackedArgs packed
    packed.slots = packed.inline_slots
    packed.values = packed.inline_values
    try:
        _pack(&packed, kernel_args, sizes)
        with nogil:
            HANDLE_RETURN(cydriver.cuLaunchKernel(function, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5],
                                                  shmem_size, handle, packed.slots, NULL))
    finally:
        _release(&packed)
