# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core memory: Buffer, the MemoryResource interface and the driver's memory resources."""

from cuda.core._memory import (
    _buffer,
    _device_memory_resource,
    _graph_memory_resource,
    _legacy,
    _managed_buffer,
    _managed_memory_resource,
    _pinned_memory_resource,
    _virtual_memory_resource,
)
from cuda.core._memory._buffer import *  # noqa: F403
from cuda.core._memory._device_memory_resource import *  # noqa: F403
from cuda.core._memory._graph_memory_resource import *  # noqa: F403

# The IPC descriptor classes are reachable here (NVIDIA's later tests import them from here) but
# are not in __all__: NVIDIA's cuda.core 1.2 does not export them, from here or from cuda.core.
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
    *_legacy.__all__,
    *_managed_buffer.__all__,
    *_managed_memory_resource.__all__,
    *_pinned_memory_resource.__all__,
    *_virtual_memory_resource.__all__,
]
