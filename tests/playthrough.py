"""Golden playthroughs (as OpenSpiel's ``playthroughs/*.txt``): one fixed-seed game of every bundled
campaign, recorded as text and checked in, so that any change of outcome shows in a diff and is
explained in its commit.

    python -m tests.playthrough            # compare every recording with a fresh game
    python -m tests.playthrough --regen    # rewrite tests/playthroughs/*.txt
    pytest --regen-playthroughs            # the same, from pytest (tests/test_playthroughs.py)

Regenerate when a change of outcome is intended (a rule fixed, a campaign edited), read the diff,
and say in the commit why the games changed.

The recorder needs only the engine contract (``current_actor``, ``legal_actions``, ``apply``,
``to_dict``, the ``rng`` and ``max_turns`` fields), so it plays every ruleset alike: the dice come
from ``numpy.random.default_rng(DICE_SEED)``, each decision is a uniform choice among the legal
actions drawn from ``default_rng(CHOICE_SEED)`` (see ``PREFER`` and ``AVOID``), and the game
stops after ``TURNS`` turns or ``MAX_DECISIONS`` decisions. A
recording lists the events before the first decision, then for every decision the actor, how
many actions were legal, the choice, the events it caused (dice included, as compact JSON) and a
digest of the whole state after it (the first 16 hex digits of the SHA-256 of ``to_dict()`` as
sorted JSON).
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml

DICE_SEED = 20240601
CHOICE_SEED = 7
TURNS = 6
MAX_DECISIONS = 200  # (a recording stops there: a small file)
#: Per ruleset, a decision taken whenever it is legal (PREFER) and decisions skipped whenever
#: something else is (AVOID): a WWN faction that picks uniformly abandons its goal at most goal
#: steps and then sits paralysed, so the WWN game keeps its goals and never passes (it fights,
#: builds and spends instead).
PREFER = {"wwn": ("keep goal",)}
AVOID = {"wwn": ("action pass",)}
HERE = Path(__file__).resolve().parent / "playthroughs"
REGEN_HINT = "python -m tests.playthrough --regen (or pytest --regen-playthroughs)"


def bundled_campaigns() -> list[str]:
    """File names of the bundled campaigns (every ruleset's), sorted."""
    root = resources.files("factionsim.configs")
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".yaml"))


def recording_path(campaign: str) -> Path:
    return HERE / (campaign.removesuffix(".yaml") + ".txt")


def digest(state: Any) -> str:
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _event_lines(events: list[Any]) -> Iterator[str]:
    for e in events:
        yield "  " + json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":"), default=str)


def record(campaign: str) -> str:
    """The recording of bundled ``campaign`` (a file name in ``factionsim.configs``)."""
    from factionsim.rulesets import load_campaign

    path = resources.files("factionsim.configs").joinpath(campaign)
    ruleset = yaml.safe_load(path.read_text(encoding="utf-8"))["ruleset"]
    state = load_campaign(str(path))
    state.rng = np.random.default_rng(DICE_SEED)
    state.max_turns = state.turn + TURNS
    choose = np.random.default_rng(CHOICE_SEED)
    avoid, prefer = AVOID.get(ruleset, ()), PREFER.get(ruleset, ())
    lines = [f"# golden playthrough of configs/{campaign} (ruleset {ruleset})",
             f"# dice seed {DICE_SEED}, choice seed {CHOICE_SEED} (uniform among the legal "
             f"actions), at most {TURNS} turns and {MAX_DECISIONS} decisions",
             f"# regenerate: {REGEN_HINT}",
             f"start digest={digest(state)}"]
    lines += _event_lines(state.advance())
    n = 0
    while (actor := state.current_actor()) is not None and n < MAX_DECISIONS:
        legal = state.legal_actions()
        pool = [a for a in legal if str(a) in prefer] or \
            [a for a in legal if str(a) not in avoid] or legal
        choice = pool[int(choose.integers(len(pool)))]
        n += 1
        lines.append(f"decision {n} turn={state.turn + 1} actor={actor} legal={len(legal)} "
                     f"choice={str(choice)!r}")
        lines += _event_lines(state.apply(choice))
        lines.append(f"  digest={digest(state)}")
    scores = {k: round(float(v), 6) for k, v in state.scores().items()}
    lines.append(f"end turn={state.turn} decisions={n} scores={json.dumps(scores, sort_keys=True)}")
    return "\n".join(lines) + "\n"


def difference(campaign: str, fresh: str) -> str | None:
    """None when the checked-in recording equals ``fresh``; otherwise where they first differ."""
    path = recording_path(campaign)
    if not path.is_file():
        return f"{path} is missing; write it with {REGEN_HINT}"
    old = path.read_text(encoding="utf-8")
    if old == fresh:
        return None
    diff = list(difflib.unified_diff(old.splitlines(), fresh.splitlines(), str(path), "fresh game",
                                     n=2, lineterm=""))
    shown = "\n".join(diff[:40]) + ("\n..." if len(diff) > 40 else "")
    return (f"the game of configs/{campaign} no longer plays as recorded in {path}. If the change "
            f"is intended, regenerate with {REGEN_HINT} and explain it in the commit.\n{shown}")


def regenerate(campaigns: list[str] | None = None) -> list[Path]:
    HERE.mkdir(exist_ok=True)
    written = []
    for campaign in campaigns or bundled_campaigns():
        path = recording_path(campaign)
        path.write_text(record(campaign), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.playthrough", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regen", action="store_true", help="rewrite the recordings")
    parser.add_argument("campaigns", nargs="*", help="bundled campaign files (default: all)")
    args = parser.parse_args(argv)
    if args.regen:
        for path in regenerate(args.campaigns):
            print(f"wrote {path}")
        return 0
    failed = 0
    for campaign in args.campaigns or bundled_campaigns():
        problem = difference(campaign, record(campaign))
        print(f"{campaign}: " + ("as recorded" if problem is None else problem))
        failed += problem is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
