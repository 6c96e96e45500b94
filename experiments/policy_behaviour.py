"""How a WWN policy plays over long games, next to the heuristic: its action mix, its goals, and
whether it stalls (issue 21: a win rate alone can hide a policy that passes every turn).

    python experiments/policy_behaviour.py --policy runs/league-wwn/policy.json
    python experiments/policy_behaviour.py --policy trained --games 20 --turns 60

Games of the bundled campaign (or ``--campaign``), ``--turns`` turns each (longer than training's
games), the policy in two seats and ``--rival`` in the other two, seats rotated over the games.
Printed as one JSON object, for the policy and for the rival side by side:

- ``faction_actions``: the share of faction turns given to each of the seven faction actions of
  6.6.0 and ``pass`` (``action KIND`` decisions);
- ``decisions``: the count of every decision type (attack, move, goal, raise, use-ability,
  done, decline...), per faction turn;
- ``turns_with_a_faction_action``: the share of the side's faction-turns in which it reached
  its faction action at all (in WWN adopting a new goal takes the faction's turn: a policy
  that keeps changing goals never acts);
- ``goals_adopted`` and ``goals_kept``: how often a goal was chosen anew / kept at the goal
  decision, and the distinct goals chosen;
- ``stalls``: the longest run of consecutive turns in which a faction of that side passed its
  faction action, and the share of faction-turns that were a pass; ``no_progress``: the longest
  run of turns without a score gain, averaged over the side's factions;
- ``score``: the mean final score, and ``share``: how often the side's best faction finished
  above the other side's best (0.5 a tie).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def behaviour(policy: str, rival: str, games: int, turns: int, campaign: str | None,
              seed: int) -> dict[str, Any]:
    from factionsim.agents import make_agent
    from factionsim.runner import CampaignTemplate

    template = CampaignTemplate.load(campaign, "wwn")
    name = policy if policy in ("trained", "heuristic", "planner", "random") \
        else f"policy:{policy}"
    sides = {"policy": make_agent(name, "wwn"), "rival": make_agent(rival, "wwn")}
    stats = {s: {"faction_actions": Counter(), "decisions": Counter(), "goals": Counter(),
                 "kept": 0, "adopted": 0, "stall": [], "no_progress": [], "score": [],
                 "share": [], "turns": 0, "acted": 0} for s in sides}
    for g in range(games):
        _one_game(template.new_game(seed, g), g, turns, sides, stats)
    out: dict[str, Any] = {"policy": policy, "rival": rival, "games": games, "turns": turns}
    for sname, s in stats.items():
        n_turns = max(1, s["turns"])
        fa = sum(s["faction_actions"].values()) or 1
        out[sname] = {
            "faction_actions": {k: round(v / fa, 3) for k, v in s["faction_actions"].most_common()},
            "decisions_per_faction_turn": {k: round(v / n_turns, 2)
                                           for k, v in s["decisions"].most_common()},
            "faction_turns": s["turns"],
            "turns_with_a_faction_action": round(s["acted"] / n_turns, 3),
            "goals_adopted": s["adopted"], "goals_kept": s["kept"],
            "distinct_goals": dict(s["goals"].most_common()),
            "longest_pass_streak": max(s["stall"], default=0),
            "pass_share": round(s["faction_actions"]["pass"] / fa, 3),
            "longest_no_progress_mean": round(sum(s["no_progress"]) / max(1, len(s["no_progress"])), 1),
            "mean_final_score": round(sum(s["score"]) / max(1, len(s["score"])), 2),
            "share": round(sum(s["share"]) / max(1, len(s["share"])), 3)}
    return out



def _one_game(state: Any, g: int, turns: int, sides: dict[str, Any],
              stats: dict[str, Any]) -> None:
    """Play one game (the policy in two seats from seat ``g``), adding to ``stats``."""
    from factionsim.runner import play

    factions = list(state.factions)
    mine = {factions[(g + k) % len(factions)] for k in range(2)}
    side = {f: "policy" if f in mine else "rival" for f in factions}
    agents = {f: sides[side[f]] for f in factions}
    passes: dict[str, list[bool]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)

    def on_decision(faction: str, action: Any, agent: Any) -> None:
        s = stats[side[faction]]
        text = str(action)
        kind = text.split()[0]
        s["decisions"][kind] += 1
        if kind == "action":
            s["faction_actions"][action.kind] += 1
            passes[faction].append(action.kind == "pass")
        elif kind == "goal":
            s["adopted"] += 1
            s["goals"][action.goal] += 1
        elif text == "keep goal":
            s["kept"] += 1

    def on_turn(turn: int) -> None:
        for f, v in state.scores().items():
            scores[f].append(float(v))

    state.max_turns = state.turn + turns
    play(state, turns, agents, on_turn=on_turn, on_decision=on_decision)
    final = state.scores()
    for sname in sides:
        own = [f for f in factions if side[f] == sname]
        other = [f for f in factions if side[f] != sname]
        best, theirs = max(final[f] for f in own), max(final[f] for f in other)
        s = stats[sname]
        s["share"].append(1.0 if best > theirs else 0.5 if best == theirs else 0.0)
        for f in own:
            s["score"].append(float(final[f]))
            s["stall"].append(_longest(passes[f]))
            s["turns"] += len(scores[f])
            s["acted"] += len(passes[f])
            gains = [b <= a for a, b in zip(scores[f], scores[f][1:], strict=False)]
            s["no_progress"].append(_longest(gains))


def _longest(flags: list[bool]) -> int:
    """The longest run of True.

    >>> _longest([True, False, True, True]), _longest([])
    (2, 0)
    """
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--policy", default="trained", help="a policy .json, or an agent name")
    p.add_argument("--rival", default="heuristic")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--turns", type=int, default=60)
    p.add_argument("--campaign", default=None)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    print(json.dumps(behaviour(a.policy, a.rival, a.games, a.turns, a.campaign, a.seed),
                     indent=1))


if __name__ == "__main__":
    main()
