"""WWN behaviour counts (factionsim.rules.wwn.behaviour) on a campaign with its own asset types.

The asset value a faction is measured by is "the listed cost of its non-Base assets" (plus its
planted Bases at their HP, see the last test); a campaign's own (homebrew) types are listed in its
``asset_types:`` block, so they count at the cost written there, like the standard types at the
table's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from factionsim.rules.wwn.behaviour import count
from factionsim.rules.wwn.data import ASSET_TYPES

HOMEBREW = Path(__file__).parent / "data" / "wwn_homebrew.yaml"


def test_homebrew_assets_count_at_their_listed_cost():
    frame = yaml.safe_load(HOMEBREW.read_text(encoding="utf-8"))
    costs = {row["id"]: row["cost"] for row in frame["asset_types"]}
    costs.update({k: v.cost for k, v in ASSET_TYPES.items()})
    tallies = count([], frame, frame, first_turn=1)
    for f in frame["factions"]:
        listed = sum(costs[a["type"]] for a in f["assets"])
        assert any(a["type"] not in ASSET_TYPES for a in f["assets"])  # the case under test
        assert tallies[f["id"]].counts["value_start"] == listed
        assert tallies[f["id"]].counts["value_end"] == listed


def test_planted_bases_count_at_what_they_cost():
    """Asset value counts a planted Base of Influence at what Expand Influence paid for it: "must
    spend 1 Treasure for each hit point the new Base of Influence is to have" (WWN 6.2.0). The
    headquarters was never bought and does not count."""
    frame = {"factions": [{
        "id": "guild", "headquarters": "port", "treasure": 4, "assets": [
            {"id": 1, "type": "base-of-influence", "location": "port", "hp": 9, "max_hp": 20},
            {"id": 2, "type": "base-of-influence", "location": "mill", "hp": 1, "max_hp": 3},
            {"id": 3, "type": "farmers", "location": "mill", "hp": 4}]}]}
    counts = count([], frame, frame, first_turn=1)["guild"].counts
    assert counts["value_end"] == 3 + ASSET_TYPES["farmers"].cost  # 3 HP of Base + 2
    assert counts["worth_end"] == 4 + 5


def test_cunning_acts_count_abilities_used_not_income_received():
    """A Cunning act is an attack by a Cunning asset or a use of a Cunning asset's ability the
    faction chose. Court Patronage "earns its owner 1 extra Treasure at the start of each of its
    turns" with no choice made: that income is not a use; Hired Friends' free action is."""
    from factionsim.core.game import Event

    frame = {"factions": [{"id": "hand", "headquarters": "port", "treasure": 0, "assets": []}]}
    events = [
        Event(1, "ability", "hand", {"source": "court-patronage#4", "effect": "patronage-income",
                                     "amount": 1}),
        Event(1, "ability", "hand", {"source": "hired-friends#5", "effect": "grant-subtle"}),
        Event(1, "attack", "hand", {"attacker": "informers#6", "defender": "knights#1"}),
        Event(1, "attack", "hand", {"attacker": "knights#7", "defender": "knights#1"}),
    ]
    counts = count(events, frame, frame, first_turn=1)["hand"].counts
    assert counts["cunning_acts"] == 2  # Hired Friends' use and the Informers' attack
    assert counts["attacks"] == 2


def _turns(*turns):
    """Events of faction "hand"'s turns: each ``(action, [(asset, from, to)...], goal_done)``."""
    from factionsim.core.game import Event

    out = []
    for n, (action, moves, goal_done) in enumerate(turns, start=1):
        out += [Event(n, "faction-turn", "hand", {}), Event(n, "action", "hand", {"action": action})]
        out += [Event(n, "move", "hand", {"asset": a, "from": f, "to": t}) for a, f, t in moves]
        if goal_done:
            out.append(Event(n, "goal-complete", "hand", {"goal": "inside-enemy-territory"}))
    return out


@pytest.mark.parametrize("second, shuffle", [
    ([("thugs#1", "b", "a")], True),                          # back where it came from
    ([("thugs#1", "b", "a"), ("scouts#2", "a", "b")], False),  # ... while another goes on
    ([("thugs#1", "b", "c")], False),                         # onwards
    ([("thugs#3", "a", "c"), ("thugs#4", "c", "a")], True),    # two Thugs swap places
    ([("thugs#3", "a", "c"), ("scouts#4", "c", "a")], False),  # different assets swap
])
def test_a_move_that_only_trades_places_is_a_stall(second, shuffle):
    """Issue 24: a turn whose only effect is to trade places (an asset back where the faction's
    previous turn moved it from, or assets of a type swapping places) changes nothing a goal
    counts; the stall rate counts it (``shuffles``), unless a goal was completed that turn."""
    frame = {"factions": [{"id": "hand", "headquarters": "a", "treasure": 0, "assets": []}]}
    for goal_done in (False, True):
        events = _turns(("move", [("thugs#1", "a", "b")], False), ("move", second, goal_done))
        counts = count(events, frame, frame, first_turn=1)["hand"].counts
        expected = int(shuffle and not goal_done)
        assert counts.get("shuffles", 0) == counts.get("stalls", 0) == expected
