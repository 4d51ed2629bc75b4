# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The in-tree PEP 517 backend: what it requires, where editables build, and a real isolated install."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from builds import REPO_ROOT, Venv, bindings_pin, run
from cuda_core_build import backend, facts
from cuda_core_build import probe as cuda_probe


def fake_toolkit(root: Path, version: int, headers: tuple[str, ...] = facts.REQUIRED_HEADERS) -> Path:
    include = root / "include"
    include.mkdir(parents=True)
    for header in headers:
        text = f"#define CUDA_VERSION {version}\n" if header == "cuda.h" else "/* header */\n"
        (include / header).write_text(text)
    return root


@pytest.fixture
def nothing_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No CUDA_PATH/CUDA_HOME, no header wheels, and /usr/local/cuda replaced by an empty dir."""
    for variable in ("CUDA_PATH", "CUDA_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(cuda_probe, "wheel_headers", lambda: None)
    monkeypatch.setattr(cuda_probe, "DEFAULT_TOOLKIT", tmp_path / "no-cuda")
    return tmp_path / "no-cuda"


def test_requires_bindings_pinned_to_the_headers_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "cuda-12.9", 12090)))
    requires = backend.get_requires_for_build_wheel({})
    assert "cuda-bindings==12.9.*" in requires
    assert set(facts.tool_ranges()) <= set(requires)
    assert not any(r.startswith("nvidia-") for r in requires)


def test_an_isolated_build_requires_tool_ranges_from_the_floor(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A packager with any tool from the floor set up to the next major can build: no exact pin."""
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "cuda-13", 13000)))
    requires = backend.get_requires_for_build_wheel({})
    floor = facts.tool_pins("floor")
    for tool in ("meson", "meson-python", "ninja", "cython"):
        named = [r for r in requires if re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() == tool]
        assert named and not any("==" in r for r in named), (tool, requires)
        assert f"{tool}>={floor[tool]},<{int(floor[tool].split('.')[0]) + 1}" in named


def test_an_isolated_wheel_build_is_not_refused_as_an_editable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With the tools outside the target's site-packages (pip's isolation), a wheel builds and an editable is refused:
    mesonpy's editable requirements hook is its wheel hook, so the two must be told apart by more than the hook."""
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "cuda-13", 13000)))
    monkeypatch.setattr(backend, "install_site_dirs", lambda: [tmp_path / "target-site-packages"])
    assert "cuda-bindings==13.0.*" in backend.get_requires_for_build_wheel({})
    with pytest.raises(SystemExit, match="temporary isolated environment"):
        backend.get_requires_for_build_editable({})


def test_no_toolkit_at_all_requires_the_cuda13_header_wheels(nothing_found: Path) -> None:
    requires = backend.get_requires_for_build_wheel({})
    assert set(facts.requirements(facts.cuda_pins(facts.default_cuda(13)))) <= set(requires)
    assert any(r.startswith("nvidia-cuda-runtime==13") for r in requires)


def test_incomplete_default_toolkit_falls_back_on_its_majors_wheels(nothing_found: Path) -> None:
    fake_toolkit(nothing_found, 12090, headers=("cuda.h",))  # a toolkit without nvrtc.h
    assert set(facts.requirements(facts.cuda_pins(facts.default_cuda(12)))) <= set(
        backend.get_requires_for_build_editable({})
    )


def test_requested_major_picks_the_fallback_wheels(nothing_found: Path) -> None:
    requires = backend.get_requires_for_build_wheel({"setup-args": ["-Dcuda-major=12"]})
    assert set(facts.requirements(facts.cuda_pins(facts.default_cuda(12)))) <= set(requires)


def test_an_explicit_incomplete_toolkit_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "partial", 13000, headers=("cuda.h",))))
    with pytest.raises(SystemExit, match="nvrtc.h not found"):
        backend.get_requires_for_build_wheel({})


def test_setup_args_options_are_read_like_meson_does() -> None:
    settings = {"setup-args": ["-Dcuda-major=12", "-D", "cuda-path=/opt/cuda", "-Dcuda-major=13"]}
    assert backend.meson_option(settings, "cuda-major", "auto") == "13"
    assert backend.meson_option(settings, "cuda-path", "") == "/opt/cuda"
    assert backend.meson_option({"setup-args": "-Dcuda-path=/x -Dcython-coverage=true"}, "cuda-path", "") == "/x"
    assert backend.meson_option(None, "cuda-major", "auto") == "auto"


def test_editable_build_dir_is_per_python_major_and_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "cuda-12.9", 12090)))
    settings, major = backend.editable_build_dir({})
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert major == 12 and settings["build-dir"] == str(REPO_ROOT / "build" / f"{tag}-cu12-{backend.environment_key()}")
    assert backend.editable_build_dir({"build-dir": "mine"})[0]["build-dir"] == "mine"


def test_two_venvs_of_one_python_and_major_get_two_build_dirs(venvs: dict[int, Venv], tmp_path: Path) -> None:
    """Each venv asks the backend, with the same CUDA 13 headers: two build dirs, each named for
    its own environment (the cu12 venv's bindings play no part in the choice)."""
    root = fake_toolkit(tmp_path / "cuda-13", 13000)
    code = "from cuda_core_build import backend; print(backend.editable_build_dir({})[0]['build-dir'])"
    dirs = {
        major: run(
            [venv.python, "-c", code], venv.env(PYTHONPATH=str(REPO_ROOT / "tools"), CUDA_PATH=str(root)), tmp_path
        ).stdout.strip()
        for major, venv in venvs.items()
    }
    assert dirs[12] != dirs[13]
    for major, build_dir in dirs.items():
        assert Path(build_dir).parent == REPO_ROOT / "build"
        assert Path(build_dir).name.startswith(f"cp{sys.version_info.major}{sys.version_info.minor}-cu13-cu{major}-")


@pytest.mark.network
def test_an_isolated_editable_install_is_refused_before_building(make_checkout, venvs: dict[int, Venv]) -> None:
    """The isolated environment's tools are deleted after the install, but every import after an edit
    needs them: refused with one line naming the commands that make a venv holding them and install
    from it, and nothing is built."""
    checkout = make_checkout("isolated-editable")
    venv = venvs[13]
    result = run([venv.python, "-m", "pip", "install", "--no-deps", "-e", checkout], venv.env(), checkout, check=False)
    assert result.returncode != 0
    refusals = [
        line for line in (result.stdout + result.stderr).splitlines() if "cuda-core: an editable install" in line
    ]
    assert len(refusals) == 1, result.stdout + result.stderr
    assert "temporary isolated environment" in refusals[0]
    # Everything it takes, in one command line that works from a fresh clone.
    assert (
        "python3 tools/dev/devenv.py cu13 && .venvs/cu13/bin/python -m pip install --no-build-isolation -e ."
        in refusals[0]
    )
    # Or the user's own environment (issue 51: the refusal named only devenv's route).
    assert "or keep them in your own environment: pip install 'meson>=" in refusals[0]
    assert not (checkout / "build").exists()


def test_a_default_toolkit_of_another_major_falls_back_on_the_majors_wheels(nothing_found: Path) -> None:
    """-Dcuda-major=12 with a complete CUDA 13 toolkit at /usr/local/cuda (nobody pointed at it):
    NVIDIA's CUDA 12 header wheels, not an error."""
    fake_toolkit(nothing_found, 13000)
    requires = backend.get_requires_for_build_wheel({"setup-args": ["-Dcuda-major=12"]})
    assert set(facts.requirements(facts.cuda_pins(facts.default_cuda(12)))) <= set(requires)
    assert not any(r.startswith("nvidia-cuda-runtime==13") for r in requires)


def test_an_explicit_toolkit_of_another_major_stays_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CUDA_PATH", str(fake_toolkit(tmp_path / "cuda-13", 13000)))
    with pytest.raises(SystemExit, match="-Dcuda-major=12 but the headers"):
        backend.get_requires_for_build_wheel({"setup-args": ["-Dcuda-major=12"]})


def test_metadata_requires_its_major_and_offers_only_its_extra() -> None:
    """pyproject.toml's static range and both extras (what meson-python writes from it), narrowed to one major."""
    metadata = (
        "Metadata-Version: 2.1\nName: cuda-core\nRequires-Dist: cuda-bindings<14,>=12.8\n"
        "Requires-Dist: cuda-pathfinder>=1.1\nProvides-Extra: cu12\n"
        'Requires-Dist: cuda-bindings[all]==12.*; extra == "cu12"\nRequires-Dist: cuda-toolkit==12.*; extra == "cu12"\n'
        'Provides-Extra: cu13\nRequires-Dist: cuda-bindings[all]==13.*; extra == "cu13"\n'
        'Requires-Dist: cuda-toolkit==13.*; extra == "cu13"\n'
        'Provides-Extra: test\nRequires-Dist: pytest; extra == "test"\n\nREADME text\n'
    )
    patched = backend.metadata_for_major(metadata, 12)
    assert patched.splitlines()[:9] == [
        "Metadata-Version: 2.1",
        "Name: cuda-core",
        "Requires-Dist: cuda-bindings==12.*",
        "Requires-Dist: cuda-pathfinder>=1.1",
        "Provides-Extra: cu12",
        'Requires-Dist: cuda-bindings[all]==12.*; extra == "cu12"',
        'Requires-Dist: cuda-toolkit==12.*; extra == "cu12"',
        "Provides-Extra: test",
        'Requires-Dist: pytest; extra == "test"',
    ]
    assert "cu13" not in patched
    assert patched.endswith("\n\nREADME text\n")


def test_an_isolated_build_is_for_the_major_of_the_bindings_where_it_installs(
    venvs: dict[int, Venv], tmp_path: Path
) -> None:
    """pip runs the backend with the Python of the environment it installs into, its build tools
    on PYTHONPATH: here the cu13 venv's tools and, as the target, the cu12 venv, which holds
    cuda-bindings 12. The build is for CUDA 12 then, so pip keeps those bindings; a -Dcuda-major
    given wins, as does a toolkit pointed at; and where the tools are the target's own (no isolation)
    nothing is added."""
    code = (
        "import json, sys; from pathlib import Path; from cuda_core_build import backend; "
        "sites = {m: [Path(p)] for m, p in json.loads(sys.argv[1]).items()}; "
        "print(json.dumps([backend.for_install_target({}, sites['12']), "
        "backend.for_install_target({'setup-args': '-Dcuda-major=13'}, sites['12']), "
        "backend.for_install_target({}, sites['13']), backend.for_install_target({}, [Path(sys.argv[2])]), "
        "backend.for_install_target({'setup-args': '-Dcuda-path=/opt/cuda-13'}, sites['12'])]))"
    )
    sites = json.dumps({major: str(venv.site_packages) for major, venv in venvs.items()})
    result = run(
        [venvs[13].python, "-c", code, sites, tmp_path], venvs[13].env(PYTHONPATH=str(REPO_ROOT / "tools")), tmp_path
    )
    target_12, asked_13, not_isolated, nothing_installed, pointed = json.loads(result.stdout.splitlines()[-1])
    assert target_12 == [{"setup-args": ["-Dcuda-major=12"]}, bindings_pin(12)]
    assert (
        f"cuda-bindings {bindings_pin(12)} is installed in {venvs[12].site_packages}: building for CUDA 12"
        in result.stdout
    )
    assert asked_13 == [{"setup-args": "-Dcuda-major=13"}, None]
    assert not_isolated == [{}, None] and nothing_installed == [{}, None]
    # A toolkit pointed at (-Dcuda-path, CUDA_PATH, CUDA_HOME) decides the major itself.
    assert pointed == [{"setup-args": "-Dcuda-path=/opt/cuda-13"}, None]


def test_the_header_wheels_are_of_the_installed_bindings_minor(nothing_found: Path) -> None:
    """Built against a newer minor's cuda-bindings, the package may not load with the older ones
    the target holds: the header wheels and bindings of their minor, where the matrix has it."""
    asked_12 = {"setup-args": ["-Dcuda-major=12"]}
    assert set(facts.requirements(facts.cuda_pins("12.8"))) <= set(backend.cuda_requirements(asked_12, "12.8.0"))
    default = facts.requirements(facts.cuda_pins(facts.default_cuda(12)))
    assert set(default) <= set(backend.cuda_requirements(asked_12, "12.6.3"))


def test_an_sdist_requires_only_its_tools() -> None:
    """Issue 50: making an sdist installed cuda-bindings and the header wheels (330 MB), which it does not
    need: its hook asks for meson-python's requirements and the build tools alone."""
    requires = backend.get_requires_for_build_sdist({})
    assert set(facts.tool_ranges()) <= set(requires)
    assert not [r for r in requires if r.startswith(("cuda-bindings", "nvidia-"))], requires
