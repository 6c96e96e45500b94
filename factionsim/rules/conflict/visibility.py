"""What the players may know of a conflict (:data:`VISIBILITY`, see
:mod:`factionsim.core.visibility`; our reading in ``docs/ruleset-conflict.md``, "What the
players see").

A conflict is fought in the open: the players see every character's height, Blood, Guts,
Approaches, skills, items, spells and status, every action and its outcome (hit or miss, damage,
who falls, flees or yields). Secret: the plans characters have not acted on yet (enemy plans
are hidden until the character acts, as in a side's own view) and the changes of plan, the dice
rolled and the target numbers and bonuses behind them (the outcome is public), the rerolls a
bond buys, and the agents' reasons.

>>> from factionsim.core.game import Event
>>> e = Event(1, "attack", "w", {"char": "ash", "target": "vor", "dice": [3], "tn": 4,
...                              "success": True, "damage": 6, "left": 5})
>>> VISIBILITY.visible_events([e], "players")[0].data
{'char': 'ash', 'target': 'vor', 'success': True, 'damage': 6, 'left': 5}
"""

from __future__ import annotations

from typing import Any

from factionsim.core.visibility import EventRule, Frame, Visibility, dropping, pick, without

_CAMPAIGN_KEYS = ("ruleset", "name", "turn", "max_turns", "calendar", "settings", "sides",
                  "bonds")
#: the dice of a check: rolled dice, target number and what made it, rerolls
_DICE_KEYS = ("dice", "new_dice", "tn", "parts", "rerolls")


def _character(c: dict[str, Any]) -> dict[str, Any]:
    rnd = without(c.get("round") or {}, ("plan",))
    return {**without(c, ("round",)), **({"round": rnd} if rnd else {})}


def players_frame(data: Frame) -> Frame:
    """The conflict as the players know it: no pending plans, agents, seed or dice."""
    out = pick(data, _CAMPAIGN_KEYS)
    out["sides"] = [{**without(s, ("agent", "agent_options", "characters")),
                     "characters": [_character(c) for c in s.get("characters") or []]}
                    for s in data.get("sides") or []]
    return out


_CHECK = dropping(*_DICE_KEYS)

PUBLIC_EVENTS: dict[str, EventRule] = {
    kind: _CHECK for kind in (
        "round", "category", "stand", "hold", "attack", "fallen", "fled", "yielded", "advantage",
        "advantage-failed", "advantage-expired", "assist", "remove", "ritual", "parley", "cast",
        "spell-broken", "concentration", "dash", "tie", "bond", "item", "conflict-end",
        "turn-end", "game-end")
}

VISIBILITY = Visibility(frame=players_frame, events=PUBLIC_EVENTS)
