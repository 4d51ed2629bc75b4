// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
#include "uuid_format.hpp"

#include <cstddef>

namespace {
constexpr char kHexDigits[] = "0123456789abcdef";
// Byte offsets after which the canonical form puts a dash: 8-4-4-4-12 hex digits.
constexpr bool dash_after(std::size_t byte) { return byte == 3 || byte == 5 || byte == 7 || byte == 9; }
}  // namespace

extern "C" void cuda_core_format_uuid(const unsigned char* bytes, char* out) {
    char* cursor = out;
    for (std::size_t i = 0; i < 16; ++i) {
        *cursor++ = kHexDigits[bytes[i] >> 4];
        *cursor++ = kHexDigits[bytes[i] & 0x0f];
        if (dash_after(i)) {
            *cursor++ = '-';
        }
    }
    *cursor = '\0';
}
