# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system's functions: the CUDA driver's view (driver version, device count) and,
with NVML bindings, NVML's (kernel-mode driver version, driver branch, NVML version, process
names). Without NVML bindings the NVML functions raise NvmlUnavailableError, a RuntimeError and
an ImportError saying which cuda-bindings to install, and CUDA_BINDINGS_NVML_IS_COMPATIBLE is
False. NVML is imported on the first NVML call only.
"""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver

from cuda.core.system._nvml_support import NVML_IS_COMPATIBLE, require_nvml

__all__ = ["get_driver_branch", "get_kernel_mode_driver_version", "get_user_mode_driver_version",
           "get_nvml_version", "get_num_devices", "get_process_name", "CUDA_BINDINGS_NVML_IS_COMPATIBLE"]

# Whether the installed cuda-bindings has the NVML bindings the NVML side of cuda.core.system needs.
CUDA_BINDINGS_NVML_IS_COMPATIBLE = NVML_IS_COMPATIBLE


def _nvml(function: str):
    """cuda.bindings.nvml, initialised for this process, for cuda.core.system.``function``."""
    nvml = require_nvml(f"cuda.core.system.{function}()")
    from cuda.core.system import _nvml_context
    _nvml_context.initialize()
    return nvml


def _version(text: str) -> tuple[int, ...]:
    """(580, 65, 6) from NVML's "580.65.06"."""
    return tuple(int(part) for part in text.strip().split(".") if part.isdigit())


def get_user_mode_driver_version() -> tuple[int, ...]:
    """The CUDA version that the user-mode driver (libcuda) supports, as (major, minor),
    e.g. (13, 0): what decides which CUDA programs the driver runs."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return (version // 1000, version % 1000 // 10)


def get_kernel_mode_driver_version() -> tuple[int, ...]:
    """The kernel-mode driver version, e.g. (580, 65, 6) ((MAJOR, MINOR) on WSL). Requires NVML support."""
    return _version(_nvml("get_kernel_mode_driver_version").system_get_driver_version())


def get_nvml_version() -> tuple[int, ...]:
    """The NVML library's version, e.g. (13, 580, 65, 6): CUDA major first. Requires NVML support."""
    return _version(_nvml("get_nvml_version").system_get_nvml_version())


def get_driver_branch() -> str:
    """The branch of the installed NVIDIA driver, e.g. "560". Requires NVML support."""
    return _nvml("get_driver_branch").system_get_driver_branch()


def get_num_devices() -> int:
    """The number of CUDA devices the driver sees."""
    return device_count()


def get_process_name(pid: int) -> str:
    """The name of the process ``pid`` (NotFoundError where NVML does not know it). Requires NVML support."""
    return _nvml("get_process_name").system_get_process_name(pid)
