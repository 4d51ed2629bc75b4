# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Stream capture and executable graphs (contract between cuda.core.graph's modules).
cimport cuda.bindings.cydriver as cydriver
from cuda.core.graph._graph_definition cimport GraphDefinition


cdef class Graph:
    cdef cydriver.CUgraphExec _exec    # NULL once closed
    cdef list _keepalive               # what the instantiated nodes need alive (from the definition)
    cdef object __weakref__

    # The CUgraphExec, or a RuntimeError once the graph is closed.
    cdef cydriver.CUgraphExec _live(self) except NULL


# ``definition`` instantiated with ``options`` (a GraphCompleteOptions, or None).
cdef Graph instantiate(GraphDefinition definition, object options)
