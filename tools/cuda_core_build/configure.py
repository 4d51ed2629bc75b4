"""Meson's configure-time probe: find (or reuse the pinned) toolkit, check it, hand Meson the facts.

``python -m cuda_core_build.configure --cuda-path P --cuda-major M --pin-file F --out F``:
the first successful probe of a build directory is pinned there, so a later regeneration
(ninja re-running meson from another shell) can never switch to another toolkit. The
facts go to ``--out`` as KEY=VALUE lines for Meson's keyval module.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from cuda_core_build import entry, probe
from cuda_core_build.files import write_atomically

PROG = "cuda_core_build.configure"


def keyval_text(result: dict[str, object]) -> str:
    """KEY=VALUE lines for Meson's keyval module (lists joined with os.pathsep)."""
    lines = []
    for key, value in result.items():
        if isinstance(value, list):
            value = os.pathsep.join(value)
        lines.append(f"{key}={'' if value is None else value}")
    return "\n".join(lines) + "\n"


def configure(cuda_path: str, cuda_major: str, pin_file: Path, out: Path) -> None:
    """Probe for a build directory, pin the toolkit on first success, and write Meson's facts."""
    toolkit, bindings = probe.probe(cuda_path, cuda_major, pin_file=pin_file)
    cython = probe.find_cython()
    if not toolkit.pinned:
        probe.pin(pin_file, cuda_path, toolkit)
    facts_for_meson = {**probe.report(toolkit, bindings), "cython_version": cython.version,
                       "cython_version_file": cython.version_file}
    write_atomically(out, keyval_text(facts_for_meson))


def main(argv: list[str] | None = None) -> int:
    parser = entry.parser(PROG, __doc__.splitlines()[0])
    entry.add_pin_file(parser)
    parser.add_argument("--out", type=Path, required=True, help="where Meson's KEY=VALUE facts go")
    args = parser.parse_args(argv)
    return entry.run(PROG, lambda: configure(args.cuda_path, args.cuda_major, args.pin_file, args.out) or 0)


if __name__ == "__main__":
    sys.exit(main())
