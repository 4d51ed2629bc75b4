"""cuda.core.system: what the driver reports about this machine."""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, device_count, ensure_driver


def get_num_devices() -> int:
    """The number of CUDA devices the driver sees."""
    return device_count()


def get_driver_version() -> tuple[int, int]:
    """The CUDA version the driver supports, as (major, minor)."""
    cdef int version = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return (version // 1000, version % 1000 // 10)


class System:
    """Process-wide CUDA facts; use the ``cuda.core.system`` instance."""

    __slots__ = ()

    @property
    def num_devices(self) -> int:
        """The number of CUDA devices the driver sees."""
        return get_num_devices()

    @property
    def driver_version(self) -> tuple[int, int]:
        """The CUDA version the driver supports, as (major, minor)."""
        return get_driver_version()

    get_num_devices = staticmethod(get_num_devices)


system = System()
