# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""ObjectCode and Kernel without a GPU, and the signatures of this part of the API as NVIDIA's
cuda.core 1.2 stubs give them (names, kinds and defaults of each parameter; members of each class)."""

from __future__ import annotations

import inspect
import pickle
import weakref
from pathlib import Path

import pytest

EMPTY = inspect.Parameter.empty
FACTORY = [
    ("module", EMPTY, "POSITIONAL_OR_KEYWORD"),
    ("name", "", "KEYWORD_ONLY"),
    ("symbol_mapping", None, "KEYWORD_ONLY"),
]


def parameters(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


def public(cls) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.fixture(scope="module")
def module(cuda_core):
    from cuda.core import _module

    return _module


@pytest.mark.parametrize(
    "factory, code_type",
    [
        ("from_cubin", "cubin"),
        ("from_ptx", "ptx"),
        ("from_ltoir", "ltoir"),
        ("from_fatbin", "fatbin"),
        ("from_object", "object"),
        ("from_library", "library"),
    ],
)
def test_factories_keep_the_code_or_the_path(cuda_core, tmp_path: Path, factory, code_type) -> None:
    make = getattr(cuda_core.ObjectCode, factory)
    assert parameters(make) == FACTORY
    code = make(b"\x7fELF-ish", name="n", symbol_mapping={"f<int>": "_Z1fIiEvv"})
    assert (code.code, code.code_type, code.name, code.symbol_mapping) == (
        b"\x7fELF-ish",
        code_type,
        "n",
        {"f<int>": "_Z1fIiEvv"},
    )
    assert make(bytearray(b"ab")).code == bytearray(b"ab")
    path = tmp_path / f"code.{code_type}"
    # A path is kept as a str and read by the driver when loading: it need not exist yet.
    assert make(path).code == str(path) and make(str(path)).code == str(path)
    assert make(b"x").name == "" and make(b"x").symbol_mapping == {}
    # Lowered names may be bytes too, as Program records NVRTC's.
    assert make(b"x", symbol_mapping={"f<int>": b"_Z1fIiEvv"}).symbol_mapping == {"f<int>": b"_Z1fIiEvv"}


def test_factory_arguments_are_checked(cuda_core) -> None:
    ObjectCode = cuda_core.ObjectCode
    with pytest.raises(TypeError, match="module must be the cubin as bytes, or a path"):
        ObjectCode.from_cubin(42)
    with pytest.raises(ValueError, match="the ptx given is empty"):
        ObjectCode.from_ptx(b"")
    with pytest.raises(TypeError, match="'name' has incorrect type"):
        ObjectCode.from_ptx(b"//", name=None)
    with pytest.raises(TypeError, match="'symbol_mapping' has incorrect type"):
        ObjectCode.from_ptx(b"//", symbol_mapping=[("a", "b")])
    with pytest.raises(TypeError, match="symbol_mapping must be a dict of str"):
        ObjectCode.from_ptx(b"//", symbol_mapping={"a": 1})
    with pytest.raises(ValueError, match="code_type 'sass' is not supported"):
        ObjectCode._init(b"x", "sass")
    with pytest.raises(RuntimeError, match=r"^ObjectCode objects cannot be instantiated directly\."):
        ObjectCode()


@pytest.mark.parametrize("code_type", ["ltoir", "object", "library"])
def test_linker_inputs_cannot_be_loaded(cuda_core, code_type) -> None:
    code = cuda_core.ObjectCode._init(b"not loadable", code_type)
    with pytest.raises(RuntimeError, match=f'Unsupported code type "{code_type}"'):
        code.get_kernel("saxpy")
    with pytest.raises(RuntimeError, match=f'Unsupported code type "{code_type}"'):
        code.handle
    assert repr(code) == f"<ObjectCode handle=0x0 code_type='{code_type}'>"


def test_get_kernel_needs_a_driver(cuda_core, no_driver) -> None:
    code = cuda_core.ObjectCode.from_cubin(b"\x7fELF")
    with pytest.raises(cuda_core.DriverNotFoundError):
        code.get_kernel("saxpy")
    with pytest.raises(TypeError, match="kernel name must be a str or bytes, got int"):
        code.get_kernel(5)
    assert repr(code) == "<ObjectCode handle=0x0 code_type='cubin'>"  # repr never fails


@pytest.mark.parametrize(
    "module_of", [lambda tmp: b"\x7fELF...", lambda tmp: str(tmp / "k.cubin"), lambda tmp: memoryview(b"\x7fELF...")]
)
def test_object_code_pickles(cuda_core, tmp_path, module_of) -> None:
    code = cuda_core.ObjectCode.from_cubin(module_of(tmp_path), name="k", symbol_mapping={"a": "b"})
    copy = pickle.loads(pickle.dumps(code))
    assert type(copy) is cuda_core.ObjectCode
    assert (bytes(copy.code) if not isinstance(copy.code, str) else copy.code) == (
        bytes(code.code) if not isinstance(code.code, str) else code.code
    )
    assert (copy.code_type, copy.name, copy.symbol_mapping) == ("cubin", "k", {"a": "b"})


def test_object_code_identity(cuda_core) -> None:
    """Each ObjectCode loads its own library: equal only to itself, hashable, weakly referable."""
    first = cuda_core.ObjectCode.from_cubin(b"same")
    second = cuda_core.ObjectCode.from_cubin(b"same")
    assert first == first and first != second and first != b"same"
    assert len({first, second}) == 2
    assert weakref.ref(first)() is first


def test_kernel_objects_come_from_object_code(cuda_core, module) -> None:
    with pytest.raises(RuntimeError, match=r"^Kernel objects cannot be instantiated directly\."):
        cuda_core.Kernel()
    with pytest.raises(RuntimeError, match=r"^KernelAttributes cannot be instantiated directly\."):
        module.KernelAttributes()
    with pytest.raises(RuntimeError, match=r"^KernelOccupancy cannot be instantiated directly\."):
        module.KernelOccupancy()


@pytest.mark.parametrize(
    "handle, error",
    [
        ("0x10", TypeError),
        (2.5, TypeError),
        (None, TypeError),
        ([1], TypeError),
        (True, TypeError),
        (-1, OverflowError),
        (0, ValueError),
    ],
)
def test_kernel_from_handle_checks_the_handle(cuda_core, handle, error) -> None:
    with pytest.raises(error):
        cuda_core.Kernel.from_handle(handle)


def test_kernel_from_handle_without_the_driver(cuda_core) -> None:
    """Wrapping a handle asks nothing of the driver; kernels on one handle are equal."""
    from cuda.bindings import driver

    first = cuda_core.Kernel.from_handle(0x5000)
    second = cuda_core.Kernel.from_handle(driver.CUkernel(0x5000))
    assert first == second and hash(first) == hash(second) and first != cuda_core.Kernel.from_handle(0x6000)
    assert int(first.handle) == 0x5000 and int(first._handle) == 0x5000
    assert repr(first) == "<Kernel handle=0x5000>"
    assert first.attributes is first.attributes and first.occupancy is first.occupancy
    with pytest.raises(TypeError, match="Device or a device ordinal"):
        first.attributes["not a device"]
    with pytest.raises(TypeError, match="'mod' has incorrect type"):
        cuda_core.Kernel.from_handle(0x5000, mod="not an ObjectCode")


def test_occupancy_cluster_queries_take_the_stream_by_keyword(cuda_core) -> None:
    occupancy = cuda_core.Kernel.from_handle(0x5000).occupancy
    config = cuda_core.LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="keyword-only argument"):
        occupancy.max_active_clusters(config)
    with pytest.raises(TypeError, match="keyword-only argument"):
        occupancy.max_potential_cluster_size(config)
    with pytest.raises(TypeError, match="stream is required and must not be None"):
        occupancy.max_active_clusters(config, stream=None)
    with pytest.raises(
        TypeError, match="dynamic_shared_memory_needed must be an int .* or a driver.CUoccupancyB2DSize"
    ):
        occupancy.max_potential_block_size(Ellipsis, 0)


def test_signatures_match_nvidias_stubs(cuda_core, module) -> None:
    from cuda.core import _event, _launch_config, _stream

    Stream, Event, Kernel, ObjectCode = cuda_core.Stream, cuda_core.Event, cuda_core.Kernel, cuda_core.ObjectCode
    assert parameters(cuda_core.launch) == [
        ("stream", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("config", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("kernel", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("kernel_args", EMPTY, "VAR_POSITIONAL"),
    ]
    assert parameters(Stream.from_handle) == [("handle", EMPTY, "POSITIONAL_OR_KEYWORD")]
    assert parameters(Stream.record) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("event", None, "POSITIONAL_OR_KEYWORD"),
        ("options", None, "POSITIONAL_OR_KEYWORD"),
    ]
    assert [name for name, _, _ in parameters(Stream.wait)] == ["self", "event_or_stream"]
    assert parameters(Stream._init) == [
        (name, None, "POSITIONAL_OR_KEYWORD") for name in ("obj", "options", "device_id", "ctx")
    ]
    assert parameters(_stream.Stream_accept) == [
        ("arg", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("allow_stream_protocol", False, "POSITIONAL_OR_KEYWORD"),
    ]
    assert parameters(_stream.default_stream) == []
    assert [name for name, _, _ in parameters(Event.from_ipc_descriptor)] == ["ipc_descriptor"]
    assert [name for name, _, _ in parameters(_event.IPCEventDescriptor._init)] == ["reserved", "is_blocking_sync"]
    assert (
        parameters(ObjectCode._init)
        == [("module", EMPTY, "POSITIONAL_OR_KEYWORD"), ("code_type", EMPTY, "POSITIONAL_OR_KEYWORD")] + FACTORY[1:]
    )
    assert [name for name, _, _ in parameters(ObjectCode._reduce_helper)] == [
        "module",
        "code_type",
        "name",
        "symbol_mapping",
    ]
    assert parameters(Kernel.from_handle) == [
        ("handle", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("mod", None, "POSITIONAL_OR_KEYWORD"),
    ]
    occupancy = module.KernelOccupancy
    assert [name for name, _, _ in parameters(occupancy.max_active_blocks_per_multiprocessor)] == [
        "self",
        "block_size",
        "dynamic_shared_memory_size",
    ]
    assert [name for name, _, _ in parameters(occupancy.max_potential_block_size)] == [
        "self",
        "dynamic_shared_memory_needed",
        "block_size_limit",
    ]
    assert [name for name, _, _ in parameters(occupancy.available_dynamic_shared_memory_per_block)] == [
        "self",
        "num_blocks_per_multiprocessor",
        "block_size",
    ]
    for query in (occupancy.max_potential_cluster_size, occupancy.max_active_clusters):
        assert parameters(query)[1:] == [("config", EMPTY, "POSITIONAL_OR_KEYWORD"), ("stream", EMPTY, "KEYWORD_ONLY")]
    assert [name for name, _, _ in parameters(_launch_config._to_native_launch_config)] == ["config"]


def test_members_match_nvidias_stubs(cuda_core, module) -> None:
    from cuda.core import _event

    assert public(cuda_core.Stream) == {
        "close",
        "context",
        "create_graph_builder",
        "device",
        "from_handle",
        "handle",
        "is_closed",
        "is_nonblocking",
        "priority",
        "record",
        "resources",
        "sync",
        "wait",
    }
    assert public(cuda_core.Event) == {
        "close",
        "context",
        "device",
        "from_ipc_descriptor",
        "handle",
        "ipc_descriptor",
        "is_blocking_sync",
        "is_closed",
        "is_done",
        "is_ipc_enabled",
        "is_timing_enabled",
        "sync",
    }
    assert public(cuda_core.LaunchConfig) == {
        "block",
        "cluster",
        "grid",
        "is_cooperative",
        "programmatic_stream_serialization",
        "shmem_size",
    }
    assert public(cuda_core.ObjectCode) == {
        "code",
        "code_type",
        "from_cubin",
        "from_fatbin",
        "from_library",
        "from_ltoir",
        "from_object",
        "from_ptx",
        "get_kernel",
        "get_module",
        "handle",
        "name",
        "symbol_mapping",
    }
    assert public(cuda_core.Kernel) == {
        "arguments_info",
        "attributes",
        "from_handle",
        "handle",
        "num_arguments",
        "occupancy",
    }
    assert public(module.KernelAttributes) == {
        "binary_version",
        "cache_mode_ca",
        "cluster_scheduling_policy_preference",
        "cluster_size_must_be_set",
        "const_size_bytes",
        "local_size_bytes",
        "max_dynamic_shared_size_bytes",
        "max_threads_per_block",
        "non_portable_cluster_size_allowed",
        "num_regs",
        "preferred_shared_memory_carveout",
        "ptx_version",
        "required_cluster_depth",
        "required_cluster_height",
        "required_cluster_width",
        "shared_size_bytes",
    }
    assert all(
        isinstance(getattr(module.KernelAttributes, name), property)
        or type(getattr(module.KernelAttributes, name)).__name__ == "getset_descriptor"
        for name in public(module.KernelAttributes)
    )
    assert public(module.KernelOccupancy) == {
        "available_dynamic_shared_memory_per_block",
        "max_active_clusters",
        "max_active_blocks_per_multiprocessor",
        "max_potential_block_size",
        "max_potential_cluster_size",
    }
    assert module.ParamInfo._fields == ("offset", "size")
    assert module.MaxPotentialBlockSizeOccupancyResult._fields == ("min_grid_size", "max_block_size")
    assert set(module.__all__) == {"Kernel", "ObjectCode"}
    assert {"ipc_descriptor", "is_ipc_enabled"} <= public(cuda_core.Event) and hasattr(_event, "_reduce_event")
