#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Merge a CUDA 12 and a CUDA 13 wheel of cuda-core into one wheel that serves both.

Each build moves into its own subpackage directory (cuda/core/_cu12/, cuda/core/_cu13/)
and tools/release/dual_wheel_init.py becomes cuda/core/__init__.py: importing cuda.core loads
the build that matches the installed cuda-bindings (see that file for how). The headers of
cuda/core/_include/, the same in both builds, stay there as well.

Its METADATA is the CUDA 13 wheel's with every per-major requirement replaced: no
cuda-bindings of its own, an extra per major (``cu12``, ``cu13``) that brings that major's,
each requirement once, and its own summary and description (docs/description-dual.md),
which say what it holds and how to choose the major.

The wheels must be of the same version, built from the same sources (the
source_digest of their build info), with the same wheel tags, and of different
majors; anything else is refused with one line that names each input's major and the fix.

Usage: python tools/release/merge_wheels.py dist-cu12/cuda_core-*.whl dist-cu13/cuda_core-*.whl [-o OUTDIR]
(the two per-major wheels have the same file name: keep them in directories of their own)
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: the build's facts and probe

from cuda_core_build.facts import supported_majors  # noqa: E402
from cuda_core_build.wheel_files import Wheel, join_metadata, metadata_headers  # noqa: E402

SUPPORTED_MAJORS = supported_majors()


def bindings_extra(major: int) -> list[str]:
    """The extra ``cuNN`` as NVIDIA's wheel declares it: cuda-bindings[all] (NVRTC, nvJitLink, ...), cuda-toolkit."""
    requires = (f"cuda-bindings[all]=={major}.*", f"cuda-toolkit=={major}.*")
    return [f"Provides-Extra: cu{major}", *(f'Requires-Dist: {name}; extra == "cu{major}"' for name in requires)]


DISPATCHER = Path(__file__).with_name("dual_wheel_init.py")
DESCRIPTION = Path(__file__).resolve().parents[2] / "docs" / "description-dual.md"
SUMMARY = "Pythonic CUDA: devices, streams, memory and kernels over cuda-bindings, built by Meson: CUDA 12 and 13 builds in one wheel"
PER_MAJOR_EXTRA = re.compile(r"""extra\s*==\s*['"]cu\d+['"]""")
PACKAGE = "cuda/core/"
INCLUDE = PACKAGE + "_include/"  # the C and C++ headers for downstream extensions


class MergeError(Exception):
    """Why two wheels cannot be merged; one line."""


def _tags(path: Path) -> str:
    """The python-abi-platform part of a wheel's file name."""
    return "-".join(path.stem.split("-")[-3:])


def build_info_of(wheel: Wheel, prefix: str = "") -> dict[str, Any]:
    """The literal assignments of the build info a cuda-core wheel carries (under ``prefix`` if given)."""
    name = f"cuda/core/{prefix}_build_info.py"
    if name not in wheel.contents:
        raise ValueError(f"no {name} in the wheel: not a cuda-core wheel built by this project")
    body = ast.parse(wheel.text(name)).body
    return {n.targets[0].id: ast.literal_eval(n.value) for n in body if isinstance(n, ast.Assign)}  # type: ignore[attr-defined]


def check_mergeable(paths: list[Path], wheels: list[Wheel]) -> dict[int, int]:
    """Refuse wheels that are not one build of each major of the same release; map major -> index.

    The two per-major wheels of a release have the same file name, so every message names
    each input by its path and the major it was built for."""
    infos = [build_info_of(wheel) for wheel in wheels]
    majors = [int(info["cuda_major"]) for info in infos]
    named = [f"{path} (CUDA {major})" for path, major in zip(paths, majors)]
    if majors[0] == majors[1]:
        other = next(m for m in reversed(SUPPORTED_MAJORS) if m != majors[0])
        raise MergeError(
            f"{paths[0]} and {paths[1]} are both CUDA {majors[0]} builds: build the CUDA {other} wheel "
            f"into a directory of its own (python -m build --wheel -Csetup-args=-Dcuda-major={other} "
            f"--outdir dist-cu{other}) and merge one wheel of each major"
        )
    if infos[0]["version"] != infos[1]["version"]:
        raise MergeError(
            f"different versions: {named[0]} is {infos[0]['version']}, {named[1]} is "
            f"{infos[1]['version']}: build both from one checkout"
        )
    if infos[0]["source_digest"] != infos[1]["source_digest"]:
        raise MergeError(
            f"{named[0]} and {named[1]} were built from different sources (their source_digest "
            "differs): build both from one checkout"
        )
    if _tags(paths[0]) != _tags(paths[1]):
        raise MergeError(
            f"different wheel tags: {named[0]} is {_tags(paths[0])}, {named[1]} is {_tags(paths[1])}: "
            "build both with the same Python and platform"
        )
    return {major: index for index, major in enumerate(majors)}


def per_major(line: str) -> bool:
    """Whether a METADATA header line is of one major: its cuda-bindings, its extra, or a
    requirement of that extra."""
    return (
        line.startswith(("Requires-Dist: cuda-bindings", "Provides-Extra: cu"))
        or line.startswith("Requires-Dist:")
        and PER_MAJOR_EXTRA.search(line) is not None
    )


def dual_metadata(metadata: str, majors: list[int]) -> str:
    """METADATA for both majors: no unconditional cuda-bindings, one extra per major, each
    requirement once (the extras of the CUDA 13 wheel are dropped, not kept beside the new
    ones), and the dual wheel's own summary and description."""
    lines, _ = metadata_headers(metadata)
    kept = [f"Summary: {SUMMARY}" if line.startswith("Summary:") else line for line in lines if not per_major(line)]
    for major in majors:
        kept += bindings_extra(major)
    return join_metadata(kept, DESCRIPTION.read_text())


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
                moved = PACKAGE + f"_cu{major}/" + info.filename[len(PACKAGE) :]
                entry = _renamed(info, moved)
                package_entries.append(entry)
                merged.contents[moved] = wheel.contents[info.filename]
    dispatcher = _renamed(
        next(i for i in base.entries if i.filename == PACKAGE + "__init__.py"), PACKAGE + "__init__.py"
    )
    merged.contents[dispatcher.filename] = DISPATCHER.read_bytes()
    # The headers are the same for both majors: also where a per-major wheel has them.
    headers = [info for info in base.entries if info.filename.startswith(INCLUDE)]
    for info in headers:
        merged.contents[info.filename] = base.contents[info.filename]
    dist_info = [info for info in base.entries if not info.filename.startswith(PACKAGE)]
    merged.entries = [dispatcher, *headers, *package_entries, *dist_info]
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
