# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.graph: CUDA graphs, built by stream capture (GraphBuilder) or defined node by node
(GraphDefinition), instantiated into executable Graphs."""

from . import _graph_builder, _graph_definition, _graph_node, _subclasses
from ._graph_builder import *  # noqa: F403
from ._graph_definition import *  # noqa: F403
from ._graph_node import *  # noqa: F403
from ._subclasses import *  # noqa: F403

# The union of the submodules' exports, so the package's list cannot drift from theirs.
__all__ = [
    *_graph_builder.__all__,
    *_graph_definition.__all__,
    *_graph_node.__all__,
    *_subclasses.__all__,
]

del _graph_builder, _graph_definition, _graph_node, _subclasses
