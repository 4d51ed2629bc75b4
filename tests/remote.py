"""Run tests/api and tests/gpu items in one worker process per CUDA major, as ordinary items here.

A cuda.core built for CUDA 12 and one built for CUDA 13 cannot share a process (each needs
its own cuda-bindings), so this pytest session, the controller, collects those items once
per major (the ``cuda_major`` parameter of conftest.py) and hands each to the worker of
its major: that major's venv python, running pytest over the same files with the
session's build of that major on PYTHONPATH (tests/remote_worker.py). The worker runs
exactly the items it is sent, in the order sent, and returns pytest's own reports, which
are logged here as this item's: pass, fail with its traceback, skip with its reason,
``-x``, ``-k`` and ``--durations`` all work as for a local item.

A worker that dies (a segfault in a test) fails the item it was running, with the end of
its stderr; the next item of that major starts a new worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from builds import REPO_ROOT, SessionBuilds, is_package_test

WORKER = Path(__file__).resolve().parent / "remote_worker.py"


class WorkerDied(Exception):
    """The worker process ended while it owed an answer."""


class Worker:
    """One worker process: that major's venv python, running tests/remote_worker.py."""

    def __init__(self, builds: SessionBuilds, major: int, basetemp: Path) -> None:
        venv = builds.venvs[major]
        site = builds.installed(major)
        to_worker_read, self._to_worker = os.pipe()
        self._from_worker, from_worker_write = os.pipe()
        self.stderr_path = basetemp.parent / f"worker-cu{major}.stderr"
        env = venv.env(PYTHONPATH=str(site), CUDA_CORE_TEST_WORKER=str(major),
                       CUDA_CORE_WORKER_FDS=f"{to_worker_read},{from_worker_write}")
        with open(self.stderr_path, "w") as stderr:
            self.process = subprocess.Popen(
                [str(venv.python), str(WORKER), "--basetemp", str(basetemp), "--rootdir", str(REPO_ROOT),
                 *[str(REPO_ROOT / "tests" / d) for d in ("api", "gpu")]],
                cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                pass_fds=(to_worker_read, from_worker_write))
        os.close(to_worker_read)
        os.close(from_worker_write)
        self._writer = os.fdopen(self._to_worker, "w", buffering=1)
        self._reader = os.fdopen(self._from_worker, "r")
        hello = self.receive()
        self.collected: set[str] = set(hello["collected"])
        self.collect_errors: dict[str, str] = hello["errors"]

    def receive(self) -> dict[str, Any]:
        line = self._reader.readline()
        if not line:
            raise WorkerDied(self.stderr_tail())
        return json.loads(line)

    def run(self, nodeid: str, next_nodeid: str | None) -> list[dict[str, Any]]:
        """Run one item in the worker; its serialized reports (setup, call, teardown)."""
        self._writer.write(json.dumps({"nodeid": nodeid, "next": next_nodeid}) + "\n")
        return self.receive()["reports"]

    def stderr_tail(self, limit: int = 6000) -> str:
        self.process.wait(timeout=30)
        return f"worker exited with {self.process.returncode}; its stderr ends:\n" + \
            self.stderr_path.read_text(errors="replace")[-limit:]

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._writer.write("null\n")
                self._writer.flush()
                self.process.wait(timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
        for stream in (self._writer, self._reader):
            try:
                stream.close()
            except OSError:
                pass


class Dispatcher:
    """The controller's plugin: package-test items go to the worker of their major."""

    def __init__(self, config: pytest.Config, builds: Callable[[], SessionBuilds]) -> None:
        self.config = config
        self.builds = builds
        self.workers: dict[int, Worker] = {}
        self.next_of: dict[str, str | None] = {}

    @staticmethod
    def major_of(item: pytest.Item) -> int | None:
        callspec = getattr(item, "callspec", None)
        if callspec is None or not is_package_test(Path(item.path)):
            return None
        return callspec.params.get("cuda_major")

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Keep local items first and in order, then each major's package tests together, so a
        worker's module and session fixtures last across its items."""
        local = [item for item in items if self.major_of(item) is None]
        remote = sorted((item for item in items if self.major_of(item) is not None), key=self.major_of)
        items[:] = local + remote

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """For each remote item, the next item of the same worker (its fixtures' scope ends there)."""
        last: dict[int, pytest.Item] = {}
        for item in session.items:
            major = self.major_of(item)
            if major is None:
                continue
            if major in last:
                self.next_of[last[major].nodeid] = item.nodeid
            last[major] = item
            self.next_of[item.nodeid] = None

    def worker(self, major: int) -> Worker:
        if major not in self.workers:
            basetemp = pytest.TempPathFactory.from_config(self.config, _ispytest=True).getbasetemp()
            self.workers[major] = Worker(self.builds(), major, basetemp / f"worker-cu{major}")
        return self.workers[major]

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
        major = self.major_of(item)
        if major is None:
            return None
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        for report in self.reports(item, major):
            item.ihook.pytest_runtest_logreport(report=report)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        return True

    def reports(self, item: pytest.Item, major: int) -> list[pytest.TestReport]:
        """The worker's reports for ``item``, or one failed report saying why there are none."""
        try:
            worker = self.worker(major)
            if item.nodeid not in worker.collected:
                return [self.failure(item, "the worker of CUDA {major} did not collect this test:\n".format(major=major)
                                     + "\n".join(worker.collect_errors.values()))]
            data = worker.run(item.nodeid, self.next_of.get(item.nodeid))
        except WorkerDied as died:
            self.workers.pop(major, None)
            return [self.failure(item, f"the worker of CUDA {major} died running this test: {died}")]
        hook = self.config.hook
        reports = [hook.pytest_report_from_serializable(config=self.config, data=report) for report in data]
        for report in reports:
            if isinstance(report.longrepr, list):  # a skip's (path, line, reason), made a list by JSON
                report.longrepr = tuple(report.longrepr)
        return reports

    @staticmethod
    def failure(item: pytest.Item, text: str) -> pytest.TestReport:
        return pytest.TestReport(item.nodeid, item.location, {}, "failed", text, "call", [], 0.0)

    def pytest_sessionfinish(self) -> None:
        for worker in self.workers.values():
            worker.close()
        self.workers.clear()


if __name__ == "__main__":
    sys.exit("tests/remote.py is a pytest plugin of tests/conftest.py, not a script")
