"""cuda.core.system: what the CUDA driver reports about this machine."""

from cuda.core.system._system import *  # noqa: F403
from cuda.core.system._system import __all__
