// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
// cuda.core's C++ helpers for downstream extensions: the native CUDA handle inside a
// cuda.bindings handle object.
//
// cuda.bindings wraps each CUDA handle type (cuda.bindings.driver.CUstream, CUevent, ...,
// cuda.bindings.nvrtc.nvrtcProgram) in a cdef class holding the handle and a pointer to where
// it lives. Cython hands such an object to C++ as a pointer to the class's struct; the pointer
// member is `_pvt_ptr` in cuda.bindings 12.8 and later, `_ptr` before. Both are accepted, so one
// extension source builds against every cuda.bindings 12.x and 13.x.
//
//   from cuda.bindings cimport cydriver
//   from cuda.bindings.driver cimport CUstream as PyCUstream
//   cdef extern from "utility.hpp":
//       cydriver.CUstream get_cuda_native_handle(PyCUstream) nogil

#pragma once

#include <type_traits>
#include <utility>

namespace cuda_core_utility {

// Whether the cuda.bindings object struct `Object` names its handle pointer `_pvt_ptr`
// (cuda.bindings 12.8+) or `_ptr` (earlier releases).
template <typename Object, typename = void>
struct names_pvt_ptr : std::false_type {};
template <typename Object>
struct names_pvt_ptr<Object, std::void_t<decltype(std::declval<Object&>()._pvt_ptr)>> : std::true_type {};

template <typename Object, typename = void>
struct names_ptr : std::false_type {};
template <typename Object>
struct names_ptr<Object, std::void_t<decltype(std::declval<Object&>()._ptr)>> : std::true_type {};

}  // namespace cuda_core_utility

// The native handle (CUstream, CUevent, nvrtcProgram, ...) that `obj`, a pointer to a
// cuda.bindings handle object, wraps: a reference to the object's own storage, so writing
// through it changes the handle the Python object holds.
template <typename ObjectPointer>
inline auto& get_cuda_native_handle(const ObjectPointer& obj) {
    using Object = std::remove_cv_t<std::remove_pointer_t<ObjectPointer>>;
    static_assert(std::is_pointer_v<ObjectPointer>,
                  "get_cuda_native_handle takes a cuda.bindings handle object (a pointer to its struct)");
    if constexpr (cuda_core_utility::names_pvt_ptr<Object>::value) {
        return *obj->_pvt_ptr;
    } else {
        static_assert(cuda_core_utility::names_ptr<Object>::value,
                      "not a cuda.bindings handle object: it has neither _pvt_ptr nor _ptr");
        return *obj->_ptr;
    }
}
