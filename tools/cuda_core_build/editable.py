# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What meson-python's editable finder does not: share ``cuda`` (meson-python#775), lock its rebuild. Stdlib only."""

import contextlib
import errno
import fcntl
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

LOCK = ".cuda-core-build.lock"
PACKAGE = "cuda.core"
INSTALL_PLAN = Path("meson-info") / "intro-install_plan.json"
LOADER_MODULE = "_cuda_core_editable_loader"  # meson-python's, in the editable wheel
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)
UNUSABLE = "cuda.core is installed editable, but its build directory {}"
# Lines of a run that rebuilt nothing: ninja's own, and the checks every run may start with.
QUIET = re.compile(r"^(ninja: no work to do\.|\[\d+/\d+\] Generating cuda-config/\S+ with a custom command)$")


def _build_module(name: str) -> ModuleType:
    """tools/cuda_core_build/NAME.py, imported as the package's module, as its siblings import each other."""
    if f"cuda_core_build.{name}" not in sys.modules:
        sys.path.insert(0, tools := str(Path(__file__).resolve().parents[1]))
        try:
            importlib.import_module(f"cuda_core_build.{name}")
        finally:
            sys.path.remove(tools)
    return sys.modules[f"cuda_core_build.{name}"]


@contextlib.contextmanager
def locked(build_dir: Path, waiting: TextIO) -> Iterator[bool]:
    """Hold the build directory's lock (saying so when another process has it); False: read-only."""
    try:
        lock = open(Path(build_dir) / LOCK, "a")
    except OSError as err:
        if err.errno not in READ_ONLY:
            raise
        yield False
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"cuda-core: waiting for another build in {build_dir} to finish", file=waiting, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield True


def rebuild(build_dir: Path, ninja: str, progress: TextIO, env: dict[str, str] | None = None) -> None:
    """Bring ``build_dir`` up to date under its lock, after any plain ninja building it, saying so only when there is
    work: from the first step that rebuilds (ninja's [k/N] before it counts what the check then prunes)."""
    sources, record = _build_module("sources"), _build_module("record")
    with locked(build_dir, progress) as writable:
        if not writable:  # asked without writing anything: the check would rewrite no stamp
            if sources.changed(build_dir, record.read(build_dir).compiler):
                raise OSError(errno.EROFS, f"{build_dir} is read-only and out of date")
            return
        if (pid := sources.claimant(build_dir)) is not None:  # one started now would stop (sources.py)
            print(f"cuda-core: waiting for ninja (pid {pid}) to finish building {build_dir}", file=progress, flush=True)
            while sources.claimant(build_dir) == pid:
                time.sleep(0.1)
        start, lines, working = time.monotonic(), [], False
        notice = f"cuda-core: rebuilding the editable cuda.core in {build_dir}: ninja found it out of date"
        pipe = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True, "errors": "replace"}
        process = subprocess.Popen([ninja], cwd=build_dir, env=env, **pipe)  # type: ignore[call-overload]
        for line in process.stdout:
            lines.append(line)
            if not working and not QUIET.match(line.strip()):
                working = True
                print(notice, file=progress, flush=True)
            if working:
                print(line, end="", file=progress, flush=True)
        if process.wait() != 0:
            raise subprocess.CalledProcessError(process.returncode, [ninja], "".join(lines))
        if working:
            print(f"cuda-core: rebuilt in {time.monotonic() - start:.1f} s", file=progress, flush=True)


class SharedNamespaceFinder(importlib.abc.MetaPathFinder):
    """The namespace ``cuda`` shared; a failure to build or serve cuda.core kept from every other ``cuda.*`` package."""

    def __init__(self, finder: importlib.abc.MetaPathFinder | None, failure: ImportError | None = None) -> None:
        self._editable = finder
        self.failure = failure

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if "." in fullname:
            if self.failure is None or not fullname.startswith("cuda."):
                return None
            if fullname == PACKAGE or fullname.startswith(PACKAGE + "."):
                raise self.failure
            return importlib.machinery.PathFinder.find_spec(fullname, path, target)
        try:
            spec = self._editable.find_spec(fullname, path, target) if self._editable else None
        except ImportError as err:
            if fullname != "cuda":
                raise
            self.failure = err
            return importlib.machinery.PathFinder.find_spec(fullname)
        if spec is None or spec.origin is not None or spec.submodule_search_locations is None:
            return None
        others = importlib.machinery.PathFinder.find_spec(fullname)
        if others is not None and others.origin is not None:
            return others  # a regular package named cuda: it is cuda, and cuda.core is still ours
        if others is not None and others.submodule_search_locations:
            spec.submodule_search_locations.extend(others.submodule_search_locations)
        return spec


def missing_build(build_dir: Path, source_dir: Path) -> str | None:
    """Why ``build_dir`` cannot serve cuda.core (gone, or its Meson setup unfinished), and the fix; None if it can."""
    if (build_dir / "build.ninja").is_file() and (build_dir / INSTALL_PLAN).is_file():
        return None
    why = f"holds no finished Meson setup (no {INSTALL_PLAN})" if (build_dir / "build.ninja").is_file() else "is gone"
    return f"{UNUSABLE.format(build_dir)} {why}: reinstall it with: {reinstall_hint(source_dir)}"


def reinstall_hint(source_dir: Path) -> str:
    """The reinstall command, with the installer that made this install (its INSTALLER file)."""
    with contextlib.suppress(importlib.metadata.PackageNotFoundError):
        if (importlib.metadata.distribution("cuda-core").read_text("INSTALLER") or "").strip() == "uv":
            return f"uv pip install --no-build-isolation -e {source_dir}"
    return f"{sys.executable} -m pip install --no-build-isolation -e {source_dir}"


def locked_rebuild(build_dir: Path, source_dir: Path) -> Any:
    """meson-python's first lookup (build, read the install plan), under the lock; a failure stays."""
    loader, failures = sys.modules[LOADER_MODULE], []

    @functools.lru_cache(maxsize=1)
    def rebuild_once() -> Any:
        env = {**os.environ, loader.MARKER: os.pathsep.join((os.environ.get(loader.MARKER, ""), str(build_dir)))}
        record = _build_module("record")
        try:
            if failures or (missing := missing_build(build_dir, source_dir)):
                raise failures[0] if failures else ImportError(missing)
            ninja = record.read(build_dir).inputs.get("ninja", {}).get("ninja", ["ninja"])[0]
            rebuild(build_dir, ninja, sys.stderr, env)
            return loader.collect(json.loads((build_dir / INSTALL_PLAN).read_text()))
        except subprocess.CalledProcessError as err:
            failure = ImportError(f"rebuilding the editable cuda.core in {build_dir} failed:\n{err.output[-8000:]}")
        except OSError as err:
            fix = f"cannot be used ({err}): reinstall it with: {reinstall_hint(source_dir)}"
            if err.errno in READ_ONLY:
                fix = "is read-only and cuda.core changed since it was built: make it writable, or reinstall from a writable checkout"
            failure = ImportError(f"{UNUSABLE.format(build_dir)} {fix}")
        except (ValueError, record.RecordError) as err:
            failure = ImportError(f"{UNUSABLE.format(build_dir)} cannot be used ({err})")
        except ImportError as err:
            failure = err
        failures[:] = [failure]
        raise failure from None

    return rebuild_once


def install(source_dir: str, build_dir: str) -> None:
    """Start meson-python's finder with these additions, once per process (a .pth can run twice)."""
    if any(type(f).__name__ == "SharedNamespaceFinder" for f in sys.meta_path):
        return
    if message := missing_build(Path(build_dir), Path(source_dir)):
        sys.meta_path.insert(0, SharedNamespaceFinder(None, ImportError(message, name=PACKAGE)))
        return
    importlib.import_module(LOADER_MODULE).init()
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__module__ == LOADER_MODULE:
            finder._rebuild = locked_rebuild(Path(build_dir), Path(source_dir))
            sys.meta_path.insert(index, SharedNamespaceFinder(finder))
            return
