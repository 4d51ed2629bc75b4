# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._dlpack (compiled): DLPack export of cuda.core's memory.

from enum import IntEnum

class DLDeviceType(IntEnum):
    """The DLPack device types cuda.core's buffers are exported as."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLCUDAManaged = 13
