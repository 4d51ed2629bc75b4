# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The program cache of cuda.core.utils without a GPU: what goes into a key, both caches'
behaviour and limits, a directory shared by several processes, damaged entry files, and
Program.compile(cache=) around real NVRTC compiles."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ARCH = "sm_90"

KERNEL = r"""
extern "C" __global__ void fill(int* out, int value) { out[threadIdx.x] = value; }
"""

# An unused local: NVRTC warns (#177-D), so a real compile of it writes a log.
CHATTY = r"""
extern "C" __global__ void chatty(int* out) {
    int unused_here = 7;
    out[0] = 1;
}
"""


@pytest.fixture(scope="module")
def utils(cuda_core):
    import cuda.core.utils

    return cuda.core.utils


@pytest.fixture(scope="module")
def nvrtc(cuda_core, driver_present):
    """NVRTC loads on every CPU machine of this project (a GPU machine may lack it: skip there)."""
    from cuda.core._program import _nvrtc_version

    try:
        return _nvrtc_version()
    except Exception as err:
        if driver_present:
            pytest.skip(f"NVRTC cannot be loaded here ({err})")
        raise


@pytest.fixture
def options(cuda_core):
    def make(**fields):
        fields.setdefault("arch", ARCH)
        from cuda.core import ProgramOptions

        return ProgramOptions(**fields)

    return make


@pytest.fixture
def key(utils, options):
    """make_program_cache_key with a C++-to-cubin baseline; arguments override it."""

    def make(**overrides):
        arguments = {"code": KERNEL, "code_type": "c++", "options": options(), "target_type": "cubin"}
        arguments.update(overrides)
        return utils.make_program_cache_key(**arguments)

    return make


# ---------------------------------------------------------------------------------------------
# Keys.


def test_key_is_32_bytes_and_equal_for_equal_inputs(key, options) -> None:
    first = key(options=options(std="c++17"))
    again = key(options=options(std="c++17"))  # another ProgramOptions object, the same fields
    assert isinstance(first, bytes) and len(first) == 32
    assert first == again


@pytest.mark.parametrize(
    "change",
    [
        {"code": KERNEL + "\n// one more line"},
        {"target_type": "ptx"},
        {"target_type": "ltoir"},
        {"arch": "sm_80"},
        {"std": "c++17"},
        {"use_fast_math": True},
        {"define_macro": "N=4"},
        {"name": "another_name"},
        {"name_expressions": ("fill",)},
        {"extra_digest": b"headers-v1"},
    ],
    ids=lambda change: next(iter(change)),
)
def test_each_input_changes_the_key(key, options, change) -> None:
    fields = {
        name: value
        for name, value in change.items()
        if name not in ("code", "target_type", "name_expressions", "extra_digest")
    }
    arguments = {name: value for name, value in change.items() if name not in fields}
    assert key(options=options(**fields), **arguments) != key()


def test_the_compilers_version_is_in_the_key(key, monkeypatch) -> None:
    from cuda.core.utils._program_cache import _keys

    monkeypatch.setattr(_keys, "_nvrtc_version", lambda: (13, 0))
    on_13_0 = key()
    monkeypatch.setattr(_keys, "_nvrtc_version", lambda: (13, 1))
    assert key() != on_13_0


def test_a_failing_version_probe_gives_a_stable_key_of_its_own(key, monkeypatch) -> None:
    from cuda.core.utils._program_cache import _keys

    working = key()

    def broken():
        raise OSError("libnvrtc went away")

    monkeypatch.setattr(_keys, "_nvrtc_version", broken)
    assert key() == key() != working


def test_the_schema_version_is_in_the_key(key, monkeypatch) -> None:
    from cuda.core.utils._program_cache import _keys

    before = key()
    monkeypatch.setattr(_keys, "_KEY_SCHEMA_VERSION", _keys._KEY_SCHEMA_VERSION + 1)
    assert key() != before


def test_what_the_compiler_does_not_see_leaves_the_key_alone(key, options) -> None:
    assert key(code_type="C++", target_type="CUBIN") == key()
    assert key(name_expressions=["b", "a"]) == key(name_expressions=("a", "b"))
    assert key(name_expressions=("a",)) != key(name_expressions=(b"a",))  # symbol_mapping keeps the type
    assert key(options=options(use_libdevice=True)) == key()  # an NVVM option, ignored by NVRTC
    assert key(options=options(use_fast_math=False)) == key()  # NVRTC gets no flag for False


def test_nvvm_keys_take_bytecode_and_the_extra_modules_in_order(key, options) -> None:
    text = 'target triple = "nvptx64-nvidia-cuda"'
    assert key(code=text, code_type="nvvm", target_type="ptx") == key(
        code=text.encode(), code_type="nvvm", target_type="ptx"
    )
    first = options(extra_sources=[("a", "; a"), ("b", "; b")])
    swapped = options(extra_sources=[("b", "; b"), ("a", "; a")])
    assert key(code=text, code_type="nvvm", target_type="ptx", options=first) != key(
        code=text, code_type="nvvm", target_type="ptx", options=swapped
    )


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        ({"code_type": "fortran"}, ValueError, "not a valid SourceCodeType"),
        ({"target_type": "fatbin"}, ValueError, "target_type='fatbin' is not supported"),
        ({"code_type": "nvvm", "target_type": "cubin"}, ValueError, "not valid for code_type='nvvm'"),
        ({"code": b"__global__ void k() {}"}, TypeError, "code must be str for code_type='c..'"),
        ({"code": 42}, TypeError, "code must be str or bytes, got int"),
        ({"options": "-arch=sm_90"}, TypeError, "options must be a ProgramOptions"),
        ({"name_expressions": ("fill", 3)}, TypeError, "name_expressions elements must be str or bytes, got int"),
        ({"name_expressions": (bytearray(b"fill"),)}, TypeError, "not bytearray"),
        ({"name_expressions": "fill"}, TypeError, "not a single str"),
        ({"extra_digest": "not bytes"}, TypeError, "extra_digest must be bytes"),
    ],
    ids=[
        "code_type",
        "target_type",
        "pair",
        "bytes_code",
        "int_code",
        "options",
        "name_int",
        "name_bytearray",
        "names_str",
        "extra_digest",
    ],
)
def test_bad_key_inputs_raise(key, arguments, error, message) -> None:
    with pytest.raises(error, match=message):
        key(**arguments)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"include_path": ["/opt/include"]}, "needs an extra_digest for options that read files \\(include_path\\)"),
        ({"pre_include": "common.h"}, "pre_include"),
        ({"use_pch": "kernels.pch"}, "use_pch"),
        ({"name": "kernels/fill.cu"}, "directory component"),
        ({"create_pch": "out.pch"}, "side effect \\(create_pch\\)"),
        ({"time": "timing.csv"}, "side effect \\(time\\)"),
    ],
    ids=["include_path", "pre_include", "use_pch", "name_dir", "create_pch", "time"],
)
def test_inputs_the_key_cannot_see_are_refused(key, options, fields, message) -> None:
    with pytest.raises(ValueError, match=message):
        key(options=options(**fields))


def test_an_extra_digest_admits_header_options(key, options) -> None:
    with_headers = options(include_path=["/opt/include"])
    assert key(options=with_headers, extra_digest=b"v1") != key(options=with_headers, extra_digest=b"v2")
    with pytest.raises(ValueError, match="side effect"):  # a file the compile writes stays refused
        key(options=options(create_pch="out.pch"), extra_digest=b"v1")


def test_nvvm_libdevice_needs_an_extra_digest(key, options) -> None:
    arguments = {"code": "; ir", "code_type": "nvvm", "target_type": "ptx", "options": options(use_libdevice=True)}
    with pytest.raises(ValueError, match="use_libdevice=True"):
        key(**arguments)
    assert len(key(**arguments, extra_digest=b"libdevice-13.0")) == 32


# ---------------------------------------------------------------------------------------------
# Both caches: the mapping.


@pytest.fixture(params=["in_memory", "file_stream"])
def cache(request, utils, tmp_path):
    if request.param == "in_memory":
        return utils.InMemoryProgramCache()
    return utils.FileStreamProgramCache(tmp_path / "cache")


def test_values_go_in_as_bytes_like_or_object_code_and_come_out_as_bytes(cache, tmp_path) -> None:
    from cuda.core import ObjectCode

    cubin_file = tmp_path / "k.cubin"
    cubin_file.write_bytes(b"from a file")
    cache[b"bytes"] = b"plain"
    cache["text-key"] = bytearray(b"a bytearray")
    cache[b"view"] = memoryview(b"a view")
    cache[b"object"] = ObjectCode.from_cubin(b"\x7fELF object", name="k")
    cache[b"file"] = ObjectCode.from_cubin(str(cubin_file))
    cubin_file.write_bytes(b"changed later")  # the entry holds what the file had when stored
    assert cache[b"bytes"] == b"plain"
    assert cache[b"text-key"] == cache["text-key"] == b"a bytearray"  # str keys are their UTF-8
    assert cache.get(b"view") == b"a view"
    assert cache[b"object"] == b"\x7fELF object"
    assert cache[b"file"] == b"from a file"
    assert all(type(cache[k]) is bytes for k in (b"bytes", b"view", b"object"))
    assert len(cache) == 5


def test_misses_deletes_and_clear(cache) -> None:
    assert cache.get(b"absent") is None and cache.get(b"absent", b"fallback") == b"fallback"
    with pytest.raises(KeyError):
        cache[b"absent"]
    cache.update({b"a": b"1", b"b": b"2"})
    cache.update([(b"c", b"3")])
    cache[b"a"] = b"replaced"
    assert (len(cache), cache[b"a"]) == (3, b"replaced")
    del cache[b"b"]
    with pytest.raises(KeyError):
        del cache[b"b"]
    cache.clear()
    assert len(cache) == 0 and cache.get(b"a") is None


def test_bad_keys_and_values_raise_type_error(cache, tmp_path) -> None:
    from cuda.core import ObjectCode

    with pytest.raises(TypeError, match="cache keys must be bytes or str, got int"):
        cache[7] = b"x"
    with pytest.raises(TypeError, match="cache keys must be bytes or str"):
        cache.get(7)
    with pytest.raises(TypeError, match="cache values must be bytes-like or ObjectCode, got str"):
        cache[b"k"] = "source text"
    gone = tmp_path / "gone.cubin"
    with pytest.raises(FileNotFoundError, match="path-backed ObjectCode.*gone.cubin"):
        cache[b"k"] = ObjectCode.from_cubin(str(gone))
    assert len(cache) == 0


@pytest.mark.parametrize("limit, error", [(0, ValueError), (-5, ValueError), ("1 MB", TypeError)])
def test_bad_size_limits_raise(utils, tmp_path, limit, error) -> None:
    with pytest.raises(error, match="max_size_bytes"):
        utils.InMemoryProgramCache(max_size_bytes=limit)
    with pytest.raises(error, match="max_size_bytes"):
        utils.FileStreamProgramCache(tmp_path, max_size_bytes=limit)


def test_the_interface_is_abstract_and_a_context_manager(utils) -> None:
    with pytest.raises(TypeError, match="abstract"):
        utils.ProgramCacheResource()
    with utils.InMemoryProgramCache() as cache:
        cache[b"k"] = b"v"
    assert not hasattr(utils.ProgramCacheResource, "__contains__")  # lookups go through get()


# ---------------------------------------------------------------------------------------------
# InMemoryProgramCache: its limit.


def test_in_memory_limit_evicts_the_least_recently_read(utils) -> None:
    cache = utils.InMemoryProgramCache(max_size_bytes=300)
    cache[b"old"] = b"o" * 100
    cache[b"mid"] = b"m" * 100
    cache[b"old"]  # reading makes it recent: "mid" is now the least recent
    cache[b"new"] = b"n" * 150
    assert cache.get(b"mid") is None
    assert cache[b"old"] and cache[b"new"]
    cache[b"huge"] = b"h" * 301  # larger than the limit on its own: not kept, and it empties the cache
    assert len(cache) == 0


# ---------------------------------------------------------------------------------------------
# FileStreamProgramCache: the directory.


def test_entries_persist_as_the_plain_bytes(utils, tmp_path) -> None:
    root = tmp_path / "cache"
    with utils.FileStreamProgramCache(root) as cache:
        cache[b"k"] = b"\x7fELF and the rest"
    files = [path for path in (root / "entries").rglob("*") if path.is_file()]
    assert [path.read_bytes() for path in files] == [b"\x7fELF and the rest"]  # readable by cuobjdump & co
    assert list((root / "tmp").iterdir()) == []  # nothing staged is left behind
    with utils.FileStreamProgramCache(str(root)) as reopened:
        assert reopened[b"k"] == b"\x7fELF and the rest"


def test_default_directory_follows_xdg_cache_home(utils, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    from cuda.core.utils._program_cache import _file_stream

    monkeypatch.setattr(_file_stream, "_IS_WINDOWS", False)
    with utils.FileStreamProgramCache() as cache:
        cache[b"k"] = b"v"
    assert (tmp_path / "xdg" / "cuda-python" / "program-cache" / "entries").is_dir()


def _entry_file(root: Path) -> Path:
    (path,) = [path for path in (root / "entries").rglob("*") if path.is_file()]
    return path


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_entry_is_a_miss_and_is_removed(utils, tmp_path, damage) -> None:
    root = tmp_path / "cache"
    cache = utils.FileStreamProgramCache(root)
    cache[b"k"] = b"0123456789" * 20
    path = _entry_file(root)
    if damage == "truncated":
        with open(path, "r+b") as file:
            file.truncate(50)
    else:
        with open(path, "r+b") as file:  # the same length, other bytes: in place, as a disk error would
            file.seek(100)
            file.write(b"XXXX")
    assert cache.get(b"k") is None
    assert not path.exists()
    cache[b"k"] = b"fresh"  # the key works again at once
    assert cache[b"k"] == b"fresh"


def test_an_entry_that_is_not_a_file_is_a_miss(utils, tmp_path) -> None:
    root = tmp_path / "cache"
    cache = utils.FileStreamProgramCache(root)
    cache[b"k"] = b"v"
    path = _entry_file(root)
    path.unlink()
    path.mkdir()
    assert cache.get(b"k") is None


def test_the_size_limit_evicts_the_least_recently_read(utils, tmp_path) -> None:
    root = tmp_path / "cache"
    cache = utils.FileStreamProgramCache(root, max_size_bytes=2500)
    cache[b"first"] = b"1" * 1000
    time.sleep(0.02)
    cache[b"second"] = b"2" * 1000
    time.sleep(0.02)
    assert cache[b"first"]  # read: now "second" is the least recently read
    time.sleep(0.02)
    cache[b"third"] = b"3" * 1000  # 3000 bytes > 2500: one must go
    reopened = utils.FileStreamProgramCache(root, max_size_bytes=2500)
    assert reopened.get(b"second") is None
    assert reopened[b"first"] == b"1" * 1000 and reopened[b"third"] == b"3" * 1000
    size = sum(path.stat().st_size for path in (root / "entries").rglob("*") if path.is_file())
    assert size <= 2500


def test_the_size_limit_counts_stale_writes_only_until_swept(utils, tmp_path) -> None:
    root = tmp_path / "cache"
    utils.FileStreamProgramCache(root)
    dead_writer = root / "tmp" / "entry-dead"
    dead_writer.write_bytes(b"x" * 5000)
    an_hour_ago = time.time() - 2 * 3600
    os.utime(dead_writer, (an_hour_ago, an_hour_ago))
    live_writer = root / "tmp" / "entry-live"
    live_writer.write_bytes(b"y" * 10)
    utils.FileStreamProgramCache(root, max_size_bytes=1000)  # opening sweeps what dead writers left
    assert not dead_writer.exists() and live_writer.exists()


_WRITER = r"""
import sys
from cuda.core.utils import FileStreamProgramCache
root, worker = sys.argv[1], int(sys.argv[2])
with FileStreamProgramCache(root) as cache:
    for round in range(40):
        cache[f"worker-{worker}-{round}"] = f"value of {worker}/{round}".encode() * 50
        cache[b"shared"] = bytes([65 + worker]) * (1000 + worker)
"""


def test_processes_writing_at_once_leave_whole_entries(utils, tmp_path) -> None:
    root = tmp_path / "shared-cache"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(root), str(worker)], env=env, stderr=subprocess.PIPE, text=True
        )
        for worker in range(4)
    ]
    for writer in writers:
        _, stderr = writer.communicate(timeout=120)
        assert writer.returncode == 0, stderr
    cache = utils.FileStreamProgramCache(root)
    for worker in range(4):
        for round in range(40):
            assert cache[f"worker-{worker}-{round}"] == f"value of {worker}/{round}".encode() * 50
    shared = cache[b"shared"]
    worker = shared[0] - 65
    assert shared == bytes([65 + worker]) * (1000 + worker)  # one writer's whole value, no mixture
    assert len(cache) == 4 * 40 + 1
    assert list((root / "tmp").iterdir()) == []


_CHURNER = r"""
import sys
from cuda.core.utils import FileStreamProgramCache
root, worker = sys.argv[1], sys.argv[2]
cache = FileStreamProgramCache(root, max_size_bytes=20_000)
for round in range(300):
    if worker == "clear":
        cache.clear()
    else:
        cache[f"{worker}-{round % 40}"] = bytes(500 + round % 7)
"""


def test_writers_survive_a_concurrent_clear_and_eviction(utils, tmp_path) -> None:
    # clear() removes shard directories that are empty for a moment; a writer between its mkdir
    # and its rename must make them again rather than fail.
    root = tmp_path / "churned-cache"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _CHURNER, str(root), worker], env=env, stderr=subprocess.PIPE, text=True
        )
        for worker in ("a", "b", "c", "clear")
    ]
    for worker in workers:
        _, stderr = worker.communicate(timeout=120)
        assert worker.returncode == 0, stderr
    cache = utils.FileStreamProgramCache(root, max_size_bytes=20_000)
    cache[b"after"] = b"still works"
    assert cache[b"after"] == b"still works"


# ---------------------------------------------------------------------------------------------
# Program.compile(cache=...) with real NVRTC compiles.


def test_compile_with_a_cache_misses_then_hits_without_compiling(utils, nvrtc, options, tmp_path) -> None:
    from cuda.core import Program

    root = tmp_path / "cache"
    miss_log = io.StringIO()
    with utils.FileStreamProgramCache(root) as cache:
        compiled = Program(CHATTY, "c++", options(name="chatty")).compile("cubin", logs=miss_log, cache=cache)
        assert len(cache) == 1
    assert "unused_here" in miss_log.getvalue()  # the miss compiled, and logged
    hit_log = io.StringIO()
    with utils.FileStreamProgramCache(root) as cache:
        cached = Program(CHATTY, "c++", options(name="chatty")).compile("cubin", logs=hit_log, cache=cache)
    assert bytes(cached.code) == bytes(compiled.code)
    assert (cached.code_type, cached.name) == ("cubin", "chatty")
    assert hit_log.getvalue() == ""  # nothing was compiled


def test_compile_with_a_cache_keys_the_target(utils, nvrtc, options) -> None:
    from cuda.core import Program

    cache = utils.InMemoryProgramCache()
    ptx = Program(KERNEL, "c++", options()).compile("ptx", cache=cache)
    cubin = Program(KERNEL, "c++", options()).compile("cubin", cache=cache)
    assert len(cache) == 2
    assert b".entry fill" in bytes(ptx.code) and bytes(cubin.code).startswith(b"\x7fELF")
    key = utils.make_program_cache_key(code=KERNEL, code_type="c++", options=options(), target_type="ptx")
    assert cache[key] == bytes(ptx.code)


def test_compile_recompiles_over_a_damaged_entry(utils, nvrtc, options, tmp_path) -> None:
    from cuda.core import Program

    root = tmp_path / "cache"
    cache = utils.FileStreamProgramCache(root)
    good = bytes(Program(KERNEL, "c++", options()).compile("cubin", cache=cache).code)
    path = _entry_file(root)
    with open(path, "r+b") as file:
        file.truncate(len(good) // 2)
    again = Program(KERNEL, "c++", options()).compile("cubin", cache=cache)
    assert bytes(again.code) == good
    assert _entry_file(root).read_bytes() == good  # stored again, whole


def test_compile_with_a_cache_refuses_before_touching_it(utils, nvrtc, options) -> None:
    from cuda.core import Program

    cache = utils.InMemoryProgramCache()
    with pytest.raises(ValueError, match="name_expressions cannot be combined with cache="):
        Program(KERNEL, "c++", options()).compile("cubin", name_expressions=["fill"], cache=cache)
    with pytest.raises(ValueError, match="extra_digest"):
        Program(KERNEL, "c++", options(include_path=["/opt/include"])).compile("cubin", cache=cache)
    with pytest.raises(TypeError, match="ProgramCacheResource"):
        Program(KERNEL, "c++", options()).compile("cubin", cache={})
    assert len(cache) == 0
