"""Shared pieces of the build tests: the per-major venvs, scratch checkouts, and real meson/ninja runs.

Every build here is real: meson, ninja, Cython and g++ from the pinned venvs of
tools/devenv.py, against the CUDA 12 and CUDA 13 header wheels installed there.
The test command (tools/run_tests.py) creates both venvs before pytest starts.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MAJORS = (12, 13)
EXTENSIONS = ("cuda_utils", "_system", "_device", "_event", "_stream", "_memory", "_module", "_program", "_launch")


@dataclass(frozen=True)
class Venv:
    """One pinned environment of tools/devenv.py."""

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
        env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV")}
        if activated:
            env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
            env["VIRTUAL_ENV"] = str(self.root)
        else:
            env["PATH"] = "/usr/bin:/bin"
        env.update(updates)
        return env


def venv_for(major: int) -> Venv:
    venv = Venv(major, REPO_ROOT / ".venvs" / f"cu{major}")
    if not venv.python.exists():
        pytest.fail(f"{venv.root} is missing: run `python tools/devenv.py cu{major}` (tools/run_tests.py does)")
    return venv


@pytest.fixture(scope="session")
def venvs() -> dict[int, Venv]:
    return {major: venv_for(major) for major in MAJORS}


def run(cmd: list[str | Path], env: dict[str, str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing text; on failure show its output in the assertion."""
    result = subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, text=True, capture_output=True)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n"
                             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def copy_checkout(target: Path) -> Path:
    """A scratch copy of the repo's tracked and unignored files, so tests can edit and build freely."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO_ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="session")
def make_checkout(tmp_path_factory: pytest.TempPathFactory):
    """Factory of fresh scratch checkouts."""
    def make(name: str) -> Path:
        return copy_checkout(tmp_path_factory.mktemp(name))
    return make


def meson_setup(venv: Venv, source: Path, build_dir: Path, *options: str, cwd: Path | None = None,
                check: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "meson", "setup", build_dir, source, *options], venv.env(**env),
               cwd or source, check=check)


def meson_configure(venv: Venv, build_dir: Path, *options: str, check: bool = True,
                    **env: str) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "meson", "configure", build_dir, *options], venv.env(**env), build_dir, check=check)


def ninja(venv: Venv, build_dir: Path, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    return run([venv.bin / "ninja", "-C", build_dir, *args], venv.env(**env), build_dir, check=check)


def dry_run(venv: Venv, build_dir: Path) -> str:
    """What ninja would do now, and why (``-n -d explain``), without doing it."""
    result = ninja(venv, build_dir, "-n", "-d", "explain")
    return result.stdout + result.stderr


def extension_files(build_dir: Path) -> dict[str, Path]:
    """The built extension modules of a build dir, by module name."""
    found = {}
    for name in EXTENSIONS:
        matches = sorted(build_dir.glob(f"cuda_core/cuda/core/**/{name}.cpython-*.so"))
        assert len(matches) == 1, f"expected one {name} module in {build_dir}, found {matches}"
        found[name] = matches[0]
    return found


def extension_hashes(build_dir: Path) -> dict[str, str]:
    return {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in extension_files(build_dir).items()}


def build_info(build_dir: Path) -> dict[str, object]:
    """The values of the generated _build_info.py."""
    namespace: dict[str, object] = {}
    exec((build_dir / "cuda_core" / "cuda" / "core" / "_build_info.py").read_text(), namespace)
    return {k: v for k, v in namespace.items() if not k.startswith("__")}


def cython_steps(output: str) -> set[str]:
    """Modules whose Cython step ninja ran or would run, from its status lines."""
    return {line.rsplit("/", 1)[-1].removesuffix(".pyx") for line in output.splitlines()
            if "Compiling Cython source" in line}


def compile_steps(output: str) -> set[str]:
    """Object files ninja compiled or would compile, e.g. '_device.pyx.cpp.o'."""
    steps = set()
    for line in output.splitlines():
        if "Compiling C++ object" in line:
            steps.add(line.rsplit("/", 1)[-1].removeprefix("meson-generated_"))
    return steps


# tests/gpu and tests/api need an importable cuda.core: test_package.py runs them
# against a real install of each major (tests/gpu expecting a clean skip without a
# driver); the GPU machine runs them directly.
collect_ignore = [name for name, flag in (("gpu", "CUDA_CORE_GPU_TESTS"), ("api", "CUDA_CORE_API_TESTS"))
                  if os.environ.get(flag) != "1"]
