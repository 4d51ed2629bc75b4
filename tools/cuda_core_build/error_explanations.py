# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build step that writes the explanation of each CUDA error code, from the CUDA headers' comments.

cuda-bindings 13.0.x and 13.1.x (and 12.x before 12.9.6) carry no docs on the members of
CUresult / cudaError_t, so CUDAError messages of such installs would only have the driver's
terse error string. The headers this package is built against document every code in a
doxygen comment right above it; this script turns those comments into two Python modules,
``driver_cu_result_explanations_frozen.py`` (cuda.h's CUresult) and
``runtime_cuda_error_explanations_frozen.py`` (driver_types.h's cudaError), each holding
``EXPLANATIONS: dict[int, str]``. Meson runs it (cuda_core/cuda/core/_utils/meson.build):

    python -m cuda_core_build.error_explanations --include-dirs DIR[:DIR...] --driver-out F --runtime-out F
        --depfile F
"""

from __future__ import annotations

import argparse
import os
import pprint
import re
import sys
from pathlib import Path

from cuda_core_build.files import depfile_text, write_atomically

# Where each enum starts in its header, and the header's name.
ENUMS = {
    "driver": ("cuda.h", "typedef enum cudaError_enum"),
    "runtime": ("driver_types.h", "enum __device_builtin__ cudaError"),
}

# One documented member: its doxygen comment, then `NAME = value`.
_MEMBER = re.compile(r"/\*\*(?P<doc>(?:(?!\*/).)*)\*/\s*(?P<name>\w+)\s*=\s*(?P<value>0x[0-9a-fA-F]+|\d+)", re.S)
_COMMAND_WITH_WORD = re.compile(r"\\(?:p|e|c|b|a|ref)\s+")
_SCOPE = re.compile(r"::(?=\w)")


def clean_comment(comment: str) -> str:
    """One paragraph of plain text from a doxygen comment body."""
    lines = [line.strip().lstrip("*").strip() for line in comment.splitlines()]
    text = " ".join(line for line in lines if line)
    text = text.replace("\\deprecated", "[Deprecated]").replace("\\note", "Note:")
    text = _COMMAND_WITH_WORD.sub("", text)
    text = _SCOPE.sub("", text)
    return " ".join(text.split())


def enum_block(header_text: str, start: str) -> str:
    """The text of the enum that begins at ``start``, up to its closing brace."""
    begin = header_text.index(start)
    return header_text[begin : header_text.index("}", begin)]


def explanations(header: Path, start: str) -> dict[int, str]:
    """code -> explanation for every documented member of the enum at ``start`` in ``header``."""
    table: dict[int, str] = {}
    for member in _MEMBER.finditer(enum_block(header.read_text(encoding="utf-8", errors="replace"), start)):
        table.setdefault(int(member.group("value"), 0), clean_comment(member.group("doc")))
    return table


def find_header(include_dirs: list[str], name: str) -> Path:
    """The first ``name`` in ``include_dirs``."""
    for directory in include_dirs:
        candidate = Path(directory) / name
        if candidate.is_file():
            return candidate
    raise SystemExit(f"{name} not found in the CUDA include directories {include_dirs}")


def module_text(header: Path, table: dict[int, str]) -> str:
    return (
        f'"""Explanations of CUDA error codes, generated at build time from {header.name}."""\n\n'
        f"EXPLANATIONS: dict[int, str] = {pprint.pformat(table, width=110)}\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--include-dirs", required=True, help="os.pathsep-separated CUDA include directories")
    parser.add_argument("--driver-out", required=True, type=Path)
    parser.add_argument("--runtime-out", required=True, type=Path)
    parser.add_argument("--depfile", required=True, type=Path)
    args = parser.parse_args()
    include_dirs = [d for d in args.include_dirs.split(os.pathsep) if d]
    headers = []
    for kind, out in (("driver", args.driver_out), ("runtime", args.runtime_out)):
        name, start = ENUMS[kind]
        header = find_header(include_dirs, name)
        headers.append(header)
        write_atomically(out, module_text(header, explanations(header, start)))
    write_atomically(args.depfile, depfile_text(str(args.driver_out), [str(h) for h in headers]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
