"""``factionsim batch CAMPAIGN --runs N --turns T --out DIR``: N independent histories of one
campaign (seeds derived from one master seed) and their statistics (see :mod:`factionsim.batch`).
``--backend ray [--address ADDR]`` plays them as Ray tasks; the results are the same."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from factionsim.commands.options import (
    add_backend_arguments,
    add_campaign_arguments,
    add_command,
    progress_bar,
    resolve_workers,
    seed,
)
from factionsim.models.trust import add_trust_argument


def add_parser(subparsers) -> None:
    p = add_command(subparsers, "batch")
    add_campaign_arguments(p)
    p.add_argument("--runs", type=int, default=100, help="histories to play (default 100)")
    p.add_argument("--turns", type=int, default=None,
                   help="turns per history (default: the campaign's own max_turns, else 12)")
    p.add_argument("--seed", type=seed, default=0, help="master seed (default 0)")
    p.add_argument("--out", default="batch-out", help="output folder (default batch-out)")
    add_backend_arguments(p, "histories")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no table")
    add_trust_argument(p)
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    from factionsim.batch import goals_and_finals, run_batch
    from factionsim.core.game import FactionsimError

    if args.runs < 1 or (args.turns is not None and args.turns < 1):
        raise FactionsimError("--runs and --turns must be at least 1")
    workers = resolve_workers(args)
    with progress_bar(args, args.runs, "batch", "run") as progress:
        summary = run_batch(args.campaign, args.runs, args.turns, seed=args.seed, out=args.out,
                            backend=args.backend, workers=workers, address=args.address,
                            progress=progress, ruleset=args.ruleset)
    out = Path(args.out)
    if args.json:
        print(json.dumps({k: v for k, v in summary.items() if k != "per_run"}))
    elif not args.quiet:
        print(f"{summary['runs']} runs of {summary['turns']} turns (seed {summary['seed']})")
        print(f"{'faction':<20}{'survival':>10}{'wins':>8}{'goals':>8}  final means")
        for fid, f in summary["factions"].items():
            goals, finals = goals_and_finals(f)
            print(f"{fid:<20}{f['survival_rate']:>10.1%}{f['win_rate']:>8.1%}{goals:>8}  {finals}")
        print("runs end: " + ", ".join(f"{k} {v:.0%}" for k, v in summary["endings"].items()))
        if summary.get("behaviour"):
            from factionsim.behaviour import behaviour_text

            print("\nHow they played (see summary.json's behaviour.metrics):")
            print(behaviour_text(summary["behaviour"], {}))
        print(f"wrote {out}/summary.html (open it in a browser), {out}/summary.json, "
              f"{out}/curves.csv and {summary['runs']} run folders")
    return 0
