"""How a game ended and who won: the closing ``game-end`` event of the rulesets that play to a
cap or to the last one standing, and its chronicle sentence.

>>> from factionsim.core.game import Event
>>> class N:
...     def faction(self, fid): return {"a": "House A", "b": "House B"}[fid]
>>> e = Event(12, "game-end", None, {"reason": "cap", "turns": 12, "unit": "season",
...     "winners": ["a"], "scores": {"a": 14.5, "b": 9.0}, "standing": ["a", "b"]})
>>> print(game_end_text(e, N()))
**The game ends after 12 seasons, the scenario's limit. House A wins** with a score of 14.5 (House B 9.0).
"""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Event
from factionsim.core.prose import plural

#: what one ``turn`` is called in each ruleset's chronicle
UNITS = {"houses": "season", "engagements": "round", "conflict": "round"}


def game_end(state: Any, reason: str | None = None) -> Event:
    """The event that closes a game: ``reason`` is ``last-standing`` (fewer than two factions
    stand) or ``cap`` (``max_turns`` reached); the winners are the factions with the highest
    score (several on a tie)."""
    scores = {k: round(float(v), 4) for k, v in state.scores().items()}
    standing = [fid for fid, f in state.factions.items() if f.alive]
    if reason is None:
        reason = "last-standing" if len(standing) < 2 else "cap"
    best = max(scores.values())
    return Event(state.turn, "game-end", None, {
        "reason": reason, "turns": state.turn, "unit": UNITS.get(state.ruleset, "turn"),
        "winners": [fid for fid, v in scores.items() if v == best], "scores": scores,
        "standing": standing})


#: the events that close a game, each with its ``reason``
CLOSING = ("game-end", "conflict-end")


def how_it_ended(events: Any, state: Any) -> str:
    """Why a played history stopped: the ``reason`` of its closing event (``cap``,
    ``last-standing``, a conflict's ``fell``, ``fled``, ``ritual``...); without one (a ruleset
    that writes none, or a history stopped before the game's end), ``last-standing`` when fewer
    than two factions stand, else ``turn-limit``."""
    for e in reversed(events):
        if e.kind in CLOSING:
            return str(e.data["reason"])
    standing = sum(1 for f in state.factions.values() if f.alive)
    return "last-standing" if standing < 2 else "turn-limit"


def game_end_text(e: Event, n: Any) -> str:
    """``**The game ends after 12 seasons, the scenario's limit. House A wins** with a score of
    14.5 (House B 9.0).``"""
    d = e.data
    span = plural(d["turns"], d.get("unit", "turn"))
    if d["reason"] == "cap":
        why = f"after {span}, the scenario's limit"
    elif d["standing"]:
        why = f"after {span}: {n.faction(d['standing'][0])} alone still stands"
    else:
        why = f"after {span}: no one is left standing"
    winners = [n.faction(w) for w in d["winners"]]
    if not d["standing"]:
        return f"**The game ends {why}.**"
    who = (f"{winners[0]} wins" if len(winners) == 1
           else " and ".join(winners) + " share the victory")
    best = d["scores"][d["winners"][0]]
    others = ", ".join(f"{n.faction(k)} {v}" if k in d["standing"] else f"{n.faction(k)} fallen"
                       for k, v in d["scores"].items() if k not in d["winners"])
    return (f"**The game ends {why}. {who}** with a score of {best}"
            + (f" ({others})" if others else "") + ".")
