# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What a build reads from outside its source tree, tracked by content: the CUDA headers,
cuda-bindings, Cython and the C++ compiler.

Meson's configure step (``cuda_core_build.configure``) and the build's first step,
``cuda-inputs`` (``cuda_core_build.check``), both call :func:`derive`, then :func:`apply`:

- ``derive`` runs the probe on the build directory's pinned toolkit, asks the preprocessor which
  headers the required ones pull in, and reads every input: the sha256 of each file, and each
  symbolic link on the way to it (so a re-pointed ``/usr/local/cuda`` is a change even when the
  toolkit it now names is older than the build);
- ``apply`` lays the result out in ``BUILDDIR/cuda-config/``, the only place the compile commands
  look (``include/``, ``bindings``, the chosen ``_compat`` variants), so no command line holds a
  fact of the environment; and it rewrites ``cuda-inputs.stamp``, which every Cython step depends
  on, only when a digest changed. A change then rebuilds what reads the inputs in the same ninja
  run, exactly as a clean build would, or stops at the probe's one line before any compile.

The build step runs whenever ninja sees an input, the directory holding one, or the directory of
a link on the way to one change, in either direction of time: installing, uninstalling and
re-pointing all change those, whatever mtimes the files carry. An editable import compares each
input's stat fingerprint (device, inode, size, mtime and ctime) before it runs ninja
(``copied_into_wheels/build_lock.py``), so it sees even a change made with every mtime kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from cuda_core_build import facts, probe
from cuda_core_build.copied_into_wheels.build_lock import MANIFEST, RECHECK, fingerprint
from cuda_core_build.files import write_if_changed

CONFIG_DIR = "cuda-config"  # in the build directory; its name is on the compile commands, relative
STAMP = "cuda-inputs.stamp"  # in the build directory: rewritten when any input's content changes
CYTHON_STAMP = "cython-inputs.stamp"  # in the build directory: rewritten when Cython's content changes
FACTS = "facts.json"  # in CONFIG_DIR: what this environment is (the build info and the backend read it)
PIN = "cuda-toolkit-pin.json"  # in the build directory: the toolkit found first, kept across regenerations
COMPAT_DIR = facts.REPO_ROOT / "cuda_core" / "cuda" / "core" / "_compat"
# CONFIG_DIR/source: a link to the package's sources, through which a module includes a .pxi
# written beside it (``include "source/graph/_executable_nodes.pxi"``). Cython records an
# included file by the path it found it at: beside the module that is an absolute path of the
# checkout, through CONFIG_DIR the same relative path at any depth and in any checkout.
SOURCE_LINK = "source"
PACKAGE_SOURCES = facts.REPO_ROOT / "cuda_core" / "cuda" / "core"
COMPILER_LAUNCHERS = ("ccache", "sccache")


@dataclass(frozen=True)
class Input:
    """One file the build reads: what it is to the build, where it was found, and its sha256."""

    role: str  # header, bindings, cython or compiler
    name: str  # its name to the build: a header's include name, a file's path in its package
    path: str  # absolute, as looked up (links on the way kept)
    sha256: str


@dataclass
class Environment:
    """The probe's result for one build directory, with every input it rests on."""

    toolkit: probe.Toolkit
    bindings: probe.Bindings
    cython: probe.CythonInstall
    headers: dict[str, str]  # include name -> the file the build includes under it
    compat: dict[str, str]  # name in CONFIG_DIR -> the _compat variant chosen for this environment
    inputs: list[Input] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)  # each link on the way to an input -> its target

    def digest(self, roles: tuple[str, ...] = ("header", "bindings", "cython", "compiler")) -> str:
        """sha256 of what the compiled code can depend on: the content of every input of ``roles``
        under its name, and (with every role) the variants chosen. Paths are left out: a venv
        moved whole builds the same."""
        digest = hashlib.sha256()
        for item in sorted(self.inputs, key=lambda i: (i.role, i.name)):
            if item.role in roles:
                digest.update(f"{item.role}\0{item.name}\0{item.sha256}\n".encode())
        if len(roles) == len(ROLES):
            for name, source in sorted(self.compat.items()):
                digest.update(f"compat\0{name}\0{Path(source).relative_to(COMPAT_DIR).as_posix()}\n".encode())
        return digest.hexdigest()

    def facts(self) -> dict[str, object]:
        """What this environment is, for the build info and the backend (no paths: they differ by machine)."""
        return {
            "cuda_major": self.toolkit.major,
            "cuda_version": self.toolkit.cuda_version,
            "cuda_bindings_version": self.bindings.version,
            "cython_version": self.cython.version,
            "compat": {name: Path(source).relative_to(COMPAT_DIR).as_posix() for name, source in self.compat.items()},
        }

    def summary(self) -> str:
        """One line for Meson's log: the CUDA version, which directory gave which header, the bindings."""
        by_dir: dict[str, list[str]] = {}
        for header, directory in self.toolkit.sources.items():
            by_dir.setdefault(directory, []).append(header)
        sources = "; ".join(f"{', '.join(headers)} from {directory}" for directory, headers in by_dir.items())
        return (
            f"CUDA {self.toolkit.major}.{self.toolkit.minor} (CUDA_VERSION {self.toolkit.cuda_version}) "
            f"via {self.toolkit.found_via}: {sources}; cuda-bindings {self.bindings.version}; "
            f"Cython {self.cython.version}"
        )


# --- deriving -------------------------------------------------------------------------------------


def compat_choices(toolkit: probe.Toolkit, bindings: probe.Bindings) -> dict[str, str]:
    """The ``_compat`` variant of each major- or minor-dependent file, by the headers and bindings.

    Cython finds each under its plain name in CONFIG_DIR. Workqueue resources and structured SM
    splits need both 13.1+ headers and 13.1+ cuda-bindings (whose cydriver.pxd declares them);
    three device attributes need cuda-bindings 12.9+.
    """
    bindings_minor = (bindings.major, bindings.minor)
    resources = "cuda13_1" if toolkit.cuda_version >= 13010 and bindings_minor >= (13, 1) else "before13_1"
    attributes = "cuda12_9" if bindings_minor >= (12, 9) else "before12_9"
    return {
        "driver_compat.pxi": str(COMPAT_DIR / f"cu{toolkit.major}" / "driver_compat.pxi"),
        "resources_compat.pxi": str(COMPAT_DIR / "resources" / resources / "resources_compat.pxi"),
        "attributes_compat.pxi": str(COMPAT_DIR / "attributes" / attributes / "attributes_compat.pxi"),
    }


def parse_make_dependencies(text: str) -> list[str]:
    """The prerequisites of a Makefile rule as the compiler writes it for -M (escaped spaces and
    '#', '$$', continuation lines)."""
    body = text.replace("\\\n", " ").split(": ", 1)[-1]
    tokens, current, index = [], [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body) and body[index + 1] in " #\\":
            current.append(body[index + 1])
            index += 2
            continue
        if char == "$" and body[index + 1 : index + 2] == "$":
            current.append("$")
            index += 2
            continue
        if char.isspace():
            if current:
                tokens.append("".join(current))
                current = []
        else:
            current.append(char)
        index += 1
    if current:
        tokens.append("".join(current))
    return tokens


def header_closure(compiler: list[str], toolkit: probe.Toolkit) -> dict[str, str]:
    """Include name -> file, for every header of the toolkit's directories that the build reads:
    what including the compiled headers reads (the preprocessor's own list, ``-M``, so nothing is
    guessed), and the headers read as text."""
    source = "".join(f"#include <{header}>\n" for header in facts.COMPILED_HEADERS)
    command = [*compiler, "-std=c++17", "-M", "-x", "c++"]
    for directory in toolkit.include_dirs:
        command += ["-isystem", directory]
    try:
        result = subprocess.run([*command, "-"], input=source, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise probe.ProbeError(
            f"the C++ compiler {' '.join(compiler)!r} could not be run ({err}): "
            "install g++, or set CXX to a working C++ compiler"
        ) from None
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if "error" in line), result.stderr.strip())
        raise probe.ProbeError(
            f"the CUDA headers at {os.pathsep.join(toolkit.include_dirs)} do not preprocess "
            f"({first.strip()}): point CUDA_PATH or -Dcuda-path at a complete CUDA toolkit"
        )
    roots = [os.path.normpath(directory) for directory in toolkit.include_dirs]
    closure: dict[str, str] = {}
    for dependency in map(os.path.normpath, parse_make_dependencies(result.stdout)):
        for root in roots:
            if dependency.startswith(root + os.sep):
                closure.setdefault(Path(dependency[len(root) + 1 :]).as_posix(), dependency)
                break
    for header in facts.TEXT_HEADERS:
        closure[header] = str(Path(toolkit.sources[header]) / header)
    return closure


def compiler_files(compiler: list[str]) -> dict[str, str]:
    """The files that are the C++ compiler: its driver and cc1plus, found as the build runs them."""
    executables = [part for part in compiler if not part.startswith("-")]
    while executables[:1] and Path(executables[0]).name in COMPILER_LAUNCHERS:
        executables = executables[1:]
    found = {}
    driver = shutil.which(executables[0]) if executables else None
    if driver:
        found["driver"] = driver
        with_prog = subprocess.run([*compiler, "-print-prog-name=cc1plus"], capture_output=True, text=True)
        cc1plus = with_prog.stdout.strip()
        if with_prog.returncode == 0 and os.path.isabs(cc1plus) and os.path.isfile(cc1plus):
            found["cc1plus"] = cc1plus
    return found


def bindings_files(bindings: probe.Bindings) -> dict[str, str]:
    """Name -> path of what Cython and the probe read of cuda-bindings: its .pxd/.pxi files, its
    version file and its metadata (RECORD holds every file's hash)."""
    root = Path(bindings.pxd_root)
    found = {
        str(p.relative_to(root).as_posix()): str(p)
        for pattern in ("*.pxd", "*.pxi")
        for p in (root / "cuda" / "bindings").rglob(pattern)
    }
    for extra in (root / "cuda" / "__init__.pxd", Path(bindings.version_file)):
        if extra.is_file():
            found[extra.relative_to(root).as_posix()] = str(extra)
    found.update(_metadata_files(bindings.dist_info))
    return found


def cython_files(cython: probe.CythonInstall) -> dict[str, str]:
    """Name -> path of the files that say which Cython this is: the one holding its version, and its
    metadata (RECORD names every file of it with its hash)."""
    return {"Cython/Shadow.py": cython.version_file, **_metadata_files(cython.dist_info)}


def _metadata_files(dist_info: str) -> dict[str, str]:
    if not dist_info:
        return {}
    return {
        f"dist-info/{name}": str(Path(dist_info) / name)
        for name in ("METADATA", "RECORD")
        if (Path(dist_info) / name).is_file()
    }


def sha256_of(path: str) -> str:
    """sha256 of a file's content; of a RECORD, of the lines that describe the package's own files.

    A RECORD also hashes the console scripts, whose first line names the venv they were
    installed into: the same Cython in two venvs would otherwise differ. Its lines for files
    outside the package's directories (``../../../bin/...``), for byte code and for the
    installer's own records are left out, in a stable order.
    """
    if Path(path).name == "RECORD":
        lines = Path(path).read_text(errors="replace").splitlines()
        kept = sorted(
            line
            for line in lines
            if line
            and not line.startswith("../")
            and "__pycache__" not in line
            and ".dist-info/" not in line.split(",", 1)[0]
        )
        return hashlib.sha256("\n".join(kept).encode()).hexdigest()
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def links_on_the_way(path: str) -> dict[str, str]:
    """Every symbolic link the system follows to reach ``path``, with its target as written."""
    found: dict[str, str] = {}
    pending = list(Path(path).parts)
    current = Path(pending.pop(0))
    while pending and len(found) < 64:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            current = current.parent
            continue
        candidate = current / part
        try:
            target = os.readlink(candidate)
        except OSError:  # not a link, or not there
            current = candidate
            continue
        found[str(candidate)] = target
        target_path = Path(target)
        if target_path.is_absolute():
            current, pending = Path(target_path.anchor), [*target_path.parts[1:], *pending]
        else:
            pending = [*target_path.parts, *pending]
    return found


def check_watchable(path: str, what: str) -> None:
    """Refuse a path ninja cannot watch: a depfile cannot hold a newline, and reads a backslash as an
    escape, so a change to the file would never be seen, or always."""
    for character, name in (("\\", "a backslash"), ("\n", "a newline")):
        if character in path:
            raise probe.ProbeError(
                f"the path of {what} ({path!r}) holds {name}, which Meson cannot track: make a "
                f"link to its directory whose path has none, and point the build at the link"
            )


def check_directory_name(build_dir: Path, toolkit: probe.Toolkit, requested_major: str) -> None:
    """A build directory whose name says cuNN keeps that major unless one is asked for explicitly."""
    match = re.search(r"(?:^|[-_.])cu(\d+)(?:$|[-_.])", build_dir.name)
    if match is None or requested_major != "auto" or int(match.group(1)) == toolkit.major:
        return
    named = int(match.group(1))
    raise probe.ProbeError(
        f"{build_dir.name}'s name says CUDA {named}, but the headers found (via {toolkit.found_via}) "
        f"are CUDA {toolkit.major}.{toolkit.minor}: {probe.environment_hint(named)}, or pass "
        f"-Dcuda-major={toolkit.major} to build CUDA {toolkit.major} in it"
    )


def derive(
    build_dir: Path,
    cuda_path: str,
    cuda_major: str,
    compiler: list[str],
    *,
    pin_required: bool = False,
    environ: dict[str, str] | None = None,
) -> Environment:
    """Probe for ``build_dir`` (its pinned toolkit, else the first found) and read every input.

    ``pin_required``: a build step must never pick a toolkit itself (it would follow whatever
    CUDA_PATH the shell that runs ninja has), so a missing pin is an error there.
    """
    pin_file = build_dir / PIN
    if pin_required and not pin_file.is_file():
        raise probe.ProbeError(
            f"the toolkit pin of {build_dir} ({PIN}) is missing: reconfigure with "
            f"`meson setup --reconfigure {build_dir}`"
        )
    toolkit, bindings = probe.probe(
        cuda_path, cuda_major, pin_file=pin_file, environ=dict(os.environ if environ is None else environ)
    )
    assert bindings is not None
    check_directory_name(build_dir, toolkit, cuda_major)
    cython = probe.find_cython()
    environment = Environment(
        toolkit, bindings, cython, header_closure(compiler, toolkit), compat_choices(toolkit, bindings)
    )
    named = [
        ("header", environment.headers),
        ("bindings", bindings_files(bindings)),
        ("cython", cython_files(cython)),
        ("compiler", compiler_files(compiler)),
    ]
    for role, files in named:
        for name, path in sorted(files.items()):
            check_watchable(path, f"{role} input {name}")
            environment.inputs.append(Input(role, name, path, sha256_of(path)))
            environment.links.update(links_on_the_way(path))
    return environment


# --- applying -------------------------------------------------------------------------------------


def point(link: Path, target: str) -> None:
    """Make ``link`` a symbolic link to ``target``, replaced whole, and only if it points elsewhere."""
    try:
        if os.readlink(link) == target:
            return
    except OSError:
        pass
    temporary = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(target)
    os.replace(temporary, link)


def include_tree(config: Path, headers: dict[str, str]) -> None:
    """CONFIG_DIR/include: one directory of links, one per header of the closure, to its real file.
    A new set is built beside the old one and swapped in by re-pointing ``include``."""
    listing = "".join(f"{name}\0{os.path.realpath(path)}\n" for name, path in sorted(headers.items()))
    tree = f"include-{hashlib.sha256(listing.encode()).hexdigest()[:16]}"
    if not (config / tree / ".complete").is_file():
        shutil.rmtree(config / tree, ignore_errors=True)
        for name, path in headers.items():
            (config / tree / name).parent.mkdir(parents=True, exist_ok=True)
            (config / tree / name).symlink_to(os.path.realpath(path))
        (config / tree / ".complete").write_text("")
    point(config / "include", tree)
    for old in config.glob("include-*"):
        if old.name != tree:
            shutil.rmtree(old, ignore_errors=True)


def manifest(environment: Environment) -> dict[str, object]:
    """Each input's stat fingerprint and each link's target (what an editable import compares), and
    the facts and each input's digest by role and name (what the build step names when something
    changed)."""
    return {
        "inputs": {item.path: fingerprint(item.path) for item in environment.inputs},
        "links": environment.links,
        "digests": {
            role: {item.name: item.sha256 for item in environment.inputs if item.role == role} for role in ROLES
        },
        "facts": environment.facts(),
    }


ROLES = {
    "header": "CUDA headers",
    "bindings": "cuda-bindings files",
    "cython": "Cython files",
    "compiler": "the C++ compiler",
}
VERSIONS = {"cuda_version": "CUDA_VERSION", "cuda_bindings_version": "cuda-bindings", "cython_version": "Cython"}


def changes(build_dir: Path, environment: Environment) -> list[str]:
    """What differs from the environment last laid out in ``build_dir``, for one line: versions
    first, then the inputs of each role that changed, came or went; empty when nothing does."""
    try:
        before = json.loads((build_dir / CONFIG_DIR / MANIFEST).read_text())
    except (OSError, ValueError):
        return []
    now = manifest(environment)
    old_facts, new_facts = before.get("facts", {}), now["facts"]
    found = [
        f"{label} {old_facts.get(key)} -> {new_facts[key]}"
        for key, label in VERSIONS.items()
        if old_facts.get(key) != new_facts[key]
    ]
    for role, label in ROLES.items():
        old, new = before.get("digests", {}).get(role, {}), now["digests"][role]
        names = sorted(name for name in set(old) | set(new) if old.get(name) != new.get(name))
        if names:
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            found.append(f"{label} ({shown})")
    found += [
        f"_compat {name} -> {variant}"
        for name, variant in sorted(new_facts["compat"].items())
        if old_facts.get("compat", {}).get(name) != variant
    ]
    return found


def changed_line(changed: list[str]) -> str:
    """The one line that says what changed in a build's environment and what follows."""
    return f"cuda-core: the build's environment changed: {'; '.join(changed)}: what reads it is rebuilt"


def apply(build_dir: Path, environment: Environment) -> bool:
    """Lay ``environment`` out in ``build_dir``; return whether the stamp changed (a rebuild follows)."""
    config = build_dir / CONFIG_DIR
    config.mkdir(parents=True, exist_ok=True)
    point(config / "bindings", os.path.realpath(environment.bindings.pxd_root))
    point(config / SOURCE_LINK, os.path.realpath(PACKAGE_SOURCES))
    for name, source in environment.compat.items():
        point(config / name, source)
    include_tree(config, environment.headers)
    if not (config / RECHECK).exists():
        (config / RECHECK).write_text("")  # created once: an editable import touches it when it sees a change
    write_if_changed(config / FACTS, json.dumps(environment.facts(), indent=2, sort_keys=True) + "\n")
    write_if_changed(config / MANIFEST, json.dumps(manifest(environment), indent=1, sort_keys=True) + "\n")
    # Cython's shared utility code depends on Cython alone: its own stamp spares it other changes.
    write_if_changed(build_dir / CYTHON_STAMP, environment.digest(roles=("cython",)) + "\n")
    return write_if_changed(build_dir / STAMP, environment.digest() + "\n")


def watched_paths(build_dir: Path, environment: Environment) -> list[str]:
    """What ninja watches for the build step: each input, the directory holding it, the directory
    of each link on the way, and the file an editable import touches when it sees a change."""
    paths = {str(build_dir / CONFIG_DIR / RECHECK)}
    for item in environment.inputs:
        paths.update((item.path, os.path.dirname(os.path.realpath(item.path))))
    paths.update(os.path.dirname(link) for link in environment.links)
    return sorted(paths)


def read_facts(build_dir: Path) -> dict[str, object]:
    """The facts the last derive laid out in ``build_dir``."""
    return json.loads((build_dir / CONFIG_DIR / FACTS).read_text())
