// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
// cuda.core's C++ helpers for strided layouts (shape and strides in elements, as in
// cuda.core._layout._StridedLayout), for downstream extensions that order or merge axes the
// way cuda.core does.

#ifndef CUDA_CORE_LAYOUT_HPP
#define CUDA_CORE_LAYOUT_HPP

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

// Axes are numbered by the bits of a 64-bit mask, so a layout has at most this many.
#define STRIDED_LAYOUT_MAX_NDIM 64

// The axis mask that lets every axis merge into its left neighbour: all bits but bit 0, as
// axis 0 has no left neighbour (see _StridedLayout.flattened_axis_mask).
#define AXES_MASK_ALL 0xFFFFFFFFFFFFFFFEULL

// |x| of a stride or an extent.
inline int64_t _c_abs(int64_t x) { return x < 0 ? -x : x; }

// Exchange two values (a noexcept std::swap, callable from Cython by this plain name).
template <typename T>
void _swap(T &a, T &b) noexcept {
    using std::swap;
    swap(a, b);
}

// The axes 0..ndim-1 into `indices`, from the largest stride magnitude to the smallest; equal
// strides go to the larger extent first, then to the lower axis. NULL strides (a C-contiguous
// layout) leave the axes in order 0..ndim-1.
inline void _order_from_strides(std::vector<int> &indices, const int64_t *shape, const int64_t *strides,
                                int ndim) {
    indices.clear();
    for (int axis = 0; axis < ndim; ++axis) {
        indices.push_back(axis);
    }
    if (strides == nullptr) {
        return;
    }
    auto comes_first = [shape, strides](int a, int b) {
        const int64_t stride_a = _c_abs(strides[a]), stride_b = _c_abs(strides[b]);
        if (stride_a != stride_b) {
            return stride_a > stride_b;
        }
        return shape[a] > shape[b];
    };
    // Stable: axes equal in stride and extent keep their order, lower axis first.
    std::stable_sort(indices.begin(), indices.end(), comes_first);
}

#endif  // CUDA_CORE_LAYOUT_HPP
