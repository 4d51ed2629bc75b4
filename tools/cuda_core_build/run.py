# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run one of the build's steps: ``python tools/cuda_core_build/run.py STEP [ARGS...]``.

STEP is a module of this package (configure, check, build_info, error_explanations). Meson
runs every step through this file instead of ``python -m`` with PYTHONPATH set, because a
command with an environment of its own goes through Meson's wrapper, which buries a failed
step's one-line error under its own dump of the command and its output.
"""

import runpy
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)
runpy.run_module(f"cuda_core_build.{sys.argv.pop(1)}", run_name="__main__", alter_sys=True)
