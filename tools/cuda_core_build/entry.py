# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What the probe's entry points share: their options, and failures as one line on stderr."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from cuda_core_build.probe import ProbeError, drop_editable_finders


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument gives one error line instead of usage text."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}: see {self.prog} --help", file=sys.stderr)
        raise SystemExit(2)


def parser(prog: str, description: str, option_prefix: str = "--") -> OneLineParser:
    """A parser with the probe's options: the toolkit roots, the major asked for, the pin file."""
    result = OneLineParser(prog=prog, description=description)
    result.add_argument(
        f"{option_prefix}cuda-path",
        dest="cuda_path",
        default="",
        help="os.pathsep list of toolkit roots; empty: probe CUDA_PATH, CUDA_HOME, the header wheels, /usr/local/cuda",
    )
    result.add_argument(
        f"{option_prefix}cuda-major",
        dest="cuda_major",
        default="auto",
        help="auto, or the CUDA major the headers must have",
    )
    return result


def add_build_options(result: argparse.ArgumentParser) -> None:
    """The options Meson passes to the build's probe steps: the build directory and its compiler."""
    result.add_argument("--build-dir", type=Path, required=True, help="the Meson build directory")
    result.add_argument(
        "--compiler",
        action="append",
        default=[],
        help="the C++ compiler command as Meson runs it, one argument per --compiler",
    )


def run(prog: str, main: Callable[[], int]) -> int:
    """Run ``main`` as an entry point: a ProbeError or an unwritable output is one stderr line, exit 1."""
    drop_editable_finders()
    try:
        return main()
    except ProbeError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
    except OSError as err:
        print(f"{prog}: error: cannot write the probe's output ({err}): check the build directory", file=sys.stderr)
    return 1
