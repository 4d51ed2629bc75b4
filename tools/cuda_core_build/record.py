# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What Meson does not keep: the build directory's CUDA environment, ``cuda-config/environment.json``, and its one
reader; ``stats.json`` beside it lets a check hash only what moved. Stdlib only: the editable loader imports it."""

import dataclasses
import hashlib
import json
from pathlib import Path

from cuda_core_build import common

CONFIG, RECORD, STATS = "cuda-config", "environment.json", "stats.json"
TOOLS = {"compiler": "the C++ compiler", "python": "Python", "ninja": "ninja"}
ROLES = {"header": "CUDA headers", "bindings": "cuda-bindings files", "cython": "Cython files", **TOOLS}


class RecordError(Exception):
    """The record is missing or damaged; the message says what to run."""


@dataclasses.dataclass
class Record:
    request: dict[str, str]  # the cuda-path and cuda-major options as given
    python_prefix: str  # the build's Python environment, real: a record belongs to one
    cuda_version: int
    found_via: str
    include_dirs: list[str]  # the toolkit's include directories as found
    sources: dict[str, str]  # each required header -> the include directory that gives it
    bindings_version: str
    bindings_root: str
    cython_version: str
    compiler: list[str]  # as Meson runs it
    compat: dict[str, str]  # each _compat file -> its variant for these headers and bindings
    inputs: dict[str, dict[str, list[str]]]  # role -> name -> [real path, sha256]

    major = property(lambda self: self.cuda_version // 1000)
    minor = property(lambda self: self.cuda_version % 1000 // 10)

    def digest(self, *roles: str, names: tuple[str, ...] = ()) -> str:
        """sha256 over the contents of ``roles`` (their inputs ``names`` alone, where given)."""
        items = [(r, n, sha) for r in roles for n, (_, sha) in sorted(self.inputs.get(r, {}).items())]
        text = "".join(f"{r}\0{n}\0{h}\n" for r, n, h in items if n in names or not names)
        return hashlib.sha256(text.encode()).hexdigest()

    def facts(self) -> dict[str, object]:
        """What a build was made for, no path: the build info holds exactly this."""
        versions = (self.major, self.cuda_version, self.bindings_version, self.cython_version)
        return dict(zip(("cuda_major", "cuda_version", "cuda_bindings_version", "cython_version"), versions))

    def summary(self) -> str:
        """One line for Meson's log: the CUDA version, which directory gave which header, the bindings."""
        by_dir = {where: [h for h, d in self.sources.items() if d == where] for where in self.sources.values()}
        sources = "; ".join(f"{', '.join(names)} from {where}" for where, names in by_dir.items())
        return (
            f"CUDA {self.major}.{self.minor} (CUDA_VERSION {self.cuda_version}) via {self.found_via}: {sources}; "
            f"cuda-bindings {self.bindings_version}; Cython {self.cython_version}"
        )


def read(build_dir: Path) -> Record:
    path = Path(build_dir) / CONFIG / RECORD
    try:
        return Record(**json.loads(path.read_text()))
    except FileNotFoundError:
        fix = "is missing: set the build directory up (meson setup --reconfigure BUILDDIR)"
    except (ValueError, TypeError) as err:
        fix = f"is damaged ({err}): set it up again with `meson setup --wipe BUILDDIR`"
    raise RecordError(f"{path} {fix}")


def write(build_dir: Path, record: Record) -> bool:
    text = json.dumps(dataclasses.asdict(record), indent=1) + "\n"
    return common.write_if_changed(Path(build_dir) / CONFIG / RECORD, text)


def changes(old: Record, new: Record) -> list[str]:
    """What differs between two records: versions, each role's inputs (a tool's says where it is now), the variants."""
    versions = {"CUDA_VERSION": "cuda_version", "cuda-bindings": "bindings_version", "Cython": "cython_version"}
    pairs = {label: (getattr(old, key), getattr(new, key)) for label, key in versions.items()}
    found = [f"{label} {was} -> {now}" for label, (was, now) in pairs.items() if was != now]
    for role, label in ROLES.items():
        before, after = old.inputs.get(role, {}), new.inputs.get(role, {})
        names = sorted(n for n in {*before, *after} if before.get(n) != after.get(n))
        both = before.keys() & after.keys() if role in TOOLS else set()
        moved = [f"{n} {before[n][0]} -> {after[n][0]}" if n in both else n for n in names]
        if names:
            found.append(f"{label} ({', '.join(moved[:3])}{f' and {len(names) - 3} more' if len(names) > 3 else ''})")
    return found + [f"_compat {n} -> {v}" for n, v in sorted(new.compat.items()) if old.compat.get(n) != v]


def read_stats(build_dir: Path) -> dict[str, dict]:
    """``{"files": {real path: [*fingerprint, sha256]}, "links": {link: target}}``, empty if none."""
    return common.read_json(Path(build_dir) / CONFIG / STATS) or {"files": {}, "links": {}}
