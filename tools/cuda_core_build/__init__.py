# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The code that runs inside cuda-core's builds; README's "Where things are" says what each module does."""
