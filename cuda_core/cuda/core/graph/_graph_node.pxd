# A node of a graph definition (shared by cuda.core.graph's modules).
cimport cuda.bindings.cydriver as cydriver
from cuda.core.graph._graph_definition cimport GraphDefinition


cdef class GraphNode:
    cdef cydriver.CUgraphNode _node    # NULL for the entry node, and once destroyed
    cdef size_t _address               # the node's address, kept after destroy for __eq__/__hash__
    cdef GraphDefinition _definition   # the graph the node belongs to (kept alive)
    cdef bint _is_entry                # the virtual entry node: adding from it adds no dependency
    cdef object __weakref__

    # Whether the node and its graph are still there.
    cdef bint _valid(self) except -1
    # The CUgraphNode, or a RuntimeError (destroyed node, entry node, invalid graph).
    cdef cydriver.CUgraphNode _live(self) except NULL


# The virtual entry node of ``definition``.
cdef GraphNode entry_node(GraphDefinition definition)

# Make ``node`` (a fresh GraphNode subclass instance) the Python object of ``handle`` in
# ``definition``, registered so later lookups return it.
cdef int attach_node(GraphNode node, GraphDefinition definition, cydriver.CUgraphNode handle) except -1

# The registered Python object of ``handle`` in ``definition``, or a new one of its kind.
cdef GraphNode node_for(GraphDefinition definition, cydriver.CUgraphNode handle)

# Keep ``objects`` alive for ``node`` (in its definition's _keepalive, as one record) until the
# node is destroyed; ``subgraphs``: the addresses of graphs the node owns (branches, its
# embedded clone), whose nodes' records go with it.
cdef int keep_for(GraphNode node, list objects, tuple subgraphs) except -1

# Drop the attachment references the driver released while the interpreter's pending-call
# queue was full (the GIL held; cheap when there are none). Graph operations call it.
cdef int drain_released_attachments() except -1
