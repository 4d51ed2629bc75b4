"""Rewrite files inside a wheel and keep its RECORD true (sha256 and size of every file)."""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from pathlib import Path


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def rewrite_wheel(wheel: Path, changes: dict[str, bytes]) -> None:
    """Replace or add the files in ``changes`` (archive name -> content), in place.

    Entries keep their order and timestamps; added files take the timestamp of the
    RECORD entry, so a reproducible wheel stays reproducible.
    """
    with zipfile.ZipFile(wheel) as source:
        infos = source.infolist()
        contents = {info.filename: source.read(info) for info in infos}
    record_name = next(name for name in contents if name.endswith(".dist-info/RECORD"))
    record_info = next(info for info in infos if info.filename == record_name)
    for name, data in changes.items():
        if name not in contents:
            info = zipfile.ZipInfo(name, date_time=record_info.date_time)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            infos.insert(infos.index(record_info), info)
        contents[name] = data
    lines = [_record_line(info.filename, contents[info.filename]) for info in infos if info.filename != record_name]
    contents[record_name] = ("\n".join(lines + [f"{record_name},,"]) + "\n").encode()
    tmp = wheel.with_name(wheel.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as target:
        for info in infos:
            target.writestr(info, contents[info.filename], compress_type=zipfile.ZIP_DEFLATED)
    os.replace(tmp, wheel)
