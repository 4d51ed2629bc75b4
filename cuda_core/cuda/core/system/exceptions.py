# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The errors NVML reports, as raised by cuda.core.system's NVML queries.

They are cuda.bindings.nvml's own classes (so ``except cuda.core.system.NotFoundError``
catches what the bindings raise); NvmlError is the base of all of them. Importing this
module without NVML bindings raises an ImportError that says what to install. Their names
are written once, in cuda.core.system._nvml_support (cuda.core.system names them without
importing NVML); here each is bound to the bindings' class of that name.
"""

from cuda.core.system._nvml_support import EXCEPTION_NAMES, require_nvml

__all__ = list(EXCEPTION_NAMES)

_nvml = require_nvml("cuda.core.system.exceptions")

# MemoryError and TimeoutError are NVML's here, shadowing the builtins in this module only.
globals().update({name: getattr(_nvml, name) for name in __all__})

del _nvml, require_nvml, EXCEPTION_NAMES
