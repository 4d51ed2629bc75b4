# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system, the driver side (see _system.pyx)."""

CUDA_BINDINGS_NVML_IS_COMPATIBLE: bool
__all__ = [
    "get_driver_branch",
    "get_kernel_mode_driver_version",
    "get_user_mode_driver_version",
    "get_nvml_version",
    "get_num_devices",
    "get_process_name",
    "CUDA_BINDINGS_NVML_IS_COMPATIBLE",
]

def get_user_mode_driver_version() -> tuple[int, ...]:
    """The CUDA version the user-mode driver supports, as (major, minor)."""

def get_kernel_mode_driver_version() -> tuple[int, ...]:
    """The kernel-mode driver version. Requires NVML support."""

def get_nvml_version() -> tuple[int, ...]:
    """The NVML library's version. Requires NVML support."""

def get_driver_branch() -> str:
    """The installed NVIDIA driver's branch. Requires NVML support."""

def get_num_devices() -> int:
    """The number of CUDA devices the driver sees."""

def get_process_name(pid: int) -> str:
    """The name of process ``pid``. Requires NVML support."""
