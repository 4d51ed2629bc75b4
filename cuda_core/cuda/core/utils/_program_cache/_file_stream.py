# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A program cache in a directory, shared safely by threads and processes.

Layout under the cache's root::

    entries/<first 2 hex digits>/<other 62>   one file per entry: the stored bytes, verbatim
    tmp/entry-*                               writes in progress (owner-only directory)

The file name is the SHA-256 of the key. A write fills a temporary file, flushes it to disk
and renames it over the entry (os.replace, atomic on one file system), so a reader sees the
old bytes or the new ones, never a mixture, and concurrent writers of one key leave one
whole value. Where the file system keeps extended attributes (Linux), each entry also
carries its length and CRC-32 in one, set before the rename: an entry damaged afterwards
(truncated, overwritten in place) reads as a miss and is removed, while the file itself
stays the plain binary that cuobjdump or nvdisasm can read.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cuda.core.utils import _cache_dir

from ._abc import CacheKey, CacheValue, ProgramCacheResource, _as_key_bytes, _checked_size_limit, _extract_bytes

_ENTRIES_SUBDIR = "entries"
_TMP_SUBDIR = "tmp"
_TMP_PREFIX = "entry-"
_CACHE_LEAF = "program-cache"

# A temporary file older than this belongs to a writer that died: a live write takes
# milliseconds, so an hour leaves every live one alone.
_TMP_STALE_AGE_SECONDS = 3600

# Module-level so that tests can take the Windows branches on any machine.
_IS_WINDOWS = os.name == "nt"
# ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION: on Windows a file that
# another process holds open (or that is pending deletion) cannot be renamed over, read or
# removed for a moment; these clear by themselves.
_SHARING_VIOLATION_WINERRORS = (5, 32, 33)
# Waits between attempts at such an operation: about 0.2 s in all before giving up.
_SHARING_RETRY_DELAYS = (0.0, 0.005, 0.01, 0.02, 0.05, 0.1)

_UTIME_SUPPORTS_FD = os.utime in os.supports_fd

# How often a write makes again the shard directory that a concurrent clear() removed.
_COMMIT_ATTEMPTS = 8

# The extended attribute that seals an entry: b"<length>:<crc32 in hex>".
_SEAL_ATTRIBUTE = "user.cuda_core.program_cache.seal"
_HAS_XATTR = hasattr(os, "setxattr") and hasattr(os, "getxattr")


def _default_cache_dir() -> Path:
    """The cache's directory when none is given: ``program-cache`` below cuda-python's
    per-user cache root (cuda.core.utils._cache_dir)."""
    return _cache_dir._default_cache_dir(windows=_IS_WINDOWS) / _CACHE_LEAF


# ---------------------------------------------------------------------------------------------
# Windows sharing violations: retried briefly, then given up on.


def _is_windows_sharing_violation(exc: BaseException) -> bool:
    """Whether ``exc`` is Windows saying that another process holds the file for a moment:
    a PermissionError with winerror 5, 32 or 33, or a bare EACCES without a winerror (how
    io.open reports a pending delete). Another winerror names a real failure; off Windows
    nothing is."""
    if not _IS_WINDOWS or not isinstance(exc, PermissionError):
        return False
    winerror = getattr(exc, "winerror", None)
    if winerror is None:
        return exc.errno == errno.EACCES
    return winerror in _SHARING_VIOLATION_WINERRORS


def _retry_sharing_violations(operation: Callable[..., Any], *args: Any) -> Any:
    """``operation(*args)``, attempted again after each Windows sharing violation until the
    delays run out; then the last violation is raised. Every other error is raised at once."""
    for attempt, delay in enumerate(_SHARING_RETRY_DELAYS):
        if delay:
            time.sleep(delay)
        try:
            return operation(*args)
        except PermissionError as exc:
            if not _is_windows_sharing_violation(exc) or attempt == len(_SHARING_RETRY_DELAYS) - 1:
                raise


def _unlink_with_sharing_retry(path: Path) -> None:
    """Remove ``path``, waiting out Windows sharing violations (a reader in another process
    holds it open). FileNotFoundError when it is gone; the last violation when it stays held."""
    _retry_sharing_violations(path.unlink)


def _replace_with_sharing_retry(source: Path, target: Path) -> bool:
    """Rename ``source`` over ``target``. False when a Windows sharing violation outlasts the
    retries (the caller drops the write: the next lookup misses and recompiles); any other
    error, a PermissionError off Windows included, is raised."""
    try:
        _retry_sharing_violations(os.replace, source, target)
    except PermissionError as exc:
        if _is_windows_sharing_violation(exc):
            return False
        raise
    return True


# ---------------------------------------------------------------------------------------------
# Guards against another process's os.replace between a stat and what follows it.


def _stat_key(st: os.stat_result) -> tuple[int, int, int]:
    """What tells one file from its replacement: the inode (a rename brings a new one), and
    size and mtime (a rewrite in place)."""
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _prune_if_stat_unchanged(path: Path, st_before: os.stat_result) -> None:
    """Remove ``path`` only if it is still the file ``st_before`` describes: a file another
    writer renamed into place meanwhile is its fresh entry and stays. A file already gone, or
    one Windows keeps held past the retries, is left to a later pass; other errors are raised."""
    try:
        if _stat_key(path.stat()) != _stat_key(st_before):
            return
        _unlink_with_sharing_retry(path)
    except FileNotFoundError:
        return
    except PermissionError as exc:
        if not _is_windows_sharing_violation(exc):
            raise


def _touch_atime(path: Path, st_before: os.stat_result) -> None:
    """Set ``path``'s access time to now (keeping its mtime) if it is still the file
    ``st_before`` describes: eviction goes by access time, and the file system's own
    (relatime, noatime, NTFS's default) cannot be relied on. Best effort: an error leaves
    the time as it was.

    Where os.utime takes a descriptor, the check and the update go through one open
    descriptor, so both concern the same file even if the path is replaced in between. The
    path-based fallback (Windows) leaves a short window in which a fresh entry could get the
    old mtime; the stat guards would then keep it from eviction, which costs a recompile at
    worst."""
    now_ns = time.time_ns()
    if _UTIME_SUPPORTS_FD:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            if _stat_key(os.fstat(fd)) == _stat_key(st_before):
                os.utime(fd, ns=(now_ns, st_before.st_mtime_ns))
        except OSError:
            pass
        finally:
            os.close(fd)
        return
    try:
        if _stat_key(path.stat()) == _stat_key(st_before):
            os.utime(path, ns=(now_ns, st_before.st_mtime_ns))
    except OSError:
        pass


# ---------------------------------------------------------------------------------------------
# Seals: an entry's length and CRC-32 in an extended attribute.


def _seal_of(data: bytes) -> bytes:
    return f"{len(data)}:{zlib.crc32(data):08x}".encode("ascii")


def _seal(fd: int, data: bytes) -> None:
    """Attach ``data``'s seal to the open file ``fd``; nothing where the file system keeps no
    extended attributes (the entry is then trusted as it is)."""
    if _HAS_XATTR:
        with contextlib.suppress(OSError):
            os.setxattr(fd, _SEAL_ATTRIBUTE, _seal_of(data))


def _seal_holds(fd: int, data: bytes) -> bool:
    """Whether ``data``, read from ``fd``, is what was sealed; True for an unsealed file (written
    where no attributes are kept, or by another tool), which cannot be checked."""
    if not _HAS_XATTR:
        return True
    try:
        sealed = os.getxattr(fd, _SEAL_ATTRIBUTE)
    except OSError:
        return True
    return sealed == _seal_of(data)


def _read_entry(path: Path) -> tuple[os.stat_result, bytes, bool]:
    """(stat, bytes, whether its seal holds) of the entry file ``path``, all of one open file,
    waiting out Windows sharing violations. FileNotFoundError when there is no such entry
    (or a violation outlasts the retries, which is a miss too)."""

    def read() -> tuple[os.stat_result, bytes, bool]:
        with open(path, "rb") as file:
            st = os.stat(file.fileno())
            data = file.read()
            return st, data, _seal_holds(file.fileno(), data)

    try:
        return _retry_sharing_violations(read)
    except PermissionError as exc:
        if _is_windows_sharing_violation(exc):
            raise FileNotFoundError(errno.ENOENT, "entry held by another process", str(path)) from exc
        raise
    except (IsADirectoryError, NotADirectoryError) as exc:
        # Something that is no entry file sits where the entry would be: no entry.
        raise FileNotFoundError(errno.ENOENT, "not an entry file", str(path)) from exc


def _make_dir(path: Path, mode: int = 0o777) -> None:
    """mkdir -p ``path``. Another process's clear() can remove it between the attempt and
    pathlib's check that it exists (FileExistsError then): tried again, a few times at most."""
    for _ in range(_COMMIT_ATTEMPTS - 1):
        try:
            path.mkdir(mode=mode, parents=True, exist_ok=True)
            return
        except FileExistsError:
            if path.exists() and not path.is_dir():
                raise  # a file where the directory belongs
    path.mkdir(mode=mode, parents=True, exist_ok=True)


# ---------------------------------------------------------------------------------------------


class FileStreamProgramCache(ProgramCacheResource):
    """A program cache in a directory, kept across runs and shared by processes.

    ``path`` is the directory (made when missing); by default ``program-cache`` below the
    per-user cache root: ``$XDG_CACHE_HOME/cuda-python`` (else ``~/.cache/cuda-python``) on
    Linux, ``%LOCALAPPDATA%\\cuda-python`` on Windows.

    Each entry is a file holding exactly the stored bytes. Writes go to a temporary file that
    is then renamed into place, so readers never see part of a value and concurrent writers
    of one key leave one whole value; a damaged entry (see the module's notes on seals) is a
    miss. The rename is atomic but the directory is not flushed: a crash of the machine can
    lose the latest entries, never mix them up. On Windows, a rename that another process
    blocks past a short retry drops the write (the next lookup recompiles).

    ``max_size_bytes`` (None: no limit) bounds the bytes on disk, temporary files included.
    A store that goes over it removes the entries read least recently first until the rest
    fits. The bound is soft: processes writing at once can exceed it for a while.

    Keys made by make_program_cache_key include the compiler's version, so one directory can
    serve several versions of cuda.core and of the compilers; entries of an older key schema
    are simply never found again, count in ``len()``, and go when eviction reaches them.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, max_size_bytes: int | None = None) -> None:
        self._max_size_bytes = _checked_size_limit(max_size_bytes)
        if path is not None and not isinstance(path, (str, os.PathLike)):
            raise TypeError(
                f"path must be a str, an os.PathLike or None (the default directory), got {type(path).__name__}"
            )
        self._root = Path(path) if path is not None else _default_cache_dir()
        self._entries = self._root / _ENTRIES_SUBDIR
        self._tmp = self._root / _TMP_SUBDIR
        # The root and entries/ keep the default permissions, so that a group can share a cache;
        # tmp/ is the owner's alone, so that nobody reads or swaps a file while it is written.
        # The entries themselves are created owner-only by mkstemp and keep that when renamed.
        self._root.mkdir(parents=True, exist_ok=True)
        self._entries.mkdir(exist_ok=True)
        self._tmp.mkdir(mode=0o700, exist_ok=True)
        self._sweep_stale_tmp_files()
        # Bytes on disk as this process believes: updated by each write and delete, so that a
        # write under the limit costs no directory scan, and re-set from the disk by every
        # eviction pass (which corrects what other processes changed).
        self._size_lock = threading.Lock()
        self._tracked_size_bytes = self._compute_total_size() if self._max_size_bytes is not None else 0

    def __repr__(self) -> str:
        return f"FileStreamProgramCache({str(self._root)!r}, max_size_bytes={self._max_size_bytes!r})"

    def _path_for_key(self, key: object) -> Path:
        """The entry file of ``key``: its SHA-256 (fixed length whatever the key's, and
        approved under FIPS), split into a 2-digit shard directory and the rest."""
        digest = hashlib.sha256(_as_key_bytes(key), usedforsecurity=False).hexdigest()
        return self._entries / digest[:2] / digest[2:]

    # -- mapping ------------------------------------------------------------------------

    def __getitem__(self, key: CacheKey) -> bytes:
        path = self._path_for_key(key)
        try:
            st, data, intact = _read_entry(path)
        except FileNotFoundError:
            raise KeyError(key) from None
        if not intact:
            # Damaged after it was written: remove it (unless it was replaced meanwhile), so
            # that the recompiled value takes its place.
            with contextlib.suppress(OSError):
                _prune_if_stat_unchanged(path, st)
            raise KeyError(key)
        _touch_atime(path, st)
        return data

    def __setitem__(self, key: CacheKey, value: CacheValue) -> None:
        data = _extract_bytes(value)
        target = self._path_for_key(key)
        _make_dir(target.parent)
        # tmp/ may have been removed by hand since the cache was opened.
        _make_dir(self._tmp, 0o700)
        replaced = self._size_of(target) if self._max_size_bytes is not None else 0
        fd, name = tempfile.mkstemp(prefix=_TMP_PREFIX, dir=self._tmp)
        staged = Path(name)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                _seal(file.fileno(), data)
                os.fsync(file.fileno())
            committed = self._commit(staged, target)
        except BaseException:
            with contextlib.suppress(OSError):
                staged.unlink()
            raise
        if not committed:
            with contextlib.suppress(OSError):
                staged.unlink()
            return
        if self._max_size_bytes is None:
            return
        with self._size_lock:
            self._tracked_size_bytes += len(data) - replaced
            over = self._tracked_size_bytes > self._max_size_bytes
        if over:
            self._enforce_size_cap()

    @staticmethod
    def _commit(staged: Path, target: Path) -> bool:
        """Rename the written ``staged`` file over ``target`` (see _replace_with_sharing_retry).
        Another process's clear() may remove the shard directory, empty for a moment, between
        its mkdir and the rename: it is made again, a few times at most."""
        for _ in range(_COMMIT_ATTEMPTS - 1):
            try:
                return _replace_with_sharing_retry(staged, target)
            except FileNotFoundError:
                if not staged.exists():
                    raise
                _make_dir(target.parent)
        return _replace_with_sharing_retry(staged, target)

    def __delitem__(self, key: CacheKey) -> None:
        path = self._path_for_key(key)
        size = 0
        try:
            if self._max_size_bytes is not None:
                size = path.stat().st_size
            _unlink_with_sharing_retry(path)
        except FileNotFoundError:
            raise KeyError(key) from None
        if self._max_size_bytes is not None:
            with self._size_lock:
                # An eviction pass may have re-counted the disk between the stat and here, without
                # this file: never below zero, or the tracker would never again reach the limit
                # that triggers the pass that corrects it.
                self._tracked_size_bytes = max(0, self._tracked_size_bytes - size)

    def __len__(self) -> int:
        """The entry files on disk, including entries of older key schemas that no lookup finds
        any more (until eviction removes them)."""
        return sum(1 for _ in self._iter_entry_paths())

    def clear(self) -> None:
        """Remove every entry, except those another process replaces meanwhile, and the
        temporary files of dead writers (live writers' are left to finish)."""
        snapshot = []
        for path in self._iter_entry_paths():
            with contextlib.suppress(FileNotFoundError):
                snapshot.append((path, path.stat()))
        for path, st in snapshot:
            _prune_if_stat_unchanged(path, st)
        self._sweep_stale_tmp_files()
        with contextlib.suppress(OSError):
            for shard in self._entries.iterdir():
                with contextlib.suppress(OSError):
                    shard.rmdir()  # only empty ones go; a writer may be filling one again
        if self._max_size_bytes is not None:
            total = self._compute_total_size()
            with self._size_lock:
                self._tracked_size_bytes = total

    # -- the directory --------------------------------------------------------------------

    @staticmethod
    def _size_of(path: Path) -> int:
        try:
            return path.stat().st_size
        except FileNotFoundError:
            return 0

    def _iter_entry_paths(self) -> Iterator[Path]:
        """The entry files: the plain files of the shard directories of entries/ (stray files
        beside the shards are none). os.scandir knows each kind without a stat; the with
        blocks close the directories even when the caller stops early."""
        try:
            with os.scandir(self._entries) as shards:
                for shard in shards:
                    if not shard.is_dir(follow_symlinks=False):
                        continue
                    try:
                        with os.scandir(shard.path) as files:
                            for file in files:
                                if file.is_file(follow_symlinks=False):
                                    yield Path(file.path)
                    except FileNotFoundError:
                        continue
        except FileNotFoundError:
            return

    def _iter_tmp_entries(self) -> Iterator[os.DirEntry[str]]:
        try:
            with os.scandir(self._tmp) as files:
                for file in files:
                    if file.is_file(follow_symlinks=False):
                        yield file
        except FileNotFoundError:
            return

    def _sum_tmp_sizes(self) -> int:
        """Bytes in tmp/: writes in progress take disk space too, and count against the limit."""
        total = 0
        for file in self._iter_tmp_entries():
            with contextlib.suppress(FileNotFoundError):
                total += file.stat(follow_symlinks=False).st_size
        return total

    def _compute_total_size(self) -> int:
        total = self._sum_tmp_sizes()
        for path in self._iter_entry_paths():
            total += self._size_of(path)
        return total

    def _sweep_stale_tmp_files(self) -> None:
        """Remove the temporary files of writers that died (older than _TMP_STALE_AGE_SECONDS)."""
        cutoff = time.time() - _TMP_STALE_AGE_SECONDS
        for file in self._iter_tmp_entries():
            try:
                if file.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(file.path)
            except OSError:
                continue

    def _enforce_size_cap(self) -> None:
        """Bring the bytes on disk under the limit, removing the least recently read entries
        first, and re-set the tracker from what the disk holds.

        Each removal is guarded: an entry another process renamed into place since the scan is
        kept (and counted at its new size). A Windows sharing violation skips an entry for
        this pass; another PermissionError is raised, since the cache could not keep its bound.
        A burst of writes in progress can make this evict more than needed; the bound is soft."""
        if self._max_size_bytes is None:
            return
        self._sweep_stale_tmp_files()
        scanned = []
        for path in self._iter_entry_paths():
            with contextlib.suppress(FileNotFoundError):
                scanned.append((path, path.stat()))
        total = self._sum_tmp_sizes() + sum(st.st_size for _, st in scanned)
        scanned.sort(key=lambda item: (item[1].st_atime_ns, item[1].st_mtime_ns))
        for path, st in scanned:
            if total <= self._max_size_bytes:
                break
            try:
                now = path.stat()
            except FileNotFoundError:
                total -= st.st_size  # someone else removed it
                continue
            if _stat_key(now) != _stat_key(st):
                total += now.st_size - st.st_size  # replaced meanwhile: keep it, at its new size
                continue
            try:
                _unlink_with_sharing_retry(path)
            except FileNotFoundError:
                pass
            except PermissionError as exc:
                if not _is_windows_sharing_violation(exc):
                    raise
                continue
            total -= st.st_size
        with self._size_lock:
            self._tracked_size_bytes = total
