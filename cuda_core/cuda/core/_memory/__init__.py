# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core memory: Buffer, the MemoryResource interface and the driver's memory resources."""

from cuda.core._memory import (
    _buffer,
    _device_memory_resource,
    _graph_memory_resource,
    _ipc,
    _legacy,
    _managed_buffer,
    _managed_memory_resource,
    _pinned_memory_resource,
    _virtual_memory_resource,
)
from cuda.core._memory._buffer import *  # noqa: F403
from cuda.core._memory._device_memory_resource import *  # noqa: F403
from cuda.core._memory._graph_memory_resource import *  # noqa: F403
from cuda.core._memory._ipc import *  # noqa: F403
from cuda.core._memory._legacy import *  # noqa: F403
from cuda.core._memory._managed_buffer import *  # noqa: F403
from cuda.core._memory._managed_memory_resource import *  # noqa: F403
from cuda.core._memory._pinned_memory_resource import *  # noqa: F403
from cuda.core._memory._virtual_memory_resource import *  # noqa: F403

__all__ = [
    *_buffer.__all__,
    *_device_memory_resource.__all__,
    *_graph_memory_resource.__all__,
    *_ipc.__all__,
    *_legacy.__all__,
    *_managed_buffer.__all__,
    *_managed_memory_resource.__all__,
    *_pinned_memory_resource.__all__,
    *_virtual_memory_resource.__all__,
]
