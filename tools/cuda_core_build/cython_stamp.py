"""Record the Cython the build compiles with: every Cython step depends on the stamp it writes.

``python -m cuda_core_build.cython_stamp --out F --depfile F``

The depfile names the file that holds Cython's version (Cython/Shadow.py), which an
upgrade or downgrade rewrites: ninja then re-runs this step, the stamp is rewritten, and
every module is cythonized again by the new Cython instead of keeping the old C++.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cuda_core_build import entry, probe
from cuda_core_build.files import depfile_text, write_atomically

PROG = "cuda_core_build.cython_stamp"


def main(argv: list[str] | None = None) -> int:
    parser = entry.OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the stamp to write")
    parser.add_argument("--depfile", type=Path, required=True, help="the depfile naming Cython's version file")
    args = parser.parse_args(argv)

    def stamp() -> int:
        cython = probe.find_cython()
        write_atomically(args.out, f"Cython {cython.version} ({cython.version_file})\n")
        write_atomically(args.depfile, depfile_text(str(args.out), [cython.version_file]))
        return 0

    return entry.run(PROG, stamp)


if __name__ == "__main__":
    sys.exit(main())
