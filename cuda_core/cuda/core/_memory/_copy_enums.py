# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The options of batched copies (cuda.core.utils.copy_batch): per-copy hints for the
driver's cuMemcpyBatchAsync. Plain Python: nothing here touches the driver."""

from __future__ import annotations

import dataclasses

from cuda.core._utils.pycompat import StrEnum

__all__ = ["CopyOptions", "MemcpyOverlapMode", "MemcpySrcAccessOrder"]


class MemcpySrcAccessOrder(StrEnum):
    """When the driver may read a copy's source (CUmemcpySrcAccessOrder): in stream order
    ("stream"); out of order but before copy_batch returns ("during_api_call"); or at any
    time until the copy completes ("any"), the caller keeping the source unchanged."""

    STREAM = "stream"
    DURING_API_CALL = "during_api_call"
    ANY = "any"


class MemcpyOverlapMode(StrEnum):
    """Whether a copy should rather overlap with concurrent kernels (CUmemcpyFlags): an
    advisory hint the driver may ignore."""

    DEFAULT = "default"
    PREFER_OVERLAP_WITH_COMPUTE = "prefer_overlap_with_compute"


def _as_enum(enum_type: type[StrEnum], value: object, field: str) -> StrEnum:
    try:
        return enum_type(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in enum_type)
        raise ValueError(f"CopyOptions.{field} must be one of {choices}, got {value!r}") from None


def _check_location_hint(value: object, field: str) -> None:
    from cuda.core._device import Device
    from cuda.core._host import Host

    if value is not None and not isinstance(value, (Device, Host)):
        raise TypeError(f"CopyOptions.{field} must be a Device, a Host or None, got {type(value).__name__}")


@dataclasses.dataclass(frozen=True)
class CopyOptions:
    """The hints of one copy in copy_batch. Immutable; strings are turned into their enums
    when the options are made, so a typo fails here rather than at the copy.

    src_access_order: MemcpySrcAccessOrder or its string (default "stream").
    src_location_hint, dst_location_hint: a Device or a Host where the driver should expect
        the memory (honoured for managed and pageable memory only), or None.
    overlap_mode: MemcpyOverlapMode or its string (default "default").
    """

    src_access_order: MemcpySrcAccessOrder | str = MemcpySrcAccessOrder.STREAM
    src_location_hint: object = None
    dst_location_hint: object = None
    overlap_mode: MemcpyOverlapMode | str = MemcpyOverlapMode.DEFAULT

    def __post_init__(self) -> None:
        # Frozen: normalised fields are written through object.__setattr__.
        object.__setattr__(
            self, "src_access_order", _as_enum(MemcpySrcAccessOrder, self.src_access_order, "src_access_order")
        )
        object.__setattr__(self, "overlap_mode", _as_enum(MemcpyOverlapMode, self.overlap_mode, "overlap_mode"))
        _check_location_hint(self.src_location_hint, "src_location_hint")
        _check_location_hint(self.dst_location_hint, "dst_location_hint")
