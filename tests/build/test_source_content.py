# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The package's sources count by content under plain ``ninja -C`` (issue 41, SRC1).

A file of cuda_core/ whose content differs from what the last build read is rebuilt whatever its
mtime says: a backup restored with ``cp -p``, ``rsync -a`` or ``tar -x`` dates it before the build.
One whose content is the same (touched, hard-linked, checked out again) compiles nothing. The
sources' check (tools/cuda_core_build/sources.py) runs on every build; a no-op build runs it alone.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

import pytest
from builds import (
    SessionBuilds,
    Venv,
    build_dir_copy,
    compile_steps,
    cython_steps,
    dry_run,
    edited,
    file_hashes,
    ninja,
    rebuilt_nothing,
    touched,
    up_to_date,
)
from test_exact_rebuilds import cimporters, compat_includers

CORE = "cuda_core/cuda/core"


@pytest.fixture(scope="module")
def cu13(builds: SessionBuilds) -> tuple[Venv, Path, Path]:
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    ninja(venv, build_dir)
    assert up_to_date(venv, build_dir)
    return venv, build_dir, builds.checkout


def plan_with_old_mtime(builds: SessionBuilds, venv: Venv, path: Path, added: str) -> str:
    """What plain ninja would do on a copy of the session's cu13 build dir, ``path`` holding ``added``
    more under the mtime it had (a restored backup); ``path`` put back afterwards."""
    with build_dir_copy(builds, 13) as copy, edited(path, path.read_text() + added, old_mtime=True):
        return dry_run(venv, copy)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("_context.pyx", lambda checkout: {"cuda.core._context"}),
        ("_event.pxd", lambda checkout: cimporters(checkout, "cuda.core._event")),
        ("_program_flags.pxi", lambda checkout: {"cuda.core._program"}),
        ("_compat/cu13/driver_compat.pxi", compat_includers),
    ],
    ids=["pyx", "pxd", "pxi", "compat-variant"],
)
def test_a_changed_source_with_an_old_mtime_is_rebuilt(cu13, builds: SessionBuilds, source: str, expected) -> None:
    """Different content, the old mtime: plain ninja cythonizes exactly what reads it (and the build
    info, whose digest covers the sources). Tried on a copy of the build dir (its stamps change); the
    old content back, the session's build has nothing to do."""
    venv, build_dir, checkout = cu13
    plan = plan_with_old_mtime(builds, venv, checkout / CORE / source, "\n# restored from another day\n")
    assert cython_steps(plan) == expected(checkout) and compile_steps(plan) == expected(checkout)
    assert "_build_info.py" in plan
    assert up_to_date(venv, build_dir)


@pytest.mark.parametrize("source", ["_cpp/uuid_format.cpp", "_cpp/uuid_format.hpp"])
def test_changed_plain_cpp_with_an_old_mtime_is_recompiled(cu13, builds: SessionBuilds, source: str) -> None:
    """The plain C++ compiled into _device, and its header, by content too: both of _device's objects
    are compiled again, and nothing is cythonized."""
    venv, _, checkout = cu13
    plan = plan_with_old_mtime(builds, venv, checkout / CORE / source, "\n// restored from another day\n")
    assert cython_steps(plan) == set() and compile_steps(plan) == {"cuda.core._device", "cpp:_cpp_uuid_format"}


def test_a_restored_source_builds_what_a_clean_build_of_it_makes(cu13, builds: SessionBuilds, tmp_path: Path) -> None:
    """Issue 41's case, in real builds: edit _context.pyx, build, restore the saved copy with
    ``cp -p``, build again with plain ninja: the module is rebuilt, byte-identical to the build
    of that content before the edit."""
    venv, _, checkout = cu13
    source = checkout / CORE / "_context.pyx"
    saved = tmp_path / "_context.pyx"
    shutil.copy2(source, saved)
    clean = file_hashes({"m": builds.modules(13)["cuda.core._context"]})
    with build_dir_copy(builds, 13) as build_dir:
        module = {"m": next(build_dir.glob(f"{CORE}/_context.cpython-*.so"))}
        try:
            source.write_text(saved.read_text() + "\ndef _edited():\n    return 1\n")
            assert "cuda.core._context" in compile_steps(ninja(venv, build_dir).stdout)
            assert file_hashes(module) != clean
            shutil.copy2(saved, source)  # cp -p
            rebuilt = ninja(venv, build_dir).stdout
        finally:
            shutil.copy2(saved, source)
        assert compile_steps(rebuilt) == {"cuda.core._context"}
        assert file_hashes(module) == clean
    assert up_to_date(venv, builds.build_dir(13))


def test_the_same_content_compiles_nothing(cu13, tmp_path: Path) -> None:
    """A touched .pxd and .pxi, a source gaining a hard link, a file written again with its own
    content (a checkout): plain ninja runs its checks and no Cython, compile or link step. A touched
    .pyx, ninja's own input of its Cython step, is cythonized again into the same code, and no
    compile step runs."""
    venv, build_dir, checkout = cu13
    modules = {p.name: p for p in build_dir.glob(f"{CORE}/**/*.so")}
    hashes = file_hashes(modules)
    with touched(checkout / CORE / "_event.pxd"), touched(checkout / CORE / "graph/_node_readers.pxi"):
        assert rebuilt_nothing(ninja(venv, build_dir).stdout)
    os.link(checkout / CORE / "_stream.pxd", tmp_path / "_stream.pxd")
    assert rebuilt_nothing(ninja(venv, build_dir).stdout)
    memoryview_pxd = checkout / CORE / "_memoryview.pxd"
    before = memoryview_pxd.stat()
    memoryview_pxd.write_bytes(memoryview_pxd.read_bytes())
    try:
        assert rebuilt_nothing(ninja(venv, build_dir).stdout)
    finally:  # its old mtime back: Meson's `ninja -t restat` after a regeneration would date the build info before it
        os.utime(memoryview_pxd, ns=(before.st_atime_ns, before.st_mtime_ns))
    with touched(checkout / CORE / "_context.pyx"):
        output = ninja(venv, build_dir).stdout
    assert cython_steps(output) == {"cuda.core._context"} and compile_steps(output) == set()
    assert file_hashes(modules) == hashes
    assert up_to_date(venv, build_dir)


def test_a_no_op_build_runs_the_check_alone(cu13) -> None:
    """What README says a no-op build prints: the check's two steps, and nothing after them."""
    venv, build_dir, _ = cu13
    ninja(venv, build_dir)
    lines = ninja(venv, build_dir).stdout.splitlines()[1:]
    steps = [f"] Generating cuda-config/sources/{name} with a custom command" for name in ("check", "sources")]
    assert len(lines) == 2 and all(line.endswith(step) for line, step in zip(lines, steps)), lines


SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
MODULES = {"cuda.core._context": f"{CORE}/_context{SUFFIX}", "cuda.core._event": f"{CORE}/_event{SUFFIX}"}


def test_the_compiler_path_gives_is_looked_up_on_every_build(cu13, builds: SessionBuilds, tmp_path: Path) -> None:
    """A `c++` wrapper put first on PATH, and taken off again, each without an edit (issue 41, N12b):
    the next plain ninja says the compiler changed and recompiles every module with the compiler PATH
    gives now; back on the original, the modules are the original build's again."""
    venv = cu13[0]
    wrapper = tmp_path / "wrapper" / "c++"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which("g++")} -fno-inline "$@"\n')
    wrapper.chmod(0o755)
    wrapped_path = {"PATH": f"{wrapper.parent}{os.pathsep}{venv.env()['PATH']}"}
    with build_dir_copy(builds, 13) as build_dir:
        built = {name: build_dir / path for name, path in MODULES.items()}
        original = file_hashes(built)
        wrapped = ninja(venv, build_dir, *MODULES.values(), **wrapped_path).stdout
        assert f"the C++ compiler (driver {os.path.realpath(shutil.which('g++'))} -> {wrapper})" in wrapped
        assert compile_steps(wrapped) == set(MODULES) and file_hashes(built) != original
        back = ninja(venv, build_dir, *MODULES.values()).stdout
        assert "the C++ compiler (driver" in back and compile_steps(back) == set(MODULES)
        assert file_hashes(built) == original
