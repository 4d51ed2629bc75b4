#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Build and test cells of the matrix, and tabulate them: ``python3 tools/dev/run_matrix.py [CELL...]``.

Each cell (requirements/matrix.ini; all of them when none is named) gets its venv
(tools/dev/devenv.py), its package built once by meson-python in ``build/cells/CELL``, and
its package tests (tests/package) run in its venv. A cell whose Python this machine lacks is
skipped with the reason; one whose build fails shows the build's first error line.

It prints a table (cell, Python, cuda-bindings, headers, tool set, build time, passed, failed,
skipped) and, with ``--write``, puts it in docs/matrix.md with the date and the machine.
Extra arguments after ``--`` go to pytest. Exit status 1 if any cell failed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cells  # noqa: E402
from cuda_core_build import facts  # noqa: E402

DOC = facts.REPO_ROOT / "docs" / "matrix.md"
COLUMNS = ("cell", "Python", "cuda-bindings", "headers", "tools", "build", "passed", "failed", "skipped")


def row(outcome: cells.Outcome) -> list[str]:
    """One line of the table."""
    cell = outcome.cell
    pins = facts.cuda_pins(cell.cuda)
    runtime = next(version for name, version in pins.items() if name.startswith("nvidia-cuda-runtime"))
    counts = outcome.counts
    build = f"{outcome.build_seconds:.0f} s" if outcome.build_seconds is not None else "shared"
    if outcome.stopped:
        return [cell.name, cell.python, pins["cuda-bindings"], runtime, cell.tools, outcome.stopped, "", "", ""]
    failed = counts.get("failed", 0) + counts.get("errors", 0)
    return [
        cell.name,
        cell.python,
        pins["cuda-bindings"],
        runtime,
        cell.tools,
        build,
        str(counts.get("passed", 0)),
        str(failed),
        str(counts.get("skipped", 0)),
    ]


def table(outcomes: list[cells.Outcome]) -> str:
    """The outcomes as a Markdown table."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    lines += ["| " + " | ".join(row(outcome)) + " |" for outcome in outcomes]
    return "\n".join(lines) + "\n"


def document(text: str, seconds: float) -> str:
    """docs/matrix.md: what was run, where and when, then the table."""
    today = datetime.date.today().isoformat()
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, no GPU"
    return (
        "# The matrix\n\n"
        "Every cell of `requirements/matrix.ini`, built and its package tests (tests/package) run by\n"
        "`python3 tools/dev/run_matrix.py --write`. The headers column is NVIDIA's\n"
        "`nvidia-cuda-runtime` wheel of the cell's CUDA minor; the build column is meson-python's\n"
        "build of the package in the cell's build dir (build/cells/CELL, kept: a full build the first\n"
        "time, then what changed since). Without a GPU, the GPU tests skip (counted as skipped).\n\n"
        f"Run on {today}, {machine}, in {seconds / 60:.0f} minutes.\n\n" + text
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pytest_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cells", nargs="*", help="cells to run (default: all of requirements/matrix.ini)")
    parser.add_argument("--write", action="store_true", help=f"write the table to {DOC.relative_to(facts.REPO_ROOT)}")
    args = parser.parse_args(argv)
    known = facts.cells()
    unknown = [name for name in args.cells if name not in known]
    if unknown:
        parser.error(f"unknown cell(s) {', '.join(unknown)}: choose from {', '.join(known)}")
    chosen = [known[name] for name in args.cells] or list(known.values())
    start, outcomes = time.monotonic(), []
    for index, cell in enumerate(chosen, 1):
        cells.log(f"[{index}/{len(chosen)}] {cell.name}: Python {cell.python}, CUDA {cell.cuda}, {cell.tools} tools")
        outcomes.append(cells.run_cell(cell, ["-q", *pytest_args]))
    text = table(outcomes)
    print("\n" + text, flush=True)
    if args.write:
        DOC.write_text(document(text, time.monotonic() - start))
        cells.log(f"wrote {DOC.relative_to(facts.REPO_ROOT)}")
    return 1 if any(outcome.failed for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
