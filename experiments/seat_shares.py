"""How much an agent gains in each seat of a campaign: the agent alone at one faction, the
baseline agent at every other, next to the baseline at every seat.

    python experiments/seat_shares.py --agent trained                 # the bundled campaign
    python experiments/seat_shares.py --agent trained --campaign my.yaml --games 100

A tournament of two agents over four factions rotates the seats, so each agent plays two
factions of every game, and a faction's win share under one agent also depends on which faction
the same agent plays beside it (with ``--agents heuristic,trained`` on the bundled campaign the
policy plays the Iron Legion in every game in which it plays the Veiled Hand). Here the agent
sits alone: for each faction, ``--games`` games with the agent at that faction and the baseline
at the others, and as many with the baseline everywhere, game ``g`` of both on the same dice
(``CampaignTemplate.new_game(seed, g)``). Printed per faction: the faction's win share (ties
shared) with the baseline and with the agent, the difference, and the 95% Wilson interval of the
agent's share; then one JSON object.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass
class Args:
    agent: str = "trained"  # the agent seated alone (any name of the agent registry)
    baseline: str = "heuristic"  # the agent at every other seat
    campaign: str = ""  # a campaign file ("": the bundled WWN campaign)
    games: int = 60  # games per seat, and of the baseline alone
    turns: int = 20  # turns per game (the tournament's default)
    seed: int = 0
    workers: int = 2


@dataclass(frozen=True)
class Job:
    template: Any
    agent: str
    baseline: str
    turns: int
    seed: int


def play_one(job: Job, item: tuple[str | None, int]) -> dict[str, float]:
    """Game ``g`` with ``job.agent`` at ``faction`` (``None``: the baseline everywhere); each
    faction's share of the win."""
    from factionsim.agents import make_agent
    from factionsim.core.stats import win_shares
    from factionsim.runner import play

    faction, g = item
    state = job.template.new_game(job.seed, g)
    state.max_turns = state.turn + job.turns
    agents = {f: make_agent(job.agent if f == faction else job.baseline, state.ruleset)
              for f in state.factions}
    play(state, job.turns, agents)
    return win_shares(state.scores())


def load(args: Args) -> tuple[Any, list[str]]:
    """The campaign's template and its factions in campaign order."""
    from factionsim.runner import CampaignTemplate

    template = CampaignTemplate.load(args.campaign or None, "wwn")
    return template, list(template.new_game(args.seed, 0).factions)


def seat_shares(args: Args, progress: Any = None,
                loaded: tuple[Any, list[str]] | None = None) -> dict[str, Any]:
    """Every faction's win share with the baseline everywhere and with the agent alone there
    (``loaded``: :func:`load`'s answer, where the caller has it already)."""
    from factionsim.backends import run_jobs
    from factionsim.core.stats import wilson
    from factionsim.models.trust import carry_trust

    template, factions = loaded or load(args)
    items = [(seat, g) for seat in [None, *factions] for g in range(args.games)]
    job = Job(template, args.agent, args.baseline, args.turns, args.seed)
    results = run_jobs(carry_trust(play_one), items, shared=job, workers=args.workers,
                       progress=progress)
    by_seat: dict[str | None, list[dict[str, float]]] = {}
    for (seat, _g), r in zip(items, results, strict=True):
        by_seat.setdefault(seat, []).append(r)
    rows = []
    for f in factions:
        base = sum(r[f] for r in by_seat[None]) / args.games
        alone = sum(r[f] for r in by_seat[f]) / args.games
        low, high = wilson(alone * args.games, args.games)
        rows.append({"faction": f, "baseline_share": round(base, 3),
                     "agent_share": round(alone, 3), "gain": round(alone - base, 3),
                     "agent_ci95": [round(low, 3), round(high, 3)]})
    return {"args": asdict(args), "seats": rows}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Args):
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=type(f.default),
                            default=f.default)
    args = Args(**vars(parser.parse_args(argv)))
    from tqdm import tqdm

    loaded = load(args)
    with tqdm(total=args.games * (len(loaded[1]) + 1), desc="games", unit="game") as bar:
        report = seat_shares(args, progress=bar.update, loaded=loaded)
    w = max(len("faction"), *(len(r["faction"]) for r in report["seats"]))
    print(f"{'faction':>{w}} {args.baseline + ' everywhere':>20} {args.agent + ' there':>16} "
          f"{'gain':>7}   95% interval")
    for r in report["seats"]:
        print(f"{r['faction']:>{w}} {r['baseline_share']:>20.3f} {r['agent_share']:>16.3f} "
              f"{r['gain']:>+7.3f}   {r['agent_ci95']}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
