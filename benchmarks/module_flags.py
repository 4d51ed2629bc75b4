#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What a C++ compile or link flag does to the extension modules' size and compile time, per
module, from one build dir's generated C++ (no Cython run, no Meson setup): quick to compare
many flags where compile_flags_bench.py builds whole configurations.

For every module of the build dir (compile_commands.json), each variant recompiles its
generated C++ with the build's own command line, changed as the variant says (its optimization
replaced, flags added to the compile or the link), links it with the build's link flags and
strips a copy. Prints per variant the stripped total and average size in KiB, its ratio to
NVIDIA's average (--nvidia: an unpacked wheel, its cu13 modules stripped alike), and the sum
of the compile times (CPU seconds, -j jobs at once); with --per-module, every module's size.
Variants (``--variants``, default all): see VARIANTS. ``-O`` variants apply to the modules
named (hot: meson.build's hot_modules; cold: the rest; all), the others to every module.

Usage: python benchmarks/module_flags.py BUILD_DIR [--nvidia DIR] [--variants NAME ...] [-j N] [--json PATH]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from compile_flags_bench import hot_modules
from module_sizes import modules as package_modules
from module_sizes import stripped_sizes

REPO = Path(__file__).resolve().parents[1]
SECTIONS = (["-ffunction-sections", "-fdata-sections"], ["-Wl,--gc-sections"])


@dataclass(frozen=True)
class Variant:
    """A change of the build's command lines: -O per class of module, compile and link flags added."""

    optimization: dict = field(default_factory=dict)  # 'hot'/'cold' -> '2', '3', 's'
    compile: tuple = ()
    link: tuple = ()


VARIANTS = {
    "as built": Variant(),
    "sections + gc-sections": Variant(compile=tuple(SECTIONS[0]), link=tuple(SECTIONS[1])),
    "no async unwind tables": Variant(compile=("-fno-asynchronous-unwind-tables",)),
    "no-plt, no semantic interposition": Variant(compile=("-fno-plt", "-fno-semantic-interposition")),
    "hot -O2": Variant(optimization={"hot": "2"}),
    "hot -Os": Variant(optimization={"hot": "s"}),
    "hot -O2, sections": Variant(optimization={"hot": "2"}, compile=tuple(SECTIONS[0]), link=tuple(SECTIONS[1])),
    "hot -O2, sections, no async unwind": Variant(
        optimization={"hot": "2"},
        compile=(*SECTIONS[0], "-fno-asynchronous-unwind-tables"),
        link=tuple(SECTIONS[1]),
    ),
}


@dataclass
class Module:
    name: str  # dotted
    hot: bool
    compile: list[str]  # the build's compile command, run in the build dir
    link: list[str]  # the build's link command, its objects included
    output: str  # the .so the link writes (relative to the build dir)
    objects: list[str]  # the objects the link reads


def build_modules(build_dir: Path) -> list[Module]:
    """Each Cython module of the build dir, with its compile and link commands."""
    hot = hot_modules(REPO / "meson.build")
    commands = json.loads((build_dir / "compile_commands.json").read_text())
    ninja = shutil.which("ninja", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if ninja is None:
        raise SystemExit("module_flags: needs ninja")
    found = []
    for so in sorted((build_dir / "cuda_core").rglob("*.so")):
        relative = so.relative_to(build_dir)
        name = ".".join((*so.relative_to(build_dir / "cuda_core").parent.parts, so.name.split(".", 1)[0]))
        link = subprocess.run([ninja, "-C", build_dir, "-t", "commands", str(relative)], capture_output=True, text=True)
        link_line = link.stdout.strip().splitlines()[-1]
        objects = [part for part in shlex.split(link_line) if part.endswith(".o")]
        compiles = [shlex.split(c["command"]) for c in commands if c["output"] in objects]
        found.append(Module(name, name in hot, compiles, shlex.split(link_line), str(relative), objects))
    return found


def changed(command: list[str], flags: tuple, optimization: str | None) -> list[str]:
    result = [part for part in command if not (optimization and re.fullmatch(r"-O[0-3s]", part))]
    if optimization:
        result.insert(1, f"-O{optimization}")
    compile_at = result.index("-c") if "-c" in result else len(result)
    return result[:compile_at] + list(flags) + result[compile_at:]


def cpu_seconds(command: list[str], cwd: Path) -> float:
    """Run ``command``; the CPU seconds of that child alone (os.times() would count the other
    threads' children too)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"module_flags: {' '.join(command[:3])}... failed: {process.stderr.read().decode()[-400:]}")
    process.stderr.close()
    return usage.ru_utime + usage.ru_stime


def build_variant(module: Module, variant: Variant, build_dir: Path, out: Path) -> tuple[Path, float]:
    """The module built as ``variant`` says, into ``out``; the CPU seconds of its compiles."""
    optimization = variant.optimization.get("hot" if module.hot else "cold")
    seconds = 0.0
    objects = {}
    for command in module.compile:
        target = command[command.index("-o") + 1]
        moved = str(out / (re.sub(r"\W", "_", target) + ".o"))
        objects[target] = moved
        command = changed(command, variant.compile, optimization)
        command[command.index("-o") + 1] = moved
        command = [part for part in command if part not in ("-MD",)]
        if "-MF" in command:
            at = command.index("-MF")
            del command[at : at + 2]
        if "-MQ" in command:
            at = command.index("-MQ")
            del command[at : at + 2]
        seconds += cpu_seconds(command, build_dir)
    link = [objects.get(part, part) for part in module.link]
    library = out / (module.name + ".so")
    link[link.index("-o") + 1] = str(library)
    subprocess.run(link[:1] + list(variant.link) + link[1:], cwd=build_dir, check=True, capture_output=True)
    return library, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=Path, help="a configured and built build dir (its generated C++ is used)")
    parser.add_argument("--nvidia", type=Path, help="NVIDIA's unpacked wheel, for the ratio of averages")
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1, help="modules compiled at once")
    parser.add_argument("--per-module", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    build_dir = args.build_dir.resolve()
    found = build_modules(build_dir)
    nvidia = None
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="module_flags_") as temporary:
        work = Path(temporary)
        if args.nvidia:
            (work / "nvidia").mkdir()
            sizes = stripped_sizes(package_modules(args.nvidia.resolve(), 13), work / "nvidia")
            nvidia = statistics.mean(sizes.values()) / 1024
        for name in args.variants:
            out = work / re.sub(r"\W", "_", name)
            out.mkdir()
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
                built = list(pool.map(lambda m: build_variant(m, VARIANTS[name], build_dir, out), found))
            (out / "stripped").mkdir()
            sizes = stripped_sizes({m.name: path for m, (path, _) in zip(found, built)}, out / "stripped")
            seconds = sum(s for _, s in built)
            results[name] = {"sizes": sizes, "compile seconds": seconds}
            average = statistics.mean(sizes.values()) / 1024
            ratio = f"{average / nvidia:6.3f}" if nvidia else "     -"
            print(
                f"{name:<36} total {sum(sizes.values()) / 1024:8.1f} KiB  average {average:6.1f} KiB  "
                f"/NVIDIA {ratio}  compile {seconds:6.1f} s",
                flush=True,
            )
    if args.per_module:
        print(f"\n{'module [KiB]':<44} {'class':>5} " + " ".join(f"{n[:12]:>12}" for n in results))
        for module in found:
            cells = [f"{results[n]['sizes'][module.name] / 1024:12.1f}" for n in results]
            print(f"{module.name:<44} {'hot' if module.hot else 'cold':>5} " + " ".join(cells))
    if args.json:
        args.json.write_text(json.dumps({"nvidia average [KiB]": nvidia, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
