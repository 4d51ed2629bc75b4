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
import subprocess
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


def test_a_read_only_cache_serves_hits(setup) -> None:
    """Issue 49, N6c: a cache the build cannot write (here read-only: a bind mount in a namespace of the
    test's own; another user's fails the same way) serves its hits, and the build succeeds. It failed every
    build that found a hit: marking the hit recently used was an error."""
    venv, _, _, second, cache = setup
    cythonize(venv, second, cache)  # each module's code, stored or hit
    outputs = cython_outputs(venv, second)
    expected = contents(outputs)
    for path in outputs.values():
        path.unlink(missing_ok=True)
    mount = 'mount --bind -o ro "$1" "$1" || exit 77; shift; exec "$@"'
    command = ["unshare", "-rm", "sh", "-c", mount, "sh", str(cache), str(venv.bin / "ninja"), "-C", str(second)]
    targets = [str(path.relative_to(second)) for path in outputs.values()]
    result = subprocess.run([*command, *targets], env=venv.env(**{ENV: str(cache)}), capture_output=True, text=True)
    if result.returncode == 77 or "unshare: " in result.stderr:
        pytest.skip(f"no read-only bind mount here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert contents(outputs) == expected


def test_a_relative_cache_is_no_cache(setup) -> None:
    """Issue 49, N6h: a relative CUDA_CORE_CYTHON_CACHE names no one place (Cython steps run in the build
    directory, so it landed in each): it is a miss, written nowhere."""
    venv, _, _, second, _ = setup
    cythonize(venv, second, None)
    expected = contents(cython_outputs(venv, second))
    cythonize(venv, second, Path("relative-cython-cache"))
    assert not (second / "relative-cython-cache").exists()
    assert contents(cython_outputs(venv, second)) == expected


def test_a_devenv_venv_caches_in_the_users_cache_directory(setup, tmp_path: Path) -> None:
    """In a venv tools/dev/devenv.py made, the cache is on without the variable, in the user's cache
    directory (XDG_CACHE_HOME, else ~/.cache), as ccache's is."""
    venv, _, _, second, _ = setup
    outputs = cython_outputs(venv, second, ("_event",))
    outputs["_event"].unlink()
    env = {k: v for k, v in venv.env(XDG_CACHE_HOME=str(tmp_path)).items() if k != ENV}
    run([venv.bin / "ninja", "-C", second, str(outputs["_event"].relative_to(second))], env, second)
    assert list((tmp_path / "cuda-core" / "cython" / "manifests").rglob("*.json")), "nothing stored"
