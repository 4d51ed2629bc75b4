"""cuda.core.system, the driver side: what the CUDA driver reports about this machine.

The NVML side of NVIDIA's cuda.core.system (driver branch, kernel-mode driver version,
processes, system.Device) is not built yet: each of its functions raises
NotImplementedError, and CUDA_BINDINGS_NVML_IS_COMPATIBLE is False.
"""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

__all__ = ["CUDA_BINDINGS_NVML_IS_COMPATIBLE", "get_driver_branch", "get_kernel_mode_driver_version",
           "get_num_devices", "get_nvml_version", "get_process_name", "get_user_mode_driver_version"]

# Whether the NVML side is available; it is not built into this cuda.core yet.
CUDA_BINDINGS_NVML_IS_COMPATIBLE = False


def get_num_devices() -> int:
    """The number of CUDA devices the driver sees."""
    return device_count()


def get_user_mode_driver_version() -> tuple[int, int]:
    """The CUDA version the user-mode driver (libcuda) supports, as (major, minor), e.g. (13, 0)."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return (version // 1000, version % 1000 // 10)


def _needs_nvml(name: str):
    def unavailable(*args, **kwargs):
        raise NotImplementedError(f"cuda.core.system.{name}() needs the NVML side of cuda.core.system, "
                                  "which this build does not have yet")
    unavailable.__name__ = unavailable.__qualname__ = name
    unavailable.__doc__ = f"Not available: {name} needs NVML, which this cuda.core build does not use yet."
    return unavailable


get_driver_branch = _needs_nvml("get_driver_branch")
get_kernel_mode_driver_version = _needs_nvml("get_kernel_mode_driver_version")
get_nvml_version = _needs_nvml("get_nvml_version")
get_process_name = _needs_nvml("get_process_name")
