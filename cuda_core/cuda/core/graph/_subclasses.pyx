# placeholder: replaced by branch graphdef
"""The smallest executable_node the graph builder compiles against."""

from cuda.core.graph._graph_builder cimport Graph

__all__ = []


cdef object executable_node(Graph graph, object node):
    raise NotImplementedError("executable graph nodes are not in this build (placeholder)")
