# placeholder: replaced by branch graphdef
"""The smallest GraphDefinition and GraphCondition the graph builder compiles against."""

cimport cuda.bindings.cydriver as cydriver
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['GraphCondition', 'GraphDefinition']


cdef class GraphCondition:
    """A condition of conditional graph nodes (placeholder)."""

    @property
    def handle(self) -> int:
        """The CUgraphConditionalHandle, as an int."""
        return <unsigned long long>self._handle


cdef class GraphDefinition:
    """A graph definition (placeholder: only views of captured graphs)."""

    def __init__(self):
        raise NotImplementedError("GraphDefinition is not in this build (placeholder)")

    cdef cydriver.CUgraph _live(self) except NULL:
        if self._graph == NULL:
            raise RuntimeError("GraphDefinition is no longer valid")
        return self._graph

    def __dealloc__(self):
        if self._owner is None and self._graph != NULL:
            cydriver.cuGraphDestroy(self._graph)


cdef GraphDefinition wrap_graph(cydriver.CUgraph graph, object owner):
    cdef GraphDefinition definition = GraphDefinition.__new__(GraphDefinition)
    definition._graph = graph
    definition._owner = owner
    definition._keepalive = []
    return definition


cdef GraphCondition new_condition(cydriver.CUgraphConditionalHandle handle, object graph):
    cdef GraphCondition condition = GraphCondition.__new__(GraphCondition)
    condition._handle = handle
    condition._graph = graph
    return condition
