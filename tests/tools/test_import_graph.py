# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core.system is a tree: read from its files' own imports, no module of the package
imports, however indirectly, one that imports it back.

Every import counts, the ones inside functions too (a deferred import is still a circle, only
a later one), except those under ``if TYPE_CHECKING:``, which name upper types for annotations
and never run. The leaves take what they need from above (the Device, its handle, a
handle-to-Device callable) from whoever builds them. Needs no build: the sources are read, not
imported; a .pyx file's Python imports are read off its lines.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SYSTEM = Path(__file__).resolve().parents[2] / "cuda_core" / "cuda" / "core" / "system"
PACKAGE = "cuda.core.system"
# A Python import statement on a line of a .pyx file (cimports are Cython's, resolved at build).
PYX_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+import[ \t]|import[ \t]+[\w.]+)")


def module_name(path: Path) -> str:
    """The dotted name of a file of the package: cuda.core.system for __init__.py."""
    return PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"


def modules() -> dict[str, Path]:
    """The package's modules (.py and .pyx; .pyi stubs only describe a .pyx) by dotted name."""
    return {module_name(path): path for path in sorted(SYSTEM.iterdir()) if path.suffix in (".py", ".pyx")}


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests TYPE_CHECKING (bare or as typing.TYPE_CHECKING)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, in function bodies too, but not in the body of
    an ``if TYPE_CHECKING:`` (its ``else`` runs, so it counts)."""
    if isinstance(node, ast.If) and is_type_checking(node.test):
        children: list[ast.AST] = list(node.orelse)
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        else:
            yield from import_nodes(child)


def pyx_tree(text: str) -> ast.Module:
    """A .pyx file's Python imports as one module: each import line (with its parenthesised
    continuation), dedented; a line of prose that only looks like one does not parse and is
    left out."""
    statements = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not PYX_IMPORT.match(line):
            continue
        statement = line.strip()
        end = number
        while statement.count("(") > statement.count(")") and end + 1 < len(lines):
            end += 1
            statement += " " + lines[end].strip()
        try:
            statements.extend(ast.parse(statement).body)
        except SyntaxError:
            continue
    return ast.Module(body=statements, type_ignores=[])


def imported(node: ast.Import | ast.ImportFrom, importer: str, known: set[str]) -> set[str]:
    """The modules of the package that one import statement of ``importer`` loads:
    ``from cuda.core.system import _device`` loads the submodule _device, while
    ``from cuda.core.system import X`` of a name that is no submodule loads the package."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    base = node.module or ""
    if node.level:  # relative: from the importer's package, up level - 1 packages
        package = importer if importer == PACKAGE else importer.rsplit(".", 1)[0]
        parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        base = ".".join(parts + ([base] if base else []))
    submodules = {f"{base}.{alias.name}" for alias in node.names} & known
    return submodules or ({base} & known)


def import_graph() -> dict[str, set[str]]:
    """{module: the package's modules it imports}, from the files themselves."""
    files = modules()
    graph = {}
    for name, path in files.items():
        text = path.read_text(encoding="utf-8")
        tree = pyx_tree(text) if path.suffix == ".pyx" else ast.parse(text, filename=str(path))
        graph[name] = {
            target for node in import_nodes(tree) for target in imported(node, name, set(files)) if target != name
        }
    return graph


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` as the modules along it (first repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            circle = visit(target)
            if circle:
                return circle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        circle = visit(module)
        if circle:
            return circle
    return None


def test_the_reader_sees_the_package_and_its_imports() -> None:
    """The graph holds what the files say: _device imports its topic modules, _system (a .pyx)
    its support module, and an import under TYPE_CHECKING is not an edge."""
    graph = import_graph()
    assert {f"{PACKAGE}._clocks", f"{PACKAGE}._events", f"{PACKAGE}._nvml_context"} <= graph[f"{PACKAGE}._device"]
    assert f"{PACKAGE}._nvml_support" in graph[f"{PACKAGE}._system"]
    assert f"{PACKAGE}._system" in graph[PACKAGE]
    tree = ast.parse("if TYPE_CHECKING:\n    import a\nelse:\n    import b\ndef f():\n    import c\n")
    assert [alias.name for node in import_nodes(tree) for alias in node.names] == ["b", "c"]


def test_cuda_core_system_imports_form_no_circle() -> None:
    circle = find_circle(import_graph())
    assert circle is None, (
        "cuda.core.system's imports run in a circle: "
        + " -> ".join(circle or [])
        + "; a module may import only modules below it: pass what a leaf needs from above "
        "(a Device, a handle, a handle-to-Device callable) as an argument"
    )
