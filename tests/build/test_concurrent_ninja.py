# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Ninja's own state, which ninja does not guard (tools/cuda_core_build/sources.py says what the build's
first step does about it): two plain ``ninja -C`` at once in one build directory (issue 49, C1), and a
deps log damaged as two writers damage it."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

from builds import CHECK_STEP, SessionBuilds, build_dir_copy, compile_steps, meson_setup, ninja, rebuilt_nothing

C1 = "meson setup build-cu13; (ninja -C build-cu13 > a.log &); sleep 0.5; ninja -C build-cu13; wait"


def test_two_plain_ninjas_at_once_as_issue_49_ran_them(builds: SessionBuilds, make_checkout) -> None:
    """C1 exactly: in a fresh build directory, a second plain ninja half a second after the first stops at
    once, in one line, before it writes ninja's logs; the first builds everything; each of three later
    builds compiles nothing and warns of nothing. (The second waited, then compiled all 41 objects again
    and damaged the deps log, so every later build warned 'premature end of file' and compiled all 41.)"""
    venv, checkout = builds.venvs[13], make_checkout("c1")
    second = subprocess.run(["bash", "-c", C1], cwd=checkout, env=venv.env(), capture_output=True, text=True)
    first = (checkout / "a.log").read_text()
    assert "another ninja (pid" in second.stdout and "stops before it writes ninja's logs" in second.stdout, second
    assert not compile_steps(second.stdout) and "Linking target" in first and "ninja: warning" not in first
    for _ in range(3):
        later = ninja(venv, checkout / "build-cu13")
        assert rebuilt_nothing(later.stdout) and "warning" not in later.stdout + later.stderr, later


def test_two_plain_ninjas_at_once_on_a_fresh_setup(builds: SessionBuilds, tmp_path: Path) -> None:
    """The first steps of a fresh build directory by two ninja at once: one of them runs them (the other
    may stop, saying why), and neither fails with 'cannot write the build's files ([Errno 17] ...)'."""
    venv = builds.venvs[13]
    command = [str(venv.bin / "ninja"), "-C"]
    for attempt in range(3):
        build_dir = tmp_path / f"fresh-{attempt}"
        meson_setup(venv, builds.checkout, build_dir)
        pipe = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
        both = [subprocess.Popen([*command, str(build_dir), CHECK_STEP], env=venv.env(), **pipe) for _ in range(2)]
        results = [(p.wait(), p.communicate()[0]) for p in both]
        assert any(code == 0 for code, _ in results), results
        assert all(code == 0 or "another ninja (pid" in out for code, out in results), results
        assert "Errno" not in "".join(out for _, out in results)


def damage(deps_log: Path) -> int:
    """Append a path record numbered as a second writer that loaded an older log numbers it; its offset."""
    data = deps_log.read_bytes()
    path = b"a/header/a/second/ninja/named.h"
    record = struct.pack("=I", len(path) + 4) + path + struct.pack("=I", ~0 & 0xFFFFFFFF)  # number 0, again
    deps_log.write_bytes(data + record)
    return len(data)


def test_a_damaged_deps_log_costs_one_build_and_is_said(builds: SessionBuilds) -> None:
    """A deps log holding a record a second writer numbered: ninja's recovery cuts the log after that record,
    so every later build warned and compiled everything. The first step cuts it before the record and says
    so in one line; the build after that warns of nothing and compiles nothing."""
    venv = builds.venvs[13]
    with build_dir_copy(builds, 13) as build_dir:
        offset = damage(build_dir / ".ninja_deps")
        repaired = ninja(venv, build_dir)
        assert f"ninja's deps log in {build_dir} was damaged at byte {offset}" in repaired.stdout, repaired.stdout
        assert (build_dir / ".ninja_deps").stat().st_size >= offset
        for _ in range(2):
            later = ninja(venv, build_dir)
            assert rebuilt_nothing(later.stdout) and "warning" not in later.stdout + later.stderr, later


def test_a_lost_build_log_is_said_and_costs_one_build(builds: SessionBuilds) -> None:
    """A build log that is gone (removed, or dropped by a ninja of another version): the next build says so in
    one line and runs every step once, through ccache and the Cython cache; the build after compiles nothing."""
    venv = builds.venvs[13]
    with build_dir_copy(builds, 13) as build_dir:
        (build_dir / ".ninja_log").unlink()
        lost = ninja(venv, build_dir)
        assert f"cuda-core: ninja's build log in {build_dir} is gone" in lost.stdout, lost.stdout
        assert compile_steps(lost.stdout)
        assert rebuilt_nothing(ninja(venv, build_dir).stdout)
