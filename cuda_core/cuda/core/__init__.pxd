# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# cuda.core as a Cython package: its modules' declarations are in their own .pxd files.
