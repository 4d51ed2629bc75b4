# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Green contexts, graphics interop and checkpointing without a GPU: NVIDIA's 1.2.2 names
and signatures, the options' validation, and the errors reachable without a driver."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

EMPTY = inspect.Parameter.empty


def parameters(function) -> list[tuple[str, object, str]]:
    """(name, default, kind) of each parameter, as a caller of NVIDIA's cuda.core sees them."""
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(function).parameters.values()]


def test_names_at_the_top_level(cuda_core) -> None:
    from cuda.core import _device_resources, _graphics

    assert _device_resources.__all__ == [
        "DeviceResources",
        "SMResource",
        "SMResourceOptions",
        "WorkqueueResource",
        "WorkqueueResourceOptions",
    ]
    assert _graphics.__all__ == ["GraphicsResource"]
    for module in (_device_resources, _graphics):
        for name in module.__all__:
            assert name in cuda_core.__all__ and getattr(cuda_core, name) is getattr(module, name)


def test_option_dataclasses_match_nvidia(cuda_core) -> None:
    sm_fields = [(f.name, f.default) for f in dataclasses.fields(cuda_core.SMResourceOptions)]
    assert sm_fields == [
        ("count", None),
        ("coscheduled_sm_count", None),
        ("preferred_coscheduled_sm_count", None),
        ("backfill", False),
    ]
    wq_fields = [(f.name, f.default) for f in dataclasses.fields(cuda_core.WorkqueueResourceOptions)]
    assert wq_fields == [("sharing_scope", None), ("concurrency_limit", None)]


def test_method_signatures_match_nvidia(cuda_core) -> None:
    assert parameters(cuda_core.SMResource.split) == [
        ("self", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("options", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("dry_run", False, "KEYWORD_ONLY"),
    ]
    assert [name for name, _, _ in parameters(cuda_core.WorkqueueResource.configure)] == ["self", "options"]
    graphics = cuda_core.GraphicsResource
    assert parameters(graphics.from_gl_buffer) == [
        ("gl_buffer", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("flags", None, "KEYWORD_ONLY"),
        ("stream", None, "KEYWORD_ONLY"),
    ]
    assert parameters(graphics.from_gl_image) == [
        ("image", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("target", EMPTY, "POSITIONAL_OR_KEYWORD"),
        ("flags", None, "KEYWORD_ONLY"),
    ]
    assert parameters(graphics.map)[1:] == [("stream", EMPTY, "KEYWORD_ONLY")]
    assert parameters(graphics.unmap)[1:] == [("stream", None, "KEYWORD_ONLY")]
    assert parameters(graphics.close)[1:] == [("stream", None, "POSITIONAL_OR_KEYWORD")]
    for prop in ("sm_count", "min_partition_size", "coscheduled_alignment", "flags", "handle"):
        assert isinstance(getattr(cuda_core.SMResource, prop), property) or hasattr(cuda_core.SMResource, prop)
    for prop in ("handle", "sharing_scope", "concurrency_limit", "device"):
        assert hasattr(cuda_core.WorkqueueResource, prop)
    for prop in ("sm", "workqueue"):
        assert hasattr(cuda_core.DeviceResources, prop)
    for prop in ("is_mapped", "handle", "is_closed", "resource_handle"):
        assert hasattr(graphics, prop)


@pytest.mark.parametrize("name", ["DeviceResources", "SMResource", "WorkqueueResource", "GraphicsResource"])
def test_resources_are_not_user_constructible(cuda_core, name) -> None:
    with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
        getattr(cuda_core, name)()


def test_workqueue_options_check_at_construction(cuda_core) -> None:
    options = cuda_core.WorkqueueResourceOptions
    from cuda.core.typing import WorkqueueSharingScopeType

    assert options(sharing_scope="green_ctx_balanced").sharing_scope is WorkqueueSharingScopeType.GREEN_CTX_BALANCED
    assert options(sharing_scope=WorkqueueSharingScopeType.DEVICE_CTX, concurrency_limit=1).concurrency_limit == 1
    with pytest.raises(ValueError, match="'bogus' is not a valid WorkqueueSharingScopeType. Must be one of"):
        options(sharing_scope="bogus")
    for limit in (0, -3):
        with pytest.raises(ValueError, match="concurrency_limit must be >= 1"):
            options(concurrency_limit=limit)
    with pytest.raises(TypeError, match="concurrency_limit must be an int"):
        options(concurrency_limit=2.5)


def test_split_plans_one_entry_per_group(cuda_core) -> None:
    from cuda.core._device_resources import _split_plan

    options = cuda_core.SMResourceOptions
    assert _split_plan(options()) == ([None], [None], [None], [False])
    assert _split_plan(options(count=8, coscheduled_sm_count=4, backfill=True)) == ([8], [4], [None], [True])
    assert _split_plan(options(count=(8, 16), preferred_coscheduled_sm_count=(8, 16))) == (
        [8, 16],
        [None, None],
        [8, 16],
        [False, False],
    )


@pytest.mark.parametrize(
    "options, error, match",
    [
        (dict(count=2, coscheduled_sm_count=(2, 2)), ValueError, "count is scalar"),
        (dict(count=(2, 2), coscheduled_sm_count=(2, 2, 2)), ValueError, "expected 2"),
        (dict(count=(2, 2), backfill=(True,)), ValueError, "backfill has 1 entries, expected 2"),
        (dict(count=-1), ValueError, "count must be non-negative"),
        (dict(count=()), ValueError, "at least one group"),
        (dict(count="8"), TypeError, "count must be an int"),
        (dict(count=True), TypeError, "must be an int, got a bool"),
    ],
)
def test_split_plan_rejects_bad_options(cuda_core, options, error, match) -> None:
    from cuda.core._device_resources import _split_plan

    with pytest.raises(error, match=match):
        _split_plan(cuda_core.SMResourceOptions(**options))
    with pytest.raises(TypeError, match="options must be an SMResourceOptions"):
        _split_plan({"count": 2})


def test_workqueue_needs_13_1_headers(cuda_core) -> None:
    """A build with headers before CUDA 13.1 (the pinned 12.9 and 13.0) says what it needs,
    before any driver call: the query runs without a driver."""
    from cuda.core import _build_info
    from cuda.core._device_resources import _device_resources

    bindings = tuple(int(part) for part in _build_info.cuda_bindings_version.split(".")[:2])
    if _build_info.cuda_version >= 13010 and bindings >= (13, 1):
        pytest.skip("this build has CUDA 13.1+ headers: workqueue resources are available")
    with pytest.raises(RuntimeError, match=r"needs cuda.core built with CUDA 13\.1\+ headers") as raised:
        _device_resources(0).workqueue
    assert "CUdevWorkqueueConfigScope" in str(raised.value)


def test_wrapped_context_resources_are_lazy(cuda_core) -> None:
    """A Context's (and so a Stream's) resources are a DeviceResources; the driver is asked
    only when sm or workqueue is read."""
    context = cuda_core.Context._from_handle(0x1234, 0)
    resources = context.resources
    assert isinstance(resources, cuda_core.DeviceResources)
    assert repr(resources) == "<DeviceResources context of device 0>"
    context.close()
    with pytest.raises(RuntimeError, match="Context has been closed"):
        context.resources


def test_register_flags(cuda_core) -> None:
    from cuda.core._graphics import _REGISTER_FLAGS, _parse_register_flags

    assert _REGISTER_FLAGS == {
        "none": 0,
        "read_only": 1,
        "write_discard": 2,
        "surface_load_store": 4,
        "texture_gather": 8,
    }
    assert _parse_register_flags(None) == 0
    assert _parse_register_flags("read_only") == 1
    assert _parse_register_flags(("surface_load_store", "read_only")) == 5
    assert _parse_register_flags(["write_discard"]) == 2
    with pytest.raises(ValueError, match="Unknown register flag 'bogus'"):
        _parse_register_flags("bogus")
    with pytest.raises(ValueError, match="Unknown register flag"):
        _parse_register_flags(("read_only", 3))
    with pytest.raises(TypeError, match="flags must be a flag name"):
        _parse_register_flags(3)


def test_graphics_register_flags_are_checked_before_the_driver(cuda_core) -> None:
    with pytest.raises(ValueError, match="Unknown register flag"):
        cuda_core.GraphicsResource.from_gl_buffer(1, flags="bogus")
    with pytest.raises(ValueError, match="Unknown register flag"):
        cuda_core.GraphicsResource.from_gl_image(1, 0x0DE1, flags=("read_only", "nope"))


# ----------------------------------------------------------------------------------------
# cuda.core.checkpoint


def test_checkpoint_names(cuda_core) -> None:
    from cuda.core import checkpoint

    assert checkpoint.__all__ == ["Process"]
    assert not hasattr(checkpoint, "ProcessStateType")
    process = checkpoint.Process
    assert parameters(process.__init__)[1:] == [("pid", EMPTY, "POSITIONAL_OR_KEYWORD")]
    assert parameters(process.lock)[1:] == [("timeout_ms", 0, "POSITIONAL_OR_KEYWORD")]
    assert parameters(process.restore)[1:] == [("gpu_mapping", None, "POSITIONAL_OR_KEYWORD")]
    assert [name for name, _, _ in parameters(process.checkpoint)] == ["self"]
    assert [name for name, _, _ in parameters(process.unlock)] == ["self"]


@pytest.mark.parametrize(
    "pid, error, match",
    [
        ("abc", TypeError, "pid must be an int"),
        (True, TypeError, "pid must be an int"),
        (0, ValueError, "pid must be a positive int"),
        (-1, ValueError, "pid must be a positive int"),
    ],
)
def test_checkpoint_process_checks_pid(cuda_core, pid, error, match) -> None:
    from cuda.core import checkpoint

    with pytest.raises(error, match=match):
        checkpoint.Process(pid)


def test_checkpoint_process_pid_is_read_only(cuda_core) -> None:
    from cuda.core import checkpoint

    process = checkpoint.Process(1)
    assert process.pid == 1
    with pytest.raises(AttributeError):
        process.pid = 2
    with pytest.raises(AttributeError):
        process.other = 3  # __slots__


def test_checkpoint_lock_checks_timeout(cuda_core) -> None:
    from cuda.core import checkpoint

    with pytest.raises(TypeError, match="timeout_ms must be an int"):
        checkpoint.Process(1).lock(timeout_ms=1.5)
    with pytest.raises(ValueError, match="timeout_ms must be >= 0"):
        checkpoint.Process(1).lock(timeout_ms=-1)


def test_checkpoint_without_driver_says_so(cuda_core, no_driver) -> None:
    from cuda.core import checkpoint

    with pytest.raises(RuntimeError, match="^CUDA checkpointing is not supported by the installed NVIDIA driver"):
        checkpoint._get_driver()
    with pytest.raises(RuntimeError, match="^CUDA checkpointing is not supported"):
        checkpoint.Process(1).state


def test_checkpoint_bindings_support(cuda_core) -> None:
    from cuda.core import checkpoint

    assert checkpoint._bindings_support_checkpoint((12, 8, 0))
    assert not checkpoint._bindings_support_checkpoint((12, 6, 3))
    assert checkpoint._bindings_support_checkpoint((13, 0, 2))
    assert not checkpoint._bindings_support_checkpoint((13, 0, 1))
    assert checkpoint._bindings_support_checkpoint((14, 0, 0))


def test_checkpoint_restore_mapping_needs_uuids(cuda_core) -> None:
    """The GPU mapping is checked before the driver is asked (the bindings are)."""
    from cuda.core import checkpoint

    with pytest.raises(TypeError, match="gpu_mapping must be a mapping"):
        checkpoint._restore_args([("a", "b")])
    assert checkpoint._restore_args(None) is None
    assert checkpoint._restore_args({}) is None


def test_checkpoint_uuid_strings(cuda_core) -> None:
    from cuda.bindings import driver
    from cuda.core import checkpoint

    uuid = checkpoint._uuid(driver, "00010203-0405-0607-0809-0a0b0c0d0e0f")
    assert uuid.bytes == bytes(range(16))
    assert checkpoint._uuid(driver, uuid) is uuid
    with pytest.raises(ValueError, match="32 hex digits"):
        checkpoint._uuid(driver, "xyz")
    with pytest.raises(ValueError, match="32 hex digits"):
        checkpoint._uuid(driver, "0011")
    with pytest.raises(TypeError, match="CUuuid objects or UUID strings"):
        checkpoint._uuid(driver, 5)
