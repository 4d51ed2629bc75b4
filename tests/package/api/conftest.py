# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""API tests that need no GPU: what cuda.core does without a driver, its names, its checks of
bad arguments. On a GPU machine the tests of the no-driver behaviour skip."""
