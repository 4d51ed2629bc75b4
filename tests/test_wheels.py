"""sdist, per-major wheels, the dual wheel, and reproducibility: real builds and real installs."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import EXTENSIONS, REPO_ROOT, Venv, run

sys.path.insert(0, str(REPO_ROOT / "tools"))
from wheel_files import Wheel, build_info_of  # noqa: E402

SOURCE_DATE_EPOCH = "1700000000"
MERGE = REPO_ROOT / "tools" / "merge_wheels.py"


@dataclass
class Artifacts:
    sdist: Path
    wheels: dict[int, Path]
    twin13: Path  # a second cu13 wheel from the same sdist, built separately


def git_snapshot(checkout: Path, env: dict[str, str]) -> None:
    """meson dist packs what git tracks: make the scratch checkout a repository."""
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        run([*git, *args], env, checkout)


def wheel_from_sdist(venv: Venv, sdist: Path, out: Path) -> Path:
    """Build a wheel from the sdist with the venv's tools and headers, offline."""
    run([venv.python, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "--no-index", "-w", out, sdist],
        venv.env(SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH), out.parent)
    return next(out.glob("cuda_core-*.whl"))


@pytest.fixture(scope="module")
def artifacts(make_checkout, venvs: dict[int, Venv], tmp_path_factory: pytest.TempPathFactory) -> Artifacts:
    checkout = make_checkout("sdist-source")
    git_snapshot(checkout, venvs[13].env())
    dist = tmp_path_factory.mktemp("dist")
    run([venvs[13].python, "-m", "build", "--sdist", "--no-isolation", "--outdir", dist, checkout],
        venvs[13].env(SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH), checkout)
    sdist = next(dist.glob("cuda_core-*.tar.gz"))
    wheels = {major: wheel_from_sdist(venv, sdist, tmp_path_factory.mktemp(f"wheel-cu{major}"))
              for major, venv in venvs.items()}
    twin = wheel_from_sdist(venvs[13], sdist, tmp_path_factory.mktemp("wheel-cu13-twin"))
    return Artifacts(sdist, wheels, twin)


def install_target(venv: Venv, wheel: Path, target: Path) -> dict[str, str]:
    run([venv.python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", target, wheel],
        venv.env(), target.parent)
    return venv.env(PYTHONPATH=str(target))


@pytest.mark.parametrize("major", [12, 13])
def test_per_major_wheel_from_the_sdist(artifacts: Artifacts, major: int) -> None:
    wheel = Wheel.read(artifacts.wheels[major])
    info = build_info_of(wheel)
    assert info["cuda_major"] == major and str(info["cuda_bindings_version"]).startswith(f"{major}.")
    metadata = wheel.text(wheel.dist_info("METADATA")).partition("\n\n")[0].splitlines()
    other = 25 - major
    assert f"Requires-Dist: cuda-bindings=={major}.*" in metadata
    assert f"Provides-Extra: cu{major}" in metadata and f"Provides-Extra: cu{other}" not in metadata
    assert sum(name.endswith(".so") for name in wheel.contents) == len(EXTENSIONS)


def test_wrong_major_refuses_to_import_in_a_fresh_venv(artifacts: Artifacts, venvs: dict[int, Venv],
                                                       tmp_path: Path) -> None:
    """The cu12 wheel in a fresh venv with CUDA 13 bindings (from PyPI): the clear ImportError."""
    fresh = tmp_path / "fresh"
    env = venvs[13].env(activated=False)
    run([sys.executable, "-m", "venv", fresh], env, tmp_path)
    bindings = [line for line in (REPO_ROOT / "requirements/cu13.txt").read_text().splitlines()
                if line.startswith("cuda-bindings")]
    run([fresh / "bin/python", "-m", "pip", "install", "-q", *bindings], env, tmp_path)
    run([fresh / "bin/python", "-m", "pip", "install", "-q", "--no-deps", artifacts.wheels[12]], env, tmp_path)
    result = subprocess.run([fresh / "bin/python", "-c", "import cuda.core"], env=env, cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "built for CUDA 12" in last and "is for CUDA 13" in last and 'pip install "cuda-bindings==12.*"' in last


def test_builds_are_reproducible(artifacts: Artifacts) -> None:
    """Two builds of one sdist and major: the same bytes, and SOURCE_DATE_EPOCH in every entry."""
    first, second = Wheel.read(artifacts.wheels[13]), Wheel.read(artifacts.twin13)
    extensions = [name for name in first.contents if name.endswith(".so")]
    assert extensions and all(first.contents[n] == second.contents[n] for n in extensions)
    assert first.contents == second.contents
    digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (artifacts.wheels[13], artifacts.twin13)}
    assert len(digests) == 1, "the wheel files differ although every entry matches"
    stamp = datetime.fromtimestamp(int(SOURCE_DATE_EPOCH), tz=timezone.utc).timetuple()[:6]
    with zipfile.ZipFile(artifacts.wheels[13]) as archive:
        assert {info.date_time for info in archive.infolist()} == {stamp}


@pytest.fixture(scope="module")
def dual(artifacts: Artifacts, tmp_path_factory: pytest.TempPathFactory, venvs: dict[int, Venv]) -> Path:
    out = tmp_path_factory.mktemp("dual")
    run([venvs[13].python, MERGE, artifacts.wheels[12], artifacts.wheels[13], "-o", out], venvs[13].env(), out)
    return next(out.glob("cuda_core-*.whl"))


@pytest.mark.parametrize("major", [12, 13])
def test_dual_wheel_picks_the_build_of_the_installed_bindings(dual: Path, venvs: dict[int, Venv], tmp_path: Path,
                                                              major: int) -> None:
    env = install_target(venvs[major], dual, tmp_path / "site")
    report = json.loads(run([venvs[major].python, "-m", "cuda.core", "--json"], env, tmp_path).stdout)
    assert report["build"]["cuda_major"] == major
    code = "import cuda.core, cuda.core._device as d; print(d.__file__); print(cuda.core.Device.__module__)"
    where, module = run([venvs[major].python, "-c", code], env, tmp_path).stdout.split()
    assert f"/cuda/core/_cu{major}/" in where and module == "cuda.core._device"


def test_dual_wheel_metadata_offers_both_extras(dual: Path) -> None:
    wheel = Wheel.read(dual)
    header = wheel.text(wheel.dist_info("METADATA")).partition("\n\n")[0].splitlines()
    assert not [line for line in header if line.startswith("Requires-Dist: cuda-bindings") and ";" not in line]
    for major in (12, 13):
        assert f'Requires-Dist: cuda-bindings=={major}.*; extra == "cu{major}"' in header
    assert {build_info_of(wheel, f"_cu{m}/")["cuda_major"] for m in (12, 13)} == {12, 13}


def altered_copy(source: Path, target_dir: Path, **build_info: str) -> Path:
    """A copy of a wheel whose build info has the given values changed."""
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / source.name
    shutil.copy2(source, target)
    wheel = Wheel.read(target)
    text = wheel.text("cuda/core/_build_info.py")
    for key, value in build_info.items():
        old = build_info_of(wheel)[key]
        text = text.replace(f"{key} = {old!r}", f"{key} = {value!r}")
    wheel.put("cuda/core/_build_info.py", text.encode())
    wheel.write(target)
    return target


@pytest.mark.parametrize("case, expected", [
    ("same major", "both wheels are CUDA 13 builds"),
    ("other version", "different versions"),
    ("other source", "different sources"),
])
def test_merge_refusals(artifacts: Artifacts, venvs: dict[int, Venv], tmp_path: Path, case: str,
                        expected: str) -> None:
    cu12 = artifacts.wheels[12]
    if case == "same major":
        pair = [artifacts.twin13, artifacts.wheels[13]]
    elif case == "other version":
        pair = [altered_copy(cu12, tmp_path / "v", version="0.0.9"), artifacts.wheels[13]]
    else:
        pair = [altered_copy(cu12, tmp_path / "s", source_digest="0" * 64), artifacts.wheels[13]]
    result = run([venvs[13].python, MERGE, *pair, "-o", tmp_path / "out"], venvs[13].env(), tmp_path, check=False)
    assert result.returncode == 1 and not (tmp_path / "out").exists()
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and expected in result.stderr


def test_isolated_wheel_build_follows_the_headers_of_the_environment(make_checkout, venvs: dict[int, Venv],
                                                                     tmp_path: Path) -> None:
    """`python -m build --wheel`, isolated, with CUDA_PATH at CUDA 12 headers: the backend asks for
    cuda-bindings 12.9 and the wheel is a CUDA 12 build."""
    checkout = make_checkout("isolated-cu12")
    nvidia = venvs[12].site_packages / "nvidia"
    cuda_path = ":".join(str(nvidia / part) for part in ("cuda_runtime", "cuda_nvrtc", "cuda_profiler_api"))
    out = tmp_path / "dist"
    result = run([venvs[13].python, "-m", "build", "--wheel", "--outdir", out, checkout],
                 venvs[13].env(CUDA_PATH=cuda_path), checkout)
    assert "requiring cuda-bindings==12.9.*" in result.stdout + result.stderr
    info = build_info_of(Wheel.read(next(out.glob("cuda_core-*.whl"))))
    assert info["cuda_major"] == 12 and info["cuda_version"] == 12090
