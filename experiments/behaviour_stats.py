"""How generated campaigns' factions behave over long histories (issue 24's figures).

    python experiments/behaviour_stats.py                       # 200 campaigns, 40 turns
    python experiments/behaviour_stats.py --campaigns 40        # a quicker look
    python experiments/behaviour_stats.py --temperaments        # temperaments compared

Each campaign is what ``factionsim new --factions N --seed S`` writes (N cycles through 4..8,
S = ``--seed`` + campaign index, ``new``'s number of locations unless ``--locations`` sets it:
10 for 4 factions, 22 for 8), every faction played by ``--agent`` (default
``heuristic``). The figures come from the events, as ``factionsim batch`` counts them
(:mod:`factionsim.behaviour`): the stall rate and its parts, the share of factions that completed
no goal in 20 turns, goals per faction per 10 turns in turns 1-20 and 21-40, turns to the first
goal. 95% confidence intervals are bootstrapped over campaigns (a campaign's factions are not
independent of each other).

``--temperaments``: every faction plays every temperament once: campaign ``c`` is played five
times, faction ``i`` with temperament ``(i + k) mod 5`` in play ``k``, so temperaments are
compared on the same factions (paired). Reported per temperament: attacks per turn, final
Treasure and asset value, hides, Stealthed moves (moves of assets Stealthed when they arrive, read
from the state as the game is played) and Cunning acts per turn, with bootstrap CIs over campaigns of
each temperament's mean and of the differences the issue asks for (aggressive / cautious attacks,
greedy's worth against the best other, scheming's Stealth and Cunning use against the best other).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

TEMPERAMENTS = ("aggressive", "cautious", "greedy", "scheming", "balanced")


def generated(job: dict[str, Any], campaign: int, rotation: int | None = None) -> Any:
    """The game of generated campaign ``campaign`` (``4 + campaign % 5`` factions, seed
    ``job['seed'] + campaign``, ``job['locations']`` places or ``new``'s default, every faction
    ``job['agent']``), before its first turn; ``rotation``: faction ``i`` plays temperament
    ``(i + rotation) mod 5``."""
    from factionsim.rules.wwn.generate import generate_campaign
    from factionsim.rulesets import build_campaign

    n = 4 + campaign % 5
    data = generate_campaign(n, job["locations"], seed=job["seed"] + campaign, agent=job["agent"])
    if rotation is not None:
        for i, f in enumerate(data["factions"]):
            f["agent_options"] = {"temperament": TEMPERAMENTS[(i + rotation) % 5]}
    return build_campaign(data, {}, f"generated campaign {campaign}")


def play_one(job: dict[str, Any], index: int) -> dict[str, Any]:
    """Play campaign ``index`` (temperament rotation ``job['rotation']`` or None); return each
    faction's player and tally."""
    from factionsim.behaviour import tally_run
    from factionsim.runner import agents_from_campaign, play

    campaign, rotation = divmod(index, 5) if job["temperaments"] else (index, None)
    state = generated(job, campaign, rotation)
    start = state.to_dict()
    agents = agents_from_campaign(state)
    stealth_moves: dict[str, int] = {}

    def count_stealth_moves(events: list[Any]) -> None:
        """Moves of assets Stealthed as they arrive (the events do not say; the state does)."""
        for e in events:
            if e.kind == "move" and (a := state.assets.get(e.data.get("asset"))) is not None \
                    and a.stealth:
                stealth_moves[e.faction] = stealth_moves.get(e.faction, 0) + 1

    events = play(state, job["turns"], agents,
                  on_events=count_stealth_moves if rotation is not None else None)
    behaviour = tally_run(state, events, start, 1, agents)
    searches = search_counts(events)
    for fid, entry in behaviour.items():
        entry["tally"]["counts"]["stealth_moves"] = stealth_moves.get(fid, 0)
        entry["tally"]["counts"].update(searches.get(fid, {}))
    return {"campaign": campaign, "factions": len(start["factions"]), "behaviour": behaviour}


def search_counts(events: list[Any]) -> dict[str, dict[str, int]]:
    """Per faction: its Informers' searches, the Treasure they cost and the assets they revealed
    (``ability`` events of effect ``search``)."""
    out: dict[str, dict[str, int]] = {}
    for e in events:
        if e.kind == "ability" and e.data.get("effect") == "search":
            c = out.setdefault(e.faction, {"searches": 0, "search_treasure": 0,
                                           "search_reveals": 0})
            c["searches"] += 1
            c["search_treasure"] += e.data.get("cost", 0)
            c["search_reveals"] += len(e.data.get("revealed") or [])
    return out


def bootstrap(per_campaign: list[tuple[float, float]], reps: int = 2000, seed: int = 0
              ) -> tuple[float, float, float]:
    """(ratio of sums, 95% CI low, high) of ``[(numerator, denominator)]`` per campaign."""
    arr = np.array(per_campaign, dtype=float)
    if len(arr) == 0 or arr[:, 1].sum() == 0:
        return (float("nan"),) * 3
    point = arr[:, 0].sum() / arr[:, 1].sum()
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(arr), size=(reps, len(arr)))
    num, den = arr[idx, 0].sum(1), arr[idx, 1].sum(1)
    ratios = num[den > 0] / den[den > 0]
    return float(point), float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))


def _fmt(t: tuple[float, float, float], pct: bool = False) -> str:
    if pct:
        return f"{100 * t[0]:.2f}% [{100 * t[1]:.2f}, {100 * t[2]:.2f}]"
    return f"{t[0]:.3f} [{t[1]:.3f}, {t[2]:.3f}]"


def behaviour_figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The stall, goal and no-goal figures with campaign-bootstrapped CIs."""
    per: dict[str, list[tuple[float, float]]] = {}

    def add(key: str, num: float, den: float) -> None:
        per.setdefault(key, []).append((num, den))

    for r in results:
        sums: dict[str, list[float]] = {}

        def acc(key: str, num: float, den: float, sums=sums) -> None:
            s = sums.setdefault(key, [0.0, 0.0])
            s[0] += num
            s[1] += den

        for entry in r["behaviour"].values():
            t = entry["tally"]
            turns = t["turns"]
            c = t["counts"]
            acc("stall_rate", c.get("stalls", 0), len(turns))
            # the definition before shuffles counted (issue 24 item 3), for comparison
            acc("stall_rate_without_shuffles", c.get("stalls", 0) - c.get("shuffles", 0),
                len(turns))
            for part in ("paralysed", "empty_actions", "idle_passes", "shuffles", "empty_move",
                         "empty_attack", "empty_hide", "empty_repair", "empty_sell"):
                acc(part, c.get(part, 0), len(turns))
            acc("searches_per_10_turns", 10 * c.get("searches", 0), len(turns))
            acc("search_treasure_per_10_turns", 10 * c.get("search_treasure", 0), len(turns))
            acc("reveals_per_search", c.get("search_reveals", 0), c.get("searches", 0))
            goals = t["goal_turns"] or []
            early = [x for x in turns if x <= 20]
            late = [x for x in turns if 20 < x <= 40]
            acc("goals_per_10_turns_1_20", 10 * sum(1 for g in goals if g <= 20), len(early))
            acc("goals_per_10_turns_21_40", 10 * sum(1 for g in goals if 20 < g <= 40), len(late))
            acc("goals_per_10_turns", 10 * len(goals), len(turns))
            if len(early) >= 20:
                acc("no_goal_in_20", float(not any(g <= 20 for g in goals)), 1)
            if len([x for x in turns if x <= 40]) >= 40:
                acc("no_goal_in_40", float(not any(g <= 40 for g in goals)), 1)
            if goals:
                acc("turns_to_first_goal", min(goals), 1)
        for k, (num, den) in sums.items():
            add(k, num, den)
    out = {k: bootstrap(v) for k, v in per.items()}
    return {k: {"value": v[0], "ci95": [v[1], v[2]]} for k, v in out.items()}


def temperament_figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per temperament (paired over the same campaigns): means and the issue's differences."""
    keys = {"attacks_per_turn": ("attacks", "turns"), "attack_actions_per_turn": ("action_attack", "turns"),
            "final_treasure": ("treasure_end", "runs"), "final_asset_value": ("value_end", "runs"),
            "final_worth": ("worth_end", "runs"), "hides_per_turn": ("hides", "turns"),
            "cunning_acts_per_turn": ("cunning_acts", "turns"),
            "stealth_moves_per_turn": ("stealth_moves", "turns"),
            "stealth_and_cunning_per_turn": ("stealth_cunning", "turns"),
            "goals_per_10_turns": ("goals10", "turns"), "stall_rate": ("stalls", "turns")}
    by_campaign: dict[int, dict[str, dict[str, list[float]]]] = {}
    for r in results:
        camp = by_campaign.setdefault(r["campaign"], {})
        for entry in r["behaviour"].values():
            temp = entry["player"]["temperament"]
            t = entry["tally"]
            c = dict(t["counts"])
            c["turns"], c["runs"] = len(t["turns"]), 1
            c["stealth_cunning"] = c.get("hides", 0) + c.get("stealth_moves", 0) \
                + c.get("cunning_acts", 0)
            c["goals10"] = 10 * len(t["goal_turns"] or [])
            sums = camp.setdefault(temp, {})
            for name, (num, den) in keys.items():
                s = sums.setdefault(name, [0.0, 0.0])
                s[0] += c.get(num, 0)
                s[1] += c.get(den, 0)
    camps = sorted(by_campaign)
    out: dict[str, Any] = {"means": {}, "differences": {}}
    for temp in TEMPERAMENTS:
        out["means"][temp] = {
            name: dict(zip(("value", "lo", "hi"), bootstrap(
                [tuple(by_campaign[c][temp][name]) for c in camps if temp in by_campaign[c]]),
                strict=True))
            for name in keys}

    def diff(metric: str, a: str, others: list[str], ratio: bool = False) -> dict[str, Any]:
        """a's mean minus (or over) the best of ``others``, bootstrapped over campaigns."""
        rng = np.random.default_rng(1)
        data = np.array([[by_campaign[c][t][metric] for t in [a, *others]] for c in camps])

        def stat(rows: np.ndarray) -> float:
            means = rows[:, :, 0].sum(0) / np.maximum(rows[:, :, 1].sum(0), 1e-9)
            best_other = means[1:].max()
            return float(means[0] / best_other) if ratio else float(means[0] - best_other)

        point = stat(data)
        reps = [stat(data[rng.integers(0, len(camps), len(camps))]) for _ in range(2000)]
        return {"value": point, "ci95": [float(np.percentile(reps, 2.5)),
                                         float(np.percentile(reps, 97.5))]}

    out["differences"] = {
        "aggressive / cautious attacks per turn": diff("attacks_per_turn", "aggressive", ["cautious"],
                                                       ratio=True),
        "aggressive / cautious attack actions per turn": diff("attack_actions_per_turn", "aggressive",
                                                              ["cautious"], ratio=True),
        "greedy final Treasure - best other": diff("final_treasure", "greedy",
                                                   [t for t in TEMPERAMENTS if t != "greedy"]),
        "greedy final asset value - best other": diff("final_asset_value", "greedy",
                                                      [t for t in TEMPERAMENTS if t != "greedy"]),
        "greedy final worth - best other": diff("final_worth", "greedy",
                                                [t for t in TEMPERAMENTS if t != "greedy"]),
        "scheming hides per turn - best other": diff("hides_per_turn", "scheming",
                                                     [t for t in TEMPERAMENTS if t != "scheming"]),
        "scheming Stealthed moves per turn - best other": diff(
            "stealth_moves_per_turn", "scheming", [t for t in TEMPERAMENTS if t != "scheming"]),
        "scheming Cunning acts per turn - best other": diff(
            "cunning_acts_per_turn", "scheming", [t for t in TEMPERAMENTS if t != "scheming"]),
        "scheming Stealth+Cunning per turn - best other": diff(
            "stealth_and_cunning_per_turn", "scheming", [t for t in TEMPERAMENTS if t != "scheming"]),
    }
    return out


def histories_parser(doc: str, campaigns: int, seed: int) -> argparse.ArgumentParser:
    """The options of a script that plays generated campaigns (``campaigns`` of them by
    default, the first from ``seed``): how many, how long, the map's size, the agent, workers."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--campaigns", type=int, default=campaigns)
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--locations", type=int, default=None,
                   help="places on every map (default: what `factionsim new` gives the "
                        "campaign's number of factions, 10 to 22)")
    p.add_argument("--seed", type=int, default=seed, help="first campaign's seed")
    p.add_argument("--agent", default="heuristic")
    p.add_argument("--workers", type=int, default=1)
    return p


def run_histories(doc: str, play: Any, campaigns: int, seed: int) -> list[Any]:
    """A generated-campaign script's run: its options (:func:`histories_parser`), then
    ``play(job, index)`` for every campaign, on ``--workers`` processes; their results."""
    from factionsim.backends import run_jobs

    a = histories_parser(doc, campaigns=campaigns, seed=seed).parse_args()
    job = {"locations": a.locations, "seed": a.seed, "agent": a.agent, "turns": a.turns}
    return run_jobs(play, list(range(a.campaigns)), shared=job, workers=a.workers)


def main() -> int:
    p = histories_parser(__doc__, campaigns=200, seed=240000)
    p.add_argument("--temperaments", action="store_true",
                   help="play each campaign 5 times, rotating the temperaments")
    p.add_argument("--out", default=None, help="write the figures as JSON here")
    a = p.parse_args()
    from factionsim.backends import run_jobs

    job = {"locations": a.locations, "seed": a.seed, "agent": a.agent, "turns": a.turns,
           "temperaments": a.temperaments}
    items = list(range(a.campaigns * (5 if a.temperaments else 1)))
    t0 = time.time()
    results = run_jobs(play_one, items, shared=job, workers=a.workers)
    figures: dict[str, Any] = {"args": vars(a), "seconds": round(time.time() - t0, 1)}
    if a.temperaments:
        figures["temperaments"] = temperament_figures(results)
        for name, d in figures["temperaments"]["differences"].items():
            print(f"{name:<50} {d['value']:.3f} [{d['ci95'][0]:.3f}, {d['ci95'][1]:.3f}]")
        for temp, m in figures["temperaments"]["means"].items():
            print(temp, ", ".join(f"{k} {v['value']:.3f} [{v['lo']:.3f}, {v['hi']:.3f}]"
                                  for k, v in m.items()))
    else:
        figures["behaviour"] = behaviour_figures(results)
        for k, v in figures["behaviour"].items():
            pct = k not in ("turns_to_first_goal", "reveals_per_search") \
                and "per_10_turns" not in k
            print(f"{k:<28} {_fmt((v['value'], *v['ci95']), pct)}")
    print(f"({figures['seconds']} s)", file=sys.stderr)
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
