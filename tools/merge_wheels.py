#!/usr/bin/env python3
"""Merge a CUDA 12 and a CUDA 13 wheel of cuda-core into one wheel that serves both.

Each build moves into its own subpackage directory (cuda/core/_cu12/, cuda/core/_cu13/)
and tools/dual_wheel_init.py becomes cuda/core/__init__.py: importing cuda.core loads
the build that matches the installed cuda-bindings (see that file for how).

The wheels must be of the same version, built from the same sources (the
source_digest of their build info), with the same wheel tags, and of different
majors; anything else is refused with one line that says why.

Usage: python tools/merge_wheels.py CU12.whl CU13.whl [-o OUTDIR]
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from cuda_core_build.wheel_files import Wheel, bindings_extra, build_info_of, join_metadata, metadata_headers

DISPATCHER = Path(__file__).resolve().parent / "cuda_core_build" / "copied_into_wheels" / "dual_wheel_init.py"
PACKAGE = "cuda/core/"


class MergeError(Exception):
    """Why two wheels cannot be merged; one line."""


def _tags(path: Path) -> str:
    """The python-abi-platform part of a wheel's file name."""
    return "-".join(path.stem.split("-")[-3:])


def check_mergeable(paths: list[Path], wheels: list[Wheel]) -> dict[int, int]:
    """Refuse wheels that are not one cu12 and one cu13 build of the same release; map major -> index."""
    infos = [build_info_of(wheel) for wheel in wheels]
    names = [p.name for p in paths]
    if infos[0]["version"] != infos[1]["version"]:
        raise MergeError(f"different versions: {names[0]} is {infos[0]['version']}, {names[1]} is {infos[1]['version']}")
    if infos[0]["source_digest"] != infos[1]["source_digest"]:
        raise MergeError(f"{names[0]} and {names[1]} were built from different sources (source_digest differs)")
    if infos[0]["cuda_major"] == infos[1]["cuda_major"]:
        raise MergeError(f"both wheels are CUDA {infos[0]['cuda_major']} builds: merge one cu12 and one cu13 wheel")
    if _tags(paths[0]) != _tags(paths[1]):
        raise MergeError(f"different wheel tags: {_tags(paths[0])} and {_tags(paths[1])}")
    return {int(info["cuda_major"]): index for index, info in enumerate(infos)}


def dual_metadata(metadata: str, majors: list[int]) -> str:
    """METADATA for both majors: no unconditional cuda-bindings, one extra per major."""
    lines, body = metadata_headers(metadata)
    kept = [line for line in lines if not line.startswith("Requires-Dist: cuda-bindings")
            and not line.startswith("Provides-Extra: cu")]
    for major in majors:
        kept += bindings_extra(major)
    return join_metadata(kept, body)


def merge(paths: list[Path], output_dir: Path) -> Path:
    """Write the dual wheel into ``output_dir`` and return its path."""
    wheels = [Wheel.read(path) for path in paths]
    by_major = check_mergeable(paths, wheels)
    base = wheels[by_major[max(by_major)]]
    merged = Wheel([], {})
    package_entries = []
    for major in sorted(by_major):
        wheel = wheels[by_major[major]]
        for info in wheel.entries:
            if info.filename.startswith(PACKAGE):
                moved = PACKAGE + f"_cu{major}/" + info.filename[len(PACKAGE):]
                entry = _renamed(info, moved)
                package_entries.append(entry)
                merged.contents[moved] = wheel.contents[info.filename]
    dispatcher = _renamed(next(i for i in base.entries if i.filename == PACKAGE + "__init__.py"), PACKAGE + "__init__.py")
    merged.contents[dispatcher.filename] = DISPATCHER.read_bytes()
    dist_info = [info for info in base.entries if not info.filename.startswith(PACKAGE)]
    merged.entries = [dispatcher, *package_entries, *dist_info]
    for info in dist_info:
        merged.contents[info.filename] = base.contents[info.filename]
    metadata = base.dist_info("METADATA")
    merged.contents[metadata] = dual_metadata(base.text(metadata), sorted(by_major)).encode()
    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / paths[by_major[max(by_major)]].name
    merged.write(target)
    return target


def _renamed(info: zipfile.ZipInfo, name: str) -> zipfile.ZipInfo:
    """A new entry for ``name`` with ``info``'s timestamp and mode."""
    entry = zipfile.ZipInfo(name, date_time=info.date_time)
    entry.external_attr = info.external_attr
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheels", nargs=2, type=Path, help="one cu12 and one cu13 wheel, in any order")
    parser.add_argument("-o", "--output-dir", type=Path, default=Path("dist-dual"))
    args = parser.parse_args(argv)
    try:
        target = merge(args.wheels, args.output_dir)
    except (MergeError, ValueError, OSError, zipfile.BadZipFile) as err:
        print(f"merge_wheels: error: {err}", file=sys.stderr)
        return 1
    print(f"merge_wheels: wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
