"""The built package on this machine (no GPU): import, build info, no-driver behaviour, import guard.

Each major is built for real through the in-tree backend (pip --no-build-isolation
--target), then run from its own venv with PYTHONPATH pointing at the install.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO_ROOT, Venv, run


@pytest.fixture(scope="session")
def installed(make_checkout, venvs: dict[int, Venv], tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """A regular (non-editable) install of each major into its own --target directory."""
    checkout = make_checkout("package")
    targets = {}
    for major, venv in venvs.items():
        target = tmp_path_factory.mktemp(f"site-cu{major}")
        run([venv.python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "--target", target,
             checkout], venv.env(), checkout)
        targets[major] = target
    return targets


def run_in(venv: Venv, site: Path, *args: str, check: bool = True):
    return run([venv.python, *args], venv.env(PYTHONPATH=str(site)), site.parent, check=check)


@pytest.mark.parametrize("major", [12, 13])
def test_main_reports_build_and_no_driver(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    report = json.loads(run_in(venvs[major], installed[major], "-m", "cuda.core", "--json").stdout)
    assert report["build"]["cuda_major"] == major
    assert report["build"]["cuda_bindings_version"].startswith(f"{major}.")
    assert report["driver"] is None and report["error"].startswith("no CUDA driver found")
    text = run_in(venvs[major], installed[major], "-m", "cuda.core").stdout
    assert f"built for CUDA {major}" in text and "no CUDA driver found" in text


@pytest.mark.parametrize("major", [12, 13])
def test_public_names_and_compiled_major(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = ("import json, cuda.core as c, cuda.core._utils.cuda_utils as u; "
            "print(json.dumps([sorted(c.__all__), u.BUILD_MAJOR, c.Device.__module__, c.launch.__module__]))")
    names, compiled_major, device_module, launch_module = json.loads(run_in(venvs[major], installed[major], "-c", code).stdout)
    assert {"Buffer", "Device", "DeviceMemoryResource", "Event", "EventOptions", "Kernel", "LaunchConfig",
            "LegacyPinnedMemoryResource", "ObjectCode", "Program", "ProgramOptions", "Stream", "StreamOptions",
            "launch"} <= set(names)
    assert (compiled_major, device_module, launch_module) == (major, "cuda.core._device", "cuda.core._launcher")


@pytest.mark.parametrize("major", [12, 13])
def test_error_mapping_names_the_cuda_result(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = ("from cuda.core._utils.cuda_utils import check, CUDAError\n"
            "check(0)\n"
            "try:\n    check(1)\nexcept CUDAError as e:\n    print(e.code, e.name, e.description)\n")
    out = run_in(venvs[major], installed[major], "-c", code).stdout.split(maxsplit=2)
    assert out[:2] == ["1", "CUDA_ERROR_INVALID_VALUE"] and out[2].strip()


@pytest.mark.parametrize("major", [12, 13])
def test_device_without_driver_raises_cleanly(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    code = ("import cuda.core\ntry:\n    cuda.core.Device()\nexcept cuda.core.DriverNotFoundError as e:\n"
            "    print('clean:', e)\n")
    assert run_in(venvs[major], installed[major], "-c", code).stdout.startswith("clean: no CUDA driver found")


@pytest.mark.parametrize("built, other", [(12, 13), (13, 12)])
def test_import_guard_refuses_bindings_of_the_other_major(installed: dict[int, Path], venvs: dict[int, Venv],
                                                          built: int, other: int) -> None:
    result = run_in(venvs[other], installed[built], "-c", "import cuda.core", check=False)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: cuda.core was built for CUDA")
    assert f"CUDA {built}" in last and f"for CUDA {other}" in last
    assert f'pip install "cuda-bindings=={built}.*"' in last


@pytest.mark.parametrize("major", [12, 13])
def test_gpu_suite_skips_cleanly_without_a_driver(installed: dict[int, Path], venvs: dict[int, Venv],
                                                  major: int) -> None:
    result = run([venvs[major].python, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", REPO_ROOT / "tests/gpu"],
                 venvs[major].env(PYTHONPATH=str(installed[major]), CUDA_CORE_GPU_TESTS="1"), installed[major])
    assert "skipped" in result.stdout and "no CUDA driver found" in result.stdout, result.stdout
    assert "failed" not in result.stdout and "error" not in result.stdout.lower()


@pytest.mark.parametrize("major", [12, 13])
def test_streams_and_events_are_made_by_their_factories(installed: dict[int, Path], venvs: dict[int, Venv],
                                                        major: int) -> None:
    code = ("import cuda.core as c\n"
            "for cls in (c.Stream, c.Event):\n"
            "    try:\n        cls()\n    except RuntimeError as e:\n        print(e)\n"
            "print(c.StreamOptions(), c.EventOptions())\n")
    out = run_in(venvs[major], installed[major], "-c", code).stdout.splitlines()
    assert out == ["Stream objects are made by Device.create_stream()",
                   "Event objects are made by Stream.record() or Device.create_event()",
                   "StreamOptions(nonblocking=True, priority=None) EventOptions(enable_timing=False, "
                   "busy_waited_sync=False)"]


@pytest.mark.parametrize("major", [12, 13])
def test_api_suite_passes(installed: dict[int, Path], venvs: dict[int, Venv], major: int) -> None:
    """tests/api (validation, packing, NVRTC, no-driver errors) against this major's install."""
    result = run([venvs[major].python, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", REPO_ROOT / "tests/api"],
                 venvs[major].env(PYTHONPATH=str(installed[major]), CUDA_CORE_API_TESTS="1"), installed[major],
                 check=False)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0 and " passed" in summary, result.stdout[-6000:] + result.stderr[-2000:]
