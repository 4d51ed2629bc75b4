# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Device resources: a device's or context's SMs and work queues, the parts green contexts are made of.
cimport cuda.bindings.cydriver as cydriver
from cuda.core._context cimport Context


cdef class SMResource:
    cdef:
        cydriver.CUdevResource _resource
        int _device_id
        bint _usable          # False for the groups of a dry-run split: no context can be made of them
        object __weakref__


cdef class WorkqueueResource:
    cdef:
        cydriver.CUdevResource _config   # CU_DEV_RESOURCE_TYPE_WORKQUEUE_CONFIG: what configure() sets
        cydriver.CUdevResource _queue    # CU_DEV_RESOURCE_TYPE_WORKQUEUE: the existing work queue
        int _device_id
        object __weakref__


cdef class DeviceResources:
    cdef:
        int _device_id
        Context _context      # None for a device's resources
        object __weakref__

    # Fill ``resource`` with this device's or context's resource of ``kind``.
    cdef int _query(self, cydriver.CUdevResource* resource, cydriver.CUdevResourceType kind) except -1


# The resources of ``device_id`` (Device.resources).
cdef DeviceResources device_resources(int device_id)
