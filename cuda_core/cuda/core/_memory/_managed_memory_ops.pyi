# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Type stub of cuda.core._memory._managed_memory_ops (compiled).

from collections.abc import Sequence
from typing import Any

from cuda.core._device import Device
from cuda.core._host import Host
from cuda.core._memory._buffer import Buffer

__all__ = ["discard_batch", "discard_prefetch_batch", "prefetch_batch"]

_SINGLE_MANAGED_HINT: str

def discard_batch(stream: Any, buffers: Sequence[Buffer]) -> None:
    """Discard the managed buffers' contents on ``stream`` (CUDA 13)."""

def _do_single_discard_py(buf: Buffer, stream: Any) -> None: ...
def _advise_one(buf: Buffer, advice: Any, location: Device | Host | None) -> None: ...
def prefetch_batch(stream: Any, buffers: Sequence[Buffer], locations: Device | Host | Sequence[Device | Host]) -> None:
    """Prefetch the managed buffers to their locations on ``stream``."""

def _do_single_prefetch_py(buf: Buffer, location: Device | Host | None, stream: Any) -> None: ...
def _read_preferred_location_v2(buf: Buffer) -> Device | Host | None: ...
def discard_prefetch_batch(
    stream: Any, buffers: Sequence[Buffer], locations: Device | Host | Sequence[Device | Host]
) -> None:
    """Discard the managed buffers' contents and prefetch them to their locations (CUDA 13)."""

def _do_single_discard_prefetch_py(buf: Buffer, location: Device | Host | None, stream: Any) -> None: ...
def _range_int_attribute(buf: Buffer, attribute: int) -> int: ...
def _accessed_by_ids(buf: Buffer) -> list[int]: ...
