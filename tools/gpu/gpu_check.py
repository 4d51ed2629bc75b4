#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Build cuda.core on the GPU machine for CUDA minors of the matrix and test each on the real driver.

Usage: python3 tools/gpu/gpu_check.py [--wheels .whl] [OPTIONS] [MINOR ...]   (e.g. 13.0 13.5 12.8 12.9)
(--ours-tests and --upstream-files take several values: give the MINORs before them, or after --)

For each CUDA minor given (one of requirements/matrix.ini; default: the minor of each major's
default cell), it installs that minor's cuda-bindings, and the header wheels it needs, into a
site dir, builds a wheel against headers of at least that minor, installs the wheel and runs
on the real driver the steps of STEPS (--only picks some): ``python -m cuda.core`` and our
package tests, the examples, the benchmarks, our modules' sizes beside NVIDIA's, NVIDIA's
examples, NVIDIA's own tests (tools/gpu/upstream_suite.py, from .upstream/) and numba-cuda's
(tools/gpu/numba_suite.py, WHEELS/numba), both beside NVIDIA's installed cuda.core. Then it
merges the wheels of the first CUDA 12 and the first CUDA 13 minor it built into the
dual wheel and runs the package tests again with each one's cuda-bindings.

The GPU machine has no network: what it lacks travels as wheels in WHEELS (default .whl,
relative to the repository; README's "GPU tests" section says how to download them):

  tools/        meson-python and pyproject-metadata (--requirements tools)
  cuda-MINOR/   cuda-bindings of MINOR for the machine's Python (cp312), and the header wheels
                of MINOR that its build needs (--requirements MINOR): for a 12.x minor
                nvidia-cuda-runtime-cu12 and nvidia-cuda-profiler-api-cu12; for a 13.x minor
                newer than the machine's /usr/local/cuda (13.0), nvidia-cuda-runtime,
                nvidia-cuda-profiler-api and nvidia-cuda-nvrtc, or in place of the last (58 MB,
                most of what a call carries) its nvrtc.h alone, as cuda-MINOR/nvrtc/include/nvrtc.h
  cu12-nvrtc/   include/nvrtc.h for the CUDA 12 builds, and nvrtc12.tar.xz: libnvrtc.so.12 and
                its builtins (the CUDA 12 NVRTC wheel is too large to carry whole), which the
                CUDA 12 runs find through LD_LIBRARY_PATH

A CUDA 13 minor that the machine's /usr/local/cuda covers builds against it and uses its
NVRTC; a newer one builds against its header wheels (CUDA_PATH=SITE/nvidia/cu13), since
cuda-bindings X.Y needs headers of at least X.Y. A CUDA 12 minor builds against its header
wheels and cu12-nvrtc/.

Figures, JUnit XML and logs go to --out ($OUT when set, else /tmp/gpu-check-out), named for
the minor: ours-cuda13.5.xml, launch_bench_cuda13.5.json, view_bench_cuda13.5.json,
import_bench_cuda13.5.json, upstream-cuda13.5.json, ours-dual-cuda13.5.xml, examples/. The
first run on a machine installs the build tools and shows the "version trap" (the machine's
cuda-bindings with its /usr/local/cuda headers, through tools/dev/cuda_probe.py). One minor
per process lets two run at once (with --no-dual); a later --dual-only run merges the wheels
they built. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TOOLS = REPO_ROOT / "tools"
sys.path.insert(0, str(TOOLS))  # the build's facts: requirements/matrix.ini

from cuda_core_build import facts  # noqa: E402

UPSTREAM_SUITE = TOOLS / "gpu" / "upstream_suite.py"
NUMBA_SUITE = TOOLS / "gpu" / "numba_suite.py"
NUMBA_DEPS = Path("/tmp/gpu-numba-deps")  # cffi, pycparser, filecheck from WHEELS/numba
MERGE_WHEELS = TOOLS / "release" / "merge_wheels.py"
CUDA_PROBE = TOOLS / "dev" / "cuda_probe.py"
UPSTREAM_ROOT = REPO_ROOT / ".upstream"
EXAMPLES = tuple(REPO_ROOT / "examples" / name for name in ("vector_add.py", "saxpy.py", "cuda_graphs.py"))
BENCHMARKS = REPO_ROOT / "benchmarks"

MACHINE_TOOLKIT = Path("/usr/local/cuda")
LENT_MACHINE_CUDA = "13.0"  # the lent GPU machine's /usr/local/cuda: its minor needs no header wheels
BUILD_TOOLS = ("meson-python", "pyproject-metadata")  # the build tools the GPU machine lacks
SCRATCH = Path("/tmp")
SETUP_DONE = SCRATCH / "gpu-setup-done"
TOOLS_SITE = SCRATCH / "gpu-tools"
NVRTC12 = SCRATCH / "nvrtc12"
DUAL_WHEEL_DIR = SCRATCH / "gpu-dual-wheel"
DUAL_INSTALL = SCRATCH / "gpu-dual"
DEFAULT_OUT = Path(os.environ.get("OUT") or "/tmp/gpu-check-out")

DEFAULT_OURS_TESTS = ("tests/package/gpu", "tests/package/api")
# What runs on each minor built, in this order; --only picks some (--no-bench drops the benchmarks,
# --upstream-examples adds NVIDIA's examples).
STEPS = (
    "package",  # python -m cuda.core, then our package tests
    "examples",  # our examples
    "launch-bench",  # benchmarks/launch_bench.py: ours, NVIDIA's, raw bindings, the C++ floor
    "launch-steps",  # benchmarks/launch_steps.py: where launch()'s time goes, step by step
    "view-bench",  # benchmarks/view_bench.py
    "import-bench",  # benchmarks/import_bench.py
    "sizes",  # benchmarks/module_sizes.py: our wheel's modules beside NVIDIA's installed ones
    "upstream-examples",  # NVIDIA's examples on both sides
    "upstream",  # NVIDIA's test files on both sides (tools/gpu/upstream_suite.py)
    "numba",  # numba-cuda's tests on both sides (tools/gpu/numba_suite.py)
)
DEFAULT_STEPS = ("package", "examples", "launch-bench", "view-bench", "import-bench", "upstream")
BENCH_STEPS = ("launch-bench", "launch-steps", "view-bench", "import-bench")
DEFAULT_UPSTREAM_FILES = (
    "tests/test_device.py",
    "tests/test_context.py",
    "tests/test_stream.py",
    "tests/test_event.py",
    "tests/test_launcher.py",
    "tests/test_module.py",
    "tests/test_program.py",
    "tests/test_host.py",
    "tests/test_cuda_utils.py",
    "tests/memory/test_managed_ops.py",
    "tests/test_memory.py",
    "tests/test_linker.py",
    "tests/test_typing_imports.py",
    "tests/test_utils.py",
    "tests/test_utils_dlpack.py",
    "tests/test_strided_layout.py",
    "tests/test_program_cache.py",
    "tests/test_program_cache_multiprocess.py",
    "tests/test_program_compile_cache.py",
    "tests/test_object_protocols.py",
)
# Names our cuda.core gets in a later part of the port: placeholders on our side of NVIDIA's suite.
LATER_PART_NAMES = ("cuda.core.graph:GraphDefinition",)


class Fatal(Exception):
    """A step that everything after it needs failed: the run stops, exit status 1."""


def say(line: str) -> None:
    """A progress line, out before the output of the next child process."""
    print(line, flush=True)


def minor_key(minor: str) -> tuple[int, ...]:
    """'13.5' -> (13, 5), for comparing minors."""
    return tuple(int(part) for part in minor.split("."))


def default_minors() -> list[str]:
    """The CUDA minor of each supported major's default cell, newest major first."""
    return [facts.default_cuda(major) for major in sorted(facts.supported_majors(), reverse=True)]


def header_packages(minor: str) -> list[str]:
    """NVIDIA's header wheels a build of ``minor`` installs beside cuda-bindings where no toolkit serves.

    CUDA 12: the runtime and profiler API (its NVRTC header travels in cu12-nvrtc/); CUDA 13 and
    later: the runtime, profiler API and NVRTC. nvJitLink is a run-time library, not a header.
    """
    major = minor_key(minor)[0]
    return [
        name
        for name in facts.cuda_pins(minor)
        if name.startswith("nvidia-") and "nvjitlink" not in name and (major > 12 or "nvrtc" not in name)
    ]


def requirements(what: str) -> list[str]:
    """NAME==VERSION of the wheels to download for a WHEELS folder: ``tools``, or a CUDA minor."""
    if what == "tools":
        pins = facts.tool_pins("newest")
        return [f"{name}=={pins[name]}" for name in BUILD_TOOLS]
    pins = facts.cuda_pins(what)
    names = ["cuda-bindings"]
    if minor_key(what)[0] == 12 or what != LENT_MACHINE_CUDA:
        names += header_packages(what)
    return [f"{name}=={pins[name]}" for name in names]


# ---------------------------------------------------------------------------------------------
# One CUDA minor: its scratch dirs and how it is built here.


@dataclass(frozen=True)
class Target:
    """One CUDA minor of the matrix, and the scratch dirs of its build on this machine."""

    minor: str

    @property
    def major(self) -> int:
        """The CUDA major, e.g. 13."""
        return minor_key(self.minor)[0]

    @property
    def bindings(self) -> str:
        """The exact cuda-bindings of this minor."""
        return facts.cuda_pins(self.minor)["cuda-bindings"]

    @property
    def label(self) -> str:
        """The name of this minor in output files, e.g. 'cuda13.5'."""
        return f"cuda{self.minor}"

    @property
    def site(self) -> Path:
        """The site dir of cuda-bindings and the header wheels."""
        return SCRATCH / f"gpu-site{self.minor}"

    @property
    def wheel_dir(self) -> Path:
        """Where the build puts its wheel."""
        return SCRATCH / f"gpu-wheels{self.minor}"

    @property
    def build_dir(self) -> Path:
        """The Meson build dir of its wheel, kept for a look at how the modules were compiled."""
        return SCRATCH / f"gpu-build{self.minor}"

    @property
    def install(self) -> Path:
        """Where the built wheel is installed."""
        return SCRATCH / f"gpu-install{self.minor}"

    @property
    def ld_paths(self) -> tuple[Path, ...]:
        """LD_LIBRARY_PATH entries of its runs: the carried libnvrtc.so.12 for CUDA 12."""
        return (NVRTC12,) if self.major == 12 else ()

    def built_wheels(self) -> list[Path]:
        """The wheels its build left (this run's, or an earlier run's)."""
        return sorted(self.wheel_dir.glob("*.whl"))


@dataclass(frozen=True)
class Plan:
    """How a minor is built here: the wheels its site dir gets and the CUDA_PATH its build reads."""

    target: Target
    wheels: tuple[Path, ...]
    cuda_path: str


def toolkit_version(root: Path) -> tuple[int, int] | None:
    """(major, minor) of the toolkit at ``root``, from CUDA_VERSION in its cuda.h; None without one."""
    try:
        text = (root / "include" / "cuda.h").read_text(errors="replace")
    except OSError:
        return None
    found = re.search(r"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)", text, re.MULTILINE)
    if found is None:
        return None
    version = int(found.group(1))
    return version // 1000, version % 1000 // 10


def machine_toolkit_covers(target: Target) -> bool:
    """Whether the machine's /usr/local/cuda serves a CUDA 13+ minor: same major, at least that minor."""
    version = toolkit_version(MACHINE_TOOLKIT)
    wanted = minor_key(target.minor)
    return target.major > 12 and version is not None and version[0] == wanted[0] and version >= wanted


def find_wheel(folder: Path, name: str, version: str, python_tag: str) -> Path | None:
    """The wheel of ``name`` ``version`` in ``folder`` that ``python_tag`` (e.g. cp312) can install."""
    prefix = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}-"
    for path in sorted(folder.glob("*.whl")):
        tags = path.stem.split("-")[-3].split(".")
        if path.name.lower().startswith(prefix) and any(tag == python_tag or tag.startswith("py") for tag in tags):
            return path
    return None


def plan_build(target: Target, wheels: Path, python_tag: str) -> Plan:
    """The carried wheels and CUDA_PATH of a minor's build; Fatal naming whatever is missing."""
    folder = wheels / f"cuda-{target.minor}"
    machine = machine_toolkit_covers(target)
    pins = facts.cuda_pins(target.minor)
    found: list[Path] = []
    extra_roots: list[Path] = []
    missing: list[str] = []
    for name in ["cuda-bindings", *([] if machine else header_packages(target.minor))]:
        wheel = find_wheel(folder, name, pins[name], python_tag)
        if wheel is not None:
            found.append(wheel)
        elif "nvrtc" in name and (folder / "nvrtc" / "include" / "nvrtc.h").is_file():
            extra_roots.append(folder / "nvrtc")  # the NVRTC wheel's header alone
        else:
            missing.append(f"{name}=={pins[name]}")
    if target.major == 12 and not (wheels / "cu12-nvrtc" / "include" / "nvrtc.h").is_file():
        missing.append(f"{wheels / 'cu12-nvrtc' / 'include' / 'nvrtc.h'}")
    if missing:
        raise Fatal(
            f"CUDA {target.minor}: {folder} lacks {', '.join(missing)} (for {python_tag}); "
            f"README's GPU tests section says how to download them "
            f"(python3 tools/gpu/gpu_check.py --requirements {target.minor})"
        )
    if machine:
        roots = [MACHINE_TOOLKIT]
    elif target.major == 12:
        roots = [
            target.site / "nvidia" / "cuda_runtime",
            target.site / "nvidia" / "cuda_profiler_api",
            wheels / "cu12-nvrtc",
        ]
    else:
        roots = [target.site / "nvidia" / f"cu{target.major}", *extra_roots]
    return Plan(target, tuple(found), os.pathsep.join(str(root) for root in roots))


# ---------------------------------------------------------------------------------------------
# Running things.


def environment(pythonpath: Sequence[Path] = (), ld_paths: Sequence[Path] = (), **extra: str) -> dict[str, str]:
    """This process's environment, PYTHONPATH replaced by ``pythonpath`` if given, ``ld_paths`` first
    on LD_LIBRARY_PATH, and ``extra`` set."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(str(path) for path in pythonpath)
    if ld_paths:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [*(str(path) for path in ld_paths), *filter(None, [env.get("LD_LIBRARY_PATH")])]
        )
    env.update(extra)
    return env


@dataclass
class Session:
    """One run: its settings, the carried wheels, where the figures go, and whether anything failed."""

    args: argparse.Namespace
    wheels: Path
    out: Path
    failed: bool = False

    @property
    def python(self) -> str:
        """The Python that builds, tests and benchmarks."""
        return str(self.args.python)

    def run(
        self, command: Sequence[object], env: dict[str, str] | None = None, cwd: Path = REPO_ROOT, counts: bool = True
    ) -> int:
        """Run a command, its output passing through; a nonzero exit fails the session if it ``counts``."""
        sys.stdout.flush()
        try:
            code = subprocess.run([str(part) for part in command], env=env, cwd=cwd).returncode
        except OSError as error:
            print(f"cannot run {command[0]}: {error}", file=sys.stderr, flush=True)
            code = 127
        if code and counts:
            self.failed = True
        return code

    def pip_target(self, target: Path, wheels: Sequence[Path]) -> bool:
        """Install ``wheels`` into the folder ``target``, offline and without dependencies."""
        if not wheels:
            return False
        return (
            self.run(
                [
                    self.python,
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--no-index",
                    "--no-deps",
                    "--no-compile",
                    "--target",
                    target,
                    *wheels,
                ],
                counts=False,
            )
            == 0
        )


def python_tag(python: str) -> str:
    """The CPython tag of ``python``, e.g. 'cp312': the cuda-bindings wheels it can install."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print('cp%d%d' % sys.version_info[:2])"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=SCRATCH,
        )
    except OSError as error:
        raise Fatal(f"cannot run {python}: {error}") from error
    if done.returncode:
        raise Fatal(f"{python} does not run")
    return done.stdout.strip()


# ---------------------------------------------------------------------------------------------
# Once per machine.


def preflight(session: Session, targets: Sequence[Target], tag: str) -> list[Plan]:
    """Every minor's plan, and the carried files the run needs, checked before anything is built."""
    problems: list[str] = []
    plans: list[Plan] = []
    if not SETUP_DONE.exists() and not list((session.wheels / "tools").glob("*.whl")):
        problems.append(f"{session.wheels / 'tools'} holds no wheels ({' '.join(requirements('tools'))})")
    nvrtc12 = session.wheels / "cu12-nvrtc" / "nvrtc12.tar.xz"
    if any(t.major == 12 for t in targets) and not (NVRTC12 / ".unpacked").exists() and not nvrtc12.is_file():
        problems.append(f"{nvrtc12} is missing (libnvrtc.so.12 for the CUDA 12 runs)")
    for target in [] if session.args.dual_only else targets:
        try:
            plans.append(plan_build(target, session.wheels, tag))
        except Fatal as error:
            problems.append(str(error))
    if problems:
        raise Fatal("\n".join(problems))
    return plans


def unpack_nvrtc12(wheels: Path) -> None:
    """Once per machine: libnvrtc.so.12 and its builtins into /tmp/nvrtc12 (found by cuda.pathfinder
    through LD_LIBRARY_PATH)."""
    marker = NVRTC12 / ".unpacked"
    if marker.exists():
        return
    archive = wheels / "cu12-nvrtc" / "nvrtc12.tar.xz"
    NVRTC12.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(archive, "r:xz") as tar:
            tar.extractall(NVRTC12, filter="data")
    except (OSError, tarfile.TarError) as error:
        raise Fatal(f"cannot unpack {archive}: {error}") from error
    marker.touch()


def show_version_trap(session: Session) -> None:
    """What the probe says of the machine's own cuda-bindings with its /usr/local/cuda headers."""
    sys.stdout.flush()
    version = subprocess.run(
        [session.python, "-c", "import cuda.bindings; print(cuda.bindings.__version__)"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=SCRATCH,
    ).stdout.strip()
    say(f"== the version trap: machine's cuda-bindings {version} with its {MACHINE_TOOLKIT} headers")
    if session.run([session.python, CUDA_PROBE], env=environment(CUDA_PATH=str(MACHINE_TOOLKIT)), counts=False) == 0:
        say("(no trap here)")


def setup_machine(session: Session) -> None:
    """Once per machine (/tmp/gpu-setup-done): meson-python into /tmp/gpu-tools, and the version trap."""
    if SETUP_DONE.exists():
        return
    if not session.pip_target(TOOLS_SITE, sorted((session.wheels / "tools").glob("*.whl"))):
        raise Fatal(f"cannot install the build tools of {session.wheels / 'tools'} into {TOOLS_SITE}")
    show_version_trap(session)
    SETUP_DONE.touch()


# ---------------------------------------------------------------------------------------------
# Per minor.


def build(session: Session, plan: Plan) -> bool:
    """Fresh site dir, the wheel built against the plan's headers, and installed; False if the build failed."""
    target = plan.target
    for path in (target.site, target.install, target.wheel_dir, target.build_dir):
        shutil.rmtree(path, ignore_errors=True)
    if not session.pip_target(target.site, plan.wheels):
        raise Fatal(f"cannot install {', '.join(wheel.name for wheel in plan.wheels)} into {target.site}")
    say(f"== CUDA {target.minor}: build the wheel (CUDA_PATH={plan.cuda_path})")
    start = time.monotonic_ns()
    env = environment(pythonpath=(target.site, TOOLS_SITE), CUDA_PATH=plan.cuda_path)
    pip_options = ["--no-build-isolation", "--no-deps", "--no-index", f"-Cbuild-dir={target.build_dir}"]
    wheel = [session.python, "-m", "pip", "wheel", "-q", *pip_options, "-w", target.wheel_dir, REPO_ROOT]
    if session.run(wheel, env=env, counts=False):
        say(f"BUILD FAILED for CUDA {target.minor}")
        session.failed = True
        return False
    names = " ".join(path.name for path in sorted(target.wheel_dir.iterdir()))
    say(f"built in {(time.monotonic_ns() - start) // 1_000_000} ms: {names}")
    if not session.pip_target(target.install, target.built_wheels()):
        session.failed = True
    return True


def nvidia_core_dir(session: Session) -> Path:
    """The directory of NVIDIA's cuda.core installed for the session's Python."""
    return machine_package_dir(session, "cuda.core")


def machine_package_dir(session: Session, package: str) -> Path:
    """The directory of ``package`` (cuda.core: NVIDIA's) installed for the session's Python."""
    found = subprocess.run(
        [
            session.python,
            "-c",
            f"import importlib.util, os; print(os.path.dirname(importlib.util.find_spec({package!r}).origin))",
        ],
        env=environment(pythonpath=()),
        capture_output=True,
        text=True,
        cwd=SCRATCH,
    )
    if found.returncode != 0:
        raise Fatal(f"{package} is not importable by {session.python}: {found.stderr.strip()[-300:]}")
    return Path(found.stdout.strip())


def with_core(site: Path, core: Path, pathfinder: Path, dest: Path) -> Path:
    """A copy of ``site`` with the packages ``core`` (a cuda/core directory) and ``pathfinder``
    (the machine's cuda/pathfinder, which both cuda.core import) inside its ``cuda``."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(site, dest, symlinks=True)
    shutil.copytree(core, dest / "cuda" / "core", symlinks=True)
    if not (dest / "cuda" / "pathfinder").exists():
        shutil.copytree(pathfinder, dest / "cuda" / "pathfinder", symlinks=True)
    return dest


def sides(session: Session, target: Target) -> dict[str, tuple[Path, ...]]:
    """The PYTHONPATH of each side, ours and NVIDIA's, both with this minor's cuda-bindings.

    cuda-bindings 12.8 ships cuda/__init__.py: its ``cuda`` is then a regular package, and a
    cuda.core anywhere but inside it is not found, nor the machine's cuda.pathfinder. There each
    side gets a copy of the site dir with its cuda.core (ours, and the NVIDIA cuda.core installed
    on the machine) and the machine's cuda.pathfinder inside."""
    if not (target.site / "cuda" / "__init__.py").is_file():
        return {"ours": (target.install, target.site), "nvidia": (target.site,)}
    pathfinder = machine_package_dir(session, "cuda.pathfinder")
    ours = with_core(target.site, target.install / "cuda" / "core", pathfinder, SCRATCH / f"gpu-ours{target.minor}")
    nvidia = with_core(target.site, nvidia_core_dir(session), pathfinder, SCRATCH / f"gpu-nvidia{target.minor}")
    return {"ours": (ours,), "nvidia": (nvidia,)}


def package_tests(session: Session, label: str, pythonpath: Sequence[Path], ld_paths: Sequence[Path]) -> None:
    """``python -m cuda.core`` (from /tmp, away from the sources), then our package tests, JUnit XML in OUT."""
    env = environment(pythonpath, ld_paths)
    session.run([session.python, "-m", "cuda.core"], env=env, cwd=SCRATCH)
    session.run(
        [
            session.python,
            "-m",
            "pytest",
            *session.args.ours_tests,
            "-q",
            "-rfEs",
            "-p",
            "no:cacheprovider",
            "--junitxml",
            session.out / f"ours-{label}.xml",
        ],
        env=env,
    )


def examples(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """Our examples, with our install."""
    env = environment(paths["ours"], target.ld_paths)
    for example in EXAMPLES:
        session.run([session.python, example], env=env)


def launch_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/launch_bench.py: NVIDIA's side with this minor's cuda-bindings too (the same on both sides)."""
    session.run(
        [
            session.python,
            BENCHMARKS / "launch_bench.py",
            *shlex.split(session.args.launch_bench_args),
            "--nvidia-pythonpath",
            os.pathsep.join(map(str, paths["nvidia"])),
            "--json",
            session.out / f"launch_bench_{target.label}.json",
        ],
        env=environment(paths["ours"], target.ld_paths),
    )


def launch_steps(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/launch_steps.py: launch() step by step, beside NVIDIA's and the C++ floor."""
    session.run(
        [
            session.python,
            BENCHMARKS / "launch_steps.py",
            *shlex.split(session.args.launch_steps_args),
            "--nvidia-pythonpath",
            os.pathsep.join(map(str, paths["nvidia"])),
            "--json",
            session.out / f"launch_steps_{target.label}.json",
        ],
        env=environment(paths["ours"], target.ld_paths),
    )


def view_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    env = environment(paths["ours"], target.ld_paths)
    session.run(
        [session.python, BENCHMARKS / "view_bench.py", "--json", session.out / f"view_bench_{target.label}.json"],
        env=env,
    )


def import_bench(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    session.run(
        [
            session.python,
            BENCHMARKS / "import_bench.py",
            "--ours",
            os.pathsep.join(map(str, paths["ours"])),
            "--python",
            session.python,
            "--json",
            session.out / f"import_bench_{target.label}.json",
        ],
        env=environment(ld_paths=target.ld_paths),
    )


def module_sizes(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """benchmarks/module_sizes.py: our built wheel's modules beside NVIDIA's installed ones of this major."""
    wheels = target.built_wheels()
    if not wheels:
        return
    with contextlib.suppress(OSError, ValueError, KeyError):  # the compiler Meson chose (CXX wins over c++ on PATH)
        cpp = json.loads((target.build_dir / "meson-info" / "intro-compilers.json").read_text())["host"]["cpp"]
        say(f"our modules compiled here by {' '.join(cpp['exelist'])} ({cpp['full_version']})")
    session.run(
        [
            session.python,
            BENCHMARKS / "module_sizes.py",
            wheels[0],
            nvidia_core_dir(session).parent.parent,
            "--major",
            str(target.major),
            "--per-module",
            "--json",
            session.out / f"module_sizes_{target.label}.json",
        ],
        counts=False,
    )


def numba(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """numba-cuda's tests on both sides (tools/gpu/numba_suite.py), with WHEELS/numba (cffi,
    pycparser, filecheck) installed once into a site dir both sides get; never fails the run."""
    deps = sorted((session.wheels / "numba").glob("*.whl"))
    if not (NUMBA_DEPS / ".installed").exists():
        if not deps or not session.pip_target(NUMBA_DEPS, deps):
            say(
                f"(no {session.wheels / 'numba'} wheels installed: numba-cuda's tests that need cffi or filecheck fail)"
            )
        else:
            (NUMBA_DEPS / ".installed").touch()
    args = session.args
    command: list[object] = [
        session.python,
        NUMBA_SUITE,
        "--ours-python",
        session.python,
        *[arg for path in paths["ours"] for arg in ("--ours-path", path)],
        "--nvidia-python",
        session.python,
        *[arg for path in paths["nvidia"] for arg in ("--nvidia-path", path)],
        "--common-path",
        NUMBA_DEPS,
        "--jobs",
        args.numba_jobs,
        "--timeout",
        f"{args.numba_timeout:g}",
        "--json",
        session.out / f"numba-{target.label}.json",
    ]
    if args.numba_modules:
        command += ["--modules", *args.numba_modules]
    if args.numba_end is not None:
        command += ["--deadline", f"{args.numba_end - time.time():.0f}"]
    session.run(command, env=environment(ld_paths=target.ld_paths), counts=False)


def run_example(python: str, example: Path, env: dict[str, str], timeout: float, log: Path) -> int:
    """Run one example as a user would (from /tmp), its output into ``log``; its exit status, 124 past the
    timeout, 128+N when killed by signal N."""
    with log.open("wb") as output:
        try:
            code = subprocess.run(
                [python, str(example)], cwd=SCRATCH, env=env, stdout=output, stderr=subprocess.STDOUT, timeout=timeout
            ).returncode
        except subprocess.TimeoutExpired:
            return 124
    return code if code >= 0 else 128 - code


def upstream_examples(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """NVIDIA's examples, each on both sides, by exit status (logs in OUT/examples)."""
    examples = UPSTREAM_ROOT / "cuda_core" / "examples"
    if not examples.is_dir():
        return
    logs = session.out / "examples"
    logs.mkdir(parents=True, exist_ok=True)
    timeout = session.args.example_timeout
    say(f"== NVIDIA's examples with CUDA {target.minor}: exit status, ours beside NVIDIA's (124: over {timeout:g} s)")
    for example in sorted(examples.glob("*.py")):
        codes = {
            side: run_example(
                session.python,
                example,
                environment(side_paths, target.ld_paths),
                timeout,
                logs / f"{example.stem}-{side}-{target.label}.log",
            )
            for side, side_paths in paths.items()
        }
        say(f"  {example.stem:<40} ours {codes['ours']:3d}   nvidia {codes['nvidia']:3d}")


def upstream_suite(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """NVIDIA's test files, ours beside NVIDIA's cuda.core, both with this minor's cuda-bindings (so a
    difference is cuda.core's); never fails the run."""
    if not (UPSTREAM_ROOT / "cuda_core" / "tests").is_dir():
        say("(no .upstream/: NVIDIA's tests not run)")
        return
    args = session.args
    command: list[object] = [
        session.python,
        UPSTREAM_SUITE,
        "--root",
        UPSTREAM_ROOT,
        "--files",
        *args.upstream_files,
        "--ours-python",
        session.python,
        *[arg for path in paths["ours"] for arg in ("--ours-path", path)],
        "--nvidia-python",
        session.python,
        *[arg for path in paths["nvidia"] for arg in ("--nvidia-path", path)],
        *[arg for name in LATER_PART_NAMES for arg in ("--later-part-name", name)],
        "--jobs",
        args.upstream_jobs,
        "--timeout",
        f"{args.upstream_timeout:g}",
        "--repeat",
        args.upstream_repeat,
        "--nvidia-repeat",
        args.upstream_nvidia_repeat,
        *[arg for plugin in args.upstream_plugin for arg in ("--plugin", plugin)],
    ]
    if args.upstream_end is not None:
        command += ["--deadline", f"{args.upstream_end - time.time():.0f}"]
    command += ["--json", session.out / f"upstream-{target.label}.json"]
    session.run(command, env=environment(ld_paths=target.ld_paths), counts=False)


def check_minor(session: Session, plan: Plan) -> bool:
    """Build one minor and run the chosen steps on it; whether it built."""
    target = plan.target
    if not build(session, plan):
        return False
    paths = sides(session, target)
    for step in session.args.steps:
        say(f"== CUDA {target.minor}: {step}")
        if step == "package":
            package_tests(session, target.label, paths["ours"], target.ld_paths)
        else:
            STEP_RUNS[step](session, target, paths)
    return True


STEP_RUNS = {
    "examples": examples,
    "launch-bench": launch_bench,
    "launch-steps": launch_steps,
    "view-bench": view_bench,
    "import-bench": import_bench,
    "sizes": module_sizes,
    "upstream-examples": upstream_examples,
    "upstream": upstream_suite,
    "numba": numba,
}


# ---------------------------------------------------------------------------------------------
# The dual wheel.


def dual_pair(candidates: Sequence[Target]) -> list[Target]:
    """The first candidate of each supported major that has a built wheel, ascending by major."""
    chosen: dict[int, Target] = {}
    for target in candidates:
        if target.major not in chosen and target.built_wheels():
            chosen[target.major] = target
    missing = [str(major) for major in facts.supported_majors() if major not in chosen]
    if missing:
        raise Fatal(
            f"the dual wheel needs a built wheel of each major and has none of CUDA {', '.join(missing)}: "
            "give a minor of it, or --no-dual"
        )
    return [chosen[major] for major in sorted(chosen)]


def dual_wheel(session: Session, candidates: Sequence[Target]) -> None:
    """Merge one wheel per major into the dual wheel and run the package tests with each major's bindings."""
    say("== dual wheel")
    pair = dual_pair(candidates)
    shutil.rmtree(DUAL_WHEEL_DIR, ignore_errors=True)
    wheels = [wheel for target in pair for wheel in target.built_wheels()]
    if session.run([session.python, MERGE_WHEELS, *wheels, "-o", DUAL_WHEEL_DIR], counts=False):
        raise Fatal(f"cannot merge {' '.join(map(str, wheels))}")
    shutil.rmtree(DUAL_INSTALL, ignore_errors=True)
    if not session.pip_target(DUAL_INSTALL, sorted(DUAL_WHEEL_DIR.glob("*.whl"))):
        raise Fatal(f"cannot install the dual wheel of {DUAL_WHEEL_DIR} into {DUAL_INSTALL}")
    for target in reversed(pair):
        say(f"== dual wheel with cuda-bindings {target.bindings} (CUDA {target.minor})")
        package_tests(session, f"dual-{target.label}", (DUAL_INSTALL, target.site), target.ld_paths)


# ---------------------------------------------------------------------------------------------
# The command line.


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options; every minor checked against the matrix."""
    summary, _, details = (__doc__ or "").partition("\n\n")
    parser = argparse.ArgumentParser(
        prog="gpu_check.py", description=summary, epilog=details, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    minors = facts.cuda_minors()
    parser.add_argument(
        "minors",
        nargs="*",
        metavar="MINOR",
        help=f"CUDA minors of the matrix ({' '.join(minors)}); default: {' '.join(default_minors())}",
    )
    parser.add_argument(
        "--wheels",
        default=".whl",
        metavar="DIR",
        help="the carried wheels, relative to the repository unless absolute (default .whl)",
    )
    parser.add_argument("--python", default="python3", help="the Python that builds and tests (default python3)")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where figures and logs go, relative to the repository unless absolute (default $OUT, else "
        f"/tmp/gpu-check-out; now {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--ours-tests",
        nargs="+",
        default=list(DEFAULT_OURS_TESTS),
        metavar="PATH",
        help=f"our test paths, relative to the repository (default: {' '.join(DEFAULT_OURS_TESTS)})",
    )
    parser.add_argument(
        "--upstream-files",
        nargs="+",
        default=list(DEFAULT_UPSTREAM_FILES),
        metavar="FILE",
        help="NVIDIA's test files (from .upstream/) to run (default: the files of the runtime API)",
    )
    parser.add_argument("--upstream-examples", action="store_true", help="also run NVIDIA's examples on both sides")
    parser.add_argument(
        "--upstream-end",
        type=float,
        metavar="EPOCH",
        help="when (epoch seconds) NVIDIA's suite must have ended: files still running are stopped "
        "then, and the table is written either way",
    )
    parser.add_argument("--upstream-jobs", type=int, default=4, help="NVIDIA's test files run at once (default 4)")
    parser.add_argument(
        "--upstream-repeat", type=int, default=1, help="runs of each NVIDIA test file on our side (default 1)"
    )
    parser.add_argument(
        "--upstream-nvidia-repeat", type=int, default=0, help="runs on NVIDIA's side (default --upstream-repeat)"
    )
    parser.add_argument(
        "--upstream-plugin",
        action="append",
        default=[],
        metavar="NAME",
        help="another plugin of tools/gpu/upstream_plugins for NVIDIA's suite (e.g. offthread_finalizer)",
    )
    parser.add_argument(
        "--upstream-timeout", type=float, default=300, help="seconds per NVIDIA test file and side (default 300)"
    )
    parser.add_argument(
        "--example-timeout", type=float, default=90, help="seconds per NVIDIA example and side (default 90)"
    )
    parser.add_argument(
        "--launch-bench-args",
        default="",
        metavar="ARGS",
        help='more arguments of benchmarks/launch_bench.py, one string: --launch-bench-args="--quick"',
    )
    parser.add_argument(
        "--launch-steps-args",
        default="",
        metavar="ARGS",
        help='more arguments of benchmarks/launch_steps.py, one string: --launch-steps-args="--rounds 5"',
    )
    parser.add_argument("--no-bench", dest="bench", action="store_false", help="skip the benchmarks")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=STEPS,
        metavar="STEP",
        help=f"run only these steps on each minor, in this order: {' '.join(STEPS)} (default: "
        f"{' '.join(DEFAULT_STEPS)}; launch-steps, sizes, upstream-examples and numba only when named)",
    )
    parser.add_argument("--numba-jobs", type=int, default=12, help="numba-cuda test modules run at once (default 12)")
    parser.add_argument(
        "--numba-timeout", type=float, default=300, help="seconds per numba-cuda module and side (default 300)"
    )
    parser.add_argument("--numba-modules", nargs="+", metavar="GLOB", help="numba-cuda modules (default: all)")
    parser.add_argument(
        "--numba-end",
        type=float,
        metavar="EPOCH",
        help="when (epoch seconds) numba-cuda's tests must have ended; the table is written either way",
    )
    dual = parser.add_mutually_exclusive_group()
    dual.add_argument("--no-dual", dest="dual", action="store_false", help="skip the dual wheel")
    dual.add_argument(
        "--dual-only",
        action="store_true",
        help="build nothing: merge the wheels that earlier runs built for the MINORs and test the merge",
    )
    parser.add_argument(
        "--requirements",
        metavar="WHAT",
        choices=("tools", *minors),
        help="print the NAME==VERSION of the wheels to download into WHEELS/tools (tools) or "
        "WHEELS/cuda-MINOR (a minor), and exit",
    )
    args = parser.parse_args(argv)
    unknown = [minor for minor in args.minors if minor not in minors]
    if unknown:
        parser.error(f"not a CUDA minor of requirements/matrix.ini: {' '.join(unknown)} (there: {' '.join(minors)})")
    args.minors = list(dict.fromkeys(args.minors or default_minors()))
    args.steps = chosen_steps(args)
    return args


def chosen_steps(args: argparse.Namespace) -> list[str]:
    """The steps of each minor: --only's, else the default ones less the benchmarks with
    --no-bench, and NVIDIA's examples with --upstream-examples; always in STEPS' order."""
    if args.only:
        wanted = set(args.only)
    else:
        wanted = set(DEFAULT_STEPS) - (set() if args.bench else set(BENCH_STEPS))
        if args.upstream_examples:
            wanted.add("upstream-examples")
    return [step for step in STEPS if step in wanted]


def from_repo(path: Path) -> Path:
    """A path given on the command line: relative ones are taken from the repository, never the cwd."""
    return path if path.is_absolute() else REPO_ROOT / path


def check(args: argparse.Namespace) -> bool:
    """The whole run; whether everything passed."""
    session = Session(args, from_repo(Path(args.wheels)), from_repo(args.out))
    session.out.mkdir(parents=True, exist_ok=True)
    os.environ["PYTHONUNBUFFERED"] = "1"
    targets = [Target(minor) for minor in args.minors]
    plans = preflight(session, targets, python_tag(session.python))
    if any(target.major == 12 for target in targets):
        unpack_nvrtc12(session.wheels)
    setup_machine(session)
    built = [plan.target for plan in plans if check_minor(session, plan)]
    if args.dual:
        dual_wheel(session, targets if args.dual_only else built)
    return not session.failed


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status 1 if anything failed."""
    args = parse_args(argv)
    if args.requirements:
        print(" ".join(requirements(args.requirements)))
        return 0
    try:
        return 0 if check(args) else 1
    except Fatal as error:
        print(f"gpu_check: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
