# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Find the CUDA headers and derive the CUDA major: the one place in the project that knows it.

The headers are looked for in this order, and ``Toolkit.found_via`` says which source won:

1. the ``cuda-path`` option (Meson's ``-Dcuda-path``), an ``os.pathsep`` list of toolkit roots;
2. ``CUDA_PATH``, then ``CUDA_HOME``, each possibly an ``os.pathsep`` list;
3. NVIDIA's header wheels in this Python environment, located by cuda.pathfinder;
4. ``/usr/local/cuda``.

The major comes from ``CUDA_VERSION`` in cuda.h. The installed cuda-bindings must be of
the same major and generated for a CUDA minor no newer than the headers' (its .pxd files
name types that older headers lack).

This is a library: Meson runs it through ``cuda_core_build.configure`` (configure time)
and ``cuda_core_build.build_info`` (build time), the backend imports it, and
``tools/dev/cuda_probe.py`` shows what it finds. Every failure is a ProbeError whose message
is the one line that names the cause and the fix.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cuda_core_build import cuda_version, facts
from cuda_core_build.files import write_atomically

DEFAULT_TOOLKIT = Path("/usr/local/cuda")
# cuda.pathfinder's names for the header directories of facts.REQUIRED_HEADERS.
PATHFINDER_NAMES = {"cuda.h": "cudart", "nvrtc.h": "nvrtc", "cudaProfiler.h": "profiler", "driver_types.h": "cudart"}
# Where NVIDIA's wheels put each header, relative to a sys.path entry: CUDA 13 wheels
# share nvidia/cu13/include; CUDA 12 wheels have one directory per component.
WHEEL_HEADER_DIRS = {
    "cuda.h": ("nvidia/cu13/include", "nvidia/cuda_runtime/include"),
    "nvrtc.h": ("nvidia/cu13/include", "nvidia/cuda_nvrtc/include"),
    "cudaProfiler.h": ("nvidia/cu13/include", "nvidia/cuda_profiler_api/include"),
    "driver_types.h": ("nvidia/cu13/include", "nvidia/cuda_runtime/include"),
}
# Import hooks of editable installs (meson-python's finder, and ours for the cuda
# namespace) rebuild their project when anything under cuda.* is imported.
EDITABLE_FINDERS = ("MesonpyMetaFinder", "SharedNamespaceFinder")


class ProbeError(Exception):
    """A probe failure; its message is the one line that names the cause and the fix."""


class MissingHeaders(ProbeError):
    """No usable headers where the search ended: ``toolkit`` is what was found, if anything.

    The build backend catches this to fall back on NVIDIA's header wheels, which it can
    require; every other ProbeError is the user's to fix.
    """

    def __init__(self, message: str, toolkit: Toolkit | None = None) -> None:
        super().__init__(message)
        self.toolkit = toolkit


@dataclass(frozen=True)
class OptionNames:
    """How the user who ran the probe spells its two options, for the messages."""

    cuda_path: str = "-Dcuda-path"
    cuda_major: str = "-Dcuda-major"


MESON_OPTIONS = OptionNames()


@dataclass
class Toolkit:
    """Where the headers are and what they say.

    ``include_dirs`` are the directories that provide the required headers, in search order, and
    nothing else: ``sources`` says which one provides each header.
    """

    include_dirs: list[str]
    found_via: str
    cuda_h: str
    cuda_version: int
    pinned: bool = False
    sources: dict[str, str] = field(default_factory=dict)
    bindings_root: str = ""  # where the pinned build directory found cuda-bindings
    major: int = field(init=False)
    minor: int = field(init=False)

    def __post_init__(self) -> None:
        self.major = self.cuda_version // 1000
        self.minor = self.cuda_version % 1000 // 10


@dataclass
class Bindings:
    """The installed cuda-bindings: its version, the root that holds cuda/bindings/*.pxd, and its
    .dist-info directory."""

    version: str
    major: int
    minor: int
    pxd_root: str
    version_file: str
    dist_info: str = ""


def dist_info_dir(distribution: importlib.metadata.Distribution) -> str:
    """The .dist-info directory of an installed distribution ("" if its metadata lists no files)."""
    metadata = next(
        (f for f in distribution.files or () if f.name == "METADATA" and f.parent.suffix == ".dist-info"), None
    )
    return str(Path(str(distribution.locate_file(metadata))).absolute().parent) if metadata is not None else ""


def bindings_requirement(major: int, minor: int) -> str:
    """The cuda-bindings requirement that builds against headers of ``major.minor``."""
    return f"cuda-bindings=={major}.{minor}.*"


def header_wheels_text(major: int) -> str:
    """The pip names of the header wheels of ``major``, space separated, for messages."""
    return " ".join(facts.header_wheels(major))


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


def read_cuda_version(cuda_h: Path, names: OptionNames = MESON_OPTIONS) -> int:
    """``CUDA_VERSION`` as the compiler reads it from cuda.h, e.g. 12090 for CUDA 12.9."""
    try:
        return cuda_version.read(cuda_h)
    except cuda_version.UnreadableVersion as err:
        raise ProbeError(
            f"{cuda_h}: {err}: it is not a CUDA toolkit's cuda.h; "
            f"point CUDA_PATH or {names.cuda_path} at a complete CUDA toolkit"
        ) from None


def _toolkit_from_roots(roots: list[Path], source: str, names: OptionNames, shown: str | None = None) -> Toolkit:
    """Build a Toolkit from explicit roots; they must hold cuda.h, nothing falls through.
    ``shown`` is the value as the user wrote it, for the messages."""
    shown = os.pathsep.join(str(r) for r in roots) if shown is None else shown
    if not roots:
        raise ProbeError(
            f"{source}={shown!r} names no directory: set it to a CUDA toolkit root, "
            f"or unset it to use the header wheels"
        )
    include_dirs = include_dirs_of_roots(roots)
    cuda_h = _find_header("cuda.h", include_dirs)
    if cuda_h is None:
        raise ProbeError(
            f"no cuda.h under {source}={shown!r} (looked in ROOT/include): "
            f"point {source} at a CUDA toolkit, or unset it to use the header wheels"
        )
    return select_headers(include_dirs, source, read_cuda_version(cuda_h, names), names)


def wheel_layout_major(directory: Path) -> int | None:
    """The CUDA major of a directory of NVIDIA's CUDA 13 header wheels (``.../nvidia/cu13/...``)."""
    parts = directory.parts
    for index, part in enumerate(parts[:-1]):
        if part == "nvidia" and parts[index + 1].startswith("cu") and parts[index + 1][2:].isdigit():
            return int(parts[index + 1][2:])
    return None


def select_headers(candidates: list[Path], source: str, version: int, names: OptionNames = MESON_OPTIONS) -> Toolkit:
    """One toolkit's headers out of ``candidates`` (in search order): each required header from the
    first directory that has it; a directory that provides none is left off the include path.

    A list that mixes toolkits is refused: every candidate with a cuda.h must say the CUDA_VERSION
    of the first, and a directory of the CUDA 13 header wheels cannot serve another major.
    """
    cuda_h = _find_header("cuda.h", candidates)
    assert cuda_h is not None
    major, minor = version // 1000, version % 1000 // 10
    for directory in candidates:
        other_h = directory / "cuda.h"
        if other_h.is_file() and directory != cuda_h.parent:
            other = read_cuda_version(other_h, names)
            if other != version:
                raise ProbeError(
                    f"{source} mixes toolkits: {cuda_h.parent} has CUDA {major}.{minor} headers but "
                    f"{directory} has CUDA {other // 1000}.{other % 1000 // 10}: keep the entries of "
                    f"one toolkit in {source}"
                )
        layout = wheel_layout_major(directory)
        if layout is not None and layout != major:
            raise ProbeError(
                f"{source} mixes toolkits: {cuda_h.parent} has CUDA {major}.{minor} headers but "
                f"{directory} holds NVIDIA's CUDA {layout} header wheels: keep the entries of one "
                f"toolkit in {source}"
            )
    sources = {}
    for header in facts.REQUIRED_HEADERS:
        found = _find_header(header, candidates)
        if found is not None:
            sources[header] = str(found.parent)
    used = [str(d) for d in candidates if str(d) in sources.values()]
    return Toolkit(used, source, str(cuda_h), version, sources=sources)


def _toolkit_from_wheels(names: OptionNames) -> Toolkit | None:
    """NVIDIA's header wheels in this environment: through cuda.pathfinder, else on sys.path."""
    return _wheels_via_pathfinder(names) or _wheels_on_sys_path(names)


def _wheels_on_sys_path(names: OptionNames) -> Toolkit | None:
    """The header wheels on sys.path. cuda.pathfinder looks in site.getsitepackages() alone, so it
    misses pip's isolated build environments and ``pip install --target`` directories."""
    for entry in map(Path, filter(None, sys.path)):
        cuda_dirs = [entry / sub for sub in WHEEL_HEADER_DIRS["cuda.h"] if (entry / sub / "cuda.h").is_file()]
        if not cuda_dirs:
            continue
        include_dirs = [cuda_dirs[0].absolute()]
        for header in facts.REQUIRED_HEADERS[1:]:
            include_dirs += [
                (entry / sub).absolute()
                for sub in WHEEL_HEADER_DIRS[header]
                if (entry / sub / header).is_file() and (entry / sub).absolute() not in include_dirs
            ][:1]
        return select_headers(
            include_dirs, "header wheels (sys.path)", read_cuda_version(include_dirs[0] / "cuda.h", names), names
        )
    return None


def _wheel_dir_on_sys_path(header: str) -> Path | None:
    """The first header wheel directory on sys.path that holds ``header``."""
    for entry in map(Path, filter(None, sys.path)):
        for sub in WHEEL_HEADER_DIRS[header]:
            if (entry / sub / header).is_file():
                return (entry / sub).absolute()
    return None


def _wheels_via_pathfinder(names: OptionNames) -> Toolkit | None:
    try:
        from cuda.pathfinder import locate_nvidia_header_directory
    except ImportError:
        return None
    include_dirs: list[Path] = []
    for header in facts.REQUIRED_HEADERS:
        try:
            located = locate_nvidia_header_directory(PATHFINDER_NAMES[header])
        except RuntimeError:  # a cuda.pathfinder too old to know this header's name
            located = None
        # Only packaged headers count here; CUDA_PATH and system dirs have their own steps.
        if located is not None and located.abs_path is not None and located.found_via in ("site-packages", "conda"):
            found: Path | None = Path(located.abs_path)
        elif header == "cuda.h":
            return None
        else:  # an older cuda.pathfinder (1.4.2, the floor) has no name for cudaProfiler.h
            found = _wheel_dir_on_sys_path(header)
        if found is not None and found not in include_dirs:
            include_dirs.append(found)
    return select_headers(
        include_dirs, "header wheels (cuda.pathfinder)", read_cuda_version(include_dirs[0] / "cuda.h", names), names
    )


def toolkit_roots(value: str, source: str, environ: dict[str, str]) -> list[Path]:
    """The roots an ``os.pathsep`` list names, a relative one resolved from where the user stands
    (``PWD``: Meson runs the probe from the source directory)."""
    whole = Path(value.strip()).expanduser()
    parts = split_path_list(value)
    if os.pathsep in value and whole.is_absolute() and whole.is_dir() and not all(p.is_dir() for p in parts):
        raise ProbeError(
            f"{source}={value!r} is one directory whose name holds {os.pathsep!r}, which separates "
            f"the entries of {source}: make a link to it whose path has no {os.pathsep!r}, and use that"
        )
    base = Path(environ.get("PWD") or os.getcwd())
    return [part.expanduser() if part.expanduser().is_absolute() else base / part for part in parts]


def find_toolkit(cuda_path: str, environ: dict[str, str], names: OptionNames = MESON_OPTIONS) -> Toolkit:
    """Find the headers in the documented order."""
    if cuda_path.strip():
        return _toolkit_from_roots(
            toolkit_roots(cuda_path, names.cuda_path, environ), names.cuda_path, names, cuda_path
        )
    for variable in ("CUDA_PATH", "CUDA_HOME"):
        value = environ.get(variable, "")
        if value.strip():
            return _toolkit_from_roots(toolkit_roots(value, variable, environ), variable, names, value)
    wheels = _toolkit_from_wheels(names)
    if wheels is not None:
        return wheels
    if (DEFAULT_TOOLKIT / "include" / "cuda.h").is_file():
        return _toolkit_from_roots([DEFAULT_TOOLKIT], str(DEFAULT_TOOLKIT), names)
    newest = facts.supported_majors()[-1]
    raise MissingHeaders(
        f"no CUDA headers found (no cuda.h): set CUDA_PATH or CUDA_HOME to a CUDA toolkit, pass "
        f"{names.cuda_path}=DIR, or pip install the header wheels ({header_wheels_text(newest)})"
    )


def parse_major(requested: str, names: OptionNames = MESON_OPTIONS) -> int | None:
    """The major a user asked for (None for 'auto'); anything else supported is refused here."""
    majors = facts.supported_majors()
    if requested == "auto":
        return None
    if requested.isdigit() and int(requested) in majors:
        return int(requested)
    choices = ", ".join(["auto", *map(str, majors)])
    raise ProbeError(f"{names.cuda_major}={requested} is not a supported CUDA major: use one of {choices}")


def check_toolkit(toolkit: Toolkit, requested_major: str, names: OptionNames = MESON_OPTIONS) -> None:
    """Refuse unsupported majors, a requested major the headers disagree with, and missing headers."""
    requested = parse_major(requested_major, names)
    where = toolkit.include_dirs[0] if toolkit.include_dirs else toolkit.cuda_h
    majors = facts.supported_majors()
    if toolkit.major not in majors:
        raise ProbeError(
            f"CUDA {toolkit.major}.{toolkit.minor} headers at {where} are not supported "
            f"(supported majors: {', '.join(map(str, majors))}): "
            f"point CUDA_PATH or {names.cuda_path} at a supported toolkit"
        )
    if requested is not None and requested != toolkit.major:
        raise ProbeError(
            f"{names.cuda_major}={requested} but the headers at {where} "
            f"(found via {toolkit.found_via}) are CUDA {toolkit.major}.{toolkit.minor}: "
            f"{environment_hint(requested)}, point {names.cuda_path} at CUDA {requested} headers, "
            f"or use {names.cuda_major}=auto"
        )
    for header in facts.REQUIRED_HEADERS[1:]:
        if header not in toolkit.sources:
            raise MissingHeaders(
                f"{header} not found in the CUDA {toolkit.major}.{toolkit.minor} headers at "
                f"{os.pathsep.join(toolkit.include_dirs)} (via {toolkit.found_via}): "
                f"{incomplete_toolkit_fix(toolkit, names)}",
                toolkit,
            )


def incomplete_toolkit_fix(toolkit: Toolkit, names: OptionNames) -> str:
    """How to get every header: where the user pointed at a toolkit while this environment holds
    the header wheels, stop pointing; else a complete toolkit or the header wheels."""
    if toolkit.found_via in (names.cuda_path, "CUDA_PATH", "CUDA_HOME"):
        wheels = _toolkit_from_wheels(names)
        if (
            wheels is not None
            and wheels.major == toolkit.major
            and all(header in wheels.sources for header in facts.REQUIRED_HEADERS)
        ):
            unset = f"drop {names.cuda_path}" if toolkit.found_via == names.cuda_path else f"unset {toolkit.found_via}"
            return (
                f"{unset} to use the CUDA {wheels.major}.{wheels.minor} header wheels installed here, "
                f"or point it at a complete CUDA {toolkit.major} toolkit"
            )
    return f"use a complete CUDA {toolkit.major} toolkit or pip install {header_wheels_text(toolkit.major)}"


def find_bindings(root: str = "") -> Bindings | None:
    """The cuda-bindings installed for this Python (or in the directory ``root``), or None.

    Found through its distribution metadata, not an import: an import would run the
    meta-path finder of an editable cuda.core, which rebuilds the very build directory
    being configured.
    """
    if root:
        distribution = next(iter(importlib.metadata.distributions(name="cuda-bindings", path=[root])), None)
        if distribution is None:
            return None
    else:
        try:
            distribution = importlib.metadata.distribution("cuda-bindings")
        except importlib.metadata.PackageNotFoundError:
            return None
    package_dir = Path(str(distribution.locate_file("cuda/bindings"))).absolute()
    if not package_dir.is_dir():
        return None
    version = distribution.version
    major, minor = (int(part) for part in version.split(".")[:2])
    return Bindings(
        version,
        major,
        minor,
        str(package_dir.parent.parent),
        str(package_dir / "_version.py"),
        dist_info_dir(distribution),
    )


DEV_VENVS = ".venvs"  # where tools/dev/devenv.py makes one venv per cell: .venvs/cu12, .venvs/cu13


def development_environment() -> int | None:
    """The major of the per-major dev venv (tools/dev/devenv.py's .venvs/cuNN) running this probe, if it is one."""
    prefix = Path(sys.prefix)
    if prefix.parent.name == DEV_VENVS and prefix.name[2:].isdigit() and prefix.name.startswith("cu"):
        return int(prefix.name[2:])
    return None


def environment_hint(major: int) -> str:
    """Where a user finds CUDA ``major`` headers and bindings: the dev venv of that major beside the
    running one or in this repo (tools/dev/devenv.py makes them), if there is one."""
    places = [facts.REPO_ROOT / DEV_VENVS]
    if development_environment() is not None:
        places.insert(0, Path(sys.prefix).parent)
    for venv in (place / f"cu{major}" for place in places):
        if (venv / "bin" / "activate").is_file():
            return f"activate the CUDA {major} environment (source {venv}/bin/activate)"
    return f"activate an environment with CUDA {major} headers and cuda-bindings {major}"


def check_bindings(toolkit: Toolkit) -> Bindings:
    """The installed cuda-bindings, if it fits the headers; else a ProbeError with the fix: the pin
    that fits, or, in one of this project's per-major dev venvs (where that pin would break the
    venv's own major), the venv to use instead."""
    fix = f'pip install "{bindings_requirement(toolkit.major, toolkit.minor)}"'
    if development_environment() not in (None, toolkit.major):
        fix = environment_hint(toolkit.major)
    bindings = find_bindings(toolkit.bindings_root)
    if bindings is None and toolkit.bindings_root:
        raise ProbeError(
            f"cuda-bindings is no longer installed in {toolkit.bindings_root}, where this build directory "
            f"found it: {fix} there, or set the build directory up again (meson setup --wipe BUILDDIR)"
        )
    if bindings is None:
        raise ProbeError(f"cuda-bindings is not installed for {sys.executable}: {fix}")
    headers = f"CUDA {toolkit.major}.{toolkit.minor} headers (found via {toolkit.found_via})"
    if bindings.major != toolkit.major:
        raise ProbeError(
            f"cuda-bindings {bindings.version} of {sys.prefix} is for CUDA {bindings.major}, but the build "
            f"uses {headers}: {fix}, or point CUDA_PATH at CUDA {bindings.major} headers"
        )
    if bindings.minor > toolkit.minor:
        raise ProbeError(
            f"cuda-bindings {bindings.version} was generated for CUDA {bindings.major}.{bindings.minor}, "
            f"newer than the {headers}, and its .pxd files would not compile: {fix}, "
            f"or use CUDA {bindings.major}.{bindings.minor}+ headers"
        )
    if not (Path(bindings.pxd_root) / "cuda" / "bindings" / "cydriver.pxd").is_file():
        raise ProbeError(
            f"cuda-bindings {bindings.version} at {bindings.pxd_root} ships no cydriver.pxd: "
            f"reinstall it from a wheel: {fix}"
        )
    return bindings


@dataclass
class CythonInstall:
    """The Cython of the build's Python: its version, and the file that holds the version (an
    upgrade rewrites it, so the build depends on it)."""

    version: str
    version_file: str
    dist_info: str = ""


def find_cython() -> CythonInstall:
    """The Cython installed for this Python; the build runs it as ``python -m cython``."""
    wanted = facts.cython_pin()
    try:
        distribution = importlib.metadata.distribution("Cython")
    except importlib.metadata.PackageNotFoundError:
        raise ProbeError(
            f'Cython is not installed for {sys.executable}: pip install "Cython=={wanted}" '
            "(the newest tool set of requirements/matrix.ini)"
        ) from None
    version_file = Path(str(distribution.locate_file("Cython/Shadow.py"))).absolute()
    if not version_file.is_file():
        raise ProbeError(
            f"Cython {distribution.version} for {sys.executable} has no Cython/Shadow.py: "
            f'reinstall it: pip install --force-reinstall "Cython=={wanted}"'
        )
    return CythonInstall(distribution.version, str(version_file), dist_info_dir(distribution))


def python_prefix() -> str:
    """The environment of the Python running the probe, links resolved: the one a pin belongs to."""
    return os.path.realpath(sys.prefix)


def load_pinned(pin_file: Path, cuda_path: str, names: OptionNames = MESON_OPTIONS) -> Toolkit | None:
    """The toolkit pinned in a build directory, if it was pinned under the same ``cuda-path``: its
    directories are read again, so what they hold now is what the build uses."""
    if not pin_file.is_file():
        return None
    try:
        pinned = json.loads(pin_file.read_text())
        cuda_h, include_dirs, found_via = Path(pinned["cuda_h"]), list(pinned["include_dirs"]), pinned["found_via"]
        if pinned.get("cuda_path_option") != cuda_path or pinned.get("python_prefix") != python_prefix():
            return None  # another -Dcuda-path, or set up again from another environment: probe afresh
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ProbeError(
            f"the toolkit pin {pin_file} is damaged: re-probe with `meson setup --wipe BUILDDIR`"
        ) from None
    if not cuda_h.is_file():
        raise ProbeError(
            f"the CUDA headers pinned for this build directory are gone ({cuda_h}): "
            "restore them, or re-probe with `meson setup --wipe BUILDDIR`"
        )
    toolkit = select_headers([Path(d) for d in include_dirs], found_via, read_cuda_version(cuda_h, names), names)
    toolkit.pinned = True
    toolkit.bindings_root = str(pinned.get("bindings_root", ""))
    return toolkit


def pin(pin_file: Path, cuda_path: str, toolkit: Toolkit, bindings: Bindings | None = None) -> None:
    """Record where the toolkit and cuda-bindings were found, for every later probe of this build
    directory: a regeneration or build step run from another shell (another CUDA_PATH, another
    PYTHONPATH) reads what is there now, never something else."""
    record = {
        "cuda_path_option": cuda_path,
        "python_prefix": python_prefix(),
        "include_dirs": toolkit.include_dirs,
        "cuda_h": toolkit.cuda_h,
        "found_via": toolkit.found_via,
        "bindings_root": bindings.pxd_root if bindings else "",
    }
    write_atomically(pin_file, json.dumps(record, indent=2) + "\n")


def probe(
    cuda_path: str,
    requested_major: str,
    headers_only: bool = False,
    environ: dict[str, str] | None = None,
    pin_file: Path | None = None,
    names: OptionNames = MESON_OPTIONS,
) -> tuple[Toolkit, Bindings | None]:
    """Find (or take the pinned) toolkit and check it, and unless ``headers_only`` the bindings."""
    toolkit = load_pinned(pin_file, cuda_path) if pin_file else None
    if toolkit is None:
        toolkit = find_toolkit(cuda_path, dict(os.environ if environ is None else environ), names)
    check_toolkit(toolkit, requested_major, names)
    return toolkit, None if headers_only else check_bindings(toolkit)


def report(toolkit: Toolkit, bindings: Bindings | None) -> dict[str, object]:
    """The probe's result as one JSON-ready dict."""
    return {
        "major": toolkit.major,
        "minor": toolkit.minor,
        "cuda_version": toolkit.cuda_version,
        "include_dirs": toolkit.include_dirs,
        "header_sources": toolkit.sources,
        "found_via": toolkit.found_via,
        "pinned": toolkit.pinned,
        "cuda_h": toolkit.cuda_h,
        "bindings_version": bindings.version if bindings else None,
        "pxd_root": bindings.pxd_root if bindings else None,
        "bindings_requirement": bindings_requirement(toolkit.major, toolkit.minor),
    }


def drop_editable_finders() -> None:
    """Let the probe see the environment as installed: importing cuda.pathfinder through an
    editable cuda.core's finder would start a second build in the build dir being built."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ not in EDITABLE_FINDERS]
