"""Let an editable cuda.core share the ``cuda`` namespace package with cuda-bindings.

meson-python's editable finder answers for the whole top-level name ``cuda`` with a
namespace that holds only this project's files, so ``import cuda.bindings`` fails
next to it (meson-python#775). The build backend ships this module in the editable
wheel, and the wheel's .pth file calls install(), which starts meson-python's loader
and then this finder in front of it: it extends that namespace with the other ``cuda`` portions on sys.path, the PEP 420
way, and leaves every other lookup to meson-python.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Sequence

LOADER_MODULE = "_cuda_core_editable_loader"


class SharedNamespaceFinder(importlib.abc.MetaPathFinder):
    """Merges the editable finder's top-level namespace spec with the regular ones."""

    def __init__(self, editable_finder: importlib.abc.MetaPathFinder) -> None:
        self._editable = editable_finder

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if "." in fullname:
            return None
        spec = self._editable.find_spec(fullname, path, target)
        if spec is None or spec.origin is not None or spec.submodule_search_locations is None:
            return None  # not a namespace of ours: meson-python answers as usual
        others = importlib.machinery.PathFinder.find_spec(fullname)
        if others is not None and others.origin is None and others.submodule_search_locations:
            spec.submodule_search_locations.extend(others.submodule_search_locations)
        return spec


def install() -> None:
    """Start meson-python's editable finder, then the merger in front of it: once per process.

    The .pth file that calls this can run twice at start-up (seen with a pyenv Python,
    whose site-packages site.py adds twice); two meson-python finders would then evict
    each other's cached build check and run ninja on every import.
    """
    if any(isinstance(finder, SharedNamespaceFinder) for finder in sys.meta_path):
        return
    importlib.import_module(LOADER_MODULE).init()
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__module__ == LOADER_MODULE:
            sys.meta_path.insert(index, SharedNamespaceFinder(finder))
            return
