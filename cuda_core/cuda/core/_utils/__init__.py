# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Internal helpers of cuda.core: error checking (cuda_utils), versions (version), and the
explanations of CUDA error codes that CUDAError messages carry."""
