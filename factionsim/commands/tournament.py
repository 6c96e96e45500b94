"""``factionsim tournament``: agents play N games with seats rotated; win rates, pairwise table,
ratings (see :mod:`factionsim.tournament`). Writes OUT/results.json and OUT/results.csv.
``--backend ray [--address ADDR]`` runs the games as Ray tasks (same results, game for game)."""

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
    p = add_command(subparsers, "tournament")
    p.add_argument("--agents", required=True,
                   help="comma-separated agent names, e.g. random,heuristic,planner")
    p.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    add_campaign_arguments(p, "--campaign")
    p.add_argument("--turns", type=int, default=None,
                   help="turns per game (default: the campaign's own max_turns, else 20)")
    p.add_argument("--seed", type=seed, default=0, help="master seed (default 0)")
    add_backend_arguments(p, "games")
    p.add_argument("--budget", type=int, default=None, help="planner rollouts per decision")
    p.add_argument("--agent-options", action="append", default=[], metavar="AGENT:OPTION=VALUE",
                   help="an option for one of --agents in every seat it holds (repeat the flag "
                        "for more), e.g. trained:deterministic=true, planner:budget=8, "
                        "policy:PATH:deterministic=true; VALUE is read as YAML; the options an "
                        "agent takes are those of its agent_options in a campaign file")
    p.add_argument("--out", default="tournament-out", help="output folder (default tournament-out)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_trust_argument(p)
    p.set_defaults(func=_cmd_tournament)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from factionsim.core.files import write_atomic
    from factionsim.core.game import FactionsimError
    from factionsim.tournament import format_table, parse_agent_options, run_tournament, to_csv

    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        raise FactionsimError("--agents needs at least one agent name")
    if args.games < 1 or (args.turns is not None and args.turns < 1):
        raise FactionsimError("--games and --turns must be at least 1")
    workers = resolve_workers(args)
    options = {"planner": {"budget": args.budget}} if args.budget else {}
    for agent, given in parse_agent_options(args.agent_options).items():
        options[agent] = {**options.get(agent, {}), **given}
    with progress_bar(args, args.games, "tournament", "game") as progress:
        result = run_tournament(agents, args.games, campaign=args.campaign, turns=args.turns,
                                seed=args.seed, workers=workers, agent_options=options,
                                progress=progress, backend=args.backend,
                                address=args.address, ruleset=args.ruleset)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "results.json", json.dumps(result, indent=2) + "\n")
    write_atomic(out / "results.csv", to_csv(result))
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k != "results"}))
    else:
        print(format_table(result))
        print(f"wrote {out}/results.json and {out}/results.csv")
    return 0
