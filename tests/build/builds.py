# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build tests' shared pieces: the pinned venvs, real meson/ninja runs, and the session's
one build per major (SessionBuilds), which every other test shares.

Every build here is real: meson, ninja, Cython and g++ from the pinned venvs of
tools/dev/devenv.py, against the CUDA 12 and CUDA 13 header wheels installed there. Those are
the test runners' own venvs (build/.venvs/cu12, cu13; made here where missing), never the
user's .venvs/: the editable tests install into them and uninstall again, which would take
away an editable install the user keeps there.

One scratch checkout holds the session's builds: ``build-cu13``, then ``build-cu12``,
then ``build-cu13`` again (the round trip, tests/test_round_trip.py). Everything else
shares them: wheels come from them through meson-python's ``-Cbuild-dir``, the exact-
rebuild tests ask their ninja what it would do, the fault tests work on copies.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import devenv
import pytest
from cuda_core_build import facts

REPO_ROOT = Path(__file__).resolve().parents[2]
MAJORS = facts.supported_majors()
PROBE = REPO_ROOT / "tools" / "dev" / "cuda_probe.py"  # what the build's probe finds, as a user asks it
# The interpreter the test venvs were made from: no cuda-bindings, no header wheels, no build tools.
BASE_PYTHON = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def bindings_pin(major: int) -> str:
    """The cuda-bindings version that ``major``'s default cell pins."""
    return facts.cuda_pins(facts.default_cuda(major))["cuda-bindings"]


@dataclass(frozen=True)
class Venv:
    """One pinned environment of tools/dev/devenv.py."""

    major: int
    root: Path

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def site_packages(self) -> Path:
        return self.root / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"

    def env(self, activated: bool = True, **updates: str) -> dict[str, str]:
        """os.environ without CUDA_PATH/CUDA_HOME, with this venv first on PATH if ``activated``."""
        env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV", "PYTHONPATH")}
        if activated:
            env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
            env["VIRTUAL_ENV"] = str(self.root)
        else:
            env["PATH"] = "/usr/bin:/bin"
        env.update(updates)
        return env


@functools.cache
def venv_for(major: int) -> Venv:
    """The build tools of ``major``: the default cell's venv under build/.venvs/ (the test runners'
    own), made or checked by devenv once per session."""
    cell = devenv.default_cell(major).name
    try:
        return Venv(major, devenv.ensure(cell, root=devenv.TEST_VENVS_DIR).parent.parent)
    except (devenv.PythonMissing, subprocess.CalledProcessError) as err:
        pytest.fail(f"making {devenv.venv_dir(cell, devenv.TEST_VENVS_DIR)} failed: {err}")


PROGRESS = re.compile(r"^\s*(\[\d+/\d+\])")  # ninja's progress, as a build's own output or pip -v's shows it
PROGRESS_SECONDS = 30.0
# Where a long build says how far it is; tests/build/conftest.py points it past pytest's capture.
progress: Callable[[str], None] | None = None


def system_path(venv: Venv, launcher: Path) -> str:
    """PATH of ``venv``'s bin, then ccache alone of the suite's tools (linked in ``launcher``, made here: Meson
    compiles through the suite's one cache), then the system's directories."""
    launcher.mkdir()
    (launcher / "ccache").symlink_to(shutil.which("ccache") or "/usr/bin/ccache")
    return os.pathsep.join([str(venv.bin), str(launcher), "/usr/local/bin", "/usr/bin", "/bin"])


def run(cmd: list[str | Path], env: dict[str, str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing text; on failure show its output in the assertion. A build that
    runs for long says how far ninja is (``[k/N]``), at most every PROGRESS_SECONDS."""
    command = [str(c) for c in cmd]
    process = subprocess.Popen(command, env=env, cwd=cwd, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    said = [time.monotonic()]

    def read(stream: IO[str], into: list[str]) -> None:
        for line in stream:
            into.append(line)
            found = PROGRESS.match(line)
            if found and progress and time.monotonic() - said[0] >= PROGRESS_SECONDS:
                said[0] = time.monotonic()
                progress(f"  {Path(command[0]).name} in {cwd.name}: {found.group(1)}")

    out: list[str] = []
    err: list[str] = []
    errors = threading.Thread(target=read, args=(process.stderr, err), daemon=True)
    errors.start()
    read(process.stdout, out)  # type: ignore[arg-type]
    errors.join()
    result = subprocess.CompletedProcess(command, process.wait(), "".join(out), "".join(err))
    if check and result.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
        )
    return result


TOOLS = ("cython", "meson", "meson-python", "ninja")  # what an isolated build installs to compile


def tool_constraints(venv: Venv, path: Path) -> Path:
    """``venv``'s build tools as exact pins, written to ``path`` (a constraints file, for pip's
    PIP_CONSTRAINT and uv's UV_BUILD_CONSTRAINT, which reach their isolated build environments too).
    An isolated build then runs the suite's pinned tools, not what PyPI published since: its C++
    matches the session's, byte for byte and in the Cython and C++ caches."""
    code = "import importlib.metadata as m, sys; print(*(f'{n}=={m.version(n)}' for n in sys.argv[1:]), sep='\\n')"
    path.write_text(run([venv.python, "-c", code, *TOOLS], venv.env(), path.parent).stdout)
    return path


GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"]


def copy_checkout(target: Path) -> Path:
    """A scratch copy of the repo's tracked and unignored files, so tests can edit and build freely:
    a git repository of one commit, as the version (tools/cuda_core_build/version.py) and meson
    dist need."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO_ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        subprocess.run([*GIT, *args], cwd=target, capture_output=True, check=True)
    return target


def pip_wheel(
    venv: Venv, checkout: Path, build_dir: Path, out: Path, *options: str, check: bool = True, **env: str
) -> subprocess.CompletedProcess[str]:
    """pip's wheel of ``checkout`` into ``out``, built in ``build_dir`` with ``venv``'s tools, without
    isolation or dependencies; ``options``: more of pip's (``--no-index``)."""
    flags = ["-q", "--no-build-isolation", "--no-deps", *options, f"-Cbuild-dir={build_dir}", "-w", out]
    return run([venv.python, "-m", "pip", "wheel", *flags, checkout], venv.env(**env), checkout, check=check)


def meson_setup(
    venv: Venv, source: Path, build_dir: Path, *options: str, cwd: Path | None = None, check: bool = True, **env: str
) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "meson", "setup", build_dir, source, *options], venv.env(**env), cwd or source, check=check)


def meson_configure(
    venv: Venv, build_dir: Path, *options: str, check: bool = True, **env: str
) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "meson", "configure", build_dir, *options], venv.env(**env), build_dir, check=check)


def ninja(venv: Venv, build_dir: Path, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "ninja", "-C", build_dir, *args], venv.env(**env), build_dir, check=check)


CHECK_STEP = "cuda-config/environment.json"  # the build's first step, the content check (an output of it)


def dry_run(venv: Venv, build_dir: Path, *targets: str, **env: str) -> str:
    """What a plain ninja would do now beyond its checks, and why (``-n -d explain``), compiling nothing.

    Both checks run for real first, as every build starts with them: the sources' content check
    (always stale: it runs on every build) and the environment's (ninja cannot know before running it
    whether a content changed, so a plain dry run would list everything after it whenever any
    input's mtime moved). Then ``ninja -n`` runs with Meson's always-dirty phony satisfied (a file
    named PHONY, dated 1970, for the dry run alone): what it lists is what a real run would do after
    its checks, whose unchanged outputs (restat) drop every step that only waited for them.
    """
    check = ninja(venv, build_dir, CHECK_STEP, **env)
    with always_stale_satisfied(build_dir):
        result = ninja(venv, build_dir, "-n", "-d", "explain", *targets, **env)
    return check.stdout + result.stdout + result.stderr


NO_WORK = "ninja: no work to do."


def pending(venv: Venv, build_dir: Path, *targets: str, **env: str) -> str:
    """What ``ninja -n`` lists before any check has run, the always-run sources' check left out (its
    phony satisfied): whether ninja sees that an input moved."""
    with always_stale_satisfied(build_dir):
        return ninja(venv, build_dir, "-n", *targets, **env).stdout


def up_to_date(venv: Venv, build_dir: Path, *targets: str, **env: str) -> bool:
    """Whether a plain ninja of ``targets`` (all by default) would run no step but its checks."""
    return NO_WORK in dry_run(venv, build_dir, *targets, **env)


def settle(venv: Venv, build_dir: Path) -> None:
    """One real build that compiles and links nothing.

    After a source's content went back and forth, or a reconfigure (Meson's ``ninja -t restat`` forgets
    that a Cython step re-ran to the same C++, written only when it changed), such a step runs once more
    and compiles nothing; a dry run cannot know that (ninja skips restat in -n), so a real build settles it."""
    output = ninja(venv, build_dir).stdout
    assert not compile_steps(output) and "Linking target" not in output, output


def rebuilt_nothing(output: str) -> bool:
    """Whether a ninja run's ``output`` shows no Cython, compile or link step (its checks may have run)."""
    return not cython_steps(output) and not compile_steps(output) and "Linking target" not in output


@contextlib.contextmanager
def always_stale_satisfied(build_dir: Path) -> Iterator[None]:
    """Meson's always-stale steps (the sources' check) depend on the phony ``PHONY``, which ninja
    counts dirty while no file of that name exists; one dated 1970 makes them clean for a dry run."""
    phony = build_dir / "PHONY"
    phony.write_text("")
    os.utime(phony, (1, 1))
    try:
        yield
    finally:
        phony.unlink()


@dataclass(frozen=True)
class Uv:
    """The uv of the test tools, installing as users do: hard links from its cache."""

    path: Path
    cache: Path

    def env(self, **updates: str) -> dict[str, str]:
        plain = {
            k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV", "PYTHONPATH")
        }
        return {**plain, "UV_CACHE_DIR": str(self.cache), "UV_LINK_MODE": "hardlink", **updates}

    def venv(self, root: Path, python: str | Path, *requirements: str) -> Venv:
        """A fresh venv at ``root`` holding ``requirements``."""
        run([self.path, "venv", "--quiet", "--python", python, root], self.env(), root.parent)
        venv = Venv(0, root)
        if requirements:
            self.install(venv, *requirements)
        return venv

    def install(self, venv: Venv, *requirements: str) -> None:
        run([self.path, "pip", "install", "--quiet", "--python", venv.python, *requirements], self.env(), venv.root)

    def install_target(self, target: Path, *requirements: str) -> Path:
        """``requirements`` installed, without their dependencies, into the directory ``target``."""
        run(
            [self.path, "pip", "install", "--quiet", "--no-deps", "--target", target, *requirements],
            self.env(),
            target.parent,
        )
        return target


def backdate(root: Path, seconds: float = 10 * 24 * 3600) -> None:
    """Date every file under ``root`` (and ``root`` itself, if a file) ``seconds`` before now,
    directories left as they are: a package manager that keeps packaged mtimes (conda, uv's hard
    links from its cache) installs files older than the last build."""
    past = time.time() - seconds
    for path in [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()]:
        os.utime(path, (past, past))


def extension_modules(venv: Venv, build_dir: Path) -> dict[str, Path]:
    """Dotted module name -> built .so, for every extension module Meson builds (its own list,
    from ``meson introspect --targets``: the meson.build files are the one module list)."""
    targets = json.loads(run([venv.bin / "meson", "introspect", "--targets", build_dir], venv.env(), build_dir).stdout)
    modules = {}
    for target in targets:
        if target["type"] != "shared module":
            continue
        # Relative to its build dir (introspection names the dir a copied build was made in).
        relative = Path("cuda_core", target["filename"][0].rsplit("/cuda_core/", 1)[-1])
        package = relative.parent.relative_to("cuda_core")
        modules[".".join((*package.parts, target["name"].split(".", 1)[0]))] = build_dir / relative
    return modules


def module_of(path: str) -> str:
    """The dotted module of a source or output path under cuda_core/, e.g. cuda.core._memory._buffer."""
    relative = path.split("cuda_core/", 1)[-1]
    stem = relative.rsplit("/", 1)[-1].split(".", 1)[0].removeprefix("meson-generated_")
    return ".".join((*relative.rsplit("/", 1)[0].split("/"), stem))


def cython_steps(output: str) -> set[str]:
    """Modules whose Cython step ninja ran or would run, from its status lines
    ("Generating '.../NAME.cpython-...so.p/NAME.pyx.cpp'")."""
    return {
        module_of(line.split("'")[1].split(".so.p/", 1)[0])
        for line in output.splitlines()
        if "Generating '" in line and line.rstrip().endswith(".pyx.cpp'")
    }


def compile_steps(output: str) -> set[str]:
    """C++ objects ninja compiled or would compile, as their dotted module (a generated Cython
    source) or as ``cpp:OBJECT`` for plain C++ sources, e.g. 'cpp:_cpp_uuid_format'."""
    steps = set()
    for line in output.splitlines():
        if "Compiling C++ object" in line:
            obj = line.rsplit("/", 1)[-1]
            if obj.startswith("meson-generated_"):
                steps.add(module_of(line.split(".so.p/", 1)[0] + ".so"))
            else:
                steps.add("cpp:" + obj.removesuffix(".cpp.o"))
    return steps


@contextlib.contextmanager
def touched(path: Path) -> Iterator[None]:
    """``path`` newer than every output built so far (now: Meson refuses mtimes in the future), its
    content unchanged; its old mtime given back afterwards."""
    before = path.stat()
    os.utime(path)
    try:
        yield
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


@contextlib.contextmanager
def build_dir_copy(builds: SessionBuilds, major: int) -> Iterator[Path]:
    """A copy of the session's build dir of ``major``, free to break, at the original's path: Meson
    records its build dir absolutely (its wrapped custom steps run there), so a copy elsewhere would
    write into the original. The original waits renamed beside it and comes back afterwards."""
    build_dir = builds.build_dir(major)
    kept = build_dir.with_name(build_dir.name + "-kept")
    build_dir.rename(kept)
    try:
        shutil.copytree(kept, build_dir, symlinks=True)
        yield build_dir
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)
        kept.rename(build_dir)


@contextlib.contextmanager
def edited(path: Path, text: str, old_mtime: bool = False) -> Iterator[None]:
    """``path`` holding ``text`` for a while; its old content and mtime given back afterwards, so
    builds made before the edit are up to date again. ``old_mtime``: the edit keeps the mtime the file
    had too (older than every output), as a restored backup does."""
    before, original = path.stat(), path.read_text()
    path.write_text(text)
    if old_mtime:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    try:
        yield
    finally:
        path.write_text(original)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def file_hashes(paths: dict[str, Path]) -> dict[str, str]:
    return {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in paths.items()}


def build_info(build_dir: Path) -> dict[str, object]:
    """The values of the generated _build_info.py."""
    namespace: dict[str, object] = {}
    exec((build_dir / "cuda_core" / "cuda" / "core" / "_build_info.py").read_text(), namespace)
    return {k: v for k, v in namespace.items() if not k.startswith("__")}


@dataclass
class Leg:
    """One leg of the round trip: the major built, what ninja printed, how long it took."""

    major: int
    output: str
    seconds: float
    hashes: dict[str, str] = field(default_factory=dict)


@dataclass
class SessionBuilds:
    """The session's one build per major, and the wheel and install made from each, all lazy."""

    venvs: dict[int, Venv]
    factory: pytest.TempPathFactory
    wheelhouse: Path | None = None  # where each wheel packed is copied (DIR/cuNN/), for the package tests
    _checkout: Path | None = None
    _legs: list[Leg] | None = None
    _wheels: dict[int, Path] = field(default_factory=dict)
    _installs: dict[int, Path] = field(default_factory=dict)

    @property
    def checkout(self) -> Path:
        if self._checkout is None:
            self._checkout = copy_checkout(self.factory.mktemp("session-checkout"))
        return self._checkout

    def build_dir(self, major: int) -> Path:
        """The built build dir of ``major`` (the round trip builds both)."""
        self.round_trip()
        return self.checkout / f"build-cu{major}"

    def round_trip(self) -> list[Leg]:
        """cu13 -> cu12 -> cu13 in one checkout, each leg in its own venv: run once per session."""
        if self._legs is None:
            self._legs = []
            order = (MAJORS[-1], *MAJORS[:-1], MAJORS[-1])
            for major in order:
                venv, build_dir = self.venvs[major], self.checkout / f"build-cu{major}"
                start = time.monotonic()
                output = "" if build_dir.exists() else meson_setup(venv, self.checkout, build_dir).stdout
                output += ninja(venv, build_dir).stdout
                hashes = file_hashes(extension_modules(venv, build_dir))
                self._legs.append(Leg(major, output, time.monotonic() - start, hashes))
            print("\nround trip:", ", ".join(f"cu{leg.major} {leg.seconds:.1f} s" for leg in self._legs))
        return self._legs

    def modules(self, major: int) -> dict[str, Path]:
        return extension_modules(self.venvs[major], self.build_dir(major))

    def wheel(self, major: int) -> Path:
        """The wheel of ``major``, packed by meson-python from the session's build dir (no compiling)."""
        if major not in self._wheels:
            venv, out = self.venvs[major], self.factory.mktemp(f"wheel-cu{major}")
            pip_wheel(
                venv, self.checkout, self.build_dir(major), out, "--no-index", SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH
            )
            self._wheels[major] = next(out.glob("cuda_core-*.whl"))
            if self.wheelhouse is not None:
                (self.wheelhouse / f"cu{major}").mkdir(parents=True, exist_ok=True)
                shutil.copy2(self._wheels[major], self.wheelhouse / f"cu{major}")
        return self._wheels[major]

    def installed(self, major: int) -> Path:
        """A ``pip install --target`` of the wheel of ``major``: put it on PYTHONPATH to import it."""
        if major not in self._installs:
            venv, target = self.venvs[major], self.factory.mktemp(f"site-cu{major}")
            run(
                [
                    venv.python,
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--no-deps",
                    "--no-index",
                    "--target",
                    target,
                    self.wheel(major),
                ],
                venv.env(),
                target,
            )
            self._installs[major] = target
        return self._installs[major]


SOURCE_DATE_EPOCH = "1700000000"
