# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Editable installs: rebuild on import, one build dir per venv, and no activated shell needed.

Both venvs install the session checkout editable, each over its major's session build dir
(``-Cbuild-dir``), so nothing is built in full here; the edit a test makes is undone and
rebuilt at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import devenv
import pytest
from builds import (
    MAJORS,
    SessionBuilds,
    Venv,
    cython_steps,
    dry_run,
    edited,
    ninja,
    rebuilt_nothing,
    run,
    settle,
    touched,
    up_to_date,
)
from cuda_core_build import facts

PROBE_CODE = "import cuda.bindings, cuda.core, cuda.core._build_info as b; print(b.cuda_major, cuda.core.__file__)"
EDITED = "cuda_core/cuda/core/system/_system.pyx"
CORE = "cuda_core/cuda/core"


def pip_uninstall(venv: Venv) -> None:
    run([venv.python, "-m", "pip", "uninstall", "-y", "-q", "cuda-core"], venv.env(), Path("/"), check=False)


@pytest.fixture(scope="module")
def editable(builds: SessionBuilds):
    """The session checkout installed editable into each venv, over that major's session build
    dir; uninstalled afterwards, and the edited source restored and rebuilt."""
    checkout = builds.checkout
    source = checkout / EDITED
    original = source.read_text()
    for major, venv in builds.venvs.items():
        run(
            [
                venv.python,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-build-isolation",
                "--no-deps",
                f"-Cbuild-dir={builds.build_dir(major)}",
                "-e",
                checkout,
            ],
            venv.env(),
            checkout,
        )
    yield checkout
    for major, venv in builds.venvs.items():
        pip_uninstall(venv)
    if source.read_text() != original:
        source.write_text(original)
        for major, venv in builds.venvs.items():
            ninja(venv, builds.build_dir(major))


def imported_major(venv: Venv, cwd: Path, activated: bool = True) -> tuple[int, str]:
    out = run([venv.python, "-c", PROBE_CODE], venv.env(activated=activated), cwd).stdout.split()
    return int(out[0]), out[1]


def test_each_venv_imports_its_own_major_from_the_checkout(
    editable: Path, venvs: dict[int, Venv], tmp_path: Path
) -> None:
    for major, venv in venvs.items():
        got, location = imported_major(venv, tmp_path)
        assert got == major
        assert location == str(editable / "cuda_core/cuda/core/__init__.py")


def test_metadata_requires_bindings_of_the_built_major(editable: Path, venvs: dict[int, Venv]) -> None:
    for major, venv in venvs.items():
        code = "import importlib.metadata as m; print('\\n'.join(m.requires('cuda-core')))"
        requires = run([venv.python, "-c", code], venv.env(), editable).stdout.splitlines()
        assert f"cuda-bindings=={major}.*" in requires
        assert f'cuda-bindings[all]=={major}.*; extra == "cu{major}"' in requires


def test_editing_a_pyx_rebuilds_on_import_in_each_venv_unactivated(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """After a .pyx edit, the next import in each venv rebuilds that venv's own build dir, from a
    shell whose PATH holds no venv (cython and ninja were recorded by absolute path)."""
    source = editable / EDITED
    source.write_text(source.read_text() + "\n\ndef _edited_marker() -> int:\n    return 12013\n")
    modules = {major: builds.modules(major)["cuda.core.system._system"] for major in MAJORS}
    before = {major: modules[major].stat().st_mtime_ns for major in MAJORS}
    for major, venv in builds.venvs.items():
        code = (
            "import cuda.core.system._system as s, cuda.core._build_info as b; print(b.cuda_major, s._edited_marker())"
        )
        out = run([venv.python, "-c", code], venv.env(activated=False), tmp_path).stdout.split()
        assert out == [str(major), "12013"]
    for major in MAJORS:
        assert modules[major].stat().st_mtime_ns > before[major], f"cu{major} did not rebuild its own module"


def test_one_finder_and_reinstall_over_an_active_editable(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """The .pth may run twice at start-up; the loader must still be installed once. And a second
    `pip install -e` must configure cleanly while the first editable's finder is active (the probe
    must not import through it, which would rebuild the build dir being configured)."""
    venv = builds.venvs[13]
    code = "import sys, cuda.core; print(sum(type(f).__name__ == 'MesonpyMetaFinder' for f in sys.meta_path))"
    assert run([venv.python, "-c", code], venv.env(), tmp_path).stdout.strip() == "1"
    run(
        [
            venv.python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-build-isolation",
            "--no-deps",
            f"-Cbuild-dir={builds.build_dir(13)}",
            "-e",
            editable,
        ],
        venv.env(),
        editable,
    )
    assert imported_major(venv, tmp_path)[0] == 13


def test_the_probe_never_starts_an_editable_rebuild(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """The build runs the probe in the venv that holds the editable install; its imports must not
    go through the editable finder, which would start a second build of the same build dir."""
    venv = builds.venvs[13]
    source = editable / "cuda_core/cuda/core/_device.pyx"
    original, stat = source.read_text(), source.stat()
    source.write_text(original + "\n")
    try:
        run([venv.python, editable / "tools/dev/cuda_probe.py"], venv.env(), tmp_path)
        pending = dry_run(venv, builds.build_dir(13))
        assert "cuda.core._device" in cython_steps(pending), "the probe's imports rebuilt the editable install"
    finally:
        # Nothing was rebuilt from the edit (asserted above). The sources' check saw the edit, so the old
        # text, even with its old mtime, is a content change to it: one build re-runs Cython, whose C++
        # comes out as before, so nothing compiles and the session's build dir is current again.
        source.write_text(original)
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        settle(venv, builds.build_dir(13))


def test_concurrent_imports_after_an_edit_take_turns(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """Three processes import right after an edit: one rebuilds (saying so, with ninja's progress on
    stderr), the others wait for it under the build dir's lock. Afterwards the module is the one a
    lone rebuild makes, ninja has no work, and the build info still knows what it follows."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    source = editable / "cuda_core/cuda/core/_context.pyx"
    original = source.read_text()
    source.write_text(original + "\n\ndef _concurrent_marker() -> int:\n    return 3\n")
    try:
        code = "import cuda.core._context as c; print(c._concurrent_marker())"
        processes = [
            subprocess.Popen(
                [venv.python, "-c", code],
                env=venv.env(),
                cwd=tmp_path,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(3)
        ]
        outputs = [process.communicate() for process in processes]
        assert [process.returncode for process in processes] == [0, 0, 0], outputs
        assert [out.strip() for out, _ in outputs] == ["3", "3", "3"]
        rebuilt = [err for _, err in outputs if "cuda-core: rebuilding the editable cuda.core in" in err]
        assert len(rebuilt) == 1 and re.search(r"^\[\d+/\d+\] ", rebuilt[0], re.M) and "_context.pyx" in rebuilt[0], (
            outputs
        )
        assert up_to_date(venv, build_dir)
        deps = ninja(venv, build_dir, "-t", "deps", "cuda_core/cuda/core/_build_info.py").stdout
        assert "cuda-config/environment.json" in deps and "(VALID)" in deps
        module = builds.modules(13)["cuda.core._context"]
        concurrent = module.read_bytes()
        os.utime(source)
        ninja(venv, build_dir)
        assert module.read_bytes() == concurrent
    finally:
        source.write_text(original)
        for major, build in ((m, builds.build_dir(m)) for m in MAJORS):
            ninja(builds.venvs[major], build)


def test_an_import_with_nothing_to_rebuild_is_silent(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    result = run([builds.venvs[13].python, "-c", "import cuda.core"], builds.venvs[13].env(), tmp_path)
    assert result.stderr == "" and result.stdout == ""


def test_an_import_after_a_touched_input_is_silent(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """cuda-bindings' cydriver.pxd touched, its content unchanged (a reinstall of the same wheel): the import
    runs the content checks alone. It said "rebuilding ... (sources changed since the last build)", then
    "rebuilt": no source had changed and nothing was rebuilt (issue 42). Now the checks alone say nothing."""
    venv = builds.venvs[13]
    with touched(venv.site_packages / "cuda" / "bindings" / "cydriver.pxd"):
        err = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path).stderr
    assert "rebuilding" not in err and "rebuilt" not in err, err


def test_a_deleted_build_dir_is_one_import_error_and_spares_the_other_packages(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """The cu12 venv's editable install over a build dir that is then deleted: importing cuda.core
    names the dir and the reinstall command; cuda.bindings and cuda.pathfinder import as ever."""
    venv = builds.venvs[12]
    doomed = builds.checkout / "build-cu12-doomed"  # its own: Meson cannot reconfigure a copy of another
    run(
        [
            venv.python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-build-isolation",
            "--no-deps",
            f"-Cbuild-dir={doomed}",
            "-e",
            editable,
        ],
        venv.env(),
        editable,
    )
    shutil.rmtree(doomed)
    broken = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path, check=False)
    last = broken.stderr.strip().splitlines()[-1]
    assert broken.returncode != 0 and last.startswith(
        f"ImportError: cuda.core is installed editable, but its build directory {doomed} is gone"
    )
    assert last.endswith(f"reinstall it with: {venv.python} -m pip install --no-build-isolation -e {editable}")
    others = run(
        [venv.python, "-c", "import cuda.bindings.driver, cuda.pathfinder; print('fine')"], venv.env(), tmp_path
    )
    assert others.stdout.strip() == "fine"


def test_a_failed_rebuild_is_cuda_core_s_alone(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """A typo in a .pyx: importing cuda.core raises the build's error, with the file and line, while
    cuda.bindings and cuda.pathfinder import as ever, in the same process, before and after."""
    venv = builds.venvs[13]
    source = editable / "cuda_core/cuda/core/_context.pyx"
    code = (
        "import cuda.bindings.driver, cuda.pathfinder\n"
        "try:\n    import cuda.core\nexcept ImportError as err:\n    print('core:', err)\n"
        "import cuda.bindings.nvrtc\nprint('others fine')\n"
    )
    with edited(source, source.read_text() + "\n\ncdef int = broken\n"):
        out = run([venv.python, "-c", code], venv.env(), tmp_path).stdout
    assert out.rstrip().endswith("others fine")
    assert "core: rebuilding the editable cuda.core in" in out and "_context.pyx" in out
    # The failed step left no output, so it runs again, now on the old source.
    ninja(venv, builds.build_dir(13))


def test_a_build_dir_without_its_setup_is_one_import_error(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """A build dir whose meson-info/ is gone (a setup that never finished): one ImportError naming
    the dir and the reinstall command, and the other cuda packages import."""
    venv = builds.venvs[12]
    partial = builds.checkout / "build-cu12-partial"  # its own: Meson cannot reconfigure a copy of another
    try:
        run(
            [
                venv.python,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-build-isolation",
                "--no-deps",
                f"-Cbuild-dir={partial}",
                "-e",
                editable,
            ],
            venv.env(),
            editable,
        )
        shutil.rmtree(partial / "meson-info")
        broken = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path, check=False)
        last = broken.stderr.strip().splitlines()[-1]
        assert broken.returncode != 0 and last == (
            f"ImportError: cuda.core is installed editable, but its build directory {partial} holds no finished "
            f"Meson setup (no meson-info/intro-install_plan.json): reinstall it with: {venv.python} -m pip install "
            f"--no-build-isolation -e {editable}"
        )
        assert "Traceback" in broken.stderr and "FileNotFoundError" not in broken.stderr
        others = run(
            [venv.python, "-c", "import cuda.bindings.driver, cuda.pathfinder; print('fine')"], venv.env(), tmp_path
        )
        assert others.stdout.strip() == "fine"
    finally:
        run(
            [
                venv.python,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-build-isolation",
                "--no-deps",
                f"-Cbuild-dir={builds.build_dir(12)}",
                "-e",
                editable,
            ],
            venv.env(),
            editable,
        )
        shutil.rmtree(partial, ignore_errors=True)


def test_a_regular_cuda_package_is_not_hidden(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """cuda-bindings 12.8 ships cuda/__init__.py: ``cuda`` is then a regular package, which the
    editable finder must leave as it is (before, it answered with its own namespace and
    cuda.bindings was not found). Installed in front of the venv's 12.9, cuda.bindings is 12.8's,
    cuda.core is still the editable one, and nothing is rebuilt (the build's own bindings did not
    change)."""
    venv = builds.venvs[12]
    older = facts.cuda_pins("12.8")["cuda-bindings"]
    site = tmp_path / "site"
    run(
        [
            venv.python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--target",
            site,
            f"cuda-bindings=={older}",
        ],
        venv.env(),
        tmp_path,
    )
    assert (site / "cuda" / "__init__.py").is_file()
    code = (
        "import cuda, cuda.bindings, cuda.core\n"
        "from cuda.bindings._version import __version__\n"
        "print(cuda.__file__, __version__, cuda.core.__file__)"
    )
    result = run([venv.python, "-c", code], venv.env(PYTHONPATH=str(site)), tmp_path)
    assert result.stdout.split() == [
        str(site / "cuda" / "__init__.py"),
        older,
        str(editable / "cuda_core/cuda/core/__init__.py"),
    ]
    assert result.stderr == ""


def install_editable(python: Path, venv: Venv, build_dir: Path, checkout: Path) -> None:
    command = [python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", f"-Cbuild-dir={build_dir}"]
    run([*command, "-e", checkout], venv.env(), checkout)


def test_a_venv_installed_through_a_link_that_goes_still_imports(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """The cu13 venv reached through a link for the install (meson-python records the Python it ran):
    the build directory holds the real paths, so with the link removed an edit still rebuilds on import."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    link = tmp_path / "venv-link"
    link.symlink_to(venv.root)
    try:
        install_editable(link / "bin" / "python", Venv(13, link), build_dir, editable)
        link.unlink()
        with touched(editable / "cuda_core/cuda/core/_context.pyx"):
            result = run([venv.python, "-c", "import cuda.core._context"], venv.env(), tmp_path)
        assert "cuda-core: rebuilding the editable cuda.core" in result.stderr and "_context.pyx" in result.stderr
        # Issue 51: the counter went [2/125] then [3/6]; the check's steps, counted before it pruned, are not shown.
        totals = {m.group(1) for m in re.finditer(r"^\[\d+/(\d+)\]", result.stderr, re.M)}
        assert len(totals) == 1 and "Generating cuda-config/sources" not in result.stderr, result.stderr
    finally:
        install_editable(venv.python, venv, build_dir, editable)


def read_only(path: Path, command: list[str | Path], venv: Venv, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with ``path`` mounted read-only (a private mount in a user namespace)."""
    script = f'mount --bind "{path}" "{path}" && mount -o remount,bind,ro "{path}" && exec "$@"'
    wrapped = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", *map(str, command)]
    return subprocess.run(wrapped, env=venv.env(), cwd=cwd, text=True, capture_output=True)


def test_a_read_only_build_dir_imports_when_up_to_date(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """An up-to-date editable install whose build directory is read-only imports (no lock can be taken,
    nothing is written); one that needs a rebuild says the directory is read-only and what to do."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    ninja(venv, build_dir)
    if read_only(build_dir, ["true"], venv, tmp_path).returncode != 0:
        pytest.skip("this machine cannot mount a directory read-only in a user namespace (unshare --user --mount)")
    fine = read_only(build_dir, [venv.python, "-c", "import cuda.core._context; print('fine')"], venv, tmp_path)
    assert fine.stdout.strip() == "fine" and fine.stderr == "", fine.stderr
    source = editable / "cuda_core/cuda/core/_context.pyx"
    with touched(source):  # the same content: nothing to rebuild
        fine = read_only(build_dir, [venv.python, "-c", "import cuda.core._context; print('fine')"], venv, tmp_path)
    assert fine.stdout.strip() == "fine" and fine.stderr == "", fine.stderr
    before, original = source.stat(), source.read_text()
    source.write_text(original + "# another content, with the old mtime\n")
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    try:
        stale = read_only(build_dir, [venv.python, "-c", "import cuda.core"], venv, tmp_path)
    finally:
        source.write_text(original)
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert stale.returncode != 0 and stale.stderr.strip().splitlines()[-1] == (
        f"ImportError: cuda.core is installed editable, but its build directory {build_dir} is read-only and "
        "cuda.core changed since it was built: make it writable, or reinstall from a writable checkout"
    )


def test_mypy_sees_the_editable_install(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """The package's own typing test, run in a venv holding the editable install: mypy cannot follow an
    import hook, but the install's .pth names the sources, where the stubs and py.typed are."""
    venv = builds.venvs[13]
    typing_test = editable / "tests/package/api/test_typing.py"
    result = run([venv.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", typing_test], venv.env(), tmp_path)
    assert " passed" in result.stdout and "failed" not in result.stdout, result.stdout


def test_a_new_hard_link_rebuilds_nothing_and_says_nothing(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """A hard link gained by a header the build reads (uv links installs from its cache) or by a source:
    the ctime moved, the content did not. The import runs the checks, which find nothing, and prints
    nothing (issue 41, H1: it said it was rebuilding)."""
    venv = builds.venvs[13]
    cuda_h = next(venv.site_packages.glob("nvidia/*/include/cuda.h"))
    links = {cuda_h.with_name("cuda-h.link"): cuda_h, editable / "_event-pxd.link": editable / f"{CORE}/_event.pxd"}
    try:
        for link, target in links.items():
            os.link(target, link)  # beside it: a hard link stays on its file system
        result = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path)
    finally:
        for link in links:
            link.unlink(missing_ok=True)
    assert result.stderr == "" and result.stdout == ""
    assert up_to_date(venv, builds.build_dir(13))


def test_an_import_after_a_touched_pxd_is_silent(editable: Path, builds: SessionBuilds, tmp_path: Path) -> None:
    """Issue 49, N10: a .pxd of the package touched, its content unchanged: nothing compiles and the import
    says nothing (the build info's step named every source by path, and ran: 'rebuilding' for no work)."""
    venv = builds.venvs[13]
    with touched(editable / CORE / "_stream.pxd"):
        err = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path).stderr
    assert err == "", err


def test_an_import_while_a_plain_ninja_builds_waits_for_it(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """Issue 49, N12: an import that needs a rebuild while a plain ninja rebuilds the same build directory
    waits for that ninja, then finds nothing to do: the work is done once."""
    venv, build_dir, source = builds.venvs[13], builds.build_dir(13), editable / CORE / "_context.pyx"
    with edited(source, source.read_text() + "\n\ndef _waiting_marker() -> int:\n    return 12\n"):
        plain = subprocess.Popen(
            [venv.bin / "ninja", "-C", build_dir], env=venv.env(), text=True, stdout=subprocess.PIPE
        )
        while not (build_dir / "cuda-config" / "ninja.pid").read_text().startswith(f"{plain.pid} "):
            assert plain.poll() is None, plain.communicate()
        code = "import cuda.core._context as c; print(c._waiting_marker())"
        imported = run([venv.python, "-c", code], venv.env(), tmp_path)
        built = plain.communicate()[0]
        assert plain.returncode == 0 and "_context.pyx" in built, built
        assert imported.stdout.strip() == "12"
        assert f"waiting for ninja (pid {plain.pid})" in imported.stderr, imported.stderr
        assert "rebuilding" not in imported.stderr, imported.stderr
    ninja(venv, build_dir)  # the source as it was


def other_ninja(venv: Venv) -> Path:
    """A ninja of another version than the venv's: the floor tool set's (1.11), else the system's."""
    ours = run([venv.bin / "ninja", "--version"], venv.env(), Path("/")).stdout
    floor = devenv.TEST_VENVS_DIR / next(c for c in devenv.cells() if c.endswith("-floor")) / "bin" / "ninja"
    for candidate in (floor, Path("/usr/bin/ninja")):
        if candidate.is_file() and run([candidate, "--version"], venv.env(), Path("/")).stdout != ours:
            return candidate
    pytest.skip(f"no ninja of another version than {ours.strip()} here ({floor}, /usr/bin/ninja)")


def test_another_ninja_version_stops_before_it_costs_a_rebuild(
    editable: Path, builds: SessionBuilds, tmp_path: Path
) -> None:
    """Issue 49, N3b: another ninja version in an editable install's build directory (the distribution's,
    first on PATH) stops before it runs a step, naming the build's ninja; the next import compiles nothing.
    Each read the other's build log as new: each recompiled all 41 objects."""
    venv, build_dir = builds.venvs[13], builds.build_dir(13)
    foreign = other_ninja(venv)
    result = run([foreign, "-C", build_dir], venv.env(), tmp_path, check=False)
    assert result.returncode != 0 and rebuilt_nothing(result.stdout), result.stdout
    assert f"runs {build_dir}, which was set up with ninja" in result.stdout, result.stdout
    assert f"run {(venv.bin / 'ninja').resolve()} -C {build_dir}" in result.stdout, result.stdout
    imported = run([venv.python, "-c", "import cuda.core"], venv.env(), tmp_path)
    assert imported.stderr == "", imported.stderr
    assert rebuilt_nothing(ninja(venv, build_dir).stdout)
