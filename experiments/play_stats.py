"""How games of the three smaller rulesets are played: heuristic against heuristic on the bundled
scenarios, each played to its own end (its ``max_turns`` cap or the last one standing).

    python experiments/play_stats.py                      # 100 games per ruleset
    python experiments/play_stats.py --games 20 --ruleset houses
    python experiments/play_stats.py --agents random      # every faction played by `random`
    python experiments/play_stats.py --agents campaign    # the agents the scenario names

Printed per ruleset:

- **houses**: how games end (cap, last House standing), every collapse by cause (a rival's
  Stress or Trauma, or the House's own Trauma escalating on a recovery roll), Holdings seized
  and how many changed hands more than once in a season, the mix of House actions;
- **engagements**: how games end, collapses, engagements per game, their size (factions on the
  attacking side), the share of invitations accepted, the share of engagements with no counter
  and the share of engagements that defeated a pillar;
- **conflict**: how conflicts end (a side fell or fled, an objective, the round cap), the round
  in which they were decided, the attack mix (Blood / Guts, melee within 2 heights / ranged)
  and the attacks that hit;
- for every ruleset, its behaviour counts (those of ``factionsim batch``): the stall rate and each
  action's share, with 95% confidence intervals bootstrapped over games, and the actions never
  chosen.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

UNCAPPED = 12
CAMPAIGNS = {"houses": "configs/banteave_succession.yaml",
             "engagements": "configs/ashen_thrones.yaml",
             "conflict": "configs/conflict_bridge.yaml"}


def play_one(ruleset: str, game: int, seed: int, agent: str) -> tuple[Any, list[Any]]:
    """Play game ``game`` to its end; returns the final state and the (event, state position)
    pairs the statistics read (the state's data at the start is kept as ``state.start_data``,
    for the behaviour counts)."""
    from factionsim.agents import make_agent
    from factionsim.runner import CampaignTemplate, agent_rng, decide

    state = CampaignTemplate.load(CAMPAIGNS[ruleset]).new_game(seed, game)
    if state.max_turns is None:  # a scenario without an end is played for UNCAPPED turns
        state.max_turns = UNCAPPED
    agents = {fid: make_agent(f.agent, ruleset, **f.agent_options) if agent == "campaign"
              else make_agent(agent, ruleset) for fid, f in state.factions.items()}
    start = state.to_dict()
    rng = agent_rng(state)
    seen: list[Any] = []
    while not state.is_over():
        before = state.turn
        events: list[Any] = []
        if decide(state, agents, rng, events) is None:
            break
        for e in events:
            where = None
            if ruleset == "conflict" and e.kind == "attack":  # where both stood after it struck
                c, t = state.chars[e.data["char"]], state.chars[e.data["target"]]
                where = abs(c.position - t.position)
            seen.append((e, where))
        if state.turn != before:
            rng = agent_rng(state)
    seen += [(e, None) for e in state.advance()]
    state.start_data = start
    return state, seen


def ending(state: Any, events: list[Any]) -> str:
    """The reason the game ended (:func:`factionsim.core.ending.how_it_ended`)."""
    from factionsim.core.ending import how_it_ended

    return how_it_ended([e for e, _ in events], state)


def behaviour_stats(ruleset: str, games: list[tuple[Any, list[Any]]]) -> list[str]:
    """The ruleset's behaviour counts (as ``factionsim batch`` makes them): the stall rate and
    each action's share of the actions, with 95% CIs bootstrapped over games, and the actions
    never chosen."""
    from behaviour_stats import bootstrap

    from factionsim.behaviour import spec_of
    from factionsim.core.behaviour import summarise

    spec = spec_of(ruleset)
    per_game = []
    for state, events in games:
        tallies = spec.count([e for e, _ in events], state.start_data, state.to_dict(), 1)
        per_game.append(summarise(list(tallies.values()), spec) | {
            "_stalls": sum(t.counts.get("stalls", 0) for t in tallies.values()),
            "_turns": sum(len(t.turns) for t in tallies.values()),
            "_actions": {k[len("action_"):]: sum(t.counts.get(k, 0) for t in tallies.values())
                         for k in {c for t in tallies.values() for c in t.counts
                                   if c.startswith("action_")}}})
    stall = bootstrap([(g["_stalls"], g["_turns"]) for g in per_game])
    kinds = sorted({k for g in per_game for k in g["_actions"]} | set(spec.actions))
    totals = [sum(g["_actions"].values()) for g in per_game]
    shares = {k: bootstrap([(g["_actions"].get(k, 0), n) for g, n in zip(per_game, totals,
                                                                         strict=True)])
              for k in kinds}
    ranked = sorted(shares.items(), key=lambda kv: -kv[1][0])
    unused = [k for k in spec.actions if shares[k][0] == 0]
    return [f"stall rate: {stall[0]:.1%} [{stall[1]:.1%}, {stall[2]:.1%}] of "
            f"{sum(g['_turns'] for g in per_game)} faction turns",
            "action share: " + ", ".join(f"{k} {v[0]:.1%} [{v[1]:.1%}, {v[2]:.1%}]"
                                         for k, v in ranked),
            "never chosen: " + (", ".join(unused) or "none")]


def houses_stats(games: list[tuple[Any, list[Any]]]) -> list[str]:
    ends, causes, actions = Counter(), Counter(), Counter()
    seized = hot = 0
    for state, events in games:
        ends[ending(state, events)] += 1
        last_harm: dict[str, str] = {}
        hands: Counter = Counter()
        for e, _ in events:
            if e.kind == "turn-end":
                hot += sum(1 for n in hands.values() if n > 1)
                hands.clear()
            elif e.kind == "action" and e.data["action"] != "pass":
                actions[e.data["action"] + (" (free)" if e.data.get("free") else "")] += 1
            elif e.kind in ("trauma", "stress"):
                last_harm[e.faction] = "a rival's attack" if e.data.get("by") else "?"
            elif e.kind == "trauma-escalates":
                last_harm[e.faction] = "own Trauma recovery roll (hitch)"
            elif e.kind == "collapse":
                causes[last_harm.get(e.faction, "?")] += 1
            elif e.kind == "seized":
                seized += 1
                hands[e.data["asset"]] += 1
        hot += sum(1 for n in hands.values() if n > 1)
    total = sum(actions.values())
    return [f"games end: {dict(ends)}",
            f"collapses: {sum(causes.values())} -> {dict(causes)}",
            f"holdings seized: {seized} ({seized / len(games):.1f} per game); a holding changing "
            f"hands more than once in a season: {hot}",
            "actions: " + ", ".join(f"{k} {v / total:.0%}" for k, v in actions.most_common())]


def engagements_stats(games: list[tuple[Any, list[Any]]]) -> list[str]:
    ends, collapses = Counter(), Counter()
    sizes: Counter = Counter()
    invites = joins = engagements = no_counter = defeats = commissions = 0
    for state, events in games:
        ends[ending(state, events)] += 1
        parts = 1
        defeated_here = False
        aggressor = None
        cause: dict[str, str] = {}
        for e, _ in events:
            if e.kind in ("engage", "commission"):
                parts, defeated_here = 1, False
                commissions += e.kind == "commission"
                aggressor = e.faction if e.kind == "engage" else e.data["mercenary"]
            elif e.kind == "pillar-defeated" and e.data["pillars_left"] == 0:
                cause[e.faction] = ("its own fanaticism" if e.data["by"] is None else
                                    "the counter in its own engagement" if e.faction == aggressor
                                    else "a rival's engagement")
            elif e.kind == "invite":
                invites += 1
            elif e.kind == "join" and not e.data.get("commission"):
                joins += 1
                parts += 1
            elif e.kind == "no-counter":
                no_counter += 1
            if e.kind == "pillar-defeated":
                defeated_here = True
            elif e.kind == "engagement-end":
                engagements += 1
                sizes[parts] += 1
                defeats += defeated_here
            elif e.kind == "collapse":
                collapses[cause.get(e.faction, "?")] += 1
    n = max(1, engagements)
    total = sum(collapses.values())
    return [f"games end: {dict(ends)}",
            f"collapses: {total} ({total / len(games):.2f} per game) -> {dict(collapses)}",
            f"engagements: {engagements} ({engagements / len(games):.1f} per game; "
            f"{commissions} commissioned mercenaries)",
            "factions on the attacking side: " + ", ".join(
                f"{k}: {v / n:.0%}" for k, v in sorted(sizes.items())),
            f"invitations accepted: {joins}/{invites}"
            + (f" ({joins / invites:.0%})" if invites else ""),
            f"no counter: {no_counter / n:.0%}; a pillar defeated: {defeats / n:.0%}"]


def conflict_stats(games: list[tuple[Any, list[Any]]]) -> list[str]:
    ends, decided_in, winners = Counter(), Counter(), Counter()
    pools, ranges, hits = Counter(), Counter(), Counter()
    for state, events in games:
        reason = ending(state, events)
        ends[reason] += 1
        if reason != "cap":
            decided_in[state.turn] += 1
        scores = state.scores()
        winners[max(scores, key=lambda k: scores[k])] += 1
        for e, where in events:
            if e.kind == "attack" and e.data.get("mode") == "harm":
                pools[e.data["pool"]] += 1
                ranges["melee (<= 2 heights)" if where is not None and where <= 2 else "ranged"] += 1
                hits[e.data["pool"]] += bool(e.data["success"])
    n = sum(pools.values()) or 1
    return [f"conflicts end: {dict(ends)} (decided before the cap: "
            f"{sum(v for k, v in ends.items() if k != 'cap') / len(games):.0%})",
            "decided in round: " + ", ".join(f"{k}: {v}" for k, v in sorted(decided_in.items())),
            f"winners: {dict(winners)}",
            "attacks: " + ", ".join(f"{k} {v} ({v / n:.0%}, {hits[k] / v:.0%} hit)"
                                    for k, v in pools.most_common()),
            "attack range: " + ", ".join(f"{k} {v / n:.0%}" for k, v in ranges.most_common()),
            f"attacks per conflict: {n / len(games):.1f}"]


STATS = {"houses": houses_stats, "engagements": engagements_stats, "conflict": conflict_stats}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--agents", default="heuristic",
                   help="the agent playing every faction; 'campaign': the scenario's own agents")
    p.add_argument("--ruleset", choices=list(CAMPAIGNS), action="append")
    args = p.parse_args()
    for ruleset in args.ruleset or list(CAMPAIGNS):
        games = [play_one(ruleset, g, args.seed, args.agents) for g in range(args.games)]
        print(f"== {ruleset} ({args.games} games, {args.agents} everywhere, {CAMPAIGNS[ruleset]})")
        for line in STATS[ruleset](games) + behaviour_stats(ruleset, games):
            print("  " + line)


if __name__ == "__main__":
    main()
