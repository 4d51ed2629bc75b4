#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Build benchmarks: ours (meson/ninja, one build dir per major) beside the setuptools reference.

Both ways build this project's own package from scratch copies of the repo, on this
machine, in one run, alternating per repetition; the table shows medians and the ratio
ours / reference, and ``--json`` writes every sample.

* **Ours**: ``meson setup build-cuN`` + ``ninja -C build-cuN`` in the venv of that major
  (tools/dev/devenv.py), and a meson-python editable install for the import figure.
* **Reference**: benchmarks/reference_setuptools.py, the way NVIDIA's cuda_core builds
  today: ``cythonize`` with ``compile_time_env`` and ``nthreads``, generated C++ in a
  per-major keyed directory, a stamp file that forces ``build_ext`` when the major
  changes, ``build_ext --inplace -j`` (see that file's docstring). It builds the modules
  of Meson's own list. Its "editable install" is the in-place tree on sys.path, as
  setuptools' develop mode gives.

Figures, for each way: clean build per major; no-op rebuild; the cu13 -> cu12 -> cu13
round trip (total, and the return leg alone, with its compile steps); touching
_event.pxd (time and compile steps); toggling coverage on and back off; the import time
of an editable install when nothing changed, beside a plain import. A compile step is a
C++ object or Cython output whose file was rewritten, counted the same way for both.

Beside them: what Cython's shared utility module (cuda.core._cyutility) saves, from one
more clean cu13 build of ours without it; and the average extension module of our cu13
wheel beside that of NVIDIA's cuda-core 1.2.2 wheel (downloaded from PyPI).

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
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
OURS, REFERENCE = "ours (meson/ninja)", "reference (setuptools)"
TOUCHED_PXD = "cuda_core/cuda/core/_event.pxd"
NVIDIA_WHEEL = "cuda-core==1.2.2"
SHARED_UTILITY_LINES = {
    "meson.build": "  '--shared=cuda.core._cyutility',\n",
    "cuda_core/cuda/core/meson.build": "py.extension_module('_cyutility', cyutility_source, cpp_args: cython_cpp_args, "
    "link_args: cython_link_args, install: true,\n"
    "                    subdir: 'cuda/core')\n",
}


def dev_python(major: int) -> Path:
    """The python of the pinned venv of ``major``, made or checked by tools/dev/devenv.py."""
    result = subprocess.run(
        [sys.executable, REPO_ROOT / "tools" / "dev" / "devenv.py", f"cu{major}", "--print-python"],
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(result.stdout.strip().splitlines()[-1])


PYTHONS: dict[int, Path] = {}


def venv_env(major: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "PYTHONPATH")}
    env["PATH"] = f"{PYTHONS[major].parent}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


def timed(cmd: list[str | Path], major: int, cwd: Path, **extra: str) -> float:
    """Seconds a command takes; its failure stops the benchmark with its output."""
    start = time.perf_counter()
    result = subprocess.run(
        [str(c) for c in cmd], env=venv_env(major, **extra), cwd=cwd, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(
            f"build_bench: {' '.join(map(str, cmd))} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
    return seconds


def scratch_checkout(parent: Path, name: str) -> Path:
    target = parent / name
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO_ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    for entry in filter(None, listed):
        if (REPO_ROOT / entry).is_file():
            (target / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / entry, target / entry)
    # A git repository of one commit: the build reads its version from git at configure.
    identity = ["-c", "user.name=build_bench", "-c", "user.email=build_bench@localhost"]
    for args in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-q", "-m", "snapshot"]):
        subprocess.run(["git", *args], cwd=target, capture_output=True, check=True)
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
        bin_dir = PYTHONS[major].parent
        seconds = 0.0
        if not build_dir.exists():
            seconds += timed(
                [bin_dir / "meson", "setup", build_dir, f"-Dcython-coverage={str(coverage).lower()}"],
                major,
                self.checkout,
            )
        elif self._coverage.get(major, False) != coverage:
            seconds += timed(
                [bin_dir / "meson", "configure", build_dir, f"-Dcython-coverage={str(coverage).lower()}"],
                major,
                self.checkout,
            )
        self._coverage[major] = coverage
        return seconds + timed([bin_dir / "ninja", "-C", build_dir], major, self.checkout)


class Reference(Way):
    def __init__(self, checkout: Path) -> None:
        super().__init__(REFERENCE, checkout, ("build/temp*/**/*.o", "build/cython-cu*/**/*.cpp"))
        # Meson's module list, from a configured (not built) build dir of this checkout.
        self.module_list = checkout / "build-module-list"
        timed([PYTHONS[13].parent / "meson", "setup", self.module_list], 13, checkout)

    def build(self, major: int, coverage: bool = False) -> float:
        args = ["--coverage"] if coverage else []
        return timed(
            [
                PYTHONS[major],
                self.checkout / "benchmarks" / "reference_setuptools.py",
                "--modules-from",
                self.module_list,
                *args,
            ],
            major,
            self.checkout,
            PYTHONPATH=str(self.checkout / "tools"),
        )


@dataclass
class Samples:
    """Every measured value, by figure and way."""

    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def add(self, figure: str, way: str, value: float) -> None:
        self.values.setdefault(figure, {}).setdefault(way, []).append(value)

    def median(self, figure: str, way: str) -> float:
        return statistics.median(self.values[figure][way])


def touch(path: Path) -> None:
    os.utime(path)


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
    python = PYTHONS[13]
    ours = scratch_checkout(parent, "editable-ours")
    timed([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "-e", ours], 13, ours)
    try:
        editable = 1000 * import_seconds(python, venv_env(13), parent, runs)
    finally:
        timed([python, "-m", "pip", "uninstall", "-y", "-q", "cuda-core"], 13, parent)
    site = parent / "plain-install"
    timed([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "--target", site, ours], 13, ours)
    plain = 1000 * import_seconds(python, venv_env(13, PYTHONPATH=str(site)), parent, runs)
    reference = Reference(scratch_checkout(parent, "editable-reference"))
    reference.build(13)
    in_place = 1000 * import_seconds(
        python, venv_env(13, PYTHONPATH=str(reference.checkout / "cuda_core")), parent, runs
    )
    for way, value in ((OURS, editable), (REFERENCE, in_place)):
        samples.add("import, editable, unchanged [ms]", way, value)
        samples.add("import, plain install [ms]", way, plain)
        samples.add("editable import overhead [ms]", way, value - plain)


def extension_sizes(wheel: Path, prefix: str = "cuda/core/") -> list[int]:
    """The sizes of the extension modules under ``prefix`` in a wheel."""
    with zipfile.ZipFile(wheel) as archive:
        return [
            info.file_size
            for info in archive.infolist()
            if info.filename.startswith(prefix) and info.filename.endswith(".so")
        ]


def our_wheel(checkout: Path, build_dir: Path, out: Path) -> Path:
    """Our cu13 wheel, packed by meson-python from a built build dir."""
    timed(
        [
            PYTHONS[13],
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            f"-Cbuild-dir={build_dir}",
            "-w",
            out,
            checkout,
        ],
        13,
        checkout,
    )
    return next(out.glob("cuda_core-*.whl"))


def without_shared_utility(checkout: Path) -> Path:
    """The checkout with Cython's shared utility module taken out: each module keeps its own copy."""
    for name, line in SHARED_UTILITY_LINES.items():
        path = checkout / name
        text = path.read_text()
        if line not in text:
            raise SystemExit(f"build_bench: {name} no longer holds {line.strip()!r}: update SHARED_UTILITY_LINES")
        path.write_text(text.replace(line, ""))
    return checkout


def size_figures(parent: Path, samples: Samples) -> None:
    """Clean cu13 build and wheel without the shared utility module, and NVIDIA's cu13 wheel."""
    with_shared = Ours(scratch_checkout(parent, "sizes-shared"))
    without = Ours(without_shared_utility(scratch_checkout(parent, "sizes-unshared")))
    for label, way in (("with _cyutility", with_shared), ("without _cyutility", without)):
        print(f"  clean cu13 build {label}", flush=True)
        samples.add(f"clean build cu13, {label} [s]", OURS, way.measured(13)[0])
        sizes = extension_sizes(our_wheel(way.checkout, way.checkout / "build-cu13", parent / f"wheel-{label[:4]}"))
        samples.add(f"cu13 wheel, {label}: extension modules [KiB]", OURS, sum(sizes) / 1024)
        samples.add(f"cu13 wheel, {label}: average module [KiB]", OURS, sum(sizes) / len(sizes) / 1024)
    nvidia = parent / "nvidia-wheel"
    subprocess.run(
        [PYTHONS[13], "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", nvidia, NVIDIA_WHEEL],
        check=True,
    )
    sizes = extension_sizes(next(nvidia.glob("cuda_core-*.whl")), "cuda/core/cu13/")
    samples.add("NVIDIA cuda-core 1.2.2 cu13 wheel: average module [KiB]", REFERENCE, sum(sizes) / len(sizes) / 1024)
    samples.add("NVIDIA cuda-core 1.2.2 cu13 wheel: extension modules", REFERENCE, len(sizes))


def table(samples: Samples) -> str:
    ways = [OURS, REFERENCE]
    lines = [f"| figure | {ways[0]} | {ways[1]} | ours / reference |", "| --- | ---: | ---: | ---: |"]
    for figure, by_way in samples.values.items():
        ours, reference = (samples.median(figure, way) if way in by_way else None for way in ways)
        fmt: Callable[[float], str] = (
            (lambda v: f"{v:.0f}") if "steps" in figure else (lambda v: f"{v:.3f}" if "[s]" in figure else f"{v:.1f}")
        )
        ratio = f"{ours / reference:.3f}" if ours is not None and reference else "-"
        shown = [fmt(v) if v is not None else "-" for v in (ours, reference)]
        lines.append(f"| {figure} | {shown[0]} | {shown[1]} | {ratio} |")
    return "\n".join(lines)


def targets(samples: Samples) -> list[str]:
    ours, ref = OURS, REFERENCE

    def ratio(figure: str) -> float:
        return samples.median(figure, ours) / samples.median(figure, ref)

    average = samples.median("cu13 wheel, with _cyutility: average module [KiB]", ours) / samples.median(
        "NVIDIA cuda-core 1.2.2 cu13 wheel: average module [KiB]", ref
    )
    clean = max(ratio("clean build cu13 [s]"), ratio("clean build cu12 [s]"))
    checks = [
        (
            "round trip at most 0.55 of the reference's",
            ratio("round trip total [s]") <= 0.55,
            f"{ratio('round trip total [s]'):.3f}",
        ),
        ("clean build per major at most 0.85 of the reference's", clean <= 0.85, f"{clean:.3f} (the worse major)"),
        (
            "no-op rebuild at most 1/100 of the reference's",
            ratio("no-op rebuild [s]") <= 1 / 100,
            f"{ratio('no-op rebuild [s]'):.4f}",
        ),
        (
            "return leg runs zero compile steps",
            samples.median("return leg compile steps", ours) == 0,
            f"{samples.median('return leg compile steps', ours):.0f} steps",
        ),
        ("average cu13 extension module at most 0.75 of NVIDIA's 1.2.2", average <= 0.75, f"{average:.3f}"),
        (
            "editable import costs at most 15 ms over a plain install",
            samples.median("editable import overhead [ms]", ours) <= 15,
            f"{samples.median('editable import overhead [ms]', ours):.1f} ms",
        ),
    ]
    return [f"- [{'met' if ok else 'MISSED'}] {text}: {value}" for text, ok, value in checks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, fewer import runs")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the build scenarios")
    parser.add_argument("--json", type=Path, default=REPO_ROOT / "benchmarks" / "results" / "build_bench.json")
    args = parser.parse_args(argv)
    repeat, noop_runs, import_runs = (1, 5, 5) if args.quick else (args.repeat, 10, 15)
    for major in (12, 13):
        PYTHONS[major] = dev_python(major)
        timed(
            [PYTHONS[major], "-m", "pip", "install", "-q", "-r", REPO_ROOT / "requirements" / "bench.txt"],
            major,
            REPO_ROOT,
        )
    samples = Samples()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="build-bench-") as scratch:
        for index in range(repeat):
            print(f"repetition {index + 1}/{repeat}", flush=True)
            one_repetition(Path(scratch), index, samples, noop_runs)
        print("editable import", flush=True)
        import_figures(Path(scratch), samples, import_runs)
        print("the shared utility module, and module sizes", flush=True)
        size_figures(Path(scratch), samples)
    report = table(samples)
    print(f"\nmedians of {repeat} repetition(s), {os.cpu_count()} cores, {time.monotonic() - start:.0f} s in all\n")
    print(report)
    print("\ntargets:\n" + "\n".join(targets(samples)))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"repeat": repeat, "cores": os.cpu_count(), "samples": samples.values}, indent=2) + "\n"
    )
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
