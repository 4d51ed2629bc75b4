# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The GPU harness: builds cuda.core on a GPU machine for CUDA minors of the matrix and checks it
there, ours beside NVIDIA's cuda.core. One module per role, each importing only those above it:

  process     run(), the one way a process is started; environment(), say(), Fatal
  plan        what to build and carry: the minors, their scratch dirs, the carried wheels
  session     one run's settings and failures; Session.run for the steps' commands
  machine     the machine's setup (once), and each side's PYTHONPATH
  steps/      one module per step or family: ours, bench, sizes, upstream, numba
  build       a minor's wheel, built and installed
  dual        the dual wheel: one minor's wheel per major merged, and tested with each
  check       the whole run: plan, setup, build and steps per minor, dual wheel
  gpu_check   the command line: argparse, then check()

upstream_suite.py and numba_suite.py run NVIDIA's and numba-cuda's test suites on both sides,
each file or module in its own process; the steps upstream and numba drive them by path.
Nothing here needs a GPU to import or to test (tests/tools/test_gpu_harness.py).
"""
