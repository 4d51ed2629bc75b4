# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Batched copies without a GPU: CopyOptions and its enums, how copy_batch reads its options,
and the refusals that come before any driver call."""

from __future__ import annotations

import dataclasses

import pytest


@pytest.fixture(scope="session")
def utils(cuda_core):
    import cuda.core.utils

    return cuda.core.utils


def test_copy_options_normalise_strings_and_stay_frozen(utils) -> None:
    options = utils.CopyOptions(src_access_order="any", overlap_mode="prefer_overlap_with_compute")
    assert options.src_access_order is utils.MemcpySrcAccessOrder.ANY
    assert options.overlap_mode is utils.MemcpyOverlapMode.PREFER_OVERLAP_WITH_COMPUTE
    assert utils.CopyOptions() == utils.CopyOptions(src_access_order="stream", overlap_mode="default")
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.overlap_mode = "default"
    with pytest.raises(ValueError, match="src_access_order must be one of 'stream', 'during_api_call', 'any'"):
        utils.CopyOptions(src_access_order="sometimes")
    with pytest.raises(ValueError, match="overlap_mode must be one of"):
        utils.CopyOptions(overlap_mode="always")
    with pytest.raises(TypeError, match="src_location_hint must be a Device, a Host or None, got int"):
        utils.CopyOptions(src_location_hint=0)


def test_options_for_each_copy(cuda_core, utils) -> None:
    from cuda.core._memory._copy_ops import _normalize_copy_options

    default, hinted = utils.CopyOptions(), utils.CopyOptions(dst_location_hint=cuda_core.Host())
    assert _normalize_copy_options(None, 3) == (default,) * 3
    assert _normalize_copy_options(hinted, 2) == (hinted, hinted)
    assert _normalize_copy_options({"src_access_order": "any"}, 1) == (utils.CopyOptions(src_access_order="any"),)
    assert _normalize_copy_options([default, hinted], 2) == (default, hinted)
    with pytest.raises(ValueError, match="options has 1 entries for 2 copies"):
        _normalize_copy_options([default], 2)
    with pytest.raises(TypeError, match="must be a CopyOptions"):
        _normalize_copy_options([default, "any"], 2)
    with pytest.raises(TypeError, match="options must be a CopyOptions, a sequence of them, or None"):
        _normalize_copy_options(7, 1)


def test_copy_batch_refusals(cuda_core, utils) -> None:
    """Every one is raised before the driver is called (none is needed)."""
    from cuda.core._memory import Buffer

    stream = cuda_core.LEGACY_DEFAULT_STREAM
    a, b = Buffer.from_handle(0x1000, 8), Buffer.from_handle(0x2000, 16)
    with pytest.raises(TypeError, match="stream is required"):
        utils.copy_batch(None, [a], [b])
    with pytest.raises(TypeError, match="srcs must be a sequence of Buffers, got Buffer"):
        utils.copy_batch(stream, a, [b])
    with pytest.raises(TypeError, match=r"dsts\[1\] must be a Buffer, got bytes"):
        utils.copy_batch(stream, [a, a], [a, b"x"])
    with pytest.raises(ValueError, match="srcs has 1 buffers and dsts 2"):
        utils.copy_batch(stream, [a], [a, a])
    with pytest.raises(ValueError, match="at least one copy"):
        utils.copy_batch(stream, [], [])
    with pytest.raises(ValueError, match="copy 0: the source has 8 bytes and the destination 16"):
        utils.copy_batch(stream, [a], [b])
    with pytest.raises(ValueError, match="options has 2 entries for 1 copies"):
        utils.copy_batch(stream, [a], [a], options=[utils.CopyOptions()] * 2)
