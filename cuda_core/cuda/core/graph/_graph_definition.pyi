# placeholder: replaced by branch graphdef

from typing_extensions import disjoint_base

__all__ = ['GraphCondition', 'GraphDefinition']

@disjoint_base
class GraphCondition:
    """A condition of conditional graph nodes (placeholder)."""
    @property
    def handle(self) -> int: ...

@disjoint_base
class GraphDefinition:
    """A graph definition (placeholder: only views of captured graphs)."""
    def __init__(self, *args: object, **kwargs: object) -> None: ...
