#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Show what the build's probe finds: the CUDA headers, their major, and the cuda-bindings that fits.

Usage: python3 tools/dev/cuda_probe.py [--cuda-path DIRS] [--cuda-major auto|NN] [--headers-only]

It prints the probe's result as JSON, or one line naming the cause and the fix (exit 1).
The build itself runs the same probe (tools/cuda_core_build/probe.py) through Meson.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's facts and probe

from cuda_core_build import entry, probe  # noqa: E402

PROG = "cuda_probe.py"
CLI_OPTIONS = probe.OptionNames(cuda_path="--cuda-path", cuda_major="--cuda-major")


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    parser.add_argument("--headers-only", action="store_true", help="skip the cuda-bindings checks")
    args = parser.parse_args(argv)

    def show() -> int:
        toolkit, bindings = probe.probe(args.cuda_path, args.cuda_major, args.headers_only, names=CLI_OPTIONS)
        print(json.dumps(probe.report(toolkit, bindings), indent=2))
        return 0

    return entry.run(PROG, show)


if __name__ == "__main__":
    sys.exit(main())
