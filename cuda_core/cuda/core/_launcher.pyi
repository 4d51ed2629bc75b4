# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._launcher."""

from cuda.core._launch_config import LaunchConfig
from cuda.core._module import Kernel
from cuda.core._stream import IsStreamType, Stream

__all__ = ["launch"]

def launch(stream: Stream | IsStreamType, config: LaunchConfig, kernel: Kernel, *kernel_args) -> None:
    """Launch ``kernel`` on ``stream`` with ``config`` and ``kernel_args`` (by value, in order)."""

def _launch_steps(upto: int, stream: Stream | IsStreamType, config: LaunchConfig, kernel: Kernel, *kernel_args) -> None:
    """launch() stopped after step ``upto`` (0: the call alone ... 5: all of it), for benchmarks/launch_steps.py."""
