# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Cython's output by content (tools/cuda_core_build/cython_cache.py, ``CUDA_CORE_CYTHON_CACHE``).

A Cython step whose inputs hold content Cython has turned into C++ before, in any build directory
of any checkout, takes that C++ from the cache, byte for byte what Cython makes there, and prints
what Cython printed; anything else runs Cython. A hit leaves the cache as it was; a miss adds an
entry. Real Cython, in build directories of one scratch checkout at two depths.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import pytest
from builds import SessionBuilds, Venv, edited, meson_setup, ninja, run
from cuda_core_build import cython_cache

MODULES = ("_context", "_event", "_device")  # _device includes a _compat variant
ENV = "CUDA_CORE_CYTHON_CACHE"


def cython_outputs(venv: Venv, build_dir: Path, modules: tuple[str, ...] = MODULES) -> dict[str, Path]:
    """Module -> the C++ its Cython step writes, from ninja's own list of targets."""
    targets = run([venv.bin / "ninja", "-C", build_dir, "-t", "targets", "all"], venv.env(), build_dir).stdout
    names = [line.split(":", 1)[0] for line in targets.splitlines()]
    return {m: build_dir / next(n for n in names if n.endswith(f"/{m}.pyx.cpp")) for m in modules}


def contents(outputs: dict[str, Path]) -> dict[str, bytes]:
    return {module: path.read_bytes() for module, path in outputs.items()}


def snapshot(cache: Path) -> dict[str, int]:
    """The cache's files, each manifest with its mtime: a hit writes no manifest (it only marks the code
    it used as recently used), a miss writes one."""
    files = sorted(p for p in cache.rglob("*") if p.is_file())
    return {str(p.relative_to(cache)): p.stat().st_mtime_ns if p.suffix == ".json" else 0 for p in files}


def cythonize(venv: Venv, build_dir: Path, cache: Path | None, modules: tuple[str, ...] = MODULES) -> str:
    """Run the Cython steps of ``modules`` (theirs alone), through ``cache`` or with none."""
    outputs = cython_outputs(venv, build_dir, modules)
    for path in outputs.values():
        path.unlink(missing_ok=True)  # the step runs whatever ninja recorded
    env = {ENV: str(cache) if cache else ""}  # empty: no cache, whatever the suite's environment says
    result = ninja(venv, build_dir, *(str(p.relative_to(build_dir)) for p in outputs.values()), **env)
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def setup(builds: SessionBuilds, make_checkout, tmp_path_factory: pytest.TempPathFactory):
    """A scratch checkout, two build dirs of it (one inside it, as README's; one outside, deeper), a
    cache primed from the first."""
    venv, checkout = builds.venvs[13], make_checkout("cython-cache")
    first, second = checkout / "build-cu13", tmp_path_factory.mktemp("b") / "deeper" / "still" / "build"
    cache = tmp_path_factory.mktemp("cython-cache")
    for build_dir in (first, second):
        meson_setup(venv, checkout, build_dir)
    cythonize(venv, first, cache)
    return venv, checkout, first, second, cache


def test_a_step_seen_before_takes_the_code_cython_makes_from_the_cache(setup) -> None:
    venv, _, first, second, cache = setup
    primed = snapshot(cache)
    assert len([n for n in primed if n.startswith("manifests/")]) == len(MODULES), primed
    cythonize(venv, second, cache)
    assert snapshot(cache) == primed, "a hit ran Cython (it stored an entry)"
    from_cache = contents(cython_outputs(venv, second))
    assert from_cache == contents(cython_outputs(venv, first))
    cythonize(venv, second, None)  # Cython itself, in the second build dir
    assert contents(cython_outputs(venv, second)) == from_cache


def test_an_edited_source_misses_and_its_old_content_still_hits(setup) -> None:
    venv, checkout, first, second, cache = setup
    source = checkout / "cuda_core" / "cuda" / "core" / "_context.pyx"
    before = contents(cython_outputs(venv, first))
    primed = snapshot(cache)
    with edited(source, source.read_text() + "\n\ndef added_by_the_test():\n    return 1\n"):
        cythonize(venv, second, cache)
        assert b"added_by_the_test" in cython_outputs(venv, second)["_context"].read_bytes()
    changed = {n for n, mtime in snapshot(cache).items() if primed.get(n) != mtime}
    assert {n.split("/")[0] for n in changed} == {"manifests", "code"}, changed  # an entry, new code
    assert len([n for n in changed if n.startswith("manifests/")]) == 1, changed  # _context's alone
    stored = snapshot(cache)
    cythonize(venv, second, cache)  # the source as it was: the first entry, still there
    assert snapshot(cache) == stored
    assert contents(cython_outputs(venv, second)) == before


def test_damaged_code_in_the_cache_is_a_miss(setup) -> None:
    venv, _, first, second, cache = setup
    expected = contents(cython_outputs(venv, first))
    for blob in (cache / "code").rglob("*.cpp.gz"):
        blob.write_bytes(gzip.compress(b"not what Cython wrote"))
    cythonize(venv, second, cache)
    assert contents(cython_outputs(venv, second)) == expected
    for code in expected.values():  # stored again by the misses, under its sha256
        digest = hashlib.sha256(code).hexdigest()
        assert gzip.decompress((cache / "code" / digest[:2] / f"{digest}.cpp.gz").read_bytes()) == code


def test_a_hit_prints_what_cython_printed(setup) -> None:
    venv, checkout, first, second, cache = setup
    source = checkout / "cuda_core" / "cuda" / "core" / "_event.pyx"
    warned = source.read_text() + "\n\ndef unreachable_by_the_test():\n    return 1\n    x = 2\n"
    with edited(source, warned):
        miss = cythonize(venv, first, cache, ("_event",))
        stored = snapshot(cache)
        hit = cythonize(venv, second, cache, ("_event",))
        assert snapshot(cache) == stored
    warnings = [line for line in miss.splitlines() if "Unreachable code" in line]
    assert warnings, miss
    assert warnings == [line for line in hit.splitlines() if "Unreachable code" in line]
    assert str(checkout) in warnings[0]  # this checkout's path, as Cython names the source


def test_the_cache_is_trimmed_least_recently_used_first(tmp_path: Path) -> None:
    """Past its limit the cache drops the code used longest ago, down to 80% of the limit; a file it
    did not name itself stays, whatever its age."""
    names = {age: hashlib.sha256(str(age).encode()).hexdigest() for age in range(4)}  # 0: newest
    for age, digest in names.items():
        blob = tmp_path / "code" / digest[:2] / f"{digest}.cpp.gz"
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(b"x" * 100)
        os.utime(blob, (1_000_000 - age, 1_000_000 - age))
    users = tmp_path / "code" / names[3][:2] / "mine.cpp.gz"
    users.write_bytes(b"y" * 100)
    os.utime(users, (1, 1))
    cython_cache.trim(tmp_path, limit=400)  # at the limit: nothing goes
    assert len(list(tmp_path.rglob("*.cpp.gz"))) == 5
    cython_cache.trim(tmp_path, limit=300)
    left = {p.name for p in tmp_path.rglob("*.cpp.gz")}
    assert left == {f"{names[0]}.cpp.gz", f"{names[1]}.cpp.gz", "mine.cpp.gz"}
