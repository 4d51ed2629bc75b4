# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# The explicit graph definition and its conditions: the interface the builder, the nodes and
# Graph share (contract between cuda.core.graph's modules).
cimport cuda.bindings.cydriver as cydriver


cdef class GraphCondition:
    cdef cydriver.CUgraphConditionalHandle _handle
    cdef object _graph                 # the GraphDefinition or GraphBuilder it was made for
    cdef object __weakref__


cdef class GraphDefinition:
    cdef cydriver.CUgraph _graph       # NULL once destroyed
    cdef object _owner                 # None: this object destroys the graph; else its owner, kept alive
    # _owner is None, as a C fact: a cycle collection clears _owner before __dealloc__, and a
    # view must never destroy the graph it borrows.
    cdef bint _owns_graph
    cdef list _keepalive               # what the nodes need alive: kernels, callbacks, events, buffers, children
    cdef object __weakref__

    # Whether the graph is still there (a view's owner may have destroyed it).
    cdef bint _valid(self) except -1
    # The CUgraph, or a RuntimeError once it is no longer valid.
    cdef cydriver.CUgraph _live(self) except NULL


# A definition over ``graph``: owned (destroyed with the definition) when ``owner`` is None,
# else borrowed from ``owner`` (e.g. a GraphBuilder), which it keeps alive.
cdef GraphDefinition wrap_graph(cydriver.CUgraph graph, object owner)

# A condition over ``handle``, made for ``graph`` (a GraphDefinition or GraphBuilder).
cdef GraphCondition new_condition(cydriver.CUgraphConditionalHandle handle, object graph)
