# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Moving test data between numpy arrays and device Buffers, through pinned host memory
(shared by the GPU tests that check what kernels wrote)."""

from __future__ import annotations

import numpy as np


def pinned_copy(array: np.ndarray):
    """A pinned host Buffer holding ``array``'s bytes."""
    import cuda.core

    pinned = cuda.core.LegacyPinnedMemoryResource().allocate(array.nbytes)
    np.from_dlpack(pinned)[:] = array.view(np.int8).ravel()
    return pinned


def to_device(device, stream, array: np.ndarray):
    """A device Buffer holding ``array``, copied through pinned memory."""
    pinned = pinned_copy(array)
    buffer = device.allocate(array.nbytes, stream=stream)
    buffer.copy_from(pinned, stream=stream)
    stream.sync()
    pinned.close()
    return buffer


def to_host(buffer, stream, dtype, count: int) -> np.ndarray:
    """The first ``count`` values of a device Buffer, as ``dtype``, after the stream's work."""
    import cuda.core

    pinned = cuda.core.LegacyPinnedMemoryResource().allocate(buffer.size)
    buffer.copy_to(pinned, stream=stream)
    stream.sync()
    result = np.from_dlpack(pinned).view(dtype)[:count].copy()
    pinned.close()
    return result
