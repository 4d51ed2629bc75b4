# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core LaunchConfig: the shape of a kernel launch and the launch attributes it needs.

``grid`` counts blocks, or clusters when ``cluster`` is set (then each cluster holds
``cluster`` blocks and the driver gets grid * cluster blocks). The config keeps the
driver's numbers (grid in blocks, block, and which launch attributes are needed) in C,
updated whenever a field is set, so launch() reads them without Python work.
"""

from libc.string cimport memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._device import Device
from cuda.core._utils.cuda_utils import CUDAError

__all__ = ['LaunchConfig']

# The fields that make a config what it is: its repr, equality and hash.
_LAUNCH_CONFIG_ATTRS = ('grid', 'cluster', 'block', 'shmem_size', 'is_cooperative',
                        'programmatic_stream_serialization')

cdef unsigned long long _UINT_MAX = 0xFFFFFFFF
cdef object _UINT_MAX_INT = 0xFFFFFFFF  # the same as a Python int: Python ints compare with no conversion


cdef int _check_dim(object dim, object value, str name) except -1:
    """``dim``, one dimension of ``value``, is an int from 1 to _UINT_MAX."""
    if not isinstance(dim, int):
        raise ValueError(f"LaunchConfig.{name} must be an int, or a tuple with up to 3 ints; got a "
                         f"{type(dim).__name__} in {value!r}")
    if dim < 1:
        raise ValueError(f"LaunchConfig.{name} value must be >= 1; got {dim} in {value!r}")
    if dim > _UINT_MAX_INT:
        raise ValueError(f"LaunchConfig.{name} value {dim} does not fit the driver's 32-bit dimensions")
    return 0


cdef tuple _dims(object value, str name):
    """``value`` (an int, or a tuple of up to 3 ints, each >= 1) as a 3-tuple padded with 1s.
    (Spelled out, with no generator or intermediate tuple: configs are often made per launch.)"""
    if isinstance(value, int):
        _check_dim(value, value, name)
        return (int(value), 1, 1)
    if not isinstance(value, tuple) or len(value) > 3:
        described = f"a tuple of {len(value)}" if isinstance(value, tuple) else type(value).__name__
        raise ValueError(f"LaunchConfig.{name} must be an int, or a tuple with up to 3 ints; got {described}")
    for dim in value:
        _check_dim(dim, value, name)
    cdef Py_ssize_t count = len(value)
    return (int(value[0]) if count > 0 else 1, int(value[1]) if count > 1 else 1, int(value[2]) if count > 2 else 1)


cdef tuple _settable_dims(object value, str name):
    """A value assigned to ``grid``, ``cluster`` or ``block``: a tuple, checked as in __init__."""
    if not isinstance(value, tuple):
        raise TypeError(f"LaunchConfig.{name} must be set to a tuple, got {type(value).__name__}")
    return _dims(value, name)


cdef unsigned int _shmem(object value) except? 0:
    """Dynamic shared memory in bytes: None is 0."""
    if value is None:
        return 0
    if not isinstance(value, int):
        raise TypeError(f"LaunchConfig.shmem_size must be an int (bytes), got {type(value).__name__}")
    if not 0 <= value <= _UINT_MAX:
        raise ValueError(f"LaunchConfig.shmem_size must be from 0 to {_UINT_MAX} bytes, got {value}")
    return value


def _not_supported(str description):
    """The CUDAError NVIDIA's cuda.core raises for a feature the device lacks."""
    try:
        return CUDAError(801, "CUDA_ERROR_NOT_SUPPORTED", description)
    except TypeError:  # a CUDAError that takes just the message
        return CUDAError(f"CUDA_ERROR_NOT_SUPPORTED: {description}")


cdef class LaunchConfig:
    """How a kernel is launched.

    ``grid``: blocks in the grid, or clusters when ``cluster`` is set. ``cluster``:
    blocks per thread block cluster (compute capability 9.0+), or None. ``block``:
    threads per block. Each is an int or a tuple of up to 3 ints (x, y, z), kept as a
    3-tuple. ``shmem_size``: dynamic shared memory per block, in bytes (None: 0).
    ``is_cooperative``: launch as a cooperative kernel (grid-wide sync; the device must
    support it, and the grid must fit on the device at once). ``programmatic_stream_serialization``:
    let the kernel start before the previous kernel in its stream finishes (programmatic
    dependent launch), overlapping with it until it signals."""

    def __init__(self, grid=None, cluster=None, block=None, shmem_size=None, bint is_cooperative=False,
                 bint programmatic_stream_serialization=False):
        grid_dims = _dims(grid, "grid")
        block_dims = _dims(block, "block")
        cluster_dims = None
        if cluster is not None:
            cluster_dims = _dims(cluster, "cluster")
            capability = tuple(Device().compute_capability)
            if capability < (9, 0):
                raise _not_supported(f"thread block clusters are not supported on devices with compute capability "
                                     f"below 9.0 (this device: {capability[0]}.{capability[1]})")
        self._shmem_size = _shmem(shmem_size)
        if is_cooperative and not Device().properties.cooperative_launch:
            raise _not_supported("cooperative kernels are not supported on this device")
        self._cooperative = is_cooperative
        self._programmatic = programmatic_stream_serialization
        self._set_shape(grid_dims, cluster_dims, block_dims)

    cdef int _set_shape(self, tuple grid, object cluster, tuple block) except -1:
        """Take a checked grid, cluster and block, with the driver's grid in blocks; nothing
        changes if that grid does not fit 32 bits."""
        cdef int axis
        cdef unsigned long long blocks[3]
        for axis in range(3):
            blocks[axis] = <unsigned long long>grid[axis]
            if cluster is not None:
                blocks[axis] *= <unsigned long long>cluster[axis]
            if blocks[axis] > _UINT_MAX:
                raise ValueError(f"LaunchConfig grid {grid} of clusters {cluster} is {blocks[axis]} blocks along "
                                 f"axis {axis}, more than the driver's 32-bit dimensions hold")
        self._grid, self._cluster, self._block = grid, cluster, block
        for axis in range(3):
            self.dims[axis] = <unsigned int>blocks[axis]
            self.dims[3 + axis] = block[axis]
            self.cluster_dims[axis] = 1 if cluster is None else cluster[axis]
        self._update()
        return 0

    cdef int _update(self) except -1:
        """Recompute which launch attributes the flags and the cluster need."""
        self.num_attributes = (self._cluster is not None) + self._cooperative + self._programmatic
        return 0

    @property
    def grid(self) -> tuple:
        """Blocks in the grid (clusters when ``cluster`` is set), as (x, y, z)."""
        return self._grid

    @grid.setter
    def grid(self, value):
        self._set_shape(_settable_dims(value, "grid"), self._cluster, self._block)

    @property
    def cluster(self):
        """Blocks per thread block cluster, as (x, y, z), or None."""
        return self._cluster

    @cluster.setter
    def cluster(self, value):
        self._set_shape(self._grid, None if value is None else _settable_dims(value, "cluster"), self._block)

    @property
    def block(self) -> tuple:
        """Threads per block, as (x, y, z)."""
        return self._block

    @block.setter
    def block(self, value):
        self._set_shape(self._grid, self._cluster, _settable_dims(value, "block"))

    @property
    def shmem_size(self) -> int:
        """Dynamic shared memory per block, in bytes."""
        return self._shmem_size

    @shmem_size.setter
    def shmem_size(self, value):
        self._shmem_size = _shmem(value)

    @property
    def is_cooperative(self) -> bool:
        """Whether the kernel is launched cooperatively."""
        return self._cooperative

    @is_cooperative.setter
    def is_cooperative(self, bint value):
        self._cooperative = value
        self._update()

    @property
    def programmatic_stream_serialization(self) -> bool:
        """Whether the launch allows programmatic dependent launch (overlap with the previous kernel)."""
        return self._programmatic

    @programmatic_stream_serialization.setter
    def programmatic_stream_serialization(self, bint value):
        self._programmatic = value
        self._update()

    cdef int fill_native(self, cydriver.CUlaunchConfig* native, cydriver.CUlaunchAttribute* attributes,
                         cydriver.CUstream stream, bint with_cluster) except -1:
        cdef unsigned int count = 0
        memset(attributes, 0, MAX_LAUNCH_ATTRIBUTES * sizeof(cydriver.CUlaunchAttribute))
        native.gridDimX = self.dims[0]
        native.gridDimY = self.dims[1]
        native.gridDimZ = self.dims[2]
        native.blockDimX = self.dims[3]
        native.blockDimY = self.dims[4]
        native.blockDimZ = self.dims[5]
        native.sharedMemBytes = self._shmem_size
        native.hStream = stream
        if with_cluster and self._cluster is not None:
            attributes[count].id = cydriver.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            attributes[count].value.clusterDim.x = self.cluster_dims[0]
            attributes[count].value.clusterDim.y = self.cluster_dims[1]
            attributes[count].value.clusterDim.z = self.cluster_dims[2]
            count += 1
        if self._cooperative:
            attributes[count].id = cydriver.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
            attributes[count].value.cooperative = 1
            count += 1
        if self._programmatic:
            attributes[count].id = cydriver.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
            attributes[count].value.programmaticStreamSerializationAllowed = 1
            count += 1
        native.attrs = attributes
        native.numAttrs = count
        return 0

    def _identity(self) -> tuple:
        return (self._grid, self._cluster, self._block, self._shmem_size, self._cooperative, self._programmatic)

    def __eq__(self, other):
        if not isinstance(other, LaunchConfig):
            return NotImplemented
        return self._identity() == (<LaunchConfig>other)._identity()

    def __hash__(self) -> int:
        return hash((LaunchConfig, self._identity()))

    def __repr__(self) -> str:
        text = (f"LaunchConfig(grid={self._grid}, cluster={self._cluster}, block={self._block}, "
                f"shmem_size={self._shmem_size}, is_cooperative={self._cooperative}")
        if self._programmatic:
            text += ", programmatic_stream_serialization=True"
        return text + ")"


cpdef object _to_native_launch_config(LaunchConfig config):
    """``config`` as cuda.bindings' ``driver.CUlaunchConfig`` (grid in blocks, its launch
    attributes; no stream set), as the driver gets it at launch."""
    from cuda.bindings import driver
    cdef cydriver.CUlaunchConfig native
    cdef cydriver.CUlaunchAttribute attributes[MAX_LAUNCH_ATTRIBUTES]
    config.fill_native(&native, attributes, NULL, True)
    result = driver.CUlaunchConfig()
    result.gridDimX, result.gridDimY, result.gridDimZ = native.gridDimX, native.gridDimY, native.gridDimZ
    result.blockDimX, result.blockDimY, result.blockDimZ = native.blockDimX, native.blockDimY, native.blockDimZ
    result.sharedMemBytes = native.sharedMemBytes
    converted = []
    cdef unsigned int index
    for index in range(native.numAttrs):
        attribute = driver.CUlaunchAttribute()
        attribute.id = driver.CUlaunchAttributeID(<int>attributes[index].id)
        if attributes[index].id == cydriver.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            attribute.value.clusterDim.x = attributes[index].value.clusterDim.x
            attribute.value.clusterDim.y = attributes[index].value.clusterDim.y
            attribute.value.clusterDim.z = attributes[index].value.clusterDim.z
        elif attributes[index].id == cydriver.CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
            attribute.value.cooperative = attributes[index].value.cooperative
        else:
            attribute.value.programmaticStreamSerializationAllowed = \
                attributes[index].value.programmaticStreamSerializationAllowed
        converted.append(attribute)
    result.attrs = converted
    result.numAttrs = len(converted)
    return result
