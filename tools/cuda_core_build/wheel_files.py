# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What meson-python cannot: rewrite a wheel it built, with a true RECORD, keeping order, timestamps and modes."""

import base64
import hashlib
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Wheel:
    entries: list[zipfile.ZipInfo]  # in archive order
    contents: dict[str, bytes]

    @classmethod
    def read(cls, path: Path) -> "Wheel":
        with zipfile.ZipFile(path) as archive:
            return cls(archive.infolist(), {info.filename: archive.read(info) for info in archive.infolist()})

    def dist_info(self, name: str) -> str:
        """The archive name of a .dist-info file, e.g. METADATA."""
        return next(n for n in self.contents if n.endswith(f".dist-info/{name}"))

    def text(self, name: str) -> str:
        return self.contents[name].decode()

    def put(self, name: str, data: bytes) -> None:
        """Replace or add a file; an added one takes RECORD's timestamp and goes before it."""
        if name not in self.contents:
            record = next(info for info in self.entries if info.filename == self.dist_info("RECORD"))
            info = zipfile.ZipInfo(name, date_time=record.date_time)
            info.external_attr = 0o644 << 16
            self.entries.insert(self.entries.index(record), info)
        self.contents[name] = data

    def write(self, path: Path) -> None:
        """Write the wheel with a fresh RECORD, atomically; each file 0644, or 0755 where any x bit was set
        (meson-python copies the source's modes, and tar -x as root keeps an sdist's 0664, pip makes 0644)."""
        record = self.dist_info("RECORD")
        names = [info.filename for info in self.entries if info.filename != record]
        digests = {n: base64.urlsafe_b64encode(hashlib.sha256(self.contents[n]).digest()).rstrip(b"=") for n in names}
        lines = [f"{n},sha256={digests[n].decode()},{len(self.contents[n])}" for n in names]
        self.contents[record] = ("\n".join([*lines, f"{record},,"]) + "\n").encode()
        with zipfile.ZipFile(path.with_name(path.name + ".tmp"), "w") as target:
            for info in self.entries:
                mode = 0o755 if info.external_attr >> 16 & 0o111 else 0o644
                info.external_attr = info.external_attr & ~(0o7777 << 16) | mode << 16
                target.writestr(info, self.contents[info.filename], compress_type=zipfile.ZIP_DEFLATED)
        os.replace(path.with_name(path.name + ".tmp"), path)


def metadata_headers(metadata: str) -> tuple[list[str], str]:
    """METADATA's header lines, and its body (the long description)."""
    header, _, body = metadata.partition("\n\n")
    return header.splitlines(), body


def join_metadata(lines: list[str], body: str) -> str:
    return "\n".join(lines) + ("\n\n" + body if body else "\n")
