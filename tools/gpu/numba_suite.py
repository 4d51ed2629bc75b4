#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run numba-cuda's own tests against our cuda.core and NVIDIA's, side by side, module by module.

numba-cuda is a client of cuda.core (Program, ProgramOptions, ObjectCode, launch, LaunchConfig,
GraphBuilder, Buffer, StridedMemoryView, CUDAError, NVRTCError): every test of it that passes
with NVIDIA's cuda.core must pass with ours. Its tests are unittest modules; ``python -m
numba.runtests -m N`` cannot run them in parallel (it fails pickling a local function of
test_module_callbacks), so this runs each module in its own process per side
(numba_plugins/numba_module_runner.py, which writes one JSON line per test), many at once,
each within a timeout and the whole run within --deadline. A crash loses one module of one
side, not the run.

The tests are found in the installed numba-cuda (``numba_cuda/numba/cuda/tests``, through
``importlib.util.find_spec('numba_cuda')`` in the first side's Python), or --tests-dir with
--package. The two sides, as in upstream_suite.py:

  ours    --ours-python with --ours-path entries (our install dir, the site dir of the
          matching cuda-bindings) first on PYTHONPATH;
  nvidia  --nvidia-python, whose environment has NVIDIA's cuda.core; PYTHONPATH holds none of
          ours, only --nvidia-path entries if given.

Both get --common-path entries last (e.g. a site dir with cffi, pycparser and filecheck, which
numba-cuda's tests need). Output: a table per module (pass/fail/err/skip/xfail and the exit
status per side, '!' where a module did not run cleanly, notes on those below), then the tests
that pass on NVIDIA's and not on ours, the modules whose processes end differently, and the
verdict; --json keeps every test's outcome and the reason of each failure or skip.

The verdict, with both sides, is the exit status: 1 when a module's process ends otherwise than
NVIDIA's (killed by a signal, an abort at interpreter exit after unittest printed "OK", another
exit status, a timeout where NVIDIA's finished: a run cut by --deadline at different points on
the two sides fails too), or a test passes on NVIDIA's cuda.core and not on ours; else 0.
A client that crashes on ours after all its tests passed is a failure like any other.
The environment passes through: NUMBA_ENABLE_CUDASIM=1 runs the simulator (no GPU, no cuda.core).

Example (the GPU machine, after gpu_check.py built and installed our CUDA 13.0 wheel):
  python3 tools/gpu/numba_suite.py --ours-python python3 --ours-path /tmp/gpu-install13.0 \\
      --ours-path /tmp/gpu-site13.0 --nvidia-python python3 --nvidia-path /tmp/gpu-site13.0 \\
      --common-path /tmp/gpu-numba-deps --jobs 12 --deadline 540 --json numba.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # run by path: tools/ holds the harness (gpu)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpu.process import run as run_process  # noqa: E402
from gpu.process import signal_name  # noqa: E402

RUNNER = Path(__file__).resolve().parent / "numba_plugins" / "numba_module_runner.py"
OUTCOMES = ("passed", "failed", "errors", "skipped", "xfailed")
SIDES = ("ours", "nvidia")
DEFAULT_PACKAGE = "numba.cuda.tests"
FIND_TESTS = (
    "import importlib.util, pathlib; spec = importlib.util.find_spec('numba_cuda'); "
    "print(pathlib.Path(spec.origin).parent / 'numba' / 'cuda' / 'tests' if spec and spec.origin else '')"
)


@dataclass
class Side:
    name: str
    python: str
    paths: list[str]  # PYTHONPATH entries before the common ones


@dataclass
class ModuleResult:
    module: str
    side: str
    status: str = "ok"  # ok, import error, crashed (rc N or SIGNAME), timeout (N s), not run (deadline)
    returncode: int | None = None  # the process's exit status, -N for signal N; None if not run
    seconds: float = 0.0
    tests: dict = field(default_factory=dict)  # test id -> outcome
    why: dict = field(default_factory=dict)  # test id -> one line on its failure or skip
    collected: int = 0
    last_started: str = ""
    tail: str = ""

    def counts(self) -> dict:
        """passed/failed/errors/skipped/xfailed; an unexpected success counts as a failure."""
        counts = dict.fromkeys(OUTCOMES, 0)
        for outcome in self.tests.values():
            counts["failed" if outcome == "xpassed" else outcome] += 1
        return counts

    @property
    def end(self) -> str:
        """How the process ended, as the verdict compares it: its exit status ('0', '1'), the
        signal that killed it ('SIGSEGV'), 'timeout' (stopped by us), or 'not run'."""
        if self.returncode is None:
            return "not run"
        if self.status.startswith("timeout"):
            return "timeout"
        return signal_name(self.returncode) if self.returncode < 0 else str(self.returncode)


# ---------------------------------------------------------------------------------------------
# Finding the modules.


def find_tests_dir(side: Side) -> Path:
    """numba-cuda's tests directory, as the side's Python finds the installed package."""
    done = run_process(
        [side.python, "-c", FIND_TESTS], env=side_env(side, []), output="capture", cwd=tempfile.gettempdir()
    )
    found = done.stdout.strip()
    if done.returncode or not found or not Path(found).is_dir():
        raise SystemExit(
            f"numba-cuda's tests are not found by {side.python} ({done.stderr.strip()[-300:] or found or 'no numba_cuda'}): "
            "install numba-cuda, or give --tests-dir and --package"
        )
    return Path(found)


def test_modules(tests_dir: Path, package: str, patterns: list[str] | None) -> list[str]:
    """Dotted names of the test_*.py modules under tests_dir (those matching a pattern, a glob on
    the path relative to tests_dir or on the dotted name, if patterns are given)."""
    modules = []
    for path in sorted(tests_dir.rglob("test_*.py")):
        relative = path.relative_to(tests_dir)
        dotted = ".".join([package, *relative.with_suffix("").parts])
        if not patterns or any(fnmatch.fnmatch(str(relative), p) or fnmatch.fnmatch(dotted, p) for p in patterns):
            modules.append(dotted)
    if patterns and not modules:
        raise SystemExit(f"no test module under {tests_dir} matches {' '.join(patterns)}")
    return modules


# ---------------------------------------------------------------------------------------------
# Running one module on one side.


def side_env(side: Side, common: list[str]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = os.pathsep.join([*side.paths, *common])
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONFAULTHANDLER="1", PYTHONUNBUFFERED="1")
    return env


def run_module(side: Side, module: str, args, work: Path) -> ModuleResult:
    result = ModuleResult(module, side.name)
    timeout = args.timeout if args.deadline is None else min(args.timeout, args.deadline - time.monotonic())
    if timeout <= 0:  # the run's --deadline has passed: not run, rather than failed
        result.status = "not run (deadline)"
        return result
    records = work / f"{side.name}-{module}.jsonl"
    # Past the timeout, SIGABRT first: faulthandler prints where every thread is stuck.
    done = run_process(
        [side.python, RUNNER, module, records],
        cwd=work,
        env=side_env(side, args.common_path),
        output="merge",
        timeout=timeout,
    )
    if done.timed_out:
        result.status = f"timeout ({timeout:.0f} s)"
    result.seconds = done.seconds
    result.returncode = done.returncode
    read_records(records, result)
    if result.status == "ok" and any(test.endswith("::<load>") or "_FailedTest" in test for test in result.tests):
        result.status = "import error"
    elif result.status == "ok" and done.returncode not in (0, 1):
        # After "OK" too: a process that dies at interpreter exit crashed, whatever its tests said.
        rc = done.returncode
        result.status = f"crashed ({signal_name(rc) if rc < 0 else f'rc {rc}'})"
    if result.status != "ok":
        text = str(done.stdout)
        fatal = text.find("Fatal Python error")  # a crash: faulthandler's stacks from their start,
        # after the few lines before them (unittest's "OK" where the process died at exit).
        start = text.rfind("\n", 0, max(0, fatal - 300)) + 1
        result.tail = text[start : fatal + 6000] if fatal >= 0 else text[-3000:]
    return result


def read_records(path: Path, result: ModuleResult) -> None:
    """The runner's JSON lines: outcomes per test id, the count loaded, the last test begun."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash
        if "collected" in record:
            result.collected = record["collected"]
        elif "started" in record:
            result.last_started = record["started"]
        elif "test" in record:
            test = record["test"]
            # A test with failing subtests is reported once per subtest, then as a success:
            # its worst outcome stands.
            if result.tests.get(test) in ("failed", "errors") and record["outcome"] == "passed":
                continue
            result.tests[test] = record["outcome"]
            if record.get("why"):
                result.why.setdefault(test, record["why"])


# ---------------------------------------------------------------------------------------------
# The whole run, and what it prints.


def run(args) -> dict:
    sides = []
    if args.ours_python:
        sides.append(Side("ours", args.ours_python, split_paths(args.ours_path)))
    if args.nvidia_python:
        sides.append(Side("nvidia", args.nvidia_python, split_paths(args.nvidia_path)))
    if not sides:
        raise SystemExit("nothing to run: give --ours-python and/or --nvidia-python")
    args.common_path = split_paths(args.common_path)
    if args.tests_dir:
        tests_dir, package = Path(args.tests_dir).resolve(), args.package
    else:
        tests_dir, package = (
            find_tests_dir(Side(sides[0].name, sides[0].python, sides[0].paths + args.common_path)),
            DEFAULT_PACKAGE,
        )
    modules = test_modules(tests_dir, package, args.modules)
    print(f"{len(modules)} modules of {tests_dir}, {len(sides)} side(s), {args.jobs} at once", file=sys.stderr)
    results: dict[tuple[str, str], ModuleResult] = {}
    with tempfile.TemporaryDirectory(prefix="numba_suite_") as temp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {
                pool.submit(run_module, side, module, args, Path(temp)): (side.name, module)
                for module in modules
                for side in sides
            }
            for future in concurrent.futures.as_completed(futures):
                results[futures[future]] = result = future.result()
                print(
                    f"  {result.side:6} {result.module:60} {result.status:20} {result.seconds:6.1f} s", file=sys.stderr
                )
    return summarize(modules, [side.name for side in sides], results)


def split_paths(groups: list[str]) -> list[str]:
    return [str(Path(entry).resolve()) for group in groups for entry in group.split(os.pathsep) if entry]


def summarize(modules: list[str], sides: list[str], results: dict) -> dict:
    """Per module and side its counts, tests and end; with both sides, the tests that pass on one
    side only, the modules whose processes end differently, and the verdict on the two."""
    report: dict = {"modules": {}, "nvidia_passes_ours_not": [], "ours_passes_nvidia_not": [], "ends_differ": []}
    for module in modules:
        entry = {}
        for side in sides:
            result = results[side, module]
            entry[side] = {
                "status": result.status,
                "returncode": result.returncode,
                "end": result.end,
                "seconds": round(result.seconds, 1),
                "collected": result.collected,
                **result.counts(),
                "tests": result.tests,
                "why": result.why,
                "last_started": result.last_started,
                "tail": result.tail,
            }
        if len(sides) == 2:
            report["nvidia_passes_ours_not"] += passes_only(entry["nvidia"], entry["ours"])
            report["ours_passes_nvidia_not"] += passes_only(entry["ours"], entry["nvidia"])
            if entry["ours"]["end"] != entry["nvidia"]["end"]:
                report["ends_differ"].append(
                    {"module": module, "ours": entry["ours"]["end"], "nvidia": entry["nvidia"]["end"]}
                )
        report["modules"][module] = entry
    report["verdict"] = verdict(report) if len(sides) == 2 else "none: one side only"
    return report


def verdict(report: dict) -> str:
    """'pass', or 'FAIL: ' and why: a module whose process ends otherwise than on NVIDIA's (a
    signal, an abort at exit after every test passed, another exit status, a timeout), or a
    test that passes on NVIDIA's cuda.core and not on ours."""
    ends, tests = len(report["ends_differ"]), len(report["nvidia_passes_ours_not"])
    if not ends and not tests:
        return "pass: every module's process ends as on NVIDIA's, no test passes on NVIDIA's only"
    reasons = [
        *([f"{ends} module(s) end differently from NVIDIA's"] if ends else []),
        *([f"{tests} test(s) pass on NVIDIA's only"] if tests else []),
    ]
    return "FAIL: " + ", ".join(reasons)


def passes_only(passing: dict, other: dict) -> list[dict]:
    """The tests that pass on one side and not on the other, with what the other side says of each."""
    return [
        {"test": test, "other": other["why"].get(test) or other["tests"].get(test) or f"not run ({other['status']})"}
        for test, outcome in passing["tests"].items()
        if outcome == "passed" and other["tests"].get(test) != "passed"
    ]


def short(module: str) -> str:
    """A module's name without the package prefix, for the table."""
    return re.sub(r"^numba\.cuda\.tests\.", "", module)


def print_table(report: dict, sides: list[str], out=sys.stdout) -> None:
    """Per module each side's counts and exit status ('!' where it did not run cleanly) and, with
    both sides, the ratio of passes and whether the processes ended alike; then the notes, the
    one-side passes and the modules that ended differently."""
    both = len(sides) == 2
    heads = "".join(f"{head:>6}" for head in ("pass", "fail", "err", "skip", "xfail")) + f"{'exit':>9}"
    width = max([len(short(m)) for m in report["modules"]] + [6])
    print(
        f"{'':{width}} " + "".join(f"| {side:<{len(heads) + 1}}" for side in sides) + ("| ratio  end" if both else ""),
        file=out,
    )
    print(f"{'module':{width}} " + f"| {heads} " * len(sides) + ("|" if both else ""), file=out)
    totals = {side: dict.fromkeys(OUTCOMES, 0) for side in sides}
    for module, entry in report["modules"].items():
        row = f"{short(module):{width}} "
        for side in sides:
            data = entry[side]
            for outcome in OUTCOMES:
                totals[side][outcome] += data[outcome]
            row += "| " + "".join(f"{data[o]:>6}" for o in OUTCOMES) + f"{data['end']:>9}"
            row += "!" if data["status"] != "ok" else " "
        if both:
            same = "same" if entry["ours"]["end"] == entry["nvidia"]["end"] else "DIFF"
            row += f"| {ratio(entry['ours']['passed'], entry['nvidia']['passed']):>5}  {same}"
        print(row, file=out)
    row = f"{'TOTAL':{width}} "
    row += "".join("| " + "".join(f"{totals[s][o]:>6}" for o in OUTCOMES) + f"{'':>9} " for s in sides)
    print(row + (f"| {ratio(totals['ours']['passed'], totals['nvidia']['passed']):>5}" if both else ""), file=out)
    for module, entry in report["modules"].items():
        for side in sides:
            data = entry[side]
            if data["status"] != "ok":
                during = f" during {data['last_started']}" if data["last_started"] else ""
                print(
                    f"\n! {side} {short(module)}: {data['status']}{during}; the output:\n"
                    + textwrap.indent(data["tail"].strip()[:2500], "    "),
                    file=out,
                )
    if both:
        for key, what in (
            ("nvidia_passes_ours_not", "on NVIDIA's cuda.core and not on ours"),
            ("ours_passes_nvidia_not", "on ours and not on NVIDIA's cuda.core"),
        ):
            tests = report[key]
            print(f"\n{len(tests)} tests pass {what}" + (":" if tests else ""), file=out)
            for item in tests:
                print(f"  {item['test']}: {item['other']}", file=out)
        differ = report["ends_differ"]
        print(f"\n{len(differ)} modules' processes end differently from NVIDIA's" + (":" if differ else ""), file=out)
        for item in differ:
            print(f"  {short(item['module'])}: ours {item['ours']}, nvidia {item['nvidia']}", file=out)


def ratio(ours: int, nvidia: int) -> str:
    return "-" if nvidia == 0 else f"{ours / nvidia:.2f}"


def parse_args(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    parser.add_argument("--ours-python", help="the python of our side")
    parser.add_argument("--ours-path", action="append", default=[], metavar="DIR", help="PYTHONPATH entries of ours")
    parser.add_argument("--nvidia-python", help="a python whose environment has NVIDIA's cuda.core")
    parser.add_argument(
        "--nvidia-path", action="append", default=[], metavar="DIR", help="PYTHONPATH entries of NVIDIA's side"
    )
    parser.add_argument(
        "--common-path", action="append", default=[], metavar="DIR", help="PYTHONPATH entries both sides get last"
    )
    parser.add_argument(
        "--modules", nargs="+", metavar="GLOB", help="modules to run: globs on cudapy/test_x.py or dotted names"
    )
    parser.add_argument("--tests-dir", help="the tests directory (default: numba-cuda's, found by importlib)")
    parser.add_argument(
        "--package", default=DEFAULT_PACKAGE, help=f"its dotted name with --tests-dir (default {DEFAULT_PACKAGE})"
    )
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 2), help="processes at once")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per module and side (default 300)")
    parser.add_argument(
        "--deadline",
        type=float,
        metavar="SECONDS",
        help="wall-clock budget of the whole run: modules still running then are stopped, those not "
        "started are reported as not run; the table and --json are written either way",
    )
    parser.add_argument("--json", metavar="PATH", help="write every test id, outcome and reason per side here")
    args = parser.parse_args(argv)
    if args.deadline is not None:
        args.deadline += time.monotonic()
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    sides = [side for side in SIDES if any(side in entry for entry in report["modules"].values())]
    print_table(report, sides)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, sort_keys=True))
        print(f"\nwrote {args.json}")
    print(f"\nverdict: {report['verdict']}")  # last: what a reader of the end of the log needs
    return 1 if report["verdict"].startswith("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
