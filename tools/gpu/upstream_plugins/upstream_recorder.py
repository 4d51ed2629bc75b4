# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""upstream_suite's recorder: every test's outcome as a JSON line, written as it happens.

tools/gpu/upstream_suite.py loads it in each pytest it runs (``-p upstream_recorder``, this
directory on PYTHONPATH); it writes to UPSTREAM_SUITE_RECORDS.
"""

import json
import os

_PATH = os.environ["UPSTREAM_SUITE_RECORDS"]
_MARK = os.environ["UPSTREAM_SUITE_PLACEHOLDER_MARK"]
_phases = {}


def _write(record):
    with open(_PATH, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def pytest_collectreport(report):
    if report.failed:
        _write(
            {
                "nodeid": report.nodeid or "<collection>",
                "outcome": "errors",
                "when": "collect",
                "placeholder": _MARK in str(report.longrepr),
            }
        )


def pytest_collection_finish(session):
    _write({"collected": [item.nodeid for item in session.items]})


def pytest_runtest_logstart(nodeid, location):
    _write({"started": nodeid})  # after a crash, the last of these names the test that crashed


def _why(report):
    """One line on a failure, error or skip: the exception's message, or the skip's reason."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message[:400]
    if isinstance(report.longrepr, tuple):  # a skip: (file, line, reason)
        return str(report.longrepr[-1])[:400]
    return str(report.longrepr).strip().splitlines()[-1][:400] if report.longrepr else ""


def pytest_runtest_logreport(report):
    xfail = hasattr(report, "wasxfail")
    phase = _phases.setdefault(report.nodeid, {"outcome": None, "placeholder": False, "why": ""})
    phase["placeholder"] = phase["placeholder"] or (report.failed and _MARK in str(report.longrepr))
    if (report.failed or report.skipped) and not phase["why"]:
        phase["why"] = _why(report)
    if report.when == "setup":
        if report.failed:
            phase["outcome"] = "errors"
        elif report.skipped:
            phase["outcome"] = "xfailed" if xfail else "skipped"
    elif report.when == "call":
        if report.failed:
            phase["outcome"] = "failed"
        elif report.skipped:
            phase["outcome"] = "xfailed" if xfail else "skipped"
        else:
            phase["outcome"] = "passed"  # an unexpected pass (xpass) counts as a pass
    elif report.when == "teardown":
        if report.failed and phase["outcome"] in (None, "passed"):
            phase["outcome"] = "errors"
        _write(
            {
                "nodeid": report.nodeid,
                "outcome": phase["outcome"] or "errors",
                "placeholder": phase["placeholder"],
                "why": phase["why"],
            }
        )
