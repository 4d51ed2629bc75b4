# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The build's first step, ``cuda-inputs``: re-derive what the build reads from outside its source
tree, and rewrite the stamp every Cython step depends on when any of it changed.

``python -m cuda_core_build.check --build-dir DIR --cuda-path P --cuda-major M --compiler CXX...
--stamp F --depfile F``

Ninja runs it whenever a file it read, the directory holding one, or the directory of a link
on the way to one changes (the depfile names them; see cuda_core_build.environment). A failed
probe is one line and the step fails before anything compiles; the stamp is then left as it
was, so the next run checks again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cuda_core_build import entry, environment
from cuda_core_build.files import depfile_text, write_atomically

PROG = "cuda_core_build.check"


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    entry.add_build_options(parser)
    parser.add_argument("--stamp", type=Path, required=True, help="the stamp the Cython steps depend on")
    parser.add_argument("--depfile", type=Path, required=True, help="what ninja watches for this step")
    args = parser.parse_args(argv)

    def check() -> int:
        build_dir = args.build_dir.absolute()
        found = environment.derive(build_dir, args.cuda_path, args.cuda_major, args.compiler, pin_required=True)
        changed = environment.changes(build_dir, found)
        if environment.apply(build_dir, found) and changed:
            print(environment.changed_line(changed), flush=True)
        write_atomically(args.depfile, depfile_text(str(args.stamp), environment.watched_paths(build_dir, found)))
        return 0

    return entry.run(PROG, check)


if __name__ == "__main__":
    sys.exit(main())
