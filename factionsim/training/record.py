"""What a run folder records so the run can be repeated: the command, the options, the versions.

``OUT/run.json`` holds ``command`` (``factionsim train`` with every option spelled out, see
:func:`factionsim.training.args.command_line`), ``argv`` (the command as typed), ``args``, the
versions of Python and of the libraries that shape the result, the git commit of the source tree
(with ``dirty: true`` when it had uncommitted changes), the platform and CPU count, and the start
time; ``OUT/command.txt`` is the command alone, ready to paste.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

#: distributions whose versions a run records
PACKAGES = ("factionsim", "numpy", "torch", "stable-baselines3", "sb3-contrib", "gymnasium",
            "pettingzoo")


def versions() -> dict[str, str | None]:
    """Python's and each of :data:`PACKAGES`'s version (``None``: not installed)."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_commit(where: Path | None = None) -> dict[str, Any] | None:
    """``{"commit": SHA, "dirty": bool}`` of the git tree holding factionsim's source (``None``
    for an install without one, or without git)."""
    where = where or Path(__file__).resolve().parents[2]
    if not (where / ".git").exists():  # an installed package (maybe inside another repo)
        return None
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True,
                             text=True, timeout=10, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                cwd=where, capture_output=True, text=True, timeout=10,
                                check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": sha, "dirty": bool(status.strip())}


def run_record(args: Any) -> dict[str, Any]:
    from .args import command_line

    return {"command": shlex.join(command_line(args)), "argv": list(sys.argv),
            "args": dataclasses.asdict(args), "versions": versions(), "git": git_commit(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}


def write_run_record(out: Path, args: Any) -> dict[str, Any]:
    """Write ``OUT/run.json`` and ``OUT/command.txt``; return the record."""
    from factionsim.core.files import write_atomic

    record = run_record(args)
    write_atomic(out / "run.json", json.dumps(record, indent=2) + "\n")
    write_atomic(out / "command.txt", record["command"] + "\n")
    return record
