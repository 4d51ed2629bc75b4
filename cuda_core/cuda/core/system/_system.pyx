"""cuda.core.system, the driver side: what the CUDA driver reports about this machine.

The NVML side of NVIDIA's cuda.core.system (kernel-mode driver version, driver branch,
NVML version, process names, system.Device) is not built into this cuda.core yet: those
functions raise NotImplementedError (a RuntimeError) saying that they require NVML support,
and CUDA_BINDINGS_NVML_IS_COMPATIBLE is False.
"""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

__all__ = ["get_driver_branch", "get_kernel_mode_driver_version", "get_user_mode_driver_version",
           "get_nvml_version", "get_num_devices", "get_process_name", "CUDA_BINDINGS_NVML_IS_COMPATIBLE"]

# Whether the NVML side of cuda.core.system is available; this cuda.core does not have it yet.
CUDA_BINDINGS_NVML_IS_COMPATIBLE = False


def _nvml_missing(function: str) -> NotImplementedError:
    return NotImplementedError(f"cuda.core.system.{function}() requires NVML support, which this cuda.core "
                               "does not have yet (CUDA_BINDINGS_NVML_IS_COMPATIBLE is False)")


def get_user_mode_driver_version() -> tuple[int, ...]:
    """The CUDA version that the user-mode driver (libcuda) supports, as (major, minor),
    e.g. (13, 0): what decides which CUDA programs the driver runs."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return (version // 1000, version % 1000 // 10)


def get_kernel_mode_driver_version() -> tuple[int, ...]:
    """The kernel-mode driver version, e.g. (580, 65, 6). Requires NVML support."""
    raise _nvml_missing("get_kernel_mode_driver_version")


def get_nvml_version() -> tuple[int, ...]:
    """The NVML library's version. Requires NVML support."""
    raise _nvml_missing("get_nvml_version")


def get_driver_branch() -> str:
    """The branch of the installed NVIDIA driver, e.g. "560". Requires NVML support."""
    raise _nvml_missing("get_driver_branch")


def get_num_devices() -> int:
    """The number of CUDA devices the driver sees."""
    return device_count()


def get_process_name(pid: int) -> str:
    """The name of the process ``pid``. Requires NVML support."""
    raise _nvml_missing("get_process_name")
