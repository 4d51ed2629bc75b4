# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The code that runs inside cuda-core's builds.

- ``probe``: finds the CUDA headers and cuda-bindings and derives the CUDA major (a library);
- ``configure``: Meson's configure-time entry point to the probe;
- ``build_info``: the build-time entry point that writes ``cuda/core/_build_info.py``;
- ``cython_stamp``: the build-time entry point that records the Cython in use;
- ``cuda_version``: CUDA_VERSION as the compiler reads it from cuda.h;
- ``backend``: the PEP 517 backend, over meson-python;
- ``wheel_files``: reading and rewriting wheels with a true RECORD;
- ``facts``: the supported majors, required headers and pins, read from requirements/;
- ``copied_into_wheels/``: files that are copied into wheels as they are, never imported here.

Meson runs the entry points with this directory's parent on PYTHONPATH; developer
scripts beside it in tools/ import it directly.
"""
