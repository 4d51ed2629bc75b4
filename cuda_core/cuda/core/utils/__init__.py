"""cuda.core.utils: helpers beside the core objects. So far the batched managed-memory
operations; strided memory views, batched copies and the program cache come later."""

from cuda.core._memory._managed_memory_ops import discard_batch, discard_prefetch_batch, prefetch_batch

__all__: list[str] = ["discard_batch", "discard_prefetch_batch", "prefetch_batch"]

from cuda.core.utils._program_cache import (FileStreamProgramCache, InMemoryProgramCache, ProgramCacheResource,
                                            make_program_cache_key)

__all__ += ["FileStreamProgramCache", "InMemoryProgramCache", "ProgramCacheResource", "make_program_cache_key"]
