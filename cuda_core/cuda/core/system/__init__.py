"""cuda.core.system: what the CUDA driver (and, with NVML support, NVML) reports about this machine.

Importable without a GPU or driver: the functions load the driver when called.
"""

from cuda.core.system import typing
from cuda.core.system._system import *  # noqa: F403
from cuda.core.system._system import __all__ as _system_all

__all__ = list(_system_all)
