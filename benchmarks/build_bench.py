#!/usr/bin/env python3
"""Build benchmarks: ours (meson/ninja, one build dir per major) beside the setuptools reference.

Both ways build this project's own package from scratch copies of the repo, on this
machine, in one run, alternating per repetition; the table shows medians and the ratio
ours / reference, and ``--json`` writes every sample.

* **Ours**: ``meson setup build-cuN`` + ``ninja -C build-cuN`` in the venv of that major
  (tools/devenv.py), and a meson-python editable install for the import figure.
* **Reference**: benchmarks/reference_setuptools.py, the way NVIDIA's cuda_core builds
  today: ``cythonize`` with ``compile_time_env`` and ``nthreads``, generated C++ in a
  per-major keyed directory, a stamp file that forces ``build_ext`` when the major
  changes, ``build_ext --inplace -j`` (see that file's docstring). Its "editable install"
  is the in-place tree on sys.path, as setuptools' develop mode gives.

Figures, for each way: clean build per major; no-op rebuild; the cu13 -> cu12 -> cu13
round trip (total, and the return leg alone, with its compile steps); touching
_event.pxd, which _event implements and _stream cimports (time and compile steps); toggling
coverage on and back off; the import time of an editable install when nothing changed,
beside a plain import. A compile step is a C++ object or Cython output whose file was
rewritten, counted the same way for both.

Usage: python benchmarks/build_bench.py [--quick] [--repeat N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))
import devenv  # noqa: E402

OURS, REFERENCE = "ours (meson/ninja)", "reference (setuptools)"
TOUCHED_PXD = "cuda_core/cuda/core/_event.pxd"  # implemented by _event.pyx, cimported by _stream.pyx


def venv_env(major: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME")}
    env["PATH"] = f"{devenv.venv_dir(f'cu{major}') / 'bin'}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


def timed(cmd: list[str | Path], major: int, cwd: Path, **extra: str) -> float:
    """Seconds a command takes; its failure stops the benchmark with its output."""
    start = time.perf_counter()
    result = subprocess.run([str(c) for c in cmd], env=venv_env(major, **extra), cwd=cwd, capture_output=True,
                            text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build_bench: {' '.join(map(str, cmd))} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return seconds


def scratch_checkout(parent: Path, name: str) -> Path:
    target = parent / name
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO_ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for entry in filter(None, listed):
        if (REPO_ROOT / entry).is_file():
            (target / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / entry, target / entry)
    return target


def artifact_mtimes(root: Path, patterns: tuple[str, ...]) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for pattern in patterns for p in root.glob(pattern)}


@dataclass
class Way:
    """One way of building a checkout: how to build a major, and where its compile outputs are."""

    name: str
    checkout: Path
    outputs: tuple[str, ...]

    def build(self, major: int, coverage: bool = False) -> float:
        raise NotImplementedError

    def measured(self, major: int, coverage: bool = False) -> tuple[float, int]:
        """Build; return seconds and the number of compile steps (outputs rewritten)."""
        before = artifact_mtimes(self.checkout, self.outputs)
        seconds = self.build(major, coverage)
        after = artifact_mtimes(self.checkout, self.outputs)
        return seconds, sum(1 for path, mtime in after.items() if before.get(path) != mtime)


class Ours(Way):
    def __init__(self, checkout: Path) -> None:
        super().__init__(OURS, checkout, ("build-cu*/**/*.o", "build-cu*/**/*.pyx.cpp"))
        self._coverage: dict[int, bool] = {}

    def build(self, major: int, coverage: bool = False) -> float:
        build_dir = self.checkout / f"build-cu{major}"
        bin_dir = devenv.venv_dir(f"cu{major}") / "bin"
        seconds = 0.0
        if not build_dir.exists():
            seconds += timed([bin_dir / "meson", "setup", build_dir, f"-Dcython-coverage={str(coverage).lower()}"],
                             major, self.checkout)
        elif self._coverage.get(major, False) != coverage:
            seconds += timed([bin_dir / "meson", "configure", build_dir,
                              f"-Dcython-coverage={str(coverage).lower()}"], major, self.checkout)
        self._coverage[major] = coverage
        return seconds + timed([bin_dir / "ninja", "-C", build_dir], major, self.checkout)


class Reference(Way):
    def __init__(self, checkout: Path) -> None:
        super().__init__(REFERENCE, checkout, ("build/temp*/**/*.o", "build/cython-cu*/**/*.cpp"))

    def build(self, major: int, coverage: bool = False) -> float:
        python = devenv.venv_python(f"cu{major}")
        args = ["--coverage"] if coverage else []
        return timed([python, self.checkout / "benchmarks" / "reference_setuptools.py", *args], major, self.checkout)


@dataclass
class Samples:
    """Every measured value, by figure and way."""

    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def add(self, figure: str, way: str, value: float) -> None:
        self.values.setdefault(figure, {}).setdefault(way, []).append(value)

    def median(self, figure: str, way: str) -> float:
        return statistics.median(self.values[figure][way])


def touch(path: Path) -> None:
    later = time.time() + 1
    os.utime(path, (later, later))


def import_seconds(python: Path, env: dict[str, str], cwd: Path, runs: int) -> float:
    """Median wall time of `python -c "import cuda.core"`."""
    samples = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        subprocess.run([python, "-c", "import cuda.core"], env=env, cwd=cwd, check=True, capture_output=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples[1:])  # the first run warms caches


def one_repetition(parent: Path, index: int, samples: Samples, noop_runs: int) -> None:
    """Round trip, no-op, .pxd touch and coverage toggle, for both ways."""
    for way_class in (Ours, Reference) if index % 2 == 0 else (Reference, Ours):
        way = way_class(scratch_checkout(parent, f"{way_class.__name__.lower()}-{index}"))
        print(f"  {way.name}: round trip cu13 -> cu12 -> cu13", flush=True)
        legs = [way.measured(major) for major in (13, 12, 13)]
        samples.add("clean build cu13 [s]", way.name, legs[0][0])
        samples.add("clean build cu12 [s]", way.name, legs[1][0])
        samples.add("round trip total [s]", way.name, sum(leg[0] for leg in legs))
        samples.add("round trip return leg [s]", way.name, legs[2][0])
        samples.add("return leg compile steps", way.name, legs[2][1])
        for _ in range(noop_runs):
            samples.add("no-op rebuild [s]", way.name, way.measured(13)[0])
        touch(way.checkout / TOUCHED_PXD)
        seconds, steps = way.measured(13)
        samples.add("touch _event.pxd [s]", way.name, seconds)
        samples.add("touch _event.pxd compile steps", way.name, steps)
        print(f"  {way.name}: coverage on, then off", flush=True)
        samples.add("coverage on [s]", way.name, way.measured(13, coverage=True)[0])
        samples.add("coverage back off [s]", way.name, way.measured(13, coverage=False)[0])


def import_figures(parent: Path, samples: Samples, runs: int) -> None:
    """Import time of an unchanged editable install of each way, beside a plain install."""
    python = devenv.venv_python("cu13")
    ours = scratch_checkout(parent, "editable-ours")
    timed([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "-e", ours], 13, ours)
    try:
        editable = 1000 * import_seconds(python, venv_env(13), parent, runs)
    finally:
        timed([python, "-m", "pip", "uninstall", "-y", "-q", "cuda-core"], 13, parent)
    site = parent / "plain-install"
    timed([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "--target", site, ours], 13, ours)
    plain = 1000 * import_seconds(python, venv_env(13, PYTHONPATH=str(site)), parent, runs)
    reference = scratch_checkout(parent, "editable-reference")
    Reference(reference).build(13)
    in_place = 1000 * import_seconds(python, venv_env(13, PYTHONPATH=str(reference / "cuda_core")), parent, runs)
    for way, value in ((OURS, editable), (REFERENCE, in_place)):
        samples.add("import, editable, unchanged [ms]", way, value)
        samples.add("import, plain install [ms]", way, plain)
        samples.add("editable import overhead [ms]", way, value - plain)


def table(samples: Samples) -> str:
    ways = [OURS, REFERENCE]
    lines = [f"| figure | {ways[0]} | {ways[1]} | ours / reference |", "| --- | ---: | ---: | ---: |"]
    for figure in samples.values:
        ours, reference = (samples.median(figure, way) for way in ways)
        ratio = f"{ours / reference:.3f}" if reference else ("-" if ours == 0 else "inf")
        fmt = (lambda v: f"{v:.0f}") if "steps" in figure else (lambda v: f"{v:.3f}" if "[s]" in figure else f"{v:.1f}")
        lines.append(f"| {figure} | {fmt(ours)} | {fmt(reference)} | {ratio} |")
    return "\n".join(lines)


def targets(samples: Samples) -> list[str]:
    ours, ref = OURS, REFERENCE
    ratio: Callable[[str], float] = lambda figure: samples.median(figure, ours) / samples.median(figure, ref)
    checks = [
        ("no-op rebuild at most 1/20 of the reference's", ratio("no-op rebuild [s]") <= 1 / 20,
         f"{ratio('no-op rebuild [s]'):.4f}"),
        ("round trip at most 0.6 of the reference's", ratio("round trip total [s]") <= 0.6,
         f"{ratio('round trip total [s]'):.3f}"),
        ("return leg runs zero compile steps", samples.median("return leg compile steps", ours) == 0,
         f"{samples.median('return leg compile steps', ours):.0f} steps"),
        ("the .pxd touch compiles only the two dependents",
         samples.median("touch _event.pxd compile steps", ours) == 4,
         f"{samples.median('touch _event.pxd compile steps', ours):.0f} steps (Cython + C++ for _event and _stream)"),
    ]
    return [f"- [{'met' if ok else 'MISSED'}] {text}: {value}" for text, ok, value in checks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, fewer import runs (< 5 min)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the build scenarios")
    parser.add_argument("--json", type=Path, default=REPO_ROOT / "benchmarks" / "results" / "build_bench.json")
    args = parser.parse_args(argv)
    repeat, noop_runs, import_runs = (1, 5, 5) if args.quick else (args.repeat, 10, 15)
    for flavor in ("cu12", "cu13"):
        devenv.ensure(flavor)
        timed([devenv.venv_python(flavor), "-m", "pip", "install", "-q", "-r",
               REPO_ROOT / "requirements" / "bench.txt"], int(flavor[2:]), REPO_ROOT)
    samples = Samples()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="build-bench-") as scratch:
        for index in range(repeat):
            print(f"repetition {index + 1}/{repeat}", flush=True)
            one_repetition(Path(scratch), index, samples, noop_runs)
        print("editable import", flush=True)
        import_figures(Path(scratch), samples, import_runs)
    report = table(samples)
    print(f"\nmedians of {repeat} repetition(s), {os.cpu_count()} cores, {time.monotonic() - start:.0f} s in all\n")
    print(report)
    print("\ntargets:\n" + "\n".join(targets(samples)))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"repeat": repeat, "cores": os.cpu_count(), "samples": samples.values},
                                    indent=2) + "\n")
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
