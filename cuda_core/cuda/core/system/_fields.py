# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's field values: several NVML fields read at once (FieldValues) and
each value with its own status (FieldValue). Part of cuda.core.system._device, where users
import them (and whose __module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cuda.core.system._nvml_support import nvml_member, require_nvml

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system.typing import FieldId  # noqa: E402

_VALUE_MEMBERS = {
    "DOUBLE": "d_val",
    "UNSIGNED_INT": "ui_val",
    "UNSIGNED_LONG": "ul_val",
    "UNSIGNED_LONG_LONG": "ull_val",
    "SIGNED_LONG_LONG": "sll_val",
    "SIGNED_INT": "si_val",
    "UNSIGNED_SHORT": "us_val",
}
_VALUE_FIELDS = {int(nvml_member(nvml.ValueType, name)): field for name, field in _VALUE_MEMBERS.items()}


def _scalar(value: Any) -> Any:
    """A Python int or float from a NumPy scalar or one-element array."""
    item = value.item() if hasattr(value, "item") and getattr(value, "size", 1) == 1 else value
    return item[0] if isinstance(item, (list, tuple)) else item


class FieldValue:
    """One value of Device.get_field_values; reading ``value`` raises the field's own NVML error."""

    def __init__(self, field_value: Any) -> None:
        self._value = field_value

    @property
    def field_id(self) -> FieldId:
        """The field read."""
        field_id = int(self._value.field_id)
        try:
            return FieldId(field_id)
        except ValueError:
            return field_id

    @property
    def scope_id(self) -> int:
        """The scope (e.g. link) the field was read for."""
        return int(self._value.scope_id)

    @property
    def timestamp(self) -> int:
        """When the value was sampled, in microseconds since 1970 (CPU clock)."""
        return int(self._value.timestamp)

    @property
    def latency_usec(self) -> int:
        """How long NVML took to refresh this value, in microseconds."""
        return int(self._value.latency_usec)

    @property
    def value(self) -> int | float:
        """The value, as an int or a float as NVML typed it; the field's NVML error if it has one."""
        nvml.check_status(int(self._value.nvml_return))
        field = _VALUE_FIELDS.get(int(self._value.value_type))
        if field is None:
            raise ValueError(
                f"field {int(self._value.field_id)} has a value type NVML bindings do not know: "
                f"{int(self._value.value_type)}"
            )
        return _scalar(self._value.value[field])


class FieldValues:
    """The values of several fields, read at once by Device.get_field_values."""

    def __init__(self, field_values: Any) -> None:
        self._values = field_values

    def __getitem__(self, idx: int) -> FieldValue:
        if isinstance(idx, bool) or not isinstance(idx, int):
            raise TypeError(f"field value indices must be integers, not {type(idx).__name__}")
        if not -len(self) <= idx < len(self):
            raise IndexError(f"field value index {idx} out of range for {len(self)} values")
        return FieldValue(self._values[idx % len(self)])

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[FieldValue]:
        return (self[i] for i in range(len(self)))

    def validate(self) -> None:
        """Raises the NVML error of the first field that has one."""
        for value in self:
            nvml.check_status(int(value._value.nvml_return))

    def get_all_values(self) -> list[int | float]:
        """Every value, in order; the first field's NVML error if any has one."""
        return [value.value for value in self]


def as_field_ids(field_ids: list[int | tuple[int, int]]) -> list:
    """Field ids (FieldId members or ints, or (id, scope) pairs) as the plain ints NVML takes."""
    return [(int(f[0]), int(f[1])) if isinstance(f, tuple) else int(f) for f in field_ids]
