# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A program cache in this process's memory."""

from __future__ import annotations

import threading
from collections import OrderedDict

from ._abc import CacheKey, CacheValue, ProgramCacheResource, _as_key_bytes, _checked_size_limit, _extract_bytes


class InMemoryProgramCache(ProgramCacheResource):
    """A program cache in a dict, for one process: nothing is written to disk and nothing
    outlives the process (FileStreamProgramCache does both).

    ``max_size_bytes`` bounds the sum of the stored values' sizes (None: no bound). When a
    store goes over it, the least recently used entries go first (reading an entry uses it),
    until the rest fits; a value larger than the bound itself is therefore not kept. Every
    method takes one lock, so threads can share a cache.
    """

    def __init__(self, *, max_size_bytes: int | None = None) -> None:
        self._max_size_bytes = _checked_size_limit(max_size_bytes)
        # Least recently used first; the values are the stored bytes.
        self._entries: OrderedDict[bytes, bytes] = OrderedDict()
        self._total_bytes = 0
        self._lock = threading.RLock()

    def __getitem__(self, key: CacheKey) -> bytes:
        name = _as_key_bytes(key)
        with self._lock:
            try:
                data = self._entries[name]
            except KeyError:
                raise KeyError(key) from None
            self._entries.move_to_end(name)
            return data

    def __setitem__(self, key: CacheKey, value: CacheValue) -> None:
        data = _extract_bytes(value)
        name = _as_key_bytes(key)
        with self._lock:
            self._forget(name)
            self._entries[name] = data
            self._total_bytes += len(data)
            self._evict_over_limit()

    def __delitem__(self, key: CacheKey) -> None:
        with self._lock:
            if not self._forget(_as_key_bytes(key)):
                raise KeyError(key)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._total_bytes = 0

    def _forget(self, name: bytes) -> bool:
        """Drop ``name``'s entry if there is one; whether there was."""
        data = self._entries.pop(name, None)
        if data is None:
            return False
        self._total_bytes -= len(data)
        return True

    def _evict_over_limit(self) -> None:
        if self._max_size_bytes is None:
            return
        while self._entries and self._total_bytes > self._max_size_bytes:
            _, data = self._entries.popitem(last=False)
            self._total_bytes -= len(data)
