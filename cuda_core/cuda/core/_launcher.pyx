"""cuda.core launch(): a kernel on a stream, with its arguments packed in C."""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._kernel_arg_handler cimport PackedArgs, pack_arguments, release_arguments
from cuda.core._launch_config cimport LaunchConfig
from cuda.core._module cimport Kernel
from cuda.core._stream cimport Stream, as_stream
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['launch']


cdef int _check_count(Kernel kernel, tuple sizes, tuple args) except -1:
    if len(args) != len(sizes):
        raise TypeError(f"kernel {kernel._name!r} takes {len(sizes)} argument(s), got {len(args)}")
    return 0


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
    try:
        pack_arguments(&packed, kernel_args, sizes)
        with nogil:
            HANDLE_RETURN(cydriver.cuLaunchKernel(function, dims[0], dims[1], dims[2], dims[3], dims[4], dims[5],
                                                  shmem_size, handle, packed.slots, NULL))
    finally:
        release_arguments(&packed)
