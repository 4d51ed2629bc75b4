"""The worker of tests/remote.py: a pytest session of one CUDA major that runs the items it is sent.

Started by the controller with that major's venv python, the session's build of that major
on PYTHONPATH and CUDA_CORE_TEST_WORKER=N. It collects tests/api and tests/gpu as the
controller does (conftest.py parametrizes them with this major alone, so node ids match),
says what it collected, then runs one item per request, in the order sent, and answers
with pytest's serialized reports. Requests and answers are JSON lines on the two pipes
named by CUDA_CORE_WORKER_FDS; stdout and stderr stay free for pytest and the tests.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

import pytest


class WorkerPlugin:
    """Replaces the run loop: run what the controller asks for, report back."""

    def __init__(self, reader: TextIO, writer: TextIO) -> None:
        self.reader = reader
        self.writer = writer
        self.reports: list[pytest.TestReport] = []
        self.collect_errors: dict[str, str] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message) + "\n")
        self.writer.flush()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors[report.nodeid] = str(report.longrepr)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.reports.append(report)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        items = {item.nodeid: item for item in session.items}
        self.send({"collected": sorted(items), "errors": self.collect_errors})
        hook = session.config.hook
        for line in self.reader:
            request = json.loads(line)
            if request is None:
                break
            item = items[request["nodeid"]]
            self.reports = []
            hook.pytest_runtest_protocol(item=item, nextitem=items.get(request["next"] or ""))
            self.send({"reports": [hook.pytest_report_to_serializable(config=session.config, report=report)
                                   for report in self.reports]})
        return True


def main(argv: list[str]) -> int:
    read_fd, write_fd = (int(fd) for fd in os.environ["CUDA_CORE_WORKER_FDS"].split(","))
    with os.fdopen(read_fd, "r") as reader, os.fdopen(write_fd, "w") as writer:
        return int(pytest.main(["-q", "-p", "no:cacheprovider", *argv], plugins=[WorkerPlugin(reader, writer)]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
