"""Buffer and memory resources without a GPU: a user-written resource over numpy host memory,
DLPack export read back by numpy, lifetime (freed exactly once), and the no-driver errors."""

from __future__ import annotations

import ctypes
import gc

import numpy as np
import pytest

PUBLIC_NAMES = ("Buffer", "DeviceMemoryResource", "LegacyPinnedMemoryResource", "ManagedBuffer",
                "ManagedMemoryResource", "MemoryResource")


@pytest.fixture(scope="session")
def memory(cuda_core):
    from cuda.core import _memory
    return _memory


@pytest.fixture
def host_resource(memory):
    """A fresh HostResource (defined over the real MemoryResource base)."""
    return make_host_resource(memory)()


def make_host_resource(memory):
    class HostResource(memory.MemoryResource):
        """Host-only memory from numpy; counts every deallocate call."""

        def __init__(self) -> None:
            self.arrays: dict[int, np.ndarray] = {}
            self.deallocated: list[tuple[int, int, object]] = []

        def allocate(self, size, stream=None):
            array = np.zeros(size, dtype=np.uint8)
            self.arrays[array.ctypes.data] = array
            return memory.Buffer.from_handle(array.ctypes.data, size, mr=self)

        def deallocate(self, ptr, size, stream=None) -> None:
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


def test_public_names_are_exported(cuda_core, memory) -> None:
    for name in PUBLIC_NAMES:
        assert getattr(cuda_core, name) is getattr(memory, name), name
        assert name in cuda_core.__all__, name
    from cuda.core._host import Host
    assert cuda_core.Host is Host and "Host" in cuda_core.__all__


def test_buffers_are_not_constructed_directly(memory) -> None:
    for cls in (memory.Buffer, memory.ManagedBuffer):
        with pytest.raises(RuntimeError, match=r"MemoryResource.allocate\(\) or Buffer.from_handle\(\)"):
            cls()


def test_memory_resource_is_abstract(memory) -> None:
    with pytest.raises(TypeError, match="MemoryResource is abstract"):
        memory.MemoryResource()

    class Incomplete(memory.MemoryResource):
        pass

    resource = Incomplete()
    with pytest.raises(NotImplementedError, match="Incomplete does not define allocate"):
        resource.allocate(8)
    with pytest.raises(NotImplementedError, match="does not define is_host_accessible"):
        resource.is_host_accessible


def test_user_resource_buffers_report_its_properties(memory, host_resource) -> None:
    buffer = host_resource.allocate(64)
    assert isinstance(buffer, memory.Buffer) and not isinstance(buffer, memory.ManagedBuffer)
    assert buffer.size == 64
    assert buffer.handle in host_resource.arrays
    assert buffer.memory_resource is host_resource
    assert buffer.is_host_accessible is True
    assert buffer.is_device_accessible is False
    assert buffer.device_id == -1
    assert buffer.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_numpy_reads_the_bytes_through_dlpack(host_resource, kind: str) -> None:
    buffer = host_resource.allocate(256)
    expected = (np.arange(256) * 7 % 251).astype(np.uint8)
    host_resource.arrays[buffer.handle][:] = expected
    view = np.from_dlpack(buffer if kind == "versioned" else LegacyOnly(buffer))
    assert view.dtype == np.int8 and view.shape == (256,)
    assert view.ctypes.data == buffer.handle  # the Buffer's memory, not a copy
    np.testing.assert_array_equal(view.view(np.uint8), expected)
    if kind == "versioned":  # numpy makes arrays from legacy capsules read-only
        view[:] = -1  # and writes go to the Buffer's memory
        assert (host_resource.arrays[buffer.handle] == 255).all()


def test_capsule_kinds_follow_max_version(host_resource) -> None:
    buffer = host_resource.allocate(16)
    assert capsule_name_is(buffer.__dlpack__(max_version=(1, 0)), b"dltensor_versioned")
    assert capsule_name_is(buffer.__dlpack__(max_version=(1, 3)), b"dltensor_versioned")
    assert capsule_name_is(buffer.__dlpack__(max_version=(0, 8)), b"dltensor")
    assert capsule_name_is(buffer.__dlpack__(), b"dltensor")


def test_dlpack_refuses_copies_and_other_devices(host_resource) -> None:
    buffer = host_resource.allocate(16)
    with pytest.raises(BufferError, match="copy=True"):
        buffer.__dlpack__(copy=True)
    with pytest.raises(BufferError, match=r"\(2, 0\)"):
        buffer.__dlpack__(dl_device=(2, 0))
    assert capsule_name_is(buffer.__dlpack__(dl_device=(1, 0), copy=False, max_version=(1, 0)),
                           b"dltensor_versioned")


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_an_export_keeps_the_buffer_alive(host_resource, kind: str) -> None:
    buffer = host_resource.allocate(32)
    view = np.from_dlpack(buffer if kind == "versioned" else LegacyOnly(buffer))
    del buffer
    gc.collect()
    assert host_resource.deallocated == []
    host_resource.arrays[view.ctypes.data][:] = 3
    assert (view == 3).all()  # still the live allocation
    del view
    gc.collect()
    assert len(host_resource.deallocated) == 1


def test_an_unconsumed_capsule_lets_go_of_the_buffer(host_resource) -> None:
    buffer = host_resource.allocate(32)
    capsules = [buffer.__dlpack__(max_version=(1, 0)), buffer.__dlpack__()]
    del buffer
    gc.collect()
    assert host_resource.deallocated == []
    del capsules
    gc.collect()
    assert len(host_resource.deallocated) == 1


def test_close_deallocates_exactly_once(host_resource) -> None:
    buffer = host_resource.allocate(48)
    ptr = buffer.handle
    buffer.close()
    buffer.close()
    assert host_resource.deallocated == [(ptr, 48, None)]
    del buffer
    gc.collect()
    assert host_resource.deallocated == [(ptr, 48, None)]


def test_garbage_collection_deallocates_exactly_once(host_resource) -> None:
    buffer = host_resource.allocate(48)
    ptr = buffer.handle
    del buffer
    gc.collect()
    assert host_resource.deallocated == [(ptr, 48, None)]


def test_a_failing_deallocate_is_not_retried(memory) -> None:
    class Failing(make_host_resource(memory)):
        def deallocate(self, ptr, size, stream=None) -> None:
            super().deallocate(ptr, size, stream)
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


def test_use_after_close_raises(host_resource) -> None:
    buffer = host_resource.allocate(16)
    other = host_resource.allocate(16)
    buffer.close()
    for use in (lambda: buffer.handle, lambda: buffer.size, lambda: buffer.device_id,
                lambda: buffer.is_host_accessible, lambda: buffer.memory_resource,
                lambda: buffer.__dlpack__(), lambda: buffer.__dlpack_device__(),
                lambda: buffer.copy_to(other, stream=None), lambda: other.copy_from(buffer, stream=None)):
        with pytest.raises(RuntimeError, match="this Buffer is closed"):
            use()
    assert "closed" in repr(buffer)


def test_from_handle_without_a_resource_owns_nothing(memory) -> None:
    array = np.arange(16, dtype=np.uint8)
    buffer = memory.Buffer.from_handle(np.uintp(array.ctypes.data), 16)
    assert buffer.handle == array.ctypes.data and buffer.size == 16
    assert buffer.memory_resource is None
    buffer.close()
    buffer.close()
    np.testing.assert_array_equal(array, np.arange(16))  # still ours
    managed = memory.ManagedBuffer.from_handle(array.ctypes.data, 16)
    assert type(managed) is memory.ManagedBuffer
    with pytest.raises(TypeError, match="mr must be a MemoryResource"):
        memory.Buffer.from_handle(array.ctypes.data, 16, mr=object())


def test_copies_check_their_arguments_first(host_resource) -> None:
    small, large = host_resource.allocate(8), host_resource.allocate(16)
    with pytest.raises(ValueError, match="buffer sizes differ"):
        small.copy_to(large, stream=None)
    with pytest.raises(ValueError, match="buffer sizes differ"):
        small.copy_from(large, stream=None)
    with pytest.raises(TypeError, match="dst must be a Buffer"):
        small.copy_to(bytearray(8), stream=None)
    with pytest.raises(TypeError, match="stream"):
        small.copy_to(small)


def test_host_is_the_whole_host(cuda_core) -> None:
    assert cuda_core.Host() is cuda_core.Host()
    assert cuda_core.Host().numa_id is None and cuda_core.Host().is_numa_current is False
    assert repr(cuda_core.Host()) == "Host()"
    with pytest.raises(NotImplementedError, match=r"Host\(numa_id=...\).*use Host\(\)"):
        cuda_core.Host(numa_id=1)
    with pytest.raises(NotImplementedError, match="numa_current"):
        cuda_core.Host.numa_current()


def test_driver_work_without_a_driver_is_a_clean_error(cuda_core, memory, host_resource, no_driver) -> None:
    error = cuda_core.DriverNotFoundError
    with pytest.raises(error):
        memory.DeviceMemoryResource(0)
    with pytest.raises(error):
        memory.LegacyPinnedMemoryResource().allocate(16)
    with pytest.raises(error):
        memory.ManagedMemoryResource().allocate(16)
    array = np.zeros(16, dtype=np.uint8)
    foreign = memory.Buffer.from_handle(array.ctypes.data, 16)
    with pytest.raises(error):
        foreign.is_device_accessible
    with pytest.raises(error):
        foreign.__dlpack_device__()
    a, b = host_resource.allocate(16), host_resource.allocate(16)
    with pytest.raises(error):
        a.copy_to(b, stream=None)
    managed = memory.ManagedBuffer.from_handle(array.ctypes.data, 16)
    with pytest.raises(error):
        managed.read_mostly


def test_device_only_memory_is_refused_by_numpy_and_still_freed(memory) -> None:
    class DeviceOnly(make_host_resource(memory)):
        """Claims device-only memory (never touched here): the export must say kDLCUDA."""

        @property
        def is_device_accessible(self) -> bool:
            return True

        @property
        def is_host_accessible(self) -> bool:
            return False

        @property
        def device_id(self) -> int:
            return 0

    resource = DeviceOnly()
    buffer = resource.allocate(8)
    assert buffer.__dlpack_device__() == (2, 0)
    with pytest.raises((RuntimeError, BufferError), match="Unsupported device"):
        np.from_dlpack(buffer)
    with pytest.raises(BufferError, match="without a copy"):
        np.from_dlpack(buffer, device="cpu")
    del buffer
    gc.collect()
    assert len(resource.deallocated) == 1  # the refused capsule let go of the Buffer
