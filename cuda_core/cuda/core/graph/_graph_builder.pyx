"""Executable graphs (Graph) and, from the builder's branch, stream capture (GraphBuilder).

MERGE NOTE: this file, on the graphdef branch, holds only the executable Graph and
instantiate() that graph definitions need; the builder's branch owns the rest of the module
(GraphBuilder, GraphCompleteOptions, GraphDebugPrintOptions): keep its version, with the
Graph section below where it differs.
"""

cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t
from libc.string cimport memset

from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN
from cuda.core.graph._graph_definition cimport GraphDefinition
from cuda.core.graph._subclasses cimport executable_node

from cuda.core._utils.cuda_utils import driver

__all__ = ['Graph']


# ---- Graph (graphdef branch) ----

cdef class Graph:
    """An executable graph: made by ``GraphDefinition.instantiate()`` or
    ``GraphBuilder.complete()``, launched on streams."""

    def __init__(self):
        raise RuntimeError("a Graph cannot be made directly: instantiate a GraphDefinition or complete a "
                           "GraphBuilder")

    def __dealloc__(self):
        cdef cydriver.CUgraphExec graph = self._exec
        self._exec = NULL
        if graph != NULL:
            with nogil:
                cydriver.cuGraphExecDestroy(graph)  # nothing to report from a destructor

    cdef cydriver.CUgraphExec _live(self) except NULL:
        if self._exec == NULL:
            raise RuntimeError("the Graph is closed")
        return self._exec

    def close(self) -> None:
        """Destroy the executable graph (launches already made complete first)."""
        cdef cydriver.CUgraphExec graph = self._exec
        self._exec = NULL
        if graph != NULL:
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphExecDestroy(graph))
        self._keepalive = None

    @property
    def is_closed(self) -> bool:
        """Whether this executable graph has been closed."""
        return self._exec == NULL

    @property
    def handle(self) -> driver.CUgraphExec:
        """The driver's CUgraphExec (``int()`` gives its address)."""
        return driver.CUgraphExec(<uintptr_t>self._live())

    def __getitem__(self, node):
        """The view of ``node`` (a node of the definition this graph was instantiated from)
        whose ``update()`` changes it for future launches."""
        return executable_node(self, node)

    def upload(self, stream: Stream) -> None:
        """Upload the graph's work to the device in ``stream``, ahead of its launches."""
        cdef cydriver.CUgraphExec graph = self._live()
        cdef cydriver.CUstream handle = Stream_accept(stream)._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphUpload(graph, handle))

    def launch(self, stream: Stream) -> None:
        """Launch the graph in ``stream``."""
        cdef cydriver.CUgraphExec graph = self._live()
        cdef cydriver.CUstream handle = Stream_accept(stream)._live_handle()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphLaunch(graph, handle))


cdef Graph instantiate(GraphDefinition definition, object options):
    cdef cydriver.CUgraph source = definition._live()
    cdef cydriver.CUDA_GRAPH_INSTANTIATE_PARAMS params
    cdef cydriver.CUgraphExec graph = NULL
    memset(&params, 0, sizeof(params))
    if options is not None:
        if getattr(options, "auto_free_on_launch", False):
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH
        if getattr(options, "device_launch", False):
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH
        if getattr(options, "use_node_priority", False):
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY
        upload_stream = getattr(options, "upload_stream", None)
        if upload_stream is not None:
            params.flags |= cydriver.CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD
            params.hUploadStream = Stream_accept(upload_stream)._live_handle()
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphInstantiateWithParams(&graph, source, &params))
    cdef Graph result = Graph.__new__(Graph)
    result._exec = graph
    # The nodes' kernels, callbacks, events and buffers, for as long as the graph lives.
    result._keepalive = list(definition._keepalive)
    return result
