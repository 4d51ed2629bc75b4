"""cu13 -> cu12 -> cu13 in one checkout: one build dir per major, each leg in its own venv."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import (EXTENSIONS, Venv, build_info, compile_steps, cython_steps, extension_hashes, meson_setup,
                      ninja)


@dataclass
class Leg:
    major: int
    output: str
    seconds: float
    hashes: dict[str, str] = field(default_factory=dict)


@dataclass
class RoundTrip:
    checkout: Path
    legs: list[Leg]

    def build_dir(self, major: int) -> Path:
        return self.checkout / f"build-cu{major}"


@pytest.fixture(scope="module")
def round_trip(make_checkout, venvs: dict[int, Venv]) -> RoundTrip:
    checkout = make_checkout("round-trip")
    legs = []
    for major in (13, 12, 13):
        venv, build_dir = venvs[major], checkout / f"build-cu{major}"
        start = time.monotonic()
        output = ""
        if not build_dir.exists():
            output += meson_setup(venv, checkout, build_dir).stdout
        output += ninja(venv, build_dir).stdout
        legs.append(Leg(major, output, time.monotonic() - start, extension_hashes(build_dir)))
    print("\nround trip:", ", ".join(f"cu{leg.major} {leg.seconds:.1f} s" for leg in legs))
    return RoundTrip(checkout, legs)


def test_every_leg_builds_its_own_major(round_trip: RoundTrip) -> None:
    for major in (12, 13):
        info = build_info(round_trip.build_dir(major))
        assert info["cuda_major"] == major
        assert str(info["cuda_bindings_version"]).startswith(f"{major}.")
        assert int(info["cuda_version"]) // 1000 == major
    first, second, _ = round_trip.legs
    for leg in (first, second):
        assert cython_steps(leg.output) == set(EXTENSIONS)
        assert {"_device.pyx.cpp.o", "_system.pyx.cpp.o", "cuda_utils.pyx.cpp.o", "_cpp_uuid_format.cpp.o"} \
            <= compile_steps(leg.output)


def test_the_two_majors_differ_where_the_api_differs(round_trip: RoundTrip) -> None:
    """Each build dir compiled its own compat .pxi: cuDeviceGetUuid_v2 on 12 only."""
    sources = {major: next(round_trip.build_dir(major).glob("cuda_core/cuda/core/_device*.so.p/_device.pyx.cpp"))
               .read_text() for major in (12, 13)}
    assert "cuDeviceGetUuid_v2(" in sources[12]
    assert "cuDeviceGetUuid_v2(" not in sources[13] and "cuDeviceGetUuid(" in sources[13]
    assert round_trip.legs[0].hashes != round_trip.legs[1].hashes


def test_return_leg_runs_zero_compile_steps(round_trip: RoundTrip) -> None:
    back = round_trip.legs[2]
    assert "ninja: no work to do." in back.output
    assert not cython_steps(back.output) and not compile_steps(back.output)


def test_return_leg_artifacts_are_byte_identical(round_trip: RoundTrip) -> None:
    assert round_trip.legs[2].hashes == round_trip.legs[0].hashes


def test_dry_run_then_has_no_work(round_trip: RoundTrip, venvs: dict[int, Venv]) -> None:
    for major in (12, 13):
        assert "ninja: no work to do." in ninja(venvs[major], round_trip.build_dir(major), "-n").stdout
