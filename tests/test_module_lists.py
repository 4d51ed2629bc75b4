"""The lists of extension modules kept outside meson.build follow it: the tests' EXTENSIONS
and the setuptools reference of benchmarks/ must name exactly the modules Meson builds."""

from __future__ import annotations

import re
import sys

from conftest import EXTENSIONS, REPO_ROOT


def meson_extension_modules() -> dict[str, str]:
    """Module name -> dotted name, read from every meson.build under cuda_core/."""
    found = {}
    for meson_build in sorted((REPO_ROOT / "cuda_core").rglob("meson.build")):
        text = meson_build.read_text()
        for name, subdir in re.findall(r"py\.extension_module\(\s*'(\w+)'.*?subdir:\s*'([\w/]+)'", text, re.S):
            found[name] = f"{subdir.replace('/', '.')}.{name}"
    return found


def test_conftest_extensions_are_mesons() -> None:
    assert set(EXTENSIONS) == set(meson_extension_modules())


def test_setuptools_reference_builds_the_same_modules() -> None:
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    try:
        import reference_setuptools
    finally:
        sys.path.pop(0)
    assert set(reference_setuptools.MODULES) == set(meson_extension_modules().values())
