"""Command-line options several commands share, each checked once with a clear message: the
seed, counts, ``--wait``, which ruleset, where games run; and :func:`add_command`, which declares
a command with its texts from ``texts.yaml``.

A bad value is refused by argparse itself: exit code 2 and a usage line naming the option, never
a traceback later (a negative ``--seed`` reached numpy and crashed there).

>>> seed("42"), positive("3"), whole_number(1, 8)("4")
(42, 3, 4)
>>> seed("-1")
Traceback (most recent call last):
argparse.ArgumentTypeError: -1 is too small; a seed is a whole number from 0 to 9223372036854775807
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

from factionsim.core.dice import MAX_SEED
from factionsim.core.game import FactionsimError
from factionsim.core.ruleset import DEFAULT_RULESET


@functools.cache
def command_texts() -> dict[str, dict[str, str]]:
    """Each command's ``help`` line and ``description`` (``texts.yaml``), keyed by its name
    (``"COMMAND SUB"`` for a sub-command)."""
    import yaml

    text = resources.files(__package__).joinpath("texts.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def add_command(subparsers: Any, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """Add command ``name`` (``"COMMAND SUB"``: sub-command SUB of COMMAND) to ``subparsers``,
    with its help line and description from ``texts.yaml``; ``kwargs`` go to ``add_parser``."""
    texts = command_texts()[name]
    return subparsers.add_parser(name.rpartition(" ")[2], help=texts["help"],
                                 description=texts.get("description"), **kwargs)


def _whole(text: str, lowest: int, highest: int | None, allowed: str) -> int:
    """``text`` as a whole number from ``lowest`` to ``highest``, or a usage error that says
    what is ``allowed``."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    try:
        value = int(text.strip()) if len(text) <= 100 else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number; {allowed}") from None
    if value < lowest:
        raise argparse.ArgumentTypeError(f"{shown} is too small; {allowed}")
    if highest is not None and value > highest:
        raise argparse.ArgumentTypeError(f"{shown} is too large; {allowed}")
    return value


def seed(text: str) -> int:
    """``--seed``: a whole number from 0 to :data:`MAX_SEED`."""
    return _whole(text, 0, MAX_SEED, f"a seed is a whole number from 0 to {MAX_SEED}")


def whole_number(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``lowest`` to ``highest`` (``new --max-turns``)."""

    def parse(text: str) -> int:
        return _whole(text, lowest, highest, f"give a whole number from {lowest} to {highest}")

    parse.__name__ = "whole number"  # what argparse names in "invalid ... value"
    return parse


def positive(text: str) -> int:
    """A whole number of 1 or more (``--turns`` of turn, undo and redo)."""
    return _whole(text, 1, None, "give 1 or more")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 86400:  # also refuses nan
        raise argparse.ArgumentTypeError("must be between 0 and 86400 seconds")
    return value


def add_wait_argument(p: argparse.ArgumentParser) -> None:
    """``--wait SECONDS``: how long to wait for another command that is writing the campaign."""
    p.add_argument("--wait", type=_seconds, default=0.0, metavar="SECONDS",
                   help="if another factionsim command is writing the campaign, wait up to "
                   "SECONDS for it to finish (default 0: stop at once with a message)")


def add_quiet_and_json(p: argparse.ArgumentParser, json: str = "print the result as JSON",
                       quiet: str = "print nothing") -> None:
    """``--quiet`` and ``--json`` (in that order in the help), with their help texts."""
    p.add_argument("--quiet", action="store_true", help=quiet)
    p.add_argument("--json", action="store_true", help=json)


def add_ruleset_argument(p: argparse.ArgumentParser, what: str = "the bundled campaign") -> None:
    """``--ruleset NAME``: the ruleset of ``what`` when no campaign file is given."""
    p.add_argument("--ruleset", default=DEFAULT_RULESET,
                   help=f"ruleset of {what} when no campaign file is given (default "
                   f"{DEFAULT_RULESET}): wwn, houses, engagements or conflict")


def add_campaign_arguments(p: argparse.ArgumentParser, name: str = "campaign") -> None:
    """A campaign file of any ruleset (the argument ``CAMPAIGN``, or the option ``name``
    ``--campaign``), left out for the bundled campaign of ``--ruleset``."""
    optional = {} if name.startswith("-") else {"nargs": "?"}
    p.add_argument(name, **optional, default=None,
                   help="campaign file of any ruleset (default: the bundled one of --ruleset)")
    add_ruleset_argument(p)


def add_backend_arguments(p: argparse.ArgumentParser, jobs: str) -> None:
    """``--workers``, ``--backend`` and ``--address``: how many ``jobs`` (``"games"``,
    ``"histories"``...) are played at once, and where (:func:`resolve_workers` reads them)."""
    p.add_argument("--workers", type=int, default=None,
                   help=f"{jobs} in parallel (default: 1 locally, every CPU of the Ray cluster)")
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


@contextlib.contextmanager
def progress_bar(args: argparse.Namespace, total: int, desc: str,
                 unit: str) -> Iterator[Callable[[], Any] | None]:
    """A progress bar on stderr for ``total`` jobs (``"game"``, ``"run"``...), unless ``--quiet``
    or ``--json``: yields its ``update`` (or ``None``). The bar is closed and its line cleared
    however the block ends, so that an error raised before or during the jobs (an unknown agent
    in the campaign...) is printed on a line of its own, not after a half-drawn bar."""
    if args.quiet or getattr(args, "json", False):
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False)
    try:
        yield bar.update
    finally:
        bar.close()
