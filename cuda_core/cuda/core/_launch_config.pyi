# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._launch_config: the shape and attributes of a kernel launch."""

from typing import Any

from typing_extensions import disjoint_base

__all__ = ["LaunchConfig"]

_LAUNCH_CONFIG_ATTRS: tuple[str, ...]

@disjoint_base
class LaunchConfig:
    """grid (blocks, or clusters when ``cluster`` is set), cluster, block, dynamic shared
    memory, and the cooperative / programmatic-dependent-launch flags of a launch."""

    grid: tuple[Any, ...]
    cluster: tuple[Any, ...]
    block: tuple[Any, ...]
    shmem_size: int
    is_cooperative: bool
    programmatic_stream_serialization: bool

    def __init__(
        self,
        grid: int | tuple[int, ...] | None = None,
        cluster: int | tuple[int, ...] | None = None,
        block: int | tuple[int, ...] | None = None,
        shmem_size: int | None = None,
        is_cooperative: bool = False,
        programmatic_stream_serialization: bool = False,
    ) -> None: ...
    def _identity(self) -> tuple[Any, ...]: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def _to_native_launch_config(config: LaunchConfig) -> object:
    """``config`` as a ``cuda.bindings.driver.CUlaunchConfig`` (grid in blocks, attributes)."""
