"""What the players may know of an engagements campaign (:data:`VISIBILITY`, see
:mod:`factionsim.core.visibility`; our reading in ``docs/ruleset-engagements.md``, "What the
players see").

As a faction knows everything but its rivals' faction dice and engagement pools (the ruleset's
view), the players see the factions, their pillars (competence, defense, wounds, boons), renown
and mercenary contracts, who engages whom and who joins, the wounds struck and the pillars
defeated. Secret: faction dice and engagement pools (income, conversions, costs, draws,
grievance dice), the offers made in private (invitations and contracts, accepted or not: a
faction that joins is seen to join), the dice rolled and the successes they made (the wounds
are public), and the agents' reasons.

>>> from factionsim.core.game import Event
>>> e = Event(1, "engage", "a", {"defender": "b", "pool": 3})
>>> VISIBILITY.visible_events([e], "players")[0].data
{'defender': 'b'}
"""

from __future__ import annotations

from factionsim.core.game import Event
from factionsim.core.visibility import EventRule, Frame, Visibility, pick, without

_CAMPAIGN_KEYS = ("ruleset", "name", "turn", "max_turns", "calendar", "settings", "factions",
                  "fallen")
_SECRET_FACTION_KEYS = ("faction_dice", "engagement", "agent", "agent_options")


def players_frame(data: Frame) -> Frame:
    """The campaign as the players know it: no faction dice, pools, seed or dice."""
    out = pick(data, _CAMPAIGN_KEYS)
    out["factions"] = [without(f, _SECRET_FACTION_KEYS) for f in data.get("factions") or []]
    return out


def _turn_end(e: Event) -> Event:
    return Event(e.turn, e.kind, e.faction, {"factions": {
        f: without(v, ("faction_dice",)) for f, v in (e.data.get("factions") or {}).items()}})


PUBLIC_EVENTS: dict[str, EventRule] = {
    "round": ("order",),
    "faction-turn": (),
    "build": ("pillar", "competence", "defense"),
    "raise": ("pillar", "stat", "level"),
    "heal": ("pillar", "circles_left"),
    "engage": ("defender",),
    "deferred": ("defender",),
    "join": ("aggressor", "defender", "commission"),
    "commit": ("pillar", "competence"),
    "fanatical": ("pillar", "circles_left"),
    "strike": ("pillar", "owner", "defense", "wounds", "marked", "circles_left", "counter"),
    "pillar-defeated": ("pillar", "by", "pillars_left"),
    "exposed": (),
    "counter": ("against", "pillars"),
    "no-counter": ("reason",),
    "engagement-end": ("defender", "allies"),
    "collapse": (),
    "turn-end": _turn_end,
    "game-end": ("reason", "turns", "unit", "winners", "scores", "standing"),
}

VISIBILITY = Visibility(frame=players_frame, events=PUBLIC_EVENTS)
