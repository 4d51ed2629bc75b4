// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
/* Formatting of device UUIDs, kept in plain C++ so it needs no CUDA header. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Write the canonical 8-4-4-4-12 lowercase hex form of 16 UUID bytes, and a NUL,
 * into out (37 bytes). */
void cuda_core_format_uuid(const unsigned char* bytes, char* out);

#ifdef __cplusplus
}
#endif
