# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda-core's PEP 517 backend: mesonpy, plus what it does not do: requirements and METADATA per CUDA major, the
target's major (pip and uv do not say it), a lock on the build directory, an sdist without git, editables."""

import contextlib
import dataclasses
import functools
import gzip
import hashlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import site
import sys
import sysconfig
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cuda_core_build import facts, frontend

try:
    import mesonpy
except ImportError as missing:  # a build without isolation, in an environment that lacks the build tools
    _install = "uv pip install" if getattr(frontend.frontend(), "name", "") == "uv" else "pip install"
    raise SystemExit(
        f"cuda-core: the build tools are not installed for {sys.executable} (no module named {missing.name}), and a "
        f"build without isolation uses the environment's own: install them first: "
        f"{_install} {' '.join(map(repr, facts.tool_ranges()))}"
    ) from None

from cuda_core_build import common, editable, probe, record, steps, version
from cuda_core_build.probe import ConfigSettings, ProbeError, from_settings, meson_option, misspelled, setup_args
from cuda_core_build.wheel_files import Wheel, join_metadata, metadata_headers


def _log(message: str) -> None:
    print(f"cuda-core backend: {message}", flush=True)


def install_site_dirs() -> list[Path]:
    """Where this Python installs: in pip's isolated build, the target environment's site-packages."""
    return list(dict.fromkeys(Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")))


def tools_outside(site_dirs: list[Path] | tuple[Path, ...]) -> bool:
    """Whether the build's tools come from outside ``site_dirs``: an isolated build."""
    return not any(Path(mesonpy.__file__).resolve().is_relative_to(d) for d in site_dirs)


@dataclasses.dataclass(frozen=True)
class Target:
    """The environment an install goes into, read once per hook (install_target)."""

    bindings: str | None  # its cuda-bindings' version, if it can be read
    where: str
    why: str  # why the target cannot be told, or ''
    isolated: bool  # the hooks run in a build environment of their own


@functools.cache
def install_target(site_dirs: tuple[Path, ...]) -> Target:
    """Where an install goes. pip runs the hooks with the target's Python (``site_dirs``: its isolation shows as tools
    from outside them); uv and build run them in an environment of their own, so the target is read from the
    frontend's process: its ``--python``/``--target``, else its VIRTUAL_ENV, CONDA_PREFIX or the project's
    ``.venv``, as uv looks; for build, its own interpreter's environment."""
    if tools_outside(site_dirs):
        found = next(iter(importlib.metadata.distributions(name="cuda-bindings", path=list(map(str, site_dirs)))), None)
        return Target(found.version if found else None, str(site_dirs[0]), "", True)
    front = frontend.frontend()
    if front is None or front.name not in ("uv", "build"):
        return Target(None, "", "", False)  # pip without isolation, or a frontend that runs the hooks in its target
    place, why = frontend.target(front)
    if place is None:  # uv's isolation shows nothing to tools_outside: its command line says
        flag = "--no-build-isolation" in front.argv or front.environ.get("UV_NO_BUILD_ISOLATION")
        return Target(None, "", why, front.name == "uv" and not flag)
    if place.resolve() == Path(sys.prefix).resolve():  # a build without isolation
        return Target(None, "", "", False)
    return Target(frontend.bindings_version(place), str(place), "", True)


def seen_bindings() -> tuple[str, str] | None:
    """A cuda-bindings the frontend's environment shows (its VIRTUAL_ENV, CONDA_PREFIX, project .venv), and where."""
    if (front := frontend.frontend()) is None:
        return None
    places = [front.path(front.environ[v]) for v in ("VIRTUAL_ENV", "CONDA_PREFIX") if front.environ.get(v)]
    for place in filter(None, [*places, frontend.project_venv(front.cwd)]):
        if found := frontend.bindings_version(place):
            return found, str(place)
    return None


def major_of(version_text: str | None) -> int | None:
    """The supported CUDA major of a cuda-bindings version, else None."""
    major = (version_text or "").split(".")[0]
    return int(major) if major.isdigit() and int(major) in facts.supported_majors() else None


def default_major(settings: ConfigSettings) -> int:
    """The major the headers found decide on (CUDA 13 where there are none), as cuda_requirements chooses."""
    try:
        return probe.find_toolkit(from_settings(settings)).major
    except probe.MissingHeaders as err:
        return err.toolkit.major if err.toolkit else probe.environment_minor()[0]


def extra_major(settings: ConfigSettings) -> int | None:
    """The major the extra ``cuNN`` on the frontend's command line asks for (``pip install ".[cu12]"``, as
    NVIDIA's ``cuda-core[cu12]``); a refusal where it cannot be built or another major is asked for."""
    majors = sorted(int(e[2:]) for e in frontend.asked_extras(frontend.frontend(), facts.REPO_ROOT) if e[2:].isdigit())
    given, supported = meson_option(settings, "cuda-major", "auto"), facts.supported_majors()
    if not majors or (len(majors) == 1 and majors[0] in supported and given in ("auto", str(majors[0]))):
        return majors[0] if majors else None
    why = (
        "a wheel is of one major: ask for one (tools/release/merge_wheels.py joins two)"
        if len(majors) > 1
        else f"-Dcuda-major={given} asks for another: drop one"
        if majors[0] in supported
        else f"cuda-core builds for {', '.join(f'cu{m}' for m in supported)}: use one of those"
    )
    spelled = ",".join(f"cu{m}" for m in majors)
    raise ProbeError(f"the extra [{spelled}] asks for CUDA {' and '.join(map(str, majors))}, but {why}")


def with_major(settings: ConfigSettings, major: int | str, why: str) -> ConfigSettings:
    """``settings`` with ``-Dcuda-major=MAJOR`` added, saying ``why``."""
    _log(why)
    return {**(settings or {}), "setup-args": [*setup_args(settings), f"-Dcuda-major={major}"]}


def for_install_target(settings: ConfigSettings, site_dirs: list[Path]) -> tuple[ConfigSettings, str | None]:
    """A build asking no major and pointed at no toolkit is for the major its extra names, else of its target's
    cuda-bindings; where the target cannot be told but a cuda-bindings of another major than the default is in
    sight, a refusal."""
    if (asked := extra_major(settings)) and meson_option(settings, "cuda-major", "auto") == "auto":
        return with_major(settings, asked, f"the extra cu{asked} asks for CUDA {asked}: building for it"), None
    if meson_option(settings, "cuda-major", "") or from_settings(settings).pointed_at:
        return settings, None
    if nvidias := os.environ.get("CUDA_CORE_BUILD_MAJOR", "").strip():  # NVIDIA's build's variable: the same
        return with_major(settings, nvidias, f"CUDA_CORE_BUILD_MAJOR={nvidias}: building for CUDA {nvidias}"), None
    target = install_target(tuple(site_dirs))
    if (major := major_of(target.bindings)) is None:
        seen = seen_bindings() if target.why else None
        if seen and (theirs := major_of(seen[0])) and theirs != (default := default_major(settings)):
            raise ProbeError(
                f"{target.why}, so it is not known which environment this build is for; cuda-bindings {seen[0]} is in "
                f"{seen[1]}, and this build would be for CUDA {default}: say which major, e.g. "
                f"-Csetup-args=-Dcuda-major={theirs}"
            )
        return settings, None
    why = (
        f"cuda-bindings {target.bindings} is installed in {target.where}: building for CUDA {major}, which keeps it "
        f"(-Csetup-args=-Dcuda-major=N builds for another major, which then replaces it)"
    )
    return with_major(settings, major, why), target.bindings


def cuda_requirements(settings: ConfigSettings, installed: str | None = None) -> list[str]:
    """cuda-bindings of the headers found, else header wheels of ``installed``'s minor: a newer's build may not load."""
    request, why = from_settings(settings), ""
    try:
        toolkit = probe.find_toolkit(request)
        if request.major not in (None, toolkit.major) and not request.pointed_at:
            major = request.major
            why = f"the CUDA {toolkit.major} headers found via {toolkit.found_via} are not the CUDA {major} asked for"
        else:
            probe.check_toolkit(toolkit, request)
    except ProbeError as err:
        if request.pointed_at or not isinstance(err, probe.MissingHeaders):
            raise
        major, why = request.major or (err.toolkit.major if err.toolkit else probe.environment_minor()[0]), str(err)
    if not why:
        pin = f"cuda-bindings=={toolkit.major}.{toolkit.minor}.*"
        _log(f"CUDA {toolkit.major}.{toolkit.minor} headers via {toolkit.found_via}: requiring {pin}")
        return [pin]
    minor = ".".join((installed or "").split(".")[:2])
    minor = minor if minor in facts.cuda_minors(major) else facts.default_cuda(major)
    _log(f"{why}; building against NVIDIA's CUDA {minor} header wheels (requirements/matrix.ini)")
    return list(facts.requirements(facts.cuda_pins(minor)))


def _requires(
    hook: Callable[[ConfigSettings], list[str]], config_settings: ConfigSettings = None, *, editable: bool = False
) -> list[str]:
    """mesonpy's ``hook``'s requirements, tool ranges, CUDA packages (``editable``: mesonpy's hook is its wheel's)."""
    if editable:
        refuse_isolated_editable()
    with _hook(config_settings):
        settings, installed = for_install_target(config_settings, install_site_dirs())
        return [*hook(settings), *facts.tool_ranges(), *cuda_requirements(settings, installed)]


def get_requires_for_build_sdist(config_settings: ConfigSettings = None) -> list[str]:
    """mesonpy's and the build tools: no cuda-bindings or headers, which an sdist does not need (build_sdist)."""
    with _hook(config_settings):
        return [*mesonpy.get_requires_for_build_sdist(config_settings), *facts.tool_ranges()]


get_requires_for_build_wheel = functools.partial(_requires, mesonpy.get_requires_for_build_wheel)
get_requires_for_build_editable = functools.partial(_requires, mesonpy.get_requires_for_build_editable, editable=True)


@contextlib.contextmanager
def _hook(settings: ConfigSettings = None) -> Iterator[None]:
    """Every hook's start (the environment as installed, a version), and a refusal of the build as pip's one line."""
    probe.drop_editable_finders()
    try:
        misspelled(setup_args(settings))
        version.version()
        yield
    except (ProbeError, version.VersionError) as err:
        raise SystemExit(f"cuda-core: {err}") from None


def tool_path(module: str, script: str) -> str | None:
    """The real path of ``script`` installed beside the package ``module`` (PREFIX/bin), else on PATH."""
    with contextlib.suppress(ImportError, TypeError, IndexError):
        candidate = Path(__import__(module).__file__).resolve().parents[4] / "bin" / script
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(script)
    return os.path.realpath(found) if found else None


def build_path(path: str) -> str:
    """PATH for the build: each directory reached through a link by its real path, in its place (Meson keeps the
    path by which it found ccache in every compile command, and a build would stop once a link on that path is
    removed: issue 41, E24); and last, the bin/ of a venv tools/dev/devenv.py made, where PATH has no ccache, so an
    install from it compiles through its ccache, as its Cython steps use the Cython cache."""
    scripts = sysconfig.get_path("scripts")
    if common.in_devenv_venv() and not shutil.which("ccache", path=path) and shutil.which("ccache", path=scripts):
        path = os.pathsep.join([path, scripts])
    entries = path.split(os.pathsep)
    return os.pathsep.join(os.path.realpath(e) if os.path.isabs(e) and os.path.isdir(e) else e for e in entries)


def refuse_a_moved_build_dir(build_dir: Path) -> None:
    """One line for a build directory that Meson set up elsewhere, or for other sources: Meson cannot follow a move
    (its reconfigure fails with a traceback, its regeneration makes an empty directory where the sources were)."""
    try:
        directories = json.loads((build_dir / "meson-info" / "meson-info.json").read_text())["directories"]
        source, build = Path(directories["source"]), Path(directories["build"])
    except (OSError, ValueError, KeyError, TypeError):
        return  # not set up yet (or not by Meson): meson-python sets it up
    if source.resolve() != facts.REPO_ROOT.resolve() or build.resolve() != build_dir.resolve():
        raise SystemExit(
            f"cuda-core: the build directory {build_dir} was set up as {build} for the sources at {source}, and Meson "
            f"cannot follow a move: set it up again for these sources (meson setup --wipe {build_dir} "
            f"{facts.REPO_ROOT}), or give another build-dir"
        )


@contextlib.contextmanager
def building(settings: dict[str, Any]) -> Iterator[Path]:
    """The build directory (chosen here, so its record can be read after), locked, meson and ninja by real
    path, and PATH through no link."""
    saved = {name: os.environ.get(name) for name in ("MESON", "NINJA", "PATH")}
    executable = sys.executable
    with contextlib.ExitStack() as stack:
        if "build-dir" not in settings and "builddir" not in settings:
            settings["build-dir"] = stack.enter_context(tempfile.TemporaryDirectory(prefix=".mesonpy-", dir=Path.cwd()))
        build_dir = Path(settings.get("build-dir", settings.get("builddir", ""))).absolute()
        build_dir.mkdir(parents=True, exist_ok=True)
        refuse_a_moved_build_dir(build_dir)
        stack.enter_context(editable.locked(build_dir, sys.stderr))
        try:
            for name, module in (("MESON", "mesonbuild"), ("NINJA", "ninja")):
                os.environ[name] = saved[name] or tool_path(module, name.lower()) or name.lower()
            os.environ["PATH"] = build_path(saved["PATH"] or os.defpath)
            # mesonpy names sys.executable in its native file, which Meson keeps in every custom command:
            # the venv's Python by its real folder (its own link to the base Python is the venv's)
            sys.executable = os.path.join(os.path.realpath(os.path.dirname(executable)), os.path.basename(executable))
            yield build_dir
        finally:
            sys.executable = executable
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)


def metadata_for_major(metadata: str, major: int) -> str:
    """METADATA of a wheel of one major: pyproject.toml's cuda-bindings range narrowed to that major, and its extra
    alone of the two it declares."""
    lines, body = metadata_headers(metadata)
    others = [f"cu{m}" for m in facts.supported_majors() if m != major]
    drop = [f"Provides-Extra: {extra}" for extra in others]
    kept = [line for line in lines if line not in drop and not line.endswith(tuple(f'extra == "{e}"' for e in others))]
    ranged = re.compile(r"Requires-Dist: cuda-bindings ?[<>=!~][^;]*$")
    return join_metadata([f"Requires-Dist: cuda-bindings=={major}.*" if ranged.match(ln) else ln for ln in kept], body)


def _build(
    build: Callable[..., str],
    wheel_directory: str,
    config_settings: ConfigSettings = None,
    metadata_directory: str | None = None,
) -> str:
    """A wheel hook: mesonpy's ``build``'s wheel, with METADATA for its build directory's major; an editable's files."""
    with _hook(config_settings):
        if build is mesonpy.build_editable:
            refuse_isolated_editable()
            settings, major = editable_build_dir(config_settings)
            _log(f"editable build for CUDA {major} in {settings['build-dir']}")
        else:
            settings = dict(for_install_target(config_settings, install_site_dirs())[0] or {})
    with building(settings) as build_dir:
        name = build(wheel_directory, settings, metadata_directory)
        major = record.read(build_dir).major
    wheel = Wheel.read(Path(wheel_directory) / name)
    metadata = wheel.dist_info("METADATA")
    extra = _editable_files(wheel, build_dir) if build is mesonpy.build_editable else {}
    for file, data in {metadata: metadata_for_major(wheel.text(metadata), major).encode(), **extra}.items():
        wheel.put(file, data)
    wheel.write(Path(wheel_directory) / name)
    return name


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    if (sdist := version.unpacked_sdist(facts.REPO_ROOT)) is not None:
        return repack_sdist(facts.REPO_ROOT, sdist, Path(sdist_directory))
    os.environ[steps.SDIST_ONLY] = "1"  # configure without a toolkit: `meson dist` configures the project first
    try:
        with _hook(config_settings), building(dict(config_settings or {})):
            name = mesonpy.build_sdist(sdist_directory, config_settings)
    finally:
        os.environ.pop(steps.SDIST_ONLY, None)
    with_dynamic_metadata(Path(sdist_directory) / name)
    return name


def with_dynamic_metadata(sdist: Path) -> None:
    """The sdist's PKG-INFO says that each wheel writes its own Requires-Dist and Provides-Extra (PEP 643), which
    meson-python does not: a resolver that trusted it without building left cuda-bindings out. Else byte for byte."""
    raw = sdist.read_bytes()
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as source:
        members = [(m, (source.extractfile(m) or io.BytesIO()).read() if m.isfile() else None) for m in source]
        form = source.format
    packed = io.BytesIO()
    with gzip.GzipFile(fileobj=packed, mode="wb", mtime=int.from_bytes(raw[4:8], "little")) as zipped:
        with tarfile.open(fileobj=zipped, mode="w", format=form) as target:
            for member, data in members:
                if data is not None and member.name.count("/") == 1 and member.name.endswith("/PKG-INFO"):
                    lines, body = metadata_headers(data.decode())
                    data = join_metadata([*lines, "Dynamic: Requires-Dist", "Dynamic: Provides-Extra"], body).encode()
                    member.size = len(data)
                target.addfile(member, io.BytesIO(data) if data is not None else None)
    sdist.write_bytes(packed.getvalue())


def repack_sdist(root: Path, version_text: str, directory: Path) -> str:
    """The sdist of an unpacked sdist (no .git, so Meson's dist cannot run there): its files as they are, its
    PKG-INFO and so its version included, build directories and caches left out."""
    name = f"cuda_core-{version_text}"
    built = {p.parent for p in root.rglob("meson-private")} | set(root.glob(".mesonpy*"))
    files = [p for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or None
    directory.mkdir(parents=True, exist_ok=True)
    with tarfile.open(directory / f"{name}.tar.gz", "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in (p for p in files if not any(d in p.parents for d in built)):
            info = archive.gettarinfo(str(path), f"{name}/{path.relative_to(root).as_posix()}")
            info.uid, info.gid, info.uname, info.gname = 0, 0, "", ""
            info.mtime = epoch if epoch is not None else info.mtime
            with path.open("rb") as data:
                archive.addfile(info, data)
    return f"{name}.tar.gz"


def environment_key() -> str:
    """A short name for this Python environment: its directory's name and a hash of its real path."""
    prefix = Path(sys.prefix).resolve()
    return f"{prefix.name}-{hashlib.sha256(str(prefix).encode()).hexdigest()[:8]}"


def editable_build_dir(config_settings: ConfigSettings) -> tuple[dict[str, Any], int]:
    """Settings with this environment's own build directory, build/<tag>-cu<major>-<environment>, and the major."""
    settings = dict(config_settings or {})
    toolkit, _ = probe.probe(from_settings(settings), headers_only=True)
    if (asked := extra_major(settings)) not in (None, toolkit.major):
        raise ProbeError(
            f"the extra [cu{asked}] asks for CUDA {asked}, but an editable install builds for the headers of its "
            f"environment, CUDA {toolkit.major} (via {toolkit.found_via}): install from a CUDA {asked} venv "
            f"(python3 tools/dev/devenv.py cu{asked}), or drop the extra"
        )
    if "build-dir" not in settings and "builddir" not in settings:
        tag = f"{sys.implementation.name[:2]}{sys.version_info.major}{sys.version_info.minor}"
        settings["build-dir"] = str(facts.REPO_ROOT / "build" / f"{tag}-cu{toolkit.major}-{environment_key()}")
    return settings, toolkit.major


def refuse_isolated_editable() -> None:
    """An editable install rebuilds on import with the tools it was made with: not an isolated build's."""
    target = install_target(tuple(install_site_dirs()))
    by_uv = target.isolated and getattr(frontend.frontend(), "name", "") == "uv"
    if not by_uv and not tools_outside((*install_site_dirs(), Path(site.getusersitepackages()).resolve())):
        return
    # The major of the cuda-bindings the install is for, or in sight; the newest supported where there is none.
    major = major_of(target.bindings or (seen_bindings() or ("",))[0]) or facts.supported_majors()[-1]
    install = (
        f"uv pip install --python .venvs/cu{major}/bin/python"
        if by_uv
        else f".venvs/cu{major}/bin/python -m pip install"
    )
    raise SystemExit(
        f"cuda-core: an editable install rebuilds on import with the build tools it was made with, but this "
        f"build's tools are in a temporary isolated environment ({Path(mesonpy.__file__).resolve().parents[1]}) "
        f"that is deleted after the install: make a venv that keeps them and install from it, in the repository "
        f"root: python3 tools/dev/devenv.py cu{major} && {install} --no-build-isolation -e .; or keep them in "
        f"your own environment: {'uv pip' if by_uv else 'pip'} install {' '.join(map(repr, facts.tool_ranges()))}, "
        f"then install with --no-build-isolation -e ."
    )


def _editable_files(wheel: Wheel, build_dir: Path) -> dict[str, bytes]:
    """The bootstrap's .pth (editable.py from the sources, else an ImportError saying they are gone), and mypy's."""
    gone = f"cuda.core is installed editable from {facts.REPO_ROOT}, which is gone: uninstall it, or reinstall it"
    bootstrap = (
        f'"""Start the editable cuda.core built in {build_dir}."""\nimport importlib.util\nimport sys\n\n\n'
        "class _SourceGone:\n    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == 'cuda.core' or name.startswith('cuda.core.'):\n            raise ImportError({gone!r})\n\n\n"
        f"def install():\n    spec = importlib.util.spec_from_file_location('_cuda_core_editable', {editable.__file__!r})\n"
        "    module = importlib.util.module_from_spec(spec)\n    try:\n        spec.loader.exec_module(module)\n"
        "    except OSError:\n        sys.meta_path.insert(0, _SourceGone())\n        return\n"
        f"    module.install({str(facts.REPO_ROOT)!r}, {str(build_dir)!r})\n"
    )
    pth = next(n for n in wheel.contents if n.endswith("-editable.pth"))
    return {
        pth: b"import _cuda_core_bootstrap; _cuda_core_bootstrap.install()\n",
        "_cuda_core_bootstrap.py": bootstrap.encode(),
        "cuda_core-editable-sources.pth": f"{facts.REPO_ROOT / 'cuda_core'}\n".encode(),
    }


build_wheel = functools.partial(_build, mesonpy.build_wheel)
build_editable = functools.partial(_build, mesonpy.build_editable)
