# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Meson's configure-time probe: find (or reuse the pinned) toolkit, check it, and lay out what the
build reads (cuda_core_build.environment).

``python -m cuda_core_build.configure --build-dir DIR --cuda-path P --cuda-major M --compiler CXX...``

The first successful probe of a build directory is pinned there, so a later regeneration
(ninja re-running meson from another shell) can never switch to another toolkit. On success
it prints one line for Meson's log: the CUDA version, which directory gave which header,
cuda-bindings and Cython.
"""

from __future__ import annotations

import sys

from cuda_core_build import entry, environment, probe

PROG = "cuda_core_build.configure"


def wiped_note(build_dir) -> str:
    """What to add to an error when `meson setup --wipe` emptied the directory first (Meson keeps
    only its options file then): the previous build is gone, whatever the probe says."""
    if (
        (build_dir / "meson-private" / "cmd_line.txt").is_file()
        and not (build_dir / environment.PIN).is_file()
        and not (build_dir / "build.ninja").is_file()
    ):
        return (
            f" ({build_dir.name} was emptied by `meson setup --wipe` before this check: its previous build is "
            f"gone and is rebuilt in full once this is fixed)"
        )
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    entry.add_build_options(parser)
    args = parser.parse_args(argv)
    build_dir = args.build_dir.absolute()

    def configure() -> int:
        try:
            found = environment.derive(build_dir, args.cuda_path, args.cuda_major, args.compiler)
        except probe.ProbeError as err:
            raise probe.ProbeError(f"{err}{wiped_note(build_dir)}") from None
        if not found.toolkit.pinned:
            probe.pin(build_dir / environment.PIN, args.cuda_path, found.toolkit, found.bindings)
        changed = environment.changes(build_dir, found)
        print(found.summary())
        if environment.apply(build_dir, found) and changed:
            print(environment.changed_line(changed))
        return 0

    return entry.run(PROG, configure)


if __name__ == "__main__":
    sys.exit(main())
