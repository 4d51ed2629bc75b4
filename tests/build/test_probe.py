# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The probe (tools/cuda_core_build) against fake toolkit trees and the real cu12/cu13 venvs.

Three ways in: tools/dev/cuda_probe.py, the developer CLI that prints the result as JSON; the
``configure`` step (tools/cuda_core_build/steps.py), which records the environment in the build
directory; and the ``build_info`` step, which writes _build_info.py and its depfile.
Every run is a subprocess of a venv's interpreter, from an empty scratch directory (never
the repo), with CUDA_PATH and CUDA_HOME taken out of the environment unless a test sets
them: nothing here depends on /usr/local/cuda.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import cuda_probe
import pytest
from builds import BASE_PYTHON, PROBE, Uv, bindings_pin, venv_for
from cuda_core_build import facts, record
from cuda_core_build import probe as probe_library
from cuda_core_build.probe import Request

REPO_ROOT = Path(__file__).resolve().parents[2]
ERROR_PREFIX = "cuda_probe.py: error: "
WHEELS = {
    major: probe_library.wheels_advice(major, int(facts.default_cuda(major).split(".")[1]))
    for major in facts.supported_majors()
}
BINDINGS = {major: bindings_pin(major) for major in facts.supported_majors()}

CUDA_H = """\
/*
 * Copyright 1993-2025 NVIDIA Corporation.  All rights reserved.
 */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#include <stdlib.h>

/**
 * CUDA API version number
 */
{define}

#ifdef __cplusplus
extern "C" {{
#endif

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;

#ifdef __cplusplus
}}
#endif
#endif /* __cuda_cuda_h__ */
"""
NVRTC_H = "#ifndef __NVRTC_H__\n#define __NVRTC_H__\ntypedef struct _nvrtcProgram *nvrtcProgram;\n#endif\n"
PROFILER_H = '#ifndef __cudaProfiler_h__\n#define __cudaProfiler_h__\n#include "cuda.h"\n#endif\n'
DRIVER_TYPES_H = (
    "enum __device_builtin__ cudaError\n{\n    /** The API call returned with no errors. */\n    cudaSuccess = 0,\n};\n"
)
ALL_HEADERS = ("cuda.h", "nvrtc.h", "cudaProfiler.h", "driver_types.h")


# --- helpers -------------------------------------------------------------------------------------


def venv_python(major: int) -> Path:
    """The interpreter of the build tests' venv of ``major`` (build/.venvs/cuNN, made if missing)."""
    return venv_for(major).python


def site_packages(major: int) -> Path:
    """The site-packages of the build tests' venv of ``major``, as its interpreter reports it."""
    out = subprocess.run(
        [venv_python(major), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return Path(out.strip()).resolve()


def run_probe(
    venv: int,
    *args: str | Path,
    env_updates: dict[str, str] | None = None,
    drop: tuple[str, ...] = ("CUDA_PATH", "CUDA_HOME"),
    entry: str | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run tools/dev/cuda_probe.py (or, with ``entry``, that step of tools/cuda_core_build/steps.py, as
    Meson runs it) with venv ``cu{venv}``'s python from an empty scratch dir.

    The environment is os.environ minus ``drop`` plus ``env_updates``.
    """
    env = {k: v for k, v in os.environ.items() if k not in (*drop, "PYTHONPATH")}
    env.update(env_updates or {})
    command = [str(PROBE)]
    if entry is not None:
        command = [str(REPO_ROOT / "tools" / "cuda_core_build" / "steps.py"), entry]
    with tempfile.TemporaryDirectory(prefix="probe-cwd-") as scratch:
        return subprocess.run(
            [str(venv_python(venv)), *command, *map(str, args)],
            cwd=cwd or scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )


def ok(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    """The JSON of a successful probe."""
    assert result.returncode == 0, f"probe failed ({result.returncode}):\n{result.stderr}"
    return json.loads(result.stdout)


def error(result: subprocess.CompletedProcess[str], prefix: str = ERROR_PREFIX) -> str:
    """The error message of a failed probe: exit 1, nothing on stdout, exactly one stderr line."""
    assert result.returncode == 1, f"expected exit 1, got {result.returncode}:\n{result.stdout}\n{result.stderr}"
    assert result.stdout == "", f"a failing probe printed on stdout:\n{result.stdout}"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {len(lines)}:\n{result.stderr}"
    assert lines[0].startswith(prefix), lines[0]
    return lines[0][len(prefix) :]


def entry_error(result: subprocess.CompletedProcess[str], entry: str) -> str:
    return error(result, f"cuda_core_build.{entry}: error: ")


def make_toolkit(root: Path, version: int | str | None, headers: tuple[str, ...] = ALL_HEADERS) -> Path:
    """A fake toolkit at ``root``: ROOT/include with the given headers. ``version`` is CUDA_VERSION's
    value, or (a str with a newline) the lines that define it; None omits it."""
    include = root / "include"
    include.mkdir(parents=True, exist_ok=True)
    if isinstance(version, str) and "\n" in version:
        define = version
    else:
        define = f"#define CUDA_VERSION {version}" if version is not None else "/* no version here */"
    texts = {
        "cuda.h": CUDA_H.format(define=define),
        "nvrtc.h": NVRTC_H,
        "cudaProfiler.h": PROFILER_H,
        "driver_types.h": DRIVER_TYPES_H,
    }
    for name in headers:
        (include / name).write_text(texts[name])
    return root


# --- successful probes ---------------------------------------------------------------------------


@pytest.mark.parametrize("via", ["CUDA_PATH", "--cuda-path"])
def test_fake_12_9_headers_only(tmp_path: Path, via: str) -> None:
    """A 12.9 tree, found via CUDA_PATH or --cuda-path, without the bindings checks."""
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    if via == "CUDA_PATH":
        result = ok(run_probe(12, "--headers-only", env_updates={"CUDA_PATH": str(root)}))
    else:
        result = ok(run_probe(12, "--headers-only", "--cuda-path", root))
    assert (result["major"], result["minor"], result["cuda_version"]) == (12, 9, 12090)
    assert result["include_dirs"] == [str(root / "include")]
    assert all(Path(d).is_absolute() for d in result["include_dirs"])
    assert result["found_via"] == ("CUDA_PATH" if via == "CUDA_PATH" else "--cuda-path")
    assert result["cuda_h"] == str(root / "include" / "cuda.h")
    assert result["bindings_version"] is None and result["pxd_root"] is None
    assert result["bindings_requirement"] == "cuda-bindings==12.9.*"


@pytest.mark.parametrize("version, minor", [(13000, 0), (13050, 5)])
def test_cu13_bindings_fit_13_x_headers(tmp_path: Path, version: int, minor: int) -> None:
    """The pinned cuda-bindings 13.0 passes the full checks against 13.0 and newer 13.5 headers."""
    root = make_toolkit(tmp_path / "cuda-13", version)
    result = ok(run_probe(13, env_updates={"CUDA_PATH": str(root)}))
    assert (result["major"], result["minor"], result["cuda_version"]) == (13, minor, version)
    assert result["bindings_version"] == BINDINGS[13]
    pxd_root = Path(str(result["pxd_root"]))
    assert pxd_root.is_dir() and (pxd_root / "cuda" / "bindings" / "cydriver.pxd").is_file()
    assert pxd_root.resolve() == site_packages(13)


def test_cu12_bindings_fit_12_9_headers(tmp_path: Path) -> None:
    """The pinned cuda-bindings 12.9 passes the full checks against 12.9 headers."""
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    result = ok(run_probe(12, "--cuda-major", "12", env_updates={"CUDA_PATH": str(root)}))
    assert result["major"] == 12 and result["bindings_version"] == BINDINGS[12]
    assert (Path(str(result["pxd_root"])) / "cuda" / "bindings" / "cydriver.pxd").is_file()


@pytest.mark.parametrize("major", [12, 13])
def test_header_wheels_without_cuda_path(major: int) -> None:
    """With CUDA_PATH and CUDA_HOME unset each venv's header wheels win (before /usr/local/cuda)."""
    result = ok(run_probe(major))
    assert result["major"] == major
    assert "header wheels" in str(result["found_via"])
    packages = site_packages(major)
    for directory in result["include_dirs"]:
        assert Path(directory).resolve().is_relative_to(packages), directory
    assert Path(str(result["cuda_h"])).is_file()
    assert result["bindings_version"] == BINDINGS[major]


# --- the search order and path lists -------------------------------------------------------------


def test_cuda_path_list_skips_a_root_without_cuda_h(tmp_path: Path) -> None:
    """CUDA_PATH="<empty dir>:<13.0 root>" finds cuda.h in the second root."""
    empty = tmp_path / "empty"
    empty.mkdir()
    root = make_toolkit(tmp_path / "cuda-13.0", 13000)
    result = ok(run_probe(13, env_updates={"CUDA_PATH": os.pathsep.join([str(empty), str(root)])}))
    assert result["major"] == 13
    assert result["cuda_h"] == str(root / "include" / "cuda.h")
    assert result["include_dirs"] == [str(root / "include")]


def test_cuda_path_list_with_headers_split_across_roots(tmp_path: Path) -> None:
    """cuda.h in one root, nvrtc.h and cudaProfiler.h in another: include_dirs holds both."""
    main = make_toolkit(tmp_path / "runtime", 13000, headers=("cuda.h", "driver_types.h"))
    extra = make_toolkit(tmp_path / "nvrtc", 13000, headers=("nvrtc.h", "cudaProfiler.h"))
    result = ok(run_probe(13, env_updates={"CUDA_PATH": os.pathsep.join([str(main), str(extra)])}))
    assert result["include_dirs"] == [str(main / "include"), str(extra / "include")]
    assert result["cuda_h"] == str(main / "include" / "cuda.h")


def test_root_that_is_the_include_dir(tmp_path: Path) -> None:
    """A root that holds cuda.h directly is its own include dir."""
    include = make_toolkit(tmp_path / "cuda", 13000) / "include"
    result = ok(run_probe(13, "--headers-only", "--cuda-path", include))
    assert result["include_dirs"] == [str(include)]


def test_cuda_home_used_when_cuda_path_unset(tmp_path: Path) -> None:
    root = make_toolkit(tmp_path / "home", 12090)
    result = ok(run_probe(12, "--headers-only", env_updates={"CUDA_HOME": str(root)}))
    assert result["found_via"] == "CUDA_HOME" and result["major"] == 12


def test_cuda_path_wins_over_cuda_home(tmp_path: Path) -> None:
    path_root = make_toolkit(tmp_path / "path", 13000)
    home_root = make_toolkit(tmp_path / "home", 12090)
    result = ok(run_probe(13, "--headers-only", env_updates={"CUDA_PATH": str(path_root), "CUDA_HOME": str(home_root)}))
    assert result["found_via"] == "CUDA_PATH" and result["major"] == 13
    assert result["include_dirs"] == [str(path_root / "include")]


def test_cuda_path_option_wins_over_cuda_path(tmp_path: Path) -> None:
    option_root = make_toolkit(tmp_path / "option", 12090)
    env_root = make_toolkit(tmp_path / "env", 13000)
    result = ok(
        run_probe(
            13,
            "--headers-only",
            "--cuda-path",
            option_root,
            env_updates={"CUDA_PATH": str(env_root), "CUDA_HOME": str(env_root)},
        )
    )
    assert result["found_via"] == "--cuda-path" and result["major"] == 12
    assert result["include_dirs"] == [str(option_root / "include")]


def test_paths_with_spaces(tmp_path: Path) -> None:
    """A root under 'with space/cuda 13' is found and reported exactly."""
    root = make_toolkit(tmp_path / "with space" / "cuda 13", 13000)
    result = ok(run_probe(13, env_updates={"CUDA_PATH": str(root)}))
    assert result["include_dirs"] == [str(root / "include")]
    assert result["cuda_h"] == str(root / "include" / "cuda.h")
    result = ok(run_probe(13, "--cuda-path", root))
    assert result["include_dirs"] == [str(root / "include")]


# --- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("via", ["CUDA_PATH", "CUDA_HOME", "--cuda-path"])
def test_missing_cuda_h(tmp_path: Path, via: str) -> None:
    """An empty root fails naming the variable (or option) it came from."""
    empty = tmp_path / "empty root"
    empty.mkdir()
    if via == "--cuda-path":
        message = error(run_probe(13, "--headers-only", "--cuda-path", empty))
        named = "--cuda-path"
    else:
        message = error(run_probe(13, "--headers-only", env_updates={via: str(empty)}))
        named = via
    assert "cuda.h" in message and named in message and str(empty) in message
    others = {"CUDA_PATH", "CUDA_HOME", "--cuda-path"} - {named}
    assert not any(f"{other}=" in message for other in others), message


def test_no_headers_anywhere_names_every_way_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No CUDA_PATH/CUDA_HOME, no wheels, no default toolkit: MissingHeaders naming all the fixes."""
    monkeypatch.setattr(probe_library, "DEFAULT_TOOLKIT", tmp_path / "no-usr-local-cuda")
    monkeypatch.setattr(probe_library, "wheel_headers", lambda: None)
    with pytest.raises(probe_library.MissingHeaders) as raised:
        probe_library.find_toolkit(Request("", environ={}, path_option="--cuda-path"))
    message = str(raised.value)
    assert "no CUDA headers found" in message
    for name in (
        "CUDA_PATH",
        "CUDA_HOME",
        "--cuda-path",
        probe_library.wheels_advice(*probe_library.environment_minor()),
    ):
        assert name in message, f"{name!r} not in {message!r}"
    # The same branch through the CLI's main(): exit 1 and one line on stderr.
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.delenv("CUDA_HOME", raising=False)
    assert cuda_probe.main(["--headers-only"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [f"{ERROR_PREFIX}{message}"]


def test_malformed_cuda_h(tmp_path: Path) -> None:
    root = make_toolkit(tmp_path / "cuda", None)
    message = error(run_probe(13, "--headers-only", env_updates={"CUDA_PATH": str(root)}))
    assert "cuda.h" in message and "CUDA_VERSION" in message


@pytest.mark.parametrize("version, shown", [(11080, "11.8"), (14000, "14.0")])
def test_unsupported_majors(tmp_path: Path, version: int, shown: str) -> None:
    root = make_toolkit(tmp_path / "cuda", version)
    message = error(run_probe(13, "--headers-only", env_updates={"CUDA_PATH": str(root)}))
    assert "not supported" in message and f"CUDA {shown}" in message


def test_requested_major_disagrees_with_headers(tmp_path: Path) -> None:
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    message = error(run_probe(13, "--headers-only", "--cuda-major", "13", env_updates={"CUDA_PATH": str(root)}))
    assert "--cuda-major" in message and "12" in message and "13" in message
    assert "--cuda-major=13" in message and "CUDA 12.9" in message


def test_bindings_of_the_wrong_major(tmp_path: Path) -> None:
    """12.9 headers with cuda-bindings 13 in an environment that is not one of the project's dev
    venvs (the base Python, the cu13 venv's packages on PYTHONPATH): the pin that fits the headers."""
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME")}
    env.update(CUDA_PATH=str(root), PYTHONPATH=str(site_packages(13)))
    result = subprocess.run([sys._base_executable, str(PROBE)], cwd=tmp_path, env=env, capture_output=True, text=True)
    message = error(result)
    assert 'pip install "cuda-bindings==12.9.*"' in message
    assert BINDINGS[13] in message


def test_bindings_newer_than_the_headers(tmp_path: Path) -> None:
    """12.8 headers with the cu12 venv's cuda-bindings 12.9 fail: its .pxd files name newer types."""
    root = make_toolkit(tmp_path / "cuda-12.8", 12080)
    message = error(run_probe(12, env_updates={"CUDA_PATH": str(root)}))
    assert "cuda-bindings==12.8.*" in message and BINDINGS[12] in message


@pytest.mark.parametrize("major, version", [(12, 12090), (13, 13000)])
@pytest.mark.parametrize("missing", ["nvrtc.h", "cudaProfiler.h", "driver_types.h"])
def test_missing_secondary_header(tmp_path: Path, major: int, version: int, missing: str) -> None:
    """A tree without one of the headers the build reads fails at once, naming the header and the
    real directory. In a venv that has the header wheels the fix is to stop pointing CUDA_PATH at
    that tree; where there are none, to install them (the base interpreter has none), with the
    cuda-bindings it lacks too, in one command (issue 51: one missing piece per run, two rounds)."""
    root = make_toolkit(tmp_path / "cuda", version, headers=tuple(h for h in ALL_HEADERS if h != missing))
    message = error(run_probe(major, "--headers-only", env_updates={"CUDA_PATH": str(root)}))
    assert message.startswith(
        f"{missing} not found in the CUDA {major}.{version % 1000 // 10} headers at "
        f"{root / 'include'} (via CUDA_PATH): "
    )
    assert "unset CUDA_PATH to use the CUDA" in message and "header wheels installed here" in message
    bare = subprocess.run(
        [str(BASE_PYTHON), str(PROBE), "--headers-only"],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "CUDA_PATH": str(root), "PYTHONPATH": str(PROBE.parent)},
    )
    bindings = f'pip install "cuda-bindings=={facts.default_cuda(major)}.*" '
    assert WHEELS[major].replace("pip install ", bindings) in error(bare)


@pytest.mark.network
def test_an_incomplete_other_major_toolkit_in_cuda_home_names_the_users_major(tmp_path: Path, uv: Uv) -> None:
    """Issue 42: a CUDA 12 venv, CUDA_HOME at an incomplete CUDA 13 toolkit. The advice named CUDA 13's
    header wheels, which left CUDA_HOME deciding: a loop. Now it says to unset CUDA_HOME (the venv's CUDA 12
    wheels serve then; without them, it names CUDA 12's), and the probe succeeds once that is done."""
    root = make_toolkit(tmp_path / "cuda-13", 13000, headers=("cuda.h", "driver_types.h"))
    message = error(run_probe(12, "--headers-only", env_updates={"CUDA_HOME": str(root)}))
    fix = message.split(" (via CUDA_HOME): ", 1)[1]
    assert fix == (
        f"unset CUDA_HOME to use the CUDA {facts.default_cuda(12)} header wheels installed here, or point it at a "
        "complete CUDA 13 toolkit"
    )
    assert json.loads(run_probe(12, "--headers-only").stdout)["major"] == 12
    # A Python with cuda-bindings 12 and no header wheels: unset it, and install CUDA 12's.
    target = uv.install_target(tmp_path / "site", f"cuda-bindings=={BINDINGS[12]}")
    bare = subprocess.run(
        [str(BASE_PYTHON), str(PROBE), "--headers-only"],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "CUDA_HOME": str(root), "PYTHONPATH": f"{PROBE.parent}:{target}"},
    )
    assert error(bare).endswith(
        f"(via CUDA_HOME): unset CUDA_HOME and {WHEELS[12]}, or point it at a complete CUDA 13 toolkit"
    )


def test_a_cuda_path_list_that_mixes_toolkits_is_refused(tmp_path: Path) -> None:
    """CUDA_PATH=<12.9 runtime>:<13.0 toolkit>: the second entry would have given nvrtc.h and the
    rest to a "CUDA 12" build. Refused, naming both directories and their versions."""
    runtime = make_toolkit(tmp_path / "runtime-12.9", 12090, headers=("cuda.h", "driver_types.h"))
    toolkit = make_toolkit(tmp_path / "cuda-13.0", 13000)
    message = error(
        run_probe(12, "--headers-only", env_updates={"CUDA_PATH": os.pathsep.join([str(runtime), str(toolkit)])})
    )
    assert message == (
        f"CUDA_PATH mixes toolkits: {runtime / 'include'} has CUDA 12.9 headers but "
        f"{toolkit / 'include'} has CUDA 13.0: keep the entries of one toolkit in CUDA_PATH"
    )


def test_a_cuda_13_wheel_directory_cannot_serve_a_cuda_12_build(tmp_path: Path) -> None:
    """NVIDIA's CUDA 13 header wheels live in nvidia/cu13/: such an entry holding only nvrtc.h is
    CUDA 13's, whatever cuda.h says elsewhere."""
    runtime = make_toolkit(tmp_path / "runtime-12.9", 12090, headers=("cuda.h", "cudaProfiler.h", "driver_types.h"))
    nvrtc = make_toolkit(tmp_path / "site" / "nvidia" / "cu13", 13000, headers=("nvrtc.h",))
    message = error(
        run_probe(12, "--headers-only", env_updates={"CUDA_PATH": os.pathsep.join([str(runtime), str(nvrtc)])})
    )
    assert f"{nvrtc / 'include'} holds NVIDIA's CUDA 13 header wheels" in message


def test_each_header_comes_from_the_first_entry_that_has_it(tmp_path: Path) -> None:
    """A list whose entries split one toolkit (CUDA 12's wheels do): the probe says which entry gave
    which header, and an entry that gives none stays off the include path."""
    runtime = make_toolkit(tmp_path / "runtime", 12090, headers=("cuda.h", "driver_types.h"))
    unused = make_toolkit(tmp_path / "unused", 12090, headers=("cuda.h",))
    rest = make_toolkit(tmp_path / "rest", 12090, headers=("nvrtc.h", "cudaProfiler.h"))
    result = ok(
        run_probe(
            12,
            "--headers-only",
            env_updates={"CUDA_PATH": os.pathsep.join(str(root) for root in (runtime, unused, rest))},
        )
    )
    assert result["include_dirs"] == [str(runtime / "include"), str(rest / "include")]
    assert result["header_sources"] == {
        "cuda.h": str(runtime / "include"),
        "driver_types.h": str(runtime / "include"),
        "nvrtc.h": str(rest / "include"),
        "cudaProfiler.h": str(rest / "include"),
    }


@pytest.mark.parametrize("value", [os.pathsep, f" {os.pathsep} "])
def test_a_cuda_path_of_separators_alone_is_named_as_written(value: str) -> None:
    message = error(run_probe(13, "--headers-only", env_updates={"CUDA_PATH": value}))
    assert message == (
        f"CUDA_PATH={value!r} names no directory: set it to a CUDA toolkit root, or unset it to use the header wheels"
    )


# --- Meson's configure step: the pin and the environment laid out in cuda-config/ ----------------


def configure(
    venv: int, build_dir: Path, *args: str | Path, env_updates: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_probe(
        venv, "--build-dir", build_dir, "--compiler=c++", *args, env_updates=env_updates, entry="configure"
    )


def pinned(build_dir: Path) -> dict[str, object]:
    return json.loads((build_dir / "cuda-config" / "environment.json").read_text())


def test_pin_survives_a_changed_cuda_path(tmp_path: Path) -> None:
    """The first toolkit found is pinned; CUDA_PATH changes are ignored, --cuda-path re-probes."""
    a = make_toolkit(tmp_path / "a", 13000)
    b = make_toolkit(tmp_path / "b", 12090)
    build = tmp_path / "build"
    first = configure(13, build, env_updates={"CUDA_PATH": str(a)})
    assert first.returncode == 0, first.stderr
    assert pinned(build)["include_dirs"] == [str(a / "include")]
    again = configure(13, build, env_updates={"CUDA_PATH": str(b)})
    assert (
        again.returncode == 0
        and f"via CUDA_PATH: cuda.h, nvrtc.h, cudaProfiler.h, driver_types.h from {a / 'include'};" in again.stdout
    )
    assert pinned(build)["inputs"]["header"]["cuda.h"][0] == str(a / "include" / "cuda.h")
    assert configure(12, build, "--cuda-path", b, env_updates={"CUDA_PATH": str(a)}).returncode == 0
    assert pinned(build)["include_dirs"] == [str(b / "include")]
    assert pinned(build)["inputs"]["header"]["cuda.h"][0] == str(b / "include" / "cuda.h")


def test_failed_probe_writes_no_pin(tmp_path: Path) -> None:
    """A failing first probe leaves no record, so the next one probes afresh."""
    wrong = make_toolkit(tmp_path / "cuda-12.9", 12090)
    right = make_toolkit(tmp_path / "cuda-13.0", 13000)
    build = tmp_path / "build"
    entry_error(configure(13, build, env_updates={"CUDA_PATH": str(wrong)}), "configure")
    assert not (build / "cuda-config" / "environment.json").exists()
    entry_error(configure(13, build, env_updates={"CUDA_PATH": str(tmp_path / "nowhere")}), "configure")
    assert not (build / "cuda-config" / "environment.json").exists()
    assert configure(13, build, env_updates={"CUDA_PATH": str(right)}).returncode == 0
    assert record.read(build).major == 13


def test_configure_records_and_check_lays_out_one_toolkits_headers(tmp_path: Path) -> None:
    """Headers split across two roots (and a space and '#' in a path): configure records them and
    prints one line saying where each came from, then the files the check writes; the check lays
    out copies of exactly the headers the build reads, the bindings' .pxd files and the _compat
    variants, each the same bytes as its source, and the stamps."""
    main = make_toolkit(tmp_path / "run time#1", 13000, headers=("cuda.h", "driver_types.h"))
    extra = make_toolkit(tmp_path / "nvrtc", 13000, headers=("nvrtc.h", "cudaProfiler.h"))
    build = tmp_path / "build"
    env = {"CUDA_PATH": os.pathsep.join([str(main), str(extra)])}
    result = configure(13, build, env_updates=env)
    assert result.returncode == 0, result.stderr
    summary, outputs = result.stdout.strip().splitlines()
    assert summary == (
        f"CUDA 13.0 (CUDA_VERSION 13000) via CUDA_PATH: cuda.h, driver_types.h from {main / 'include'}; "
        f"nvrtc.h, cudaProfiler.h from {extra / 'include'}; cuda-bindings {BINDINGS[13]}; "
        f"Cython {facts.cython_pin()}"
    )
    compat = ["driver_compat.pxi", "resources_compat.pxi", "attributes_compat.pxi"]
    assert outputs.split() == [
        "environment.json",
        "cython.stamp",
        "cyutility.stamp",
        "toolchain.h",
        *ALL_HEADERS,
        *compat,
    ]
    checked = run_probe(13, "--build-dir", build, "--compiler=c++", env_updates=env, entry="lay_out")
    assert checked.returncode == 0 and checked.stdout == "", checked.stderr
    config = build / "cuda-config"
    for header, root in (("nvrtc.h", extra), ("cuda.h", main), ("driver_types.h", main)):
        assert (
            not (config / header).is_symlink()
            and (config / header).read_bytes() == (root / "include" / header).read_bytes()
        )
    assert (config / "driver_compat.pxi").read_bytes() == (
        REPO_ROOT / "cuda_core/cuda/core/_compat/cu13/driver_compat.pxi"
    ).read_bytes()
    copied = config / "bindings" / "cuda" / "bindings" / "cydriver.pxd"
    assert copied.read_bytes() == (site_packages(13) / "cuda" / "bindings" / "cydriver.pxd").read_bytes()
    assert record.read(build).bindings_version == BINDINGS[13]
    assert len((config / "cython.stamp").read_text().strip()) == 64
    assert str(main / "include" / "cuda.h") in record.read_stats(build)["files"]  # the first step watches it


def test_configure_speaks_of_meson_options(tmp_path: Path) -> None:
    """Meson's step names -Dcuda-major and -Dcuda-path in its messages, the CLI --cuda-major."""
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    message = entry_error(
        configure(13, tmp_path / "build", "--cuda-major", "13", env_updates={"CUDA_PATH": str(root)}), "configure"
    )
    assert "-Dcuda-major=13 but the headers" in message and "-Dcuda-path" in message


def test_build_info_and_depfile(tmp_path: Path) -> None:
    """The build info is written from the build directory's record, with a depfile that names the
    record (as ninja knows it, relative to the build directory) and every package source's content
    stamp (a touched source is no change)."""
    root = make_toolkit(tmp_path / "with space" / "cuda 13", 13000)
    build = tmp_path / "build dir"
    assert configure(13, build, env_updates={"CUDA_PATH": str(root)}).returncode == 0
    build_info, depfile = build / "_build_info.py", build / "_build_info.py.d"
    result = run_probe(
        13,
        "--build-dir",
        build,
        "--out",
        build_info,
        "--depfile",
        depfile,
        "--buildtype",
        "release",
        "--package-version",
        "0.4.0",
        entry="build_info",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    namespace: dict[str, object] = {}
    exec(build_info.read_text(), namespace)
    assert namespace["cuda_major"] == 13
    assert namespace["cuda_version"] == 13000
    assert namespace["cuda_bindings_version"] == BINDINGS[13]
    assert (namespace["buildtype"], namespace["cython_version"], namespace["version"]) == (
        "release",
        facts.cython_pin(),
        "0.4.0",
    )
    assert namespace["coverage"] is False
    text = depfile.read_text()
    target, _, deps = text.partition(": ")
    assert target == str(build_info).replace(" ", "\\ ")
    listed = re.split(r"(?<!\\) ", deps.strip())
    assert "cuda-config/environment.json" in listed
    assert "cuda-config/sources/cuda+core+_device.pyx" in listed, listed
    assert text.endswith("\n") and text.count("\n") == 1


# --- damaged or ambiguous inputs -----------------------------------------------------------------


def test_a_damaged_record_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cuda-config" / "environment.json"
    path.parent.mkdir()
    path.write_text('{"request": {"cuda_path": "", "cuda_major": "auto"}, "include_dirs": [')
    assert "--wipe" in entry_error(configure(13, tmp_path), "configure")
    path.write_text('{"request": {"cuda_path": ""}}')
    assert "damaged" in entry_error(configure(13, tmp_path), "configure")


def test_relative_cuda_path_is_resolved_from_where_the_probe_runs(tmp_path: Path) -> None:
    """The probe's command takes a relative root from its own cwd, not from a stale $PWD."""
    root = make_toolkit(tmp_path / "toolkits" / "cuda", 13000)
    for args, env in ((("--cuda-path", "toolkits/cuda"), {}), ((), {"CUDA_PATH": "toolkits/cuda"})):
        result = ok(run_probe(13, "--headers-only", *args, env_updates={"PWD": "/", **env}, cwd=tmp_path))
        assert result["include_dirs"] == [str(root / "include")], args or env


def test_a_path_holding_the_list_separator_is_one_clear_line(tmp_path: Path) -> None:
    """CUDA_PATH is an os.pathsep list: a directory whose name holds ':' cannot be named in it."""
    root = make_toolkit(tmp_path / "cuda:13", 13000)
    message = error(run_probe(13, "--headers-only", env_updates={"CUDA_PATH": str(root)}))
    assert f"CUDA_PATH={str(root)!r} is one directory whose name holds ':'" in message
    assert "make a link to it whose path has no ':'" in message


# CUDA_VERSION as the compiler reads it: comments, #if 0, #undef and octal mean what they mean to g++.
VERSION_FORMS = {
    "a trailing comment": ("#define CUDA_VERSION 12090 /* 12.9 */\n", 12, 9),
    "a commented-out define": ("// #define CUDA_VERSION 11080\n#define CUDA_VERSION 13000\n", 13, 0),
    "a define in a block comment": ("/* #define CUDA_VERSION 11080\n */\n#define CUDA_VERSION 13000\n", 13, 0),
    "a define under #if 0": ("#if 0\n#define CUDA_VERSION 11080\n#endif\n#define CUDA_VERSION 12090\n", 12, 9),
    "#undef and redefine": ("#define CUDA_VERSION 11080\n#undef CUDA_VERSION\n#define CUDA_VERSION 13000\n", 13, 0),
    "the #else of #if 0": ("#if 0\n#define CUDA_VERSION 11080\n#else\n#define CUDA_VERSION 12090\n#endif\n", 12, 9),
}


@pytest.mark.parametrize("reader", ["the compiler", "the fallback"])
@pytest.mark.parametrize("form", VERSION_FORMS)
def test_cuda_version_as_the_compiler_reads_it(tmp_path: Path, form: str, reader: str) -> None:
    text, major, minor = VERSION_FORMS[form]
    root = make_toolkit(tmp_path / "cuda", text)
    env = {"CUDA_PATH": str(root)}
    if reader == "the fallback":
        env["CXX"] = str(tmp_path / "no-compiler-here")
    result = ok(run_probe(13, "--headers-only", env_updates=env))
    assert (result["major"], result["minor"]) == (major, minor)


@pytest.mark.parametrize("reader", ["the compiler", "the fallback"])
def test_an_octal_cuda_version_is_read_as_octal(tmp_path: Path, reader: str) -> None:
    """013000 is octal to the compiler: 5632, CUDA 5.63, which is not supported (never CUDA 13)."""
    root = make_toolkit(tmp_path / "cuda", "013000")
    env = {"CUDA_PATH": str(root), **({"CXX": str(tmp_path / "none")} if reader == "the fallback" else {})}
    message = error(run_probe(13, "--headers-only", env_updates=env))
    assert "CUDA 5.63 headers" in message and "not supported" in message


def test_a_wrong_venv_names_the_venv_to_activate_not_a_pin(tmp_path: Path) -> None:
    """CUDA 12 headers probed from the project's cu13 venv: the fix is the cu12 venv, since pinning
    cuda-bindings 12 into the cu13 venv would break it."""
    root = make_toolkit(tmp_path / "cuda-12.9", 12090)
    message = error(run_probe(13, env_updates={"CUDA_PATH": str(root)}))
    assert f"activate the CUDA 12 environment (source {venv_for(12).root}/bin/activate)" in message
    assert "pip install" not in message


def test_root_holding_cuda_h_beside_an_empty_include_dir(tmp_path: Path) -> None:
    root = tmp_path / "flat"
    make_toolkit(root, 13000)
    for header in (root / "include").iterdir():
        header.rename(root / header.name)
    result = ok(run_probe(13, "--headers-only", "--cuda-path", root))
    assert result["include_dirs"] == [str(root)]


def test_unwritable_output_is_one_clear_error(tmp_path: Path) -> None:
    toolkit = make_toolkit(tmp_path / "cuda", 13000)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert "cannot write" in entry_error(configure(13, blocker / "build", "--cuda-path", toolkit), "configure")


def test_bad_argument_is_one_line(tmp_path: Path) -> None:
    result = run_probe(13, "--no-such-flag")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(ERROR_PREFIX)


@pytest.mark.parametrize("value", ["11", "14", "twelve"])
def test_unsupported_major_is_one_line_naming_the_choices(value: str) -> None:
    message = error(run_probe(13, "--cuda-major", value))
    assert message.startswith(
        f"--cuda-major={value} is not a supported CUDA major: use one of auto, "
        + ", ".join(map(str, facts.supported_majors()))
    )


@pytest.mark.network
def test_an_incomplete_default_toolkit_of_the_other_major_names_the_users_major(tmp_path: Path, uv: Uv) -> None:
    """Issue 51: cuda-bindings 12 and an incomplete CUDA 13 toolkit at the default place, nobody pointing at it:
    the advice said "use a complete CUDA 13 toolkit". Now the cheapest fix first, of the user's major: CUDA 12's
    header wheels, which come before the default toolkit, else a complete CUDA 12 toolkit pointed at."""
    default = make_toolkit(tmp_path / "usr-local-cuda", 13000, headers=("cuda.h", "driver_types.h"))
    target = uv.install_target(tmp_path / "site", f"cuda-bindings=={BINDINGS[12]}")
    code = (
        "import sys; from pathlib import Path; from cuda_core_build import probe; import cuda_probe; "
        "probe.DEFAULT_TOOLKIT = Path(sys.argv[1]); sys.exit(cuda_probe.main(['--headers-only']))"
    )
    bare = subprocess.run(
        [str(BASE_PYTHON), "-c", code, str(default)],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": f"{PROBE.parent}:{PROBE.parents[1]}:{target}"},
    )
    assert error(bare).endswith(
        f"(via {default}): {WHEELS[12]} (they come first), or point CUDA_PATH at a complete CUDA 12 toolkit"
    )
