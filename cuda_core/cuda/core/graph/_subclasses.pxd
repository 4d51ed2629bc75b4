# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The node kinds of cuda.core.graph and their executable views (contract between its modules,
# and the C layout of the classes for ``cimport``).
cimport cuda.bindings.cydriver as cydriver
from cuda.core._launch_config cimport LaunchConfig
from cuda.core._module cimport Kernel
from cuda.core.graph._graph_builder cimport Graph
from cuda.core.graph._graph_node cimport GraphNode


cdef class EmptyNode(GraphNode):
    pass


cdef class KernelNode(GraphNode):
    cdef tuple _grid
    cdef tuple _block
    cdef unsigned int _shmem_size
    cdef object _kernel
    cdef object _config
    cdef tuple _args    # None when rebuilt from the driver

    # Remember the launch the node was made or updated with.
    cdef int _set(self, LaunchConfig config, Kernel kernel, tuple args) except -1


cdef class AllocNode(GraphNode):
    cdef cydriver.CUdeviceptr _dptr
    cdef size_t _bytesize
    cdef int _device_id
    cdef str _memory_type
    cdef tuple _peer_access


cdef class FreeNode(GraphNode):
    cdef cydriver.CUdeviceptr _dptr


cdef class MemsetNode(GraphNode):
    cdef cydriver.CUdeviceptr _dptr
    cdef unsigned int _value
    cdef unsigned int _element_size
    cdef size_t _width
    cdef size_t _height
    cdef size_t _pitch

    # Remember the parameters the node was made or updated with.
    cdef int _set(self, cydriver.CUDA_MEMSET_NODE_PARAMS* params) except -1


cdef class MemcpyNode(GraphNode):
    cdef cydriver.CUdeviceptr _dst
    cdef cydriver.CUdeviceptr _src
    cdef size_t _size


cdef class ChildGraphNode(GraphNode):
    cdef object _child   # the view, made on first use


cdef class _EventNode(GraphNode):
    cdef object _event


cdef class EventRecordNode(_EventNode):
    pass


cdef class EventWaitNode(_EventNode):
    pass


cdef class HostCallbackNode(GraphNode):
    cdef object _callable


cdef class ConditionalNode(GraphNode):
    cdef object _condition
    cdef object _cond_type
    cdef tuple _branches


cdef class IfNode(ConditionalNode):
    pass


cdef class IfElseNode(ConditionalNode):
    pass


cdef class WhileNode(ConditionalNode):
    pass


cdef class SwitchNode(ConditionalNode):
    pass


cdef class ExecutableGraphNode:
    cdef Graph _graph
    cdef GraphNode _node


cdef class _ExecutableSwitchableNode(ExecutableGraphNode):
    # Enable (1) or disable (0) the node in the executable graph.
    cdef int _set_enabled(self, unsigned int enabled) except -1


cdef class ExecutableKernelNode(_ExecutableSwitchableNode):
    pass


cdef class ExecutableMemsetNode(_ExecutableSwitchableNode):
    pass


cdef class ExecutableMemcpyNode(_ExecutableSwitchableNode):
    pass


cdef class ExecutableChildGraphNode(ExecutableGraphNode):
    pass


cdef class _ExecutableEventNode(ExecutableGraphNode):
    pass


cdef class ExecutableEventRecordNode(_ExecutableEventNode):
    pass


cdef class ExecutableEventWaitNode(_ExecutableEventNode):
    pass


cdef class ExecutableHostCallbackNode(ExecutableGraphNode):
    pass


# The executable view (an ExecutableGraphNode subclass, per the node's kind) of ``node`` (a
# GraphNode of the definition ``graph`` was instantiated from).
cdef object executable_node(Graph graph, object node)
