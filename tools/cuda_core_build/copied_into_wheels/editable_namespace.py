# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Start an editable cuda.core: meson-python's finder, made to share ``cuda`` and to rebuild safely.

The build backend ships this module in the editable wheel, and the wheel's .pth file
calls install() once per process. It adds four things to meson-python's editable finder:

- Namespace sharing. meson-python's finder answers for the whole top-level name ``cuda``
  with a namespace that holds only this project's files, so ``import cuda.bindings``
  fails next to it (meson-python#775). A finder in front of it extends that namespace
  with the other ``cuda`` portions on sys.path, the PEP 420 way; where ``cuda`` is a
  regular package (cuda-bindings 12.8 ships ``cuda/__init__.py``), that package is
  ``cuda``, and cuda.core is still found by meson-python's finder.
- Safe, visible rebuilds. The first import of cuda.core in a process brings the build
  directory up to date under that directory's lock (_cuda_core_build_lock), so processes
  importing at once take turns; when there is work it says so on stderr and shows
  ninja's progress, and is silent otherwise.
- A failed rebuild is cuda.core's alone: importing cuda.core raises the build's error,
  and every other ``cuda.*`` package imports as if cuda.core were not installed.
- A clear error when the build directory is gone or holds no finished setup: importing
  cuda.core then raises one ImportError naming the directory and the reinstall command,
  and, again, every other ``cuda.*`` package imports as ever.

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
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

LOADER_MODULE = "_cuda_core_editable_loader"
LOCK_MODULE = "_cuda_core_build_lock"
PACKAGE = "cuda.core"


class SharedNamespaceFinder(importlib.abc.MetaPathFinder):
    """Merges the editable finder's top-level namespace spec with the regular ones, and keeps a
    failed rebuild away from every ``cuda.*`` package but cuda.core."""

    def __init__(self, editable_finder: importlib.abc.MetaPathFinder) -> None:
        self._editable = editable_finder
        self.failure: ImportError | None = None

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        top = fullname.partition(".")[0]
        if "." in fullname:
            if self.failure is None or top != "cuda":
                return None  # meson-python's finder, then the path, answer as usual
            if fullname == PACKAGE or fullname.startswith(PACKAGE + "."):
                raise self.failure
            return importlib.machinery.PathFinder.find_spec(fullname, path, target)
        try:
            spec = self._editable.find_spec(fullname, path, target)
        except ImportError as err:  # the rebuild failed: cuda.core's error, nobody else's
            if fullname != "cuda":
                raise
            self.failure = err
            return importlib.machinery.PathFinder.find_spec(fullname)
        if spec is None or spec.origin is not None or spec.submodule_search_locations is None:
            return None  # not a namespace of ours: meson-python answers as usual
        others = importlib.machinery.PathFinder.find_spec(fullname)
        if others is not None and others.origin is not None:
            return others  # a regular package named cuda: it is cuda, and cuda.core is still ours
        if others is not None and others.submodule_search_locations:
            spec.submodule_search_locations.extend(others.submodule_search_locations)
        return spec


class MissingBuildFinder(importlib.abc.MetaPathFinder):
    """Stands in for the editable finder when its build directory is gone or was never set up to
    the end: cuda.core fails with one clear ImportError, and nothing else is touched."""

    def __init__(self, build_dir: Path, source_dir: Path, what: str = "is gone") -> None:
        self._message = (
            f"cuda.core is installed editable, but its build directory {build_dir} {what}: "
            f"reinstall it with: pip install --no-build-isolation -e {source_dir}"
        )

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == PACKAGE or fullname.startswith(PACKAGE + "."):
            raise ImportError(self._message, name=fullname)
        return None


INSTALL_PLAN = Path("meson-info") / "intro-install_plan.json"


def missing_build(build_dir: Path) -> str | None:
    """Why ``build_dir`` cannot serve an editable cuda.core, or None if it can."""
    if not (build_dir / "build.ninja").is_file():
        return "is gone"
    if not (build_dir / INSTALL_PLAN).is_file():
        return f"holds no finished Meson setup (no {INSTALL_PLAN})"
    return None


def locked_rebuild(finder: Any, build_dir: Path, source_dir: Path, ninja: str) -> Any:
    """What meson-python's finder does on its first lookup, under the build directory's lock and
    with visible progress: build, then read the install plan that maps modules to files. A failure
    is raised once per process as an ImportError, and again, without rebuilding, on later lookups."""
    loader = sys.modules[LOADER_MODULE]
    lock = importlib.import_module(LOCK_MODULE)
    failures: list[ImportError] = []

    @functools.lru_cache(maxsize=1)
    def rebuild() -> Any:
        if failures:
            raise failures[0]
        # As meson-python does: Python processes the build starts skip this editable finder.
        env = {**os.environ, loader.MARKER: os.pathsep.join((os.environ.get(loader.MARKER, ""), str(build_dir)))}
        try:
            why = missing_build(build_dir)
            if why is not None:
                raise ImportError(MissingBuildFinder(build_dir, source_dir, why)._message)
            lock.rebuild(build_dir, ninja, sys.stderr, "the editable cuda.core", env)
            plan = json.loads((build_dir / INSTALL_PLAN).read_text())
        except subprocess.CalledProcessError as err:
            failures.append(
                ImportError(f"rebuilding the editable cuda.core in {build_dir} failed:\n{err.output[-8000:]}")
            )
            raise failures[0] from None
        except (OSError, ValueError) as err:
            failures.append(ImportError(MissingBuildFinder(build_dir, source_dir, f"cannot be read ({err})")._message))
            raise failures[0] from None
        except ImportError as err:
            failures.append(err)
            raise
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
    why = missing_build(build_dir)
    if why is not None:
        sys.meta_path.insert(0, MissingBuildFinder(build_dir, source_dir, why))
        return
    importlib.import_module(LOADER_MODULE).init()
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__module__ == LOADER_MODULE:
            finder._rebuild = locked_rebuild(finder, build_dir, source_dir, NINJA)
            sys.meta_path.insert(index, SharedNamespaceFinder(finder))
            return


# Filled in by the build backend for this install.
SOURCE_DIR = ""
BUILD_DIR = ""
NINJA = ""
