# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What the introspection tools answer about one module, in a fresh interpreter: run by
test_introspection.py as ``python introspection_probe.py MODULE NAME...``; prints one JSON object.

A fresh interpreter, because lazily imported names change a module's state at first use: the
answers before any use (``dir`` first, then ``hasattr``) are the ones a user sees first. An
introspection call that raises is reported as its error rather than ending the probe, so that
the test names every tool that fails.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pydoc
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

_MISSING = object()


def _outcome(call: Callable[[], Any]) -> dict[str, Any]:
    """{"value": call()} or {"error": "Type: message"} where it raises."""
    try:
        return {"value": call()}
    except Exception as err:
        return {"error": f"{type(err).__name__}: {err}"}


def _attribute_error(module: ModuleType, name: str) -> str | None:
    """The message of the AttributeError that reading ``name`` raises, None where it is there;
    any other exception propagates into the report of the caller."""
    try:
        getattr(module, name)
    except AttributeError as err:
        return str(err)
    return None


def _star_names(module_name: str) -> list[str]:
    namespace: dict[str, Any] = {}
    exec(f"from {module_name} import *", namespace)
    return sorted(set(namespace) - {"__builtins__"})


def probe(module_name: str, names: list[str]) -> dict[str, Any]:
    """Every introspection answer about ``module_name`` for ``names``, or the import's error."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        return {"import_error": f"{type(err).__name__}: {err}"}
    return {
        "dir_first": _outcome(lambda: dir(module)),
        "hasattr": _outcome(lambda: {name: hasattr(module, name) for name in names}),
        "getattr_default": _outcome(lambda: {name: getattr(module, name, _MISSING) is not _MISSING for name in names}),
        "attribute_errors": _outcome(lambda: {name: _attribute_error(module, name) for name in names}),
        "getmembers": _outcome(lambda: [name for name, _ in inspect.getmembers(module)]),
        "pydoc": _outcome(lambda: len(pydoc.render_doc(module, renderer=pydoc.plaintext))),
        "all": _outcome(lambda: list(module.__all__)),
        "star": _outcome(lambda: _star_names(module_name)),
        "dir_after": _outcome(lambda: dir(module)),
    }


if __name__ == "__main__":
    print(json.dumps(probe(sys.argv[1], sys.argv[2:])))
