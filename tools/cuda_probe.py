#!/usr/bin/env python3
"""Find the CUDA headers and derive the CUDA major: the one place in the project that knows it.

The toolkit is looked for in this order, and the JSON output says which source won:

1. ``--cuda-path`` (Meson's ``-Dcuda-path``), an ``os.pathsep`` list of toolkit roots;
2. ``CUDA_PATH``, then ``CUDA_HOME``, each possibly an ``os.pathsep`` list;
3. NVIDIA's header wheels in this Python environment, located by cuda.pathfinder;
4. ``/usr/local/cuda``.

The major comes from ``CUDA_VERSION`` in cuda.h.  Unless ``--headers-only`` is given,
the installed cuda-bindings must be of the same major and generated for a CUDA minor
no newer than the headers' (its .pxd files name types that older headers lack).

Every failure exits non-zero with one line on stderr naming the cause and the fix.

Meson calls this script twice:

* at configure time with ``--pin-file`` and ``--meson-out``: the first successful probe
  of a build directory is pinned there, so a later regeneration (ninja re-running
  meson from another shell) can never switch to another toolkit;
* at build time with ``--build-info-out`` and ``--depfile``: it writes the package's
  ``_build_info.py`` and a depfile naming cuda.h and the bindings' version file, so a
  changed toolkit or cuda-bindings re-validates and rewrites the build info.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

SUPPORTED_MAJORS = (12, 13)
# The package's sources, whose digest the build info records (tools/merge_wheels.py
# merges only wheels built from the same sources).
PACKAGE_SOURCES = Path(__file__).resolve().parent.parent / "cuda_core"
DEFAULT_TOOLKIT = Path("/usr/local/cuda")
# The header wheels that stand in for a toolkit, per major (pip names).
HEADER_WHEELS = {
    12: "nvidia-cuda-runtime-cu12 nvidia-cuda-nvrtc-cu12 nvidia-cuda-profiler-api-cu12",
    13: "nvidia-cuda-runtime nvidia-cuda-nvrtc nvidia-cuda-profiler-api",
}
# Headers a build needs: cuda.h for the driver API, nvrtc.h for NVRTC, and
# cudaProfiler.h because cuda-bindings' cydriver.pxd includes it.
REQUIRED_HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h")
# cuda.pathfinder's names for the header directories of REQUIRED_HEADERS.
PATHFINDER_NAMES = {"cuda.h": "cudart", "nvrtc.h": "nvrtc", "cudaProfiler.h": "profiler"}
CUDA_VERSION_RE = re.compile(rb"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)\s*$", re.MULTILINE)


class ProbeError(Exception):
    """A probe failure; its message is the one line that names the cause and the fix."""


class MissingHeaders(ProbeError):
    """No usable headers where the search ended: ``toolkit`` is what was found, if anything.

    The build backend catches this to fall back on NVIDIA's header wheels, which it can
    require; every other ProbeError is the user's to fix.
    """

    def __init__(self, message: str, toolkit: "Toolkit | None" = None) -> None:
        super().__init__(message)
        self.toolkit = toolkit


@dataclass
class Toolkit:
    """Where the headers are and what they say."""

    include_dirs: list[str]
    found_via: str
    cuda_h: str
    cuda_version: int
    pinned: bool = False
    major: int = field(init=False)
    minor: int = field(init=False)

    def __post_init__(self) -> None:
        self.major = self.cuda_version // 1000
        self.minor = self.cuda_version % 1000 // 10


@dataclass
class Bindings:
    """The installed cuda-bindings: its version and the root that holds cuda/bindings/*.pxd."""

    version: str
    major: int
    minor: int
    pxd_root: str
    version_file: str


def bindings_pin(major: int, minor: int) -> str:
    """The cuda-bindings requirement that builds against headers of ``major.minor``."""
    return f"cuda-bindings=={major}.{minor}.*"


def split_path_list(value: str) -> list[Path]:
    """Split an ``os.pathsep`` list, dropping empty entries."""
    return [Path(part) for part in value.split(os.pathsep) if part.strip()]


def include_dirs_of_roots(roots: list[Path]) -> list[Path]:
    """The include directories of toolkit roots: ROOT/include, or ROOT itself if it holds cuda.h."""
    dirs: list[Path] = []
    for root in roots:
        root = root.expanduser().absolute()
        with_cuda_h = [d for d in (root / "include", root) if (d / "cuda.h").is_file()]
        if with_cuda_h:
            dirs.append(with_cuda_h[0])
        elif (root / "include").is_dir():
            dirs.append(root / "include")
    return dirs


def _find_header(name: str, include_dirs: list[Path]) -> Path | None:
    for directory in include_dirs:
        if (directory / name).is_file():
            return directory / name
    return None


def read_cuda_version(cuda_h: Path) -> int:
    """``CUDA_VERSION`` as cuda.h defines it, e.g. 12090 for CUDA 12.9."""
    match = CUDA_VERSION_RE.search(cuda_h.read_bytes())
    if match is None:
        raise ProbeError(f"{cuda_h} defines no CUDA_VERSION: it is not a CUDA toolkit's cuda.h; "
                         "point CUDA_PATH or -Dcuda-path at a complete CUDA 12 or 13 toolkit")
    return int(match.group(1))


def _toolkit_from_roots(roots: list[Path], source: str) -> Toolkit:
    """Build a Toolkit from explicit roots; they must hold cuda.h, nothing falls through."""
    include_dirs = include_dirs_of_roots(roots)
    cuda_h = _find_header("cuda.h", include_dirs)
    if cuda_h is None:
        shown = os.pathsep.join(str(r) for r in roots)
        raise ProbeError(f"no cuda.h under {source}={shown!r} (looked in ROOT/include): "
                         f"point {source} at a CUDA 12 or 13 toolkit, or unset it to use the header wheels")
    return Toolkit([str(d) for d in include_dirs], source, str(cuda_h), read_cuda_version(cuda_h))


# Where NVIDIA's wheels put each header, relative to a sys.path entry: CUDA 13 wheels
# share nvidia/cu13/include; CUDA 12 wheels have one directory per component.
WHEEL_HEADER_DIRS = {
    "cuda.h": ("nvidia/cu13/include", "nvidia/cuda_runtime/include"),
    "nvrtc.h": ("nvidia/cu13/include", "nvidia/cuda_nvrtc/include"),
    "cudaProfiler.h": ("nvidia/cu13/include", "nvidia/cuda_profiler_api/include"),
}


def _toolkit_from_wheels() -> Toolkit | None:
    """NVIDIA's header wheels in this environment: through cuda.pathfinder, else on sys.path."""
    return _wheels_via_pathfinder() or _wheels_on_sys_path()


def _wheels_on_sys_path() -> Toolkit | None:
    """The header wheels on sys.path. cuda.pathfinder looks in site.getsitepackages() alone, so it
    misses pip's isolated build environments and ``pip install --target`` directories."""
    for entry in map(Path, filter(None, sys.path)):
        cuda_dirs = [entry / sub for sub in WHEEL_HEADER_DIRS["cuda.h"] if (entry / sub / "cuda.h").is_file()]
        if not cuda_dirs:
            continue
        include_dirs = [cuda_dirs[0]]
        for header in REQUIRED_HEADERS[1:]:
            include_dirs += [entry / sub for sub in WHEEL_HEADER_DIRS[header]
                             if (entry / sub / header).is_file() and entry / sub not in include_dirs][:1]
        cuda_h = cuda_dirs[0] / "cuda.h"
        return Toolkit([str(d.absolute()) for d in include_dirs], "header wheels (sys.path)",
                       str(cuda_h.absolute()), read_cuda_version(cuda_h))
    return None


def _wheels_via_pathfinder() -> Toolkit | None:
    try:
        from cuda.pathfinder import locate_nvidia_header_directory
    except ImportError:
        return None
    include_dirs: list[str] = []
    for header in REQUIRED_HEADERS:
        try:
            located = locate_nvidia_header_directory(PATHFINDER_NAMES[header])
        except RuntimeError:  # a cuda.pathfinder too old to know this header's name
            located = None
        # Only packaged headers count here; CUDA_PATH and system dirs have their own steps.
        if located is None or located.abs_path is None or located.found_via not in ("site-packages", "conda"):
            if header == "cuda.h":
                return None
            continue
        if located.abs_path not in include_dirs:
            include_dirs.append(located.abs_path)
    cuda_h = Path(include_dirs[0]) / "cuda.h"
    return Toolkit(include_dirs, "header wheels (cuda.pathfinder)", str(cuda_h), read_cuda_version(cuda_h))


def find_toolkit(cuda_path: str, environ: dict[str, str]) -> Toolkit:
    """Find the headers in the documented order."""
    if cuda_path.strip():
        roots = split_path_list(cuda_path)
        relative = [str(root) for root in roots if not root.expanduser().is_absolute()]
        if relative:
            # Meson re-runs the probe from other directories; a relative root would move.
            raise ProbeError(f"-Dcuda-path holds the relative path {relative[0]!r}: pass absolute paths")
        return _toolkit_from_roots(roots, "-Dcuda-path")
    for variable in ("CUDA_PATH", "CUDA_HOME"):
        value = environ.get(variable, "")
        if value.strip():
            return _toolkit_from_roots(split_path_list(value), variable)
    wheels = _toolkit_from_wheels()
    if wheels is not None:
        return wheels
    if (DEFAULT_TOOLKIT / "include" / "cuda.h").is_file():
        return _toolkit_from_roots([DEFAULT_TOOLKIT], str(DEFAULT_TOOLKIT))
    raise MissingHeaders("no CUDA headers found (no cuda.h): set CUDA_PATH or CUDA_HOME to a CUDA 12 or 13 "
                     "toolkit, pass -Dcuda-path=DIR, or pip install the header wheels "
                     f"({HEADER_WHEELS[13]})")


def check_toolkit(toolkit: Toolkit, requested_major: str) -> None:
    """Refuse unsupported majors, a requested major the headers disagree with, and missing headers."""
    where = toolkit.include_dirs[0] if toolkit.include_dirs else toolkit.cuda_h
    if toolkit.major not in SUPPORTED_MAJORS:
        raise ProbeError(f"CUDA {toolkit.major}.{toolkit.minor} headers at {where} are not supported "
                         f"(supported majors: {', '.join(map(str, SUPPORTED_MAJORS))}): "
                         "point CUDA_PATH or -Dcuda-path at a CUDA 12 or 13 toolkit")
    if requested_major != "auto" and int(requested_major) != toolkit.major:
        raise ProbeError(f"-Dcuda-major={requested_major} but the headers at {where} "
                         f"(found via {toolkit.found_via}) are CUDA {toolkit.major}.{toolkit.minor}: "
                         f"point -Dcuda-path at CUDA {requested_major} headers, or use -Dcuda-major=auto")
    dirs = [Path(d) for d in toolkit.include_dirs]
    for header in REQUIRED_HEADERS[1:]:
        if _find_header(header, dirs) is None:
            raise MissingHeaders(f"{header} not found in {os.pathsep.join(toolkit.include_dirs)}: use a complete "
                             f"CUDA {toolkit.major} toolkit or pip install {HEADER_WHEELS[toolkit.major]}", toolkit)


def find_bindings() -> Bindings | None:
    """The cuda-bindings installed for this Python, or None.

    Found through its distribution metadata, not an import: an import would run the
    meta-path finder of an editable cuda.core, which rebuilds the very build directory
    being configured.
    """
    try:
        distribution = importlib.metadata.distribution("cuda-bindings")
    except importlib.metadata.PackageNotFoundError:
        return None
    package_dir = Path(str(distribution.locate_file("cuda/bindings"))).absolute()
    if not package_dir.is_dir():
        return None
    version = distribution.version
    major, minor = (int(part) for part in version.split(".")[:2])
    return Bindings(version, major, minor, str(package_dir.parent.parent), str(package_dir / "_version.py"))


def check_bindings(toolkit: Toolkit) -> Bindings:
    """The installed cuda-bindings, if it fits the headers; else a ProbeError with the pin that does."""
    fix = f'pip install "{bindings_pin(toolkit.major, toolkit.minor)}"'
    bindings = find_bindings()
    if bindings is None:
        raise ProbeError(f"cuda-bindings is not installed for {sys.executable}: {fix}")
    headers = f"CUDA {toolkit.major}.{toolkit.minor} headers (found via {toolkit.found_via})"
    if bindings.major != toolkit.major:
        raise ProbeError(f"cuda-bindings {bindings.version} is for CUDA {bindings.major}, but the build uses "
                         f"{headers}: {fix}, or point CUDA_PATH at CUDA {bindings.major} headers")
    if bindings.minor > toolkit.minor:
        raise ProbeError(f"cuda-bindings {bindings.version} was generated for CUDA {bindings.major}.{bindings.minor}, "
                         f"newer than the {headers}, and its .pxd files would not compile: {fix}, "
                         f"or use CUDA {bindings.major}.{bindings.minor}+ headers")
    if not (Path(bindings.pxd_root) / "cuda" / "bindings" / "cydriver.pxd").is_file():
        raise ProbeError(f"cuda-bindings {bindings.version} at {bindings.pxd_root} ships no cydriver.pxd: "
                         f"reinstall it from a wheel: {fix}")
    return bindings


def probe(cuda_path: str, requested_major: str, headers_only: bool,
          environ: dict[str, str] | None = None) -> tuple[Toolkit, Bindings | None]:
    """Find and check the toolkit and, unless ``headers_only``, the bindings."""
    toolkit = find_toolkit(cuda_path, dict(os.environ if environ is None else environ))
    check_toolkit(toolkit, requested_major)
    return toolkit, None if headers_only else check_bindings(toolkit)


def load_pinned(pin_file: Path, cuda_path: str) -> Toolkit | None:
    """The toolkit pinned in a build directory, if it was pinned under the same ``cuda-path``."""
    if not pin_file.is_file():
        return None
    try:
        pinned = json.loads(pin_file.read_text())
        if pinned.get("cuda_path_option") != cuda_path:
            return None
        cuda_h, include_dirs, found_via = Path(pinned["cuda_h"]), list(pinned["include_dirs"]), pinned["found_via"]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ProbeError(f"the toolkit pin {pin_file} is damaged: re-probe with `meson setup --wipe BUILDDIR`") from None
    if not cuda_h.is_file():
        raise ProbeError(f"the CUDA headers pinned for this build directory are gone ({cuda_h}): "
                         "restore them, or re-probe with `meson setup --wipe BUILDDIR`")
    return Toolkit(include_dirs, found_via, str(cuda_h), read_cuda_version(cuda_h), pinned=True)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def pin(pin_file: Path, cuda_path: str, toolkit: Toolkit) -> None:
    """Record the resolved toolkit for later regenerations of this build directory."""
    record = {"cuda_path_option": cuda_path, "include_dirs": toolkit.include_dirs,
              "cuda_h": toolkit.cuda_h, "found_via": toolkit.found_via}
    write_atomically(pin_file, json.dumps(record, indent=2) + "\n")


def report(toolkit: Toolkit, bindings: Bindings | None) -> dict[str, object]:
    """The probe's result as one JSON-ready dict."""
    return {
        "major": toolkit.major,
        "minor": toolkit.minor,
        "cuda_version": toolkit.cuda_version,
        "include_dirs": toolkit.include_dirs,
        "found_via": toolkit.found_via,
        "pinned": toolkit.pinned,
        "cuda_h": toolkit.cuda_h,
        "bindings_version": bindings.version if bindings else None,
        "pxd_root": bindings.pxd_root if bindings else None,
        "bindings_requirement": bindings_pin(toolkit.major, toolkit.minor),
    }


def meson_keyval(result: dict[str, object]) -> str:
    """KEY=VALUE lines for Meson's keyval module (lists joined with os.pathsep)."""
    lines = []
    for key, value in result.items():
        if isinstance(value, list):
            value = os.pathsep.join(value)
        lines.append(f"{key}={'' if value is None else value}")
    return "\n".join(lines) + "\n"


def package_source_files(root: Path = PACKAGE_SOURCES) -> list[Path]:
    """Every source file of the package, in a stable order."""
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def source_digest(files: list[Path], root: Path = PACKAGE_SOURCES) -> str:
    """sha256 over the sources' relative paths and contents: the same on every machine."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_info_source(toolkit: Toolkit, bindings: Bindings, buildtype: str, coverage: bool,
                      cython_version: str, package_version: str, digest: str) -> str:
    """The text of cuda/core/_build_info.py: what this build was made for, and nothing machine-specific."""
    return (
        '"""What this build of cuda.core was built for. Written by tools/cuda_probe.py at build time."""\n\n'
        f"version = {package_version!r}\n"
        f"cuda_major = {toolkit.major}\n"
        f"cuda_version = {toolkit.cuda_version}  # CUDA_VERSION of the headers compiled against\n"
        f"cuda_bindings_version = {bindings.version!r}\n"
        f"cython_version = {cython_version!r}\n"
        f"buildtype = {buildtype!r}\n"
        f"coverage = {coverage!r}\n"
        f"source_digest = {digest!r}  # sha256 of the cuda_core/ sources\n"
    )


def _depfile_escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def depfile_text(target: str, dependencies: list[str]) -> str:
    """A Makefile-style depfile, as ninja reads it."""
    return f"{_depfile_escape(target)}: " + " ".join(_depfile_escape(d) for d in dependencies) + "\n"


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad argument gives the probe's one error line instead of usage text."""

    def error(self, message: str) -> NoReturn:
        print(f"cuda_probe: error: {message}: see python tools/cuda_probe.py --help", file=sys.stderr)
        raise SystemExit(2)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda-path", default="", help="os.pathsep list of toolkit roots; empty: probe")
    parser.add_argument("--cuda-major", default="auto", choices=("auto", *map(str, SUPPORTED_MAJORS)))
    parser.add_argument("--headers-only", action="store_true", help="skip the cuda-bindings checks")
    parser.add_argument("--pin-file", type=Path, help="build-dir file that pins the first toolkit found")
    parser.add_argument("--meson-out", type=Path, help="also write the result as KEY=VALUE for Meson")
    parser.add_argument("--build-info-out", type=Path, help="write cuda/core/_build_info.py here")
    parser.add_argument("--depfile", type=Path, help="with --build-info-out: the files it was derived from")
    parser.add_argument("--buildtype", default="", help="with --build-info-out: Meson's buildtype")
    parser.add_argument("--coverage", default="false", choices=("true", "false"))
    parser.add_argument("--cython-version", default="")
    parser.add_argument("--package-version", default="")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> dict[str, object]:
    """Probe (or reuse the pin), check, and write whatever outputs were asked for."""
    if args.build_info_out and args.headers_only:
        raise ProbeError("--build-info-out needs the cuda-bindings checks: drop --headers-only")
    toolkit = load_pinned(args.pin_file, args.cuda_path) if args.pin_file else None
    if toolkit is None:
        toolkit = find_toolkit(args.cuda_path, dict(os.environ))
    check_toolkit(toolkit, args.cuda_major)
    bindings = None if args.headers_only else check_bindings(toolkit)
    if args.pin_file and not toolkit.pinned:
        pin(args.pin_file, args.cuda_path, toolkit)
    result = report(toolkit, bindings)
    if args.meson_out:
        write_atomically(args.meson_out, meson_keyval(result))
    if args.build_info_out and bindings is not None:
        sources = package_source_files()
        write_atomically(args.build_info_out, build_info_source(
            toolkit, bindings, args.buildtype, args.coverage == "true", args.cython_version,
            args.package_version, source_digest(sources)))
        if args.depfile:
            # The pin needs no entry: it only changes with -Dcuda-path, which is on the command line.
            inputs = [toolkit.cuda_h, bindings.version_file, *map(str, sources)]
            write_atomically(args.depfile, depfile_text(str(args.build_info_out), inputs))
    return result


# Import hooks of editable installs (meson-python's finder, and ours for the cuda
# namespace) rebuild their project when anything under cuda.* is imported.
EDITABLE_FINDERS = ("MesonpyMetaFinder", "SharedNamespaceFinder")


def drop_editable_finders() -> None:
    """Let the probe see the environment as installed: importing cuda.pathfinder through an
    editable cuda.core's finder would start a second build in the build dir being built."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ not in EDITABLE_FINDERS]


def main(argv: list[str] | None = None) -> int:
    drop_editable_finders()
    args = parse_args(argv)
    try:
        result = run(args)
    except ProbeError as err:
        print(f"cuda_probe: error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"cuda_probe: error: cannot write the probe's output ({err}): check the build directory",
              file=sys.stderr)
        return 1
    if not (args.meson_out or args.build_info_out):
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
