"""Move Asset, exposure, Hide Asset, Sell Asset (6.6.0), initiative and the turn (6.2.0, 6.3.0).

The map is the line a - b - c - d. Red has its headquarters in a, blue in d. Initiative dice are
scripted 8 for red and 1 for blue unless a test says otherwise, so red acts first.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, faction, make_state, play_to
from wwn_helpers import apply_text as _do
from wwn_helpers import texts as _texts

from factionsim.rules.wwn.actions import Move

LINE = [{"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]},
        {"id": "c", "neighbors": ["d"]}, {"id": "d"}]


def _map(ruler_of_b=None):
    locs = [dict(loc) for loc in LINE]
    if ruler_of_b:
        locs[1]["ruler"] = ruler_of_b
    return locs


def _game(red_assets, red_kw=None, blue_assets=(), ruler_of_b=None, relations=None,
          dice=(8, 1)):
    s = make_state([faction("red", assets=list(red_assets), **(red_kw or {})),
                    faction("blue", headquarters="d", assets=list(blue_assets))],
                   locations=_map(ruler_of_b), relations=relations, rng=ScriptedRng(*dice))
    play_to(s, "action", "red")
    return s


def _moves(s):
    """The Move options open to red this turn (none when Move Asset is not open at all)."""
    if "action move" not in _texts(s):
        return []
    _do(s, "action move")
    return [str(a) for a in s.legal_actions() if isinstance(a, Move)]


def _inf(loc, **kw):
    return {"type": "infantry", "location": loc, **kw}


def _next_turn_action(s, dice=(8, 1)):
    """Play on (passing) to red's action in the next turn, with scripted initiative."""
    s.rng = ScriptedRng(*dice)
    play_to(s, "goal", "blue")
    play_to(s, "action", "red")
    assert s.rng.remaining == []


# --------------------------------------------------------------------- one turn's move
@pytest.mark.parametrize(
    "tags, start, expected",
    [
        ([], "a", ["b"]),
        ([], "b", ["a", "c"]),
        ([], "d", ["c"]),
        (["mobile"], "a", ["b", "c"]),         # Mobile: twice the range
        (["mobile"], "b", ["a", "c", "d"]),
        (["mobile"], "d", ["b", "c"]),
    ],
)
def test_move_range_is_one_edge_two_when_mobile(tags, start, expected):
    s = _game([_inf(start)], {"tags": tags})
    assert _moves(s) == [f"move infantry#1 -> {loc}" for loc in expected]


def test_bases_do_not_move():
    s = _game([])
    assert "action move" not in _texts(s)
    s = _game([_inf("a")])
    assert _moves(s) == ["move infantry#1 -> b"]  # not base-of-influence#2


def test_move_changes_location_and_each_asset_moves_once():
    s = _game([_inf("a"), _inf("b")])
    _do(s, "action move")
    assert _texts(s) == ["move infantry#1 -> b", "move infantry#2 -> a",
                         "move infantry#2 -> c", "done"]
    ev = _do(s, "move infantry#1 -> b")
    assert s.assets["infantry#1"].location == "b"
    move = next(e for e in ev if e.kind == "move")
    assert move.data == {"asset": "infantry#1", "from": "a", "to": "b"}
    assert _texts(s) == ["move infantry#2 -> a", "move infantry#2 -> c", "done"]
    _do(s, "move infantry#2 -> c")
    assert s.phase == "goal"  # nothing left to move: Move Asset ends by itself
    assert (s.assets["infantry#1"].location, s.assets["infantry#2"].location) == ("b", "c")


# --------------------------------------------------------------------- forbidding rulers
@pytest.mark.parametrize(
    "asset, ruler, relation, tags, expected",
    [
        (_inf("a"), "blue", "hostile", [], []),
        (_inf("a"), "blue", "neutral", [], ["b"]),
        (_inf("a"), "blue", "allied", [], ["b"]),
        (_inf("a"), "red", "hostile", [], ["b"]),                 # its own ruler
        (_inf("a"), None, "hostile", [], ["b"]),                  # no ruler
        ({"type": "idealistic-thugs", "location": "a"}, "blue", "hostile", [], ["b"]),  # Subtle
        (_inf("a", stealth=True), "blue", "hostile", [], ["b"]),  # Stealthed
        (_inf("a"), "blue", "hostile", ["mobile"], ["c"]),        # b forbidden, c is not
        (_inf("c"), "blue", "hostile", [], ["d"]),
    ],
)
def test_ruled_location_forbids_hostile_assets(asset, ruler, relation, tags, expected):
    rel = [] if relation == "hostile" else [["red", "blue", relation]]
    s = _game([asset], {"tags": tags}, ruler_of_b=ruler, relations=rel)
    aid = next(a.id for a in s.assets.values() if a.owner == "red" and not a.is_base)
    assert _moves(s) == [f"move {aid} -> {loc}" for loc in expected]


# --------------------------------------------------------------------- exposure
@pytest.mark.parametrize(
    "asset_type, max_hp, damage",
    [("infantry", 6, 3), ("armed-guards", 3, 2), ("local-guard", 4, 2), ("cavalry", 12, 6)],
)
def test_exposed_asset_takes_half_max_hp_each_turn_it_stays(asset_type, max_hp, damage):
    s = _game([{"type": asset_type, "location": "b"}], ruler_of_b="blue")
    a = s.assets[f"{asset_type}#1"]
    # turn 1: flagged at the start of red's turn, not yet damaged
    assert (a.exposed, a.hp) == (True, max_hp)
    _do(s, "action pass")
    _next_turn_action(s)
    assert (a.exposed, a.hp) == (True, max_hp - damage)  # turn 2: half max HP, rounded up
    _do(s, "action pass")
    _next_turn_action(s)
    left = max_hp - 2 * damage
    assert (a.id in s.assets) is (left > 0)
    assert a.hp == max(left, 0)


def test_exposure_is_flagged_by_an_event_at_the_start_of_the_owners_turn():
    s = make_state([faction("red", assets=[_inf("b")]), faction("blue", headquarters="d")],
                   locations=_map("blue"), rng=ScriptedRng(8, 1))
    s.current_actor()
    ev = s.advance()
    kinds = [e.kind for e in ev]
    assert kinds.index("exposed") < kinds.index("income")
    assert next(e for e in ev if e.kind == "exposed").data == {"asset": "infantry#1",
                                                                "location": "b"}
    assert "damage" not in kinds


def test_retreating_within_the_turn_avoids_exposure_damage():
    s = _game([_inf("b")], ruler_of_b="blue")
    assert s.assets["infantry#1"].exposed
    _do(s, "action move")
    assert _texts(s) == ["move infantry#1 -> a", "move infantry#1 -> c", "done"]
    _do(s, "move infantry#1 -> c")
    _next_turn_action(s)
    a = s.assets["infantry#1"]
    assert (a.location, a.exposed, a.hp) == ("c", False, 6)


@pytest.mark.parametrize("relation, asset, exposed",
                         [("neutral", _inf("b"), False), ("allied", _inf("b"), False),
                          ("hostile", {"type": "idealistic-thugs", "location": "b"}, False),
                          ("hostile", _inf("b", stealth=True), False),
                          ("hostile", _inf("b"), True)])
def test_only_forbidden_assets_are_exposed(relation, asset, exposed):
    rel = [] if relation == "hostile" else [["red", "blue", relation]]
    s = _game([asset], ruler_of_b="blue", relations=rel)
    aid = next(a.id for a in s.assets.values() if a.owner == "red" and not a.is_base)
    _do(s, "action pass")
    _next_turn_action(s)
    a = s.assets[aid]
    assert (a.exposed, a.hp) == (exposed, a.max_hp - (a.max_hp + 1) // 2 * exposed)


def test_asset_that_loses_stealth_gets_its_owners_next_turn_to_retreat():
    s = _game([_inf("b", stealth=True)], ruler_of_b="blue", blue_assets=[_inf("b")])
    _do(s, "action attack")
    _do(s, "attack infantry#1 -> blue", 1, 9, 1)  # fails; counter 1 damage
    a = s.assets["infantry#1"]
    assert (a.stealth, a.hp, a.exposed) == (False, 5, False)
    _next_turn_action(s)          # turn 2: now exposed, no damage yet
    assert (a.exposed, a.hp) == (True, 5)
    _do(s, "action pass")
    _next_turn_action(s)          # turn 3: still there, ceil(6 / 2) = 3 damage
    assert (a.exposed, a.hp) == (True, 2)


# --------------------------------------------------------------------- Hide Asset
@pytest.mark.parametrize("cunning, can_hide", [(1, False), (2, False), (3, True), (5, True)])
def test_hide_needs_cunning_3(cunning, can_hide):
    s = _game([_inf("a")], {"cunning": cunning, "treasure": 5})
    assert ("action hide" in _texts(s)) is can_hide


@pytest.mark.parametrize(
    "treasure, hidden, treasure_left",
    [
        (1, ["infantry#1", "infantry#2"], 0),   # 1 + income 3 = 4: two assets at 2 each
        (0, ["infantry#1"], 1),                 # 3: only one
        (5, ["infantry#1", "infantry#2"], 4),
    ],
)
def test_hide_costs_2_treasure_per_asset_and_gives_stealth(treasure, hidden, treasure_left):
    s = _game([_inf("a"), _inf("c")], {"treasure": treasure})
    assert s.factions["red"].treasure == treasure + 3
    _do(s, "action hide")
    assert _texts(s) == ["hide infantry#1", "hide infantry#2", "done"]  # never the Base
    ev = _do(s, "hide infantry#1")
    assert next(e for e in ev if e.kind == "hide").data == {"asset": "infantry#1", "cost": 2}
    if len(hidden) == 2:
        assert _texts(s) == ["hide infantry#2", "done"]
        _do(s, "hide infantry#2")
    assert s.phase == "goal"
    assert [a.id for a in s.assets.values() if a.stealth] == hidden
    assert s.factions["red"].treasure == treasure_left


def test_hide_not_where_another_faction_has_a_base():
    green = faction("green", headquarters="c", assets=[])
    s = make_state([faction("red", treasure=10,
                            assets=[_inf("a"), _inf("b"), _inf("c"), _inf("d", stealth=True)]),
                    faction("blue", headquarters="b", assets=[_inf("a")]), green],
                   locations=_map(), rng=ScriptedRng(8, 1, 1))
    play_to(s, "action", "red")
    _do(s, "action hide")
    # a: own Base and a blue Infantry (no Base) -> allowed; b: blue Base; c: green Base;
    # d: already Stealthed
    assert _texts(s) == ["hide infantry#1", "done"]


# --------------------------------------------------------------------- Sell Asset
@pytest.mark.parametrize(
    "asset_type, hp, gain",
    [
        ("infantry", 6, 3),        # cost 6
        ("cavalry", 12, 4),        # cost 8
        ("scouts", 5, 2),          # cost 5: rounded down
        ("local-guard", 4, 1),     # cost 3
        ("armed-guards", 3, 0),    # cost 1
        ("infantry", 5, 0),        # damaged: nothing
        ("cavalry", 1, 0),
    ],
)
def test_sell_gives_half_cost_rounded_down_nothing_if_damaged(asset_type, hp, gain):
    s = _game([{"type": asset_type, "location": "b", "hp": hp}])
    assert s.factions["red"].treasure == 3
    _do(s, "action sell")
    assert _texts(s) == [f"sell {asset_type}#1", "done"]
    ev = _do(s, f"sell {asset_type}#1")
    sell = next(e for e in ev if e.kind == "sell")
    assert sell.data["gain"] == gain
    assert f"{asset_type}#1" not in s.assets
    assert s.factions["red"].treasure == 3 + gain
    assert s.phase == "goal"


def test_sell_several_assets_in_one_action():
    s = _game([_inf("a"), {"type": "cavalry", "location": "c"}])
    _do(s, "action sell")
    _do(s, "sell infantry#1")
    _do(s, "sell cavalry#2")
    assert s.factions["red"].treasure == 3 + 3 + 4
    assert [a.id for a in s.assets.values() if a.owner == "red"] == ["base-of-influence#3"]


def test_bases_cannot_be_sold():
    s = _game([])
    assert "action sell" not in _texts(s)


# --------------------------------------------------------------------- initiative
@pytest.mark.parametrize(
    "names, alive, dice, order",
    [
        (["red", "blue"], [True, True], (3, 7), ["blue", "red"]),
        (["red", "blue"], [True, True], (8, 1), ["red", "blue"]),
        (["red", "blue"], [True, True], (5, 5), ["red", "blue"]),      # tie: campaign order
        (["blue", "red"], [True, True], (5, 5), ["blue", "red"]),
        (["red", "blue", "green"], [True, True, True], (4, 4, 6), ["green", "red", "blue"]),
        (["red", "blue", "green"], [True, True, True], (2, 8, 2), ["blue", "red", "green"]),
        (["red", "blue", "green"], [True, False, True], (1, 7), ["green", "red"]),  # no roll
    ],
)
def test_initiative_1d8_highest_first_ties_in_campaign_order(names, alive, dice, order):
    factions = [faction(n, alive=al, **({} if al else {"hp": 0}))
                for n, al in zip(names, alive, strict=True)]
    s = make_state(factions, locations=_map(), rng=ScriptedRng(*dice))
    assert s.current_actor() == order[0]
    assert s.rng.calls == [(1, 9, None)] * len(dice)
    assert s.order == order
    living = [n for n, al in zip(names, alive, strict=True) if al]
    assert s.initiative == dict(zip(living, dice, strict=True))
    # the factions then act in that order, each once
    acted = []
    while s.turn == 0:
        actor = s.current_actor()
        if s.phase == "action":
            acted.append(actor)
        texts = {str(a): a for a in s.legal_actions()}
        s.apply(next((texts[t] for t in ("action pass", "keep goal", "done") if t in texts),
                     s.legal_actions()[0]))
    assert acted == order


# --------------------------------------------------------------------- one action per turn
def test_one_faction_action_per_turn():
    s = _game([_inf("b")], blue_assets=[_inf("b")])
    assert _texts(s)[:2] == ["action attack", "action move"]
    _do(s, "action move")
    legal = _texts(s)
    assert legal == ["move infantry#1 -> a", "move infantry#1 -> c", "done"]
    assert not any(t.startswith("attack") for t in legal)
    _do(s, "move infantry#1 -> c")
    # the Move ended red's action: the goal step follows, then blue's turn
    assert (s.phase, s.current_actor()) == ("goal", "red")
    seen = []
    while s.current_actor() == "red":
        seen.append(s.phase)
        texts = {str(a): a for a in s.legal_actions()}
        s.apply(next((texts[t] for t in ("keep goal", "done") if t in texts),
                     s.legal_actions()[0]))
    assert "action" not in seen and "attack" not in seen
    assert (s.current_actor(), s.phase) == ("blue", "action")
    assert s.assets["infantry#1"].hp == 6
