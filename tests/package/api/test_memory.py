# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Memory without a GPU: the names and signatures of NVIDIA's cuda.core 1.2, Buffer over host
memory from a user's MemoryResource (properties, close and collection, the buffer protocol,
DLPack read back by numpy), the options and their validation, Host, and the errors that need
no driver (or say there is none)."""

from __future__ import annotations

import ctypes
import gc
import inspect
import os
import pickle
import sys
import weakref

import numpy as np
import pytest

MEMORY_NAMES = {
    "Buffer",
    "DeviceMemoryResource",
    "DeviceMemoryResourceOptions",
    "GraphMemoryResource",
    "LegacyPinnedMemoryResource",
    "ManagedBuffer",
    "ManagedMemoryResource",
    "ManagedMemoryResourceOptions",
    "MemoryResource",
    "PinnedMemoryResource",
    "PinnedMemoryResourceOptions",
    "VirtualMemoryResource",
    "VirtualMemoryResourceOptions",
}


def parameters(function) -> list[tuple[str, object, str]]:
    """(name, default, kind) of each parameter, as NVIDIA's stubs declare them."""
    empty = inspect.Parameter.empty
    return [
        (p.name, "required" if p.default is empty else p.default, p.kind.name[:3])
        for p in inspect.signature(function).parameters.values()
    ]


@pytest.fixture(scope="session")
def memory(cuda_core):
    from cuda.core import _memory

    return _memory


def make_host_resource(memory):
    class HostResource(memory.MemoryResource):
        """Host-only memory from numpy; records every deallocate call."""

        def __init__(self) -> None:
            self.arrays: dict[int, np.ndarray] = {}
            self.deallocated: list[tuple[int, int, object]] = []

        def allocate(self, size, *, stream=None):
            array = np.zeros(size, dtype=np.uint8)
            self.arrays[array.ctypes.data] = array
            return memory.Buffer.from_handle(array.ctypes.data, size, mr=self)

        def deallocate(self, ptr, size, *, stream=None) -> None:
            self.deallocated.append((ptr, size, stream))
            del self.arrays[ptr]

        @property
        def is_device_accessible(self) -> bool:
            return False

        @property
        def is_host_accessible(self) -> bool:
            return True

        @property
        def device_id(self) -> int:
            return -1

    return HostResource


@pytest.fixture
def host_resource(memory):
    return make_host_resource(memory)()


def capsule_name_is(capsule, name: bytes) -> bool:
    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.argtypes = (ctypes.py_object, ctypes.c_char_p)
    is_valid.restype = ctypes.c_int
    return bool(is_valid(capsule, name))


class LegacyOnly:
    """A producer wrapper that hands numpy the legacy (unversioned) capsule."""

    def __init__(self, buffer) -> None:
        self.buffer = buffer

    def __dlpack__(self, **kwargs):
        return self.buffer.__dlpack__()

    def __dlpack_device__(self):
        return self.buffer.__dlpack_device__()


# ---------------------------------------------------------------------------------------------
# Names and signatures


def test_memory_names_are_nvidias(cuda_core, memory) -> None:
    star: dict = {}
    exec("from cuda.core._memory import *", star)  # noqa: S102
    assert {name for name in star if not name.startswith("__")} == MEMORY_NAMES
    for name in MEMORY_NAMES:
        assert getattr(cuda_core, name) is getattr(memory, name) and name in cuda_core.__all__, name
    # The IPC classes: in cuda.core._memory (NVIDIA's later tests import them there), exported by
    # neither it nor cuda.core, as in NVIDIA's 1.2.2.
    for name in ("IPCAllocationHandle", "IPCBufferDescriptor"):
        assert getattr(memory, name).__name__ == name and not hasattr(cuda_core, name), name
    assert cuda_core.Host.__module__ == "cuda.core._host" and "Host" in cuda_core.__all__
    import cuda.core.utils

    assert {"prefetch_batch", "discard_batch", "discard_prefetch_batch"} <= set(cuda.core.utils.__all__)
    from cuda.core._dlpack import DLDeviceType

    assert [(t.name, int(t)) for t in DLDeviceType] == [
        ("kDLCPU", 1),
        ("kDLCUDA", 2),
        ("kDLCUDAHost", 3),
        ("kDLCUDAManaged", 13),
    ]


def test_buffer_signatures(memory) -> None:
    Buffer = memory.Buffer
    assert parameters(Buffer.from_handle) == [
        ("ptr", "required", "POS"),
        ("size", "required", "POS"),
        ("mr", None, "POS"),
        ("owner", None, "POS"),
        ("stream", None, "KEY"),
    ]
    assert isinstance(inspect.getattr_static(Buffer, "from_handle"), staticmethod)
    assert parameters(Buffer.close) == [("self", "required", "POS"), ("stream", None, "POS")]
    assert parameters(Buffer.copy_to) == [
        ("self", "required", "POS"),
        ("dst", None, "POS"),
        ("stream", "required", "KEY"),
        ("options", None, "KEY"),
    ]
    assert parameters(Buffer.copy_from) == [
        ("self", "required", "POS"),
        ("src", "required", "POS"),
        ("stream", "required", "KEY"),
        ("options", None, "KEY"),
    ]
    assert parameters(Buffer.fill) == [
        ("self", "required", "POS"),
        ("value", "required", "POS"),
        ("stream", "required", "KEY"),
    ]
    assert parameters(Buffer.set_deallocation_stream) == [("self", "required", "POS"), ("stream", "required", "POS")]
    assert parameters(Buffer.__dlpack__) == [
        ("self", "required", "POS"),
        ("stream", None, "KEY"),
        ("max_version", None, "KEY"),
        ("dl_device", None, "KEY"),
        ("copy", None, "KEY"),
    ]
    assert parameters(Buffer.from_ipc_descriptor) == [
        ("mr", "required", "POS"),
        ("ipc_descriptor", "required", "POS"),
        ("stream", "required", "KEY"),
    ]
    members = {
        "handle",
        "size",
        "memory_resource",
        "device_id",
        "is_device_accessible",
        "is_host_accessible",
        "is_managed",
        "is_mapped",
        "owner",
        "is_closed",
        "fill",
        "copy_to",
        "copy_from",
        "close",
        "set_deallocation_stream",
        "from_handle",
        "from_ipc_descriptor",
        "ipc_descriptor",
        "__enter__",
        "__exit__",
        "__buffer__",
        "__release_buffer__",
        "__dlpack__",
        "__dlpack_device__",
        "__reduce__",
    }
    assert members <= set(dir(Buffer))


def test_resource_signatures(memory) -> None:
    for cls in (
        memory.MemoryResource,
        memory.DeviceMemoryResource,
        memory.PinnedMemoryResource,
        memory.ManagedMemoryResource,
    ):
        assert parameters(cls.allocate) == [
            ("self", "required", "POS"),
            ("size", "required", "POS"),
            ("stream", "required", "KEY"),
        ], cls
        assert parameters(cls.deallocate) == [
            ("self", "required", "POS"),
            ("ptr", "required", "POS"),
            ("size", "required", "POS"),
            ("stream", "required", "KEY"),
        ], cls
    legacy = memory.LegacyPinnedMemoryResource
    assert parameters(legacy.allocate) == [
        ("self", "required", "POS"),
        ("size", "required", "POS"),
        ("stream", None, "KEY"),
    ]
    pools = {
        "close",
        "is_closed",
        "attributes",
        "handle",
        "is_handle_owned",
        "is_ipc_enabled",
        "is_mapped",
        "uuid",
        "allocation_handle",
        "from_allocation_handle",
        "from_registry",
        "register",
        "device_id",
        "is_device_accessible",
        "is_host_accessible",
        "is_managed",
    }
    assert pools | {"peer_accessible_by"} <= set(dir(memory.DeviceMemoryResource))
    assert pools | {"numa_id"} <= set(dir(memory.PinnedMemoryResource))
    assert {"preferred_location", "is_managed", "attributes", "close"} <= set(dir(memory.ManagedMemoryResource))
    from cuda.core._memory._device_memory_resource import DMR_mempool_get_access

    assert callable(DMR_mempool_get_access)


def test_ipc_methods_are_the_shareable_pools_only(memory) -> None:
    """DeviceMemoryResource and PinnedMemoryResource share their IPC methods; ManagedMemoryResource,
    a pool no other process can map, has none of them."""
    import uuid

    for cls in (memory.DeviceMemoryResource, memory.PinnedMemoryResource):
        with pytest.raises(RuntimeError, match="was not found in this process's registry"):
            cls.from_registry(uuid.uuid4())
        assert parameters(cls.register) == [("self", "required", "POS"), ("uuid", "required", "POS")], cls
    assert not {"register", "from_registry", "allocation_handle", "from_allocation_handle"} & set(
        dir(memory.ManagedMemoryResource)
    )


def test_managed_signatures(memory) -> None:
    from cuda.core import utils

    ManagedBuffer = memory.ManagedBuffer
    assert issubclass(ManagedBuffer, memory.Buffer)
    assert parameters(ManagedBuffer.prefetch) == [
        ("self", "required", "POS"),
        ("location", "required", "POS"),
        ("stream", "required", "KEY"),
    ]
    assert parameters(ManagedBuffer.discard) == [("self", "required", "POS"), ("stream", "required", "KEY")]
    assert parameters(ManagedBuffer.discard_prefetch) == parameters(ManagedBuffer.prefetch)
    assert {"read_mostly", "preferred_location", "accessed_by"} <= set(dir(ManagedBuffer))
    assert parameters(utils.prefetch_batch) == [
        ("stream", "required", "POS"),
        ("buffers", "required", "POS"),
        ("locations", "required", "POS"),
    ]
    assert parameters(utils.discard_batch) == [("stream", "required", "POS"), ("buffers", "required", "POS")]
    assert parameters(utils.discard_prefetch_batch) == parameters(utils.prefetch_batch)


# ---------------------------------------------------------------------------------------------
# Options


def test_options_are_nvidias_dataclasses(memory) -> None:
    import dataclasses

    fields = {
        cls.__name__: [(f.name, f.default) for f in dataclasses.fields(cls)]
        for cls in (
            memory.DeviceMemoryResourceOptions,
            memory.PinnedMemoryResourceOptions,
            memory.ManagedMemoryResourceOptions,
        )
    }
    assert fields == {
        "DeviceMemoryResourceOptions": [("ipc_enabled", False), ("max_size", 0)],
        "PinnedMemoryResourceOptions": [("ipc_enabled", False), ("max_size", 0), ("numa_id", None)],
        "ManagedMemoryResourceOptions": [("preferred_location", None), ("preferred_location_type", None)],
    }


@pytest.mark.parametrize(
    "options, error, match",
    [
        (
            dict(preferred_location_type="invalid"),
            ValueError,
            "'invalid' is not a valid ManagedMemoryLocationType. Must be ",
        ),
        (dict(preferred_location_type="device"), ValueError, "must be a device ordinal"),
        (dict(preferred_location=-1, preferred_location_type="device"), ValueError, "must be a device ordinal"),
        (dict(preferred_location=0, preferred_location_type="host"), ValueError, "must be None"),
        (dict(preferred_location=-1, preferred_location_type="host_numa"), ValueError, "must be a NUMA node ID"),
        (dict(preferred_location=-2), ValueError, "preferred_location must be"),
        (dict(preferred_location="0"), ValueError, "preferred_location must be"),
    ],
)
def test_managed_options_are_checked_before_any_driver_work(memory, options, error, match) -> None:
    with pytest.raises(error, match=match):
        memory.ManagedMemoryResource(memory.ManagedMemoryResourceOptions(**options))
    with pytest.raises(error, match=match):
        memory.ManagedMemoryResource(options)  # a dict of the fields works the same


@pytest.mark.parametrize("numa_id", [-1, -42, True, "0"])
def test_pinned_numa_id_is_checked(memory, numa_id) -> None:
    with pytest.raises(ValueError, match="numa_id must be >= 0"):
        memory.PinnedMemoryResource(memory.PinnedMemoryResourceOptions(numa_id=numa_id))


def test_options_of_the_wrong_kind_are_refused(memory) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        memory.PinnedMemoryResource({"max_bytes": 1})
    with pytest.raises(TypeError, match="options must be a PinnedMemoryResourceOptions"):
        memory.PinnedMemoryResource(memory.DeviceMemoryResourceOptions())
    with pytest.raises(TypeError, match="options must be a ManagedMemoryResourceOptions"):
        memory.ManagedMemoryResource(42)


def test_managed_resource_needs_cuda_13(memory, cuda_major) -> None:
    if cuda_major >= 13:
        pytest.skip("a CUDA 13 build has managed pools")
    with pytest.raises(RuntimeError, match="requires CUDA 13.0 or later"):
        memory.ManagedMemoryResource()
    with pytest.raises(RuntimeError, match="requires CUDA 13.0 or later"):
        memory.ManagedMemoryResource(memory.ManagedMemoryResourceOptions(preferred_location=-1))


# ---------------------------------------------------------------------------------------------
# Buffer over host memory from a user's MemoryResource


def test_memory_resource_is_abstract(memory) -> None:
    with pytest.raises(TypeError, match="MemoryResource is abstract"):
        memory.MemoryResource()

    class Incomplete(memory.MemoryResource):
        pass

    resource = Incomplete()
    with pytest.raises(NotImplementedError, match="Incomplete does not define allocate"):
        resource.allocate(8, stream=None)
    with pytest.raises(NotImplementedError, match="does not define is_host_accessible"):
        resource.is_host_accessible
    assert resource.is_managed is False


def test_buffers_are_not_constructed_directly(memory) -> None:
    for cls in (memory.Buffer, memory.ManagedBuffer):
        with pytest.raises(RuntimeError, match=r"MemoryResource.allocate\(\) or Buffer.from_handle\(\)"):
            cls()


def test_user_resource_buffers_report_its_properties(memory, host_resource) -> None:
    buffer = host_resource.allocate(64)
    assert type(buffer) is memory.Buffer
    assert buffer.size == 64 and buffer.handle in host_resource.arrays
    assert buffer.memory_resource is host_resource and buffer.owner is None
    assert (buffer.is_host_accessible, buffer.is_device_accessible, buffer.is_managed) == (True, False, False)
    assert buffer.is_mapped is False and buffer.is_closed is False
    assert buffer.device_id == -1
    assert buffer.__dlpack_device__() == (1, 0)


def test_the_buffer_protocol_reaches_host_memory(host_resource) -> None:
    buffer = host_resource.allocate(8)
    view = memoryview(buffer)
    assert (view.nbytes, view.readonly, view.format) == (8, False, "B")
    view[:] = bytes(range(8))
    assert host_resource.arrays[buffer.handle].tolist() == list(range(8))
    view.release()
    explicit = buffer.__buffer__(0)
    assert bytes(explicit) == bytes(range(8))
    buffer.__release_buffer__(explicit)
    with pytest.raises(ValueError, match="released"):
        explicit[0]


def test_the_buffer_protocol_of_a_python_subclass(memory, host_resource) -> None:
    # On Python 3.12+ a Python subclass's buffer slot calls __buffer__: it must not recurse.
    array = np.arange(8, dtype=np.uint8)
    host_resource.arrays[array.ctypes.data] = array
    managed = memory.ManagedBuffer.from_handle(array.ctypes.data, 8, mr=host_resource)
    assert bytes(memoryview(managed)) == bytes(range(8))
    with memoryview(managed) as view:
        view[0] = 42
    assert array[0] == 42
    managed.close()
    with pytest.raises(RuntimeError, match="Buffer has been closed"):
        memoryview(managed)


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_numpy_reads_the_bytes_through_dlpack(host_resource, kind: str) -> None:
    buffer = host_resource.allocate(256)
    expected = (np.arange(256) * 7 % 251).astype(np.uint8)
    host_resource.arrays[buffer.handle][:] = expected
    view = np.from_dlpack(buffer if kind == "versioned" else LegacyOnly(buffer))
    assert view.dtype == np.int8 and view.shape == (256,)
    assert view.ctypes.data == buffer.handle  # the Buffer's memory, not a copy
    np.testing.assert_array_equal(view.view(np.uint8), expected)


def test_capsule_kinds_follow_max_version(host_resource) -> None:
    buffer = host_resource.allocate(16)
    assert capsule_name_is(buffer.__dlpack__(max_version=(1, 0)), b"dltensor_versioned")
    assert capsule_name_is(buffer.__dlpack__(max_version=(1, 3)), b"dltensor_versioned")
    assert capsule_name_is(buffer.__dlpack__(max_version=(0, 8)), b"dltensor")
    assert capsule_name_is(buffer.__dlpack__(), b"dltensor")
    assert capsule_name_is(buffer.__dlpack__(copy=False, stream=None), b"dltensor")


def test_dlpack_refusals_are_nvidias(memory, host_resource) -> None:
    buffer = host_resource.allocate(16)
    with pytest.raises(BufferError, match=r"^Sorry, not supported: dl_device other than None$"):
        buffer.__dlpack__(dl_device=())
    with pytest.raises(BufferError, match=r"^Sorry, not supported: copy=True$"):
        buffer.__dlpack__(copy=True)
    with pytest.raises(BufferError, match=r"^Expected max_version tuple\[int, int\], got \(\)$"):
        buffer.__dlpack__(max_version=())
    with pytest.raises(BufferError, match=r"^Expected max_version tuple\[int, int\], got \(9, 8, 7\)$"):
        buffer.__dlpack__(max_version=(9, 8, 7))

    class Nowhere(make_host_resource(memory)):
        @property
        def is_host_accessible(self) -> bool:
            return False

    nowhere = Nowhere().allocate(8)
    before = sys.getrefcount(nowhere)
    with pytest.raises(BufferError, match=r"^buffer is neither device-accessible nor host-accessible$"):
        nowhere.__dlpack_device__()
    with pytest.raises(BufferError, match=r"^buffer is neither device-accessible nor host-accessible$"):
        nowhere.__dlpack__()
    refcount = sys.getrefcount(nowhere)
    assert refcount == before  # a refused export holds no reference to the buffer
    with pytest.raises(BufferError, match="not host-accessible"):
        memoryview(nowhere)


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_an_export_keeps_the_buffer_alive(host_resource, kind: str) -> None:
    buffer = host_resource.allocate(32)
    view = np.from_dlpack(buffer if kind == "versioned" else LegacyOnly(buffer))
    del buffer
    gc.collect()
    assert host_resource.deallocated == []
    del view
    gc.collect()
    assert len(host_resource.deallocated) == 1


def test_close_gives_the_memory_back_once(host_resource) -> None:
    buffer = host_resource.allocate(48)
    ptr = buffer.handle
    buffer.close()
    buffer.close()
    assert host_resource.deallocated == [(ptr, 48, None)]  # host-only: no stream to order on
    assert (buffer.handle, buffer.size, buffer.memory_resource, buffer.is_closed) == (0, 0, None, True)
    del buffer
    gc.collect()
    assert len(host_resource.deallocated) == 1


def test_a_hold_defers_giving_the_memory_back_past_close(memory, host_resource) -> None:
    """What a graph node does with the Buffers it uses: the Buffer closes at once, and the
    memory goes back when the last hold goes (NVIDIA's graphs keep it past Buffer.close())."""
    buffer = host_resource.allocate(16)
    ptr = buffer.handle
    holds = [memory._buffer._AllocationHold(buffer) for _ in range(2)]
    buffer.close()
    assert buffer.is_closed and host_resource.deallocated == []
    holds.pop()
    gc.collect()
    assert host_resource.deallocated == []
    holds.clear()
    gc.collect()
    assert host_resource.deallocated == [(ptr, 16, None)]
    with pytest.raises(ValueError, match="no active allocation"):
        memory._buffer._AllocationHold(buffer)


def test_a_weak_handle_follows_the_allocation_without_owning_it(memory, host_resource) -> None:
    """cuda.core._utils._weak_handles (private, which NVIDIA's graph tests import): truthy
    while the memory is allocated, a hold's deferral included; it keeps nothing alive."""
    from cuda.core._utils._weak_handles import weak_handle

    held = host_resource.allocate(16)
    dropped = host_resource.allocate(16)
    held_weak, dropped_weak = weak_handle(held), weak_handle(dropped)
    assert held_weak and dropped_weak
    hold = memory._buffer._AllocationHold(held)
    held.close()
    assert held.is_closed and held_weak  # the hold defers giving the memory back
    del hold
    gc.collect()
    assert not held_weak and len(host_resource.deallocated) == 1
    del dropped  # collected: the weak handle did not keep it
    gc.collect()
    assert not dropped_weak and len(host_resource.deallocated) == 2
    with pytest.raises(TypeError, match="takes a Buffer"):
        weak_handle(object())


def test_garbage_collection_and_with_blocks_give_it_back(host_resource) -> None:
    buffer = host_resource.allocate(48)
    ptr = buffer.handle
    del buffer
    gc.collect()
    assert host_resource.deallocated == [(ptr, 48, None)]
    with host_resource.allocate(16) as buffer:
        assert not buffer.is_closed
    assert buffer.is_closed and len(host_resource.deallocated) == 2


def test_a_failing_deallocate_is_not_retried(memory) -> None:
    class Failing(make_host_resource(memory)):
        def deallocate(self, ptr, size, *, stream=None) -> None:
            super().deallocate(ptr, size, stream=stream)
            raise OSError("the resource failed")

    resource = Failing()
    buffer = resource.allocate(8)
    with pytest.raises(OSError, match="the resource failed"):
        buffer.close()
    buffer.close()
    del buffer
    resource.allocate(8)  # dropped at once: the error in __dealloc__ is swallowed, not fatal
    gc.collect()
    assert len(resource.deallocated) == 2


def test_a_closed_buffer_refuses_work(host_resource) -> None:
    buffer, other = host_resource.allocate(16), host_resource.allocate(16)
    buffer.close()
    for use in (
        lambda: buffer.__dlpack__(),
        lambda: buffer.__dlpack_device__(),
        lambda: memoryview(buffer),
        lambda: buffer.is_host_accessible,
        lambda: buffer.device_id,
        lambda: buffer.ipc_descriptor,
        lambda: buffer.set_deallocation_stream(object()),
        lambda: buffer.fill(0, stream=None),
        lambda: buffer.copy_to(other, stream=None),
        lambda: other.copy_from(buffer, stream=None),
    ):
        with pytest.raises(RuntimeError, match="Buffer has been closed"):
            use()
    assert repr(buffer) == "<Buffer ptr=0x0 size=0>"


def test_from_handle_with_an_owner_keeps_it_alive(memory) -> None:
    array = (ctypes.c_byte * 20)()
    before = sys.getrefcount(array)
    buffer = memory.Buffer.from_handle(ctypes.addressof(array), 20, owner=array)
    held = sys.getrefcount(array)
    assert held == before + 1
    assert buffer.owner is array and buffer.memory_resource is None
    buffer.close()
    released = sys.getrefcount(array)
    assert released == before and buffer.owner is None
    with pytest.raises(ValueError, match="cannot be both specified together"):
        memory.Buffer.from_handle(ctypes.addressof(array), 20, mr=make_host_resource(memory)(), owner=array)
    with pytest.raises(TypeError, match="mr must be a MemoryResource"):
        memory.Buffer.from_handle(ctypes.addressof(array), 20, mr=object())


def test_from_handle_takes_pointer_objects(memory) -> None:
    from cuda.bindings import driver

    array = np.arange(16, dtype=np.uint8)
    for ptr in (array.ctypes.data, np.uintp(array.ctypes.data), driver.CUdeviceptr(array.ctypes.data)):
        assert memory.Buffer.from_handle(ptr, 16).handle == array.ctypes.data
    assert memory.Buffer.from_handle(None, 0).handle == 0
    managed = memory.ManagedBuffer.from_handle(array.ctypes.data, 16)
    assert type(managed) is memory.ManagedBuffer
    assert type(memory.Buffer.from_handle(array.ctypes.data, 16)) is memory.Buffer


def test_equality_hash_repr_and_weak_references(memory, host_resource) -> None:
    buffer = host_resource.allocate(64)
    alias = memory.Buffer.from_handle(buffer.handle, buffer.size)
    assert buffer == alias and hash(buffer) == hash(alias) and buffer is not alias
    assert buffer != memory.Buffer.from_handle(buffer.handle, 32)
    assert buffer != buffer.handle and buffer != "string"
    assert len({buffer, alias, host_resource.allocate(64)}) == 2
    assert repr(buffer) == f"<Buffer ptr={hex(buffer.handle)} size=64>"
    assert weakref.ref(buffer)() is buffer
    registry = weakref.WeakValueDictionary({"key": buffer})
    assert registry["key"] is buffer


def test_fill_checks_its_value_before_the_stream(host_resource) -> None:
    buffer = host_resource.allocate(6)
    cases = [
        (-1, OverflowError),
        (256, OverflowError),
        ("invalid", TypeError),
        (b"", ValueError),
        (b"\x01\x02\x03", ValueError),
        (np.uint64(0), ValueError),
        (b"\x01\x02\x03\x04", ValueError),
    ]
    for value, error in cases:
        with pytest.raises(error):
            buffer.fill(value, stream=None)
    with pytest.raises(TypeError, match="stream is required"):
        buffer.fill(b"\x01\x02", stream=None)  # a valid pattern: the missing stream is the error


def test_copies_check_their_arguments_first(host_resource) -> None:
    small, large = host_resource.allocate(8), host_resource.allocate(16)
    with pytest.raises(ValueError, match="buffer sizes mismatch"):
        small.copy_to(large, stream=None)
    with pytest.raises(ValueError, match="buffer sizes mismatch"):
        small.copy_from(large, stream=None)
    with pytest.raises(TypeError, match="dst must be a Buffer"):
        small.copy_to(bytearray(8), stream=None)
    with pytest.raises(TypeError, match="stream is required"):
        small.copy_to(small, stream=None)
    with pytest.raises(NotImplementedError, match="options=None"):
        small.copy_to(small, stream=None, options=object())


def test_ipc_is_refused_clearly(memory, host_resource) -> None:
    buffer = host_resource.allocate(8)
    with pytest.raises(RuntimeError, match="Memory resource is not IPC-enabled"):
        buffer.ipc_descriptor
    descriptor = memory.IPCBufferDescriptor._init(b"", 0)
    assert descriptor.size == 0
    with pytest.raises(RuntimeError, match="Memory resource is not IPC-enabled"):
        memory.Buffer.from_ipc_descriptor(host_resource, descriptor, stream=None)
    with pytest.raises(RuntimeError, match="Memory resource is not IPC-enabled"):
        pickle.dumps(buffer)
    assert not buffer.is_mapped
    for cls in (memory.IPCBufferDescriptor, memory.IPCAllocationHandle):
        with pytest.raises(RuntimeError, match="allocation_handle|Buffer.ipc_descriptor"):
            cls()


def test_buffer_descriptors_pickle_and_check_their_size(memory) -> None:
    descriptor = memory.IPCBufferDescriptor._init(b"\x07" * 64, 4096)
    copy = pickle.loads(pickle.dumps(descriptor))
    assert type(copy) is memory.IPCBufferDescriptor and copy.size == 4096
    assert copy.__reduce__()[1] == (b"\x07" * 64, 4096)
    with pytest.raises(ValueError, match="byte count"):
        memory.IPCBufferDescriptor._init(b"", -1)


def test_allocation_handles_own_their_descriptor(memory) -> None:
    """An IPCAllocationHandle closes its file descriptor once, on close() or when collected,
    and refuses plain pickle, which would send a number meaningless in another process."""
    with pytest.raises(ValueError, match=r"Invalid allocation handle \(fd\) -1: must be non-negative"):
        memory.IPCAllocationHandle._init(-1, None)
    read_end, write_end = os.pipe()
    os.close(write_end)
    handle = memory.IPCAllocationHandle._init(read_end, None)
    assert (int(handle), handle.handle, handle.uuid, handle.is_closed) == (read_end, read_end, None, False)
    with pytest.raises(TypeError, match="through multiprocessing"):
        pickle.dumps(handle)
    handle.close()
    handle.close()
    assert handle.is_closed and handle.handle == -1
    with pytest.raises(ValueError, match="is closed"):
        int(handle)
    with pytest.raises(OSError):
        os.fstat(read_end)
    read_end, write_end = os.pipe()
    os.close(write_end)
    memory.IPCAllocationHandle._init(read_end, None)  # collected at once
    with pytest.raises(OSError):
        os.fstat(read_end)


# ---------------------------------------------------------------------------------------------
# VirtualMemoryResourceOptions: the spec tables, without a driver

VMM_CONVERTERS = [
    "_access_to_flags",
    "_allocation_type_to_driver",
    "_location_type_to_driver",
    "_handle_type_to_driver",
    "_granularity_to_driver",
]


def test_vmm_options_defaults_and_equality(memory, cuda_core) -> None:
    typing = cuda_core.typing
    options = memory.VirtualMemoryResourceOptions()
    assert (options.allocation_type, options.location_type, options.handle_type, options.granularity) == (
        typing.VirtualMemoryAllocationType.PINNED,
        typing.VirtualMemoryLocationType.DEVICE,
        typing.VirtualMemoryHandleType.POSIX_FD,
        typing.VirtualMemoryGranularityType.RECOMMENDED,
    )
    assert (options.gpu_direct_rdma, options.addr_hint, options.addr_align, tuple(options.peers)) == (
        False,
        0,
        None,
        (),
    )
    assert options.self_access == options.peer_access == "rw"
    # Strings compare equal to the enums they name, so either spelling makes the same options.
    assert memory.VirtualMemoryResourceOptions(
        granularity="minimum", self_access="r"
    ) == memory.VirtualMemoryResourceOptions(
        granularity=typing.VirtualMemoryGranularityType.MINIMUM, self_access=typing.VirtualMemoryAccessType.READ
    )


def test_vmm_options_map_to_the_driver(memory, cuda_core) -> None:
    from cuda.bindings import driver

    options = memory.VirtualMemoryResourceOptions
    assert options._access_to_flags("rw") == driver.CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE
    assert options._access_to_flags("r") == driver.CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READ
    assert options._access_to_flags(None) == 0
    assert options._handle_type_to_driver(None) == driver.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_NONE
    assert (
        options._handle_type_to_driver("posix_fd")
        == driver.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
    )
    assert options._location_type_to_driver("host_numa") == driver.CUmemLocationType.CU_MEM_LOCATION_TYPE_HOST_NUMA
    assert (
        options._granularity_to_driver("minimum")
        == driver.CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_MINIMUM
    )
    assert options._allocation_type_to_driver("pinned") == driver.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
    if cuda_core._build_info.cuda_major >= 13:
        assert (
            options._allocation_type_to_driver("managed") == driver.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_MANAGED
        )
    else:
        with pytest.raises(ValueError, match="'managed' VMM allocations need CUDA 13"):
            options._allocation_type_to_driver("managed")


@pytest.mark.parametrize("converter", VMM_CONVERTERS)
def test_vmm_options_reject_unknown_specs(memory, converter) -> None:
    convert = getattr(memory.VirtualMemoryResourceOptions, converter)
    for bad in ("bogus", 3, ["rw"]):
        with pytest.raises(ValueError, match=r"(Unknown|Unsupported) \w+.*expected one of"):
            convert(bad)
    with pytest.raises(NotImplementedError, match="win32 is currently not supported.*'win32_kmt'"):
        memory.VirtualMemoryResourceOptions._handle_type_to_driver("win32")


def test_vmm_resource_without_a_driver(memory, cuda_core) -> None:
    # Host-located memory needs no device, so the resource builds with no driver at all.
    resource = memory.VirtualMemoryResource(0, config={"location_type": "host"})
    assert (resource.device, resource.device_id, resource.is_host_accessible) == (None, -1, True)
    assert resource.is_device_accessible and "location_type='host'" in repr(resource)
    with pytest.raises(TypeError, match="VirtualMemoryResourceOptions or as a dict"):
        memory.VirtualMemoryResource(0, config=7)
    with pytest.raises(TypeError, match="buf must be a Buffer"):
        resource.modify_allocation(bytearray(8), 16)


# ---------------------------------------------------------------------------------------------
# Host and managed-memory arguments


def test_host_locations_are_singletons(cuda_core) -> None:
    Host = cuda_core.Host
    assert Host() is Host() and Host(numa_id=3) is Host(numa_id=3)
    assert Host(is_numa_current=True) is Host.numa_current() is not Host()
    assert (Host().numa_id, Host().is_numa_current) == (None, False)
    assert (Host(numa_id=3).numa_id, Host.numa_current().is_numa_current) == (3, True)
    assert [repr(h) for h in (Host(), Host(numa_id=2), Host.numa_current())] == [
        "Host()",
        "Host(numa_id=2)",
        "Host.numa_current()",
    ]
    assert Host() != Host(numa_id=0) and hash(Host(numa_id=1)) == hash(Host(numa_id=1))
    for host in (Host(), Host(numa_id=4), Host.numa_current()):
        assert pickle.loads(pickle.dumps(host)) is host
    with pytest.raises(AttributeError):
        Host(numa_id=2).numa_id = 3
    for bad in (-1, True, 1.0):
        with pytest.raises(ValueError, match="numa_id must be a non-negative int"):
            Host(numa_id=bad)
    with pytest.raises(ValueError, match="mutually exclusive"):
        Host(numa_id=0, is_numa_current=True)


def test_location_coercion(cuda_core) -> None:
    from cuda.core._memory._managed_location import _coerce_location

    Host = cuda_core.Host
    assert (_coerce_location(Host()).kind, _coerce_location(Host(numa_id=3))) == (
        "host",
        _coerce_location(Host(numa_id=3)),
    )
    assert (_coerce_location(Host(numa_id=3)).kind, _coerce_location(Host(numa_id=3)).id) == ("host_numa", 3)
    assert _coerce_location(Host.numa_current()).kind == "host_numa_current"
    assert _coerce_location(None, allow_none=True) is None
    with pytest.raises(ValueError, match="location is required"):
        _coerce_location(None)
    for bad in (0, "device"):
        with pytest.raises(TypeError, match="Device, Host, or None"):
            _coerce_location(bad)


def test_batch_arguments_are_checked(memory, cuda_core, host_resource) -> None:
    from cuda.core import utils

    buffer = host_resource.allocate(8)
    for name, args in (
        ("prefetch_batch", (buffer, cuda_core.Host())),
        ("discard_batch", (buffer,)),
        ("discard_prefetch_batch", (buffer, cuda_core.Host())),
    ):
        with pytest.raises(TypeError, match="sequence of Buffers"):
            getattr(utils, name)(None, *args)
        with pytest.raises(TypeError, match="sequence of Buffers"):
            getattr(utils, name)(None, [buffer, "not a buffer"], *args[1:])
    for name in ("prefetch_batch", "discard_prefetch_batch"):
        with pytest.raises(ValueError, match="length"):
            getattr(utils, name)(None, [buffer, buffer], [cuda_core.Host()])
    # Host-only memory of a user's resource is known not to be managed without asking a driver.
    array = np.zeros(8, dtype=np.uint8)
    host_resource.arrays[array.ctypes.data] = array
    not_managed = memory.ManagedBuffer.from_handle(array.ctypes.data, 8, mr=host_resource)
    with pytest.raises(ValueError, match="managed-memory allocation"):
        not_managed.prefetch(cuda_core.Host(), stream=None)
    with pytest.raises(ValueError, match="managed-memory allocation"):
        utils.prefetch_batch(None, [not_managed], cuda_core.Host())
    with pytest.raises(ValueError, match="managed-memory allocation"):
        not_managed.read_mostly = True
    not_managed.close()
    assert len(host_resource.deallocated) == 1


def test_peer_access_plans(memory) -> None:
    from cuda.core._memory._peer_access_utils import PeerAccessPlan, plan_peer_access_update

    plan = plan_peer_access_update(1, (2, 5), [1, 3, 2, 3], resolve_device_id=int, can_access_peer=lambda device: True)
    assert plan == PeerAccessPlan(target_ids=(2, 3), to_add=(3,), to_remove=(5,))
    with pytest.raises(ValueError, match=r"Device 0 cannot access peer\(s\): 2, 4"):
        plan_peer_access_update(0, (), [4, 2, 1], resolve_device_id=int, can_access_peer=lambda device: device == 1)


# ---------------------------------------------------------------------------------------------
# Without a driver


def test_driver_work_without_a_driver_is_a_clean_error(cuda_core, memory, cuda_major, no_driver) -> None:
    error = cuda_core.DriverNotFoundError
    with pytest.raises(error):
        memory.DeviceMemoryResource(0)
    with pytest.raises(error):
        memory.LegacyPinnedMemoryResource().allocate(16)
    with pytest.raises(error):
        memory.PinnedMemoryResource(memory.PinnedMemoryResourceOptions())
    if cuda_major >= 13:
        with pytest.raises(error):
            memory.ManagedMemoryResource()
    array = np.zeros(16, dtype=np.uint8)
    foreign = memory.Buffer.from_handle(array.ctypes.data, 16)
    with pytest.raises(error):
        foreign.is_device_accessible
    with pytest.raises(error):
        foreign.__dlpack_device__()
    assert memory.LegacyPinnedMemoryResource().allocate(0).handle == 0  # no driver call for nothing
