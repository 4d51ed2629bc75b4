# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The steps Meson runs, ``steps.py STEP``, for what Meson cannot find or record by content (the CUDA environment)."""

import argparse
import dataclasses
import hashlib
import json
import os
import pprint
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

if __name__ == "__main__":  # run by Meson as a script: the package is beside this file
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from cuda_core_build import common, facts, probe, record, sources  # noqa: E402
from cuda_core_build.probe import ProbeError, Request, invocation_dir, misspelled  # noqa: E402

PACKAGE = facts.REPO_ROOT / "cuda_core" / "cuda" / "core"
STAMPS = ("environment.json", "cython.stamp", "cyutility.stamp", "toolchain.h")
ODD = {"\\": "a backslash", "\n": "a newline"}  # what a depfile cannot name
COMPAT = ("driver_compat.pxi", "resources_compat.pxi", "attributes_compat.pxi")  # each has a variant per environment
SDIST_ONLY = "CUDA_CORE_SDIST_ONLY"  # set by backend.build_sdist alone


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}: see {self.prog} --help", file=sys.stderr)
        raise SystemExit(2)


def compat_choices(toolkit: probe.Toolkit, bindings: probe.Package) -> dict[str, str]:
    """Each _compat file's variant: 13.1+ resources need 13.1+ headers and bindings, 12.9 attributes 12.9+ bindings."""
    minor = (bindings.major, bindings.minor)
    resources = "cuda13_1" if toolkit.cuda_version >= 13010 and minor >= (13, 1) else "before13_1"
    attributes = "cuda12_9" if minor >= (12, 9) else "before12_9"
    return dict(zip(COMPAT, (f"cu{toolkit.major}", f"resources/{resources}", f"attributes/{attributes}")))


def header_closure(compiler: list[str], toolkit: probe.Toolkit) -> dict[str, str]:
    """Include name -> file of each toolkit header the build reads, compiled (a header that is not C++ is refused
    here) or as text: g++'s list, by real path."""
    flags = ["-std=c++17", "-fsyntax-only", "-MD", "-MF", "/dev/stdout", "-x", "c++"]
    command = [*compiler, *flags, *(f"-isystem{d}" for d in toolkit.include_dirs), "-"]
    source = "".join(f"#include <{header}>\n" for header in facts.COMPILED_HEADERS)
    try:
        result = subprocess.run(command, input=source, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:  # Meson keeps the launcher it found on PATH at setup
        gone = next((p for p in compiler[:1] if Path(p).name in common.LAUNCHERS and not shutil.which(p)), "")
        folder = next((part for part in compiler if Path(part).is_dir()), "")  # "set CXX" would not help
        fix = f"{gone} from setup is gone: restore it, or set the build dir up again (meson setup --wipe)"
        fix = fix if gone else "install g++, or set CXX"
        if folder:
            fix = f"{folder} is a directory, not a compiler: set CXX to the compiler itself, and set the build up again"
        raise ProbeError(f"the C++ compiler {' '.join(compiler)!r} could not be run ({err}): {fix}")
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if "error" in line), result.stderr).strip()
        raise ProbeError(
            f"the CUDA headers at {os.pathsep.join(toolkit.include_dirs)} do not compile ({first}): "
            f"point CUDA_PATH or -Dcuda-path at a complete CUDA toolkit"
        )
    closure = {header: str(Path(toolkit.sources[header]) / header) for header in facts.REQUIRED_HEADERS}
    for dependency in map(os.path.realpath, common.read_depfile(result.stdout)[1]):
        given = next((d for d in toolkit.include_dirs if dependency.startswith(os.path.realpath(d) + os.sep)), None)
        if given:
            name = Path(os.path.relpath(dependency, os.path.realpath(given))).as_posix()
            closure.setdefault(name, str(Path(given) / name))
    return closure


def compiler_files(compiler: list[str]) -> dict[str, str]:
    """The files that are the C++ compiler: its driver as PATH finds it now (past ccache), and cc1plus."""
    if not (driver := shutil.which(common.driver(compiler))):
        return {}
    cc1plus = subprocess.run([*compiler, "-print-prog-name=cc1plus"], capture_output=True, text=True).stdout.strip()
    return {"driver": driver, **({"cc1plus": cc1plus} if os.path.isabs(cc1plus) and os.path.isfile(cc1plus) else {})}


def package_files(package: probe.Package, top: str, *extras: str) -> dict[str, str]:
    """A distribution's own .pxd and .pxi files under ``top`` (where its RECORD lists them: an installed cuda-core's
    cuda/core/*.pxd are not cuda-bindings'), ``extras``, METADATA and RECORD, by name."""
    root = Path(package.root)
    found = {p.relative_to(root).as_posix(): str(p) for p in (root / top).rglob("*.px[di]")}
    owned = {row.split(",")[0] for row in (common.read_text(Path(package.dist_info) / "RECORD") or "").splitlines()}
    found = {name: path for name, path in found.items() if name in owned} if owned & found.keys() else found
    found |= {extra: str(root / extra) for extra in extras if (root / extra).is_file()}
    return found | {f"dist-info/{n}": str(Path(package.dist_info) / n) for n in ("METADATA", "RECORD")}


def sha256_of(path: str) -> str:
    """sha256 of a file; of a RECORD, of its package's own lines (a console script's names its venv)."""
    if Path(path).name != "RECORD":
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    lines = [ln for ln in Path(path).read_text(errors="replace").splitlines() if ln and "__pycache__" not in ln]
    own = sorted(ln for ln in lines if not ln.startswith("../") and ".dist-info/" not in ln.split(",")[0])
    return hashlib.sha256("\n".join(own).encode()).hexdigest()


def links_on_the_way(path: str) -> dict[str, str]:
    """Every symbolic link followed to reach ``path``, with its target as written."""
    found: dict[str, str] = {}
    pending, current = list(Path(path).parts[1:]), Path(Path(path).anchor)
    while pending and len(found) < 64:
        part = pending.pop(0)
        candidate = current.parent if part == ".." else current / part
        target = common.readlink(str(candidate)) if part not in (".", "..") else None
        if target is None:
            current = current if part == "." else candidate
        else:
            found[str(candidate)] = target
            current = Path(Path(target).anchor) if Path(target).is_absolute() else current
            pending = [*Path(target).parts[1 if Path(target).is_absolute() else 0 :], *pending]
    return found


def configured_ninja() -> str | None:
    """The ninja of this build: $NINJA, else the one beside the build's Python (a venv's), else PATH's first, a
    pyenv shim resolved as the shell resolves it now (``pyenv which``; one that runs none is passed over)."""
    if os.environ.get("NINJA"):
        return shutil.which(os.environ["NINJA"])
    beside = Path(sys.executable).parent / "ninja"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    for directory in filter(None, os.environ.get("PATH", "").split(os.pathsep)):
        found = shutil.which("ninja", path=directory)
        head = Path(found).read_bytes()[:4096].decode(errors="replace") if found else ""
        if "pyenv" in head:  # a shim: what it runs now, else nothing
            shim = re.search(r'^exec "([^"]+/libexec/pyenv)" exec', head, re.M)
            which = subprocess.run([shim.group(1), "which", "ninja"], capture_output=True, text=True) if shim else None
            found = which.stdout.strip() if which and which.returncode == 0 else None
        if found:
            return found
    return None


def ninja_version(ninja: str) -> str:
    try:
        result = subprocess.run([ninja, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


def check_directory_name(build_dir: Path, toolkit: probe.Toolkit, request: Request) -> None:
    """A build directory named for a major (build-cu13) keeps it, unless one is asked for explicitly."""
    named = re.search(r"(?:^|[-_.])cu(\d{2})(?:$|[-_.])", build_dir.name)  # a CUDA major has two digits
    if named and request.cuda_major == "auto" and int(named.group(1)) != toolkit.major:
        hint = probe.stop_pointing(toolkit, request) or probe.venv_hint(int(named.group(1)))
        raise ProbeError(
            f"{build_dir.name}'s name says CUDA {named.group(1)}, but the headers found (via {toolkit.found_via}) are "
            f"CUDA {toolkit.major}.{toolkit.minor}: {hint}, or pass -Dcuda-major={toolkit.major} to build CUDA "
            f"{toolkit.major} in it"
        )


def pinned_toolkit(pin: record.Record) -> probe.Toolkit:
    """The headers the record pins, read again; where a pinned directory is gone (a link removed), the real directory
    its headers were read from at the last check, if that still holds them."""
    if not (Path(pin.sources["cuda.h"]) / "cuda.h").is_file():
        headers = pin.inputs["header"]
        real = {d: os.path.dirname(headers[h][0]) for h, d in pin.sources.items() if h in headers}
        if not all((Path(real.get(d, d)) / h).is_file() for h, d in pin.sources.items()):
            raise ProbeError(
                f"the CUDA headers pinned for this build directory are gone ({pin.sources['cuda.h']}/cuda.h): restore "
                "them, or set the build directory up again with `meson setup --wipe BUILDDIR`"
            )
        pin = dataclasses.replace(pin, include_dirs=[real.get(d, d) for d in pin.include_dirs])
    return probe.select_headers([*map(Path, pin.include_dirs)], pin.found_via)


def derive(
    build_dir: Path, request: Request, compiler: list[str], pin: record.Record | None, keep_ninja: bool = False
) -> tuple[record.Record, dict]:
    """The environment of ``build_dir`` (the pinned toolkit, read again), and each input's stat."""
    toolkit = pinned_toolkit(pin) if pin else probe.find_toolkit(request)
    probe.check_toolkit(toolkit, request)
    check_directory_name(build_dir, toolkit, request)
    bindings = probe.check_bindings(toolkit, request, pin.bindings_root if pin else "")
    # The ninja configure found; a check, which ninja runs however it was invoked, keeps it.
    ninja = pin.inputs["ninja"].get("ninja", [None])[0] if keep_ninja and pin else configured_ninja()
    cython = probe.find_cython()
    found = {
        "header": header_closure(compiler, toolkit),
        "bindings": package_files(bindings, "cuda", "cuda/bindings/_version.py"),
        "cython": package_files(cython, "Cython/Includes", "Cython/Shadow.py"),
        "compiler": compiler_files(compiler),
        "python": {"python": sys.executable},
        "ninja": {"ninja": ninja} if ninja else {},
    }
    cached, stats, inputs = record.read_stats(build_dir)["files"], {"files": {}, "links": {}}, {r: {} for r in found}
    for role, files in found.items():
        for name, path in sorted(files.items()):
            if odd := next((ODD[c] for c in ODD if c in path), None):
                raise ProbeError(
                    f"the path of {role} input {name} ({path!r}) holds {odd}, which ninja cannot track: make a link "
                    f"to its directory whose path has none, and point the build at the link"
                )
            real = os.path.realpath(path)
            stats["files"][real] = common.hashed(real, cached.get(real), digest=sha256_of)
            inputs[role][name] = [real, stats["files"][real][5]]
            stats["links"].update(links_on_the_way(path))
    stats["ninja"] = [os.path.realpath(ninja), ninja_version(ninja)] if ninja else []
    return record.Record(
        request={"cuda_path": request.cuda_path, "cuda_major": request.cuda_major}, compiler=compiler,
        python_prefix=os.path.realpath(sys.prefix), cuda_version=toolkit.cuda_version, found_via=toolkit.found_via,
        include_dirs=toolkit.include_dirs, sources=toolkit.sources, bindings_version=bindings.version,
        bindings_root=os.path.realpath(bindings.root), cython_version=cython.version, inputs=inputs,
        compat=compat_choices(toolkit, bindings),
    ), stats  # fmt: skip


def environment(args: argparse.Namespace, pin_required: bool) -> tuple[record.Record, str]:
    """Derive and record the environment for configure or lay_out; the line that says what changed."""
    build_dir = args.build_dir.absolute()
    try:
        old = record.read(build_dir) if pin_required or (build_dir / record.CONFIG / record.RECORD).is_file() else None
    except record.RecordError as err:
        raise ProbeError(str(err)) from None
    same = old and old.request == {"cuda_path": args.cuda_path, "cuda_major": args.cuda_major}
    pin = old if pin_required or same and old.python_prefix == os.path.realpath(sys.prefix) else None
    request = Request(args.cuda_path, args.cuda_major, where=invocation_dir(build_dir))
    found, stats = derive(build_dir, request, args.compiler, pin, pin_required)
    nvidias = os.environ.get("CUDA_CORE_BUILD_MAJOR", "").strip()  # NVIDIA's setuptools build's variable
    if not pin_required and nvidias and args.cuda_major == "auto" and nvidias != str(found.major):
        raise ProbeError(
            f"CUDA_CORE_BUILD_MAJOR={nvidias} asks for CUDA {nvidias}, but the headers found (via {found.found_via}) "
            f"are CUDA {found.major}.{found.minor}, and this build takes its major from -Dcuda-major: use "
            f"-Dcuda-major={nvidias} (pip and uv: -Csetup-args=-Dcuda-major={nvidias})"
        )
    record.write(build_dir, found)
    common.write_if_changed(build_dir / record.CONFIG / record.STATS, json.dumps(stats) + "\n")
    changed = "; ".join(record.changes(old, found) if old else [])
    return found, f"cuda-core: the build's environment changed: {changed}: what reads it is rebuilt" if changed else ""


def configure(args: argparse.Namespace) -> None:
    """Record the environment, and print its summary, the step's outputs and what changed, for Meson."""
    config = args.build_dir.absolute() / record.CONFIG
    try:
        given = Path(f"/proc/{os.getppid()}/cmdline").read_bytes().decode(errors="replace").split("\0")
        # after a setup, `meson configure -D...` keeps them here
        given += (common.read_text(args.build_dir / "meson-private" / "cmd_line.txt") or "").splitlines()
        misspelled(given)
        found, changed = environment(args, pin_required=False)
    except ProbeError as err:
        if os.environ.get(SDIST_ONLY) == "1":  # `meson dist` configures, and an sdist needs no CUDA: nothing recorded
            outputs = " ".join([*STAMPS, *facts.REQUIRED_HEADERS, *COMPAT])
            print(f"cuda-core: configured for an sdist alone: it needs no CUDA headers or cuda-bindings\n{outputs}\n\n")
            return
        setup = [(args.build_dir / name).is_file() for name in ("meson-private/cmd_line.txt", "build.ninja")]
        wiped = setup == [True, False] and not (config / record.RECORD).is_file()  # by `meson setup --wipe`
        gone = f" ({args.build_dir.name} was emptied by `meson setup --wipe` before this check: its previous build is gone and is rebuilt in full once this is fixed)"
        raise ProbeError(f"{err}{gone if wiped else ''}") from None
    outputs = " ".join([*STAMPS, *facts.REQUIRED_HEADERS, *found.compat])
    print(f"{found.summary()}\n{outputs}\n{changed}\n{compiler_through_a_link(args.compiler, args.build_dir)}")


def compiler_through_a_link(compiler: list[str], build_dir: Path) -> str:
    """A warning when Meson runs the compiler (or ccache) by a path through a directory link: Meson keeps that
    path in every compile command, so removing the link stops the build; '' when none."""
    for part in (p for p in compiler if os.path.isabs(p)):
        if links := [link for link in links_on_the_way(part) if link != part]:
            return (
                f"cuda-core: Meson runs {part} through the link {links[0]}, and keeps that path in every compile "
                f"command: the build stops if the link goes; to build without it, set up with the real path first "
                f"on PATH: PATH={os.path.dirname(os.path.realpath(part))}:$PATH meson setup --wipe {build_dir}"
            )
    return ""


def lay_out(args: argparse.Namespace) -> None:
    """Lay the environment out in cuda-config/: ninja runs this when sources.py's stamp of its stats moved."""
    found, changed = environment(args, pin_required=True)
    print(changed, end="\n" * bool(changed), flush=True)
    config = args.build_dir.absolute() / record.CONFIG
    # The headers and _compat variants by name; of bindings and Cython, their .pxd and .pxi files alone, no stale one.
    copies = {name: path for name, (path, _) in found.inputs["header"].items()}
    copies |= {name: str(PACKAGE / "_compat" / variant / name) for name, variant in found.compat.items()}
    for role, top in (("bindings", ""), ("cython", "Cython/Includes/")):
        pxd = {n: p for n, (p, _) in found.inputs[role].items() if n.endswith((".pxd", ".pxi"))}
        copies |= {f"{role}/{name.removeprefix(top)}": path for name, path in pxd.items()}
    for name, path in copies.items():
        common.write_if_changed(config / name, Path(path).read_bytes())
    old = [p for role in ("bindings", "cython") for p in (config / role).rglob("*") if p.is_file()]
    for stale in (p for p in old if p.relative_to(config).as_posix() not in copies):
        stale.unlink(missing_ok=True)  # another check at once may have taken it
    if common.readlink(str(config / "source")) != str(PACKAGE):  # included .pxi files: one name anywhere
        partial = config / f".source.{os.getpid()}"  # made aside and renamed: two checks at once both succeed
        partial.unlink(missing_ok=True)
        partial.symlink_to(PACKAGE)
        os.replace(partial, config / "source")
    common.write_if_changed(config / "cython.stamp", found.digest("cython", "bindings") + "\n")
    common.write_if_changed(config / "cyutility.stamp", found.digest("cython") + "\n")
    extra = tuple(name for name in found.inputs["header"] if name not in facts.REQUIRED_HEADERS)
    toolchain = found.digest("compiler", "python") + (found.digest("header", names=extra) if extra else "")
    common.write_if_changed(config / "toolchain.h", f"/* cuda-core: compiler, Python and headers: {toolchain} */\n")


def build_info(args: argparse.Namespace) -> None:
    """_build_info.py: the record's facts, the build's options, the version, a digest of the sources."""
    files, digest, root = [Path(p) for p in common.package_files()], hashlib.sha256(), common.PACKAGE_ROOT
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    values = {**record.read(args.build_dir).facts(), "buildtype": args.buildtype, "coverage": args.coverage == "true"}
    text = '"""What this build of cuda.core was built for, written at build time."""\n\n'
    text += f"version = {args.package_version!r}\n" + "".join(f"{k} = {v!r}\n" for k, v in values.items())
    text += f"source_digest = {digest.hexdigest()!r}  # sha256 of the cuda_core/ sources\n"
    common.write_if_changed(args.out, text)
    # The sources by their content stamps (the first step's), not by path: a touched one is no change.
    stamps = [sources.STAMPS / sources.stamp_name(path) for path in files]
    common.write_depfile(args.depfile, args.out, [Path(record.CONFIG, record.RECORD), *stamps])


# Each header's enum of error codes; a documented member: its doxygen comment, then NAME = value.
ENUMS = {"cuda.h": "typedef enum cudaError_enum", "driver_types.h": "enum __device_builtin__ cudaError"}
MEMBER = re.compile(r"/\*\*(?P<doc>(?:(?!\*/).)*)\*/\s*(?P<name>\w+)\s*=\s*(?P<value>0x[0-9a-fA-F]+|\d+)", re.S)


def explanations(args: argparse.Namespace) -> None:
    """Each CUresult's and cudaError_t's doc, plain: for cuda-bindings whose enums carry none (13.0, 13.1, <12.9.6)."""
    for (name, start), out in zip(ENUMS.items(), (args.driver_out, args.runtime_out)):
        text = Path(args.include, name).read_text(encoding="utf-8", errors="replace")
        table: dict[int, str] = {}
        for member in MEMBER.finditer(text[text.index(start) : text.index("}", text.index(start))]):
            doc = " ".join(line.strip().lstrip("*").strip() for line in member.group("doc").splitlines())
            doc = doc.replace("\\deprecated", "[Deprecated]").replace("\\note", "Note:")
            doc = re.sub(r"\\(?:p|e|c|b|a|ref)\s+", "", doc)
            table.setdefault(int(member.group("value"), 0), " ".join(re.sub(r"::(?=\w)", "", doc).split()))
        module = f'"""Explanations of CUDA error codes, generated at build time from {name}."""\n\n'
        common.write_if_changed(out, module + f"EXPLANATIONS: dict[int, str] = {pprint.pformat(table, width=110)}\n")
    common.write_depfile(args.depfile, args.driver_out, [f"{args.include}/{name}" for name in ENUMS])


def main(argv: list[str]) -> int:
    steps = {"configure": configure, "lay_out": lay_out, "build_info": build_info, "explanations": explanations}
    step = argv[0] if argv and argv[0] in steps else "steps"
    parser = OneLineParser(prog=f"cuda_core_build.{step}", description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=steps)
    parser.add_argument("--build-dir", type=Path, required=True)
    parser.add_argument("--compiler", action="append", default=[], help="the C++ compiler as Meson runs it")
    parser.add_argument("--cuda-major", default="auto", help="auto, or the CUDA major the headers must have")
    parser.add_argument("--coverage", default="false", choices=("true", "false"))
    for option in ("--cuda-path", "--include", "--buildtype", "--package-version"):
        parser.add_argument(option, default="")
    for option in ("--depfile", "--out", "--driver-out", "--runtime-out"):
        parser.add_argument(option, type=Path)
    args = parser.parse_args(argv)
    probe.drop_editable_finders()
    try:
        steps[args.step](args)
    except (ProbeError, OSError) as err:
        why = f"cannot write the build's files ({err}): check the build directory" if isinstance(err, OSError) else err
        print(f"{parser.prog}: error: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
