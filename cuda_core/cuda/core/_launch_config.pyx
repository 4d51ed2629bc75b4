"""cuda.core LaunchConfig: the grid, block and shared memory of a kernel launch."""

__all__ = ['LaunchConfig']


cdef tuple _dims(object value, str name):
    """A grid or block given as an int or a 1-3 tuple of positive ints, as a 3-tuple."""
    dims = (value,) if isinstance(value, int) else value
    if not isinstance(dims, tuple) or not 1 <= len(dims) <= 3 or \
            not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in dims):
        raise ValueError(f"LaunchConfig {name} must be a positive int or a tuple of 1 to 3 positive ints, "
                         f"got {value!r}")
    if any(d > 0xFFFFFFFF for d in dims):
        raise ValueError(f"LaunchConfig {name} {value!r} does not fit 32-bit dimensions")
    return dims + (1,) * (3 - len(dims))


cdef class LaunchConfig:
    """How a kernel is launched: ``grid`` and ``block`` (an int or a 1-3 tuple of ints),
    and ``shmem_size``, the bytes of dynamic shared memory per block."""

    def __init__(self, grid=None, cluster=None, block=None, shmem_size=None, cooperative_launch=False):
        if grid is None or block is None:
            raise ValueError("LaunchConfig needs both grid and block, e.g. LaunchConfig(grid=(n + 255) // 256, block=256)")
        if cluster is not None:
            raise NotImplementedError("thread block clusters (LaunchConfig cluster=) are not supported by this "
                                      "cuda.core build yet")
        if cooperative_launch:
            raise NotImplementedError("cooperative launches are not supported by this cuda.core build yet")
        shmem_size = 0 if shmem_size is None else shmem_size
        if not isinstance(shmem_size, int) or isinstance(shmem_size, bool) or not 0 <= shmem_size <= 0xFFFFFFFF:
            raise ValueError(f"LaunchConfig shmem_size must be a non-negative int (bytes), got {shmem_size!r}")
        self.grid = _dims(grid, "grid")
        self.block = _dims(block, "block")
        self.shmem_size = shmem_size
        for axis in range(3):
            self.dims[axis] = self.grid[axis]
            self.dims[3 + axis] = self.block[axis]

    @property
    def cluster(self):
        return None

    @property
    def cooperative_launch(self) -> bool:
        return False

    def __eq__(self, other) -> bool:
        if not isinstance(other, LaunchConfig):
            return NotImplemented
        return (self.grid, self.block, self.shmem_size) == \
            ((<LaunchConfig>other).grid, (<LaunchConfig>other).block, (<LaunchConfig>other).shmem_size)

    def __hash__(self) -> int:
        return hash((self.grid, self.block, self.shmem_size))

    def __repr__(self) -> str:
        return f"LaunchConfig(grid={self.grid}, block={self.block}, shmem_size={self.shmem_size})"
