# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Read and write wheels while keeping their RECORD true (sha256 and size of every file).

Entries keep their order, timestamps and modes, so a reproducible wheel stays
reproducible through a rewrite.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BUILD_INFO = "cuda/core/_build_info.py"


@dataclass
class Wheel:
    """A wheel's entries in archive order, and their contents."""

    entries: list[zipfile.ZipInfo]
    contents: dict[str, bytes]

    @classmethod
    def read(cls, path: Path) -> Wheel:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
            return cls(entries, {info.filename: archive.read(info) for info in entries})

    def dist_info(self, name: str) -> str:
        """The archive name of a .dist-info file, e.g. METADATA."""
        return next(n for n in self.contents if n.endswith(f".dist-info/{name}"))

    def text(self, name: str) -> str:
        return self.contents[name].decode()

    def put(self, name: str, data: bytes) -> None:
        """Replace or add a file; an added one takes the RECORD entry's timestamp and goes before it."""
        if name not in self.contents:
            record = next(info for info in self.entries if info.filename == self.dist_info("RECORD"))
            info = zipfile.ZipInfo(name, date_time=record.date_time)
            info.external_attr = 0o644 << 16
            self.entries.insert(self.entries.index(record), info)
        self.contents[name] = data

    def write(self, path: Path) -> None:
        """Write the wheel with a fresh RECORD, atomically."""
        record_name = self.dist_info("RECORD")
        lines = [
            _record_line(info.filename, self.contents[info.filename])
            for info in self.entries
            if info.filename != record_name
        ]
        self.contents[record_name] = ("\n".join(lines + [f"{record_name},,"]) + "\n").encode()
        tmp = path.with_name(path.name + ".tmp")
        with zipfile.ZipFile(tmp, "w") as target:
            for info in self.entries:
                target.writestr(info, self.contents[info.filename], compress_type=zipfile.ZIP_DEFLATED)
        os.replace(tmp, path)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def assignments(source: str) -> dict[str, Any]:
    """The literal ``NAME = value`` assignments of a Python source, such as _build_info.py."""
    tree = ast.parse(source)
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }


def build_info_of(wheel: Wheel, prefix: str = "") -> dict[str, Any]:
    """The build info a cuda-core wheel carries (under ``prefix`` for a subpackage)."""
    name = BUILD_INFO.replace("cuda/core/", f"cuda/core/{prefix}")
    if name not in wheel.contents:
        raise ValueError(f"no {name} in the wheel: not a cuda-core wheel built by this project")
    return assignments(wheel.text(name))


def metadata_headers(metadata: str) -> tuple[list[str], str]:
    """METADATA split into its header lines and the body (the long description)."""
    header, _, body = metadata.partition("\n\n")
    return header.splitlines(), body


def join_metadata(lines: list[str], body: str) -> str:
    return "\n".join(lines) + ("\n\n" + body if body else "\n")


def bindings_extra(major: int) -> list[str]:
    """The METADATA lines of the extra ``cuNN``, as NVIDIA's wheel declares it: that major's
    cuda-bindings with all its NVIDIA libraries (NVRTC, nvJitLink, ...), and its cuda-toolkit."""
    extra = f'extra == "cu{major}"'
    return [
        f"Provides-Extra: cu{major}",
        f"Requires-Dist: cuda-bindings[all]=={major}.*; {extra}",
        f"Requires-Dist: cuda-toolkit=={major}.*; {extra}",
    ]
