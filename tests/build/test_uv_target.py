# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""uv and ``python -m build`` keep the user's CUDA major (issue 42): real uv, real frontends.

uv runs the backend in a build environment of its own and shows it nothing of the target but
its own process: the backend reads uv's command line and environment (tools/cuda_core_build/
frontend.py) as uv does to find where it installs. In a uv venv holding cuda-bindings 12.9, each
command either builds for CUDA 12, keeping those bindings, or stops before building in one line
naming ``-Csetup-args=-Dcuda-major=12``. These stop before compiling (refusals), or build a wheel
through caches (``uv build --wheel``). The other full builds are shared with tests that build
anyway: ``uv pip install .`` in such a venv is README's uv quick start (tests/build/test_readme.py
checks what it installed), ``python -m build`` in a CUDA 12 venv is tests/build/test_wheels.py's.
"""

from __future__ import annotations

from pathlib import Path

import devenv
import pytest
from builds import REPO_ROOT, SessionBuilds, Uv, Venv, bindings_pin, run
from cuda_core_build import facts, frontend

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def cu12_venv(uv: Uv, venvs: dict[int, Venv], tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A uv venv holding cuda-bindings 12.9 and nothing else of CUDA, as the issue's user had."""
    return uv.venv(tmp_path_factory.mktemp("uv-cu12") / "venv", venvs[12].python, f"cuda-bindings=={bindings_pin(12)}")


def uv_env(uv: Uv, venv: Venv, builds: SessionBuilds, activated: bool = True) -> dict[str, str]:
    """uv's environment with ``venv`` activated (VIRTUAL_ENV, its bin first) and ccache on PATH."""
    tools = builds.venvs[13].bin
    env = uv.env(CCACHE_DIR=str(REPO_ROOT / "build" / "ccache"))
    env["PATH"] = f"{venv.bin}:{tools}:{env['PATH']}" if activated else f"{tools}:{env['PATH']}"
    return {**env, "VIRTUAL_ENV": str(venv.root)} if activated else env


def bindings_of(venv: Venv) -> str:
    code = "import importlib.metadata as m; print(m.version('cuda-bindings'))"
    return run([venv.python, "-c", code], venv.env(), venv.root).stdout.strip()


def one_line(output: str, marker: str) -> str:
    lines = [line.strip() for line in output.splitlines() if marker in line]
    assert len(lines) == 1 and "Traceback" not in output, output
    return lines[0]


def test_uv_isolated_editable_is_refused_for_the_users_major(
    uv: Uv, cu12_venv: Venv, builds: SessionBuilds, make_checkout
) -> None:
    """uv's isolated build environment holds the tools, so the backend saw no isolation and the editable
    install 'succeeded', then every import failed: now refused, the advice for CUDA 12 and for uv."""
    checkout = make_checkout("uv-editable")
    result = run([uv.path, "pip", "install", "-e", "."], uv_env(uv, cu12_venv, builds), checkout, check=False)
    assert result.returncode != 0
    refusal = one_line(result.stdout + result.stderr, "cuda-core: an editable install")
    assert (
        "python3 tools/dev/devenv.py cu12 && uv pip install --python .venvs/cu12/bin/python --no-build-isolation -e ."
        in refusal
    )
    assert "or keep them in your own environment: uv pip install 'meson>=" in refusal
    assert not (checkout / "build").exists() and bindings_of(cu12_venv) == bindings_pin(12)


@pytest.mark.parametrize("source", ["."])  # -e: refused as isolated first (above); an extra names the major
def test_uv_with_a_python_that_names_no_environment_stops_naming_the_major(
    uv: Uv, cu12_venv: Venv, builds: SessionBuilds, make_checkout, source: str
) -> None:
    """``--python 3.11`` is a request uv resolves itself: the target cannot be told, but the active venv
    holds cuda-bindings 12 and the default would be CUDA 13, so the build stops before compiling."""
    checkout = make_checkout("uv-unknown")
    env = uv_env(uv, cu12_venv, builds)
    result = run([uv.path, "pip", "install", "--python", "3.11", *source.split()], env, checkout, check=False)
    assert result.returncode != 0
    refusal = one_line(result.stdout + result.stderr, "cuda-core:")
    assert refusal.endswith("-Csetup-args=-Dcuda-major=12") and f"cuda-bindings {bindings_pin(12)}" in refusal
    assert bindings_of(cu12_venv) == bindings_pin(12)


@pytest.mark.parametrize("given", ["active venv", "--python"])
def test_uv_build_sees_the_users_venv(
    uv: Uv, cu12_venv: Venv, builds: SessionBuilds, make_checkout, tmp_path: Path, given: str
) -> None:
    """``uv build`` in the active venv, or given its Python (no venv active): the wheel's requirements hook says
    it builds for CUDA 12 and requires CUDA 12's packages. (The sdist's hook asks for no CUDA at all.)"""
    args = ["build", "-v", "--wheel", "-o", tmp_path]
    args += ["--python", str(cu12_venv.python)] if given == "--python" else []
    env = uv_env(uv, cu12_venv, builds, activated=given != "--python")
    result = run([uv.path, *args], env, make_checkout("uv-build"))
    output = result.stdout + result.stderr
    assert f"cuda-bindings {bindings_pin(12)} is installed in {cu12_venv.root}: building for CUDA 12" in output
    assert "cuda-bindings==13" not in output and "nvidia-cuda-runtime-cu12" in output


def test_the_frontends_target_as_uv_finds_it(cu12_venv: Venv, tmp_path: Path) -> None:
    """uv's order: --target, --python (a venv or its interpreter), VIRTUAL_ENV, CONDA_PREFIX, the project's
    .venv; a --python that is a version request names no environment. build: its interpreter's venv."""
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    (tmp_path / "proj" / ".venv").mkdir()
    (tmp_path / "proj" / ".venv" / "pyvenv.cfg").write_text("")
    venv = str(cu12_venv.root)

    def target(argv: list[str], **environ: str) -> tuple[Path | None, str]:
        return frontend.target(frontend.Frontend(tuple(argv), tmp_path / "proj" / "sub", environ))

    assert target(["uv", "pip", "install", "--target", "/t", "."]) == (Path("/t"), "")
    assert target(["uv", "pip", "install", "-p", f"{venv}/bin/python", "."], VIRTUAL_ENV="/x") == (cu12_venv.root, "")
    assert target(["/x/uv", "pip", "install", f"--python={venv}", "."]) == (cu12_venv.root, "")
    assert target(["uv", "pip", "install", "."], VIRTUAL_ENV=venv, CONDA_PREFIX="/c") == (cu12_venv.root, "")
    assert target(["uv", "pip", "install", "."], CONDA_PREFIX="/c") == (Path("/c"), "")
    assert target(["uv", "build"]) == (tmp_path / "proj" / ".venv", "")
    assert target(["uv", "pip", "install", "-p", "3.11", "."], VIRTUAL_ENV=venv)[0] is None
    assert target([f"{venv}/bin/python", "-m", "build", "."]) == (cu12_venv.root, "")
    assert target(["python3", "-m", "build"], PATH=str(cu12_venv.bin)) == (cu12_venv.root, "")
    assert target([f"{venv}/bin/python", f"{venv}/bin/pyproject-build"]) == (cu12_venv.root, "")
    assert target(["/usr/bin/make"])[0] is None
    assert frontend.bindings_version(cu12_venv.root) == bindings_pin(12)


def test_python_39_is_refused_in_one_line(uv: Uv, make_checkout, tmp_path: Path) -> None:
    """uv does not check requires-python of a source tree before building it: the backend's first import
    refuses Python 3.9 in one line naming the Pythons it builds for (it was request.py's TypeError)."""
    try:
        python = devenv.find_python("3.9")
    except devenv.PythonMissing as err:
        pytest.skip(str(err))
    venv = uv.venv(tmp_path / "py39", python)
    result = run(
        [uv.path, "pip", "install", "--python", venv.python, "."], uv.env(), make_checkout("py39"), check=False
    )
    assert result.returncode != 0
    refusal = one_line(result.stdout + result.stderr, "cuda-core:")
    assert refusal == "cuda-core: Python 3.9 is not supported: cuda-core builds for CPython 3.10 to 3.13; " + (
        "install into an environment of one of those"
    )


def test_without_isolation_the_missing_build_tools_are_named_in_one_line(
    uv: Uv, cu12_venv: Venv, builds: SessionBuilds, make_checkout
) -> None:
    """``uv pip install --no-build-isolation .`` in a venv without the build tools said only "No module named
    mesonpy": now one line with the command that installs them, in uv's spelling, their ranges from the facts."""
    result = run(
        [uv.path, "pip", "install", "--no-build-isolation", "."],
        uv_env(uv, cu12_venv, builds),
        make_checkout("uv-no-isolation"),
        check=False,
    )
    assert result.returncode != 0
    refusal = one_line(result.stdout + result.stderr, "cuda-core:")
    assert refusal.endswith("install them first: uv pip install " + " ".join(map(repr, facts.tool_ranges())))


@pytest.mark.slow
def test_the_extra_of_a_major_builds_that_major_with_pip_and_uv(
    uv: Uv, builds: SessionBuilds, constraints: Path, make_checkout, tmp_path: Path
) -> None:
    """Issue 51: ``pip install ".[cu12]"`` (NVIDIA's ``cuda-core[cu12]``, applied to the source) built CUDA 13
    in a fresh venv; pip passes no extra to the backend, which now reads it from the command line. The extra
    with another -Dcuda-major is one line before anything compiles, and an unknown major names the extras; uv
    installs a CUDA 12 build into a venv with no cuda-bindings, where CUDA 13 is the default."""
    checkout = make_checkout("extras")
    env = uv_env(uv, builds.venvs[13], builds, activated=False) | {"PIP_CONSTRAINT": str(constraints)}
    pip = [builds.venvs[13].python, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "pip"]
    run([*pip, ".[cu12]"], env, checkout)
    (wheel,) = (tmp_path / "pip").glob("cuda_core-*.whl")
    info = run([builds.venvs[13].python, "-c", INFO, wheel], env, tmp_path).stdout
    assert "cuda_major = 12" in info and "Requires-Dist: cuda-bindings==12.*" in info
    for given, said in [("-Csetup-args=-Dcuda-major=13 .[cu12]", "-Dcuda-major=13 asks for another"),
                        (".[cu11]", "cuda-core builds for cu12, cu13")]:  # fmt: skip
        refused = run([*pip, *given.split()], env, checkout, check=False)
        assert refused.returncode != 0
        assert said in one_line(refused.stdout + refused.stderr, "cuda-core: the extra [")
    fresh = uv.venv(tmp_path / "uv-venv", builds.venvs[13].python)
    run([uv.path, "pip", "install", "--no-deps", "--python", fresh.python, ".[cu12]"], env, checkout)
    installed = next(fresh.root.glob("lib/python*/site-packages/cuda/core/_build_info.py")).read_text()
    assert "cuda_major = 12" in installed


INFO = (
    "import sys, zipfile; w = zipfile.ZipFile(sys.argv[1]); "
    "print(w.read(next(n for n in w.namelist() if n.endswith('/_build_info.py'))).decode()); "
    "print(w.read(next(n for n in w.namelist() if n.endswith('.dist-info/METADATA'))).decode())"
)
