# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
# Marks cuda/ as a package for Cython alone, so modules get their full names
# (cuda.core._device, not core._device). Not installed: at run time cuda is a
# namespace package shared with cuda-bindings.
