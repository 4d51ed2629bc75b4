#!/usr/bin/env python3
"""Run the whole test suite: create both pinned venvs (tools/devenv.py), then pytest.

pytest runs in the cu13 venv; the build tests drive real builds in both venvs.
Exit status is pytest's, except that "no tests collected" (5) counts as failure.

Usage: python tools/run_tests.py [pytest arguments]
"""

from __future__ import annotations

import subprocess
import sys

import devenv

NO_TESTS_COLLECTED = 5


def main(argv: list[str]) -> int:
    pythons = {flavor: devenv.ensure(flavor) for flavor in devenv.MAJORS}
    command = [str(pythons["cu13"]), "-m", "pytest", *argv]
    print("+", " ".join(command), flush=True)
    status = subprocess.run(command, cwd=devenv.REPO_ROOT).returncode
    if status == NO_TESTS_COLLECTED:
        print("run_tests: pytest collected no tests: that is a failure here", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
