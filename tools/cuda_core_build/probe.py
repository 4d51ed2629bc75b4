# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What Meson's dependency('cuda') does not find: header wheels, CONDA_PREFIX, cuda-bindings; the one reader of the major.

What the user asked for is parsed once here (Meson takes ``-Dcuda_major`` silently), and messages spell the
options as that user does. Not through cuda-pathfinder's find_nvidia_header_directory: it puts CUDA_PATH after
the wheels and conda, where a toolkit pointed at must come first, and answers one library at a time."""

import importlib.metadata
import os
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuda_core_build import common, facts

DEFAULT_TOOLKIT = Path("/usr/local/cuda")
# Where NVIDIA's header wheels put each header under a sys.path entry, by major.
WHEEL_LAYOUTS = {
    13: dict.fromkeys(facts.REQUIRED_HEADERS, "nvidia/cu13/include"),
    12: {"cuda.h": "nvidia/cuda_runtime/include", "nvrtc.h": "nvidia/cuda_nvrtc/include",
         "cudaProfiler.h": "nvidia/cuda_profiler_api/include", "driver_types.h": "nvidia/cuda_runtime/include"},
}  # fmt: skip
# conda-forge's packages of each header (NVIDIA's component names): what an incomplete conda toolkit lacks.
CONDA_PACKAGES = {"cuda.h": "cuda-cudart-dev", "driver_types.h": "cuda-cudart-dev", "nvrtc.h": "cuda-nvrtc-dev",
                  "cudaProfiler.h": "cuda-profiler-api"}  # fmt: skip
EDITABLE_FINDERS = ("MesonpyMetaFinder", "SharedNamespaceFinder")  # importing cuda.* through them rebuilds
DEV_VENVS = facts.REPO_ROOT / ".venvs"  # tools/dev/devenv.py's venvs, one per cell
DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|define|undef)\b\s*(\w*)\s*(.*?)\s*$")
LITERAL = re.compile(r"^\(?\s*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\s*\)?$")


ConfigSettings = dict[str, Any] | None
# Meson keeps option names that start with a language (cuda is one) and takes such a -D without a word.
MISSPELLED = {"cuda_major": "cuda-major", "cuda_path": "cuda-path"}


class ProbeError(Exception):
    """A refusal of the build; its message is the one line that names the cause and the fix."""


@dataclass(frozen=True)
class Request:
    cuda_path: str = ""  # an os.pathsep list of toolkit roots, as given
    cuda_major: str = "auto"
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ), compare=False, repr=False)
    where: str = field(default_factory=os.getcwd, compare=False)  # what a relative root is taken from
    path_option: str = "-Dcuda-path"
    major_option: str = "-Dcuda-major"

    @property
    def major(self) -> int | None:
        """The major asked for (None: auto); an unsupported one is refused."""
        if self.cuda_major == "auto":
            return None
        if self.cuda_major.isdigit() and int(self.cuda_major) in facts.supported_majors():
            return int(self.cuda_major)
        choices = ", ".join(["auto", *map(str, facts.supported_majors())])
        raise ProbeError(f"{self.major_option}={self.cuda_major} is not a supported CUDA major: use one of {choices}")

    @property
    def pointed_at(self) -> tuple[str, str] | None:
        """(source, value) of the toolkit pointed at: the option, else CUDA_PATH, else CUDA_HOME."""
        environ = [(name, self.environ.get(name, "")) for name in ("CUDA_PATH", "CUDA_HOME")]
        return next(((s, v) for s, v in [(self.path_option, self.cuda_path), *environ] if v.strip()), None)


def invocation_dir(build_dir: str | os.PathLike[str] = "") -> str:
    """Where the user ran the tool that runs this: that process's cwd (Meson runs a step in the source directory, and
    $PWD is stale in a process started with another cwd); $PWD where meson-python ran Meson in ``build_dir``."""
    parent = common.readlink(f"/proc/{os.getppid()}/cwd")
    if parent and not (build_dir and os.path.realpath(parent) == os.path.realpath(build_dir)):
        return parent
    return os.environ.get("PWD") or os.getcwd()


def misspelled(args: list[str]) -> None:
    """Refuse a ``-Dcuda_major=N`` (or ``cuda_major = N`` as meson-private/cmd_line.txt keeps it) in ``args``."""
    for arg, after in zip(args, [*args[1:], ""]):
        name, _, value = (after if arg == "-D" else arg.removeprefix("-D")).partition("=")
        if name.strip() in MISSPELLED and value:
            right = f"-D{MISSPELLED[name.strip()]}={value.strip()}"
            raise ProbeError(
                f"-D{name.strip()} is no option of cuda-core: Meson takes it and ignores it (it keeps names that "
                f"start with a language, and cuda is one), so the build would not be for what you asked: use {right} "
                f"(pip and uv: -Csetup-args={right})"
            )


def setup_args(settings: ConfigSettings) -> list[str]:
    value = (settings or {}).get("setup-args", [])
    return [arg for item in ([value] if isinstance(value, str) else value) for arg in shlex.split(item)]


def meson_option(settings: ConfigSettings, name: str, default: str) -> str:
    """The value of ``-D<name>=...`` in ``setup-args``, the last one winning, as Meson reads them."""
    args, value = setup_args(settings), default
    for index, arg in enumerate(args):
        arg = "-D" + args[index + 1] if arg == "-D" and index + 1 < len(args) else arg
        value = arg.split("=", 1)[1] if arg.startswith(f"-D{name}=") else value
    return value


def from_settings(settings: ConfigSettings) -> Request:
    """The request of a PEP 517 build."""
    path, major = meson_option(settings, "cuda-path", ""), meson_option(settings, "cuda-major", "auto")
    return Request(path, major, where=invocation_dir())


class MissingHeaders(ProbeError):
    """No usable headers: the backend may require the header wheels instead."""

    def __init__(self, message: str, toolkit: "Toolkit | None" = None) -> None:
        super().__init__(message)
        self.toolkit = toolkit


@dataclass
class Toolkit:
    include_dirs: list[str]  # the directories that give the required headers, in search order
    sources: dict[str, str]  # each required header -> the directory that gives it
    found_via: str
    cuda_version: int

    major = property(lambda self: self.cuda_version // 1000)
    minor = property(lambda self: self.cuda_version % 1000 // 10)


@dataclass
class Package:
    version: str
    root: str
    dist_info: str

    major = property(lambda self: int(self.version.split(".")[0]))
    minor = property(lambda self: int((self.version.split(".") + ["0"])[1]))


def pointable(source: str) -> str:
    """What to point at a toolkit: the option or variable that named these headers, else CUDA_PATH."""
    return source if source.startswith("-D") or source in ("CUDA_PATH", "CUDA_HOME") else "CUDA_PATH"


def read_cuda_version(cuda_h: Path, source: str = "CUDA_PATH") -> int:
    """CUDA_VERSION as the preprocessor reads it (comments, ``#if 0``, ``#undef``, octal and hex), without a compiler
    (the backend asks before there is one); a refusal tells to point ``source`` at a toolkit."""
    comments = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
    text = comments.sub(lambda m: "\n" * m.group(0).count("\n"), cuda_h.read_text(errors="replace"))
    value, active = None, []  # active: per open #if, whether its branch counts (only #if 0's first is off)
    for directive, name, rest in (m.groups() for m in map(DIRECTIVE.match, text.splitlines()) if m):
        if directive.startswith("if"):
            active.append(not (directive == "if" and f"{name}{rest}".strip("() ") == "0"))
        elif directive in ("elif", "else", "endif") and active:
            active[-1:] = [True] if directive != "endif" else []
        elif name == "CUDA_VERSION" and all(active) and directive in ("define", "undef"):
            value = rest if directive == "define" else None
    if (literal := LITERAL.match(value or "")) is None:
        shown = "it defines no CUDA_VERSION" if value is None else f"CUDA_VERSION is {value!r}, not an integer literal"
        raise ProbeError(
            f"{cuda_h}: {shown}: it is not a CUDA toolkit's cuda.h; point {pointable(source)} at a complete CUDA toolkit"
        )
    digits = literal.group(1)
    return int(digits, 16 if digits[:2] in ("0x", "0X") else 8 if len(digits) > 1 and digits[0] == "0" else 10)


def select_headers(candidates: list[Path], source: str) -> Toolkit:
    """One toolkit's headers: each required one from the first of ``candidates`` that has it; no mixing."""
    found = {h: next((d for d in candidates if (d / h).is_file()), None) for h in facts.REQUIRED_HEADERS}
    if found["cuda.h"] is None:
        raise ProbeError(f"no cuda.h in {source}: point it at a CUDA toolkit")
    version = read_cuda_version(found["cuda.h"] / "cuda.h", source)
    for directory in candidates:
        other = read_cuda_version(directory / "cuda.h", source) if (directory / "cuda.h").is_file() else version
        layout = re.search(r"(?:^|/)nvidia/cu(\d+)(?:/|$)", directory.as_posix())
        clash = f"has CUDA {other // 1000}.{other % 1000 // 10}" if other != version else None
        if clash is None and layout and int(layout.group(1)) != version // 1000:
            clash = f"holds NVIDIA's CUDA {layout.group(1)} header wheels"
        if clash:
            raise ProbeError(
                f"{source} mixes toolkits: {found['cuda.h']} has CUDA {version // 1000}.{version % 1000 // 10} headers but {directory} {clash}: keep the entries of one toolkit in {source}"
            )
    sources = {h: str(d) for h, d in found.items() if d is not None}
    return Toolkit([str(d) for d in dict.fromkeys(candidates) if str(d) in sources.values()], sources, source, version)


def wheel_headers() -> Toolkit | None:
    """NVIDIA's header wheels on sys.path (pip's isolated builds, --target), of the installed bindings' major first."""
    entries = [Path(e).absolute() for e in filter(None, sys.path)]
    for _, layout in sorted(WHEEL_LAYOUTS.items(), key=lambda item: item[0] != environment_minor()[0]):
        found = {h: next((e / d for e in entries if (e / d / h).is_file()), None) for h, d in layout.items()}
        if found["cuda.h"] is not None:
            return select_headers(list(dict.fromkeys(d for d in found.values() if d is not None)), "header wheels")
    return None


def conda_headers(prefix: str) -> Toolkit | None:
    """An active conda environment's toolkit (CONDA_PREFIX), in conda's layout: the headers in
    PREFIX/targets/ARCH-linux/include, links to them in PREFIX/include."""
    targets = [d / "include" for d in sorted(Path(prefix, "targets").glob("*-linux"))] if prefix else []
    found = [d for d in [*targets, Path(prefix, "include")] if prefix and (d / "cuda.h").is_file()]
    return select_headers(found, "CONDA_PREFIX") if found else None


def pointed_toolkit(source: str, value: str, where: str) -> Toolkit:
    """The headers of the roots ``source`` names: ROOT/include, or ROOT where it has cuda.h."""
    roots = [Path(where) / Path(p.strip()).expanduser() for p in value.split(os.pathsep) if p.strip()]
    if os.pathsep in value and Path(value.strip()).expanduser().is_dir() and not all(r.is_dir() for r in roots):
        raise ProbeError(
            f"{source}={value!r} is one directory whose name holds {os.pathsep!r}, which separates the entries of "
            f"{source}: make a link to it whose path has no {os.pathsep!r}, and use that"
        )
    if not roots:
        raise ProbeError(
            f"{source}={value!r} names no directory: set it to a CUDA toolkit root, or unset it to use the header wheels"
        )
    dirs = [next((d for d in (r / "include", r) if (d / "cuda.h").is_file()), r / "include") for r in roots]
    if not any((d / "cuda.h").is_file() for d in dirs):
        looked = ", ".join(f"{r / 'include'} and {r}" for r in roots)
        raise ProbeError(
            f"no cuda.h under {source}={value!r} (looked in {looked}): point {source} at a CUDA toolkit, or "
            f"unset it to use the header wheels"
        )
    return select_headers([d.absolute() for d in dirs if d.is_dir()], source)


def find_toolkit(request: Request) -> Toolkit:
    """The headers, in the documented order: the toolkit pointed at, the header wheels, conda's, /usr/local/cuda."""
    if request.pointed_at:
        return pointed_toolkit(*request.pointed_at, request.where)
    found = wheel_headers() or conda_headers(request.environ.get("CONDA_PREFIX", "").strip())
    if found is None and (DEFAULT_TOOLKIT / "include" / "cuda.h").is_file():
        found = select_headers([DEFAULT_TOOLKIT / "include"], str(DEFAULT_TOOLKIT))
    if found is None:
        raise MissingHeaders(
            f"no CUDA headers found (no cuda.h): set CUDA_PATH or CUDA_HOME to a CUDA toolkit, pass "
            f"{request.path_option}=DIR, or {wheels_advice(*environment_minor())}"
        )
    return found


def check_toolkit(toolkit: Toolkit, request: Request) -> None:
    """Refuse an unsupported major, one the user did not ask for, and missing headers."""
    where, majors, asked = toolkit.include_dirs[0], facts.supported_majors(), request.major
    if toolkit.major not in majors:
        raise ProbeError(
            f"CUDA {toolkit.major}.{toolkit.minor} headers at {where} are not supported (supported majors: "
            f"{', '.join(map(str, majors))}): point CUDA_PATH or {request.path_option} at a supported toolkit"
        )
    if asked is not None and asked != toolkit.major:
        raise ProbeError(
            f"{request.major_option}={asked} but the headers at {where} (found via {toolkit.found_via}) are CUDA "
            f"{toolkit.major}.{toolkit.minor}: {stop_pointing(toolkit, request) or venv_hint(asked)}, point "
            f"{request.path_option} at CUDA {asked} headers, or use {request.major_option}=auto"
        )
    lacking = [h for h in facts.REQUIRED_HEADERS if h not in toolkit.sources]
    if not lacking:
        return
    # The header wheels of the major this environment's cuda-bindings are for (else the toolkit's): where the
    # user pointed at the toolkit, they serve only once the pointer is gone, so the advice says to drop it.
    ours = environment_minor((toolkit.major, toolkit.minor))
    fix = f"{wheels_advice(*ours)} (they come first), or point CUDA_PATH at a complete CUDA {ours[0]} toolkit"
    if toolkit.found_via == "CONDA_PREFIX":  # the env's own packages, of its toolkit's version
        packages = dict.fromkeys(f"{CONDA_PACKAGES[h]}={toolkit.major}.{toolkit.minor}" for h in lacking)
        fix = f"conda install -c conda-forge {' '.join(packages)} (the packages of {', '.join(lacking)}), or {fix}"
    if request.pointed_at:
        wheels = wheel_headers()
        stop = ("drop " if toolkit.found_via == request.path_option else "unset ") + toolkit.found_via
        use = f"{stop} and {wheels_advice(*ours)}"
        if wheels and wheels.major == ours[0] and len(wheels.sources) == len(facts.REQUIRED_HEADERS):
            use = f"{stop} to use the CUDA {wheels.major}.{wheels.minor} header wheels installed here"
        fix = f"{use}, or point it at a complete CUDA {toolkit.major} toolkit"
    raise MissingHeaders(
        f"{lacking[0]} not found in the CUDA {toolkit.major}.{toolkit.minor} headers at {os.pathsep.join(toolkit.include_dirs)} (via {toolkit.found_via}): {fix}",
        toolkit,
    )


def distribution(name: str, root: str = "") -> Package | None:
    """An installed distribution (in ``root`` if given), by its metadata: an import could rebuild an editable."""
    dist = next(iter(importlib.metadata.distributions(name=name, **({"path": [root]} if root else {}))), None)
    metadata = next((f for f in (dist.files or ()) if f.name == "METADATA"), None) if dist else None
    if dist is None or metadata is None:
        return None
    dist_info = Path(str(dist.locate_file(metadata))).absolute().parent
    return Package(dist.version, str(dist_info.parent), str(dist_info))


def environment_minor(otherwise: tuple[int, int | None] | None = None) -> tuple[int, int | None]:
    """The installed cuda-bindings' major and minor; else ``otherwise``, else the newest major."""
    bindings = distribution("cuda-bindings")
    if bindings and bindings.major in facts.supported_majors():
        return bindings.major, bindings.minor
    return otherwise or (facts.supported_majors()[-1], None)


def wheels_advice(major: int, minor: int | None = None) -> str:
    """The pip command that installs NVIDIA's header wheels of ``major.minor``, and that minor's cuda-bindings
    first where none is installed: everything the build lacks in one command, not one piece per run."""
    version = f"{major}.{minor}" if minor is not None else facts.default_cuda(major)
    names = facts.header_wheels(major, version if version in facts.cuda_minors(major) else None)
    names = names if distribution("cuda-bindings") else ("cuda-bindings", *names)
    return "pip install " + " ".join(f'"{name}=={version}.*"' for name in names)


def in_dev_venv() -> int | None:
    """The major of the project's dev venv running this (tools/dev/devenv.py's .venvs/cuNN), if it is one."""
    named = Path(sys.prefix).parent.name == DEV_VENVS.name and re.fullmatch(r"cu(\d+)", Path(sys.prefix).name)
    return int(named.group(1)) if named else None


def stop_pointing(toolkit: Toolkit, request: Request) -> str | None:
    """How to stop pointing at these headers, where the user does."""
    if request.pointed_at and toolkit.found_via == request.pointed_at[0]:
        verb = "drop" if toolkit.found_via == request.path_option else "unset"
        return f"{verb} {toolkit.found_via} (its headers are CUDA {toolkit.major}.{toolkit.minor})"
    return None


def venv_hint(major: int) -> str:
    """Where CUDA ``major`` headers and bindings are: that major's dev venv, if there is one."""
    venv = (Path(sys.prefix).parent if in_dev_venv() else DEV_VENVS) / f"cu{major}"
    if not (venv / "bin" / "activate").is_file() or in_dev_venv() == major:
        return f"use an environment with CUDA {major} headers and cuda-bindings {major}"
    made = re.search(r"""^VIRTUAL_ENV=["']?([^"'\n]+)""", (venv / "bin" / "activate").read_text(errors="replace"), re.M)
    if made and os.path.realpath(made.group(1)) != os.path.realpath(venv):  # moved: its scripts name the old place
        return (
            f"use the CUDA {major} environment {venv}, which was moved from {made.group(1)} and no longer works "
            f"there: move it back, or `mv {venv} {venv}.old && python3 tools/dev/devenv.py cu{major}`"
        )
    return f"activate the CUDA {major} environment (source {venv}/bin/activate)"


def check_bindings(toolkit: Toolkit, request: Request, root: str = "") -> Package:
    """The cuda-bindings installed (where the build directory found it first), if it fits the headers."""
    fix = f'pip install "cuda-bindings=={toolkit.major}.{toolkit.minor}.*"'
    fix = fix if in_dev_venv() in (None, toolkit.major) else venv_hint(toolkit.major)
    if (bindings := distribution("cuda-bindings", root)) is None:
        raise ProbeError(
            f"cuda-bindings is no longer installed in {root}, where this build directory found it: {fix} there, or "
            f"set the build directory up again (meson setup --wipe BUILDDIR)"
            if root
            else f"cuda-bindings is not installed for {sys.executable}: {fix}"
        )
    headers = f"CUDA {toolkit.major}.{toolkit.minor} headers (found via {toolkit.found_via})"
    if bindings.major != toolkit.major:
        # Where the user pointed at these headers, the other major may be meant; else this environment's is.
        stop = stop_pointing(toolkit, request)
        ours = f"{stop or wheels_advice(bindings.major, bindings.minor)} to build for the cuda-bindings installed here"
        fixes = [ours, fix] if stop or in_dev_venv() not in (None, toolkit.major) else [ours]
        raise ProbeError(
            f"cuda-bindings {bindings.version} of {sys.prefix} is for CUDA {bindings.major}, but the build uses "
            f"{headers}: {', or '.join(fixes)}, or point {pointable(toolkit.found_via)} at CUDA {bindings.major} headers"
        )
    if bindings.minor > toolkit.minor:
        raise ProbeError(
            f"cuda-bindings {bindings.version} was generated for CUDA {bindings.major}.{bindings.minor}, newer than the "
            f"{headers}, and its .pxd files would not compile: {fix}, or use CUDA {bindings.major}.{bindings.minor}+ headers"
        )
    if not (Path(bindings.root) / "cuda" / "bindings" / "cydriver.pxd").is_file():
        raise ProbeError(
            f"cuda-bindings {bindings.version} at {bindings.root} ships no cydriver.pxd: reinstall it: {fix}"
        )
    return bindings


def find_cython() -> Package:
    """The build Python's Cython, which the build runs as ``python -m cython``."""
    cython = distribution("Cython")
    if cython is None or not (Path(cython.root) / "Cython" / "Shadow.py").is_file():
        state = "is not installed" if cython is None else f"{cython.version} has no Cython/Shadow.py"
        raise ProbeError(
            f'Cython {state} for {sys.executable}: pip install --force-reinstall "Cython=={facts.cython_pin()}"'
        )
    return cython


def probe(request: Request, headers_only: bool = False) -> tuple[Toolkit, Package | None]:
    """The toolkit found and checked, and unless ``headers_only`` the cuda-bindings that fits it."""
    toolkit = find_toolkit(request)
    check_toolkit(toolkit, request)
    return toolkit, None if headers_only else check_bindings(toolkit, request)


def drop_editable_finders() -> None:
    """See the environment as installed: an editable cuda.core's finder would rebuild it on import."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ not in EDITABLE_FINDERS]
