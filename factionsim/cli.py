"""The ``factionsim`` command line.

    factionsim run [CAMPAIGN] --turns N --seed S --out DIR   play N turns, write the results
    factionsim validate CAMPAIGN                             check a campaign file

Errors in campaign files are reported in one paragraph (file, field, line, allowed values) with
exit code 2, never a traceback. Heavy libraries are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

from factionsim.commands.numbers import SEED
from factionsim.core.game import FactionsimError

#: Modules that add a subcommand: each has ``add_parser(subparsers)`` and imports its heavy
#: dependencies only inside the command function.
COMMAND_MODULES: list[str] = [
    "factionsim.commands.batch",
    "factionsim.commands.gm",
    "factionsim.commands.show",
    "factionsim.commands.tools",
    "factionsim.commands.tournament",
    "factionsim.commands.train",
]


def _cmd_run(args: argparse.Namespace) -> int:
    import numpy as np

    from factionsim.chronicle import Names, render_markdown
    from factionsim.configs import default_campaign_path
    from factionsim.core.campaign import load_campaign, save_campaign, write_atomic
    from factionsim.runner import agents_from_campaign, event_lines, play

    path = Path(args.campaign) if args.campaign else default_campaign_path(args.ruleset)
    state = load_campaign(path)
    if args.seed is not None:
        state.seed = args.seed
        state.rng = np.random.default_rng(args.seed)
    elif state.seed is None:
        state.seed = int(np.random.SeedSequence().entropy % 2**32)
    agents = agents_from_campaign(state, source=path)
    start = state.turn
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=args.turns, desc=f"{state.name or path.name}", unit="turn",
                   file=sys.stderr, leave=False)
    events = play(state, args.turns, agents, on_turn=(lambda _t: bar.update(1)) if bar else None)
    if bar is not None:
        bar.close()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    save_campaign(state, out / "campaign.yaml")
    write_atomic(out / "events.jsonl", "".join(line + "\n" for line in event_lines(events)))
    title = f"{state.name or path.stem}: turns {start + 1}-{state.turn}"
    write_atomic(out / "chronicle.md", render_markdown(events, Names.from_state(state), title))
    summary = {
        "campaign": str(path), "turns_played": state.turn - start, "turn": state.turn,
        "seed": state.seed, "events": len(events), "out": str(out),
        "factions": faction_summary(state),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    elif not args.quiet:
        print(f"Played {summary['turns_played']} turn(s) of {state.name or path.name} "
              f"(now turn {state.turn}, seed {state.seed}); wrote {out}/campaign.yaml, "
              f"events.jsonl ({len(events)} events), chronicle.md")
        for fid, f in summary["factions"].items():
            details = ", ".join(f"{k} {v}" for k, v in f.items() if k != "alive")
            print(f"  {fid}: {details if f['alive'] else 'collapsed'}")
    return 0


def faction_summary(state: Any) -> dict[str, dict[str, Any]]:
    """Each faction's headline numbers: WWN's sheet, or the ruleset's own ``faction_summary()``."""
    if hasattr(state, "faction_summary"):
        return state.faction_summary()
    return {f.id: {"alive": f.alive, "hp": f.hp, "treasure": f.treasure, "xp": f.xp,
                   "goal": f.goal.id if f.goal else None} for f in state.factions.values()}


def _cmd_validate(args: argparse.Namespace) -> int:
    from factionsim.core.campaign import load_campaign

    state = load_campaign(Path(args.campaign))
    if getattr(state, "ruleset", "wwn") != "wwn":  # other rulesets: no map, no asset table
        print(f"{args.campaign}: valid {state.ruleset} campaign '{state.name}', turn {state.turn}, "
              f"{len(state.factions)} factions")
        return 0
    n_assets = len(state.assets)
    print(f"{args.campaign}: valid {state.ruleset} campaign '{state.name}', turn {state.turn}, "
          f"{len(state.factions)} factions, {len(state.map.locations)} locations, "
          f"{n_assets} assets")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="factionsim",
        description="Factions that play themselves: run tabletop faction turns automatically.",
    )
    parser.add_argument("--version", action="version", version="factionsim 0.1.0")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="play turns of a campaign and write the results",
                         description="Play N turns of CAMPAIGN (default: the bundled campaign) "
                         "and write DIR/campaign.yaml, DIR/events.jsonl and DIR/chronicle.md.")
    run.add_argument("campaign", nargs="?", help="campaign file (default: the bundled campaign)")
    run.add_argument("--ruleset", default="wwn", help="ruleset of the bundled campaign (default wwn)")
    run.add_argument("--turns", type=int, default=12, help="turns to play (default 12)")
    run.add_argument("--seed", type=SEED, default=None,
                     help="seed the dice (default: the campaign's own generator state or seed)")
    run.add_argument("--out", default="out", help="output folder (default ./out)")
    run.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    run.add_argument("--json", action="store_true", help="print the summary as JSON")
    run.set_defaults(func=_cmd_run)

    val = sub.add_parser("validate", help="check a campaign file and report the first problem")
    val.add_argument("campaign")
    val.set_defaults(func=_cmd_validate)
    for module in COMMAND_MODULES:
        import_module(module).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "turns", 1) is not None and getattr(args, "turns", 1) < 0:
        parser.error("--turns must be 0 or more")
    try:
        return args.func(args)
    except FactionsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the campaign file was not changed", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
