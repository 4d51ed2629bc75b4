#!/usr/bin/env python3
"""Run the whole test suite: create the pinned venv of every major (tools/devenv.py), then pytest.

pytest runs in the newest major's venv; the build tests drive real builds in every venv,
and tests/api and tests/gpu run in a worker of each major. It prints the 15 slowest steps.
Exit status is pytest's, except that "no tests collected" (5) counts as failure.

Usage: python tools/run_tests.py [pytest arguments]     (e.g. -m "not slow", -k round_trip -x)
"""

from __future__ import annotations

import subprocess
import sys

import devenv

NO_TESTS_COLLECTED = 5


def main(argv: list[str]) -> int:
    pythons = [devenv.ensure(f"cu{major}") for major in devenv.facts.supported_majors()]
    command = [str(pythons[-1]), "-m", "pytest", "--durations=15", *argv]
    print("+", " ".join(command), flush=True)
    status = subprocess.run(command, cwd=devenv.REPO_ROOT).returncode
    if status == NO_TESTS_COLLECTED:
        print("run_tests: pytest collected no tests: that is a failure here", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
