"""Start an editable cuda.core: meson-python's finder, made to share ``cuda`` and to rebuild safely.

The build backend ships this module in the editable wheel, and the wheel's .pth file
calls install() once per process. It adds three things to meson-python's editable finder:

- Namespace sharing. meson-python's finder answers for the whole top-level name ``cuda``
  with a namespace that holds only this project's files, so ``import cuda.bindings``
  fails next to it (meson-python#775). A finder in front of it extends that namespace
  with the other ``cuda`` portions on sys.path, the PEP 420 way.
- Safe, visible rebuilds. The first import of cuda.core in a process brings the build
  directory up to date under that directory's lock (_cuda_core_build_lock), so processes
  importing at once take turns; when there is work it says so on stderr and shows
  ninja's progress, and is silent otherwise.
- A clear error when the build directory is gone: importing cuda.core then raises one
  ImportError naming the directory and the reinstall command, and every other ``cuda.*``
  package imports as if cuda.core were not installed.

The backend appends the values of SOURCE_DIR, BUILD_DIR and NINJA for this install.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

LOADER_MODULE = "_cuda_core_editable_loader"
LOCK_MODULE = "_cuda_core_build_lock"
PACKAGE = "cuda.core"


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


class MissingBuildFinder(importlib.abc.MetaPathFinder):
    """Stands in for the editable finder when its build directory is gone: cuda.core fails with
    one clear ImportError, and nothing else is touched."""

    def __init__(self, build_dir: Path, source_dir: Path) -> None:
        self._message = (f"cuda.core is installed editable, but its build directory {build_dir} is gone: "
                         f"reinstall it with: pip install --no-build-isolation -e {source_dir}")

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == PACKAGE or fullname.startswith(PACKAGE + "."):
            raise ImportError(self._message, name=fullname)
        return None


def locked_rebuild(finder: Any, build_dir: Path, ninja: str) -> Any:
    """What meson-python's finder does on its first lookup, under the build directory's lock and
    with visible progress: build, then read the install plan that maps modules to files."""
    loader = sys.modules[LOADER_MODULE]
    lock = importlib.import_module(LOCK_MODULE)

    @functools.lru_cache(maxsize=1)
    def rebuild() -> Any:
        # As meson-python does: Python processes the build starts skip this editable finder.
        env = {**os.environ, loader.MARKER: os.pathsep.join((os.environ.get(loader.MARKER, ""), str(build_dir)))}
        try:
            lock.rebuild(build_dir, ninja, sys.stderr, "the editable cuda.core", env)
        except subprocess.CalledProcessError as err:
            raise ImportError(f"rebuilding the editable cuda.core in {build_dir} failed:\n{err.output[-8000:]}") \
                from None
        plan = json.loads((build_dir / "meson-info" / "intro-install_plan.json").read_text())
        return loader.collect(plan)

    return rebuild


def install() -> None:
    """Start meson-python's editable finder with this module's additions: once per process.

    The .pth file that calls this can run twice at start-up (seen with a pyenv Python,
    whose site-packages site.py adds twice); two meson-python finders would then evict
    each other's cached build check and run ninja on every import.
    """
    if any(isinstance(f, (SharedNamespaceFinder, MissingBuildFinder)) for f in sys.meta_path):
        return
    build_dir, source_dir = Path(BUILD_DIR), Path(SOURCE_DIR)
    if not (build_dir / "build.ninja").is_file():
        sys.meta_path.insert(0, MissingBuildFinder(build_dir, source_dir))
        return
    importlib.import_module(LOADER_MODULE).init()
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__module__ == LOADER_MODULE:
            finder._rebuild = locked_rebuild(finder, build_dir, NINJA)
            sys.meta_path.insert(index, SharedNamespaceFinder(finder))
            return


# Filled in by the build backend for this install.
SOURCE_DIR = ""
BUILD_DIR = ""
NINJA = ""
