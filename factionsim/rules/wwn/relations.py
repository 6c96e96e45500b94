"""How relations between factions change in play: **our house rule**, not the text's.

Chapter 6 lets Attacks target only hostile factions and never says how factions come to be
hostile. The house rule ``relations_change`` (see :mod:`.house_rules`; default ``attacks``) makes
attacks make enemies: when a faction's asset attacks another faction's asset (the Attack action,
an answer to a new Base of Influence, or an ability whose text calls its roll an attack),

- the attacked faction, if it was allied or neutral to the attacker, becomes hostile to it;
- each ally of the attacked faction that was neutral to the attacker becomes hostile to it too
  (an ally of both keeps both alliances: it will not choose).

Each change is a ``relation`` event (``{"with": other, "from": old, "to": "hostile",
"cause": "attacked" | "ally-attacked", "victim": ...}``, its faction the one whose relation changed).
``relations_change: none`` keeps the campaign's relations for good.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from factionsim.core.game import Event

if TYPE_CHECKING:
    from .state import WwnState


def allies_of(state: WwnState, faction: str) -> list[str]:
    """The living factions allied with ``faction``, in campaign order."""
    return [fid for fid, f in state.factions.items()
            if f.alive and fid != faction and state.relation(faction, fid) == "allied"]


def set_relation(state: WwnState, a: str, b: str, relation: str, events: list[Event],
                 **why: str) -> None:
    """Set the relation of ``a`` and ``b`` (symmetric) and record it as ``a``'s event.

    The state gets a new relations dict rather than a changed one: what is kept from the
    relations (the env codec's observation templates, which hold each faction's relation to
    the observer) is kept per dict object, so a new dict is how they see the change."""
    old = state.relation(a, b)
    if old == relation:
        return
    state.relations = {**state.relations, frozenset((a, b)): relation}
    events.append(Event(state.current_turn, "relation", a,
                        {"with": b, "from": old, "to": relation, **why}))


def on_attack(state: WwnState, attacker: str, victim: str, events: list[Event]) -> None:
    """``attacker``'s asset attacks ``victim``'s: apply the house rule ``relations_change``."""
    if state.house_rules.relations_change == "none" or attacker == victim:
        return
    if state.relation(victim, attacker) != "hostile":
        set_relation(state, victim, attacker, "hostile", events, cause="attacked", victim=victim)
    for ally in allies_of(state, victim):
        if ally != attacker and state.relation(ally, attacker) == "neutral":
            set_relation(state, ally, attacker, "hostile", events, cause="ally-attacked",
                         victim=victim)
