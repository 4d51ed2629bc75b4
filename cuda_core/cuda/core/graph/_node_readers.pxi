# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Rebuilding a node of cuda.core.graph._subclasses from the driver's parameters, where a
# traversal met a node whose Python object is gone: its kernel or event is found again among
# what the definition keeps alive.
#
# Included into _subclasses.pyx rather than compiled on its own: it sets the node kinds' C
# fields, which only the module that compiles the classes reaches.


def _reconstruct(GraphDefinition definition, uintptr_t address):
    cdef cydriver.CUgraphNode handle = <cydriver.CUgraphNode>address
    cdef cydriver.CUgraphNodeType kind
    cdef cydriver.CUdeviceptr freed = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphNodeGetType(handle, &kind))
    if kind == cydriver.CU_GRAPH_NODE_TYPE_EMPTY:
        node = EmptyNode.__new__(EmptyNode)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_KERNEL:
        node = _kernel_from_driver(definition, handle)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        node = _alloc_from_driver(handle)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_MEM_FREE:
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphMemFreeNodeGetParams(handle, &freed))
        node = FreeNode.__new__(FreeNode)
        (<FreeNode>node)._dptr = freed
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_MEMSET:
        node = _memset_from_driver(handle)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_MEMCPY:
        node = _memcpy_from_driver(handle)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_GRAPH:
        node = ChildGraphNode.__new__(ChildGraphNode)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_EVENT_RECORD or kind == cydriver.CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        node = _event_from_driver(definition, handle, kind == cydriver.CU_GRAPH_NODE_TYPE_EVENT_RECORD)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_HOST:
        node = _host_from_driver(handle)
    elif kind == cydriver.CU_GRAPH_NODE_TYPE_CONDITIONAL:
        node = ConditionalNode.__new__(ConditionalNode)  # its parameters need CUDA 13.2
    else:
        node = GraphNode.__new__(GraphNode)  # a kind graph definitions do not make
    attach_node(node, definition, handle)
    return node


cdef KernelNode _kernel_from_driver(GraphDefinition definition, cydriver.CUgraphNode handle):
    cdef cydriver.CUDA_KERNEL_NODE_PARAMS params
    c_memset(&params, 0, sizeof(params))
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphKernelNodeGetParams(handle, &params))
    cdef KernelNode node = KernelNode.__new__(KernelNode)
    node._grid = (params.gridDimX, params.gridDimY, params.gridDimZ)
    node._block = (params.blockDimX, params.blockDimY, params.blockDimZ)
    node._shmem_size = params.sharedMemBytes
    node._kernel = _find_kernel(definition._keepalive, params.kern, params.func)
    return node


cdef AllocNode _alloc_from_driver(cydriver.CUgraphNode handle):
    cdef cydriver.CUDA_MEM_ALLOC_NODE_PARAMS params
    cdef size_t i
    c_memset(&params, 0, sizeof(params))
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphMemAllocNodeGetParams(handle, &params))
    cdef AllocNode node = AllocNode.__new__(AllocNode)
    node._dptr = params.dptr
    node._bytesize = params.bytesize
    node._device_id = params.poolProps.location.id
    node._memory_type = "device"
    if params.poolProps.location.type == cydriver.CU_MEM_LOCATION_TYPE_HOST:
        node._memory_type = "host"
        node._device_id = max(current_device(), 0)
    elif COMPAT_HAS_MANAGED_POOLS and params.poolProps.allocType == compat_managed_allocation_type():
        node._memory_type = "managed"
    node._peer_access = tuple(params.accessDescs[i].location.id for i in range(params.accessDescCount)
                              if params.accessDescs[i].location.id != node._device_id)
    return node


cdef MemsetNode _memset_from_driver(cydriver.CUgraphNode handle):
    cdef cydriver.CUDA_MEMSET_NODE_PARAMS params
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphMemsetNodeGetParams(handle, &params))
    cdef MemsetNode node = MemsetNode.__new__(MemsetNode)
    node._set(&params)
    return node


cdef MemcpyNode _memcpy_from_driver(cydriver.CUgraphNode handle):
    cdef cydriver.CUDA_MEMCPY3D params
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphMemcpyNodeGetParams(handle, &params))
    cdef MemcpyNode node = MemcpyNode.__new__(MemcpyNode)
    node._dst = _copy_address(params.dstMemoryType, params.dstDevice, params.dstHost)
    node._src = _copy_address(params.srcMemoryType, params.srcDevice, params.srcHost)
    node._size = params.WidthInBytes
    return node


cdef GraphNode _event_from_driver(GraphDefinition definition, cydriver.CUgraphNode handle, bint record):
    cdef cydriver.CUevent event = NULL
    with nogil:
        if record:
            HANDLE_RETURN(cydriver.cuGraphEventRecordNodeGetEvent(handle, &event))
        else:
            HANDLE_RETURN(cydriver.cuGraphEventWaitNodeGetEvent(handle, &event))
    cdef _EventNode node = EventRecordNode.__new__(EventRecordNode) if record else EventWaitNode.__new__(EventWaitNode)
    node._event = _find_event(definition._keepalive, event)
    return node


cdef HostCallbackNode _host_from_driver(cydriver.CUgraphNode handle):
    cdef cydriver.CUDA_HOST_NODE_PARAMS params
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphHostNodeGetParams(handle, &params))
    cdef HostCallbackNode node = HostCallbackNode.__new__(HostCallbackNode)
    # The trampoline's userData is the callable, kept alive by the definition.
    node._callable = <object>params.userData if is_python_trampoline(params.fn) else None
    return node
