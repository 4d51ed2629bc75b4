# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The PEP 517 backend of cuda-core: a thin layer over mesonpy for builds against one CUDA major.

What it adds to mesonpy, and why:

* ``get_requires_for_build_*`` returns the exact build pins of the newest tool set of
  requirements/matrix.ini and a cuda-bindings pinned to the major and minor of the headers
  the probe finds. With no usable headers at all it requires NVIDIA's header wheels as well
  (the newest major's default cell), so ``pip install .`` works with no toolkit on the machine.
* An isolated build (pip's) with no ``-Dcuda-major`` builds for the major of the cuda-bindings
  already installed where the package goes, so installing it keeps them: built for the other
  major, the wheel would make pip replace them. pip runs the backend with the interpreter it
  installs for, so that environment's site-packages are this interpreter's own (the build's
  tools come from elsewhere). uv and ``python -m build`` run it in a build venv of their own,
  which shows nothing of the target: there the headers found decide, as before.
* Editable builds get the build directory ``build/<python tag>-cu<major>-<environment>``
  unless ``-Cbuild-dir`` is given, so no two venvs ever share one.
* Editable builds are refused in an isolated build environment, whose tools are deleted
  after the install while every later import would need them to rebuild.
* meson and ninja are taken by absolute path from the environment whose packages the
  build imports; every ninja run holds the build directory's lock
  (copied_into_wheels/build_lock.py). Cython is the build Python's ``-m cython``.
* The wheel's metadata requires the cuda-bindings major the wheel was built for, read
  from the facts its build directory's configure step laid out, and offers that major's extra.
* Editable wheels carry copied_into_wheels/editable_namespace.py (cuda.core shares the
  ``cuda`` namespace with cuda-bindings, meson-python#775; rebuilds on import take the
  build directory's lock and show progress; a deleted build directory is one clear
  ImportError) and build_lock.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import re
import shlex
import shutil
import site
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import mesonpy

from cuda_core_build import environment, facts, probe
from cuda_core_build.wheel_files import Wheel, bindings_extra, join_metadata, metadata_headers

COPIED_INTO_WHEELS = Path(__file__).resolve().parent / "copied_into_wheels"
# Python module whose environment holds each tool, and the tool's script name.
BUILD_TOOLS = {"MESON": ("mesonbuild", "meson"), "NINJA": ("ninja", "ninja")}
NAMESPACE_MODULE = "_cuda_core_editable_namespace"
LOCK_MODULE = "_cuda_core_build_lock"

ConfigSettings = dict[str, Any] | None


def _log(message: str) -> None:
    print(f"cuda-core backend: {message}", flush=True)


def _setup_args(config_settings: ConfigSettings) -> list[str]:
    value = (config_settings or {}).get("setup-args", [])
    items = [value] if isinstance(value, str) else list(value)
    return [arg for item in items for arg in shlex.split(item)]


def meson_option(config_settings: ConfigSettings, name: str, default: str) -> str:
    """The value of ``-D<name>=...`` in ``-Csetup-args``, last one winning."""
    value = default
    args = _setup_args(config_settings)
    for index, arg in enumerate(args):
        if arg == "-D" and index + 1 < len(args):
            arg = "-D" + args[index + 1]
        if arg.startswith(f"-D{name}="):
            value = arg.split("=", 1)[1]
    return value


def _probe_headers(config_settings: ConfigSettings) -> probe.Toolkit:
    probe.drop_editable_finders()  # a reinstall must not rebuild the installed editable
    toolkit, _ = probe.probe(
        meson_option(config_settings, "cuda-path", ""),
        meson_option(config_settings, "cuda-major", "auto"),
        headers_only=True,
    )
    return toolkit


def header_wheels_of(major: int, why: str, installed: str | None = None) -> list[str]:
    """NVIDIA's header wheels and the cuda-bindings of a CUDA minor of ``major``: the minor of the
    cuda-bindings ``installed`` where the package goes when the matrix has it (a build against a
    newer minor's bindings may not load with older ones), else ``major``'s default cell's."""
    minor = facts.default_cell(major).cuda
    installed_minor = ".".join((installed or "").split(".")[:2])
    if installed_minor in facts.cuda_minors(major):
        minor = installed_minor
    _log(f"{why}; building against NVIDIA's CUDA {minor} header wheels (requirements/matrix.ini)")
    return list(facts.requirements(facts.cuda_pins(minor)))


def install_site_dirs() -> list[Path]:
    """Where this Python installs packages. pip runs the backend with the interpreter it installs
    for, so in pip's isolated build these are the target environment's site-packages."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys(Path(paths[key]).resolve() for key in ("purelib", "platlib")))


def tools_outside(site_dirs: list[Path]) -> bool:
    """Whether this build's tools (mesonpy) come from outside ``site_dirs``: an isolated build."""
    tools = Path(mesonpy.__file__).resolve()
    return not any(tools.is_relative_to(directory.resolve()) for directory in site_dirs)


def installed_bindings(site_dirs: list[Path]) -> str | None:
    """The version of the cuda-bindings installed in ``site_dirs``, or None."""
    for distribution in importlib.metadata.distributions(path=[str(d) for d in site_dirs]):
        if re.sub(r"[-_.]+", "-", distribution.metadata["Name"] or "").lower() == "cuda-bindings":
            return distribution.version
    return None


def for_install_target(config_settings: ConfigSettings, site_dirs: list[Path]) -> tuple[ConfigSettings, str | None]:
    """The settings of an isolated build with no ``-Dcuda-major`` and no toolkit pointed at
    (``-Dcuda-path``, ``CUDA_PATH``, ``CUDA_HOME``), where ``site_dirs`` (the target
    environment) hold cuda-bindings of a supported major: ``-Dcuda-major`` of that major added, so
    that the wheel requires the bindings already there and pip keeps them. Returns the settings and
    that cuda-bindings version (None where nothing was added)."""
    if meson_option(config_settings, "cuda-major", "") or not tools_outside(site_dirs):
        return config_settings, None
    if meson_option(config_settings, "cuda-path", "") or os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME"):
        return config_settings, None  # a toolkit the user pointed at decides the major
    version = installed_bindings(site_dirs)
    major = version.split(".")[0] if version else ""
    if not major.isdigit() or int(major) not in facts.supported_majors():
        return config_settings, None
    _log(
        f"cuda-bindings {version} is installed in {site_dirs[0]}: building for CUDA {major}, which keeps it "
        f"(-Csetup-args=-Dcuda-major=N builds for another major, and pip then installs its cuda-bindings)"
    )
    return {**(config_settings or {}), "setup-args": [*_setup_args(config_settings), f"-Dcuda-major={major}"]}, version


def cuda_requirements(config_settings: ConfigSettings, installed: str | None = None) -> list[str]:
    """cuda-bindings for the headers found; or, where no headers the user pointed at are usable
    for the major asked for, that major's header wheels plus bindings (of the minor of the
    cuda-bindings ``installed`` in the target environment, where there are)."""
    explicit = (
        meson_option(config_settings, "cuda-path", "") or os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME")
    )
    try:
        requested = probe.parse_major(meson_option(config_settings, "cuda-major", "auto"))
        toolkit = probe.find_toolkit(meson_option(config_settings, "cuda-path", ""), dict(os.environ))
        if requested is not None and toolkit.major != requested and not explicit:
            # A toolkit nobody pointed at (/usr/local/cuda, the header wheels here) of another major.
            return header_wheels_of(
                requested,
                f"the CUDA {toolkit.major} headers found via {toolkit.found_via} are "
                f"not the CUDA {requested} asked for",
                installed,
            )
        probe.check_toolkit(toolkit, meson_option(config_settings, "cuda-major", "auto"))
    except probe.MissingHeaders as err:
        if explicit:
            raise SystemExit(f"cuda-core: {err}") from None
        major = requested or (err.toolkit.major if err.toolkit else facts.supported_majors()[-1])
        return header_wheels_of(major, str(err), installed)
    except probe.ProbeError as err:
        raise SystemExit(f"cuda-core: {err}") from None
    pin = probe.bindings_requirement(toolkit.major, toolkit.minor)
    _log(f"CUDA {toolkit.major}.{toolkit.minor} headers via {toolkit.found_via}: requiring {pin}")
    return [pin]


def _requires(mesonpy_hook: Callable[[ConfigSettings], list[str]], config_settings: ConfigSettings) -> list[str]:
    probe.drop_editable_finders()  # a reinstall must not rebuild the installed editable
    settings, installed = for_install_target(config_settings, install_site_dirs())
    return [*mesonpy_hook(settings), *facts.requirements(facts.tool_pins()), *cuda_requirements(settings, installed)]


def get_requires_for_build_sdist(config_settings: ConfigSettings = None) -> list[str]:
    # meson dist configures the project first, so the probe needs what a wheel build needs.
    return _requires(mesonpy.get_requires_for_build_sdist, config_settings)


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    return _requires(mesonpy.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    refuse_isolated_editable()
    return _requires(mesonpy.get_requires_for_build_editable, config_settings)


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    with recorded_tools():
        return mesonpy.build_sdist(sdist_directory, config_settings)


def tool_path(module: str, script: str) -> str | None:
    """The ``script`` installed beside the Python package ``module`` (PREFIX/bin), else on PATH."""
    with contextlib.suppress(ImportError, TypeError, IndexError):
        package_file = __import__(module).__file__
        scripts = Path(package_file).resolve().parents[4] / "bin" / script
        if scripts.is_file() and os.access(scripts, os.X_OK):
            return str(scripts)
    return shutil.which(script)


def locking_ninja(directory: Path, ninja: str) -> str:
    """A ninja for meson-python that holds the build directory's lock while the real one runs."""
    wrapper = directory / "ninja"
    wrapper.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} "
        f'{shlex.quote(str(COPIED_INTO_WHEELS / "build_lock.py"))} {shlex.quote(ninja)} "$@"\n'
    )
    wrapper.chmod(0o755)
    return str(wrapper)


@contextlib.contextmanager
def recorded_tools() -> Iterator[None]:
    """Point MESON and NINJA at absolute paths for the build's duration, NINJA through the lock of
    the build directory (copied_into_wheels/build_lock.py)."""
    saved = {name: os.environ.get(name) for name in BUILD_TOOLS}
    for name, (module, script) in BUILD_TOOLS.items():
        path = saved[name] or tool_path(module, script)
        if path:
            os.environ[name] = path
    scratch = tempfile.TemporaryDirectory(prefix="cuda-core-ninja-")
    if os.environ.get("NINJA"):
        os.environ["NINJA"] = locking_ninja(Path(scratch.name), os.environ["NINJA"])
    try:
        yield
    finally:
        scratch.cleanup()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def python_tag() -> str:
    """The interpreter tag of this Python, e.g. cp311."""
    from packaging import tags

    return f"{tags.interpreter_name()}{tags.interpreter_version()}"


def metadata_for_major(metadata: str, major: int) -> str:
    """METADATA of a wheel built for one major: it requires cuda-bindings of that major (so the
    plain install works), and offers that major's extra alone (the other could never import)."""
    lines, body = metadata_headers(metadata)
    last = max(
        (i for i, line in enumerate(lines) if line.startswith("Requires-Dist:") and ";" not in line),
        default=len(lines) - 1,
    )
    lines[last + 1 : last + 1] = [f"Requires-Dist: cuda-bindings=={major}.*"]
    extras_at = max(
        (i for i, line in enumerate(lines) if line.startswith(("Provides-Extra:", "Requires-Dist:"))),
        default=len(lines) - 1,
    )
    lines[extras_at + 1 : extras_at + 1] = bindings_extra(major)
    return join_metadata(lines, body)


def _patch(path: Path, changes: Callable[[Wheel], dict[str, bytes]]) -> None:
    """Rewrite the wheel at ``path`` with the files that ``changes`` derives from it."""
    wheel = Wheel.read(path)
    for name, data in changes(wheel).items():
        wheel.put(name, data)
    wheel.write(path)


def _metadata_change(wheel: Wheel, major: int) -> dict[str, bytes]:
    name = wheel.dist_info("METADATA")
    return {name: metadata_for_major(wheel.text(name), major).encode()}


def built_major(build_dir: Path) -> int:
    """The CUDA major a build directory was configured for, as its configure step laid it out."""
    return int(environment.read_facts(build_dir)["cuda_major"])


def build_wheel(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None
) -> str:
    settings, _ = for_install_target(config_settings, install_site_dirs())
    settings = dict(settings or {})
    with contextlib.ExitStack() as stack:
        if "build-dir" not in settings and "builddir" not in settings:
            # meson-python's own choice (a temporary directory beside the sources), made here so
            # that the major can be read from it afterwards.
            settings["build-dir"] = stack.enter_context(tempfile.TemporaryDirectory(prefix=".mesonpy-", dir=Path.cwd()))
        build_dir = Path(settings.get("build-dir", settings.get("builddir", ""))).absolute()
        with recorded_tools():
            name = mesonpy.build_wheel(wheel_directory, settings, metadata_directory)
        major = built_major(build_dir)
    _patch(Path(wheel_directory) / name, lambda wheel: _metadata_change(wheel, major))
    return name


def environment_key() -> str:
    """A short name for this Python environment: its directory's name and a hash of its path."""
    prefix = Path(sys.prefix).resolve()
    return f"{prefix.name}-{hashlib.sha256(str(prefix).encode()).hexdigest()[:8]}"


def editable_build_dir(config_settings: ConfigSettings) -> tuple[dict[str, Any], int]:
    """Settings with the default build dir of this environment filled in, and the probed major.

    The default is build/<python tag>-cu<major>-<environment>: two venvs of one Python and
    one major never share a build dir, so neither rebuilds the other's with its own tools."""
    settings = dict(config_settings or {})
    major = _probe_headers(settings).major
    if "build-dir" not in settings and "builddir" not in settings:
        settings["build-dir"] = str(facts.REPO_ROOT / "build" / f"{python_tag()}-cu{major}-{environment_key()}")
    return settings, major


def refuse_isolated_editable() -> None:
    """An editable install rebuilds on import with the build tools it was made with; in an isolated
    build those live in a temporary environment that is deleted after the install."""
    installed = [
        Path(p).resolve()
        for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], site.getusersitepackages())
    ]
    tools = Path(mesonpy.__file__).resolve()
    if not any(tools.is_relative_to(root) for root in installed):
        raise SystemExit(
            f"cuda-core: an editable install rebuilds on import with the build tools it was made with, "
            f"but this build's tools are in a temporary isolated environment ({tools.parents[1]}) that "
            f"is deleted after the install: make a venv that keeps them and install from it, in the "
            f"repository root: python3 tools/dev/devenv.py cu13 && "
            f".venvs/cu13/bin/python -m pip install --no-build-isolation -e . (cu12 for CUDA 12)"
        )


def _namespace_changes(wheel: Wheel, build_dir: Path) -> dict[str, bytes]:
    """The editable wheel's .pth, now starting meson-python's loader through our editable module
    (once per process); that module, with this install's directories and ninja; and the lock."""
    pth = next(n for n in wheel.contents if n.endswith("-editable.pth"))
    values = (
        f"SOURCE_DIR = {str(facts.REPO_ROOT)!r}\nBUILD_DIR = {str(build_dir)!r}\n"
        f"NINJA = {tool_path('ninja', 'ninja')!r}\n"
    )
    return {
        pth: f"import {NAMESPACE_MODULE}; {NAMESPACE_MODULE}.install()\n".encode(),
        f"{NAMESPACE_MODULE}.py": (COPIED_INTO_WHEELS / "editable_namespace.py").read_bytes() + values.encode(),
        f"{LOCK_MODULE}.py": (COPIED_INTO_WHEELS / "build_lock.py").read_bytes(),
    }


def build_editable(
    wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None
) -> str:
    refuse_isolated_editable()
    try:
        settings, major = editable_build_dir(config_settings)
    except probe.ProbeError as err:
        raise SystemExit(f"cuda-core: {err}") from None
    _log(f"editable build for CUDA {major} in {settings.get('build-dir', settings.get('builddir'))}")
    with recorded_tools():
        name = mesonpy.build_editable(wheel_directory, settings, metadata_directory)
    build_dir = Path(settings.get("build-dir", settings.get("builddir", ""))).absolute()
    _patch(
        Path(wheel_directory) / name,
        lambda wheel: {**_metadata_change(wheel, major), **_namespace_changes(wheel, build_dir)},
    )
    return name
