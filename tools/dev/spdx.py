#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Check, or add, the SPDX lines every source file starts with: ``python3 tools/dev/spdx.py [--fix]``.

A source file is a file git tracks whose name ends in one of SOURCE_SUFFIXES, is named
meson.build or meson.options, or is a shell script (``.ci/run``). Its first lines, after a
``#!`` line, are the two of HEADER in the file's comment syntax. ``--fix`` adds them where
they are missing; tests/tools/test_source_files.py runs the check.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
HEADER = ("SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors", "SPDX-License-Identifier: Apache-2.0")
HASH_COMMENTED = (".py", ".pyx", ".pxd", ".pxi", ".pyi", ".toml", ".ini", ".sh")
SLASH_COMMENTED = (".h", ".hpp", ".cpp", ".c")
SOURCE_SUFFIXES = HASH_COMMENTED + SLASH_COMMENTED
SOURCE_NAMES = ("meson.build", "meson.options", "run")


def source_files(root: Path = REPO_ROOT) -> list[Path]:
    """The tracked source files of the repository, sorted."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    names = [name for name in listed.decode().split("\0") if name]
    return sorted(root / name for name in names if name.endswith(SOURCE_SUFFIXES) or Path(name).name in SOURCE_NAMES)


def comment(path: Path) -> str:
    """The line-comment leader of ``path``'s language."""
    return "//" if path.name.endswith(SLASH_COMMENTED) else "#"


def header_lines(path: Path) -> list[str]:
    return [f"{comment(path)} {line}\n" for line in HEADER]


def has_header(path: Path) -> bool:
    """Whether ``path`` starts (after a ``#!`` line) with the SPDX lines."""
    lines = path.read_text().splitlines(keepends=True)
    start = 1 if lines and lines[0].startswith("#!") else 0
    return lines[start : start + len(HEADER)] == header_lines(path)


def add_header(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    start = 1 if lines and lines[0].startswith("#!") else 0
    path.write_text("".join(lines[:start] + header_lines(path) + lines[start:]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fix", action="store_true", help="add the lines where they are missing")
    args = parser.parse_args(argv)
    missing = [path for path in source_files() if not has_header(path)]
    for path in missing:
        if args.fix:
            add_header(path)
        print(f"{'added SPDX lines to' if args.fix else 'no SPDX lines:'} {path.relative_to(REPO_ROOT)}")
    return 1 if missing and not args.fix else 0


if __name__ == "__main__":
    sys.exit(main())
