"""CUresult to CUDAError: the one place where driver results become Python errors."""

cimport cuda.bindings.cydriver as cydriver

# The major this module was compiled for, straight from Cython's compile-time env,
# so the package can check it against its build info.
BUILD_MAJOR = CUDA_CORE_BUILD_MAJOR


class CUDAError(RuntimeError):
    """A CUDA driver call failed. ``code`` is the CUresult, ``name`` its enum name."""

    def __init__(self, code: int, name: str, description: str) -> None:
        super().__init__(f"{name}: {description}")
        self.code = code
        self.name = name
        self.description = description


class DriverNotFoundError(RuntimeError):
    """No CUDA driver (libcuda) could be loaded on this machine."""


class NVRTCError(CUDAError):
    """An NVRTC call failed. ``code`` is the nvrtcResult, ``name`` its enum name, ``log``
    the program's compile log (empty unless the failure was a compilation)."""

    def __init__(self, code: int, name: str, description: str, log: str = "") -> None:
        super().__init__(code, name, description)
        self.log = log
        # nvrtcGetErrorString mostly repeats the enum name: say it once.
        message = name if description in ("", name) else f"{name}: {description}"
        self.args = (f"{message}\n{log}" if log else message,)


def _result_name(int code) -> str:
    # The enum of cuda.bindings.driver names every CUresult without needing the driver.
    from cuda.bindings import driver
    try:
        return driver.CUresult(code).name
    except ValueError:
        return f"CUresult({code})"


cdef str _result_description(cydriver.CUresult result):
    cdef const char* text = NULL
    try:
        if cydriver.cuGetErrorString(result, &text) == cydriver.CUDA_SUCCESS and text != NULL:
            return text.decode()
    except Exception:
        # No driver loaded: fall through to the generic text.
        pass
    return "no description (the CUDA driver could not be asked)"


def error_for_result(int code) -> CUDAError:
    """The CUDAError for a CUresult code, carrying the driver's name and description."""
    return CUDAError(code, _result_name(code), _result_description(<cydriver.CUresult>code))


cdef int HANDLE_RETURN(cydriver.CUresult result) except -1 nogil:
    if result == cydriver.CUDA_SUCCESS:
        return 0
    with gil:
        raise error_for_result(<int>result)


def check(int code) -> None:
    """Raise the CUDAError for ``code`` unless it is CUDA_SUCCESS."""
    HANDLE_RETURN(<cydriver.CUresult>code)


cdef bint _driver_ready = False


cdef int ensure_driver() except -1:
    global _driver_ready
    if _driver_ready:
        return 0
    cdef cydriver.CUresult result
    try:
        result = cydriver.cuInit(0)
    except CUDAError:
        raise
    except Exception as err:
        # cuda-bindings loads libcuda on first use and raises when it cannot.
        raise DriverNotFoundError(f"no CUDA driver found ({err})") from err
    HANDLE_RETURN(result)
    _driver_ready = True
    return 0


def init_driver() -> None:
    """Load and initialise the CUDA driver, once per process."""
    ensure_driver()


cdef int device_count() except -1:
    cdef int count = 0
    ensure_driver()
    with nogil:
        HANDLE_RETURN(cydriver.cuDeviceGetCount(&count))
    return count


cdef int current_device() except -2:
    cdef cydriver.CUcontext context = NULL
    cdef cydriver.CUdevice device = -1
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
        if context != NULL:
            HANDLE_RETURN(cydriver.cuCtxGetDevice(&device))
    return device
