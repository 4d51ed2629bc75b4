# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core device resources: a device's SMs and work queues, and their partitions.

``Device.resources`` (or a context's or stream's ``resources``) gives a DeviceResources;
its ``sm`` is an SMResource that ``split()`` partitions into disjoint groups, and its
``workqueue`` a WorkqueueResource to configure. ``Device.create_context`` makes a green
context of such resources: a context whose kernels run on its SMs alone.

Structured SM splits (per-group sizes and co-scheduling) and workqueue resources came with
CUDA 13.1: a build with older headers splits by count alone and says so for the rest
(resources_compat.pxi, chosen for the headers and cuda-bindings of the build).
"""

import operator
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass

from libc.string cimport memset
from libcpp.vector cimport vector

cimport cython
cimport cuda.bindings.cydriver as cydriver
from cuda.core._context cimport Context, green_context_from_handle
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

from cuda.core._utils.cuda_utils import CUDAError
from cuda.core.typing import WorkqueueSharingScopeType

# compat_sm_flags, compat_check_split, compat_sm_split, compat_workqueue_*: what differs
# between headers before CUDA 13.1 and 13.1+.
include "resources_compat.pxi"
# compat_sm_min_partition, compat_sm_coscheduled_alignment: what differs between CUDA 12 and 13.
include "driver_compat.pxi"

__all__ = ['DeviceResources', 'SMResource', 'SMResourceOptions', 'WorkqueueResource', 'WorkqueueResourceOptions']


cdef unsigned int _architecture_granularity(int device_id) except 0:
    """The SM split granularity of the device's architecture, where the driver's struct does not
    say (CUDA 12 headers; split groups): 8 SMs from compute capability 9.0 on, 2 before."""
    cdef cydriver.CUdevice device
    cdef int major = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGet(&device, device_id))
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(
            &major, cydriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device))
    return 8 if major >= 9 else 2


@dataclass
class SMResourceOptions:
    """How SMResource.split() partitions SMs.

    Each field is a scalar (one group) or a sequence (one entry per group); ``count`` sets
    the number of groups, and the other sequences must have as many entries.

    Attributes
    ----------
    count : int or Sequence[int], optional
        SMs per group; None lets the driver choose (discovery). (Default to ``None``)
    coscheduled_sm_count : int or Sequence[int], optional
        Least number of SMs of a group guaranteed to be co-scheduled (for clusters).
        (Default to ``None``: the device's alignment)
    preferred_coscheduled_sm_count : int or Sequence[int], optional
        Co-scheduled SM count the driver tries for, falling back to
        ``coscheduled_sm_count``. (Default to ``None``)
    backfill : bool or Sequence[bool], optional
        Let the driver fill a group with SMs outside its co-scheduled structure, so that
        sizes the hardware topology would refuse can be had. (Default to ``False``)
    """

    count: int | SequenceABC[int] | None = None
    coscheduled_sm_count: int | SequenceABC[int] | None = None
    preferred_coscheduled_sm_count: int | SequenceABC[int] | None = None
    backfill: bool | SequenceABC[bool] = False


@dataclass
class WorkqueueResourceOptions:
    """How WorkqueueResource.configure() sets a work queue configuration; None leaves a
    field as it is.

    Attributes
    ----------
    sharing_scope : :class:`~cuda.core.typing.WorkqueueSharingScopeType` | str, optional
        With which contexts the green context shares work queues: ``"device_ctx"`` (all
        contexts of the device) or ``"green_ctx_balanced"`` (apart from other balanced
        green contexts, where possible).
    concurrency_limit : int, optional
        Expected most concurrent stream-ordered workloads, at least 1. The driver keeps
        submissions apart only up to ``CUDA_DEVICE_MAX_CONNECTIONS`` (typically 1 to 32).
        (Default to ``None``)
    """

    sharing_scope: WorkqueueSharingScopeType | str | None = None
    concurrency_limit: int | None = None

    def __post_init__(self):
        if self.sharing_scope is not None:
            try:
                self.sharing_scope = WorkqueueSharingScopeType(self.sharing_scope)
            except ValueError:
                choices = ", ".join(repr(member.value) for member in WorkqueueSharingScopeType)
                raise ValueError(f"{self.sharing_scope!r} is not a valid WorkqueueSharingScopeType. Must be one of "
                                 f"{choices}") from None
        if self.concurrency_limit is not None:
            if isinstance(self.concurrency_limit, bool) or not isinstance(self.concurrency_limit, int):
                raise TypeError(f"concurrency_limit must be an int or None, got "
                                f"{type(self.concurrency_limit).__name__}")
            if self.concurrency_limit < 1:
                raise ValueError(f"concurrency_limit must be >= 1, got {self.concurrency_limit}")


# ----------------------------------------------------------------------------------------
# SM resources

def _is_sequence(value) -> bool:
    return isinstance(value, SequenceABC) and not isinstance(value, (str, bytes))


def _split_plan(options) -> tuple:
    """SMResourceOptions as four lists of one entry per group: counts, coscheduled counts,
    preferred coscheduled counts (None: the driver's default) and backfill flags."""
    if not isinstance(options, SMResourceOptions):
        raise TypeError(f"options must be an SMResourceOptions, got {type(options).__name__}")
    fields = {"coscheduled_sm_count": options.coscheduled_sm_count,
              "preferred_coscheduled_sm_count": options.preferred_coscheduled_sm_count,
              "backfill": options.backfill}
    if _is_sequence(options.count):
        counts = list(options.count)
        if not counts:
            raise ValueError("SMResourceOptions.count must name at least one group, got an empty sequence")
    else:
        counts = [options.count]
        for name, value in fields.items():
            if _is_sequence(value):
                raise ValueError(f"SMResourceOptions.count is scalar (one group), but {name} is a sequence: "
                                 f"give count as a sequence of one count per group, or {name} as a scalar")
    columns = []
    for name, value in fields.items():
        if _is_sequence(value):
            if len(value) != len(counts):
                raise ValueError(f"SMResourceOptions.{name} has {len(value)} entries, expected {len(counts)} "
                                 "(one per group of count)")
            columns.append(list(value))
        else:
            columns.append([value] * len(counts))
    counts = [_sm_count(value, "count", True) for value in counts]
    coscheduled = [_sm_count(value, "coscheduled_sm_count", True) for value in columns[0]]
    preferred = [_sm_count(value, "preferred_coscheduled_sm_count", True) for value in columns[1]]
    return counts, coscheduled, preferred, [bool(value) for value in columns[2]]


def _sm_count(value, str name, bint allow_none):
    """A non-negative SM count (or None where allowed)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool):
        raise TypeError(f"SMResourceOptions.{name} must be an int, got a bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"SMResourceOptions.{name} must be an int or None, got {type(value).__name__}") from None
    if value < 0:
        raise ValueError(f"SMResourceOptions.{name} must be non-negative, got {value}")
    return value


@cython.auto_pickle(False)
cdef class SMResource:
    """A set of streaming multiprocessors: a device's or context's (DeviceResources.sm), or
    a group of SMResource.split(). Not made directly."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("SMResource cannot be instantiated directly: use Device.resources.sm (or a context's "
                           "or stream's resources.sm), or SMResource.split()")

    @property
    def handle(self) -> int:
        """The address of the underlying ``CUdevResource`` struct."""
        return <size_t>&self._resource

    @property
    def sm_count(self) -> int:
        """The number of SMs in this resource."""
        return self._resource.sm.smCount

    @property
    def min_partition_size(self) -> int:
        """The fewest SMs a partition of this resource can have."""
        return compat_sm_min_partition(&self._resource) or _architecture_granularity(self._device_id)

    @property
    def coscheduled_alignment(self) -> int:
        """The number of SMs guaranteed to be co-scheduled together (the split granularity)."""
        return compat_sm_coscheduled_alignment(&self._resource) or _architecture_granularity(self._device_id)

    @property
    def flags(self) -> int:
        """The driver's flags of this SM resource (0 with headers before CUDA 13.1)."""
        return compat_sm_flags(&self._resource)

    def split(self, options, *, dry_run=False):
        """Split this resource into disjoint groups of SMs and a remainder.

        Parameters
        ----------
        options : :obj:`SMResourceOptions`
            Group sizes and co-scheduling constraints.
        dry_run : bool, optional
            Only report what the split would give: the groups cannot make contexts.
            (Default to ``False``)

        Returns
        -------
        tuple[list[:obj:`SMResource`], :obj:`SMResource`]
            ``(groups, remainder)``: the groups, in the order of ``options.count``, and the
            SMs left over.
        """
        counts, coscheduled, preferred, backfill = _split_plan(options)
        compat_check_split(counts, coscheduled, preferred, backfill)
        cdef unsigned int requested = len(counts)
        cdef unsigned int made = requested
        cdef vector[cydriver.CUdevResource] groups
        cdef vector[unsigned int] sizes, cosched, pref
        cdef vector[bint] fill
        cdef unsigned int i
        cdef cydriver.CUdevResource remainder
        cdef cydriver.CUdevResource empty
        memset(&remainder, 0, sizeof(remainder))
        memset(&empty, 0, sizeof(empty))
        groups.assign(requested, empty)
        cdef unsigned int size, co, pr
        cdef bint fills
        for i in range(requested):
            size, co, pr, fills = counts[i] or 0, coscheduled[i] or 0, preferred[i] or 0, backfill[i]
            sizes.push_back(size)
            cosched.push_back(co)
            pref.push_back(pr)
            fill.push_back(fills)
        with nogil:
            HANDLE_RETURN(compat_sm_split(groups.data(), &made, &self._resource, &remainder, sizes.data(),
                                          cosched.data(), pref.data(), fill.data()))
        if made < requested:
            raise CUDAError(f"CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION: the driver split {made} group(s) of "
                            f"{sizes[0]} SMs from this resource of {self.sm_count} SMs, not {requested}: ask for "
                            "fewer or smaller groups")
        result = [_sm_resource(groups[i], self._device_id, not dry_run) for i in range(made)]
        return result, _sm_resource(remainder, self._device_id, not dry_run)

    def __repr__(self) -> str:
        usable = "" if self._usable else " dry-run"
        return f"<SMResource sm_count={self.sm_count} device={self._device_id}{usable}>"


cdef SMResource _sm_resource(cydriver.CUdevResource resource, int device_id, bint usable):
    cdef SMResource wrapped = SMResource.__new__(SMResource)
    wrapped._resource = resource
    wrapped._device_id = device_id
    wrapped._usable = usable
    return wrapped


# ----------------------------------------------------------------------------------------
# Workqueue resources

@cython.auto_pickle(False)
cdef class WorkqueueResource:
    """The work queue configuration of a device or context (DeviceResources.workqueue),
    which configure() changes for the green contexts made of it. Not made directly."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("WorkqueueResource cannot be instantiated directly: use Device.resources.workqueue "
                           "(or a context's or stream's resources.workqueue)")

    @property
    def handle(self) -> int:
        """The address of the underlying work queue configuration ``CUdevResource`` struct."""
        return <size_t>&self._config

    @property
    def sharing_scope(self):
        """With which contexts work queues are shared, as a WorkqueueSharingScopeType."""
        cdef int scope = -1
        cdef unsigned int limit = 0
        compat_workqueue_read(&self._config, &scope, &limit)
        for name, value in compat_workqueue_scopes().items():
            if value == scope:
                return WorkqueueSharingScopeType(name)
        raise RuntimeError(f"the driver reported an unknown work queue sharing scope: {scope}")

    @property
    def concurrency_limit(self) -> int:
        """Expected most concurrent stream-ordered workloads (from the device: the driver's
        cap, typically CUDA_DEVICE_MAX_CONNECTIONS)."""
        cdef int scope = -1
        cdef unsigned int limit = 0
        compat_workqueue_read(&self._config, &scope, &limit)
        return limit

    @property
    def device(self):
        """The Device this work queue resource belongs to."""
        from cuda.core._device import Device
        return Device(self._device_id)

    def configure(self, options) -> None:
        """Set the fields of ``options`` (a WorkqueueResourceOptions) that are not None, in
        place: green contexts made of this resource afterwards get them."""
        if not isinstance(options, WorkqueueResourceOptions):
            raise TypeError(f"options must be a WorkqueueResourceOptions, got {type(options).__name__}")
        cdef int scope = -1
        cdef unsigned int limit = 0
        compat_workqueue_read(&self._config, &scope, &limit)
        if options.sharing_scope is not None:
            scope = compat_workqueue_scopes()[WorkqueueSharingScopeType(options.sharing_scope).value]
        if options.concurrency_limit is not None:
            limit = options.concurrency_limit
        compat_workqueue_write(&self._config, scope, limit)

    def __repr__(self) -> str:
        return f"<WorkqueueResource device={self._device_id}>"


# ----------------------------------------------------------------------------------------
# DeviceResources

@cython.auto_pickle(False)
cdef class DeviceResources:
    """The hardware resources of a device (Device.resources) or of a context (Context.resources,
    Stream.resources: a green context's own partition). Not made directly."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("DeviceResources cannot be instantiated directly: use Device.resources, "
                           "Context.resources or Stream.resources")

    cdef int _query(self, cydriver.CUdevResource* resource, cydriver.CUdevResourceType kind) except -1:
        cdef cydriver.CUdevice device = self._device_id
        cdef cydriver.CUgreenCtx green
        cdef cydriver.CUcontext context
        memset(resource, 0, sizeof(cydriver.CUdevResource))
        if self._context is None:
            with nogil:
                HANDLE_RETURN(cydriver.cuDeviceGetDevResource(device, resource, kind))
            return 0
        if self._context._green is not None:
            green = self._context._green._handle
            with nogil:
                HANDLE_RETURN(cydriver.cuGreenCtxGetDevResource(green, resource, kind))
            return 0
        context = <cydriver.CUcontext>self._context._address
        with nogil:
            HANDLE_RETURN(cydriver.cuCtxGetDevResource(context, resource, kind))
        return 0

    @property
    def sm(self) -> SMResource:
        """The SMs of this device or context."""
        cdef cydriver.CUdevResource resource
        self._query(&resource, cydriver.CU_DEV_RESOURCE_TYPE_SM)
        return _sm_resource(resource, self._device_id, True)

    @property
    def workqueue(self) -> WorkqueueResource:
        """The work queue configuration of this device or context (needs a CUDA 13.1+ build
        and driver)."""
        cdef cydriver.CUdevResourceType config_type
        cdef cydriver.CUdevResourceType queue_type
        cdef int version = 0
        compat_workqueue_types(&config_type, &queue_type)
        with nogil:
            HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
        if version < 13010:
            raise ValueError(f"WorkqueueResource needs a driver of CUDA 13.1+; this one supports CUDA "
                             f"{version // 1000}.{version % 1000 // 10}")
        cdef WorkqueueResource wrapped = WorkqueueResource.__new__(WorkqueueResource)
        self._query(&wrapped._config, config_type)
        self._query(&wrapped._queue, queue_type)
        wrapped._device_id = self._device_id
        return wrapped

    def __repr__(self) -> str:
        owner = "device" if self._context is None else "context"
        return f"<DeviceResources {owner} of device {self._device_id}>"


cdef DeviceResources device_resources(int device_id):
    cdef DeviceResources resources = DeviceResources.__new__(DeviceResources)
    resources._device_id = device_id
    return resources


def _device_resources(int device_id) -> DeviceResources:
    """The resources of device ``device_id``: Device.resources."""
    return device_resources(device_id)


def _context_resources(Context context) -> DeviceResources:
    """The resources provisioned for ``context``: Context.resources (and Stream.resources)."""
    cdef DeviceResources resources = device_resources(context._device_id)
    resources._context = context
    return resources


# ----------------------------------------------------------------------------------------
# Green contexts

def _create_green_context(int device_id, resources) -> Context:
    """A new green context of device ``device_id`` made of ``resources`` (SMResource and
    WorkqueueResource objects): Device.create_context(ContextOptions(resources=...))."""
    if isinstance(resources, (SMResource, WorkqueueResource)):
        resources = [resources]
    if not _is_sequence(resources):
        raise TypeError(f"ContextOptions.resources must be a sequence of SMResource and WorkqueueResource objects, "
                        f"got {type(resources).__name__}")
    if len(resources) == 0:
        raise ValueError("ContextOptions.resources must be provided: a green context needs at least an SMResource "
                         "(e.g. from Device.resources.sm.split())")
    cdef vector[cydriver.CUdevResource] parts
    cdef SMResource sm
    for resource in resources:
        if isinstance(resource, SMResource):
            sm = <SMResource>resource
            if not sm._usable:
                raise ValueError("cannot create a context from a dry-run SMResource: split again with "
                                 "dry_run=False")
            _check_device(sm._device_id, device_id)
            parts.push_back(sm._resource)
        elif isinstance(resource, WorkqueueResource):
            _check_device((<WorkqueueResource>resource)._device_id, device_id)
            parts.push_back((<WorkqueueResource>resource)._config)
        else:
            raise TypeError(f"ContextOptions.resources holds SMResource and WorkqueueResource objects, got "
                            f"{type(resource).__name__}")
    cdef cydriver.CUdevResourceDesc description = NULL
    cdef cydriver.CUgreenCtx green = NULL
    cdef cydriver.CUdevice device = device_id
    with nogil:
        HANDLE_RETURN(cydriver.cuDevResourceGenerateDesc(&description, parts.data(), <unsigned int>parts.size()))
        HANDLE_RETURN(cydriver.cuGreenCtxCreate(&green, description, device, cydriver.CU_GREEN_CTX_DEFAULT_STREAM))
    return green_context_from_handle(green, device_id)


cdef int _check_device(int resource_device, int device_id) except -1:
    if resource_device != device_id:
        raise ValueError(f"a resource of device {resource_device} cannot make a green context of device {device_id}")
    return 0
