"""What the players may know of a Great Houses campaign (:data:`VISIBILITY`, see
:mod:`factionsim.core.visibility`; our reading in ``docs/ruleset-houses.md``, "What the players
see").

The Houses hide little from one another (every House sees everything), but the table's players
are not a House: they see each House's Distinctions, Attributes, Skills, Stress, Trauma,
complications, SFX and assets (Holdings, Resources, Signature Assets and their dice), who acts
against whom and with what outcome. They do not see the Plot Points and advances a House holds
(its reserves, like WWN's Treasure and XP), the spending of them, the dice rolled (pools, totals,
effect dice, hitches; initiative rolls: the order is public) or the agents' reasons.

>>> from factionsim.core.game import Event
>>> e = Event(1, "test", "a", {"action": "attack-house", "target": "b", "success": True,
...                            "margin": 3, "actor_roll": {"dice": [8, 6]}})
>>> VISIBILITY.visible_events([e], "players")[0].data
{'action': 'attack-house', 'target': 'b', 'success': True}
"""

from __future__ import annotations

from factionsim.core.visibility import EventRule, Visibility, records_less, turn_end_less

_CAMPAIGN_KEYS = ("ruleset", "name", "turn", "max_turns", "calendar", "rules", "houses")
#: a House's reserves and who plays it
_SECRET_HOUSE_KEYS = ("plot_points", "advances", "agent", "agent_options")

#: The scenario as the players know it: no Plot Points, advances, seed or dice.
players_frame = records_less(_CAMPAIGN_KEYS, "houses", _SECRET_HOUSE_KEYS)


PUBLIC_EVENTS: dict[str, EventRule] = {
    "initiative": ("order",),
    "faction-turn": ("round", "free"),
    "action": ("action", "target", "trait", "free"),
    "test": ("action", "target", "trait", "success"),
    "oppose": ("actor",),
    "asset-created": ("asset", "name", "die", "opposed_by"),
    "asset-too-small": (),
    "asset-lost": ("asset", "name", "die", "reason"),
    "complication": ("source", "before", "after", "lasting"),
    "trait-damaged": ("trait", "name", "before", "after", "steps", "cause"),
    "seized": ("asset", "name", "previous", "die", "full"),
    "repaired": ("trait", "before", "after", "full"),
    "permanent-loss": ("trait", "die", "full"),
    "recovered": ("what", "before", "after"),
    "harm": ("by", "harm"),
    "sacrifice": ("trait", "name", "die"),
    "stress": ("by", "before", "after"),
    "trauma": ("by", "before", "after"),
    "taken-out": ("by",),
    "trauma-escalates": ("before", "after"),
    "collapse": ("assets_lost",),
    "expired": ("assets", "complications"),
    "advance": ("option", "trait", "other", "name", "die", "full", "up_to", "down_to"),
    "turn-end": turn_end_less("plot_points"),
    "game-end": ("reason", "turns", "unit", "winners", "scores", "standing"),
}

VISIBILITY = Visibility(frame=players_frame, events=PUBLIC_EVENTS)
