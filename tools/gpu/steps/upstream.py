# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""NVIDIA's own tests and examples, ours beside NVIDIA's cuda.core with the same cuda-bindings:
the test files through tools/gpu/upstream_suite.py (from .upstream/), the examples by exit status.
"""

from __future__ import annotations

import time
from pathlib import Path

from gpu.plan import REPO_ROOT, SCRATCH, Target
from gpu.process import environment, run, say
from gpu.session import Session

UPSTREAM_SUITE = Path(__file__).resolve().parents[1] / "upstream_suite.py"
UPSTREAM_ROOT = REPO_ROOT / ".upstream"

DEFAULT_UPSTREAM_FILES = (
    "tests/test_device.py",
    "tests/test_context.py",
    "tests/test_stream.py",
    "tests/test_event.py",
    "tests/test_launcher.py",
    "tests/test_module.py",
    "tests/test_program.py",
    "tests/test_host.py",
    "tests/test_cuda_utils.py",
    "tests/memory/test_managed_ops.py",
    "tests/test_memory.py",
    "tests/test_linker.py",
    "tests/test_typing_imports.py",
    "tests/test_utils.py",
    "tests/test_utils_dlpack.py",
    "tests/test_strided_layout.py",
    "tests/test_program_cache.py",
    "tests/test_program_cache_multiprocess.py",
    "tests/test_program_compile_cache.py",
    "tests/test_object_protocols.py",
)


# Names our cuda.core gets in a later part of the port: placeholders on our side of NVIDIA's suite.
LATER_PART_NAMES = ("cuda.core.graph:GraphDefinition",)


def run_example(python: str, example: Path, env: dict[str, str], timeout: float, log: Path) -> int:
    """Run one example as a user would (from /tmp), its output into ``log``; its exit status, 124 past the
    timeout, 128+N when killed by signal N."""
    done = run([python, example], cwd=SCRATCH, env=env, output=log, timeout=timeout)
    if done.timed_out:
        return 124
    return done.returncode if done.returncode >= 0 else 128 - done.returncode


def upstream_examples(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """NVIDIA's examples, each on both sides, by exit status (logs in OUT/examples)."""
    examples = UPSTREAM_ROOT / "cuda_core" / "examples"
    if not examples.is_dir():
        return
    logs = session.out / "examples"
    logs.mkdir(parents=True, exist_ok=True)
    timeout = session.args.example_timeout
    say(f"== NVIDIA's examples with CUDA {target.minor}: exit status, ours beside NVIDIA's (124: over {timeout:g} s)")
    for example in sorted(examples.glob("*.py")):
        codes = {
            side: run_example(
                session.python,
                example,
                environment(side_paths, target.ld_paths),
                timeout,
                logs / f"{example.stem}-{side}-{target.label}.log",
            )
            for side, side_paths in paths.items()
        }
        say(f"  {example.stem:<40} ours {codes['ours']:3d}   nvidia {codes['nvidia']:3d}")


def upstream_suite(session: Session, target: Target, paths: dict[str, tuple[Path, ...]]) -> None:
    """NVIDIA's test files, ours beside NVIDIA's cuda.core, both with this minor's cuda-bindings (so a
    difference is cuda.core's); never fails the run."""
    if not (UPSTREAM_ROOT / "cuda_core" / "tests").is_dir():
        say("(no .upstream/: NVIDIA's tests not run)")
        return
    args = session.args
    command: list[object] = [
        session.python,
        UPSTREAM_SUITE,
        "--root",
        UPSTREAM_ROOT,
        "--files",
        *args.upstream_files,
        "--ours-python",
        session.python,
        *[arg for path in paths["ours"] for arg in ("--ours-path", path)],
        "--nvidia-python",
        session.python,
        *[arg for path in paths["nvidia"] for arg in ("--nvidia-path", path)],
        *[arg for name in LATER_PART_NAMES for arg in ("--later-part-name", name)],
        "--jobs",
        args.upstream_jobs,
        "--timeout",
        f"{args.upstream_timeout:g}",
        "--repeat",
        args.upstream_repeat,
        "--nvidia-repeat",
        args.upstream_nvidia_repeat,
        *[arg for plugin in args.upstream_plugin for arg in ("--plugin", plugin)],
    ]
    if args.upstream_end is not None:
        command += ["--deadline", f"{args.upstream_end - time.time():.0f}"]
    command += ["--json", session.out / f"upstream-{target.label}.json"]
    session.run(command, env=environment(ld_paths=target.ld_paths), counts=False)
