"""Command-line options that several commands share: which ruleset, where games run."""

from __future__ import annotations

import argparse

from factionsim.core.game import FactionsimError
from factionsim.core.ruleset import DEFAULT_RULESET


def add_ruleset_argument(p: argparse.ArgumentParser, what: str = "the bundled campaign") -> None:
    """``--ruleset NAME``: the ruleset of ``what`` when no campaign file is given."""
    p.add_argument("--ruleset", default=DEFAULT_RULESET,
                   help=f"ruleset of {what} when no campaign file is given (default "
                   f"{DEFAULT_RULESET}): wwn, houses, engagements or conflict")


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address`` (``tournament`` and ``batch``)."""
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes (default) or Ray tasks (pip install 'factionsim[cluster]')")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join (e.g. auto or ray://head:10001; default: $RAY_ADDRESS, "
                   "else a local Ray instance)")


def resolve_workers(args: argparse.Namespace) -> int | None:
    """``--workers``: 1 by default locally; None (every CPU of the cluster) for Ray."""
    if args.workers is not None and args.workers < 1:
        raise FactionsimError("--workers must be at least 1")
    if args.address and args.backend != "ray":
        raise FactionsimError("--address needs --backend ray")
    return args.workers if args.workers is not None else (1 if args.backend == "local" else None)
