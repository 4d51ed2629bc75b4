# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Wheels as the backend rewrites them (tools/cuda_core_build/wheel_files.py)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from cuda_core_build.wheel_files import Wheel


def test_a_rewritten_wheel_has_the_modes_of_any_unpack(tmp_path: Path) -> None:
    """Issue 50: meson-python copies each file's mode from the tree it builds, so an sdist unpacked by
    tar -x as root (0664, 0775) and by pip (0644, 0755) gave wheels whose bytes differed. The rewrite
    makes every file 0644, or 0755 where any x bit was set, and keeps the entry's file type."""
    wheels = {}
    for unpack, (plain, executable) in {"tar": (0o100664, 0o100775), "pip": (0o100644, 0o100755)}.items():
        path = tmp_path / unpack / "x-1-py3-none-any.whl"
        path.parent.mkdir()
        with zipfile.ZipFile(path, "w") as archive:
            for name, mode in (("x/a.py", plain), ("x/run.sh", executable), ("x-1.dist-info/RECORD", plain)):
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = mode << 16
                archive.writestr(info, name)
        Wheel.read(path).write(path)
        wheels[unpack] = path.read_bytes()
        modes = {i.filename: i.external_attr >> 16 for i in zipfile.ZipFile(path).infolist()}
        assert modes == {"x/a.py": 0o100644, "x/run.sh": 0o100755, "x-1.dist-info/RECORD": 0o100644}
    assert wheels["tar"] == wheels["pip"]
