# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Host callbacks for graphs: Python callables and ctypes CUhostFn function pointers."""

_CUHOSTFN_HINT: str

def _cuhostfn_type_error(detail) -> TypeError:
    """The TypeError for a ctypes callback not declared as CUhostFn."""

def _validate_ctypes_host_callback(fn) -> None:
    """Reject ctypes callbacks whose declared prototype is not CUhostFn."""
