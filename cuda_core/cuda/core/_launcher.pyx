# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core launch(): a kernel on a stream, with its arguments packed in C.

A config that needs no launch attribute takes the plain cuLaunchKernel path, the
driver's cheapest; clusters, cooperative launches and programmatic dependent launch go
through cuLaunchKernelEx with the attributes the LaunchConfig keeps ready.
"""

import sys

from cpython.tuple cimport PyTuple_GET_SIZE

cimport cuda.bindings.cydriver as cydriver
from cuda.core._kernel_arg_handler cimport PackedArgs, pack_arguments, release_arguments
from cuda.core._launch_config cimport MAX_LAUNCH_ATTRIBUTES, LaunchConfig
from cuda.core._module cimport Kernel
from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['launch']

cdef enum:
    # How far _launch() goes: launch() runs every step; _launch_steps() stops after one, so
    # that benchmarks/launch_steps.py times each step of the very code launch() runs.
    STEP_CALL = 0        # the call alone
    STEP_CHECKED = 1     # + stream, config and kernel checked, the stream's handle read
    STEP_COUNTED = 2     # + the kernel's parameter sizes, the argument count checked
    STEP_PACKED = 3      # + the arguments packed
    STEP_NOGIL = 4       # + the GIL released and taken back, with nothing in between
    STEP_LAUNCHED = 5    # + cuLaunchKernel (cuLaunchKernelEx with launch attributes)


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
        HANDLE_RETURN(cydriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_multiprocessor, function, threads, shmem))
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
    _launch(stream, config, kernel, kernel_args, STEP_LAUNCHED)


def _launch_steps(int upto, stream, config, kernel, *kernel_args) -> None:
    """launch() stopped after step ``upto`` (0: the call alone ... 5: all of it; see STEP_*),
    for benchmarks/launch_steps.py."""
    _launch(stream, config, kernel, kernel_args, upto)


cdef inline int _launch(object stream, object config, object kernel, tuple args, int upto) except -1:
    """launch()'s work, up to step ``upto`` (launch(): all of it); the tests of ``upto`` are
    a few compares of a register."""
    if upto == STEP_CALL:
        return 0
    cdef Stream target = <Stream>stream if type(stream) is Stream else _launch_stream(stream, kernel)
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"launch() config must be a LaunchConfig, got {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch() kernel must be a Kernel (from ObjectCode.get_kernel), got {type(kernel).__name__}")
    cdef LaunchConfig launch_config = <LaunchConfig>config
    cdef Kernel launched = <Kernel>kernel
    # The handle read in place; _live_handle() raises its error for a closed Stream.
    cdef cydriver.CUstream handle = target._live_handle() if target._closed else target._handle
    if upto == STEP_CHECKED:
        return 0
    if launched._num_params != PyTuple_GET_SIZE(args):  # also while not yet asked of the driver (-1)
        launched._check_argument_count(PyTuple_GET_SIZE(args))
    if upto == STEP_COUNTED:
        return 0
    cdef PackedArgs packed
    cdef cydriver.CUresult result = cydriver.CUDA_SUCCESS
    cdef unsigned int* dims = launch_config.dims
    try:
        pack_arguments(&packed, args, launched._param_size_array)
        if upto == STEP_PACKED:
            return 0
        if launch_config.num_attributes != 0 and upto == STEP_LAUNCHED:
            _launch_with_attributes(launch_config, <cydriver.CUfunction>launched._kernel, handle, packed.slots)
            return 0
        with nogil:
            if upto == STEP_LAUNCHED:
                result = cydriver.cuLaunchKernel(<cydriver.CUfunction>launched._kernel, dims[0], dims[1], dims[2],
                                                 dims[3], dims[4], dims[5], launch_config._shmem_size, handle,
                                                 packed.slots, NULL)
        if result != cydriver.CUDA_SUCCESS:
            HANDLE_RETURN(result)
    finally:
        release_arguments(&packed)
    return 0
