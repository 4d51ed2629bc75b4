# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core._utils as NVIDIA's cuda.core 1.2 and its test harness use it: handle_return on
cuda.bindings result tuples, CUDAError and its messages, the small helpers, versions, and
cuda.core.typing. None of it needs a GPU."""

from __future__ import annotations

import enum
import pickle
import re
import sys
import warnings

import pytest
from nvidia_names import TYPING_NAMES


@pytest.fixture(scope="module")
def utils(cuda_core):
    from cuda.core._utils import cuda_utils

    return cuda_utils


# ----------------------------------------------------------------------------------------
# CUDAError and the result checks


def test_cuda_error_is_an_exception_not_a_runtime_error(utils, cuda_core) -> None:
    assert utils.CUDAError.__mro__[1] is Exception
    assert issubclass(utils.NVRTCError, utils.CUDAError)
    assert cuda_core.CUDAError is utils.CUDAError and cuda_core.NVRTCError is utils.NVRTCError
    plain = utils.CUDAError("something failed")
    assert str(plain) == "something failed" and plain.code is None and plain.name is None


@pytest.mark.parametrize(
    "name",
    [
        "CUDA_ERROR_INVALID_VALUE",
        "CUDA_ERROR_OUT_OF_MEMORY",
        "CUDA_ERROR_NOT_INITIALIZED",
        "CUDA_ERROR_INVALID_CONTEXT",
        "CUDA_ERROR_NO_DEVICE",
        "CUDA_ERROR_NOT_FOUND",
    ],
)
def test_driver_errors_read_name_colon_explanation(utils, name) -> None:
    from cuda.bindings import driver

    error = getattr(driver.CUresult, name)
    with pytest.raises(utils.CUDAError) as raised:
        utils._check_driver_error(error)
    explanation = utils.DRIVER_CU_RESULT_EXPLANATIONS.get(int(error))
    assert explanation and len(explanation) > 20
    assert str(raised.value) == f"{name}: {explanation}"
    assert (raised.value.code, raised.value.name, raised.value.description) == (int(error), name, explanation)


def test_explanations_are_plain_text(utils) -> None:
    from cuda.bindings import driver

    text = utils.DRIVER_CU_RESULT_EXPLANATIONS.get(int(driver.CUresult.CUDA_ERROR_NOT_INITIALIZED))
    assert text == (
        "This indicates that the CUDA driver has not been initialized with cuInit() or that initialization has failed."
    )
    for code in (1, 2, 100, 201, 700):
        assert not re.search(r"::|:py:|\\[a-z]|`|\s\s", utils.DRIVER_CU_RESULT_EXPLANATIONS.get(code)), code


def test_frozen_tables_come_from_the_headers(cuda_core) -> None:
    from cuda.bindings import driver, runtime
    from cuda.core._utils.driver_cu_result_explanations_frozen import EXPLANATIONS as driver_table
    from cuda.core._utils.runtime_cuda_error_explanations_frozen import EXPLANATIONS as runtime_table

    assert len(driver_table) > 90 and len(runtime_table) > 120
    assert driver_table[int(driver.CUresult.CUDA_ERROR_INVALID_VALUE)].startswith(
        "This indicates that one or more of the parameters passed to the API call"
    )
    assert runtime_table[int(runtime.cudaError_t.cudaErrorMemoryAllocation)].startswith(
        "The API call failed because it was unable to allocate enough memory"
    )
    assert driver_table[6].startswith("[Deprecated] ")


def test_every_driver_result_names_itself(utils) -> None:
    from cuda.bindings import driver

    for error in driver.CUresult:
        if error == driver.CUresult.CUDA_SUCCESS:
            assert utils._check_driver_error(error) == 0
            continue
        with pytest.raises(utils.CUDAError, match=f"^{error.name}: "):
            utils._check_driver_error(error)


def test_runtime_errors(utils) -> None:
    from cuda.bindings import runtime

    assert utils._check_runtime_error(runtime.cudaError_t.cudaSuccess) == 0
    error = runtime.cudaError_t.cudaErrorInvalidValue
    with pytest.raises(utils.CUDAError) as raised:
        utils._check_runtime_error(error)
    assert str(raised.value) == f"cudaErrorInvalidValue: {utils.RUNTIME_CUDA_ERROR_EXPLANATIONS.get(int(error))}"


def test_nvrtc_errors(utils) -> None:
    from cuda.bindings import nvrtc

    assert utils._check_nvrtc_error(nvrtc.nvrtcResult.NVRTC_SUCCESS) == 0
    with pytest.raises(utils.NVRTCError, match="^NVRTC_ERROR_COMPILATION") as raised:
        utils._check_nvrtc_error(nvrtc.nvrtcResult.NVRTC_ERROR_COMPILATION)
    assert raised.value.name == "NVRTC_ERROR_COMPILATION" and raised.value.log == ""


def test_handle_return_unpacks_result_tuples(utils) -> None:
    from cuda.bindings import driver, nvrtc, runtime

    ok = driver.CUresult.CUDA_SUCCESS
    assert utils.handle_return((ok,)) is None
    assert utils.handle_return((ok, 7)) == 7
    assert utils.handle_return((ok, 7, "x")) == (7, "x")
    assert utils.handle_return((runtime.cudaError_t.cudaSuccess, 3)) == 3
    assert utils.handle_return((nvrtc.nvrtcResult.NVRTC_SUCCESS, b"v")) == b"v"
    with pytest.raises(utils.CUDAError, match="^CUDA_ERROR_INVALID_HANDLE: "):
        utils.handle_return((driver.CUresult.CUDA_ERROR_INVALID_HANDLE, None))
    with pytest.raises(utils.CUDAError, match="^cudaErrorInvalidDevice: "):
        utils.handle_return((runtime.cudaError_t.cudaErrorInvalidDevice,))
    with pytest.raises(utils.NVRTCError):
        utils.handle_return((nvrtc.nvrtcResult.NVRTC_ERROR_INVALID_INPUT,))
    with pytest.raises(RuntimeError, match="Unknown error type"):
        utils.handle_return((0, 1))


def test_lazy_binding_modules(utils) -> None:
    from cuda.bindings import driver, nvrtc, runtime

    assert utils.driver is driver and utils.runtime is runtime and utils.nvrtc is nvrtc
    from cuda.core._utils.cuda_utils import driver as again

    assert again is driver
    with pytest.raises(AttributeError, match="no_such_name"):
        utils.no_such_name


def test_errors_survive_pickling(utils) -> None:
    with pytest.raises(utils.CUDAError) as raised:
        utils.check(2)
    copy = pickle.loads(pickle.dumps(raised.value))
    assert type(copy) is utils.CUDAError and str(copy) == str(raised.value)
    assert (copy.code, copy.name) == (2, "CUDA_ERROR_OUT_OF_MEMORY")
    nvrtc_error = utils.NVRTCError(6, "NVRTC_ERROR_COMPILATION", "", "line 1: error")
    copy = pickle.loads(pickle.dumps(nvrtc_error))
    assert copy.log == "line 1: error" and str(copy) == "NVRTC_ERROR_COMPILATION\nline 1: error"


# ----------------------------------------------------------------------------------------
# The small helpers


def test_cast_to_3_tuple(utils) -> None:
    assert utils.cast_to_3_tuple("grid", ()) == (1, 1, 1)
    assert utils.cast_to_3_tuple("grid", 4) == (4, 1, 1)
    assert utils.cast_to_3_tuple("grid", (4, 5)) == (4, 5, 1)
    for bad, message in (
        ([], r"^grid must be an int, or a tuple with up to 3 ints \(got \[\]\)$"),
        ((1, 2, 3, 4), r"\(got tuple with length 4\)$"),
        ((0,), r"^grid value must be >= 1 \(got \(0,\)\)$"),
        (-2, r"^grid value must be >= 1 \(got -2\)$"),
    ):
        with pytest.raises(ValueError, match=message):
            utils.cast_to_3_tuple("grid", bad)


def test_check_or_create_options(utils) -> None:
    import dataclasses

    @dataclasses.dataclass
    class Options:
        x: int = 1

    assert utils.check_or_create_options(Options, None) == Options()
    assert utils.check_or_create_options(Options, None, keep_none=True) is None
    assert utils.check_or_create_options(Options, {"x": 3}) == Options(3)
    options = Options(5)
    assert utils.check_or_create_options(Options, options) is options
    with pytest.raises(TypeError, match="The stream options must be provided as an object of type Options"):
        utils.check_or_create_options(Options, 7, "stream options")


def test_precondition_runs_the_checker_first(utils) -> None:
    seen = []

    def checker(*args, what=""):
        seen.append((args, what))
        if args[0] < 0:
            raise ValueError(f"{what}: negative")

    @utils.precondition(checker, what="size")
    def double(x):
        return 2 * x

    assert double(4) == 8 and seen == [((4,), "size")]
    with pytest.raises(ValueError, match="size: negative"):
        double(-1)
    assert double.__name__ == "double"


def test_transaction_undoes_unless_committed(utils) -> None:
    undone = []
    with pytest.raises(KeyError):
        with utils.Transaction() as txn:
            txn.append(undone.append, "first")
            txn.append(undone.append, "second")
            raise KeyError
    assert undone == ["second", "first"]
    undone.clear()
    with utils.Transaction() as txn:
        txn.append(undone.append, "kept")
        txn.commit()
    assert undone == []


def test_sequences_and_boolean_options(utils) -> None:
    assert utils.is_sequence([1]) and utils.is_sequence(()) and not utils.is_sequence("ab")
    assert utils.is_nested_sequence([1, (2,)]) and not utils.is_nested_sequence([1, 2])
    assert (utils._handle_boolean_option(True), utils._handle_boolean_option(False)) == ("true", "false")


def test_parse_fill_value(utils) -> None:
    assert utils._parse_fill_value(7) == (7, 1)
    assert utils._parse_fill_value((0x0102).to_bytes(2, sys.byteorder)) == (0x0102, 2)
    assert utils._parse_fill_value(bytearray(4)) == (0, 4)
    with pytest.raises(OverflowError):
        utils._parse_fill_value(256)
    with pytest.raises(ValueError, match="1, 2 or 4 bytes"):
        utils._parse_fill_value(b"abc")
    with pytest.raises(TypeError):
        utils._parse_fill_value(1.5)


def test_fork_warning_once(utils, monkeypatch) -> None:
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "fork")
    utils.reset_fork_warning()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        utils.check_multiprocessing_start_method()
        utils.check_multiprocessing_start_method()
    assert len(caught) == 1 and caught[0].category is UserWarning
    text = str(caught[0].message).lower()
    assert "fork" in text and "spawn" in text and "undefined behavior" in text
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "spawn")
    utils.reset_fork_warning()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        utils.check_multiprocessing_start_method()
    assert caught == []


def test_clear_error_support(cuda_core) -> None:
    from cuda.core._utils import clear_error_support as support

    support.assert_type(3, int)
    with pytest.raises(TypeError, match="Expected type int"):
        support.assert_type("3", int)
    support.assert_type_str_or_bytes_like(b"x")
    with pytest.raises(TypeError, match="Expected type str or bytes or bytearray"):
        support.assert_type_str_or_bytes_like(3)
    with pytest.raises(RuntimeError, match="This code path is meant to be unreachable"):
        support.raise_code_path_meant_to_be_unreachable()


# ----------------------------------------------------------------------------------------
# Enum docs, versions


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("a\nb  c", "a b c"),
        ("see\n:py:obj:`~.cuInit()` or :py:obj:`cuCtxDestroy()`", "see cuInit() or cuCtxDestroy()"),
        ("x :c:func:`cuLaunchKernel` y", "x cuLaunchKernel y"),
        ("**Note:** *text*", "Note: text"),
        ("non- linear and word -word", "non-linear and word-word"),
        ("causes are - a. bad", "causes are - a. bad"),
        ('see\n:py:obj:`~.Interactions`with the Driver API" here.', 'see "Interactions with the Driver API" here.'),
        (None, None),
    ],
)
def test_enum_docstring_cleanup(cuda_core, raw, clean) -> None:
    from cuda.core._utils.enum_explanations_helpers import clean_enum_member_docstring

    assert clean_enum_member_docstring(raw) == clean


@pytest.mark.parametrize(
    "version, usable",
    [
        ((12, 9, 5), False),
        ((12, 9, 6), True),
        ((13, 0, 3), False),
        ((13, 1, 9), False),
        ((13, 2, 0), True),
        ((14, 0, 0), True),
    ],
)
def test_which_bindings_document_their_enums(cuda_core, version, usable) -> None:
    from cuda.core._utils.enum_explanations_helpers import _binding_version_has_usable_enum_docstrings

    assert _binding_version_has_usable_enum_docstrings(version) is usable


def test_explanations_follow_the_bindings(cuda_core) -> None:
    from cuda.bindings import driver
    from cuda.core._utils.driver_cu_result_explanations import DRIVER_CU_RESULT_EXPLANATIONS
    from cuda.core._utils.enum_explanations_helpers import (
        DocstringBackedExplanations,
        _binding_version_has_usable_enum_docstrings,
    )
    from cuda.core._utils.version import binding_version

    from_docs = _binding_version_has_usable_enum_docstrings(binding_version())
    assert isinstance(DRIVER_CU_RESULT_EXPLANATIONS, DocstringBackedExplanations) is from_docs
    assert DRIVER_CU_RESULT_EXPLANATIONS.get(-5) is None
    assert DRIVER_CU_RESULT_EXPLANATIONS.get(int(driver.CUresult.CUDA_ERROR_INVALID_VALUE))


def test_versions(cuda_core) -> None:
    import cuda.bindings
    from cuda.core._utils import version

    assert version._parse_version_triple("13.0.3") == (13, 0, 3)
    assert version._parse_version_triple("12.9") == (12, 9, 0)
    assert version._parse_version_triple("13.1.0rc1+local.2") == (13, 1, 0)
    assert version.binding_version() == version._parse_version_triple(cuda.bindings.__version__)


# ----------------------------------------------------------------------------------------
# cuda.core.typing

ENUM_VALUES = {
    "SourceCodeType": {"CXX": "c++", "PTX": "ptx", "NVVM": "nvvm"},
    "ObjectCodeFormatType": {
        "PTX": "ptx",
        "CUBIN": "cubin",
        "LTOIR": "ltoir",
        "FATBIN": "fatbin",
        "OBJECT": "object",
        "LIBRARY": "library",
    },
    "CompilerBackendType": {"NVRTC": "NVRTC", "NVVM": "NVVM", "NVJITLINK": "nvJitLink", "DRIVER": "driver"},
    "PCHStatusType": {"CREATED": "created", "NOT_ATTEMPTED": "not_attempted", "FAILED": "failed"},
    "GraphConditionalType": {"IF": "if", "WHILE": "while", "SWITCH": "switch"},
    "GraphMemoryType": {"DEVICE": "device", "HOST": "host", "MANAGED": "managed"},
    "ManagedMemoryLocationType": {"DEVICE": "device", "HOST": "host", "HOST_NUMA": "host_numa"},
    "VirtualMemoryHandleType": {"POSIX_FD": "posix_fd", "WIN32_KMT": "win32_kmt", "FABRIC": "fabric"},
    "VirtualMemoryLocationType": {
        "DEVICE": "device",
        "HOST": "host",
        "HOST_NUMA": "host_numa",
        "HOST_NUMA_CURRENT": "host_numa_current",
    },
    "VirtualMemoryGranularityType": {"MINIMUM": "minimum", "RECOMMENDED": "recommended"},
    "VirtualMemoryAccessType": {"READ_WRITE": "rw", "READ": "r"},
    "VirtualMemoryAllocationType": {"PINNED": "pinned", "MANAGED": "managed"},
    "ArrayFormatType": {
        "UINT8": "uint8",
        "UINT16": "uint16",
        "UINT32": "uint32",
        "INT8": "int8",
        "INT16": "int16",
        "INT32": "int32",
        "FLOAT16": "float16",
        "FLOAT32": "float32",
    },
    "AddressModeType": {"WRAP": "wrap", "CLAMP": "clamp", "MIRROR": "mirror", "BORDER": "border"},
    "FilterModeType": {"POINT": "point", "LINEAR": "linear"},
    "ReadModeType": {"ELEMENT_TYPE": "element_type", "NORMALIZED_FLOAT": "normalized_float"},
    "WorkqueueSharingScopeType": {"DEVICE_CTX": "device_ctx", "GREEN_CTX_BALANCED": "green_ctx_balanced"},
}


def test_typing_names(cuda_core) -> None:
    import cuda.core.typing as typing_module

    assert typing_module.__all__ == list(TYPING_NAMES)
    for name in TYPING_NAMES:
        assert getattr(typing_module, name) is not None, name
    assert set(typing_module.ProcessStateType.__args__) == {"running", "locked", "checkpointed", "failed"}
    from cuda.bindings import driver

    assert driver.CUdeviceptr in typing_module.DevicePointerType.__args__
    from cuda.core._memory._buffer import DevicePointerType

    assert DevicePointerType is typing_module.DevicePointerType


@pytest.mark.parametrize("name", sorted(ENUM_VALUES))
def test_typing_enums_are_str_enums(cuda_core, name) -> None:
    import cuda.core.typing as typing_module

    enum_type = getattr(typing_module, name)
    assert issubclass(enum_type, str) and issubclass(enum_type, enum.Enum)
    assert {member.name: member.value for member in enum_type} == ENUM_VALUES[name]
    for member in enum_type:
        assert member == member.value and str(member) == member.value and enum_type(member.value) is member
