# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Versions of what cuda.core runs against: the cuda-bindings package and the CUDA driver."""

import functools

def _parse_version_triple(version_str: str) -> tuple[int, int, int]: ...

# Both are functions under @functools.cache, as in version.pyx: typed as the cache wrapper
# itself (callable, and with cache_clear()), which is what the module holds. The installed
# cuda-bindings version and the CUDA version the driver supports, as (major, minor, patch).
binding_version: functools._lru_cache_wrapper[tuple[int, int, int]]
driver_version: functools._lru_cache_wrapper[tuple[int, int, int]]
