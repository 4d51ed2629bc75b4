# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build stays exact when what it reads from outside its sources changes under it.

Each test makes a scratch venv with uv (hard links from its cache, as users install), sets a
build dir up in the session checkout and builds a few targets, then changes the environment
the way users do: a toolkit link re-pointed (update-alternatives), cuda-bindings or Cython
swapped by uv, with every file dated before the build (conda, and uv's hard links, keep
packaged mtimes). The next build must either rebuild into exactly what a clean build makes, or
stop at the probe's one line before anything compiles.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import devenv
import pytest
from builds import (
    CHECK_STEP,
    NO_WORK,
    SessionBuilds,
    Uv,
    Venv,
    backdate,
    bindings_pin,
    build_info,
    compile_steps,
    cython_steps,
    dry_run,
    file_hashes,
    meson_setup,
    ninja,
    pending,
    run,
    touched,
)
from cuda_core_build import facts, record

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
# What each scratch build builds: the build info, a module that includes the major's compat
# .pxi and one that does not.
MODULES = {
    "cuda.core._context": f"cuda_core/cuda/core/_context{SUFFIX}",
    "cuda.core._event": f"cuda_core/cuda/core/_event{SUFFIX}",
}
TARGETS = ("cuda_core/cuda/core/_build_info.py", *MODULES.values())


def scratch_venv(uv: Uv, root: Path, minor: str, tools: str = "newest") -> Venv:
    """A fresh venv with a tool set and one CUDA minor's cuda-bindings and header wheels."""
    python = devenv.find_python(devenv.default_cell(int(minor.split(".")[0])).python)
    return uv.venv(
        root, python, *facts.requirements(facts.tool_pins(tools)), *facts.requirements(facts.cuda_pins(minor))
    )


def toolkit(uv: Uv, root: Path, minor: str) -> Path:
    """A toolkit-like root (ROOT/include) holding the headers of NVIDIA's header wheels of ``minor``."""
    wheels = uv.install_target(
        root.with_name(root.name + "-wheels"),
        *(
            f"{name}=={version}"
            for name, version in facts.cuda_pins(minor).items()
            if name.startswith("nvidia-") and "nvjitlink" not in name
        ),
    )
    for include in sorted(wheels.glob("nvidia/*/include")):
        shutil.copytree(include, root / "include", dirs_exist_ok=True)
    return root


def build(venv: Venv, build_dir: Path, check: bool = True, **env: str):
    return ninja(venv, build_dir, *TARGETS, check=check, **env)


def set_up(builds: SessionBuilds, venv: Venv, name: str, *options: str, **env: str) -> Path:
    """A build dir of the session checkout, set up in ``venv`` and built (TARGETS only)."""
    build_dir = builds.checkout / name
    shutil.rmtree(build_dir, ignore_errors=True)
    meson_setup(venv, builds.checkout, build_dir, *options, **env)
    build(venv, build_dir, **env)
    assert no_work(venv, build_dir, **env)
    return build_dir


CHANGED = "import pathlib, sys; from cuda_core_build import record, sources as s; b = pathlib.Path(sys.argv[1]); "
CHANGED += "print(*s.changed(b, record.read(b).compiler))"


def no_work(venv: Venv, build_dir: Path, **env: str) -> bool:
    """Whether a plain ninja of TARGETS would run nothing but its check: the check would rewrite no stamp
    (``sources.changed``, which writes nothing) and ``ninja -n`` lists nothing after it."""
    source = json.loads((build_dir / "meson-info" / "meson-info.json").read_text())["directories"]["source"]
    tools = {**env, "PYTHONPATH": str(Path(source) / "tools")}
    stamps = run([venv.python, "-c", CHANGED, build_dir], venv.env(**tools), build_dir).stdout.split()
    return not stamps and NO_WORK in pending(venv, build_dir, *TARGETS, **env)


def modules(build_dir: Path) -> dict[str, str]:
    return file_hashes({name: build_dir / path for name, path in MODULES.items()})


def repoint(link: Path, target: Path) -> None:
    """Re-point a link as update-alternatives does (a new link renamed over the old), and date the
    link itself before the build: only its directory shows when it changed."""
    fresh = link.with_name(link.name + ".new")
    fresh.symlink_to(target)
    os.replace(fresh, link)
    os.utime(link, (0, 0), follow_symlinks=False)


def first_error(output: str) -> str:
    return next(line for line in output.splitlines() if "error" in line.lower())


def nothing_compiled(output: str) -> bool:
    return "Generating '" not in output and "Compiling" not in output


def test_a_repointed_toolkit_rebuilds_as_a_clean_build_of_the_new_one(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    """/usr/local/cuda -> cuda-13.0 re-pointed to cuda-13.1, whose files are older than the build:
    the build follows, and its modules are byte for byte those of a clean 13.1 build (made at
    another depth, so no path of the build dir leaks in either)."""
    venv = scratch_venv(uv, tmp_path / "venv", "13.0")
    old, new = toolkit(uv, tmp_path / "cuda-13.0", "13.0"), toolkit(uv, tmp_path / "cuda-13.1", "13.1")
    backdate(new)
    link = tmp_path / "cuda"
    link.symlink_to(old)
    build_dir = set_up(builds, venv, "build-repointed", f"-Dcuda-path={link}")
    assert build_info(build_dir)["cuda_version"] == 13000
    repoint(link, new)
    assert not no_work(venv, build_dir)
    output = build(venv, build_dir).stdout
    assert "the build's environment changed: CUDA_VERSION 13000 -> 13010; CUDA headers (cuda.h" in output
    assert build_info(build_dir)["cuda_version"] == 13010
    clean = set_up(builds, venv, "deeper/still/build-clean-13.1", f"-Dcuda-path={new}")
    assert modules(build_dir) == modules(clean)
    assert build_info(build_dir) == build_info(clean)


def test_a_toolkit_repointed_to_another_major_stops_at_the_probes_line(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    link = tmp_path / "cuda"
    link.symlink_to(toolkit(uv, tmp_path / "cuda-13", facts.default_cuda(13)))
    build_dir = set_up(builds, venv, "build-to-another-major", f"-Dcuda-path={link}")
    cuda12 = toolkit(uv, tmp_path / "cuda-12", facts.default_cuda(12))
    backdate(cuda12)
    repoint(link, cuda12)
    for _ in range(2):  # and again: nothing was trusted in between
        result = build(venv, build_dir, check=False)
        output = result.stdout + result.stderr
        assert result.returncode != 0 and nothing_compiled(output)
        assert f"cuda-bindings {bindings_pin(13)} of " in first_error(output)
        assert "is for CUDA 13, but the build uses CUDA 12.9 headers" in first_error(output)


def test_bindings_swapped_by_uv_with_old_mtimes_are_seen(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """cuda-bindings 13.0.3 -> 13.1.1 (too new for 13.0 headers) by `uv pip install` from its
    cache: ninja has work, and the probe's line comes before any compile; back to 13.0.3,
    nothing is rebuilt."""
    venv = scratch_venv(uv, tmp_path / "venv", "13.0")
    build_dir = set_up(builds, venv, "build-uv-bindings")
    newer = facts.cuda_pins("13.1")["cuda-bindings"]
    uv.install(venv, f"cuda-bindings=={newer}")
    backdate(venv.site_packages / "cuda" / "bindings")
    assert not no_work(venv, build_dir)
    result = build(venv, build_dir, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and nothing_compiled(output)
    assert first_error(output).endswith(
        f"cuda-bindings {newer} was generated for CUDA 13.1, newer than the CUDA 13.0 "
        "headers (found via header wheels), and its .pxd files would "
        'not compile: pip install "cuda-bindings==13.0.*", or use CUDA 13.1+ headers'
    )
    uv.install(venv, f"cuda-bindings=={facts.cuda_pins('13.0')['cuda-bindings']}")
    assert nothing_compiled(build(venv, build_dir).stdout)


def test_older_bindings_of_the_same_major_rebuild_as_a_clean_build(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    """cuda-bindings 12.9.10 -> 12.8.0 with old mtimes: the build info follows, and the modules
    are those of a clean build with 12.8.0."""
    venv = scratch_venv(uv, tmp_path / "venv", "12.9")
    build_dir = set_up(builds, venv, "build-older-bindings")
    older = facts.cuda_pins("12.8")["cuda-bindings"]
    uv.install(venv, f"cuda-bindings=={older}")
    backdate(venv.site_packages / "cuda")
    assert not no_work(venv, build_dir)
    assert (
        f"cuda-bindings {facts.cuda_pins('12.9')['cuda-bindings']} -> {older}; cuda-bindings files ("
        in build(venv, build_dir).stdout
    )
    assert build_info(build_dir)["cuda_bindings_version"] == older
    other = scratch_venv(uv, tmp_path / "other", "12.9")
    uv.install(other, f"cuda-bindings=={older}")
    assert modules(build_dir) == modules(set_up(builds, other, "build-clean-12.8-bindings"))


def test_a_cython_swapped_with_old_mtimes_recythonizes(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """Another Cython (the floor tool set's) installed by uv, dated before the build: every module
    is cythonized again, and the shared utility module regenerated."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    build_dir = set_up(builds, venv, "build-other-cython")
    floor = facts.tool_pins("floor")["cython"]
    uv.install(venv, f"cython=={floor}")
    backdate(venv.site_packages / "Cython")
    assert not no_work(venv, build_dir)
    check = ninja(venv, build_dir, CHECK_STEP).stdout
    assert f"Cython {facts.cython_pin()} -> {floor}; Cython files (Cython/" in check
    plan = dry_run(venv, build_dir, *TARGETS, f"cuda_core/cuda/core/_cyutility{SUFFIX}")
    assert cython_steps(plan) == set(MODULES) and "Generating cuda_core/cuda/core/_cyutility" in plan
    assert record.read(build_dir).cython_version == floor


def test_a_cuda_path_list_that_mixes_majors_is_refused_at_setup(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """CUDA_PATH=<CUDA 12.9>:<CUDA 13.0>: one line naming both, and no build dir that a later build
    could trust."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(12))
    roots = [toolkit(uv, tmp_path / "cuda-12", "12.9"), toolkit(uv, tmp_path / "cuda-13", "13.0")]
    (roots[0] / "include" / "nvrtc.h").unlink()  # the first entry lacks a header the second has
    build_dir = builds.checkout / "build-mixed-cuda-path"
    result = meson_setup(venv, builds.checkout, build_dir, check=False, CUDA_PATH=os.pathsep.join(map(str, roots)))
    errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
    assert result.returncode != 0 and len(errors) == 1
    assert errors[0].endswith(
        f"CUDA_PATH mixes toolkits: {roots[0] / 'include'} has CUDA 12.9 headers but "
        f"{roots[1] / 'include'} has CUDA 13.0: keep the entries of one toolkit in CUDA_PATH"
    )
    assert not (build_dir / "build.ninja").exists() and not (build_dir / "cuda-config" / "environment.json").exists()


def test_a_venv_reached_through_a_link_that_goes_keeps_building(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """A venv set up through a link (its scripts name the link) that is later removed: the build dir
    recorded the venv's real path, and the next build after an edit still works."""
    python = devenv.find_python(devenv.default_cell(13).python)
    real = uv.venv(tmp_path / "real-venv", python)
    link = tmp_path / "venv-link"
    link.symlink_to(real.root)
    via_link = Venv(13, link)
    uv.install(
        via_link,
        *facts.requirements(facts.tool_pins()),
        *facts.requirements(facts.cuda_pins(facts.default_cuda(13))),
    )
    assert str(link) in (link / "bin" / "meson").read_text().splitlines()[0]
    build_dir = set_up(builds, via_link, "build-through-a-link")
    link.unlink()
    with touched(builds.checkout / "cuda_core/cuda/core/_context.pyx"):
        output = build(real, build_dir).stdout
    assert "_context.pyx" in output


def test_the_wrong_venv_after_a_wipe_says_the_directory_was_wiped(
    builds: SessionBuilds, venvs: dict[int, Venv]
) -> None:
    """`meson setup --wipe build-cu13` from the CUDA 12 venv: Meson empties the directory before
    any project code runs, so the refusal says the old build is gone."""
    build_dir = builds.checkout / "build-wiped-cu13"
    try:
        meson_setup(venvs[13], builds.checkout, build_dir)
        result = meson_setup(venvs[12], builds.checkout, build_dir, "--wipe", check=False)
        errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR:" in line]
        assert result.returncode != 0 and len(errors) == 1
        assert "build-wiped-cu13's name says CUDA 13" in errors[0]
        assert errors[0].endswith(
            "(build-wiped-cu13 was emptied by `meson setup --wipe` before this check: its "
            "previous build is gone and is rebuilt in full once this is fixed)"
        )
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def test_plain_cpp_sources_include_no_cuda_header(builds: SessionBuilds) -> None:
    """Plain C++ sources know no CUDA: of cuda-config/ they read toolchain.h (the compiler's content)
    and their own sources' content stamps (cuda-config/sources/, comments), never a header copied there."""
    deps = ninja(builds.venvs[13], builds.build_dir(13), "-t", "deps").stdout
    current, read = "", set()
    for line in deps.splitlines():
        if line and not line.startswith(" "):
            current = line.split(":")[0]
        elif current.endswith(".o") and "meson-generated_" not in current and "cuda-config/" in line:
            read.add(line.strip())
    assert read == {
        "cuda-config/toolchain.h",
        "cuda-config/sources/cuda+core+_cpp+uuid_format.cpp",
        "cuda-config/sources/cuda+core+_cpp+uuid_format.hpp",
    }


def test_a_toolkit_through_a_link_longer_than_its_target_builds_as_a_clean_build(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    """g++ -M names a header by its shorter, canonical path: ~/the-cuda-toolkit-currently-selected ->
    cuda-13.0 still gives every header, and the modules are a clean build's of the target itself."""
    venv = scratch_venv(uv, tmp_path / "venv", "13.0")
    target = toolkit(uv, tmp_path / "t13", "13.0")
    link = tmp_path / "toolkits" / "the-cuda-toolkit-currently-selected-for-this-machine"
    link.parent.mkdir()
    link.symlink_to(Path("..") / target.name)
    build_dir = set_up(builds, venv, "build-long-link", f"-Dcuda-path={link}")
    assert record.read(build_dir).inputs["header"]["nvrtc.h"][0] == str(target / "include" / "nvrtc.h")
    assert modules(build_dir) == modules(set_up(builds, venv, "build-link-target", f"-Dcuda-path={target}"))


def test_a_reinstall_of_the_same_wheels_rebuilds_nothing(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """pip install --force-reinstall of the same header wheels, cuda-bindings and Cython (new files,
    new mtimes, the same bytes): the content check runs, says nothing changed, and that is all."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    build_dir = set_up(builds, venv, "build-reinstalled")
    pins = {**facts.cuda_pins(facts.default_cuda(13)), "cython": facts.cython_pin()}
    uv.install(venv, "--reinstall", "--link-mode=copy", *(f"{name}=={version}" for name, version in pins.items()))
    assert not no_work(venv, build_dir)  # ninja sees new files: the content check has work
    output = build(venv, build_dir).stdout
    assert "Generating cuda-config/cuda-inputs" in output and "changed" not in output
    assert nothing_compiled(output) and "_build_info" not in output, output
    assert no_work(venv, build_dir)


def test_a_compiler_wrapper_first_on_path_is_a_change_of_environment(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    """A `c++` that adds a flag, put first on PATH (module load, devtoolset): the next build that compiles
    says the compiler changed and recompiles every module with it, as a clean build with it would."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    build_dir = set_up(builds, venv, "build-wrapped")
    wrapper = tmp_path / "wrapper" / "c++"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which("g++")} -fno-inline "$@"\n')
    wrapper.chmod(0o755)
    path = {"PATH": f"{wrapper.parent}{os.pathsep}{venv.env()['PATH']}"}
    unwrapped = modules(build_dir)
    with touched(builds.checkout / "cuda_core/cuda/core/_context.pyx"):
        output = build(venv, build_dir, **path).stdout
    assert f"the C++ compiler (driver {os.path.realpath(shutil.which('g++'))} -> {wrapper})" in output
    assert compile_steps(output) == set(MODULES) and modules(build_dir) != unwrapped
    clean = set_up(builds, venv, "build-wrapped-clean", **path)
    assert modules(build_dir) == modules(clean)


def test_a_regular_install_beside_the_bindings_rebuilds_nothing(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """Issue 42: a regular install of cuda-core puts cuda/core/*.pxd beside cuda-bindings' cuda/bindings/;
    they were counted as cuda-bindings' inputs, so installing it, or uninstalling it for an editable
    install, re-cythonized every module. cuda-bindings' inputs are the files its RECORD lists."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    build_dir = set_up(builds, venv, "build-beside-an-install")
    uv.install(venv, "--no-deps", builds.wheel(13))
    assert any((venv.site_packages / "cuda" / "core").glob("*.pxd"))
    for step in ("installed", "uninstalled"):
        if step == "uninstalled":
            run([uv.path, "pip", "uninstall", "--python", venv.python, "cuda-core"], uv.env(), tmp_path)
        output = build(venv, build_dir).stdout
        assert "changed" not in output and nothing_compiled(output), (step, output)
        assert no_work(venv, build_dir), step


def test_a_pyenv_shim_is_not_recorded_as_ninja_and_another_ninja_is_said(
    builds: SessionBuilds, uv: Uv, tmp_path: Path
) -> None:
    """Issue 42: with pyenv's shims first on PATH, the record named the shim (a script that runs whichever
    ninja pyenv's selected version has, or none); and a ninja of another version on PATH rebuilt every step,
    saying nothing. Now the record names a real ninja, and the other version stops before it runs a step,
    saying why in one line (issue 49, N3b): the recorded ninja then finds nothing to do."""
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    (venv.bin / "ninja").rename(tmp_path / "venv-ninja")  # no ninja beside the build's Python: PATH decides
    real = tmp_path / "real"
    real.mkdir()
    (real / "ninja").symlink_to(tmp_path / "venv-ninja")
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "ninja").write_text(f'#!/usr/bin/env bash\n# pyenv shim\nexec "{real / "ninja"}" "$@"\n')
    (shims / "ninja").chmod(0o755)
    path = {"PATH": f"{shims}{os.pathsep}{real}{os.pathsep}{venv.env()['PATH']}"}
    build_dir = builds.checkout / "build-shimmed"
    meson_setup(venv, builds.checkout, build_dir, **path)
    run(["ninja", "-C", build_dir, *TARGETS], venv.env(**path), build_dir)
    assert record.read(build_dir).inputs["ninja"]["ninja"][0] == os.path.realpath(tmp_path / "venv-ninja")
    older = uv.install_target(tmp_path / "ninja-1.11", "ninja==1.11.1") / "ninja" / "data" / "bin" / "ninja"
    stopped = run([older, "-C", build_dir, *TARGETS], venv.env(**path), build_dir, check=False)
    said = [line for line in stopped.stdout.splitlines() if "cuda-core: ninja 1.11.1" in line]
    assert len(said) == 1 and f"run {os.path.realpath(tmp_path / 'venv-ninja')} -C {build_dir}" in said[0], stopped
    assert stopped.returncode != 0 and nothing_compiled(stopped.stdout), stopped.stdout
    assert nothing_compiled(run(["ninja", "-C", build_dir, *TARGETS], venv.env(**path), build_dir).stdout)


def test_pyenvs_own_shim_is_recorded_as_the_ninja_it_runs(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    """Issue 51, item 3: with pyenv's own shims first on PATH, Meson finds the shim and a plain ninja runs what
    the shim runs now; the record names that ninja (``pyenv which ninja``), not one further down PATH (the
    distribution's, of another version), so a build through the shim neither warns nor stops."""
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        pytest.skip("no pyenv on PATH here")
    shims = Path(run([pyenv, "root"], os.environ.copy(), tmp_path).stdout.strip()) / "shims"
    runs = subprocess.run([pyenv, "which", "ninja"], capture_output=True, text=True)
    if not (shims / "ninja").is_file() or runs.returncode != 0:
        pytest.skip(f"pyenv's shims run no ninja here ({runs.stderr.strip()})")
    venv = scratch_venv(uv, tmp_path / "venv", facts.default_cuda(13))
    (venv.bin / "ninja").rename(tmp_path / "venv-ninja")  # no ninja beside the build's Python: PATH decides
    path = {"PATH": f"{shims}{os.pathsep}{venv.env()['PATH']}"}
    build_dir = builds.checkout / "build-pyenv-shim"
    meson_setup(venv, builds.checkout, build_dir, **path)
    built = run(["ninja", "-C", build_dir, *TARGETS], venv.env(**path), build_dir)
    assert record.read(build_dir).inputs["ninja"]["ninja"][0] == os.path.realpath(runs.stdout.strip())
    assert "cuda-core: ninja" not in built.stdout, built.stdout
