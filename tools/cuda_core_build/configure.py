"""Meson's configure-time probe: find (or reuse the pinned) toolkit, check it, hand Meson the facts.

``python -m cuda_core_build.configure --cuda-path P --cuda-major M --pin-file F --out F``:
the first successful probe of a build directory is pinned there, so a later regeneration
(ninja re-running meson from another shell) can never switch to another toolkit.

Meson gets the facts as KEY=VALUE lines for its keyval module (``--out``). The paths it
uses (the header directories, the cuda-bindings .pxd root, cuda.h and the bindings'
version file) can hold any character, and keyval cuts a value at ``#``: so they reach
Meson as links in the build directory's ``cuda-links/``, whose names are plain.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from cuda_core_build import entry, probe
from cuda_core_build.files import write_atomically

PROG = "cuda_core_build.configure"
LINKS = "cuda-links"
# A build directory named for a major: build-cu13, build/cp311-cu12-venv-1a2b3c4d, ...
MAJOR_IN_NAME = re.compile(r"(?:^|[-_.])cu(\d+)(?:$|[-_.])")


def keyval_text(result: dict[str, object]) -> str:
    """KEY=VALUE lines for Meson's keyval module (lists joined with os.pathsep)."""
    lines = []
    for key, value in result.items():
        if isinstance(value, list):
            value = os.pathsep.join(value)
        lines.append(f"{key}={'' if value is None else value}")
    return "\n".join(lines) + "\n"


def link(build_dir: Path, name: str, target: str) -> str:
    """Point ``build_dir/cuda-links/name`` at ``target`` (replaced whole); its path relative to build_dir."""
    path = build_dir / LINKS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(target)
    os.replace(temporary, path)
    return f"{LINKS}/{name}"


def check_directory_name(build_dir: Path, toolkit: probe.Toolkit, requested_major: str) -> None:
    """A build directory whose name says cuNN keeps that major unless one is asked for explicitly."""
    match = MAJOR_IN_NAME.search(build_dir.name)
    if match is None or requested_major != "auto" or int(match.group(1)) == toolkit.major:
        return
    named = int(match.group(1))
    raise probe.ProbeError(f"{build_dir.name}'s name says CUDA {named}, but the headers found (via {toolkit.found_via}) "
                           f"are CUDA {toolkit.major}.{toolkit.minor}: {probe.environment_hint(named)}, or pass "
                           f"-Dcuda-major={toolkit.major} to build CUDA {toolkit.major} in it")


def check_watchable(path: str, what: str) -> None:
    """Refuse a path Meson cannot watch: it turns a backslash into a path separator (and a newline
    ends a line of build.ninja), so a change to the file would never be seen, or always."""
    for character, name in (("\\", "a backslash"), ("\n", "a newline")):
        if character in path:
            raise probe.ProbeError(f"the path of {what} ({path!r}) holds {name}, which Meson cannot track: make a "
                                   f"link to its directory whose path has none, and point the build at the link")


def configure(cuda_path: str, cuda_major: str, pin_file: Path, out: Path) -> None:
    """Probe for a build directory, pin the toolkit on first success, and write Meson's facts."""
    build_dir = pin_file.parent
    toolkit, bindings = probe.probe(cuda_path, cuda_major, pin_file=pin_file)
    assert bindings is not None
    check_directory_name(build_dir, toolkit, cuda_major)
    check_watchable(toolkit.cuda_h, "cuda.h")
    check_watchable(bindings.version_file, "cuda-bindings")
    cython = probe.find_cython()
    if not toolkit.pinned:
        probe.pin(pin_file, cuda_path, toolkit)
    meson_facts = {
        **probe.report(toolkit, bindings),
        "include_dirs": [link(build_dir, f"include-{index}", directory)
                         for index, directory in enumerate(toolkit.include_dirs)],
        "pxd_root": link(build_dir, "bindings", bindings.pxd_root),
        # Inputs of the configuration: a change re-runs this probe before anything compiles.
        "cuda_h": link(build_dir, "cuda.h", toolkit.cuda_h),
        "bindings_version_file": link(build_dir, "bindings-version.py", bindings.version_file),
        "cython_version": cython.version,
    }
    write_atomically(out, keyval_text(meson_facts))


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    entry.add_pin_file(parser)
    parser.add_argument("--out", type=Path, required=True, help="where Meson's KEY=VALUE facts go")
    args = parser.parse_args(argv)
    return entry.run(PROG, lambda: configure(args.cuda_path, args.cuda_major, args.pin_file, args.out) or 0)


if __name__ == "__main__":
    sys.exit(main())
