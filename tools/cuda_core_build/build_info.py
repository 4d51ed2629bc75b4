"""The build-time probe: write cuda/core/_build_info.py, and a depfile naming what it was derived from.

``python -m cuda_core_build.build_info --cuda-path P --cuda-major M --pin-file F --out F
--depfile F --buildtype B --coverage C --package-version V``

The depfile names cuda.h, the bindings' and Cython's version files and every package
source, so ninja re-runs this step, which re-validates the headers and bindings, when any
of them changes.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from cuda_core_build import entry, facts, probe
from cuda_core_build.files import depfile_text, write_atomically

PROG = "cuda_core_build.build_info"
# The package's sources, whose digest the build info records (tools/merge_wheels.py
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


def build_info_source(toolkit: probe.Toolkit, bindings: probe.Bindings, buildtype: str, coverage: bool,
                      cython_version: str, package_version: str, digest: str) -> str:
    """The text of cuda/core/_build_info.py: what this build was made for, and nothing machine-specific."""
    return (
        '"""What this build of cuda.core was built for. Written by cuda_core_build.build_info at build time."""\n\n'
        f"version = {package_version!r}\n"
        f"cuda_major = {toolkit.major}\n"
        f"cuda_version = {toolkit.cuda_version}  # CUDA_VERSION of the headers compiled against\n"
        f"cuda_bindings_version = {bindings.version!r}\n"
        f"cython_version = {cython_version!r}\n"
        f"buildtype = {buildtype!r}\n"
        f"coverage = {coverage!r}\n"
        f"source_digest = {digest!r}  # sha256 of the cuda_core/ sources\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    entry.add_pin_file(parser)
    parser.add_argument("--out", type=Path, required=True, help="the _build_info.py to write")
    parser.add_argument("--depfile", type=Path, required=True, help="the files the build info was derived from")
    parser.add_argument("--buildtype", default="", help="Meson's buildtype")
    parser.add_argument("--coverage", default="false", choices=("true", "false"))
    parser.add_argument("--package-version", default="")
    args = parser.parse_args(argv)

    def write() -> int:
        toolkit, bindings = probe.probe(args.cuda_path, args.cuda_major, pin_file=args.pin_file)
        assert bindings is not None
        cython = probe.find_cython()
        sources = package_source_files()
        write_atomically(args.out, build_info_source(toolkit, bindings, args.buildtype, args.coverage == "true",
                                                     cython.version, args.package_version, source_digest(sources)))
        # The pin needs no entry: it only changes with -Dcuda-path, which is on the command line.
        inputs = [toolkit.cuda_h, bindings.version_file, cython.version_file, *map(str, sources)]
        write_atomically(args.depfile, depfile_text(str(args.out), inputs))
        return 0

    return entry.run(PROG, write)


if __name__ == "__main__":
    sys.exit(main())
