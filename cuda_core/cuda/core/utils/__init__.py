"""cuda.core.utils: strided memory views, batched copies and the program cache (not built yet)."""

__all__: list[str] = []
