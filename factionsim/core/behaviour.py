"""Behaviour metrics: how factions *play*, counted from the events of a history.

Win rates say who won; these numbers say whether a faction behaved like a living organisation:
whether its turns did something, whether it completed goals and how soon, what it spent its
Treasure on, how often it attacked, built or expanded, and what it lost to whom. They are
counted from the event stream alone (plus the campaign as it stood at the start and the end of
the history), so any history can be measured: a batch run, a campaign file's recorded turns.

Each ruleset declares what it counts in a :class:`BehaviourSpec` (``RulesetInfo.behaviour``):

- ``count(events, start, end, first_turn)`` -> ``{faction: Tally}``: one history's counts per
  faction (``start``/``end``: the campaign's data before and after, ``to_dict()``; ``first_turn``:
  the number of the history's first turn);
- ``rates``: the :class:`Rate` s it reports, each a sum of counts over a sum of counts (so they
  pool over runs, factions and players without weighting one history more than another).

Every tally also carries the turns the faction played and, where the ruleset has goals, the turns
(counted from the history's first turn, 1-based) in which it completed one: from those come the
goal metrics every ruleset with goals shares (:func:`goal_metrics`).

>>> t = Tally(turns=list(range(1, 11)), goal_turns=[2], counts={"stalls": 1})
>>> spec = BehaviourSpec(count=lambda *a: {}, rates=(Rate("stall_rate", "stalls", "turns",
...                                                         "faction turns that changed nothing"),))
>>> m = summarise([t, Tally(turns=list(range(1, 11)), goal_turns=[], counts={})], spec)
>>> m["stall_rate"], m["goals_per_10_turns"], m["turns_to_first_goal"], m["no_goal_share"]
(0.05, 0.5, 2.0, {'10': 0.5})
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GOAL_WINDOW", "NO_GOAL_HORIZONS", "BehaviourSpec", "Rate", "Tally", "action_metrics",
           "faction_turns", "goal_metrics", "load_rates", "summarise", "tally_turns", "wilson"]

#: Turns per window of the goal rate over time (turns 1-20, 21-40...).
GOAL_WINDOW = 20
#: The N of "share of factions with no goal completed in N turns".
NO_GOAL_HORIZONS = (10, 20, 40)


@dataclass
class Tally:
    """What one faction did in one history: the (1-based, relative) turns it played, the turns
    in which it completed a goal (``None`` for a ruleset without goals) and additive counts."""

    turns: list[int] = field(default_factory=list)
    goal_turns: list[int] | None = None
    counts: dict[str, float] = field(default_factory=dict)

    def add(self, key: str, amount: float = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + amount

    def to_dict(self) -> dict[str, Any]:
        return {"turns": list(self.turns), "goal_turns": self.goal_turns,
                "counts": dict(self.counts)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Tally:
        return cls(list(d["turns"]), None if d.get("goal_turns") is None else list(d["goal_turns"]),
                   dict(d.get("counts", {})))


@dataclass(frozen=True)
class Rate:
    """``name = sum(numerator) / sum(denominator)`` over the tallies pooled; the denominator
    ``"turns"`` is the faction turns played, ``"runs"`` the histories (a mean per history)."""

    name: str
    numerator: str
    denominator: str
    doc: str


def load_rates(package: str, actions: Sequence[str] = ()) -> tuple[Rate, ...]:
    """The rates a ruleset reports, from its package's ``behaviour.yaml``: a list of rows
    ``[name, numerator, denominator, doc]`` (the :class:`Rate` fields), in the order they are
    shown. A row whose fields hold ``{kind}`` stands for one row per kind of ``actions``, in
    their order, ``{kind}`` replaced by the kind and ``{name}`` by the kind with ``_`` for ``-``
    (for the rate's name).

    >>> [r.name for r in load_rates("factionsim.rules.houses", ("seize", "attack-house"))][:3]
    ['stall_rate', 'seize_rate', 'attack_house_rate']
    """
    from importlib import resources

    import yaml

    text = resources.files(package).joinpath("behaviour.yaml").read_text(encoding="utf-8")
    out: list[Rate] = []
    for row in yaml.safe_load(text):
        if not any("{kind}" in field for field in row):
            out.append(Rate(*row))
            continue
        out.extend(Rate(*(f.format(kind=kind, name=kind.replace("-", "_")) for f in row))
                   for kind in actions)
    return tuple(out)


@dataclass(frozen=True)
class BehaviourSpec:
    """A ruleset's behaviour metrics (see the module docstring). ``actions``: the kinds of action
    a faction chooses from (counted as ``action_<kind>``), for :func:`action_metrics`."""

    count: Callable[[Sequence[Any], Mapping[str, Any], Mapping[str, Any], int], dict[str, Tally]]
    rates: tuple[Rate, ...] = ()
    actions: tuple[str, ...] = ()


def faction_turns(events: Iterable[Any], turn_kind: str = "faction-turn",
                  breaks: tuple[str, ...] = ("initiative", "round", "turn-end")
                  ) -> Iterable[tuple[str, int, list[Any]]]:
    """Split an event stream into faction turns: ``(faction, turn, events of that turn)``, each
    turn opening with a ``turn_kind`` event and ending at the next one or at a ``breaks`` event.
    Events outside any faction turn are left out."""
    current: tuple[str, int, list[Any]] | None = None
    for e in events:
        if e.kind == turn_kind or e.kind in breaks:
            if current is not None:
                yield current
            current = (e.faction, e.turn, [e]) if e.kind == turn_kind else None
        elif current is not None:
            current[2].append(e)
    if current is not None:
        yield current


def tally_turns(events: Sequence[Any], first_turn: int, bookkeeping: frozenset[str] | set[str],
                turn_kind: str = "faction-turn") -> dict[str, Tally]:
    """Per faction: the turns it played, its ``action`` events by kind (``action_<kind>``, from
    their ``action`` field) and ``stalls``: turns in which it caused no event of its own but
    ``bookkeeping`` ones (its turn's opening, income, its decisions' reasons...) or chose to
    ``pass``. The rulesets' counters start from this and add their own counts."""
    tallies: dict[str, Tally] = {}
    for fid, turn, turn_events in faction_turns(events, turn_kind):
        t = tallies.setdefault(fid, Tally())
        t.turns.append(turn - first_turn + 1)
        acted = False
        for e in turn_events:
            if e.faction != fid or e.kind == turn_kind:
                continue
            if e.kind == "action":
                t.add(f"action_{e.data.get('action')}")
                acted = acted or e.data.get("action") != "pass"
            elif e.kind not in bookkeeping:
                acted = True
        if not acted:
            t.add("stalls")
    return tallies


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 6) if den else None


def goal_metrics(tallies: Sequence[Tally]) -> dict[str, Any]:
    """Goal numbers of the pooled tallies (those with ``goal_turns``):

    - ``goals_per_10_turns``: goals completed per 10 faction turns played;
    - ``goals_per_10_turns_by_window``: the same in turns 1-20, 21-40... of the histories (the
      windows in which some faction played);
    - ``turns_to_first_goal``: mean turn of the first goal, of the factions that completed one;
    - ``no_goal_share``: for N in :data:`NO_GOAL_HORIZONS` (and no more than the histories
      last), the share of factions that played N turns without completing a goal in them.
    """
    with_goals = [t for t in tallies if t.goal_turns is not None]
    if not with_goals:
        return {}
    turns = sum(len(t.turns) for t in with_goals)
    goals = sum(len(t.goal_turns or ()) for t in with_goals)
    windows: dict[int, list[int]] = {}
    for t in with_goals:
        for turn in t.turns:
            windows.setdefault((turn - 1) // GOAL_WINDOW, [0, 0])[0] += 1
        for turn in t.goal_turns or ():
            windows.setdefault((turn - 1) // GOAL_WINDOW, [0, 0])[1] += 1
    firsts = [min(t.goal_turns) for t in with_goals if t.goal_turns]
    longest = max((max(t.turns) for t in with_goals if t.turns), default=0)
    no_goal: dict[str, float | None] = {}
    for n in NO_GOAL_HORIZONS:
        if n > longest:
            continue
        played = [t for t in with_goals if sum(1 for x in t.turns if x <= n) >= n]
        missed = sum(1 for t in played if not any(g <= n for g in t.goal_turns or ()))
        no_goal[str(n)] = _ratio(missed, len(played))
    return {
        "goals_per_10_turns": _ratio(10 * goals, turns),
        "goals_per_10_turns_by_window": {
            f"{w * GOAL_WINDOW + 1}-{(w + 1) * GOAL_WINDOW}": _ratio(10 * g, n)
            for w, (n, g) in sorted(windows.items())},
        "turns_to_first_goal": round(sum(firsts) / len(firsts), 6) if firsts else None,
        "no_goal_share": no_goal,
    }


def action_metrics(totals: Mapping[str, float], actions: Sequence[str]) -> dict[str, Any]:
    """What the pooled ``action_<kind>`` counts say: ``action_share`` (each kind's share of all
    the actions counted, every kind of ``actions`` listed, most used first) and
    ``unused_actions`` (the kinds of ``actions`` never chosen). Empty when nothing was counted.

    >>> action_metrics({"action_attack": 3, "action_pass": 1, "turns": 4}, ("attack", "move", "pass"))
    {'action_share': {'attack': 0.75, 'pass': 0.25, 'move': 0.0}, 'unused_actions': ['move']}
    """
    counts = {k[len("action_"):]: v for k, v in totals.items() if k.startswith("action_")}
    for kind in actions:
        counts.setdefault(kind, 0)
    total = sum(counts.values())
    if not total:
        return {}
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"action_share": {k: round(v / total, 6) for k, v in ranked},
            "unused_actions": [k for k in actions if not counts[k]]}


def summarise(tallies: Sequence[Tally], spec: BehaviourSpec) -> dict[str, Any]:
    """The metrics of a group of tallies (a faction over the runs, all factions an agent played,
    a temperament...): ``faction_runs``, ``turns``, each of ``spec.rates``, the goal metrics, the
    action shares and unused actions (:func:`action_metrics`)."""
    totals: dict[str, float] = {"turns": 0, "runs": len(tallies)}
    for t in tallies:
        totals["turns"] += len(t.turns)
        for k, v in t.counts.items():
            totals[k] = totals.get(k, 0) + v
    out: dict[str, Any] = {"faction_runs": len(tallies), "turns": int(totals["turns"])}
    for rate in spec.rates:
        out[rate.name] = _ratio(totals.get(rate.numerator, 0), totals.get(rate.denominator, 0))
    out.update(goal_metrics(tallies))
    out.update(action_metrics(totals, spec.actions))
    return out


def wilson(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in wilson(160, 200)]
    [0.739, 0.85]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))
