#!/usr/bin/env python3
"""The reference build for benchmarks/build_bench.py: this project's sources built the way
NVIDIA's cuda_core builds today. Never the product's build.

What it does, as upstream's setuptools build does:

* ``cythonize`` with ``compile_time_env={"CUDA_CORE_BUILD_MAJOR": N}`` and ``nthreads``
  set to the core count, generated C++ in a per-major keyed directory
  (``build/cython-cuN``), so the C++ of one major never overwrites the other's;
* ``build_ext --inplace`` with ``-j`` (parallel compiles), the .so files landing in
  the source tree, named by the Python ABI tag alone, as in an editable install;
* a stamp file (``build/cuda-major.stamp``) recording the major of the in-place
  build; when the major changes, cythonize and build_ext are forced, since neither
  Cython's check (``compile_time_env`` is not hashed) nor setuptools' mtimes would
  notice. The coverage setting is part of the stamp for the same reason.

Headers, include paths and the bindings' pxd root come from tools/cuda_probe.py, as
upstream's build_hooks take them from CUDA_PATH and the installed cuda-bindings.

Usage (from any directory): python benchmarks/reference_setuptools.py [--coverage]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))
import cuda_probe  # noqa: E402

PACKAGE_ROOT = REPO_ROOT / "cuda_core"
CORE = PACKAGE_ROOT / "cuda" / "core"
MODULES = {
    "cuda.core._utils.cuda_utils": ["_utils/cuda_utils.pyx"],
    "cuda.core._system": ["_system.pyx"],
    "cuda.core._device": ["_device.pyx", "_cpp/uuid_format.cpp"],
    "cuda.core._event": ["_event.pyx"],
    "cuda.core._stream": ["_stream.pyx"],
    "cuda.core._memory": ["_memory.pyx"],
    "cuda.core._module": ["_module.pyx"],
    "cuda.core._program": ["_program.pyx"],
    "cuda.core._launch": ["_launch.pyx"],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coverage", action="store_true", help="Cython line tracing")
    args = parser.parse_args(argv)

    from Cython.Build import cythonize
    from setuptools import Extension, setup

    toolkit, bindings = cuda_probe.probe("", "auto", headers_only=False)
    assert bindings is not None
    major = toolkit.major
    stamp = REPO_ROOT / "build" / "cuda-major.stamp"
    wanted = f"{major} coverage={args.coverage}"
    force = not stamp.is_file() or stamp.read_text() != wanted
    macros = [("CUDA_CORE_BUILD_MAJOR", str(major))]
    if args.coverage:
        macros += [("CYTHON_TRACE", "1"), ("CYTHON_TRACE_NOGIL", "1")]
    extensions = [
        Extension(name, [str(CORE / source) for source in sources], language="c++",
                  include_dirs=[*toolkit.include_dirs, str(CORE / "_compat"), str(CORE / "_cpp")],
                  define_macros=macros, extra_compile_args=["-std=c++17"])
        for name, sources in MODULES.items()
    ]
    jobs = os.cpu_count() or 1
    ext_modules = cythonize(
        extensions,
        nthreads=jobs,
        build_dir=str(REPO_ROOT / "build" / f"cython-cu{major}"),
        include_path=[str(PACKAGE_ROOT), str(CORE / "_compat" / f"cu{major}"), bindings.pxd_root],
        compile_time_env={"CUDA_CORE_BUILD_MAJOR": major},
        compiler_directives={"language_level": 3, "linetrace": args.coverage},
        force=force,
        quiet=True,
    )
    os.chdir(REPO_ROOT)
    setup(name="cuda-core-reference", ext_modules=ext_modules, package_dir={"": "cuda_core"},
          script_args=["-q", "build_ext", "--inplace", "-j", str(jobs), *(["--force"] if force else [])])
    import Cython
    (CORE / "_build_info.py").write_text(cuda_probe.build_info_source(
        toolkit, bindings, "release", args.coverage, Cython.__version__, "reference", "reference"))
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
