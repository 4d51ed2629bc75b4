# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.graph GraphBuilder and Graph: CUDA graphs built by stream capture, and
executable graphs.

A GraphBuilder captures the work queued on its stream (cuStreamBeginCapture) into a CUDA
graph. The builders of one capture form a family: the primary builder (from
Device/Stream.create_graph_builder), the builders split() off it (each on a stream of its
own that joined the capture), and the builders of conditional bodies (each capturing into a
body graph with cuStreamBeginCaptureToGraph). The family shares one _CaptureRoot: the
captured CUgraph once the primary ends building, and the list of objects its nodes need
alive (host callbacks, embedded graphs' objects, nodes added through graph_definition).
A Graph (the CUgraphExec) keeps a copy of that list.
"""

import os
from dataclasses import dataclass

cimport cython
from libc.string cimport memset

cimport cuda.bindings.cydriver as cydriver
from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN
from cuda.core.graph._graph_definition cimport GraphCondition, GraphDefinition, new_condition, wrap_graph
from cuda.core.graph._graph_node cimport attach, drain_released_attachments, keep_for_clone, pass_to_main_thread
from cuda.core.graph._host_callback cimport resolve_host_callback
from cuda.core.graph._subclasses cimport executable_node

from cuda.core._utils.cuda_utils import CUDAError

# compat_capture_info, compat_capture_add_node, compat_capture_set_dependencies: the capture
# calls whose edge-data arguments differ between CUDA 12 and 13.
include "driver_compat.pxi"

__all__ = ['Graph', 'GraphBuilder', 'GraphCompleteOptions', 'GraphDebugPrintOptions']


# ---------------------------------------------------------------------------------------------
# Options

@dataclass
class GraphDebugPrintOptions:
    """What debug_dot_print() writes besides the graph's topology: each field, when True,
    adds that detail (``verbose`` adds all of them)."""

    verbose: bool = False
    runtime_types: bool = False
    kernel_node_params: bool = False
    memcpy_node_params: bool = False
    memset_node_params: bool = False
    host_node_params: bool = False
    event_node_params: bool = False
    ext_semas_signal_node_params: bool = False
    ext_semas_wait_node_params: bool = False
    kernel_node_attributes: bool = False
    handles: bool = False
    mem_alloc_node_params: bool = False
    mem_free_node_params: bool = False
    batch_mem_op_node_params: bool = False
    extra_topo_info: bool = False
    conditional_node_params: bool = False

    def _to_flags(self) -> int:
        """The CU_GRAPH_DEBUG_DOT_FLAGS bits of the fields set."""
        return sum(flag for name, flag in _DOT_FLAGS.items() if getattr(self, name))


_DOT_FLAGS = {
    "verbose": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE,
    "runtime_types": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
    "kernel_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_PARAMS,
    "memcpy_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS,
    "memset_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS,
    "host_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS,
    "event_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS,
    "ext_semas_signal_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_SIGNAL_NODE_PARAMS,
    "ext_semas_wait_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_WAIT_NODE_PARAMS,
    "kernel_node_attributes": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_ATTRIBUTES,
    "handles": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES,
    "mem_alloc_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS,
    "mem_free_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS,
    "batch_mem_op_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_BATCH_MEM_OP_NODE_PARAMS,
    "extra_topo_info": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_EXTRA_TOPO_INFO,
    "conditional_node_params": cydriver.CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS,
}


@dataclass
class GraphCompleteOptions:
    """How a graph is instantiated: ``auto_free_on_launch`` frees the graph's allocations
    still live before each relaunch; ``upload_stream`` uploads the graph on that stream right
    away; ``device_launch`` makes it launchable from device code (not with
    auto_free_on_launch); ``use_node_priority`` runs nodes at their own priority attributes
    instead of the launch stream's."""

    auto_free_on_launch: bool = False
    upload_stream: Stream | None = None
    device_launch: bool = False
    use_node_priority: bool = False


# ---------------------------------------------------------------------------------------------
# Helpers

cdef enum:
    # What a builder is to its family.
    _PRIMARY = 0    # made by Device/Stream.create_graph_builder: owns the capture
    _FORKED = 1     # made by split(): a stream that joined its parent's capture
    _BODY = 2       # made by a conditional: captures into a body graph of its own

cdef enum:
    # Where a builder is in its life.
    _NEW = 0
    _BUILDING = 1
    _BUILT = 2
    _CLOSED = 3

_MODES = {
    "global": cydriver.CU_STREAM_CAPTURE_MODE_GLOBAL,
    "thread_local": cydriver.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
    "relaxed": cydriver.CU_STREAM_CAPTURE_MODE_RELAXED,
}

# Why cuGraphExecUpdate refused a source graph, by CUgraphExecUpdateResult.
_UPDATE_FAILURES = {
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR: "the graph could not be updated",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED: "the source graph's topology differs from this graph's",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED: "a node of the source graph has a different type",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED: "a kernel node's function changed in a way that "
                                                          "cannot be updated",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED: "a node's parameters changed in a way that cannot "
                                                            "be updated",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED: "something in the source graph cannot be updated",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE: "a kernel node's function changed to one "
                                                                     "of another context or device",
    cydriver.CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED: "a node's attributes changed in a way that cannot "
                                                            "be updated",
}


cdef int _driver_version() except -1:
    cdef int version = 0
    with nogil:
        HANDLE_RETURN(cydriver.cuDriverGetVersion(&version))
    return version


cdef int _require_driver(int needed, str what) except -1:
    """RuntimeError (starting "Driver version") when the driver is older than ``needed``."""
    cdef int version = _driver_version()
    if version < needed:
        raise RuntimeError(f"Driver version {version // 1000}.{version % 1000 // 10} does not support {what}: "
                           f"it needs a CUDA {needed // 1000}.{needed % 1000 // 10} or newer driver")
    return 0


cdef Stream _stream_of(object stream):
    """The Stream of a Stream, a GraphBuilder or (deprecated) a ``__cuda_stream__`` object."""
    if isinstance(stream, Stream):
        return <Stream>stream
    if isinstance(stream, GraphBuilder):
        return (<GraphBuilder>stream)._live_stream()
    return Stream_accept(stream, True)


cdef Stream _sibling_stream(Stream stream):
    """A new stream (owned by the caller) in the context of ``stream``."""
    return Stream._init(None, None, stream._current_device_id(), stream.context)


cdef int _join_streams(Stream waiter, Stream waited) except -1:
    """Order the work queued from now on ``waiter`` after all work queued so far on
    ``waited``; in a capture, this makes ``waiter`` join ``waited``'s capture (a fork) or
    brings ``waited``'s captured work back into ``waiter``'s (a join)."""
    cdef cydriver.CUevent event = NULL
    cdef cydriver.CUstream waiter_handle = waiter._live_handle()
    cdef cydriver.CUstream waited_handle = waited._live_handle()
    with nogil:
        HANDLE_RETURN(cydriver.cuEventCreate(&event, cydriver.CU_EVENT_DISABLE_TIMING))
        try:
            HANDLE_RETURN(cydriver.cuEventRecord(event, waited_handle))
            HANDLE_RETURN(cydriver.cuStreamWaitEvent(waiter_handle, event, 0))
        finally:
            cydriver.cuEventDestroy(event)
    return 0


@cython.final
cdef class _CaptureRoot:
    """What the builders of one capture share: the captured CUgraph (destroyed with the last
    holder: the builders, their graph_definition views) and what its nodes need alive."""

    cdef cydriver.CUgraph graph     # NULL until the primary builder ends building
    cdef list keepalive

    def __cinit__(self):
        self.keepalive = []

    def __dealloc__(self):
        cdef cydriver.CUgraph graph = self.graph
        self.graph = NULL
        # What captured nodes keep is finalized on the main thread (see GraphDefinition's).
        _held = pass_to_main_thread(self.keepalive)
        self.keepalive = None
        if graph != NULL:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuGraphDestroy(graph)


cdef GraphBuilder _new_builder(Stream stream, bint owns_stream, int kind, _CaptureRoot root, GraphBuilder parent):
    cdef GraphBuilder builder = GraphBuilder.__new__(GraphBuilder)
    builder._stream = stream
    builder._owns_stream = owns_stream
    builder._kind = kind
    builder._state = _BUILDING if kind == _FORKED else _NEW
    builder._root = root
    builder._parent = parent
    builder._retired = []
    return builder


# ---------------------------------------------------------------------------------------------
# GraphBuilder

@cython.no_gc_clear  # __dealloc__ ends an orphaned capture: it needs _stream
cdef class GraphBuilder:
    """A CUDA graph built by stream capture: work queued on the builder (``launch(gb, ...)``,
    copies and allocations given ``stream=gb``) between begin_building() and end_building()
    becomes the graph's nodes; complete() instantiates it as a Graph.

    Get one from ``Device.create_graph_builder()`` or ``Stream.create_graph_builder()``.
    Captured work references its operands without owning them (keep Buffers alive while the
    graph may run); host callbacks are the exception, kept alive with the graph."""

    cdef Stream _stream
    cdef bint _owns_stream
    cdef int _kind
    cdef int _state
    cdef _CaptureRoot _root
    cdef GraphBuilder _parent         # a fork's capturing builder; a body's conditional's builder
    cdef cydriver.CUgraph _body       # a body builder's graph (owned by the root graph)
    cdef list _retired                # streams of forks joined back, closed when this capture ends
    cdef object _definition           # graph_definition's view, once made
    cdef object __weakref__

    def __init__(self):
        raise RuntimeError("GraphBuilder objects cannot be instantiated directly: use "
                           "Device.create_graph_builder() or Stream.create_graph_builder()")

    @staticmethod
    def _init(stream, owns_stream=False):
        """A primary builder capturing ``stream`` (closed with the builder if it owns it)."""
        if not isinstance(stream, Stream):
            raise TypeError(f"a GraphBuilder captures a Stream, got {type(stream).__name__}")
        return _new_builder(<Stream>stream, owns_stream, _PRIMARY, _CaptureRoot(), None)

    # -- state ------------------------------------------------------------------------------

    cdef int _check_open(self) except -1:
        if self._state == _CLOSED:
            raise RuntimeError("Graph builder has been closed.")
        return 0

    cdef int _check_building(self, str what) except -1:
        self._check_open()
        if self._state != _BUILDING:
            raise RuntimeError(f"Graph builder must be building before {what}: call begin_building() first.")
        return 0

    cdef Stream _live_stream(self):
        self._check_open()
        return self._stream

    cdef GraphBuilder _capturer(self):
        """The builder whose capture this one takes part in (a fork's parent, else itself)."""
        return self._parent if self._kind == _FORKED else self

    cdef cydriver.CUgraph _built_graph(self) except? NULL:
        """The graph this builder captured into (NULL for a primary that has not ended)."""
        if self._kind == _BODY:
            return self._body
        return self._root.graph if self._root is not None else NULL

    cdef int _close_retired(self) except -1:
        retired, self._retired = self._retired, []
        for stream in retired:
            (<Stream>stream).close()
        return 0

    cdef int _end_capture(self, bint check) except -1:
        """End this builder's capture; the graph a primary captured goes to the root. Without
        ``check`` (closing, collection), errors are dropped: the capture just must not outlive
        the builder, or the stream would stay unusable."""
        cdef cydriver.CUgraph graph = NULL
        cdef cydriver.CUstream handle = self._stream._handle
        cdef cydriver.CUresult result
        with nogil:
            result = cydriver.cuStreamEndCapture(handle, &graph)
        if result == cydriver.CUDA_SUCCESS and self._kind == _PRIMARY and check:
            self._root.graph = graph
        elif graph != NULL and self._kind == _PRIMARY:
            with nogil:
                cydriver.cuGraphDestroy(graph)
        if check:
            HANDLE_RETURN(result)
        return 0

    @property
    def is_closed(self) -> bool:
        """Whether close() ran (or join() folded this builder into another)."""
        return self._state == _CLOSED

    @property
    def stream(self) -> Stream:
        """The stream this builder captures."""
        return self._live_stream()

    @property
    def is_building(self) -> bool:
        """Whether the builder is capturing (between begin_building and end_building)."""
        return self._state == _BUILDING

    @property
    def is_join_required(self) -> bool:
        """Whether this builder came from split() and must be joined before the capture ends."""
        return self._kind == _FORKED

    def _keep_alive(self, obj) -> None:
        """Keep ``obj`` (a kernel launched, a buffer allocated in the capture) alive with the
        graphs made from this capture."""
        self._check_open()
        self._root.keepalive.append(obj)

    def __cuda_stream__(self) -> tuple[int, int]:
        """The stream protocol: (0, the address of the captured CUstream)."""
        return self._live_stream().__cuda_stream__()

    # -- capture ----------------------------------------------------------------------------

    def begin_building(self, mode="relaxed") -> GraphBuilder:
        """Start capturing the builder's stream. ``mode`` says which potentially unsafe API
        calls (e.g. synchronous allocation) the capture forbids: "global" in every thread,
        "thread_local" in this thread, "relaxed" none. Returns the builder."""
        if not isinstance(mode, str) or mode not in _MODES:
            raise ValueError(f"Unsupported build mode: {mode!r}; use 'global', 'thread_local' or 'relaxed'")
        self._check_open()
        if self._state == _BUILDING:
            raise RuntimeError("Graph builder is already building.")
        if self._state == _BUILT:
            raise RuntimeError("Cannot resume building after building has ended.")
        cdef cydriver.CUstreamCaptureMode capture_mode = <cydriver.CUstreamCaptureMode><int>_MODES[mode]
        cdef cydriver.CUstream handle = self._stream._live_handle()
        cdef cydriver.CUgraph body = self._body
        if self._kind == _BODY:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamBeginCaptureToGraph(handle, body, NULL, NULL, 0, capture_mode))
        else:
            with nogil:
                HANDLE_RETURN(cydriver.cuStreamBeginCapture(handle, capture_mode))
        self._state = _BUILDING
        return self

    def end_building(self) -> GraphBuilder:
        """Stop capturing; the graph is then complete()-able. Every builder split off this one
        must have been joined back. Returns the builder."""
        self._check_open()
        if self._kind == _FORKED:
            raise RuntimeError("A graph builder made by split() cannot end building: join it back with "
                               "GraphBuilder.join() and end building on the joined builder.")
        if self._state != _BUILDING:
            raise RuntimeError("Graph builder is not building: call begin_building() first.")
        self._stream._live_handle()
        try:
            self._end_capture(True)
        finally:
            # The capture is over either way: the driver ended it, or invalidated it.
            self._state = _BUILT
            self._close_retired()
        return self

    def complete(self, options=None) -> Graph:
        """Instantiate the captured graph (after end_building) as an executable Graph, made
        with ``options``. The builder stays usable: complete() may be called again."""
        self._check_open()
        if self._state != _BUILT:
            raise RuntimeError("Graph has not finished building.")
        cdef cydriver.CUgraph graph = self._built_graph()
        if graph == NULL:
            raise RuntimeError("Graph has not finished building: its capture failed.")
        return _instantiate(graph, options, self._root.keepalive)

    def debug_dot_print(self, path, options=None) -> None:
        """Write the captured graph (after end_building) to ``path`` in Graphviz DOT form,
        with the details ``options`` asks for."""
        self._check_open()
        if options is not None and not isinstance(options, GraphDebugPrintOptions):
            raise TypeError(f"options must be a GraphDebugPrintOptions or None, got {type(options).__name__}")
        cdef unsigned int flags = 0 if options is None else options._to_flags()
        cdef bytes encoded = os.fsencode(path)
        cdef const char* c_path = encoded
        if self._state != _BUILT or self._built_graph() == NULL:
            raise RuntimeError("Graph has not finished building.")
        cdef cydriver.CUgraph graph = self._built_graph()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphDebugDotPrint(graph, c_path, flags))

    def close(self) -> None:
        """Let go of the builder: a capture still running is ended and dropped, and a stream
        the builder made is destroyed. Views from graph_definition stay valid. Closing again
        does nothing."""
        drain_released_attachments()
        if self._state == _CLOSED:
            return
        if self._kind == _FORKED:
            self._retire()
            return
        try:
            if self._state == _BUILDING:
                self._end_capture(False)
        finally:
            self._state = _CLOSED
            self._close_retired()
            if self._owns_stream:
                self._stream.close()
            self._root = None

    def __dealloc__(self):
        # A builder dropped mid-capture: end the capture, or its stream stays unusable.
        if self._state == _BUILDING and self._kind != _FORKED and self._stream is not None \
                and not self._stream._closed:
            try:
                self._end_capture(False)
            except Exception:
                pass

    cdef int _retire(self) except -1:
        """Close a forked builder whose work was joined into another: its stream still takes
        part in the capture, so it is closed when the capture ends (by the capturing builder)."""
        cdef GraphBuilder capturer = self._parent
        self._state = _CLOSED
        if self._owns_stream:
            if capturer._state == _BUILDING:
                capturer._retired.append(self._stream)
            else:
                self._stream.close()
        return 0

    # -- forks ------------------------------------------------------------------------------

    def split(self, count) -> tuple[GraphBuilder, ...]:
        """Fork the capture into ``count`` builders (>= 2): this one first, then new ones, each
        on a stream of its own, all ordered after the work captured so far. Join them back
        with GraphBuilder.join() before end_building()."""
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"split count must be an int, got {type(count).__name__}")
        self._check_open()
        if self._state != _BUILDING:
            raise RuntimeError("Graph builder must be building before it can be split.")
        if count < 2:
            raise ValueError(f"Invalid split count: expecting >= 2, got {count}")
        cdef GraphBuilder capturer = self._capturer()
        builders = [self]
        cdef Stream stream
        for _ in range(count - 1):
            stream = _sibling_stream(self._stream)
            try:
                _join_streams(stream, self._stream)
            except BaseException:
                stream.close()
                raise
            builders.append(_new_builder(stream, True, _FORKED, self._root, capturer))
        return tuple(builders)

    @staticmethod
    def join(*graph_builders) -> GraphBuilder:
        """Join builders of one capture into one: the returned builder (the first that needs no
        join, else the first given) is ordered after the work of all of them; the others are
        closed."""
        if len(graph_builders) < 2:
            raise ValueError(f"Must join with at least two graph builders, got {len(graph_builders)}")
        cdef GraphBuilder builder
        for candidate in graph_builders:
            if not isinstance(candidate, GraphBuilder):
                raise TypeError(f"join() takes GraphBuilders, got {type(candidate).__name__}")
        for candidate in graph_builders:
            builder = <GraphBuilder>candidate
            builder._check_open()
            if builder._state != _BUILDING:
                raise RuntimeError("Every graph builder to join must be building.")
        cdef GraphBuilder target = next((b for b in graph_builders if not (<GraphBuilder>b)._kind == _FORKED),
                                        graph_builders[0])
        cdef GraphBuilder capturer = target._capturer()
        for candidate in graph_builders:
            if (<GraphBuilder>candidate)._capturer() is not capturer:
                raise ValueError("Graph builders to join must take part in the same capture (split from "
                                 "one builder).")
        for candidate in graph_builders:
            if candidate is not target:
                _join_streams(target._stream, (<GraphBuilder>candidate)._stream)
                (<GraphBuilder>candidate)._retire()
        return target

    # -- nodes added through the capture ----------------------------------------------------

    def _get_conditional_context(self):
        """The CUcontext conditional nodes of this builder belong to (its stream's)."""
        from cuda.bindings import driver
        return driver.CUcontext(<size_t>self._live_stream()._current_context())

    cdef int _capture_info(self, cydriver.CUgraph* graph, const cydriver.CUgraphNode** dependencies,
                           const cydriver.CUgraphEdgeData** edges, size_t* count) except -1:
        """The graph the builder's stream is capturing into right now, and the capture's
        current dependencies; a RuntimeError when the capture is not active."""
        cdef cydriver.CUstreamCaptureStatus status
        cdef cydriver.CUstream handle = self._stream._live_handle()
        graph[0] = NULL
        with nogil:
            HANDLE_RETURN(compat_capture_info(handle, &status, graph, dependencies, edges, count))
        if status != cydriver.CU_STREAM_CAPTURE_STATUS_ACTIVE or graph[0] == NULL:
            raise RuntimeError("The graph builder's stream is not capturing (its capture was invalidated).")
        return 0

    cdef cydriver.CUgraph _capture_graph(self) except NULL:
        """The graph the builder's stream is capturing into right now."""
        cdef cydriver.CUgraph graph = NULL
        cdef const cydriver.CUgraphNode* dependencies = NULL
        cdef const cydriver.CUgraphEdgeData* edges = NULL
        cdef size_t count = 0
        self._capture_info(&graph, &dependencies, &edges, &count)
        return graph

    cdef int _add_captured_node(self, cydriver.CUgraphNodeParams* params, cydriver.CUgraphNode* node) except -1:
        """Add a node after the capture's current dependencies, and make it their successor:
        the stream's next captured work depends on it."""
        cdef cydriver.CUgraph graph = NULL
        cdef const cydriver.CUgraphNode* dependencies = NULL
        cdef const cydriver.CUgraphEdgeData* edges = NULL
        cdef size_t count = 0
        cdef cydriver.CUstream handle = self._stream._live_handle()
        self._capture_info(&graph, &dependencies, &edges, &count)
        with nogil:
            HANDLE_RETURN(compat_capture_add_node(node, graph, dependencies, edges, count, params))
            HANDLE_RETURN(compat_capture_set_dependencies(handle, node, 1))
        return 0

    def create_condition(self, default_value=None) -> GraphCondition:
        """A condition for this capture's conditional nodes (if_then, if_else, switch,
        while_loop), set by device code with cudaGraphSetConditional; each launch of the
        graph starts it at ``default_value`` (None: no default is assigned)."""
        self._check_building("it can create a condition")
        _require_driver(12030, "conditional graph nodes")
        cdef unsigned int flags = 0
        cdef unsigned int value = 0
        if default_value is not None:
            flags = cydriver.CU_GRAPH_COND_ASSIGN_DEFAULT
            # A Python or numpy bool or int; a ctypes scalar gives its .value.
            value = int(getattr(default_value, "value", default_value))
        cdef cydriver.CUgraph graph = self._capture_graph()
        cdef cydriver.CUcontext context = self._stream._current_context()
        cdef cydriver.CUgraphConditionalHandle handle = 0
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphConditionalHandleCreate(&handle, graph, context, value, flags))
        return new_condition(handle, self)

    cdef int _check_condition(self, object condition) except -1:
        """A TypeError for a non-condition; a ValueError for one made for another graph (the
        driver's conditional node must live in the graph its handle was created for)."""
        if not isinstance(condition, GraphCondition):
            raise TypeError(f"condition must be a GraphCondition (from create_condition()), "
                            f"got {type(condition).__name__}")
        owner = (<GraphCondition>condition)._graph
        if isinstance(owner, GraphBuilder):
            if (<GraphBuilder>owner)._capturer() is self._capturer():
                return 0
        elif isinstance(owner, GraphDefinition):
            if (<GraphDefinition>owner)._graph == self._capture_graph():
                return 0
        raise ValueError("This condition belongs to another graph: a conditional node can only use a condition "
                         "made by create_condition() on a builder capturing the same graph.")

    cdef tuple _add_conditional(self, object condition, cydriver.CUgraphConditionalNodeType kind,
                                unsigned int size):
        """Add a conditional node of ``kind`` with ``size`` bodies; a builder for each body."""
        self._check_building("it can add a conditional")
        self._check_condition(condition)
        cdef cydriver.CUgraphNodeParams params
        cdef cydriver.CUgraphNode node = NULL
        memset(&params, 0, sizeof(params))
        params.type = cydriver.CU_GRAPH_NODE_TYPE_CONDITIONAL
        params.conditional.handle = (<GraphCondition>condition)._handle
        params.conditional.type = kind
        params.conditional.size = size
        params.conditional.ctx = self._stream._current_context()
        self._add_captured_node(&params, &node)
        # The driver points phGraph_out at its own array of the bodies, valid as long as the node.
        cdef const cydriver.CUgraph* bodies = params.conditional.phGraph_out
        # The bodies' nodes keep their records as long as the node (destroyed through a view).
        attach(self._capture_graph(), node, self._root.keepalive, [], tuple([<size_t>bodies[i] for i in range(size)]))
        return tuple([self._body_builder(bodies[i]) for i in range(size)])

    cdef GraphBuilder _body_builder(self, cydriver.CUgraph body):
        cdef GraphBuilder builder = _new_builder(_sibling_stream(self._stream), True, _BODY, self._root, self)
        builder._body = body
        return builder

    def if_then(self, condition) -> GraphBuilder:
        """Add a node running a body when ``condition`` is non-zero; returns the body's builder
        (capture into it with begin_building, or fill it through its graph_definition)."""
        return self._add_conditional(condition, cydriver.CU_GRAPH_COND_TYPE_IF, 1)[0]

    def if_else(self, condition) -> tuple[GraphBuilder, GraphBuilder]:
        """Add a node running the first body when ``condition`` is non-zero, else the second;
        returns the builders of both bodies."""
        self._check_building("it can add a conditional")
        _require_driver(12080, "if-else conditional nodes")
        return self._add_conditional(condition, cydriver.CU_GRAPH_COND_TYPE_IF, 2)

    def switch(self, condition, count) -> tuple[GraphBuilder, ...]:
        """Add a node running body number ``condition`` out of ``count`` (none when out of
        range); returns the builders of the bodies."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"switch count must be a positive int, got {count!r}")
        self._check_building("it can add a conditional")
        _require_driver(12080, "switch conditional nodes")
        return self._add_conditional(condition, cydriver.CU_GRAPH_COND_TYPE_SWITCH, count)

    def while_loop(self, condition) -> GraphBuilder:
        """Add a node running a body again and again while ``condition`` is non-zero (checked
        before each run); returns the body's builder."""
        return self._add_conditional(condition, cydriver.CU_GRAPH_COND_TYPE_WHILE, 1)[0]

    def embed(self, child) -> None:
        """Add the graph ``child`` built (after its end_building) as a child graph node: a copy
        of it runs at this point of the capture."""
        if not isinstance(child, GraphBuilder):
            raise TypeError(f"embed() takes a GraphBuilder, got {type(child).__name__}")
        self._check_building("it can embed a graph")
        cdef GraphBuilder source = <GraphBuilder>child
        source._check_open()
        if source._state != _BUILT or source._built_graph() == NULL:
            raise RuntimeError("The child graph builder has not finished building: call its end_building() first.")
        cdef cydriver.CUgraphNodeParams params
        cdef cydriver.CUgraphNode node = NULL
        memset(&params, 0, sizeof(params))
        params.type = cydriver.CU_GRAPH_NODE_TYPE_GRAPH
        params.graph.graph = source._built_graph()   # ownership 0: the driver clones it
        self._add_captured_node(&params, &node)
        # The clone's nodes get records of their own, made from the child's captured ones.
        keep_for_clone(self._capture_graph(), node, self._root.keepalive, source._root.keepalive,
                       params.graph.graph)

    def callback(self, fn, *, user_data=None) -> None:
        """Capture a host callback: ``fn`` runs on a host thread when the graph reaches this
        point. A Python callable takes no arguments (``user_data`` is refused); a ctypes
        ``CFUNCTYPE(None, c_void_p)`` function gets ``user_data`` (an int address, or
        bytes-like data copied and kept with the graph). Callbacks must not call CUDA."""
        self._capture_callback(fn, user_data, True)

    cdef int _capture_callback(self, object fn, object user_data, bint find_node) except -1:
        """Capture ``fn``; what it needs becomes the record of its node (``find_node``), or,
        where that node is not found, is kept with the family's graphs."""
        self._check_building("it can capture a callback")
        cdef cydriver.CUhostFn function = NULL
        cdef void* data = NULL
        cdef list keep = []
        resolve_host_callback(fn, user_data, &function, &data, keep)
        cdef cydriver.CUstream handle = self._stream._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuLaunchHostFunc(handle, function, data))
        cdef bint attached = False
        try:
            attached = find_node and self._attach_to_last_node(keep)
        finally:
            if not attached:  # the capture holds the callback: keep it with the family's graphs
                self._root.keepalive.extend(keep)
        return 0

    cdef bint _attach_to_last_node(self, list keep) except -1:
        """Keep ``keep`` as the record of the node just captured (the one the capture's next
        work depends on), as a definition's node would be, so that destroying that node (or
        its counterpart in a graph embedding this one) lets go of it. False when the capture
        does not say which node that is."""
        cdef cydriver.CUgraph graph = NULL
        cdef const cydriver.CUgraphNode* dependencies = NULL
        cdef const cydriver.CUgraphEdgeData* edges = NULL
        cdef size_t count = 0
        self._capture_info(&graph, &dependencies, &edges, &count)
        if count != 1:
            return False
        attach(graph, dependencies[0], self._root.keepalive, keep, ())
        return True

    @property
    def graph_definition(self) -> GraphDefinition:
        """The captured graph as a GraphDefinition view (nodes added through it are part of
        later complete() and debug_dot_print() calls; it stays valid after close()). For a
        primary builder, after end_building; for a conditional body's builder, also before
        begin_building; never for a builder made by split()."""
        if self._state == _CLOSED:
            raise RuntimeError("Graph builder has been closed: graph_definition is no longer available "
                               "(a view taken before close() stays valid).")
        if self._kind == _FORKED:
            raise RuntimeError("A forked graph builder (from split()) shares its primary builder's graph: "
                               "use the primary builder's graph_definition.")
        if self._state == _BUILDING:
            raise RuntimeError("graph_definition is not available while a capture is in progress: call "
                               "end_building() first.")
        cdef cydriver.CUgraph graph = self._built_graph()
        if graph == NULL:
            raise RuntimeError("graph_definition is not available before begin_building() and end_building().")
        cdef GraphDefinition definition
        if self._definition is None:
            definition = wrap_graph(graph, self._root)
            # One keepalive for the family: what nodes added through the view need stays alive
            # with the Graphs complete() makes.
            definition._keepalive = self._root.keepalive
            self._definition = definition
        return self._definition


def _capture_callback_with_tail_failure_for_testing(gb, fn, *, user_data=None):
    """Capture ``fn`` as GraphBuilder.callback does, then fail as if finding the node just
    captured had failed: the callback must stay alive with the capture anyway."""
    if not isinstance(gb, GraphBuilder):
        raise TypeError(f"expected a GraphBuilder, got {type(gb).__name__}")
    (<GraphBuilder>gb)._capture_callback(fn, user_data, False)
    raise RuntimeError("forced capture tail discovery failure (for testing)")


# ---------------------------------------------------------------------------------------------
# Graph

cdef Graph _instantiate(cydriver.CUgraph graph, object options, list keepalive):
    """``graph`` instantiated with ``options``; the Graph keeps a copy of ``keepalive``."""
    cdef cydriver.CUDA_GRAPH_INSTANTIATE_PARAMS params
    memset(&params, 0, sizeof(params))
    if options is not None:
        if not isinstance(options, GraphCompleteOptions):
            raise TypeError(f"options must be a GraphCompleteOptions or None, got {type(options).__name__}")
        if options.auto_free_on_launch:
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH
        if options.device_launch:
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH
        if options.use_node_priority:
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY
        if options.upload_stream is not None:
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD
            params.hUploadStream = _stream_of(options.upload_stream)._live_handle()
    cdef cydriver.CUgraphExec executable = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphInstantiateWithParams(&executable, graph, &params))
    cdef Graph result = Graph.__new__(Graph)
    result._exec = executable
    result._keepalive = list(keepalive)
    return result


cdef Graph instantiate(GraphDefinition definition, object options):
    return _instantiate(definition._live(), options, definition._keepalive)


def _instantiate_graph(source, options=None) -> Graph:
    """A Graph instantiated from a finished GraphBuilder or a GraphDefinition."""
    if isinstance(source, GraphBuilder):
        return source.complete(options)
    if isinstance(source, GraphDefinition):
        return instantiate(<GraphDefinition>source, options)
    raise TypeError(f"expected GraphBuilder or GraphDefinition, got {type(source).__name__}")


cdef class Graph:
    """An executable CUDA graph (a CUgraphExec), from GraphBuilder.complete() or
    GraphDefinition.instantiate(): launch() runs all its work in one call."""

    def __init__(self):
        raise RuntimeError("Graph objects cannot be instantiated directly: use GraphBuilder.complete() "
                           "or GraphDefinition.instantiate()")

    cdef cydriver.CUgraphExec _live(self) except NULL:
        if self._exec == NULL:
            raise RuntimeError("Graph has been closed: it cannot be launched, uploaded or updated.")
        return self._exec

    def close(self) -> None:
        """Destroy the executable graph. Closing again does nothing."""
        cdef cydriver.CUgraphExec executable = self._exec
        self._exec = NULL
        _held = pass_to_main_thread(self._keepalive)  # finalized on the main thread
        self._keepalive = None
        if executable != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphExecDestroy(executable))
        drain_released_attachments()

    def __dealloc__(self):
        # Errors are ignored: at interpreter exit the driver may be gone already.
        cdef cydriver.CUgraphExec executable = self._exec
        self._exec = NULL
        # What the nodes keep is finalized on the main thread (see GraphDefinition's).
        _held = pass_to_main_thread(self._keepalive)
        self._keepalive = None
        if executable != NULL:
            with nogil:  # never hold the GIL in the driver: a graph's host callback may be waiting for it
                cydriver.cuGraphExecDestroy(executable)

    @property
    def is_closed(self) -> bool:
        """Whether close() ran."""
        return self._exec == NULL

    @property
    def handle(self):
        """The driver's CUgraphExec (0 once closed); ``int(graph.handle)`` is its address."""
        from cuda.bindings import driver
        return driver.CUgraphExec(<size_t>self._exec)

    def __getitem__(self, node):
        """The executable view of ``node`` (a node of the definition this graph was made
        from), to update its parameters for later launches."""
        self._live()
        return executable_node(self, node)

    def update(self, source) -> None:
        """Take the node parameters of ``source`` (a finished GraphBuilder or a
        GraphDefinition of the same topology) for later launches. A CUDAError says why the
        driver refused it; the graph is then unchanged."""
        cdef cydriver.CUgraph graph
        cdef list keepalive
        cdef GraphBuilder builder
        if isinstance(source, GraphBuilder):
            builder = <GraphBuilder>source
            if builder._state == _CLOSED:
                raise ValueError("Source graph builder has been closed.")
            if builder._state != _BUILT or builder._built_graph() == NULL:
                raise ValueError("Graph has not finished building: call end_building() on the source first.")
            graph = builder._built_graph()
            keepalive = builder._root.keepalive
        elif isinstance(source, GraphDefinition):
            graph = (<GraphDefinition>source)._live()
            keepalive = (<GraphDefinition>source)._keepalive
        else:
            raise TypeError(f"update() expected GraphBuilder or GraphDefinition, got {type(source).__name__}")
        cdef cydriver.CUgraphExec executable = self._live()
        cdef cydriver.CUgraphExecUpdateResultInfo info
        cdef cydriver.CUresult result
        memset(&info, 0, sizeof(info))
        with nogil:
            result = cydriver.cuGraphExecUpdate(executable, graph, &info)
        if result != cydriver.CUDA_SUCCESS:
            _raise_update_failure(result, info.result)
        _held = pass_to_main_thread(self._keepalive)  # finalized on the main thread
        self._keepalive = list(keepalive)

    def upload(self, stream) -> None:
        """Upload the graph's resources to the device in the order of ``stream``, ahead of
        its first launch (otherwise the first launch does it)."""
        cdef cydriver.CUgraphExec executable = self._live()
        cdef cydriver.CUstream handle = _stream_of(stream)._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphUpload(executable, handle))

    def launch(self, stream) -> None:
        """Run the graph in the order of ``stream`` (a Stream, or a GraphBuilder to capture
        the launch)."""
        cdef Stream target = <Stream>stream if type(stream) is Stream else _stream_of(stream)
        cdef cydriver.CUgraphExec executable = self._live()
        cdef cydriver.CUstream handle = target._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphLaunch(executable, handle))

    def __repr__(self) -> str:
        return f"<Graph handle={<size_t>self._exec:#x}>"


cdef int _raise_update_failure(cydriver.CUresult result, cydriver.CUgraphExecUpdateResult reason) except -1:
    from cuda.bindings import driver
    try:
        name = driver.CUgraphExecUpdateResult(<int>reason).name
    except ValueError:
        name = f"CUgraphExecUpdateResult({<int>reason})"
    try:
        HANDLE_RETURN(result)
    except CUDAError as error:
        why = _UPDATE_FAILURES.get(<int>reason, str(error))
        raise CUDAError(f"Graph update failed: {why} ({name})") from error
    return 0
