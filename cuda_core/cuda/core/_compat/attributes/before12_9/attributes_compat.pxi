# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Device attributes of cuda-bindings 12.8, whose cydriver.pxd lacks three that 12.9 declares.
# Beside ../cuda12_9: cuda_core_build.environment links cuda-config/attributes_compat.pxi to one
# of them by the cuda-bindings minor; each difference is one function here and one there.

cdef inline dict compat_bindings_12_9_device_attributes():
    # None of them: DeviceProperties says they need cuda-bindings 12.9.
    return {}
