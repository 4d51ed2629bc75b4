"""cuda.core.graph: CUDA graphs, built by stream capture (GraphBuilder) or defined node by
node, and executable graphs (Graph)."""

from cuda.core.graph import _graph_builder
from cuda.core.graph._graph_builder import Graph, GraphBuilder, GraphCompleteOptions, GraphDebugPrintOptions

__all__ = [*_graph_builder.__all__]

del _graph_builder

# The graph definition API (branch graphdef) adds its modules' names here.
from cuda.core.graph._graph_definition import GraphCondition, GraphDefinition  # noqa: E402,F401
