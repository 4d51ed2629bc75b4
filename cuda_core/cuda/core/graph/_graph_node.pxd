# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
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

# keep_for for a node known only by its handles (a node a GraphBuilder captured): the record
# goes to ``keepalive``, the list shared by the views of ``graph``'s hierarchy.
cdef int attach(cydriver.CUgraph graph, cydriver.CUgraphNode node, list keepalive, list objects,
                tuple subgraphs) except -1

# What a child graph ``node`` of ``graph`` needs, its embedded clone of ``source_graph`` just
# made: each record of ``source_graph``'s nodes in ``source`` (recursively through nested
# child graphs) becomes a record of its counterpart in the clone, in ``keepalive``, so that
# destroying that clone node releases it; the rest of ``source`` is kept for ``node``.
cdef int keep_for_clone(cydriver.CUgraph graph, cydriver.CUgraphNode node, list keepalive, list source,
                        cydriver.CUgraph source_graph) except -1

# Remove from ``keepalive`` the records of the graphs the node at ``address`` owns (recursively)
# and return them: a child graph node's update replaces its clone, and with it their nodes.
cdef list detach_owned(list keepalive, size_t address)

# On the main thread, drop the attachment references queued so far (the GIL held; cheap when
# there are none); elsewhere nothing (the drain scheduled for the main thread comes). Graph
# operations call it.
cdef int drain_released_attachments() except -1

# On the main thread ``references``; elsewhere the release queue takes a reference to it (its
# drains run on the main thread) and the result is None. A holder letting go of what a graph
# keeps alive assigns the result over its own reference before it releases the GIL, so that
# off the main thread the queue's reference is the last.
cdef object pass_to_main_thread(object references)
