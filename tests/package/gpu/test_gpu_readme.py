# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The README's first example runs as written, and fills the buffer it says it fills."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[3] / "README.md"


def test_readme_example_runs(cuda_core) -> None:
    example = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict[str, object] = {}
    exec(compile(example, str(README), "exec"), namespace)
    out, stream, n = namespace["out"], namespace["stream"], namespace["n"]
    pinned = cuda_core.LegacyPinnedMemoryResource().allocate(out.size)
    out.copy_to(pinned, stream=stream)
    stream.sync()
    assert np.array_equal(np.from_dlpack(pinned).view(np.float32)[:n], np.ones(n, dtype=np.float32))
