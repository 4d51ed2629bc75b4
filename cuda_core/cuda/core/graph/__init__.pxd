# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# cuda.core.graph's classes for cimport: ``from cuda.core.graph cimport GraphDefinition, KernelNode``.
from cuda.core.graph._graph_builder cimport Graph
from cuda.core.graph._graph_definition cimport GraphCondition, GraphDefinition
from cuda.core.graph._graph_node cimport GraphNode
from cuda.core.graph._subclasses cimport (AllocNode, ChildGraphNode, ConditionalNode, EmptyNode, EventRecordNode,
                                          EventWaitNode, ExecutableChildGraphNode, ExecutableEventRecordNode,
                                          ExecutableEventWaitNode, ExecutableGraphNode, ExecutableHostCallbackNode,
                                          ExecutableKernelNode, ExecutableMemcpyNode, ExecutableMemsetNode, FreeNode,
                                          HostCallbackNode, IfElseNode, IfNode, KernelNode, MemcpyNode, MemsetNode,
                                          SwitchNode, WhileNode)
