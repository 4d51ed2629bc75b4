"""cuda.core launch(): a kernel on a stream, with its arguments packed in C.

A config that needs no launch attribute takes the plain cuLaunchKernel path, the
driver's cheapest; clusters, cooperative launches and programmatic dependent launch go
through cuLaunchKernelEx with the attributes the LaunchConfig keeps ready.
"""

import sys

cimport cuda.bindings.cydriver as cydriver
from cuda.core._kernel_arg_handler cimport PackedArgs, pack_arguments, release_arguments
from cuda.core._launch_config cimport MAX_LAUNCH_ATTRIBUTES, LaunchConfig
from cuda.core._module cimport Kernel
from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['launch']


cdef int _check_count(Kernel kernel, tuple sizes, tuple args) except -1:
    if len(args) != len(sizes):
        label = "kernel" if kernel._name is None else f"kernel {kernel._name!r}"
        raise TypeError(f"{label} takes {len(sizes)} argument(s), got {len(args)}")
    return 0


cdef Stream _launch_stream(object stream, object kernel):
    """A launch's stream other than a plain Stream: a Stream subclass, a GraphBuilder (its
    stream: the launch is captured, and the graph keeps ``kernel``, hence its code, alive), or
    (deprecated) an object with ``__cuda_stream__``; anything else is a TypeError. The
    GraphBuilder class is looked up among the loaded modules: cuda.core.graph is not imported
    by a launch, and a plain Stream never gets here."""
    builders = sys.modules.get("cuda.core.graph._graph_builder")
    if builders is not None and isinstance(stream, builders.GraphBuilder):
        stream._keep_alive(kernel)
        return <Stream>stream.stream
    return Stream_accept(stream, True)


cdef int _check_cooperative_grid(LaunchConfig config, cydriver.CUfunction function) except -1:
    """A cooperative grid must be resident on the device all at once: refuse a larger one
    here, with the numbers, rather than let the driver fail it."""
    cdef int per_multiprocessor = 0
    cdef int multiprocessors = 0
    cdef cydriver.CUdevice device = 0
    cdef int threads = config.dims[3] * config.dims[4] * config.dims[5]
    cdef size_t shmem = config._shmem_size
    with nogil:
        HANDLE_RETURN(cydriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, function, threads,
                                                                            shmem))
        HANDLE_RETURN(cydriver.cuCtxGetDevice(&device))
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&multiprocessors, cydriver.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                                    device))
    cdef unsigned long long blocks = (<unsigned long long>config.dims[0]) * config.dims[1] * config.dims[2]
    cdef unsigned long long resident = (<unsigned long long>per_multiprocessor) * multiprocessors
    if blocks > resident:
        raise ValueError(f"a cooperative launch needs all its blocks resident at once, but this grid has {blocks} "
                         f"blocks and at most {resident} ({per_multiprocessor} per multiprocessor x {multiprocessors} "
                         f"multiprocessors) fit with {threads} threads and {shmem} bytes of dynamic shared memory "
                         f"per block")
    return 0


cdef int _launch_with_attributes(LaunchConfig config, cydriver.CUfunction function, cydriver.CUstream stream,
                                 void** slots) except -1:
    cdef cydriver.CUlaunchConfig native
    cdef cydriver.CUlaunchAttribute attributes[MAX_LAUNCH_ATTRIBUTES]
    if config._cooperative:
        _check_cooperative_grid(config, function)
    config.fill_native(&native, attributes, stream, True)
    with nogil:
        HANDLE_RETURN(cydriver.cuLaunchKernelEx(&native, function, slots, NULL))
    return 0


def launch(stream, config, kernel, *kernel_args) -> None:
    """Launch ``kernel`` on ``stream`` with ``config``, passing ``kernel_args`` by value in order.

    ``stream`` is a Stream, or a GraphBuilder that is building (the launch becomes a node
    of its graph); an object with ``__cuda_stream__`` still works, with a
    DeprecationWarning: wrap it with ``Stream(obj)``. Arguments are Buffers (their device
    pointer), numpy or ctypes scalars (their own type), or Python bool (bool), int
    (a pointer-sized integer), float (double) and complex (two doubles). They must match the
    kernel's parameters in number, and each must be at least as wide as its parameter (a
    wider one gives its low bytes, as in NVIDIA's cuda.core; a Python float for a float
    parameter gives its value): a mismatch is a TypeError, never a launch that reads past a value."""
    cdef Stream target = <Stream>stream if type(stream) is Stream else _launch_stream(stream, kernel)
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"launch() config must be a LaunchConfig, got {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch() kernel must be a Kernel (from ObjectCode.get_kernel), got {type(kernel).__name__}")
    cdef LaunchConfig launch_config = <LaunchConfig>config
    cdef cydriver.CUstream handle = target._live_handle()
    cdef cydriver.CUfunction function = <cydriver.CUfunction>(<Kernel>kernel)._kernel
    cdef unsigned int* dims = launch_config.dims
    cdef unsigned int shmem_size = launch_config._shmem_size
    cdef tuple sizes = (<Kernel>kernel)._parameter_sizes()
    _check_count(<Kernel>kernel, sizes, kernel_args)
    cdef PackedArgs packed
    try:
        pack_arguments(&packed, kernel_args, sizes)
        if launch_config.num_attributes == 0:
            with nogil:
                HANDLE_RETURN(cydriver.cuLaunchKernel(function, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5],
                                                      shmem_size, handle, packed.slots, NULL))
        else:
            _launch_with_attributes(launch_config, function, handle, packed.slots)
    finally:
        release_arguments(&packed)
