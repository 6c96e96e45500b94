"""Compare agents on the default campaign: heuristic vs random, planner vs heuristic, and the
planner's time per faction turn.

    python experiments/compare_agents.py                 # the full figures (200 games each)
    python experiments/compare_agents.py --games 20      # a quick look

Seats are rotated over the campaign's four factions (two seats per agent in each game); a
game is 20 turns; the winner is the faction with the best score (ties share the win). The
"beats" figure is the pairwise share: games in which the first agent's best faction finished
above the second agent's best faction.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, fields


@dataclass
class Args:
    games: int = 200  # games per comparison
    turns: int = 20  # turns per game
    seed: int = 0  # master seed (game g uses SeedSequence([seed, g]))
    workers: int = 2  # parallel processes
    budget: int = 0  # planner rollouts per searched decision (0: the planner's default)
    horizon: int = 2  # planner: turns simulated after the current one (its default)
    timing_turns: int = 20  # turns of one game used to time the planner
    skip_planner: bool = False
    out: str = "experiments-out/compare_agents.json"


def parse() -> Args:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for f in fields(Args):
        if f.type in (bool, "bool"):
            p.add_argument(f"--{f.name.replace('_', '-')}", action="store_true")
        else:
            p.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args()))


def planner_turn_times(args: Args) -> dict[str, float]:
    """Seconds the planner spends deciding per faction turn (2 planners, 2 heuristics): mean,
    90th percentile and most."""
    import numpy as np

    from factionsim import load_campaign
    from factionsim.agents import make_agent
    from factionsim.configs import default_campaign_path
    from factionsim.core.dice import reseed
    from factionsim.runner import play

    state = load_campaign(default_campaign_path())
    reseed(state, args.seed)
    spent: dict[tuple[str, int], float] = {}
    agents = {}
    for i, fid in enumerate(state.factions):
        if i % 2:
            agents[fid] = make_agent("heuristic", "wwn")
            continue
        planner = make_agent("planner", "wwn", **planner_options(args))
        act = planner.act

        def timed(view, legal, rng, act=act):
            t = time.perf_counter()
            try:
                return act(view, legal, rng)
            finally:
                key = (view.faction_id, view.turn)
                spent[key] = spent.get(key, 0.0) + time.perf_counter() - t

        planner.act = timed
        agents[fid] = planner
    play(state, args.timing_turns, agents)
    times = np.array(sorted(spent.values()))
    return {"mean": float(times.mean()), "p90": float(np.quantile(times, 0.9)),
            "max": float(times.max()), "faction_turns": len(times)}


def planner_options(args: Args) -> dict[str, int]:
    return {"horizon": args.horizon, **({"budget": args.budget} if args.budget else {})}


def main() -> None:
    from pathlib import Path

    from factionsim.tournament import format_table, run_tournament

    args = parse()
    figures: dict = {"args": asdict(args)}
    comparisons = [("heuristic", "random")]
    if not args.skip_planner:
        comparisons.append(("planner", "heuristic"))
    options = {"planner": planner_options(args)}
    for a, b in comparisons:
        t = time.time()
        r = run_tournament([a, b], args.games, turns=args.turns, seed=args.seed,
                           workers=args.workers, agent_options=options)
        print(format_table(r))
        share = r["pairwise"][a][b]["share"]
        print(f"==> {a} beats {b} in {share:.1%} of {r['games']} games "
              f"({a} win rate {r['agents'][a]['win_rate']:.1%}, {time.time() - t:.0f}s)\n")
        figures[f"{a}_vs_{b}"] = {"beats": share, "agents": r["agents"]}
    if not args.skip_planner:
        times = planner_turn_times(args)
        print(f"==> planner ({planner_options(args)}): per faction turn {times['mean']:.2f} s "
              f"mean, {times['p90']:.2f} s p90, {times['max']:.2f} s max "
              f"({times['faction_turns']} faction turns)")
        figures["planner_seconds_per_faction_turn"] = times
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
