# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The module attributes NVIDIA's own tests read are where those tests look for them: private
names, and names of private modules, that NVIDIA's cuda.core 1.2.2 has and its test suite
(the mdboom/cuda-python snapshot in .upstream) imports, reads, or monkeypatches by name.

Ours is laid out by topic where NVIDIA's has one module (cuda.core.system._device, for one):
a name that moved must stay reachable at NVIDIA's path, or NVIDIA's tests stop collecting.
The table is written down here from a reading of those tests, checked against NVIDIA's wheel
(a name its tests read that 1.2.2 lacks, such as cuda.core._memory.IPCBufferDescriptor, is not
listed). A dotted entry is an attribute of an attribute: the private class attributes that the
tests read.

The NVML modules import only where cuda-bindings has usable NVML bindings (12.9.10 of the
cu12 cell has, 13.0.3 of the cu13 cell has not): elsewhere their import must fail with our
error naming the cuda-bindings to install.
"""

from __future__ import annotations

import importlib
from operator import attrgetter

import pytest
from nvml_rule import nvml_compatible_here

NVIDIA_TESTS_READ = {
    "cuda.core": (
        "TensorMapDescriptor._from_im2col",
        "TensorMapDescriptor._from_im2col_wide",
        "VirtualMemoryResourceOptions._access_flags",
        "VirtualMemoryResourceOptions._granularity",
        "VirtualMemoryResourceOptions._handle_type_to_driver",
        "VirtualMemoryResourceOptions._handle_types",
    ),
    "cuda.core._context": ("Context",),
    "cuda.core._device": ("Device", "DeviceProperties", "_tls"),
    "cuda.core._dlpack": ("DLDeviceType",),
    "cuda.core._event": ("Event", "IPCEventDescriptor", "IPCEventDescriptor._init", "_reduce_event"),
    "cuda.core._graphics": ("_parse_register_flags",),
    "cuda.core._kernel_arg_handler": ("ParamHolder",),
    "cuda.core._launch_config": ("Device", "_to_native_launch_config"),
    "cuda.core._layout": ("_StridedLayout",),
    "cuda.core._linker": (
        "_decide_nvjitlink_or_driver",
        "_driver",
        "_inited",
        "_optional_cuda_import",
        "_use_nvjitlink_backend",
    ),
    "cuda.core._memory._buffer": ("DevicePointerType",),
    "cuda.core._memory._device_memory_resource": ("DMR_mempool_get_access", "_deep_reduce_device_memory_resource"),
    "cuda.core._memory._graph_memory_resource": ("GraphMemoryResourceAttributes",),
    "cuda.core._memory._ipc": ("IPCAllocationHandle", "IPCAllocationHandle._init", "_reduce_allocation_handle"),
    "cuda.core._memory._legacy": ("_SynchronousMemoryResource",),
    "cuda.core._memory._managed_buffer": ("_get_int_attr",),
    "cuda.core._memory._managed_location": ("_coerce_location",),
    "cuda.core._memory._managed_memory_resource": ("reset_concurrent_access_warning",),
    "cuda.core._memory._peer_access_utils": (
        "PeerAccessPlan",
        "PeerAccessibleBySetProxy",
        "_set_pool_access",
        "plan_peer_access_update",
    ),
    "cuda.core._memoryview": ("_StridedMemoryViewProxy", "bfloat16", "view_as_array_interface", "view_as_cai"),
    "cuda.core._module": ("Kernel", "KernelAttributes", "KernelOccupancy", "ObjectCode", "ObjectCode._init"),
    "cuda.core._program": (
        "Program",
        "ProgramOptions",
        "_can_load_generated_ptx",
        "_find_libdevice_path",
        "_get_nvvm_module",
        "_nvvm_import_attempted",
        "_nvvm_module",
        "_optional_cuda_import",
        "_program_compile_uncached",
        "binding_version",
        "driver_version",
    ),
    "cuda.core._stream": (
        "IsStreamType",
        "LEGACY_DEFAULT_STREAM",
        "PER_THREAD_DEFAULT_STREAM",
        "Stream_accept",
        "default_stream",
    ),
    "cuda.core._tensor_map": (
        "TensorMapDataType",
        "TensorMapDescriptorOptions",
        "TensorMapIm2ColWideMode",
        "TensorMapInterleave",
        "TensorMapL2Promotion",
        "TensorMapOOBFill",
        "TensorMapSwizzle",
        "_NUMPY_DTYPE_TO_TMA",
        "_require_view_device",
    ),
    "cuda.core._utils._weak_handles": ("weak_handle",),
    "cuda.core._utils.clear_error_support": (
        "assert_type_str_or_bytes_like",
        "raise_code_path_meant_to_be_unreachable",
    ),
    "cuda.core._utils.cuda_utils": (
        "CUDAError",
        "ComputeCapability",
        "DRIVER_CU_RESULT_EXPLANATIONS",
        "NVRTCError",
        "RUNTIME_CUDA_ERROR_EXPLANATIONS",
        "_check_driver_error",
        "_check_nvrtc_error",
        "_check_runtime_error",
        "cast_to_3_tuple",
        "check_multiprocessing_start_method",
        "check_or_create_options",
        "driver",
        "handle_return",
        "nvrtc",
        "precondition",
        "reset_fork_warning",
    ),
    "cuda.core._utils.driver_cu_result_explanations": ("DRIVER_CU_RESULT_EXPLANATIONS",),
    "cuda.core._utils.enum_explanations_helpers": (
        "DocstringBackedExplanations",
        "_binding_version",
        "_binding_version_has_usable_enum_docstrings",
        "clean_enum_member_docstring",
        "get_best_available_explanations",
    ),
    "cuda.core._utils.runtime_cuda_error_explanations": ("RUNTIME_CUDA_ERROR_EXPLANATIONS",),
    "cuda.core._utils.version": ("binding_version", "driver_version"),
    "cuda.core._version": ("__version__",),
    "cuda.core.checkpoint": ("_binding_version", "_get_driver"),
    "cuda.core.graph._graph_builder": ("_capture_callback_with_tail_failure_for_testing",),
    "cuda.core.graph._graph_node": ("_node_registry",),
    "cuda.core.system._device": (
        "BAR1MemoryInfo",
        "ClockInfo",
        "ClockOffsets",
        "CoolerInfo",
        "DeviceAttributes",
        "FanInfo",
        "FieldValues",
        "GpuDynamicPstatesInfo",
        "MemoryInfo",
        "NvlinkInfo",
        "PciInfo",
        "ProcessInfo",
        "RepairStatus",
        "Temperature",
        "ThermalSensor",
        "ThermalSettings",
        "Utilization",
        "_ADDRESSING_MODE_MAPPING",
        "_AFFINITY_SCOPE_MAPPING",
        "_BRAND_TYPE_MAPPING",
        "_CLOCKS_EVENT_REASONS_MAPPING",
        "_CLOCK_ID_MAPPING",
        "_CLOCK_TYPE_MAPPING",
        "_COOLER_CONTROL_MAPPING",
        "_COOLER_TARGET_MAPPING",
        "_EVENT_TYPE_MAPPING",
        "_FAN_CONTROL_POLICY_MAPPING",
        "_GPU_P2P_CAPS_INDEX_MAPPING",
        "_GPU_P2P_STATUS_MAPPING",
        "_GPU_TOPOLOGY_LEVEL_MAPPING",
        "_INFOROM_OBJECT_MAPPING",
        "_NVLINK_VERSION_MAPPING",
        "_TEMPERATURE_THRESHOLD_MAPPING",
        "_THERMAL_CONTROLLER_MAPPING",
        "_THERMAL_TARGET_MAPPING",
        "_unpack_bitmask",
    ),
    "cuda.core.system._nvml_context": ("_get_nvml_state", "initialize", "is_initialized", "validate"),
    "cuda.core.system._system": ("CUDA_BINDINGS_NVML_IS_COMPATIBLE",),
    "cuda.core.system._system_events": ("_SYSTEM_EVENT_TYPE_MAPPING",),
    "cuda.core.texture._array": ("OpaqueArray",),
    "cuda.core.texture._mipmapped_array": ("MipmappedArray",),
    "cuda.core.texture._surface": ("SurfaceObject",),
    "cuda.core.texture._texture": ("TextureObject", "_normalize_address_modes"),
    "cuda.core.utils._program_cache": ("make_program_cache_key",),
    "cuda.core.utils._program_cache._file_stream": (
        "_IS_WINDOWS",
        "_SHARING_VIOLATION_WINERRORS",
        "_TMP_STALE_AGE_SECONDS",
        "_UTIME_SUPPORTS_FD",
        "_default_cache_dir",
        "_is_windows_sharing_violation",
        "_prune_if_stat_unchanged",
        "_touch_atime",
        "_unlink_with_sharing_retry",
        "tempfile",
    ),
    "cuda.core.utils._program_cache._keys": (
        "_KEY_SCHEMA_VERSION",
        "_driver_version",
        "_linker_backend_and_version",
        "_nvvm_fingerprint",
    ),
}

# The modules NVIDIA's cuda.core imports only with NVML bindings.
NVML_MODULES = {"cuda.core.system._device", "cuda.core.system._nvml_context", "cuda.core.system._system_events"}

# Tables that NVIDIA's test_enum_coverage.py checks against the NVML enumerations: every key or
# value of each is one of our members or one of NVML's (or a plain value: a brand's name, a
# version, a bit NVML lacks).
NVML_MAPPINGS = [name for name in NVIDIA_TESTS_READ["cuda.core.system._device"] if name.endswith("_MAPPING")]


@pytest.fixture(scope="module")
def nvml() -> bool:
    return nvml_compatible_here()


@pytest.mark.parametrize("module", sorted(NVIDIA_TESTS_READ))
def test_names_nvidias_tests_read_are_there(cuda_core, nvml, module: str) -> None:
    if module in NVML_MODULES and not nvml:
        with pytest.raises(ImportError, match=r"requires NVML support.*cuda-bindings.*pip install"):
            importlib.import_module(module)
        return
    imported = importlib.import_module(module)
    missing = []
    for path in NVIDIA_TESTS_READ[module]:
        try:
            attrgetter(path)(imported)
        except AttributeError:
            missing.append(path)
    assert not missing, f"{module} lacks what NVIDIA's tests read there: {missing}"


def test_device_tables_hold_nvidias_entries(cuda_core, nvml) -> None:
    """The tables are dicts, and hold the entries that ours lacked beside NVIDIA's: three brands,
    NONE of the clock event reasons and cooler targets (compared with cuda-bindings 12.9.10), and
    every P2P status (with 13.2 to 13.4, whose members are all spelled P2P_STATUS_*)."""
    if not nvml:
        pytest.skip("cuda.core.system._device imports only with NVML bindings")
    from cuda.bindings import nvml as bindings
    from cuda.core.system import _device
    from cuda.core.system.typing import ClocksEventReasons, CoolerTarget

    for name in NVML_MAPPINGS:
        table = getattr(_device, name)
        assert isinstance(table, dict) and table, name
    assert ClocksEventReasons.NONE in _device._CLOCKS_EVENT_REASONS_MAPPING
    assert CoolerTarget.NONE in _device._COOLER_TARGET_MAPPING
    assert {int(status) for status in _device._GPU_P2P_STATUS_MAPPING.values()} == {
        int(status) for status in bindings.GpuP2PStatus
    }
    brands = {int(member): text for member, text in _device._BRAND_TYPE_MAPPING.items()}
    for name, text in (
        ("NVIDIA_DLA", "NVIDIA DLA"),
        ("NVIDIA_VGAMEDEV", "NVIDIA vGameDev"),
        ("NVIDIA_NPU", "NVIDIA NPU"),
    ):
        member = getattr(bindings.BrandType, name, None) or getattr(bindings.BrandType, f"BRAND_{name}", None)
        if member is not None:  # in the NVML bindings of every cuda-bindings of the matrix that has NVML
            assert brands.get(int(member)) == text, name
