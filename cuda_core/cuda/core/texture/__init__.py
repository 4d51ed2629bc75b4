"""cuda.core.texture: opaque arrays, texture and surface objects (not built yet)."""

__all__: list[str] = []
