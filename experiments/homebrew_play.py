"""How the heuristic plays a campaign's own content: homebrew assets bought, homebrew transports
used, homebrew goals chosen and completed, over heuristic games of a campaign.

    python experiments/homebrew_play.py                              # tests/data/wwn_homebrew.yaml
    python experiments/homebrew_play.py CAMPAIGN --games 100 --turns 8

Game g plays with dice seeded g (and agent choices seeded g); prints one count per line.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import numpy as np

import factionsim
from factionsim.agents import make_agent

DEFAULT = Path(__file__).parent.parent / "tests" / "data" / "wwn_homebrew.yaml"


def play(path: Path, games: int, turns: int) -> Counter:
    counts: Counter = Counter()
    for seed in range(games):
        s = factionsim.load_campaign(path)
        s.rng, s.max_turns = np.random.default_rng(seed), turns
        agents = {f: make_agent("heuristic", "wwn") for f in s.factions}
        rng = np.random.default_rng(seed)
        while (actor := s.current_actor()) is not None:
            for e in s.apply(agents[actor].act(s.view(actor), s.legal_actions(), rng)):
                d = e.data
                if e.kind == "create" and s.asset_types[d["asset"].split("#")[0]].homebrew:
                    counts[f"bought {d['asset'].split('#')[0]}"] += 1
                elif e.kind == "ability" and d.get("effect") == "homebrew-transport":
                    counts["homebrew transports"] += 1
                elif e.kind in ("goal-chosen", "goal-complete", "goal-abandoned") \
                        and d.get("goal") in s.goal_types:
                    counts[f"{e.kind} {d['goal']}"] += 1
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("campaign", nargs="?", default=str(DEFAULT))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--turns", type=int, default=8)
    a = p.parse_args()
    for key, n in sorted(play(Path(a.campaign), a.games, a.turns).items()):
        print(f"{key}: {n}")


if __name__ == "__main__":
    main()
