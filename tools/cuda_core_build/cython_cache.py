# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Cython's output by content, as ccache keeps g++'s, in ``CUDA_CORE_CYTHON_CACHE``: Cython's own ``--cache`` fails here.

Measured with Cython 3.3.1 on this project's 39 Cython steps (2026-12-07): with ``--cache``, a second build dir
of the same checkout hits 39 of 39 but writes no depfile on a hit, so each such step failed; a second checkout
hits 0 of 39 (it hashes the source's absolute path); a read-only cache fails the step (``[Errno 30]``). This
cache: 39 of 39 in both, 1.5 s and 2.0 s against 32.5 s for Cython itself; a read-only one is a miss.

On where the variable names an absolute directory, and by default in tools/dev/devenv.py's venvs
(``~/.cache/cuda-core/cython``); an empty value turns it off. A step's key: the Cython (by content,
cuda-config/cyutility.stamp), the Python, its arguments with paths relative to the build directory or the
checkout. A hit needs every file the step read (the depfile's names, by build-directory path) to hold the
content it held then. Anything unreadable is a miss, a cache that cannot be written is skipped: the build never
depends on it. Stored code is trimmed, least recently used first, past MAX_BYTES."""

import contextlib
import gzip
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from cuda_core_build import common

ENV = "CUDA_CORE_CYTHON_CACHE"
FORMAT = "cuda-core-cython-cache 1"
MAX_BYTES = 1 << 30
MAX_ENTRIES = 8  # outputs kept per key (one per set of read files)
SOURCE_MARK = "@SOURCE@"  # the checkout's path in stored messages


@dataclass(frozen=True)
class Hit:
    code: bytes
    depends: list[str]
    messages: str


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical(argument: str, roots: tuple[tuple[Path, str], ...], build_dir: Path) -> str:
    """An argument as the key sees it: a path under one of ``roots`` (real path, mark) relative to it;
    options and other paths as they are."""
    if not os.path.exists(build_dir / argument):
        return argument
    real = Path(os.path.realpath(build_dir / argument))
    for root, mark in roots:
        if real == root or root in real.parents:
            return f"{mark}/{real.relative_to(root).as_posix()}"
    return argument


@dataclass(frozen=True)
class Cache:
    """The cache at ``root``, for one Cython step of the build directory ``build_dir`` of the checkout ``source_root``."""

    root: Path
    key: str
    build_dir: Path
    source_root: Path

    @classmethod
    def for_step(cls, arguments: list[str], source_root: Path, build_dir: Path) -> "Cache | None":
        """The step's cache, or None: the variable unset, or no stamp of Cython's content to key on."""
        where = os.environ.get(ENV, default_directory())
        cython = common.read_text(build_dir / "cuda-config" / "cyutility.stamp")
        if not where or not os.path.isabs(where) or cython is None:
            return None
        # The build directory first: it may sit inside the checkout.
        roots = ((Path(os.path.realpath(build_dir)), "@BUILD@"), (source_root, SOURCE_MARK))
        out = arguments.index("-o")
        kept = [canonical(a, roots, build_dir) for a in arguments[:out] + arguments[out + 2 :]]
        text = "\0".join([FORMAT, cython, f"{sys.version_info[0]}.{sys.version_info[1]}", *kept])
        return cls(Path(where), sha256(text.encode()), build_dir, source_root)

    @property
    def manifest(self) -> Path:
        return self.root / "manifests" / self.key[:2] / f"{self.key}.json"

    def blob(self, digest: str) -> Path:
        return self.root / "code" / digest[:2] / f"{digest}.cpp.gz"

    def entries(self) -> list[dict]:
        try:
            entries = json.loads(self.manifest.read_text())
        except (OSError, ValueError):
            return []
        return entries if isinstance(entries, list) else []

    def lookup(self) -> Hit | None:
        """The stored output whose read files all hold the content they held then, if any."""
        for entry in self.entries():
            try:
                if any(sha256((self.build_dir / name).read_bytes()) != digest for name, digest in entry["depends"]):
                    continue
                blob = self.blob(entry["code"])
                code = gzip.decompress(blob.read_bytes())
            except (OSError, KeyError, TypeError, ValueError, EOFError, gzip.BadGzipFile):
                continue
            if sha256(code) != entry["code"]:
                continue
            with contextlib.suppress(OSError):  # recently used, trimmed last; a read-only cache stays as it is
                os.utime(blob)
            messages = str(entry.get("messages", "")).replace(SOURCE_MARK, str(self.source_root))
            return Hit(code, [name for name, _ in entry["depends"]], messages)
        return None

    def store(self, code: bytes, depends: list[str], messages: str) -> None:
        """Keep ``code``, made from the files ``depends`` (build-directory paths) as they are now."""
        try:
            read = [[name, sha256((self.build_dir / name).read_bytes())] for name in depends]
            digest = sha256(code)
            common.write_if_changed(self.blob(digest), gzip.compress(code, compresslevel=6, mtime=0))  # mends a bad one
            entry = {"depends": read, "code": digest, "messages": messages.replace(str(self.source_root), SOURCE_MARK)}
            kept = [e for e in self.entries() if e.get("depends") != read][: MAX_ENTRIES - 1]
            common.write_if_changed(self.manifest, (json.dumps([entry, *kept]) + "\n").encode())
            trim(self.root)
        except OSError:
            pass  # a read-only or full cache: the build goes on without it


def default_directory() -> str:
    """The cache of a venv made by tools/dev/devenv.py (it marks it): in the user's cache directory."""
    if not common.in_devenv_venv():
        return ""
    return str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cuda-core" / "cython")


def trim(root: Path, limit: int = MAX_BYTES) -> None:
    """Remove the least recently used code past ``limit`` bytes, down to 80% of it: only files named as ``blob()``
    names them (a directory of the user's own given as the cache loses nothing else)."""
    blobs = []
    for blob in (root / "code").glob(f"[0-9a-f][0-9a-f]/{'[0-9a-f]' * 64}.cpp.gz"):
        if blob.name[:2] != blob.parent.name:
            continue
        try:
            st = blob.stat()
        except OSError:
            continue
        blobs.append((st.st_mtime_ns, st.st_size, blob))
    total = sum(size for _, size, _ in blobs)
    if total <= limit:
        return
    for _, size, blob in sorted(blobs):
        if total <= limit * 0.8:
            break
        blob.unlink(missing_ok=True)
        total -= size
