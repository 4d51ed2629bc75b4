# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""A CUDA 12 user is never steered to CUDA 13: in a venv holding cuda-bindings 12 and no headers
(CUDA_PATH unset; this machine may have a CUDA 13 toolkit at /usr/local/cuda), the probe's advice and
Meson's refusal name the CUDA 12 header wheels of the bindings' minor, and the command they give,
run as written, makes the next probe and `meson setup` succeed, for CUDA 12."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import devenv
import pytest
from builds import PROBE, SessionBuilds, Uv, Venv, meson_setup, run
from cuda_core_build import facts

ADVICE = re.compile(r"pip install ((?:\"[^\"]+\" ?)+)")


@pytest.mark.network
def test_the_advice_in_a_cuda_12_venv_works_as_written(builds: SessionBuilds, uv: Uv, tmp_path: Path) -> None:
    cell = devenv.default_cell(12)
    venv = tmp_path / "cu12-user"
    run([uv.path, "venv", "--quiet", "--seed", "--python", devenv.find_python(cell.python), venv], uv.env(), tmp_path)
    user = Venv(12, venv)
    bindings = facts.cuda_pins(cell.cuda)["cuda-bindings"]
    uv.install(user, *facts.requirements(facts.tool_pins()), f"cuda-bindings=={bindings}")
    refused = run([user.python, PROBE], user.env(), tmp_path, check=False)
    advice = ADVICE.search(refused.stderr)
    assert refused.returncode == 1 and advice, refused.stderr
    wanted = [f"{name}=={cell.cuda}.*" for name in facts.header_wheels(12, cell.cuda)]
    assert shlex.split(advice.group(1)) == wanted and "cu13" not in refused.stderr and "13." not in advice.group(1)
    setup = meson_setup(user, builds.checkout, tmp_path / "build", check=False)
    assert setup.returncode != 0 and advice.group(0) in setup.stdout + setup.stderr
    run([user.python, "-m", "pip", "install", "-q", *shlex.split(advice.group(1))], user.env(), tmp_path)
    found = json.loads(run([user.python, PROBE], user.env(), tmp_path).stdout)
    assert (found["major"], found["bindings_version"]) == (12, bindings)
    assert "CUDA 12.9" in meson_setup(user, builds.checkout, tmp_path / "build").stdout
