#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Show what the build's probe finds: the CUDA headers, their major, and the cuda-bindings that fits.

Usage: python3 tools/dev/cuda_probe.py [--cuda-path DIRS] [--cuda-major auto|NN] [--headers-only]

It prints the probe's result as JSON, or one line naming the cause and the fix (exit 1), in terms
of the packages of the major this environment is on. The build runs the same probe
(tools/cuda_core_build/probe.py) through Meson.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's probe

from cuda_core_build import probe  # noqa: E402
from cuda_core_build.probe import ProbeError, Request  # noqa: E402
from cuda_core_build.steps import OneLineParser  # noqa: E402

PROG = "cuda_probe.py"


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--cuda-path", default="", help="os.pathsep list of toolkit roots (default: CUDA_PATH, ...)")
    parser.add_argument("--cuda-major", default="auto", help="auto, or the CUDA major the headers must have")
    parser.add_argument("--headers-only", action="store_true", help="skip the cuda-bindings checks")
    args = parser.parse_args(argv)
    probe.drop_editable_finders()
    request = Request(args.cuda_path, args.cuda_major, path_option="--cuda-path", major_option="--cuda-major")
    try:
        toolkit, bindings = probe.probe(request, args.headers_only)
    except ProbeError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    report = {
        "major": toolkit.major,
        "minor": toolkit.minor,
        "cuda_version": toolkit.cuda_version,
        "include_dirs": toolkit.include_dirs,
        "header_sources": toolkit.sources,
        "found_via": toolkit.found_via,
        "cuda_h": str(Path(toolkit.sources["cuda.h"]) / "cuda.h"),
        "bindings_version": bindings.version if bindings else None,
        "pxd_root": bindings.root if bindings else None,
        "bindings_requirement": f"cuda-bindings=={toolkit.major}.{toolkit.minor}.*",
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
