# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The code that runs inside cuda-core's builds, in the order a build meets it:

- ``request``: what the user asked for (toolkit pointed at, CUDA major), parsed once;
- ``probe``: the CUDA headers, cuda-bindings and Cython found, and the major: the one place that derives it;
- ``record``: a build directory's record of its environment, by real path and content, and its one reader;
- ``steps``: the steps Meson runs (configure, the content check, the build info, the error explanations);
- ``backend``: the PEP 517 backend, over meson-python; ``editable``: what an editable install runs;
- ``facts``, ``version``, ``wheel_files``: requirements/matrix.ini, the version, wheels rewritten.
"""
