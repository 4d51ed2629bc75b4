"""The errors NVML reports, as raised by cuda.core.system's NVML queries.

They are cuda.bindings.nvml's own classes (so ``except cuda.core.system.NotFoundError``
catches what the bindings raise); NvmlError is the base of all of them. Importing this
module without NVML bindings raises an ImportError that says what to install.
"""

from cuda.core.system._nvml_support import require_nvml

__all__ = [
    "AlreadyInitializedError",
    "ArgumentVersionMismatchError",
    "CorruptedInforomError",
    "DeprecatedError",
    "DriverNotLoadedError",
    "FreqNotSupportedError",
    "FunctionNotFoundError",
    "GpuIsLostError",
    "GpuNotFoundError",
    "InUseError",
    "InsufficientPowerError",
    "InsufficientResourcesError",
    "InsufficientSizeError",
    "InvalidArgumentError",
    "InvalidStateError",
    "IrqIssueError",
    "LibRmVersionMismatchError",
    "LibraryNotFoundError",
    "MemoryError",
    "NoDataError",
    "NoPermissionError",
    "NotFoundError",
    "NotReadyError",
    "NotSupportedError",
    "NvmlError",
    "OperatingSystemError",
    "ResetRequiredError",
    "ResetTypeNotSupportedError",
    "TimeoutError",
    "UninitializedError",
    "UnknownError",
    "VgpuEccNotSupportedError",
]

_nvml = require_nvml("cuda.core.system.exceptions")

NvmlError = _nvml.NvmlError
AlreadyInitializedError = _nvml.AlreadyInitializedError
ArgumentVersionMismatchError = _nvml.ArgumentVersionMismatchError
CorruptedInforomError = _nvml.CorruptedInforomError
DeprecatedError = _nvml.DeprecatedError
DriverNotLoadedError = _nvml.DriverNotLoadedError
FreqNotSupportedError = _nvml.FreqNotSupportedError
FunctionNotFoundError = _nvml.FunctionNotFoundError
GpuIsLostError = _nvml.GpuIsLostError
GpuNotFoundError = _nvml.GpuNotFoundError
InUseError = _nvml.InUseError
InsufficientPowerError = _nvml.InsufficientPowerError
InsufficientResourcesError = _nvml.InsufficientResourcesError
InsufficientSizeError = _nvml.InsufficientSizeError
InvalidArgumentError = _nvml.InvalidArgumentError
InvalidStateError = _nvml.InvalidStateError
IrqIssueError = _nvml.IrqIssueError
LibRmVersionMismatchError = _nvml.LibRmVersionMismatchError
LibraryNotFoundError = _nvml.LibraryNotFoundError
MemoryError = _nvml.MemoryError  # noqa: A001 - NVML's name, shadowing the builtin only here
NoDataError = _nvml.NoDataError
NoPermissionError = _nvml.NoPermissionError
NotFoundError = _nvml.NotFoundError
NotReadyError = _nvml.NotReadyError
NotSupportedError = _nvml.NotSupportedError
OperatingSystemError = _nvml.OperatingSystemError
ResetRequiredError = _nvml.ResetRequiredError
ResetTypeNotSupportedError = _nvml.ResetTypeNotSupportedError
TimeoutError = _nvml.TimeoutError  # noqa: A001
UninitializedError = _nvml.UninitializedError
UnknownError = _nvml.UnknownError
VgpuEccNotSupportedError = _nvml.VgpuEccNotSupportedError

del _nvml, require_nvml
