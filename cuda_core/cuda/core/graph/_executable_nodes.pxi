# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The executable-node views of cuda.core.graph._subclasses (graph[node]): each pairs an
# executable Graph with a node of the definition it was instantiated from, and its update()
# changes the node for future launches (the driver checks that the node belongs to the graph).
#
# Included into _subclasses.pyx rather than compiled on its own: Cython names a cdef class's
# type after the module that compiles it, and NVIDIA's cuda.core has these classes in
# cuda.core.graph._subclasses, so they are compiled there (their __module__, repr and pickle
# name stay NVIDIA's). They use the node parameters _subclasses.pyx fills for the definition's
# nodes too (_fill_kernel, _fill_memset, _fill_memcpy, _operand, _event_handle).


cdef class ExecutableGraphNode:
    """A view pairing an executable Graph with a node of the definition it was instantiated
    from, made by ``graph[node]``; its ``update()`` changes the node for future launches
    (the driver checks that the node belongs to the graph)."""

    def __init__(self):
        raise RuntimeError("executable-node views are made with graph[node]")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} node={self._node!r}>"


cdef class _ExecutableSwitchableNode(ExecutableGraphNode):
    """The views whose node can be disabled in the executable graph (kernel, memset, memcpy)."""

    @property
    def is_enabled(self) -> bool:
        """Whether this node runs in the executable graph."""
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        cdef unsigned int enabled = 0
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphNodeGetEnabled(graph, node, &enabled))
        return enabled != 0

    def enable(self) -> None:
        """Run this node in future launches."""
        self._set_enabled(1)

    def disable(self) -> None:
        """Skip this node in future launches."""
        self._set_enabled(0)

    cdef int _set_enabled(self, unsigned int enabled) except -1:
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphNodeSetEnabled(graph, node, enabled))
        return 0


cdef class ExecutableKernelNode(_ExecutableSwitchableNode):
    """An executable kernel node."""

    def update(self, *, config, kernel, args) -> None:
        """Replace all the launch's parameters for future launches: ``args`` is the complete
        argument sequence (``()`` for none). Clustered and cooperative configurations are
        not supported."""
        _check_launch(config, kernel)
        args = tuple(args)
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        cdef cydriver.CUDA_KERNEL_NODE_PARAMS params
        cdef PackedArgs packed
        try:
            _fill_kernel(&params, <LaunchConfig>config, <Kernel>kernel, <tuple>args, &packed)
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphExecKernelNodeSetParams(graph, node, &params))
        finally:
            release_arguments(&packed)
        self._graph._keepalive.append((kernel, args))


cdef class ExecutableMemsetNode(_ExecutableSwitchableNode):
    """An executable memset node."""

    def update(self, *, dst, value, width: int, height: int = 1, pitch: int = 0) -> None:
        """Replace all the memset's parameters for future launches."""
        cdef list keep = []
        cdef cydriver.CUDA_MEMSET_NODE_PARAMS params
        _fill_memset(&params, _operand(dst, None, "dst", keep), value, width, height, pitch)
        cdef cydriver.CUcontext context = _current_context()
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphExecMemsetNodeSetParams(graph, node, &params, context))
        self._graph._keepalive.extend(keep)


cdef class ExecutableMemcpyNode(_ExecutableSwitchableNode):
    """An executable memcpy node."""

    def update(self, *, dst, src, size: int) -> None:
        """Replace all the (one-dimensional) copy's parameters for future launches."""
        cdef list keep = []
        cdef cydriver.CUDA_MEMCPY3D params
        _fill_memcpy(&params, _operand(dst, None, "dst", keep), _operand(src, None, "src", keep), size)
        cdef cydriver.CUcontext context = _current_context()
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphExecMemcpyNodeSetParams(graph, node, &params, context))
        self._graph._keepalive.extend(keep)


cdef class ExecutableChildGraphNode(ExecutableGraphNode):
    """An executable child graph node."""

    def update(self, child) -> None:
        """Run ``child`` (same topology as the embedded graph) in future launches."""
        if not isinstance(child, GraphDefinition):
            raise TypeError(f"child must be a GraphDefinition, not {type(child).__name__}")
        cdef cydriver.CUgraph child_graph = (<GraphDefinition>child)._live()
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphExecChildGraphNodeSetParams(graph, node, child_graph))
        self._graph._keepalive.extend((<GraphDefinition>child)._keepalive)


cdef class _ExecutableEventNode(ExecutableGraphNode):
    """What the executable event record and event wait views share: a new Event for future
    launches, kept alive by the graph."""

    def update(self, event) -> None:
        """Record (or wait on) ``event`` in future launches."""
        cdef cydriver.CUevent handle = _event_handle(event)
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        cdef bint record = isinstance(self, ExecutableEventRecordNode)
        with nogil:
            if record:
                HANDLE_RETURN(cydriver.cuGraphExecEventRecordNodeSetEvent(graph, node, handle))
            else:
                HANDLE_RETURN(cydriver.cuGraphExecEventWaitNodeSetEvent(graph, node, handle))
        self._graph._keepalive.append(event)


cdef class ExecutableEventRecordNode(_ExecutableEventNode):
    """An executable event record node."""


cdef class ExecutableEventWaitNode(_ExecutableEventNode):
    """An executable event wait node."""


cdef class ExecutableHostCallbackNode(ExecutableGraphNode):
    """An executable host callback node."""

    def update(self, fn, *, user_data=None) -> None:
        """Call ``fn`` (as :meth:`GraphNode.callback` takes it) in future launches. Callbacks
        must not call CUDA."""
        cdef list keep = []
        cdef cydriver.CUDA_HOST_NODE_PARAMS params
        resolve_host_callback(fn, user_data, &params.fn, &params.userData, keep)
        cdef cydriver.CUgraphExec graph = self._graph._live()
        cdef cydriver.CUgraphNode node = self._node._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphExecHostNodeSetParams(graph, node, &params))
        self._graph._keepalive.extend(keep)


cdef object executable_node(Graph graph, object node):
    if not isinstance(node, GraphNode):
        raise TypeError(f"graph[...] takes a GraphNode of the definition the graph came from, "
                        f"not {type(node).__name__}")
    if isinstance(node, KernelNode):
        view_type = ExecutableKernelNode
    elif isinstance(node, MemsetNode):
        view_type = ExecutableMemsetNode
    elif isinstance(node, MemcpyNode):
        view_type = ExecutableMemcpyNode
    elif isinstance(node, ChildGraphNode):
        view_type = ExecutableChildGraphNode
    elif isinstance(node, EventRecordNode):
        view_type = ExecutableEventRecordNode
    elif isinstance(node, EventWaitNode):
        view_type = ExecutableEventWaitNode
    elif isinstance(node, HostCallbackNode):
        view_type = ExecutableHostCallbackNode
    else:
        raise TypeError(f"{type(node).__name__} nodes cannot be updated in an executable graph")
    cdef ExecutableGraphNode view = view_type.__new__(view_type)
    view._graph = graph
    view._node = node
    return view
