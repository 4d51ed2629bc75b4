# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
cimport cuda.bindings.cydriver as cydriver

cdef enum:
    # The most launch attributes a LaunchConfig needs: cluster, cooperative, PDL.
    MAX_LAUNCH_ATTRIBUTES = 3


cdef class LaunchConfig:
    cdef tuple _grid                   # as given, in clusters when a cluster is set
    cdef tuple _cluster                # None: no cluster
    cdef tuple _block
    cdef unsigned int _shmem_size
    cdef bint _cooperative
    cdef bint _programmatic
    # What the driver gets, kept in step with the fields above by their setters:
    # grid x, y, z in blocks, then block x, y, z, as cuLaunchKernel takes them.
    cdef unsigned int dims[6]
    cdef unsigned int cluster_dims[3]  # the cluster's x, y, z (1s without a cluster)
    # How many launch attributes a launch needs: 0 takes the plain cuLaunchKernel path.
    cdef int num_attributes
    cdef object __weakref__

    # Take a checked grid, cluster (or None) and block; compute dims (all or nothing).
    cdef int _set_shape(self, tuple grid, object cluster, tuple block) except -1
    # Recompute num_attributes from the flags and the cluster.
    cdef int _update(self) except -1

    # Fill ``native`` (and ``attributes``, MAX_LAUNCH_ATTRIBUTES long, which it points to)
    # for cuLaunchKernelEx or the cluster occupancy queries on ``stream``.
    cdef int fill_native(self, cydriver.CUlaunchConfig* native, cydriver.CUlaunchAttribute* attributes,
                         cydriver.CUstream stream, bint with_cluster) except -1


cpdef object _to_native_launch_config(LaunchConfig config)
