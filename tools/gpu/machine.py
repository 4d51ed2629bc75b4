# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The GPU machine's setup, once per machine, and what each side of a comparison imports there.

Once: the carried build tools into /tmp/gpu-tools, libnvrtc.so.12 unpacked for the CUDA 12
runs, and the "version trap" shown (the machine's cuda-bindings with its /usr/local/cuda
headers). Per minor: the PYTHONPATH of ours and of NVIDIA's cuda.core installed on the machine.
"""

from __future__ import annotations

import functools
import shutil
import tarfile
from pathlib import Path

from gpu.plan import MACHINE_TOOLKIT, NVRTC12, REPO_ROOT, SCRATCH, SETUP_DONE, TOOLS_SITE, Target
from gpu.process import Fatal, environment, run, say
from gpu.session import Session

CUDA_PROBE = REPO_ROOT / "tools" / "dev" / "cuda_probe.py"


def python_tag(python: str) -> str:
    """The CPython tag of ``python``, e.g. 'cp312': the cuda-bindings wheels it can install."""
    try:
        done = run([python, "-c", "import sys; print('cp%d%d' % sys.version_info[:2])"], output="stdout", cwd=SCRATCH)
    except OSError as error:
        raise Fatal(f"cannot run {python}: {error}") from error
    if done.returncode:
        raise Fatal(f"{python} does not run")
    return done.stdout.strip()


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
    version = run(
        [session.python, "-c", "import cuda.bindings; print(cuda.bindings.__version__)"], output="stdout", cwd=SCRATCH
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


def nvidia_core_dir(session: Session) -> Path:
    """The directory of NVIDIA's cuda.core installed for the session's Python."""
    return machine_package_dir(session, "cuda.core")


def machine_package_dir(session: Session, package: str) -> Path:
    """The directory of ``package`` (cuda.core: NVIDIA's) installed for the session's Python."""
    return installed_package_dir(session.python, package)


@functools.cache
def installed_package_dir(python: str, package: str) -> Path:
    """The directory of ``package`` installed for ``python``, asked once: each side's and the dual
    wheel's copy of a site dir need the same cuda.pathfinder."""
    found = run(
        [
            python,
            "-c",
            f"import importlib.util, os; print(os.path.dirname(importlib.util.find_spec({package!r}).origin))",
        ],
        env=environment(pythonpath=()),
        output="capture",
        cwd=SCRATCH,
    )
    if found.returncode != 0:
        raise Fatal(f"{package} is not importable by {python}: {found.stderr.strip()[-300:]}")
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
    ours = install_path(session, target, target.install, "ours")
    if not regular_cuda(target):
        return {"ours": ours, "nvidia": (target.site,)}
    nvidia = with_core(
        target.site,
        nvidia_core_dir(session),
        machine_package_dir(session, "cuda.pathfinder"),
        SCRATCH / f"gpu-nvidia{target.minor}",
    )
    return {"ours": ours, "nvidia": (nvidia,)}


def regular_cuda(target: Target) -> bool:
    """Whether the minor's cuda-bindings makes ``cuda`` a regular package (12.8: cuda/__init__.py)."""
    return (target.site / "cuda" / "__init__.py").is_file()


def install_path(session: Session, target: Target, install: Path, name: str) -> tuple[Path, ...]:
    """The PYTHONPATH of our ``install`` (a minor's wheel, or the dual wheel) with this minor's
    cuda-bindings: the two, or where ``cuda`` is a regular package, a copy of the site dir with the
    install's cuda.core and the machine's cuda.pathfinder inside (sides())."""
    if not regular_cuda(target):
        return (install, target.site)
    pathfinder = machine_package_dir(session, "cuda.pathfinder")
    return (with_core(target.site, install / "cuda" / "core", pathfinder, SCRATCH / f"gpu-{name}{target.minor}"),)
