"""cuda.core.utils: helpers beside the core objects: strided memory views of other libraries'
arrays and the batched managed-memory operations. Batched copies and the program cache come
later."""

from cuda.core._memory._managed_memory_ops import discard_batch, discard_prefetch_batch, prefetch_batch
from cuda.core._memoryview import StridedMemoryView, args_viewable_as_strided_memory

__all__: list[str] = ["StridedMemoryView", "args_viewable_as_strided_memory", "discard_batch",
                      "discard_prefetch_batch", "prefetch_batch"]
