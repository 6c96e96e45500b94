"""Interrupted Logistics against every way of moving in, and the Mad Genius's two free abilities.

Map a - b - c. Red acts first (initiative 8 against 1); Red's assets are numbered first. Ratings
3/3/3 (income 3 a turn). Every die scripted.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, do, faction, make_state, play_to, texts


def A(type_id, loc, **kw):
    return {"type": type_id, "location": loc, **kw}


def _first_decision(s, turn=0):
    """Play idle choices until Red decides in the abilities or action step of game turn
    ``turn`` (0: the first)."""
    while not (s.current_actor() == "red" and s.phase in ("abilities", "action")
               and s.turn == turn):
        texts = {str(a): a for a in s.legal_actions()}
        s.apply(next(texts[t] for t in ("action pass", "keep goal", "done") if t in texts)
                if any(t in texts for t in ("action pass", "keep goal", "done"))
                else s.legal_actions()[0])


# ------------------------------------------------------------------ Interrupted Logistics (item 3)
#: mover -> (Red's assets, the decision that moves the cargo, the cargo, what the mover costs)
MOVERS = {
    "Move Asset": ([A("infantry", "a")], ("action move", "move infantry#1 -> b"), "infantry#1", 0),
    "Smugglers": ([A("smugglers", "a"), A("farmers", "a")], ("use smugglers#1 farmers#2->b",),
                  "farmers#2", 0),
    "Underground Roads": ([A("underground-roads", "a"), A("farmers", "a")],
                          ("use underground-roads#1 farmers#2->b",), "farmers#2", 1),
    "Military Transport": ([A("military-transport", "a"), A("farmers", "a")],
                           ("use military-transport#1 farmers#2->b",), "farmers#2", 0),
    "Transport Network": ([A("transport-network", "a"), A("farmers", "a")],
                          ("use transport-network#1 farmers#2->b",), "farmers#2", 1),
    "Caravan": ([A("caravan", "a")], ("use caravan#1 b",), "caravan#1", 1),
}


def _logistics(red_assets, treasure):
    return make_state([faction("red", treasure=treasure, assets=red_assets),
                       faction("blue", headquarters="c", assets=[A("interrupted-logistics", "b")])],
                      rng=ScriptedRng(8, 1))


@pytest.mark.parametrize("mover", MOVERS)
def test_interrupted_logistics_tolls_and_delays_every_way_in(mover):
    """6.8.0 Interrupted Logistics: "Non-Stealthed hostile units cannot enter the same location as
    the Interrupted Logistics Asset without paying 1d4 Treasure and waiting one turn to arrive
    there." The text names no kind of movement: a unit carried in by an ability enters as much as
    one that marches in. 1d4 = 3 here; the unit arrives at the start of Red's next turn."""
    red_assets, decisions, cargo, cost = MOVERS[mover]
    s = _logistics(red_assets, treasure=10)
    _first_decision(s)
    before = s.factions["red"].treasure
    for text in decisions[:-1]:
        do(s, text)
    do(s, decisions[-1], 3)
    unit = s.assets[cargo]
    assert (unit.location, unit.status.get("arriving")) == ("a", "b")
    assert s.factions["red"].treasure == before - cost - 3
    s.rng = ScriptedRng(8, 1)  # next turn's initiative
    _first_decision(s, turn=1)
    assert s.turn == 1 and unit.location == "b" and "arriving" not in unit.status


def test_a_faction_that_cannot_pay_the_roll_stays_out():
    """"cannot enter ... without paying 1d4 Treasure": the Caravan (free action, 1 Treasure) is
    offered with 4 Treasure in hand, the most the toll can be; it pays 1 to move, and the 1d4 then
    comes up 4 with 3 left. Reading: nothing is paid and the Caravan does not get in."""
    s = _logistics([A("caravan", "a")], treasure=1)  # 1 + 3 income = 4
    _first_decision(s)
    assert s.factions["red"].treasure == 4 and "use caravan#1 b" in texts(s)
    events = do(s, "use caravan#1 b", 4)
    caravan = s.assets["caravan#1"]
    assert caravan.location == "a" and "arriving" not in caravan.status
    assert s.factions["red"].treasure == 3
    refused = [e for e in events if e.kind == "ability" and e.data["effect"] == "entry-refused"]
    assert refused and refused[0].data["roll"] == [4]


def test_moves_into_a_tolled_location_need_four_treasure_whatever_carries_the_unit():
    """Smugglers and Underground Roads offer a move into the Logistics' location only when the
    faction could pay the highest 1d4 (our reading, as for Move Asset)."""
    s = _logistics([A("smugglers", "a"), A("underground-roads", "a"), A("farmers", "a")],
                   treasure=0)  # 3 after income
    _first_decision(s)
    offered = texts(s)
    assert "use smugglers#1 farmers#3->b" not in offered
    assert "use underground-roads#2 farmers#3->b" not in offered
    assert "use smugglers#1 farmers#3->c" not in offered  # (two moves away: out of range anyway)


def test_a_vanguard_group_delayed_at_the_border_may_still_stay_when_it_arrives():
    """6.9.0 Vanguard Unit: "...it can move the Vanguard Unit and any allied units at the same
    location to any other location within range, even if the unit type would normally be
    prohibitive from moving there ... The unit may remain at that location afterwards even if the
    Vanguard Unit leaves." Into Blue's ruled b, guarded by Interrupted Logistics: each unit pays
    its 1d4 (2, then 3) and arrives next turn, still allowed to stay (no exposure)."""
    ruled_b = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"], "ruler": "blue"},
               {"id": "c"}]
    s = make_state([faction("red", treasure=10, assets=[A("vanguard-unit", "a"), A("infantry", "a")]),
                    faction("blue", headquarters="c", assets=[A("interrupted-logistics", "b")])],
                   locations=ruled_b, rng=ScriptedRng(8, 1))
    _first_decision(s)
    do(s, "action move")
    do(s, "use vanguard-unit#1 b")
    do(s, "use vanguard-unit#1 take-infantry#2", 2, 3)
    assert s.factions["red"].treasure == 13 - 5
    s.rng = ScriptedRng(8, 1, 8, 1)
    _first_decision(s, turn=1)
    for unit in ("vanguard-unit#1", "infantry#2"):
        assert s.assets[unit].location == "b" and s.assets[unit].status.get("may_stay") == "b"
    _first_decision(s, turn=2)  # a turn start in b: not flagged as exposed
    assert not s.assets["vanguard-unit#1"].exposed and not s.assets["infantry#2"].exposed


# ------------------------------------------------------------------ Mad Genius (item 6)
def _genius():
    return make_state([faction("red", wealth=5, assets=[
        A("mad-genius", "a"), A("base-of-influence", "b", hp=2)]),
        faction("blue", headquarters="c")], rng=ScriptedRng(8, 1))


def test_mad_genius_may_move_and_then_be_sacrificed_in_one_turn():
    """6.10.0 Mad Genius: "As a free action, once per turn, the Mad Genius may move. As a free
    action, once per turn, the Mad Genius may be sacrificed to treat the Magic rating in their
    location as High for the purpose of buying Assets that require such resources." Two free
    abilities, each once per turn: it moves to b, where Red has a Base, and is sacrificed there."""
    s = _genius()
    play_to(s, "abilities", "red")
    do(s, "use mad-genius#1 b")
    offered = texts(s)
    assert "use mad-genius#1 sacrifice" in offered
    assert not [t for t in offered if t in ("use mad-genius#1 a", "use mad-genius#1 c")]  # once
    do(s, "use mad-genius#1 sacrifice")
    assert "mad-genius#1" not in s.assets
    assert s.base_of("red", "b").status["mad_genius"] is True


def test_mad_genius_sacrificed_first_cannot_move_afterwards():
    s = _genius()
    s.assets["mad-genius#1"].location = "b"
    play_to(s, "abilities", "red")
    do(s, "use mad-genius#1 sacrifice")
    assert not [t for t in texts(s) if t.startswith("use mad-genius#1")]
