# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""What the user asked a build for, parsed once (Meson takes ``-Dcuda_major`` silently); messages spell the options
as that user does."""

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cuda_core_build import common, facts

ConfigSettings = dict[str, Any] | None
# Meson keeps option names that start with a language (cuda is one) and takes such a -D without a word.
MISSPELLED = {"cuda_major": "cuda-major", "cuda_path": "cuda-path"}


class ProbeError(Exception):
    """A refusal of the build; its message is the one line that names the cause and the fix."""


@dataclass(frozen=True)
class Request:
    cuda_path: str = ""  # an os.pathsep list of toolkit roots, as given
    cuda_major: str = "auto"
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ), compare=False, repr=False)
    where: str = field(default_factory=os.getcwd, compare=False)  # what a relative root is taken from
    path_option: str = "-Dcuda-path"
    major_option: str = "-Dcuda-major"

    @property
    def major(self) -> int | None:
        """The major asked for (None: auto); an unsupported one is refused."""
        if self.cuda_major == "auto":
            return None
        if self.cuda_major.isdigit() and int(self.cuda_major) in facts.supported_majors():
            return int(self.cuda_major)
        choices = ", ".join(["auto", *map(str, facts.supported_majors())])
        raise ProbeError(f"{self.major_option}={self.cuda_major} is not a supported CUDA major: use one of {choices}")

    @property
    def pointed_at(self) -> tuple[str, str] | None:
        """(source, value) of the toolkit pointed at: the option, else CUDA_PATH, else CUDA_HOME."""
        given = [
            (self.path_option, self.cuda_path),
            *((n, self.environ.get(n, "")) for n in ("CUDA_PATH", "CUDA_HOME")),
        ]
        return next(((s, v) for s, v in given if v.strip()), None)


def invocation_dir(build_dir: str | os.PathLike[str] = "") -> str:
    """Where the user ran the tool that runs this: that process's cwd (Meson runs a step in the source directory, and
    $PWD is stale in a process started with another cwd); $PWD where meson-python ran Meson in ``build_dir``."""
    parent = common.readlink(f"/proc/{os.getppid()}/cwd")
    if parent and not (build_dir and os.path.realpath(parent) == os.path.realpath(build_dir)):
        return parent
    return os.environ.get("PWD") or os.getcwd()


def misspelled(args: list[str]) -> None:
    """Refuse a ``-Dcuda_major=N`` (or ``cuda_major = N`` as meson-private/cmd_line.txt keeps it) in ``args``."""
    for arg, after in zip(args, [*args[1:], ""]):
        name, _, value = (after if arg == "-D" else arg.removeprefix("-D")).partition("=")
        if name.strip() in MISSPELLED and value:
            right = f"-D{MISSPELLED[name.strip()]}={value.strip()}"
            raise ProbeError(
                f"-D{name.strip()} is no option of cuda-core: Meson takes it and ignores it (it keeps names that "
                f"start with a language, and cuda is one), so the build would not be for what you asked: use {right} "
                f"(pip and uv: -Csetup-args={right})"
            )


def setup_args(settings: ConfigSettings) -> list[str]:
    value = (settings or {}).get("setup-args", [])
    return [arg for item in ([value] if isinstance(value, str) else value) for arg in shlex.split(item)]


def meson_option(settings: ConfigSettings, name: str, default: str) -> str:
    """The value of ``-D<name>=...`` in ``setup-args``, the last one winning, as Meson reads them."""
    args, value = setup_args(settings), default
    for index, arg in enumerate(args):
        arg = "-D" + args[index + 1] if arg == "-D" and index + 1 < len(args) else arg
        value = arg.split("=", 1)[1] if arg.startswith(f"-D{name}=") else value
    return value


def from_settings(settings: ConfigSettings) -> Request:
    """The request of a PEP 517 build."""
    return Request(
        meson_option(settings, "cuda-path", ""), meson_option(settings, "cuda-major", "auto"), where=invocation_dir()
    )
