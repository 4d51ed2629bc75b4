# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The GPU harness (tools/gpu, the package ``gpu``) without a GPU: every room imports here and
only from the rooms below it; run() keeps, merges, logs and stops real processes; the plan names
what a minor's build needs and what is missing; the command line takes every gpu_check command
of docs/gpu.md as written; the numba step knows which cuda-bindings numba-cuda supports."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import gpu
import pytest
from cuda_core_build import facts
from gpu import gpu_check, numba_suite, plan, process, session, upstream_suite
from gpu.steps import numba

REPO_ROOT = Path(__file__).resolve().parents[2]
HARNESS = REPO_ROOT / "tools" / "gpu"
# The floors, lowest first: a room imports only rooms on floors below its own. The suite runners
# and the command line are the top: nothing of the harness imports them.
FLOORS = (
    ("process",),
    ("plan",),
    ("session",),
    ("machine",),
    ("steps.ours", "steps.bench", "steps.upstream", "steps.numba"),
    ("steps.sizes",),
    ("steps",),
    ("build", "dual"),
    ("check",),
    ("gpu_check", "numba_suite", "upstream_suite"),
)


def rooms() -> list[str]:
    """Every module of the harness, as ``gpu.X``."""
    return sorted(info.name for info in pkgutil.walk_packages(gpu.__path__, "gpu."))


def floor(room: str) -> int:
    return next(index for index, names in enumerate(FLOORS) if room.removeprefix("gpu.") in names)


def harness_imports(room: str) -> set[str]:
    """The harness modules ``room`` imports (``from gpu.X import``, ``from gpu.steps import ours``)."""
    path = HARNESS / Path(*room.split(".")[1:])
    source = (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text()
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gpu"):
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found |= {name for name in names if name in rooms()} or {node.module}
    return found - {"gpu"}


def test_every_room_imports_without_a_gpu_and_only_from_below() -> None:
    names = rooms()
    assert {"gpu.process", "gpu.plan", "gpu.machine", "gpu.steps.numba", "gpu.gpu_check"} <= set(names)
    for name in names:
        importlib.import_module(name)
        assert floor(name) >= 0
        upward = {other for other in harness_imports(name) if floor(other) >= floor(name)}
        assert not upward, f"{name} imports {upward}, which are not below it"


def test_only_run_starts_processes() -> None:
    starters = re.compile(r"\bsubprocess\.|\bos\.(system|popen|exec|spawn)")
    users = [path.name for path in HARNESS.rglob("*.py") if starters.search(path.read_text())]
    assert users == ["process.py"]


# ---------------------------------------------------------------------------------------------
# run()


def test_run_keeps_merges_and_logs_output(tmp_path: Path) -> None:
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    kept = process.run([sys.executable, "-c", code], output="capture")
    assert (kept.returncode, kept.stdout, kept.stderr, kept.timed_out) == (3, "out\n", "err\n", False)
    merged = process.run([sys.executable, "-c", code], output="merge")
    assert sorted(merged.stdout.split()) == ["err", "out"] and merged.stderr == ""
    log = tmp_path / "log.txt"
    logged = process.run([sys.executable, "-c", code], output=log, cwd=tmp_path)
    assert logged.returncode == 3 and logged.stdout == "" and sorted(log.read_text().split()) == ["err", "out"]
    fed = process.run(["cat"], input=b"\x00bytes", output="capture", text=False)
    assert fed.stdout == b"\x00bytes"


def test_run_names_the_signal_that_ended_a_process() -> None:
    done = process.run([sys.executable, "-c", "import os; os.abort()"], output="capture")
    assert done.returncode == -6 and process.signal_name(done.returncode) == "SIGABRT"


def test_run_stops_a_process_past_its_timeout_with_its_stacks(tmp_path: Path) -> None:
    # SIGABRT first: faulthandler prints where the process was stuck.
    done = process.run(
        [sys.executable, "-X", "faulthandler", "-c", "import time; time.sleep(60)"], output="merge", timeout=2
    )
    assert done.timed_out and done.returncode == -6 and done.seconds < 20
    assert "Fatal Python error: Aborted" in done.stdout and 'File "<string>", line 1' in done.stdout


def test_run_raises_for_a_program_that_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        process.run([tmp_path / "no-such-program"])


def test_a_session_counts_failures_and_says_what_did_not_start(tmp_path: Path, capsys) -> None:
    args = gpu_check.parse_args(["13.0"])
    run = session.Session(args, tmp_path, tmp_path)
    assert run.run([sys.executable, "-c", "pass"]) == 0 and not run.failed
    assert run.run([sys.executable, "-c", "raise SystemExit(2)"], counts=False) == 2 and not run.failed
    assert run.run([tmp_path / "missing"]) == 127 and run.failed
    assert f"cannot run {tmp_path / 'missing'}" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The plan.


def test_the_requirements_of_each_carried_folder() -> None:
    tools = facts.tool_pins("newest")
    assert plan.requirements("tools") == [f"{name}=={tools[name]}" for name in ("meson-python", "pyproject-metadata")]
    assert plan.requirements(plan.LENT_MACHINE_CUDA) == [f"cuda-bindings=={facts.cuda_pins('13.0')['cuda-bindings']}"]
    pins = facts.cuda_pins("12.9")
    assert plan.requirements("12.9") == [
        f"{name}=={pins[name]}"
        for name in ("cuda-bindings", "nvidia-cuda-runtime-cu12", "nvidia-cuda-profiler-api-cu12")
    ]
    assert "nvidia-cuda-nvrtc==" in " ".join(plan.requirements("13.5"))


def wheel(folder: Path, name: str, version: str, tag: str = "cp312-cp312-manylinux_2_28_x86_64") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name.replace('-', '_')}-{version}-{tag}.whl"
    path.write_bytes(b"")
    return path


def test_a_cuda12_plan_names_what_is_missing_then_takes_what_is_carried(tmp_path: Path) -> None:
    target = plan.Target("12.9")
    pins = facts.cuda_pins("12.9")
    with pytest.raises(process.Fatal) as missing:
        plan.plan_build(target, tmp_path, "cp312")
    message = str(missing.value)
    assert f"cuda-bindings=={pins['cuda-bindings']}" in message and "cu12-nvrtc/include/nvrtc.h" in message
    assert "gpu_check.py --requirements 12.9" in message
    folder = tmp_path / "cuda-12.9"
    carried = [wheel(folder, name, pins[name]) for name in ("cuda-bindings", *plan.header_packages("12.9"))]
    wheel(folder, "cuda-bindings", pins["cuda-bindings"], "cp311-cp311-manylinux_2_28_x86_64")  # another Python's
    (tmp_path / "cu12-nvrtc" / "include").mkdir(parents=True)
    (tmp_path / "cu12-nvrtc" / "include" / "nvrtc.h").write_text("")
    built = plan.plan_build(target, tmp_path, "cp312")
    assert sorted(built.wheels) == sorted(carried)
    assert built.cuda_path.split(":") == [
        str(target.site / "nvidia" / "cuda_runtime"),
        str(target.site / "nvidia" / "cuda_profiler_api"),
        str(tmp_path / "cu12-nvrtc"),
    ]


def test_preflight_names_every_problem_at_once(tmp_path: Path) -> None:
    with pytest.raises(process.Fatal) as problems:
        plan.preflight(tmp_path, [plan.Target("12.8"), plan.Target("12.9")], "cp312")
    text = str(problems.value)
    assert "CUDA 12.8:" in text and "CUDA 12.9:" in text and "nvrtc12.tar.xz" in text


def test_the_toolkit_version_is_read_from_cuda_h(tmp_path: Path) -> None:
    assert plan.toolkit_version(tmp_path) is None
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda.h").write_text("#pragma once\n#define CUDA_VERSION 13020\n")
    assert plan.toolkit_version(tmp_path) == (13, 2)


# ---------------------------------------------------------------------------------------------
# The command line, as docs/gpu.md writes it.


def documented(tool: str) -> list[list[str]]:
    """The arguments of each ``python3 tools/gpu/TOOL`` command in docs/gpu.md's sh blocks, continued
    lines joined, shell arithmetic and the loop's $minor given values."""
    text = (REPO_ROOT / "docs" / "gpu.md").read_text()
    blocks = "\n".join(re.findall(r"```sh\n(.*?)```", text, re.DOTALL)).replace("\\\n", " ")
    blocks = re.sub(r"\$\(\( \$\(date \+%s\) \+ \d+ \)\)", "2000000000", blocks).replace("$minor", "13.0")
    commands = []
    for line in blocks.splitlines():
        found = re.search(rf"(?<![\w/])python3 tools/gpu/{tool} ([^)#]*)", line)
        if found:
            commands.append(shlex.split(found.group(1)))
    return commands


def test_every_gpu_check_command_of_the_docs_parses() -> None:
    commands = documented("gpu_check.py")
    assert len(commands) >= 5 and ["--requirements", "tools"] in commands
    for arguments in commands:
        args = gpu_check.parse_args(arguments)
        assert args.minors and args.steps
    numba_call = next(command for command in commands if "numba" in command)
    assert gpu_check.parse_args(numba_call).steps == ["numba"]


def test_every_suite_command_of_the_docs_parses() -> None:
    for arguments in documented("numba_suite.py"):
        assert numba_suite.parse_args(arguments).jobs == 2
    assert (REPO_ROOT / "tools" / "gpu" / "upstream_suite.py").is_file() and upstream_suite.parse_args([])


@pytest.mark.parametrize("arguments", [["--requirements", "13.5"], ["--help"]], ids=["requirements", "help"])
def test_gpu_check_runs_by_path_from_anywhere(tmp_path: Path, arguments: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(HARNESS / "gpu_check.py"), *arguments], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "cuda-bindings==13.5" in done.stdout if arguments[0] == "--requirements" else "--only STEP" in done.stdout


def test_the_steps_chosen() -> None:
    assert gpu_check.parse_args([]).steps == [
        "package",
        "examples",
        "launch-bench",
        "view-bench",
        "import-bench",
        "upstream",
    ]
    assert gpu_check.parse_args(["--no-bench", "--upstream-examples"]).steps == [
        "package",
        "examples",
        "upstream-examples",
        "upstream",
    ]
    assert gpu_check.parse_args(["--only", "numba", "sizes"]).steps == ["sizes", "numba"]
    assert gpu_check.parse_args(["12.9", "12.9"]).minors == ["12.9"]


def test_an_unknown_minor_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit):
        gpu_check.parse_args(["11.8"])
    assert "not a CUDA minor of requirements/matrix.ini: 11.8" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The numba step: which cuda-bindings numba-cuda supports, from its own metadata.


def fake_numba_cuda(site: Path, requires: list[str]) -> None:
    """An installed numba-cuda's metadata: its Requires-Dist lines."""
    info = site / "numba_cuda-0.30.4.dist-info"
    info.mkdir(parents=True)
    lines = ["Metadata-Version: 2.1", "Name: numba-cuda", "Version: 0.30.4", *(f"Requires-Dist: {r}" for r in requires)]
    (info / "METADATA").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("minor", "why"),
    [("12.8", "numba-cuda 0.30.4 requires cuda-bindings<14.0.0,>=12.9.1"), ("12.9", ""), ("13.0", "")],
)
def test_the_numba_step_runs_where_numba_cuda_supports_the_bindings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minor: str, why: str
) -> None:
    fake_numba_cuda(
        tmp_path,
        [
            "cuda-bindings<14.0.0,>=12.9.1",
            'cuda-bindings==12.*; extra == "cu12"',
            'cuda-bindings==13.*; extra == "cu13"',
            "numba>=0.60.0",
        ],
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    run = session.Session(gpu_check.parse_args([minor, "--python", sys.executable]), tmp_path, tmp_path)
    assert numba.numba_unsupported(run, plan.Target(minor)) == why


def test_the_numba_step_runs_where_numba_cuda_says_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # no numba-cuda at all: the suite says so itself
    run = session.Session(gpu_check.parse_args(["12.8", "--python", sys.executable]), tmp_path, tmp_path)
    assert numba.numba_unsupported(run, plan.Target("12.8")) == ""


def test_the_harness_map_names_every_room() -> None:
    doc = textwrap.dedent(gpu.__doc__ or "")
    for name in rooms():
        room = name.removeprefix("gpu.")
        assert re.search(rf"^\s*{re.escape(room.split('.')[0])}/?\s", doc, re.MULTILINE) or room in doc, room


@pytest.mark.parametrize(
    ("top", "outcome", "status"),
    [
        ("import pytest\npytest.importorskip('no_module_of_this_name')\n", "skipped", 0),
        ("raise SystemExit(3)\n", "errors", 1),
    ],
)
def test_the_numba_runner_reports_a_module_that_skips_or_exits_as_it_imports(
    tmp_path: Path, top: str, outcome: str, status: int
) -> None:
    """numba-cuda's modules run one per process through numba_plugins/numba_module_runner.py. A module
    that skips itself with pytest.importorskip raises pytest's skip, a BaseException, and one may
    exit as it imports: each is one record (a skip, a load error), never a process that ends with no
    record at all, which the table showed as "ok"."""
    (tmp_path / "module_under_test.py").write_text(top)
    records = tmp_path / "records.jsonl"
    runner = HARNESS / "numba_plugins" / "numba_module_runner.py"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, runner, "module_under_test", records], env=env, capture_output=True, text=True
    )
    lines = [line for line in records.read_text().splitlines() if '"outcome"' in line]
    assert done.returncode == status and len(lines) == 1, done.stderr
    assert f'"outcome": "{outcome}"' in lines[0]
