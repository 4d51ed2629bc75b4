# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The program cache: compiled programs kept by a key of everything that made them.

ProgramCacheResource is the interface (bytes in, bytes out); InMemoryProgramCache keeps
entries in this process, FileStreamProgramCache in a directory that processes share;
make_program_cache_key makes the keys. ``Program.compile(target, cache=cache)`` uses them.

The names here are the submodules' own; tests that replace a helper (a version probe, the
Windows flag) replace it in its submodule (``_keys``, ``_file_stream``), where it is used.
"""

from __future__ import annotations

from . import _abc, _file_stream, _in_memory, _keys  # noqa: F401  (the submodules, as NVIDIA has them)
from ._abc import ProgramCacheResource
from ._file_stream import FileStreamProgramCache
from ._in_memory import InMemoryProgramCache
from ._keys import make_program_cache_key

__all__ = ["FileStreamProgramCache", "InMemoryProgramCache", "ProgramCacheResource", "make_program_cache_key"]
