# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.utils: helpers beside the core objects: strided memory views of other libraries'
arrays, batched copies, the batched managed-memory operations, and the program cache."""

from cuda.core._memory._copy_enums import CopyOptions, MemcpyOverlapMode, MemcpySrcAccessOrder
from cuda.core._memory._copy_ops import copy_batch
from cuda.core._memory._managed_memory_ops import discard_batch, discard_prefetch_batch, prefetch_batch
from cuda.core._memoryview import StridedMemoryView, args_viewable_as_strided_memory
from cuda.core.utils._program_cache import (
    FileStreamProgramCache,
    InMemoryProgramCache,
    ProgramCacheResource,
    make_program_cache_key,
)

__all__: list[str] = [
    "CopyOptions",
    "FileStreamProgramCache",
    "InMemoryProgramCache",
    "MemcpyOverlapMode",
    "MemcpySrcAccessOrder",
    "ProgramCacheResource",
    "StridedMemoryView",
    "args_viewable_as_strided_memory",
    "copy_batch",
    "discard_batch",
    "discard_prefetch_batch",
    "make_program_cache_key",
    "prefetch_batch",
]
