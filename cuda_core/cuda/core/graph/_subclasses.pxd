# The node kinds of cuda.core.graph (contract between its modules).
cimport cuda.bindings.cydriver as cydriver
from cuda.core.graph._graph_builder cimport Graph


# The executable view (an ExecutableGraphNode subclass, per the node's kind) of ``node`` (a
# GraphNode of the definition ``graph`` was instantiated from).
cdef object executable_node(Graph graph, object node)
