# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""``python -m cuda.core [--json] [--version]``: what this build is, then the devices the driver sees."""

from __future__ import annotations

import argparse
import json
import sys

import cuda.core
from cuda.core import _build_info


def build_info() -> dict[str, object]:
    """The facts recorded when this package was built."""
    return {
        "version": _build_info.version,
        "cuda_major": _build_info.cuda_major,
        "cuda_version": _build_info.cuda_version,
        "cuda_bindings_version": _build_info.cuda_bindings_version,
        "cython_version": _build_info.cython_version,
        "buildtype": _build_info.buildtype,
        "coverage": _build_info.coverage,
    }


def installed_bindings_version() -> str:
    """The cuda-bindings this process runs with (the build may have been made with another)."""
    from cuda.bindings._version import __version__

    return __version__


def devices() -> dict[str, object]:
    """The driver's view: its version and each device, or why there is none."""
    try:
        count = cuda.core.system.get_num_devices()
    except cuda.core.DriverNotFoundError as err:
        return {"driver": None, "error": str(err), "devices": []}
    listed = []
    for ordinal in range(count):
        device = cuda.core.Device(ordinal)
        listed.append(
            {
                "device_id": ordinal,
                "name": device.name,
                "arch": device.arch,
                "compute_capability": list(device.compute_capability),
                "uuid": device.uuid,
            }
        )
    major, minor = cuda.core.system.get_user_mode_driver_version()
    return {"driver": f"{major}.{minor}", "devices": listed}


DESCRIPTION = (
    "Print what this cuda.core is (its version, the CUDA major it was built for, the CUDA headers, "
    "cuda-bindings and Cython it was built with), the cuda-bindings it runs with, and the CUDA driver "
    "and devices this machine has."
)


def version_line() -> str:
    """cuda.core's version and what it was built for, on one line (``--version``)."""
    return (
        f"cuda.core {_build_info.version} (built for CUDA {_build_info.cuda_major}: headers CUDA_VERSION "
        f"{_build_info.cuda_version}, cuda-bindings {_build_info.cuda_bindings_version})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cuda.core", description=DESCRIPTION)
    parser.add_argument("--json", action="store_true", help="print it all as one JSON object")
    # Not argparse's "version" action, which wraps the line to the terminal's width.
    parser.add_argument(
        "--version", action="store_true", help="print cuda.core's version and what it was built for, and exit"
    )
    args = parser.parse_args(argv)
    if args.version:
        print(version_line())
        return 0
    info = {"build": build_info(), "cuda_bindings_installed": installed_bindings_version(), **devices()}
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    build = info["build"]
    print(
        f"cuda.core {build['version']} built for CUDA {build['cuda_major']} "
        f"(headers CUDA_VERSION {build['cuda_version']}) with cuda-bindings {build['cuda_bindings_version']}, "
        f"Cython {build['cython_version']}, buildtype {build['buildtype']}, coverage {build['coverage']}"
    )
    print(f"running with cuda-bindings {info['cuda_bindings_installed']}")
    if info["driver"] is None:
        print(info["error"])
        return 0
    print(f"CUDA driver {info['driver']}, {len(info['devices'])} device(s)")
    for device in info["devices"]:
        print(f"  [{device['device_id']}] {device['name']}  sm_{device['arch']}  {device['uuid']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
