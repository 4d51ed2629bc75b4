# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""upstream_suite's placeholders for post-release names, installed before collection.

tools/gpu/upstream_suite.py loads it in each pytest it runs (``-p upstream_placeholders``, this
directory on PYTHONPATH) and names the MODULE:NAME entries in UPSTREAM_SUITE_POST_RELEASE_NAMES.
"""

import importlib
import json
import os

_PATH = os.environ["UPSTREAM_SUITE_RECORDS"]
_MARK = os.environ["UPSTREAM_SUITE_PLACEHOLDER_MARK"]


class PostReleaseName(NotImplementedError):
    """A test used a name that this cuda.core release does not have."""


def _placeholder(module_name, name):
    def fail(*args, **kwargs):
        raise PostReleaseName(f"{_MARK}: {module_name}.{name} does not exist in this cuda.core")

    return type(
        name,
        (),
        {
            "__init__": fail,
            "__getattr__": lambda self, attr: fail(),
            "_init": classmethod(lambda cls, *a, **k: fail()),
            "__module__": module_name,
            "__doc__": f"{_MARK} for {module_name}.{name}",
        },
    )


def _install(module, names):
    previous = module.__dict__.get("__getattr__")
    placeholders = {name: _placeholder(module.__name__, name) for name in names}

    def __getattr__(attr):
        if attr in placeholders:
            with open(_PATH, "a", encoding="utf-8") as out:
                out.write(json.dumps({"placeholder_used": f"{module.__name__}.{attr}"}) + "\n")
            return placeholders[attr]
        if previous is not None:
            return previous(attr)
        raise AttributeError(f"module {module.__name__!r} has no attribute {attr!r}")

    module.__getattr__ = __getattr__


def pytest_configure(config):
    wanted = {}
    for entry in json.loads(os.environ.get("UPSTREAM_SUITE_POST_RELEASE_NAMES", "[]")):
        module_name, name = entry.split(":")
        wanted.setdefault(module_name, []).append(name)
    for module_name, names in wanted.items():
        try:
            module = importlib.import_module(module_name)
        except Exception:
            continue  # the test file will report the import error itself
        missing = [name for name in names if name not in module.__dict__]
        if missing:
            _install(module, missing)
