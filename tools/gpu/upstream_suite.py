#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run NVIDIA's cuda.core test files against our cuda.core and NVIDIA's, side by side.

Each chosen test file runs in its own pytest process per side (a crash loses one file, not
the run), with a per-file timeout, ``-p no:cacheprovider`` and a JUnit XML report for the
counts. The two sides:

  ours    --ours-python with --ours-path entries (our install dir, the site dir of the
          matching cuda-bindings) first on PYTHONPATH;
  nvidia  --nvidia-python, whose environment has NVIDIA's cuda.core; PYTHONPATH holds none
          of ours, only --nvidia-path entries if given (e.g. cuda-bindings 12.x for CUDA 12).

Both get ``cuda_python_test_helpers`` and this runner's plugin directory (``upstream_plugins/``
beside it: ``-p upstream_recorder -p upstream_placeholders``) on PYTHONPATH.

The suite root is laid out as NVIDIA's tests expect: ``ROOT/cuda_core/tests``,
``ROOT/cuda_core/pytest.ini``, optionally ``ROOT/cuda_core/examples``, and
``ROOT/cuda_python_test_helpers``; never ``ROOT/cuda_core/cuda`` (it would shadow the
installed cuda.core). ``--from-git CHECKOUT`` first makes that layout in ROOT from a git
checkout of cuda-python (``git archive`` of those paths at ``--ref``).

Post-1.2 names. Some test files import names that NVIDIA's release lacks (test_memory.py
imports ``cuda.core._memory.IPCBufferDescriptor``), so the release cannot even collect
them. On the nvidia side, a plugin gives each name of ``--post-release-name`` a
placeholder (through the module's ``__getattr__``, so the module itself is untouched) whose
use raises an error naming it. A file that took a placeholder is reported as "not
collectable by NVIDIA's release" with its test count, and in such a file the tests whose
node id contains "ipc" (any case) are counted apart, for both sides, from the rest. Our side
takes the same kind of placeholder for each ``--later-part-name`` (a name our cuda.core gets in
a later part of the port, imported at the top of a file): the file collects, the tests that
use the name fail and count as failures, and the report names the file and those tests.

Output: a table per file (passed/failed/errors/skipped/xfailed for each side, the ratio of
passes, the post-1.2 counts), the tests that NVIDIA passes and ours does not, and with
``--json`` every test id and outcome per side. Standard library only; works offline.

Flakes: ``--repeat N`` runs every file N times per side (``--nvidia-repeat`` another count for
NVIDIA's), --jobs at once; the table is the first run's, and below it each file's runs with a
failure and each test that failed in some run, with how often and why. ``--plugin NAME`` loads
another plugin of upstream_plugins/ on both sides: ``offthread_finalizer`` records the stack
where a callable of NVIDIA's graph lifetime tests is finalized off the main thread, printed
with the test and run.

Example (the GPU machine, CUDA 13):
  python3 tools/gpu/upstream_suite.py --root /work/upstream/suite \\
      --ours-python /opt/torch/.venv/bin/python3 --ours-path build-cu13/install \\
      --nvidia-python /opt/torch/.venv/bin/python3 --json suite.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # run by path: tools/ holds the harness (gpu)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu.process import run as run_process  # noqa: E402

LAYOUT_PATHS = ("cuda_core/tests", "cuda_core/pytest.ini", "cuda_core/examples", "cuda_python_test_helpers")
REQUIRED_PATHS = ("cuda_core/tests", "cuda_core/pytest.ini", "cuda_python_test_helpers")
DEFAULT_POST_RELEASE_NAMES = ("cuda.core._memory:IPCBufferDescriptor",)
PLACEHOLDER_MARK = "upstream_suite placeholder"
IPC_RULE = re.compile("ipc", re.IGNORECASE)
OUTCOMES = ("passed", "failed", "errors", "skipped", "xfailed")
SIDES = ("ours", "nvidia")
# pytest exit codes that leave no JUnit XML, in words.
STATUS_BY_RC = {2: "interrupted (rc 2)", 3: "pytest internal error (rc 3)", 4: "conftest or usage error (rc 4)"}

# The pytest plugins both sides load (-p NAME) from this directory, put on their PYTHONPATH:
# upstream_recorder writes one JSON line per collected test list, test outcome and collection
# error; upstream_placeholders gives placeholders to names a side's cuda.core lacks (post-release
# names on the nvidia side, names of later parts of the port on ours).
PLUGIN_DIR = Path(__file__).resolve().parent / "upstream_plugins"
RECORDER_PLUGIN = "upstream_recorder"
PLACEHOLDER_PLUGIN = "upstream_placeholders"


# ---------------------------------------------------------------------------------------------
# The layout.


def make_layout(checkout: Path, ref: str, root: Path) -> None:
    """Extract NVIDIA's test layout from a git checkout of cuda-python (or the fork) into root."""
    present = [
        path
        for path in LAYOUT_PATHS
        if run_process(["git", "-C", checkout, "cat-file", "-e", f"{ref}:{path}"], output="capture").returncode == 0
    ]
    missing = [path for path in REQUIRED_PATHS if path not in present]
    if missing:
        raise SystemExit(f"{checkout} at {ref} lacks {', '.join(missing)}: is it a cuda-python checkout?")
    root.mkdir(parents=True, exist_ok=True)
    archive = run_process(
        ["git", "-C", checkout, "archive", "--format=tar", ref, "--", *present], output="capture", text=False
    )
    if archive.returncode:
        raise SystemExit(f"git archive of {checkout}@{ref} failed: {archive.stderr.decode(errors='replace').strip()}")
    unpacked = run_process(["tar", "-x", "-C", root], input=archive.stdout, output="capture")
    if unpacked.returncode:
        raise SystemExit(f"cannot unpack NVIDIA's tests into {root}: {str(unpacked.stderr).strip()}")
    print(f"laid out {', '.join(present)} of {checkout}@{ref} in {root}")


def check_layout(root: Path) -> None:
    missing = [path for path in REQUIRED_PATHS if not (root / path).exists()]
    if missing:
        raise SystemExit(f"{root} is not laid out as NVIDIA's tests expect: missing {', '.join(missing)}")
    if (root / "cuda_core" / "cuda").exists():
        raise SystemExit(
            f"{root / 'cuda_core' / 'cuda'} exists: NVIDIA's cuda.core sources there would shadow "
            "the installed cuda.core of both sides. Remove it (the runner needs only the tests)."
        )


def test_files(root: Path, patterns: list[str] | None) -> list[str]:
    """The test files, relative to cuda_core/tests: all test_*.py (but cython/), or those matching patterns."""
    tests = root / "cuda_core" / "tests"
    every = sorted(
        str(path.relative_to(tests))
        for path in tests.rglob("test_*.py")
        if "cython" not in path.relative_to(tests).parts
    )
    if not patterns:
        return every
    chosen = []
    for pattern in patterns:
        pattern = pattern.removeprefix("tests/")
        matches = sorted(str(path.relative_to(tests)) for path in tests.glob(pattern) if path.is_file())
        if not matches:
            raise SystemExit(f"no test file matches {pattern!r} under {tests}")
        chosen += [match for match in matches if match not in chosen]
    return chosen


# ---------------------------------------------------------------------------------------------
# Running one file on one side.


@dataclass
class Side:
    name: str
    python: str
    paths: list[str]  # PYTHONPATH entries before the helpers
    plugins: list[str]  # plugin modules passed with -p
    placeholder_names: list[str] = field(default_factory=list)  # MODULE:NAME given placeholders
    runs: int = 1  # times each file runs (--repeat)


@dataclass
class FileResult:
    file: str
    side: str
    status: str = "ok"  # ok, collection error, crashed (rc N), timeout, no report
    seconds: float = 0.0
    counts: dict = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    ipc: dict = field(default_factory=lambda: {"passed": 0, "total": 0})
    tests: dict = field(default_factory=dict)  # node id -> outcome
    collected: int = 0
    placeholders_used: list = field(default_factory=list)
    placeholder_tests: list = field(default_factory=list)
    tail: str = ""  # the end of the output, when the file did not run cleanly
    why: dict = field(default_factory=dict)  # node id -> one line on its failure or skip
    last_started: str = ""  # the last test begun: after a crash, the one that crashed
    cases: list = field(default_factory=list)  # (name, outcome) of each test case, for the counts
    offthread: list = field(default_factory=list)  # offthread_finalizer's records


def run_file(root: Path, side: Side, file: str, args, plugin_dir: Path, work: Path, run: int = 0) -> FileResult:
    stem = re.sub(r"[^\w.-]", "_", f"{side.name}-{file}-{run}")
    junit, records = work / f"{stem}.xml", work / f"{stem}.jsonl"
    command = [
        side.python,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        RECORDER_PLUGIN,
        *[arg for plugin in side.plugins for arg in ("-p", plugin)],
        "-q",
        "-rN",
        f"--junitxml={junit}",
        f"tests/{file}",
    ]
    if args.k:
        command += ["-k", args.k]
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = os.pathsep.join([*side.paths, str(plugin_dir), str(root / "cuda_python_test_helpers")])
    env.update(
        PYTHONDONTWRITEBYTECODE="1",
        UPSTREAM_SUITE_RECORDS=str(records),
        UPSTREAM_SUITE_PLACEHOLDER_MARK=PLACEHOLDER_MARK,
        UPSTREAM_SUITE_POST_RELEASE_NAMES=json.dumps(side.placeholder_names),
    )
    result = FileResult(file, side.name)
    timeout = args.timeout if args.deadline is None else min(args.timeout, args.deadline - time.monotonic())
    if timeout <= 0:  # the run's --deadline has passed: report the file as not run, not as failed
        result.status = "not run (deadline)"
        return result
    # Past the timeout, SIGABRT first: faulthandler (PYTHONFAULTHANDLER) prints where every thread is stuck.
    process = run_process(command, cwd=root / "cuda_core", env=env, output="merge", timeout=timeout)
    if process.timed_out:
        result.status = f"timeout ({timeout:.0f} s)"
    result.seconds = process.seconds
    text = str(process.stdout)
    read_records(records, result)
    if junit.exists():
        read_junit(junit, result)
    else:
        count_records(result)
        if result.status == "ok":
            result.status = (
                STATUS_BY_RC.get(process.returncode, f"crashed (rc {process.returncode})")
                if process.returncode
                else "no report"
            )
    if result.status == "ok" and process.returncode not in (0, 1, 5):  # 5: nothing collected
        result.status = f"pytest rc {process.returncode}"
    if result.status != "ok" or result.counts["errors"]:
        fatal = text.find("Fatal Python error")  # a crash: keep faulthandler's stacks from their start
        result.tail = text[fatal : fatal + 6000] if fatal >= 0 else text[-3000:]
    return result


def read_records(path: Path, result: FileResult) -> None:
    """The recorder's lines: outcomes per node id, what was collected, placeholders used."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash
        if "collected" in record:
            result.collected = len(record["collected"])
        elif "started" in record:
            result.last_started = record["started"]
        elif "offthread" in record:
            result.offthread.append(record["offthread"])
        elif "placeholder_used" in record:
            if record["placeholder_used"] not in result.placeholders_used:
                result.placeholders_used.append(record["placeholder_used"])
        else:
            result.tests[record["nodeid"]] = record["outcome"]
            if record.get("why"):
                result.why[record["nodeid"]] = record["why"]
            if record.get("when") == "collect":
                result.status = "collection error"
            if record.get("placeholder"):
                result.placeholder_tests.append(record["nodeid"])


def junit_outcome(case: ET.Element) -> str:
    kinds = {child.tag: child for child in case}
    if "failure" in kinds:
        return "failed"
    if "error" in kinds:
        return "errors"
    if "skipped" in kinds:
        return "xfailed" if kinds["skipped"].get("type") == "pytest.xfail" else "skipped"
    return "passed"


def read_junit(path: Path, result: FileResult) -> None:
    """Counts from the JUnit XML, one test case at a time (a collection failure is an error)."""
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except ET.ParseError:
        result.status = "unreadable junit"
        count_records(result)
        return
    result.cases = []
    for case in cases:
        outcome = junit_outcome(case)
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        result.cases.append((name, outcome))
        if case.get("classname", "") == "" and outcome == "errors":
            result.status = "collection error"


def count_records(result: FileResult) -> None:
    """Counts from the recorder, when there is no JUnit XML (a crash or a timeout)."""
    result.cases = list(result.tests.items())


def split_counts(result: FileResult, apart: bool) -> None:
    """Fill counts (and, when ``apart``, the IPC-rule counts) from the file's test cases."""
    result.counts = dict.fromkeys(OUTCOMES, 0)
    result.ipc = {"passed": 0, "total": 0}
    for name, outcome in result.cases:
        if apart and IPC_RULE.search(name):
            result.ipc["total"] += 1
            result.ipc["passed"] += outcome == "passed"
        else:
            result.counts[outcome] += 1


# ---------------------------------------------------------------------------------------------
# The whole run, and what it prints.


def run(args) -> dict:
    root = Path(args.root).resolve()
    if args.from_git:
        make_layout(Path(args.from_git).resolve(), args.ref, root)
    check_layout(root)
    files = test_files(root, args.files)
    sides = []
    plugins = [PLACEHOLDER_PLUGIN, *args.plugin]
    if args.ours_python:
        paths = [str(Path(entry).resolve()) for group in args.ours_path for entry in group.split(os.pathsep) if entry]
        sides.append(Side("ours", args.ours_python, paths, plugins, args.later_part_name, args.repeat))
    if args.nvidia_python:
        paths = [str(Path(entry).resolve()) for group in args.nvidia_path for entry in group.split(os.pathsep) if entry]
        runs = args.nvidia_repeat or args.repeat
        sides.append(Side("nvidia", args.nvidia_python, paths, plugins, args.post_release_name, runs))
    if not sides:
        raise SystemExit("nothing to run: give --ours-python and/or --nvidia-python")
    with tempfile.TemporaryDirectory(prefix="upstream_suite_") as temp:
        plugin_dir, work = PLUGIN_DIR, Path(temp)
        # Round by round, so that every side's runs are spread over the whole run alike.
        tasks = [
            (side, file, run)
            for run in range(max(side.runs for side in sides))
            for file in files
            for side in sides
            if run < side.runs
        ]
        results: dict[tuple[str, str], FileResult] = {}
        repeats: dict[tuple[str, str], list[FileResult]] = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {
                pool.submit(run_file, root, side, file, args, plugin_dir, work, run): (side.name, file, run)
                for side, file, run in tasks
            }
            for future in concurrent.futures.as_completed(futures):
                side_name, file, run = futures[future]
                result = future.result()
                repeats.setdefault((side_name, file), []).append(result)
                if run == 0:
                    results[side_name, file] = result
                label = f"{file} #{run + 1}" if args.repeat > 1 or args.nvidia_repeat else file
                print(f"  {side_name:6} {label:45} {result.status:20} {result.seconds:7.1f} s", file=sys.stderr)
    report = summarize(files, [side.name for side in sides], results)
    if any(side.runs > 1 for side in sides) or args.plugin:
        report["repeats"] = summarize_repeats(files, sides, repeats)
    return report


def run_failed(result: FileResult) -> bool:
    """Whether a run of a file did not pass cleanly: a test failed or erred, or the file did not run."""
    return result.status != "ok" or any(outcome in ("failed", "errors") for outcome in result.tests.values())


def summarize_repeats(files: list[str], sides: list[Side], repeats: dict) -> dict:
    """Per file and side: the runs, those with a failure, each test's failures with a reason,
    and what offthread_finalizer recorded, run by run."""
    summary: dict = {}
    for file in files:
        for side in sides:
            runs = repeats.get((side.name, file), [])
            failing: dict[str, dict] = {}
            for number, result in enumerate(runs, 1):
                for nodeid, outcome in result.tests.items():
                    if outcome in ("failed", "errors"):
                        entry = failing.setdefault(nodeid, {"runs": 0, "why": result.why.get(nodeid, "")})
                        entry["runs"] += 1
                if result.status != "ok":
                    entry = failing.setdefault(f"<{result.status}>", {"runs": 0, "why": result.last_started})
                    entry["runs"] += 1
            summary.setdefault(file, {})[side.name] = {
                "runs": len(runs),
                "failed_runs": sum(run_failed(result) for result in runs),
                "tests": failing,
                "offthread": [
                    {"run": number, **record} for number, result in enumerate(runs, 1) for record in result.offthread
                ],
            }
    return summary


def print_repeats(report: dict, out=sys.stdout) -> None:
    """Each file's runs with a failure per side, the tests that failed and how often, and the
    stacks offthread_finalizer recorded."""
    print("\nruns with a failure, per file and side (a run: one pytest of the whole file):", file=out)
    for file, per_side in report["repeats"].items():
        for side, data in per_side.items():
            print(f"  {file:44} {side:6} {data['failed_runs']:>3} of {data['runs']}", file=out)
            for nodeid, entry in sorted(data["tests"].items(), key=lambda item: -item[1]["runs"]):
                why = (entry["why"].splitlines() or [""])[0]
                print(f"      {entry['runs']:>3}x {nodeid}: {why[:300]}", file=out)
            for record in data["offthread"]:
                print(
                    f"      finalized off the main thread, run {record['run']}, {record['test']} "
                    f"({record['class']}, thread {record['thread']}, release queue {record['release_queue']}):\n"
                    + textwrap.indent(record["stack"].strip(), "        | ")
                    + "\n      the main thread then:\n"
                    + textwrap.indent("\n".join(record["main_stack"].strip().splitlines()[-12:]), "        | "),
                    file=out,
                )


def summarize(files: list[str], sides: list[str], results: dict) -> dict:
    report = {"files": {}, "nvidia_passes_ours_not": []}
    for file in files:
        nvidia = results.get(("nvidia", file))
        needs_names = bool(nvidia and nvidia.placeholders_used)
        ours = results.get(("ours", file))
        entry = {
            "post_release_names": nvidia.placeholders_used if nvidia else [],
            "later_part_names": ours.placeholders_used if ours else [],
            "not_collectable_by_nvidia_release": nvidia.collected if needs_names else 0,
        }
        for side in sides:
            result = results[side, file]
            split_counts(result, needs_names)
            entry[side] = {
                "status": result.status,
                "seconds": round(result.seconds, 1),
                **result.counts,
                "ipc_rule": result.ipc,
                "tests": result.tests,
                "placeholder_tests": result.placeholder_tests,
                "tail": result.tail,
                "why": result.why,
                "last_started": result.last_started,
            }
        if "ours" in entry and "nvidia" in entry:
            ours_tests = entry["ours"]["tests"]
            report["nvidia_passes_ours_not"] += [
                f"{file}::{nodeid.split('::', 1)[-1]}"
                for nodeid, outcome in entry["nvidia"]["tests"].items()
                if outcome == "passed" and ours_tests.get(nodeid) != "passed"
            ]
        report["files"][file] = entry
    return report


def ratio(ours: int, nvidia: int) -> str:
    return "-" if nvidia == 0 else f"{ours / nvidia:.2f}"


def print_table(report: dict, sides: list[str], out=sys.stdout) -> None:
    """One row per file: each side's counts (a '!' marks a file that did not run cleanly, see
    the notes below the table), the ratio of passes, and the post-1.2 counts."""
    both = len(sides) == 2
    heads = "".join(f"{head:>6}" for head in ("pass", "fail", "err", "skip", "xfail"))
    width = len(heads) + 1
    print(
        f"{'':44}"
        + "".join(f"| {side:<{width}}" for side in sides)
        + ("| ratio " if both else "")
        + "| NVIDIA release cannot collect",
        file=out,
    )
    print(
        f"{'file':44}"
        + f"| {heads} " * len(sides)
        + ("|       " if both else "")
        + "| tests  (ipc rule: "
        + "/".join(f"{side} pass" for side in sides)
        + " of n)",
        file=out,
    )
    totals = {side: dict.fromkeys(OUTCOMES, 0) for side in sides}
    post_total = 0
    for file, entry in report["files"].items():
        row = f"{file:44}"
        for side in sides:
            data = entry[side]
            for outcome in OUTCOMES:
                totals[side][outcome] += data[outcome]
            row += "| " + "".join(f"{data[o]:>6}" for o in OUTCOMES) + ("!" if data["status"] != "ok" else " ")
        if both:
            row += f"| {ratio(entry['ours']['passed'], entry['nvidia']['passed']):>5} "
        post = entry["not_collectable_by_nvidia_release"]
        post_total += post
        if post:
            ipc = [entry[side]["ipc_rule"] for side in sides]
            row += (
                f"| {post:>5}  ("
                + "/".join(str(part["passed"]) for part in ipc)
                + f" of {max(part['total'] for part in ipc)})"
            )
        else:
            row += "|"
        print(row, file=out)
    row = f"{'TOTAL':44}" + "".join("| " + "".join(f"{totals[side][o]:>6}" for o in OUTCOMES) + " " for side in sides)
    if both:
        row += f"| {ratio(totals['ours']['passed'], totals['nvidia']['passed']):>5} "
    print(row + f"| {post_total:>5}", file=out)
    for file, entry in report["files"].items():
        for side in sides:
            if entry[side]["status"] != "ok":
                during = f" during {entry[side]['last_started']}" if entry[side].get("last_started") else ""
                print(
                    f"\n! {side} {file}: {entry[side]['status']}{during}; the output:\n"
                    + textwrap.indent(entry[side]["tail"].strip()[:2500], "    "),
                    file=out,
                )
    for file, entry in report["files"].items():
        if entry.get("later_part_names"):
            print(
                f"\n~ ours {file}: collected with placeholders for names of later parts of the port "
                f"({', '.join(entry['later_part_names'])}); the tests that use them fail, "
                f"{len(entry['ours']['placeholder_tests'])} of them",
                file=out,
            )
    if both:
        missing = report["nvidia_passes_ours_not"]
        print(f"\n{len(missing)} tests pass on NVIDIA's cuda.core and not on ours" + (":" if missing else ""), file=out)
        for nodeid in missing:
            print(f"  {nodeid}", file=out)


def parse_args(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    parser.add_argument(
        "--root",
        default="/work/upstream/suite",
        help="the suite root (cuda_core/tests, cuda_core/pytest.ini, cuda_python_test_helpers)",
    )
    parser.add_argument("--from-git", metavar="CHECKOUT", help="first lay out ROOT from this cuda-python checkout")
    parser.add_argument("--ref", default="HEAD", help="the git ref for --from-git (default HEAD)")
    parser.add_argument(
        "--files",
        nargs="+",
        metavar="FILE",
        help="test files (globs) relative to cuda_core/tests; default: all test_*.py but cython/",
    )
    parser.add_argument("--ours-python", help="the python of our side")
    parser.add_argument(
        "--ours-path",
        action="append",
        default=[],
        metavar="DIR",
        help="PYTHONPATH entries of our side (repeat, or join with the path separator)",
    )
    parser.add_argument("--nvidia-python", help="a python whose environment has NVIDIA's cuda.core")
    parser.add_argument(
        "--nvidia-path",
        action="append",
        default=[],
        metavar="DIR",
        help="PYTHONPATH entries of NVIDIA's side, e.g. a site dir with cuda-bindings 12.x to run "
        "NVIDIA's CUDA 12 build (its wheel picks the major of the cuda-bindings it finds)",
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds per file and side (default 900)")
    parser.add_argument(
        "--deadline",
        type=float,
        metavar="SECONDS",
        help="wall-clock budget of the whole run: a file still running then is stopped (timeout), "
        "one not started is reported as not run; the table and --json are written either way",
    )
    parser.add_argument("--json", metavar="PATH", help="write every test id and outcome per side here")
    parser.add_argument("-k", help="pytest -k expression, passed to every run")
    parser.add_argument("--jobs", type=int, default=1, help="files run at once (default 1)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of every file per side (default 1)")
    parser.add_argument(
        "--nvidia-repeat", type=int, default=0, help="runs of every file on NVIDIA's side (default --repeat)"
    )
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="NAME",
        help="another pytest plugin of upstream_plugins/ for both sides (e.g. offthread_finalizer)",
    )
    parser.add_argument(
        "--post-release-name",
        action="append",
        metavar="MODULE:NAME",
        help="a name newer than NVIDIA's release, given a placeholder on the nvidia side "
        f"(default: {', '.join(DEFAULT_POST_RELEASE_NAMES)})",
    )
    parser.add_argument(
        "--later-part-name",
        action="append",
        default=[],
        metavar="MODULE:NAME",
        help="a name our cuda.core gets in a later part of the port, given a placeholder on "
        "our side so the file collects; the tests that use it fail and are listed apart",
    )
    args = parser.parse_args(argv)
    args.post_release_name = args.post_release_name or list(DEFAULT_POST_RELEASE_NAMES)
    if args.deadline is not None:
        args.deadline += time.monotonic()  # from now on, the moment the run's budget ends
    if args.from_git and shutil.which("git") is None:
        parser.error("--from-git needs git")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    sides = [side for side in SIDES if any(side in entry for entry in report["files"].values())]
    print_table(report, sides)
    if "repeats" in report:
        print_repeats(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True))
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
