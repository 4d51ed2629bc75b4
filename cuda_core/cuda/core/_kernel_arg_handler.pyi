# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Type stub of cuda.core._kernel_arg_handler: kernel arguments packed for the driver."""

from typing import Any, Sequence

from typing_extensions import disjoint_base

@disjoint_base
class ParamHolder:
    """Packed kernel arguments; ``ptr`` is the address of their ``void*`` array (0 if none)."""

    ptr: int

    def __init__(self, kernel_args: Sequence[Any]) -> None: ...

def _packed_arguments(*kernel_args: Any, parameter_sizes: Sequence[int] | None = None) -> list[bytes]:
    """The bytes each argument is passed to a kernel as."""
