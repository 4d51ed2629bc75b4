# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The interface every program cache implements, and the coercions its backends share."""

from __future__ import annotations

import abc
import collections.abc
import os
from pathlib import Path

from cuda.core._module import ObjectCode

CacheKey = bytes | str
CacheValue = bytes | bytearray | memoryview | ObjectCode


def _as_key_bytes(key: object) -> bytes:
    """A key as bytes: str keys are UTF-8, so "k" and b"k" name one entry."""
    if isinstance(key, str):
        return key.encode("utf-8")
    if isinstance(key, (bytes, bytearray)):
        return bytes(key)
    raise TypeError(
        f"cache keys must be bytes or str, got {type(key).__name__}: pass the bytes that "
        "make_program_cache_key() returns, or a str"
    )


def _extract_bytes(value: object) -> bytes:
    """The bytes a cache stores for ``value``: bytes-like values as they are; for an ObjectCode
    its code, read from the file now when the ObjectCode names a file (so that the entry keeps
    the binary even when the file later moves or changes)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if not isinstance(value, ObjectCode):
        raise TypeError(
            f"cache values must be bytes-like or ObjectCode, got {type(value).__name__}: store "
            "the ObjectCode that Program.compile() returns, or its bytes"
        )
    code = value.code
    if isinstance(code, (str, os.PathLike)):
        try:
            return Path(code).read_bytes()
        except FileNotFoundError:
            # The path is written with str(), not repr(), so that it reads as the user wrote it.
            raise FileNotFoundError(
                f"cannot store path-backed ObjectCode in the cache: its file {os.fspath(code)} "
                "does not exist (any more)"
            ) from None
    return bytes(code)


def _checked_size_limit(max_size_bytes: int | None) -> int | None:
    """``max_size_bytes`` when it is None or a positive number; TypeError for a non-number,
    ValueError for 0 or less (such a limit would drop every entry as soon as it is stored)."""
    if max_size_bytes is None:
        return None
    if isinstance(max_size_bytes, bool) or not isinstance(max_size_bytes, (int, float)):
        raise TypeError(f"max_size_bytes must be a number of bytes or None, got {type(max_size_bytes).__name__}")
    if max_size_bytes <= 0:
        raise ValueError(
            f"max_size_bytes must be positive or None (no limit), got {max_size_bytes}: a limit "
            "of 0 or less would evict every entry at once"
        )
    return max_size_bytes


class ProgramCacheResource(abc.ABC):
    """A cache of compiled programs: bytes in, bytes out, under bytes or str keys.

    The values are the compiled binaries themselves (cubin, PTX, LTO IR), with nothing around
    them, so that what a cache holds stays usable by NVIDIA's tools. Storing accepts bytes,
    bytearray, memoryview or an ObjectCode (whose code is stored; a file-backed one is read
    at once); reading returns bytes. A str key is its UTF-8 bytes.

    Usually a cache is only handed to ``Program.compile(target, cache=cache)``, which makes
    the key (make_program_cache_key), rebuilds an ObjectCode on a hit and stores the result on
    a miss. Only the binary is kept: an ObjectCode's symbol_mapping is not.

    There is no ``in``: between ``key in cache`` and ``cache[key]`` another process may
    replace or evict the entry. ``get(key)`` asks once and returns the bytes or the default.
    """

    @abc.abstractmethod
    def __getitem__(self, key: CacheKey) -> bytes:
        """The bytes stored under ``key``; KeyError when there are none."""

    @abc.abstractmethod
    def __setitem__(self, key: CacheKey, value: CacheValue) -> None:
        """Store ``value``'s bytes under ``key``, replacing what was there."""

    @abc.abstractmethod
    def __delitem__(self, key: CacheKey) -> None:
        """Remove ``key``'s entry; KeyError when there is none."""

    @abc.abstractmethod
    def __len__(self) -> int:
        """How many entries the cache holds."""

    @abc.abstractmethod
    def clear(self) -> None:
        """Remove every entry."""

    def get(self, key: CacheKey, default: bytes | None = None) -> bytes | None:
        """The bytes under ``key``, or ``default`` when there are none."""
        try:
            return self[key]
        except KeyError:
            return default

    def update(
        self,
        items: collections.abc.Mapping[CacheKey, CacheValue] | collections.abc.Iterable[tuple[CacheKey, CacheValue]],
        /,
    ) -> None:
        """Store each (key, value) of a mapping or of an iterable of pairs, one by one through
        ``cache[key] = value`` (so each is coerced and counted against the size limit). Not
        atomic: a failure leaves the items before it stored."""
        pairs = items.items() if isinstance(items, collections.abc.Mapping) else items
        for key, value in pairs:
            self[key] = value

    def close(self) -> None:  # noqa: B027 -- deliberately a no-op, not abstract
        """Release what the cache holds open. Nothing here; a backend with open files or
        connections releases them. ``with cache:`` calls it at the end."""

    def __enter__(self) -> ProgramCacheResource:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.close()
