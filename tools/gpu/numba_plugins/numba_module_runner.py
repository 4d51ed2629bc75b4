# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Run one unittest module of numba-cuda's tests and write every outcome as a JSON line.

tools/gpu/numba_suite.py runs this file with each side's Python:
``python numba_module_runner.py MODULE RECORDS``. Tests are loaded as ``python -m
numba.runtests MODULE`` loads them (numba's own TestLoader, which honours ``load_tests``),
or by unittest's loader where numba's test machinery is not importable. Each test writes a
``started`` line before it runs (after a crash the last one names the test that crashed) and
an outcome line after: passed, failed, errors, skipped, xfailed, or xpassed (an unexpected
success, which unittest counts as not successful). A module that does not import is one
``errors`` line for the loader's placeholder test; one that skips itself as it imports
(unittest.SkipTest, as some do in the simulator, or pytest.importorskip) one ``skipped``
line. Standard library only, besides numba.
"""

from __future__ import annotations

import json
import sys
import traceback
import unittest

MODULE, RECORDS = sys.argv[1], sys.argv[2]


def write(record: dict) -> None:
    """One JSON line, flushed at once: a crash loses nothing written before it."""
    with open(RECORDS, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def last_line(text: str) -> str:
    """The last non-empty line of a traceback or reason, cut to 400 characters."""
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    return lines[-1][:400] if lines else ""


def exception_line(err) -> str:
    """The first line of an exception as Python prints it ('AssertionError: 2 != 1'): the line
    that says what failed, where an assertion's diff follows on the lines after it."""
    lines = "".join(traceback.format_exception_only(err[0], err[1])).strip().splitlines()
    return lines[0][:400] if lines else err[0].__name__


class RecordingResult(unittest.TextTestResult):
    """unittest's text result, writing each test's outcome to RECORDS as it happens."""

    def startTest(self, test: unittest.TestCase) -> None:  # noqa: N802 - unittest's name
        write({"started": test.id()})
        super().startTest(test)

    def _record(self, test, outcome: str, why: str = "") -> None:
        write({"test": test.id(), "outcome": outcome, "why": why})

    def addSuccess(self, test) -> None:  # noqa: N802
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err) -> None:  # noqa: N802
        super().addFailure(test, err)
        self._record(test, "failed", exception_line(err))

    def addError(self, test, err) -> None:  # noqa: N802
        super().addError(test, err)
        self._record(test, "errors", exception_line(err))

    def addSkip(self, test, reason: str) -> None:  # noqa: N802
        super().addSkip(test, reason)
        self._record(test, "skipped", last_line(reason))

    def addExpectedFailure(self, test, err) -> None:  # noqa: N802
        super().addExpectedFailure(test, err)
        self._record(test, "xfailed")

    def addUnexpectedSuccess(self, test) -> None:  # noqa: N802
        super().addUnexpectedSuccess(test)
        self._record(test, "xpassed")

    def addSubTest(self, test, subtest, err) -> None:  # noqa: N802
        super().addSubTest(test, subtest, err)
        if err is not None:  # a failing subtest fails its test
            failed = issubclass(err[0], test.failureException)
            self._record(test, "failed" if failed else "errors", exception_line(err))


def load(module: str) -> unittest.TestSuite:
    """The module's tests, loaded by numba's TestLoader when numba provides one."""
    try:
        from numba.testing.main import TestLoader
    except ImportError:
        return unittest.defaultTestLoader.loadTestsFromName(module)
    return TestLoader().loadTestsFromName(module)


def module_skips() -> tuple[type[BaseException], ...]:
    """What a module raises as it imports to skip itself: unittest's SkipTest, and pytest's skip
    (``pytest.importorskip``), a BaseException, where the module imported pytest to raise it."""
    pytest = sys.modules.get("pytest")
    return (unittest.SkipTest,) if pytest is None else (unittest.SkipTest, pytest.skip.Exception)


def main() -> int:
    write({"module": MODULE, "python": sys.version.split()[0]})
    try:
        suite = load(MODULE)
    except module_skips() as skip:  # raised at import: the whole module is skipped
        write({"test": f"{MODULE}::<module>", "outcome": "skipped", "why": last_line(str(skip))})
        return 0
    except BaseException:  # noqa: BLE001 - a module that cannot load (SystemExit too) is reported, not raised
        write({"test": f"{MODULE}::<load>", "outcome": "errors", "why": last_line(traceback.format_exc())})
        traceback.print_exc()
        return 1
    write({"collected": suite.countTestCases()})
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=RecordingResult)
    result = runner.run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
