# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The built package on this machine (no GPU): import, build info, no-driver behaviour, import guard.

Each major's install is the session's: its build dir packed by meson-python into a wheel,
installed with pip --target, and run from its own venv with PYTHONPATH pointing at it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builds import MAJORS, SessionBuilds, Venv, bindings_pin, run


@pytest.fixture(scope="session")
def installed(builds: SessionBuilds) -> dict[int, Path]:
    """A regular (non-editable) install of each major: the session build's wheel, pip --target."""
    return {major: builds.installed(major) for major in MAJORS}


def run_in(venv: Venv, site: Path, *args: str, check: bool = True):
    return run([venv.python, *args], venv.env(PYTHONPATH=str(site)), site.parent, check=check)


@pytest.mark.parametrize("major", MAJORS)
def test_main_reports_build_and_no_driver(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    report = json.loads(run_in(venvs[major], installed[major], "-m", "cuda.core", "--json").stdout)
    assert report["build"]["cuda_major"] == major
    assert report["build"]["cuda_bindings_version"].startswith(f"{major}.")
    assert report["driver"] is None and report["error"].startswith("no CUDA driver found")
    assert report["cuda_bindings_installed"] == bindings_pin(major)
    text = run_in(venvs[major], installed[major], "-m", "cuda.core").stdout
    assert f"built for CUDA {major}" in text and "no CUDA driver found" in text
    assert f"running with cuda-bindings {bindings_pin(major)}" in text


@pytest.mark.parametrize("major", MAJORS)
def test_public_names_and_compiled_major(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = (
        "import json, cuda.core as c, cuda.core._utils.cuda_utils as u; "
        "print(json.dumps([sorted(c.__all__), u.BUILD_MAJOR, c.Device.__module__, c.launch.__module__]))"
    )
    names, compiled_major, device_module, launch_module = json.loads(
        run_in(venvs[major], installed[major], "-c", code).stdout
    )
    assert {
        "Buffer",
        "Device",
        "DeviceMemoryResource",
        "Event",
        "EventOptions",
        "Kernel",
        "LaunchConfig",
        "LegacyPinnedMemoryResource",
        "ObjectCode",
        "Program",
        "ProgramOptions",
        "Stream",
        "StreamOptions",
        "launch",
    } <= set(names)
    assert (compiled_major, device_module, launch_module) == (major, "cuda.core._device", "cuda.core._launcher")


@pytest.mark.parametrize("major", MAJORS)
def test_error_mapping_names_the_cuda_result(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = (
        "from cuda.core._utils.cuda_utils import check, CUDAError\n"
        "check(0)\n"
        "try:\n    check(1)\nexcept CUDAError as e:\n    print(e.code, e.name, e.description)\n"
    )
    out = run_in(venvs[major], installed[major], "-c", code).stdout.split(maxsplit=2)
    assert out[:2] == ["1", "CUDA_ERROR_INVALID_VALUE"] and out[2].strip()


@pytest.mark.parametrize("major", MAJORS)
def test_device_without_driver_raises_cleanly(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = (
        "import cuda.core\ntry:\n    cuda.core.Device()\nexcept cuda.core.DriverNotFoundError as e:\n"
        "    print('clean:', e)\n"
    )
    assert run_in(venvs[major], installed[major], "-c", code).stdout.startswith("clean: no CUDA driver found")


@pytest.mark.parametrize("built, other", [(12, 13), (13, 12)])
def test_import_guard_refuses_bindings_of_the_other_major(
    installed: dict[int, Path], venvs: dict[int, Venv], built: int, other: int
) -> None:
    result = run_in(venvs[other], installed[built], "-c", "import cuda.core", check=False)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: cuda.core was built for CUDA")
    assert f"CUDA {built}" in last and f"for CUDA {other}" in last
    assert f'pip install "cuda-bindings=={built}.*"' in last
    assert "(pip install . in this environment" in last  # a regular install's rebuild (issue 51: it named -e)


def test_importing_the_source_tree_says_it_is_not_a_build(builds: SessionBuilds, venvs: dict[int, Venv]) -> None:
    """From inside cuda_core/ the source package shadows any install: one clear ImportError, not
    Python's "circular import"."""
    source = builds.checkout / "cuda_core"
    result = run([venvs[13].python, "-c", "import cuda.core"], venvs[13].env(), source, check=False)
    last = result.stderr.strip().splitlines()[-1]
    assert result.returncode != 0 and "is the source tree, which holds no build" in last, result.stderr
    assert "pip install --no-build-isolation -e ." in last and "circular" not in result.stderr


@pytest.mark.parametrize("major", MAJORS)
def test_a_broken_bindings_import_is_not_called_missing(
    installed: dict[int, Path], venvs: dict[int, Venv], major: int
) -> None:
    """When cuda-bindings is installed but does not import, cuda.core says so, with the error, instead
    of calling it not installed."""
    code = (
        "import cuda.core as c; "
        "print(c._bindings_import_failure(c._build_info.cuda_major, ImportError('no module named x')))"
    )
    message = run_in(venvs[major], installed[major], "-c", code).stdout.strip()
    assert message.startswith(
        f"cuda.core was built for CUDA {major} and needs cuda-bindings {major}.x; "
        f"cuda-bindings {bindings_pin(major)} is installed (in "
    )
    assert message.endswith(
        f"but `import cuda.bindings` failed (no module named x): reinstall it: "
        f'pip install --force-reinstall "cuda-bindings=={major}.*"'
    )
