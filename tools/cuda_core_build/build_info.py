# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Write cuda/core/_build_info.py: what this build of cuda.core was made for.

``python -m cuda_core_build.build_info --facts F --out F --depfile F [--buildtype T] [--coverage B]
[--package-version V]``

The facts come from the build's cuda-inputs step (cuda_core_build.environment), which
rewrites them whenever the headers, cuda-bindings or Cython change; this step only reads
them. The depfile names every package source, whose digest the build info records.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from cuda_core_build import entry, facts
from cuda_core_build.files import depfile_text, write_atomically

PROG = "cuda_core_build.build_info"
# The package's sources, whose digest the build info records (tools/release/merge_wheels.py
# merges only wheels built from the same sources).
PACKAGE_SOURCES = facts.REPO_ROOT / "cuda_core"


def package_source_files(root: Path = PACKAGE_SOURCES) -> list[Path]:
    """Every source file of the package, in a stable order."""
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def source_digest(files: list[Path], root: Path = PACKAGE_SOURCES) -> str:
    """sha256 over the sources' relative paths and contents: the same on every machine."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_info_source(
    found: dict[str, object], buildtype: str, coverage: bool, package_version: str, digest: str
) -> str:
    """The text of cuda/core/_build_info.py: what this build was made for, and nothing machine-specific."""
    return (
        '"""What this build of cuda.core was built for. Written by cuda_core_build.build_info at build time."""\n\n'
        f"version = {package_version!r}\n"
        f"cuda_major = {found['cuda_major']}\n"
        f"cuda_version = {found['cuda_version']}  # CUDA_VERSION of the headers compiled against\n"
        f"cuda_bindings_version = {found['cuda_bindings_version']!r}\n"
        f"cython_version = {found['cython_version']!r}\n"
        f"buildtype = {buildtype!r}\n"
        f"coverage = {coverage!r}\n"
        f"source_digest = {digest!r}  # sha256 of the cuda_core/ sources\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = entry.OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=Path, required=True, help="the facts.json of the cuda-inputs step")
    parser.add_argument("--out", type=Path, required=True, help="the _build_info.py to write")
    parser.add_argument("--depfile", type=Path, required=True, help="the files the build info was derived from")
    parser.add_argument("--buildtype", default="", help="Meson's buildtype")
    parser.add_argument("--coverage", default="false", choices=("true", "false"))
    parser.add_argument("--package-version", default="")
    args = parser.parse_args(argv)

    def write() -> int:
        found = json.loads(args.facts.read_text())
        sources = package_source_files()
        write_atomically(
            args.out,
            build_info_source(
                found, args.buildtype, args.coverage == "true", args.package_version, source_digest(sources)
            ),
        )
        write_atomically(args.depfile, depfile_text(str(args.out), [str(args.facts), *map(str, sources)]))
        return 0

    return entry.run(PROG, write)


if __name__ == "__main__":
    sys.exit(main())
