"""cuda.core: Pythonic access to CUDA devices, built by Meson for one CUDA major."""

from cuda.core import _build_info


def _check_bindings_major() -> None:
    """Refuse to load against cuda-bindings of another major than the one built for."""
    built = _build_info.cuda_major
    fix = (f'pip install "cuda-bindings=={built}.*", or rebuild cuda.core against the other major '
           f"(e.g. pip install --no-build-isolation -e . in a CUDA {{other}} environment)")
    try:
        from cuda.bindings._version import __version__ as bindings_version
    except ImportError as err:
        raise ImportError(f"cuda.core was built for CUDA {built} and needs cuda-bindings {built}.x, "
                          f'which is not installed: pip install "cuda-bindings=={built}.*"') from err
    installed = int(bindings_version.split(".")[0])
    if installed != built:
        raise ImportError(f"cuda.core was built for CUDA {built}, but the installed cuda-bindings "
                          f"{bindings_version} is for CUDA {installed}: " + fix.format(other=installed))


_check_bindings_major()

from cuda.core import system  # noqa: E402
from cuda.core._context import Context  # noqa: E402
from cuda.core._device import ComputeCapability, Device, DeviceProperties  # noqa: E402
from cuda.core._event import Event, EventOptions  # noqa: E402
from cuda.core._host import Host  # noqa: E402
from cuda.core._launch_config import LaunchConfig  # noqa: E402
from cuda.core._launcher import launch  # noqa: E402
from cuda.core._memory import (Buffer, DeviceMemoryResource, LegacyPinnedMemoryResource, ManagedBuffer,  # noqa: E402
                               ManagedMemoryResource, MemoryResource)
from cuda.core._module import Kernel, ObjectCode  # noqa: E402
from cuda.core._program import Program, ProgramOptions  # noqa: E402
from cuda.core._stream import Stream, StreamOptions  # noqa: E402
from cuda.core._utils.cuda_utils import CUDAError, DriverNotFoundError, NVRTCError  # noqa: E402

__version__ = _build_info.version
__all__ = ["Buffer", "CUDAError", "ComputeCapability", "Context", "Device", "DeviceMemoryResource", "DeviceProperties",
           "DriverNotFoundError", "Event", "EventOptions", "Host", "Kernel", "LaunchConfig", "LegacyPinnedMemoryResource",
           "ManagedBuffer", "ManagedMemoryResource", "MemoryResource", "NVRTCError", "ObjectCode", "Program",
           "ProgramOptions", "Stream", "StreamOptions", "launch", "system"]
