"""Type stub of cuda.core._launcher."""

from cuda.core._launch_config import LaunchConfig
from cuda.core._module import Kernel
from cuda.core._stream import IsStreamType, Stream

__all__ = ['launch']

def launch(stream: Stream | IsStreamType, config: LaunchConfig, kernel: Kernel, *kernel_args) -> None:
    """Launch ``kernel`` on ``stream`` with ``config`` and ``kernel_args`` (by value, in order)."""
