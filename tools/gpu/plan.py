# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What a run builds and carries: the CUDA minors, their scratch dirs on the GPU machine, the
wheels each build needs from the carried folder (WHEELS), and the checks made before anything runs.

Everything here is derived from requirements/matrix.ini (tools/cuda_core_build/facts.py) and the
files present: no process is started, so all of it runs on a machine without a GPU.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cuda_core_build import facts

from gpu.process import Fatal

REPO_ROOT = Path(__file__).resolve().parents[2]
MACHINE_TOOLKIT = Path("/usr/local/cuda")
LENT_MACHINE_CUDA = "13.0"  # the lent GPU machine's /usr/local/cuda: its minor needs no header wheels
BUILD_TOOLS = ("meson-python", "pyproject-metadata")  # the build tools the GPU machine lacks
SCRATCH = Path("/tmp")
SETUP_DONE = SCRATCH / "gpu-setup-done"
TOOLS_SITE = SCRATCH / "gpu-tools"
NVRTC12 = SCRATCH / "nvrtc12"
DUAL_WHEEL_DIR = SCRATCH / "gpu-dual-wheel"
DUAL_INSTALL = SCRATCH / "gpu-dual"


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
            f"docs/gpu.md says how to download them "
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


def preflight(wheels: Path, targets: Sequence[Target], tag: str, dual_only: bool = False) -> list[Plan]:
    """Every minor's plan (none with ``dual_only``: nothing is built), and the carried files in
    ``wheels`` the run needs, checked before anything is built; Fatal naming every problem."""
    problems: list[str] = []
    plans: list[Plan] = []
    if not SETUP_DONE.exists() and not list((wheels / "tools").glob("*.whl")):
        problems.append(f"{wheels / 'tools'} holds no wheels ({' '.join(requirements('tools'))})")
    nvrtc12 = wheels / "cu12-nvrtc" / "nvrtc12.tar.xz"
    if any(t.major == 12 for t in targets) and not (NVRTC12 / ".unpacked").exists() and not nvrtc12.is_file():
        problems.append(f"{nvrtc12} is missing (libnvrtc.so.12 for the CUDA 12 runs)")
    for target in [] if dual_only else targets:
        try:
            plans.append(plan_build(target, wheels, tag))
        except Fatal as error:
            problems.append(str(error))
    if problems:
        raise Fatal("\n".join(problems))
    return plans


def from_repo(path: Path) -> Path:
    """A path given on the command line: relative ones are taken from the repository, never the cwd."""
    return path if path.is_absolute() else REPO_ROOT / path
