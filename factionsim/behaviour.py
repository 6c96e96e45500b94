"""Behaviour metrics of batch histories: what each run's factions did (:func:`tally_run`, in the
worker), pooled per faction, per agent and per temperament (:func:`summarise_runs`), and shown
as a table (:func:`behaviour_html`, :func:`behaviour_text`).

The counting is the ruleset's (``RulesetInfo.behaviour``, see :mod:`factionsim.core.behaviour`);
a ruleset that declares none is measured by :data:`GENERIC`: faction turns, actions by kind and
collapses, from the ``faction-turn``, ``action`` and ``collapse`` events most rulesets emit.

A faction's *player* is its agent as the campaign names it (``heuristic``, ``planner``...) and,
for agents with temperaments (the WWN heuristic and planner), the temperament it plays with:
the one the campaign gives (``agent_options: {temperament: ...}``) or the one the agent derives
from the faction (its ``temperament_of(faction)``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from factionsim.core.behaviour import BehaviourSpec, Rate, Tally, faction_turns, summarise
from factionsim.core.game import Agent, Event, GameState
from factionsim.rulesets import get_ruleset

__all__ = ["GENERIC", "action_mix", "behaviour_html", "behaviour_text", "player_of", "spec_of",
           "summarise_runs", "tally_run"]


def _generic_count(events: Sequence[Event], start: Mapping[str, Any], end: Mapping[str, Any],
                   first_turn: int) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for fid, turn, turn_events in faction_turns(events):
        t = tallies.setdefault(fid, Tally())
        t.turns.append(turn - first_turn + 1)
        for e in turn_events:
            if e.kind == "action" and e.faction == fid:
                t.add(f"action_{e.data.get('action')}")
    for e in events:
        if e.kind == "collapse" and e.faction is not None:
            tallies.setdefault(e.faction, Tally()).add("collapses")
    return tallies


#: What any ruleset without its own :class:`BehaviourSpec` is measured by.
GENERIC = BehaviourSpec(count=_generic_count, rates=(
    Rate("collapse_rate", "collapses", "runs", "histories in which it collapsed"),))


def spec_of(ruleset: str) -> BehaviourSpec:
    """The ruleset's behaviour metrics, or :data:`GENERIC`."""
    return get_ruleset(ruleset).behaviour or GENERIC


def player_of(agent: Agent, faction: Any) -> dict[str, str | None]:
    """``{"agent": name as the campaign gives it, "temperament": ... or None}``."""
    temperament_of = getattr(agent, "temperament_of", None)
    return {"agent": str(getattr(faction, "agent", None) or agent.name),
            "temperament": temperament_of(faction) if temperament_of is not None else None}


def tally_run(state: GameState, events: Sequence[Event], start: Mapping[str, Any],
              first_turn: int, agents: Mapping[str, Agent]) -> dict[str, Any]:
    """One history's behaviour: faction -> ``{"player": ..., "tally": ...}`` (plain data).
    ``start`` is the campaign's data before the history (``to_dict()``), ``first_turn`` the
    number of its first turn."""
    tallies = spec_of(state.ruleset).count(events, start, state.to_dict(), first_turn)
    return {fid: {"player": player_of(agents[fid], f),
                  "tally": tallies.get(fid, Tally()).to_dict()}
            for fid, f in state.factions.items() if fid in agents}


def summarise_runs(runs: Sequence[Mapping[str, Any]], ruleset: str) -> dict[str, Any]:
    """The behaviour of every run's factions (each ``tally_run``'s result), pooled: ``all``,
    ``by_faction``, ``by_agent``, ``by_temperament`` (only where some player has one), and
    ``metrics``: each rate's meaning."""
    spec = spec_of(ruleset)
    groups: dict[str, dict[str, list[Tally]]] = {"by_faction": {}, "by_agent": {},
                                                  "by_temperament": {}}
    everything: list[Tally] = []
    for run in runs:
        for fid, entry in run.items():
            tally = Tally.from_dict(entry["tally"])
            everything.append(tally)
            groups["by_faction"].setdefault(fid, []).append(tally)
            player = entry["player"]
            groups["by_agent"].setdefault(player["agent"], []).append(tally)
            if player.get("temperament"):
                groups["by_temperament"].setdefault(player["temperament"], []).append(tally)
    out: dict[str, Any] = {"all": summarise(everything, spec)}
    for name, members in groups.items():
        if members:
            out[name] = {key: summarise(tallies, spec) for key, tallies in members.items()}
    out["metrics"] = {r.name: r.doc for r in spec.rates}
    return out


#: the columns of the printed and HTML tables (those a summary has)
_COLUMNS = (("stall_rate", "stalls"), ("goals_per_10_turns", "goals/10 turns"),
            ("turns_to_first_goal", "first goal"), ("attacks_per_turn", "attacks/turn"),
            ("creations_per_turn", "buys/turn"), ("expansions_per_turn", "bases/turn"),
            ("treasure_unspent_share", "unspent"), ("assets_lost_to_rivals", "lost to rivals"),
            ("assets_lost_to_upkeep", "lost to upkeep"))


def _cell(key: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and (key.endswith(("_rate", "_share"))):
        return f"{value:.1%}"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _rows(b: Mapping[str, Any], names: Mapping[str, str]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows): one row per faction, agent and temperament, then all."""
    sample = b["all"]
    cols = [(k, label) for k, label in _COLUMNS if k in sample]
    headers = ["who", *(label for _, label in cols)]
    rows = []
    for group, prefix in (("by_faction", ""), ("by_agent", "agent "),
                          ("by_temperament", "temperament ")):
        for key, m in b.get(group, {}).items():
            rows.append([prefix + (names.get(key, key) if group == "by_faction" else key),
                         *(_cell(k, m.get(k)) for k, _ in cols)])
    rows.append(["all", *(_cell(k, sample.get(k)) for k, _ in cols)])
    return headers, rows


def action_mix(m: Mapping[str, Any]) -> list[str]:
    """Two lines on one group's actions (``summarise``'s ``action_share`` and
    ``unused_actions``): each kind's share, most used first, and the kinds never chosen.

    >>> action_mix({"action_share": {"attack": 0.75, "move": 0.25, "hide": 0.0},
    ...             "unused_actions": ["hide"]})
    ['actions: attack 75.0%, move 25.0%, hide 0.0%', 'never chosen: hide']
    """
    if not m.get("action_share"):
        return []
    unused = m.get("unused_actions") or []
    return ["actions: " + ", ".join(f"{k} {v:.1%}" for k, v in m["action_share"].items()),
            "never chosen: " + (", ".join(unused) if unused else "none")]


def behaviour_text(b: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The behaviour table as plain text (``factionsim batch``'s printout), then the action mix
    of all factions."""
    from factionsim.core.presentation import text_table

    headers, rows = _rows(b, names)
    return "\n".join([text_table(headers, rows), *action_mix(b["all"])])


def behaviour_html(b: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The behaviour table as an HTML ``<table>``, every rate's meaning below it."""
    headers, rows = _rows(b, names)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    notes = "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>"
                    for k, v in b.get("metrics", {}).items())
    mix = "".join(f"<p>{html.escape(line)}</p>" for line in action_mix(b["all"]))
    return f"<table><tr>{head}</tr>{body}</table>{mix}<ul class=\"sub\">{notes}</ul>"
