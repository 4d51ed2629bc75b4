# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Device, DeviceProperties, Context and cuda.core.system as NVIDIA's cuda.core 1.2 declares them
(names, signatures, defaults, property types), and what they do without a GPU."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

EMPTY = inspect.Parameter.empty

# Device's public members in NVIDIA's cuda.core 1.2, with each method's parameters as
# (name, default, kind); properties map to "property".
DEVICE_MEMBERS = {
    "get_all_devices": [],
    "to_system_device": [("self", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "device_id": "property",
    "pci_bus_id": "property",
    "can_access_peer": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("peer", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "uuid": "property",
    "name": "property",
    "properties": "property",
    "resources": "property",
    "compute_capability": "property",
    "arch": "property",
    "context": "property",
    "memory_resource": "property",
    "default_stream": "property",
    "set_current": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("ctx", None, "POSITIONAL_OR_KEYWORD")],
    "create_context": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("options", None, "POSITIONAL_OR_KEYWORD")],
    "create_stream": [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("obj", None, "POSITIONAL_OR_KEYWORD"),
        ("options", None, "POSITIONAL_OR_KEYWORD"),
    ],
    "create_event": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("options", None, "POSITIONAL_OR_KEYWORD")],
    "allocate": [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("size", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("stream", EMPTY, "KEYWORD_ONLY"),
    ],
    "sync": [("self", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "create_graph_builder": [("self", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "create_opaque_array": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("options", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "create_mipmapped_array": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("options", EMPTY, "POSITIONAL_OR_KEYWORD")],
    "create_texture_object": [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("resource", EMPTY, "KEYWORD_ONLY"),
        ("options", None, "KEYWORD_ONLY"),
    ],
    "create_surface_object": [("self", EMPTY, "POSITIONAL_OR_KEYWORD"), ("resource", EMPTY, "KEYWORD_ONLY")],
}

# The CUdevice_attribute-backed properties that exist only from CUDA 13 on.
CUDA13_ONLY_PROPERTIES = {
    "host_memory_pools_supported",
    "host_virtual_memory_management_supported",
    "host_alloc_dma_buf_supported",
    "only_partial_host_native_atomic_supported",
}
# Those whose CUdevice_attribute cuda-bindings declares from 12.9 on (12.8's cydriver.pxd lacks them).
BINDINGS_12_9_PROPERTIES = {
    "vulkan_cig_supported",
    "host_numa_virtual_memory_management_supported",
    "host_numa_memory_pools_supported",
}

# A sample of NVIDIA's DeviceProperties types: the ones that are bool, the rest are int.
BOOL_PROPERTIES = {
    "gpu_overlap",
    "kernel_exec_timeout",
    "integrated",
    "can_map_host_memory",
    "concurrent_kernels",
    "ecc_enabled",
    "tcc_driver",
    "unified_addressing",
    "global_l1_cache_supported",
    "local_l1_cache_supported",
    "managed_memory",
    "multi_gpu_board",
    "host_native_atomic_supported",
    "pageable_memory_access",
    "concurrent_managed_access",
    "compute_preemption_supported",
    "can_use_host_pointer_for_registered_mem",
    "cooperative_launch",
    "pageable_memory_access_uses_host_page_tables",
    "direct_managed_mem_access_from_host",
    "virtual_memory_management_supported",
    "handle_type_posix_file_descriptor_supported",
    "handle_type_win32_handle_supported",
    "handle_type_win32_kmt_handle_supported",
    "generic_compression_supported",
    "gpu_direct_rdma_with_cuda_vmm_supported",
    "sparse_cuda_array_supported",
    "read_only_host_register_supported",
    "memory_pools_supported",
    "gpu_direct_rdma_supported",
    "deferred_mapping_cuda_array_supported",
    "multicast_supported",
    "can_tex2d_gather",
    "stream_priorities_supported",
    "can_flush_remote_writes",
    "host_register_supported",
    "timeline_semaphore_interop_supported",
    "cluster_launch",
    "can_use_64_bit_stream_mem_ops",
    "can_use_stream_wait_value_nor",
    "dma_buf_supported",
    "ipc_event_supported",
    "tensor_map_access_supported",
    "handle_type_fabric_supported",
    "unified_function_pointers",
    "mps_enabled",
    "d3d12_cig_supported",
    "vulkan_cig_supported",
    "host_numa_virtual_memory_management_supported",
    "host_numa_memory_pools_supported",
    "host_numa_multinode_ipc_supported",
    *CUDA13_ONLY_PROPERTIES,
}


def parameters(function) -> list[tuple[str, object, str]]:
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


def property_names(cuda_core) -> list[str]:
    from cuda.core._device import DeviceProperties

    return [name for name in dir(DeviceProperties) if not name.startswith("_")]


def test_device_has_nvidias_members_and_signatures(cuda_core) -> None:
    device = cuda_core.Device
    for name, expected in DEVICE_MEMBERS.items():
        member = inspect.getattr_static(device, name)
        if expected == "property":
            assert isinstance(member, property), name
        else:
            assert parameters(getattr(device, name) if name == "get_all_devices" else member) == expected, name
    assert parameters(device.__new__) == [
        ("cls", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("device_id", None, "POSITIONAL_OR_KEYWORD"),
    ]
    assert inspect.getattr_static(device, "memory_resource").fset is not None
    assert device.__slots__ == (
        "_device_id",
        "_memory_resource",
        "_has_inited",
        "_properties",
        "_resources",
        "_uuid",
        "_context",
        "__weakref__",
    )
    for dunder in ("__int__", "__repr__", "__hash__", "__eq__", "__reduce__"):
        assert dunder in vars(device), dunder


def test_device_properties_table(cuda_core, cuda_major) -> None:
    from cuda.core._device import _PROPERTIES, DeviceProperties

    names = property_names(cuda_core)
    assert len(names) == len(set(names)) == len(_PROPERTIES) == 143
    assert {name for name, *_ in _PROPERTIES} == set(names)
    assert {name for name, kind, *_ in _PROPERTIES if kind is bool} == BOOL_PROPERTIES
    assert {kind for _, kind, *_ in _PROPERTIES} == {bool, int}
    # Where only some builds have the attribute, the table names what it needs (the compat layer
    # gives the constant where the build has it).
    needs = {name: attribute for name, _, attribute, _ in _PROPERTIES if isinstance(attribute, str)}
    assert needs == {
        **dict.fromkeys(CUDA13_ONLY_PROPERTIES, "CUDA 13"),
        **dict.fromkeys(BINDINGS_12_9_PROPERTIES, "cuda-bindings 12.9"),
    }
    for name, kind, _, _ in _PROPERTIES:
        doc = inspect.getattr_static(DeviceProperties, name).__doc__
        assert doc.startswith(f"{kind.__name__}: ") and len(doc) > len(kind.__name__) + 10, name


def test_device_properties_attributes_are_the_drivers(cuda_core) -> None:
    """Each property reads the CUdevice_attribute of its name (NVIDIA's names are the
    attribute names, lower-cased), checked against cuda.bindings' enum."""
    from cuda.bindings import driver
    from cuda.core._device import _PROPERTIES

    for name, _, attribute, _ in _PROPERTIES:
        if not isinstance(attribute, str):
            assert attribute == int(getattr(driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name.upper()}")), name


def test_cuda13_only_properties_follow_the_build(cuda_core, cuda_major) -> None:
    from cuda.core._device import DeviceProperties

    properties = DeviceProperties._init(0)
    for name in CUDA13_ONLY_PROPERTIES:
        assert isinstance(inspect.getattr_static(DeviceProperties, name), property)
        if cuda_major == 12:
            with pytest.raises(AttributeError, match=f"{name} needs CUDA 13"):
                getattr(properties, name)


def test_bindings_12_9_properties_follow_the_build(cuda_core) -> None:
    """Three attributes cuda-bindings declares from 12.9 on: a build with 12.8 says what they need."""
    from cuda.core._build_info import cuda_bindings_version
    from cuda.core._device import DeviceProperties

    properties = DeviceProperties._init(0)
    older = tuple(map(int, cuda_bindings_version.split(".")[:2])) < (12, 9)
    for name in BINDINGS_12_9_PROPERTIES:
        assert isinstance(inspect.getattr_static(DeviceProperties, name), property)
        if older:
            with pytest.raises(
                AttributeError,
                match=f"{name} needs cuda-bindings 12.9; this cuda.core was built "
                f"for CUDA 12 with cuda-bindings {cuda_bindings_version}",
            ):
                getattr(properties, name)


def test_device_properties_cannot_be_made_directly(cuda_core) -> None:
    from cuda.core._device import DeviceProperties

    with pytest.raises(RuntimeError, match=r"^DeviceProperties cannot be instantiated directly\."):
        DeviceProperties()


def test_compute_capability_is_nvidias_named_tuple(cuda_core) -> None:
    from cuda.core._utils.cuda_utils import ComputeCapability

    capability = ComputeCapability(9, 0)
    assert capability == (9, 0) and capability.major == 9 and capability.minor == 0
    assert ComputeCapability._fields == ("major", "minor")
    assert pickle.loads(pickle.dumps(capability)) == capability


def test_context_surface(cuda_core) -> None:
    Context = cuda_core.Context
    with pytest.raises(RuntimeError, match=r"^Context objects cannot be instantiated directly\."):
        Context()
    for name in ("handle", "_handle", "is_closed", "is_green", "resources"):
        assert inspect.isdatadescriptor(inspect.getattr_static(Context, name)), name
    for name in ("create_stream", "close", "__eq__", "__hash__", "__repr__"):
        assert callable(getattr(Context, name)), name
    assert cuda_core._context.__all__ == ["Context", "ContextOptions"]


def test_context_options_is_a_dataclass_of_resources(cuda_core) -> None:
    options_type = cuda_core.ContextOptions
    assert [field.name for field in dataclasses.fields(options_type)] == ["resources"]
    with pytest.raises(TypeError):
        options_type()  # resources has no default, as NVIDIA's
    assert options_type(resources=None).resources is None
    from cuda.core.typing import DeviceResourcesType

    assert DeviceResourcesType is cuda_core._context.DeviceResourcesType


def test_wrapped_context_needs_no_driver(cuda_core) -> None:
    """A Context over a handle: equality and hash by the CUcontext, NVIDIA's repr, close()."""
    Context = cuda_core.Context
    first, same, other = Context._from_handle(0x1234, 0), Context._from_handle(0x1234, 0), Context._from_handle(0x99, 1)
    assert first == same and hash(first) == hash(same) and first is not same
    assert first != other and hash(first) != hash(other)
    assert first != 0x1234 and (first == "context") is False
    assert repr(first) == "<Context handle=0x1234 device=0>"
    assert int(first.handle) == 0x1234 and not first.is_closed and not first.is_green
    first.close()
    first.close()  # idempotent
    assert first.is_closed and first.handle is None and first == same
    with pytest.raises(RuntimeError, match="Context has been closed"):
        first.create_stream()
    with pytest.raises(RuntimeError, match="only supported on green contexts"):
        same.create_stream()
    assert isinstance(same.resources, cuda_core.DeviceResources)  # asks the driver only for .sm/.workqueue
    with pytest.raises(TypeError):
        pickle.dumps(same)  # a CUcontext means nothing in another process


def test_system_surface(cuda_core) -> None:
    """The driver side; the NVML side (and its error without NVML bindings): test_system_nvml.py."""
    system = cuda_core.system
    assert system.__all__[:7] == [
        "get_driver_branch",
        "get_kernel_mode_driver_version",
        "get_user_mode_driver_version",
        "get_nvml_version",
        "get_num_devices",
        "get_process_name",
        "CUDA_BINDINGS_NVML_IS_COMPATIBLE",
    ]
    assert isinstance(system.CUDA_BINDINGS_NVML_IS_COMPATIBLE, bool)
    import cuda.core.system.typing

    assert system.typing is cuda.core.system.typing


def test_device_without_driver_or_gpu(cuda_core, no_driver) -> None:
    for action in (cuda_core.Device.get_all_devices, lambda: cuda_core.Device("0")):
        with pytest.raises(cuda_core.DriverNotFoundError, match="no CUDA driver found"):
            action()
