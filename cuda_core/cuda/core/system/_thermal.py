# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system.Device's cooling and temperatures: its cooler (CoolerInfo), fans
(FanInfo), temperatures and thresholds (Temperature) and thermal sensors (ThermalSettings,
ThermalSensor). Part of cuda.core.system._device, where users import them (and whose
__module__ they carry, as in NVIDIA's cuda.core)."""

from __future__ import annotations

from typing import Any

from cuda.core.system._nvml_support import nvml_member, require_nvml, struct_array

# First, so that without NVML bindings the ImportError names what was asked for.
nvml = require_nvml("cuda.core.system.Device")

from cuda.core.system._conversions import by_name, inverse, to_nvml  # noqa: E402
from cuda.core.system.typing import (  # noqa: E402
    CoolerControl,
    CoolerTarget,
    FanControlPolicy,
    TemperatureThresholds,
    ThermalController,
    ThermalTarget,
)

_COOLER_CONTROL_MAPPING = by_name(CoolerControl, nvml.CoolerControl)
_COOLER_CONTROLS = inverse(_COOLER_CONTROL_MAPPING)
# Each target is a bit (NONE too); THERMAL_GPU_RELATED is GPU | MEMORY | POWER_SUPPLY: targets are
# read bit by bit.
_COOLER_TARGET_MAPPING = {ours: nvml_member(nvml.CoolerTarget, ours.name) for ours in CoolerTarget}
_COOLER_TARGET_BITS = {member: int(value) for member, value in _COOLER_TARGET_MAPPING.items()}
_FAN_CONTROL_POLICY_MAPPING = by_name(
    FanControlPolicy, nvml.FanControlPolicy, {"TEMPERATURE_CONTROLLED": "TEMPERATURE_CONTINUOUS_SW"}
)
_FAN_CONTROL_POLICIES = inverse(_FAN_CONTROL_POLICY_MAPPING)
_TEMPERATURE_THRESHOLD_MAPPING = by_name(TemperatureThresholds, nvml.TemperatureThresholds)
_THERMAL_CONTROLLER_MAPPING = by_name(ThermalController, nvml.ThermalController)
_THERMAL_CONTROLLERS = inverse(_THERMAL_CONTROLLER_MAPPING)
_THERMAL_TARGET_MAPPING = by_name(ThermalTarget, nvml.ThermalTarget)
_THERMAL_TARGETS = inverse(_THERMAL_TARGET_MAPPING)


class CoolerInfo:
    """A device's cooler: how it is controlled and what it cools."""

    def __init__(self, cooler_info: Any) -> None:
        self._info = cooler_info

    @property
    def signal_type(self) -> CoolerControl | None:
        """How the cooler is controlled (toggle or variable); None where NVML says neither."""
        return _COOLER_CONTROLS.get(int(self._info.signal_type))

    @property
    def target(self) -> list[CoolerTarget]:
        """What the cooler cools: some of GPU, memory and power supply, or [NONE]."""
        bits = int(self._info.target)
        targets = [target for target, bit in _COOLER_TARGET_BITS.items() if bits & bit]
        return targets or [CoolerTarget.NONE]


class FanInfo:
    """One fan of a device."""

    def __init__(self, handle: int, fan: int) -> None:
        self._handle = handle
        self._fan = fan

    @property
    def speed(self) -> int:
        """The fan's intended speed, in percent of its maximum (may exceed 100); settable."""
        return int(nvml.device_get_fan_speed_v2(self._handle, self._fan))

    @speed.setter
    def speed(self, speed: int) -> None:
        nvml.device_set_fan_speed_v2(self._handle, self._fan, speed)

    @property
    def speed_rpm(self) -> int:
        """The fan's intended speed in rotations per minute."""
        return int(nvml.device_get_fan_speed_rpm(self._handle, self._fan))

    @property
    def target_speed(self) -> int:
        """The speed the driver is steering the fan to, in percent of its maximum."""
        return int(nvml.device_get_target_fan_speed(self._handle, self._fan))

    @property
    def min_max_speed(self) -> tuple[int, int]:
        """(minimum, maximum) fan speed, in percent."""
        low, high = nvml.device_get_min_max_fan_speed(self._handle)
        return int(low), int(high)

    @property
    def control_policy(self) -> FanControlPolicy:
        """Who sets the fan's speed: the driver from the temperature, or the user."""
        return _FAN_CONTROL_POLICIES[int(nvml.device_get_fan_control_policy_v2(self._handle, self._fan))]

    def set_default_speed(self) -> None:
        """Gives the fan's speed back to the driver's default policy."""
        nvml.device_set_default_fan_speed_v2(self._handle, self._fan)


class ThermalSensor:
    """One thermal sensor: what it measures, its controller and its readings in degrees C."""

    def __init__(self, sensor: Any, owner: object = None) -> None:
        self._sensor = sensor
        self._owner = owner  # keeps the memory the NVML struct views alive

    @property
    def controller(self) -> ThermalController:
        """The chip that reads the sensor."""
        return _THERMAL_CONTROLLERS.get(int(self._sensor.controller), ThermalController.UNKNOWN)

    @property
    def default_min_temp(self) -> int:
        """The sensor's default minimum temperature, in degrees C."""
        return int(self._sensor.default_min_temp)

    @property
    def default_max_temp(self) -> int:
        """The sensor's default maximum temperature, in degrees C."""
        return int(self._sensor.default_max_temp)

    @property
    def current_temp(self) -> int:
        """The sensor's current temperature, in degrees C."""
        return int(self._sensor.current_temp)

    @property
    def target(self) -> ThermalTarget:
        """What the sensor measures."""
        return _THERMAL_TARGETS.get(int(self._sensor.target), ThermalTarget.NONE)


class ThermalSettings:
    """The thermal sensors Temperature.get_thermal_settings found."""

    def __init__(self, thermal_settings: Any) -> None:
        self._settings = thermal_settings
        self._sensors = struct_array(thermal_settings.sensor)

    def __len__(self) -> int:
        return min(int(self._settings.count), len(self._sensors))

    def __getitem__(self, idx: int) -> ThermalSensor:
        if not -len(self) <= idx < len(self):
            raise IndexError(f"thermal sensor {idx} out of range for {len(self)} sensors")
        return ThermalSensor(self._sensors[idx % len(self)], self._settings)


class Temperature:
    """A device's temperatures and thresholds, in degrees C."""

    def __init__(self, handle: int) -> None:
        self._handle = handle

    def get_sensor(self) -> int:
        """The GPU's temperature, in degrees C."""
        return int(nvml.device_get_temperature_v(self._handle, nvml_member(nvml.TemperatureSensors, "GPU")))

    def get_threshold(self, threshold_type: TemperatureThresholds | str) -> int:
        """The temperature threshold ``threshold_type``, in degrees C."""
        kind = to_nvml(_TEMPERATURE_THRESHOLD_MAPPING, TemperatureThresholds, threshold_type, "threshold_type")
        return int(nvml.device_get_temperature_threshold(self._handle, kind))

    @property
    def margin(self) -> int:
        """How far the GPU is from its nearest slowdown threshold, in degrees C."""
        return int(nvml.device_get_margin_temperature(self._handle))

    def get_thermal_settings(self, sensor_index: ThermalTarget | str) -> ThermalSettings:
        """The thermal sensors of target ``sensor_index`` (ALL: every one)."""
        target = to_nvml(_THERMAL_TARGET_MAPPING, ThermalTarget, sensor_index, "sensor_index")
        return ThermalSettings(nvml.device_get_thermal_settings(self._handle, target))
