#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Build and test cells of the matrix, and tabulate them: ``python3 tools/dev/run_matrix.py [CELL...]``.

Each cell (requirements/matrix.ini; all of them when none is named) gets its venv
(tools/dev/devenv.py), its package built once by meson-python in ``build/cells/CELL``, and
its package tests (tests/package) run in its venv. A cell whose Python this machine lacks is
skipped with the reason; one whose build fails shows the build's first error line.

Cells run in the test runners' own venvs (build/.venvs/CELL), never in the user's .venvs/.

It prints a table (cell, Python, cuda-bindings, headers, tool set, build time, passed, failed,
skipped, date) and, with ``--write``, merges its rows into docs/matrix.md: each cell's row is
replaced, every other row kept; a run of every cell also says when, where and how long. Extra
arguments after ``--`` go to pytest. Exit status 1 if any cell failed.
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
import devenv  # noqa: E402
from cuda_core_build import facts  # noqa: E402

DOC = facts.REPO_ROOT / "docs" / "matrix.md"
COLUMNS = ("cell", "Python", "cuda-bindings", "headers", "tools", "build", "passed", "failed", "skipped", "date")
FULL_RUN = "The last run of every cell:"  # the line of docs/matrix.md a run of every cell rewrites
INTRO = """# The matrix

Every cell of `requirements/matrix.ini`, built and its package tests (tests/package) run by
`python3 tools/dev/run_matrix.py --write`. The headers column is NVIDIA's
`nvidia-cuda-runtime` wheel of the cell's CUDA minor; the build column is meson-python's
build of the package in the cell's build dir (build/cells/CELL, kept: a full build the first
time, then what changed since). Without a GPU, the GPU tests skip (counted as skipped).
`run_matrix.py CELL --write` replaces that cell's row alone; each row's date says when its
cell last ran.

"""


def row(outcome: cells.Outcome, date: str) -> list[str]:
    """One line of the table."""
    cell = outcome.cell
    pins = facts.cuda_pins(cell.cuda)
    runtime = next(version for name, version in pins.items() if name.startswith("nvidia-cuda-runtime"))
    counts = outcome.counts
    build = f"{outcome.build_seconds:.0f} s" if outcome.build_seconds is not None else "shared"
    if outcome.stopped:
        return [cell.name, cell.python, pins["cuda-bindings"], runtime, cell.tools, outcome.stopped, "", "", "", date]
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
        date,
    ]


def table(rows: list[list[str]]) -> str:
    """Rows of COLUMNS as a Markdown table."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    lines += ["| " + " | ".join(cells_of_row) + " |" for cells_of_row in rows]
    return "\n".join(lines) + "\n"


def _cells_of(line: str) -> list[str]:
    return [part.strip() for part in line.strip().strip("|").split("|")]


def split_document(text: str) -> tuple[str, list[list[str]], str]:
    """docs/matrix.md as (the text before its table, the table's rows as COLUMNS, the text after).
    A row of an older table without some column gets "" there; no table: everything is before."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("| cell |")), None)
    if start is None:
        return text, [], ""
    end = start + 2
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    header = _cells_of(lines[start])
    rows = []
    for line in lines[start + 2 : end]:
        found = dict(zip(header, _cells_of(line)))
        rows.append([found.get(column, "") for column in COLUMNS])
    return "".join(lines[:start]), rows, "".join(lines[end:])


def merged_rows(old: list[list[str]], new: list[list[str]], order: list[str]) -> list[list[str]]:
    """The table's rows with each new row in place of its cell's old one, in ``order`` (the
    cells of requirements/matrix.ini), and rows of cells not in ``order`` after them."""
    by_cell = {row[0]: row for row in old}
    by_cell.update({row[0]: row for row in new})
    rank = {name: index for index, name in enumerate(order)}
    return sorted(by_cell.values(), key=lambda row: rank.get(row[0], len(rank)))


def full_run_line(date: str, seconds: float) -> str:
    machine = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, no GPU"
    return f"{FULL_RUN} {date}, {machine}, in {seconds / 60:.0f} minutes.\n"


def merge_document(text: str | None, new: list[list[str]], order: list[str], full_run: str | None) -> str:
    """docs/matrix.md with the rows of ``new`` merged in, every other row and all the text around
    the table kept; ``full_run`` (a run of every cell) replaces the line that says when the last
    one was. ``text`` None: the document is new."""
    before, old, after = split_document(text if text is not None else INTRO)
    if full_run is not None:
        kept = [line for line in before.splitlines(keepends=True) if not line.startswith(FULL_RUN)]
        before = "".join(kept).rstrip("\n") + "\n\n" + full_run + "\n"
    return before + table(merged_rows(old, new, order)) + after


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pytest_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cells", nargs="*", help="cells to run (default: all of requirements/matrix.ini)")
    parser.add_argument("--write", action="store_true", help=f"write the table to {DOC.relative_to(facts.REPO_ROOT)}")
    args = parser.parse_args(argv)
    known = devenv.cells()
    unknown = [name for name in args.cells if name not in known]
    if unknown:
        parser.error(f"unknown cell(s) {', '.join(unknown)}: choose from {', '.join(known)}")
    chosen = [known[name] for name in args.cells] or list(known.values())
    start, outcomes = time.monotonic(), []
    for index, cell in enumerate(chosen, 1):
        cells.log(f"[{index}/{len(chosen)}] {cell.name}: Python {cell.python}, CUDA {cell.cuda}, {cell.tools} tools")
        outcomes.append(cells.run_cell(cell, ["-q", *pytest_args], venvs=devenv.TEST_VENVS_DIR))
    today = datetime.date.today().isoformat()
    rows = [row(outcome, today) for outcome in outcomes]
    print("\n" + table(rows), flush=True)
    if args.write:
        every_cell = {cell.name for cell in chosen} == set(known)
        full_run = full_run_line(today, time.monotonic() - start) if every_cell else None
        DOC.write_text(merge_document(DOC.read_text() if DOC.exists() else None, rows, list(known), full_run))
        cells.log(f"merged {len(rows)} row(s) into {DOC.relative_to(facts.REPO_ROOT)}")
    return 1 if any(outcome.failed for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
