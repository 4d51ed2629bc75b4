# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._device_resources: a device's or context's SMs and work queues."""

from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass

from cuda.core._context import Context
from cuda.core._device import Device
from cuda.core.typing import WorkqueueSharingScopeType
from typing_extensions import disjoint_base

__all__ = ["DeviceResources", "SMResource", "SMResourceOptions", "WorkqueueResource", "WorkqueueResourceOptions"]

@dataclass
class SMResourceOptions:
    """How SMResource.split() partitions SMs: scalars for one group, sequences for several."""

    count: int | SequenceABC[int] | None = None
    coscheduled_sm_count: int | SequenceABC[int] | None = None
    preferred_coscheduled_sm_count: int | SequenceABC[int] | None = None
    backfill: bool | SequenceABC[bool] = False

@dataclass
class WorkqueueResourceOptions:
    """How WorkqueueResource.configure() sets a work queue configuration."""

    sharing_scope: WorkqueueSharingScopeType | str | None = None
    concurrency_limit: int | None = None

    def __post_init__(self): ...

@disjoint_base
class SMResource:
    """A set of SMs: a device's or context's, or a group of split()."""
    def __init__(self, *args, **kwargs): ...
    @property
    def handle(self) -> int:
        """The address of the underlying CUdevResource struct."""
    @property
    def sm_count(self) -> int:
        """The number of SMs."""
    @property
    def min_partition_size(self) -> int:
        """The fewest SMs a partition can have."""
    @property
    def coscheduled_alignment(self) -> int:
        """The number of SMs guaranteed to be co-scheduled together."""
    @property
    def flags(self) -> int:
        """The driver's flags of this SM resource."""
    def split(self, options: SMResourceOptions, *, dry_run: bool = False) -> tuple[list[SMResource], SMResource]:
        """Split into disjoint groups and a remainder."""
    def __repr__(self) -> str: ...

@disjoint_base
class WorkqueueResource:
    """The work queue configuration of a device or context."""
    def __init__(self, *args, **kwargs) -> None: ...
    @property
    def handle(self) -> int:
        """The address of the underlying configuration CUdevResource struct."""
    @property
    def sharing_scope(self) -> WorkqueueSharingScopeType:
        """With which contexts work queues are shared."""
    @property
    def concurrency_limit(self) -> int:
        """Expected most concurrent stream-ordered workloads."""
    @property
    def device(self) -> Device:
        """The Device this resource belongs to."""
    def configure(self, options: WorkqueueResourceOptions) -> None:
        """Set the fields of ``options`` that are not None, in place."""
    def __repr__(self) -> str: ...

@disjoint_base
class DeviceResources:
    """The hardware resources of a device or context."""
    def __init__(self, *args, **kwargs) -> None: ...
    @property
    def sm(self) -> SMResource:
        """The SMs of this device or context."""
    @property
    def workqueue(self) -> WorkqueueResource:
        """The work queue configuration of this device or context."""
    def __repr__(self) -> str: ...

def _device_resources(device_id: int) -> DeviceResources: ...
def _context_resources(context: Context) -> DeviceResources: ...
def _create_green_context(device_id: int, resources: object) -> Context: ...
def _is_sequence(value: object) -> bool: ...
def _split_plan(options: object) -> tuple[list[int | None], list[int | None], list[int | None], list[bool]]: ...
def _sm_count(value: object, name: str, allow_none: bool) -> int | None: ...
