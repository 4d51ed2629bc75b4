# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""``python -m cuda.core``: its help is plain text, and ``--version`` says what the build is for."""

from __future__ import annotations

import subprocess
import sys


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cuda.core", *args], capture_output=True, text=True, check=True)


def test_help_is_plain_text_and_names_every_option(cuda_core) -> None:
    text = run_main("--help").stdout
    assert text.startswith("usage: python -m cuda.core [-h] [--json] [--version]")
    assert "Print what this cuda.core is" in text
    # No reStructuredText: argparse prints descriptions as they are.
    assert "``" not in text and ":meth:" not in text and ":class:" not in text


def test_version_says_what_it_was_built_for(cuda_core, cuda_major: int) -> None:
    info = cuda_core._build_info
    assert run_main("--version").stdout == (
        f"cuda.core {cuda_core.__version__} (built for CUDA {cuda_major}: headers CUDA_VERSION {info.cuda_version}, "
        f"cuda-bindings {info.cuda_bindings_version})\n"
    )
