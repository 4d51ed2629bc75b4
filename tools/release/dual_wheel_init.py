# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core, dual-major wheel: load the build that matches the installed cuda-bindings.

tools/release/merge_wheels.py puts this file at cuda/core/__init__.py, with the build of each
CUDA major in a subpackage directory of its own (_cu12/, _cu13/). Importing cuda.core
runs this module, which finds the bindings' major and then replaces itself, in
sys.modules, by the chosen build's own __init__ loaded under the name cuda.core with
that build's directory as its __path__. The import system hands out the replacement,
and every submodule (cuda.core._device, ...) then resolves inside the chosen build,
under the names its extension modules were compiled with. Nothing is copied between
modules.
"""

import importlib.metadata
import importlib.util
import sys
from pathlib import Path

# Major -> the directory of its build, e.g. {12: .../_cu12, 13: .../_cu13}.
BUILDS = {int(path.name[3:]): path for path in Path(__file__).parent.glob("_cu[0-9]*") if path.is_dir()}


def _bindings_major() -> int:
    try:
        version = importlib.metadata.version("cuda-bindings")
    except importlib.metadata.PackageNotFoundError:
        raise ImportError('cuda.core needs cuda-bindings: pip install "cuda-core[cu12]" or "cuda-core[cu13]"') from None
    major = int(version.split(".")[0])
    if major not in BUILDS:
        newest = max(BUILDS)
        raise ImportError(
            f"cuda-bindings {version} is for CUDA {major}; this cuda.core has builds for CUDA "
            f'{" and ".join(map(str, sorted(BUILDS)))}: pip install "cuda-bindings=={newest}.*"'
        )
    return major


def _load_build() -> None:
    build_dir = BUILDS[_bindings_major()]
    spec = importlib.util.spec_from_file_location(
        __name__, build_dir / "__init__.py", submodule_search_locations=[str(build_dir)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[__name__] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[__name__]
        raise


_load_build()
