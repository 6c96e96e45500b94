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

from factionsim.core.visibility import EventRule, Visibility, records_less, turn_end_less

_CAMPAIGN_KEYS = ("ruleset", "name", "turn", "max_turns", "calendar", "settings", "factions",
                  "fallen")
_SECRET_FACTION_KEYS = ("faction_dice", "engagement", "agent", "agent_options")

#: The campaign as the players know it: no faction dice, pools, seed or dice.
players_frame = records_less(_CAMPAIGN_KEYS, "factions", _SECRET_FACTION_KEYS)


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
    "turn-end": turn_end_less("faction_dice"),
    "game-end": ("reason", "turns", "unit", "winners", "scores", "standing"),
}

VISIBILITY = Visibility(frame=players_frame, events=PUBLIC_EVENTS)
