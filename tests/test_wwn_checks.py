"""Attribute checks (rules 6.4.0) and the faction tags that change them (6.5.0).

Every test calls ``attribute_check`` directly with dice scripted by :class:`ScriptedRng`; the
attacker's dice are drawn before the defender's.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, asset, faction, make_state

from factionsim.rules.wwn.checks import attribute_check, massive_winner, tag_dice


def _state(att: dict | None = None, dfn: dict | None = None, rolls: tuple[int, ...] = (),
           att_assets: list | None = None, dfn_assets: list | None = None):
    att = dict(att or {})
    dfn = dict(dfn or {})
    factions = [faction("red", assets=att_assets or [], **att),
                faction("blue", assets=dfn_assets or [], **dfn)]
    return make_state(factions, rng=ScriptedRng(*rolls))


def _check(state, att_attr: str, def_attr: str, **kw):
    return attribute_check(state, state.factions["red"], att_attr, state.factions["blue"],
                           def_attr, **kw)


# --------------------------------------------------------------------- 6.4.0: 1d10 + rating
@pytest.mark.parametrize(
    "att_rating, def_rating, att_roll, def_roll, att_total, def_total, success",
    [
        (3, 3, 7, 4, 10, 7, True),     # higher total wins for the attacker
        (3, 3, 4, 7, 7, 10, False),    # higher defender total
        (3, 3, 5, 5, 8, 8, False),     # a tie goes to the defender
        (5, 2, 1, 4, 6, 6, False),     # tie on totals, not on dice
        (5, 2, 1, 3, 6, 5, True),      # rating makes up for a low roll
        (1, 8, 10, 2, 11, 10, True),   # 10+1 beats 2+8
        (1, 8, 10, 3, 11, 11, False),  # 10+1 ties 3+8: defender
    ],
)
def test_check_rolls_1d10_plus_rating_each_side(att_rating, def_rating, att_roll, def_roll,
                                                 att_total, def_total, success):
    s = _state({"force": att_rating}, {"force": def_rating}, (att_roll, def_roll))
    r = _check(s, "force", "force")
    assert (r.attacker.total, r.defender.total, r.success) == (att_total, def_total, success)
    assert (r.attacker.rolls, r.defender.rolls) == ([att_roll], [def_roll])
    assert s.rng.calls == [(1, 11, 1), (1, 11, 1)]  # one d10 each
    assert s.rng.remaining == []


@pytest.mark.parametrize(
    "att_attr, def_attr, att_total, def_total, success",
    [
        # the text's example: Force versus Cunning -> 1d10+Force against 1d10+Cunning
        ("force", "cunning", 6 + 5, 6 + 2, True),
        ("wealth", "force", 6 + 4, 6 + 5, False),
        ("cunning", "wealth", 6 + 2, 6 + 1, True),
        ("cunning", "cunning", 6 + 2, 6 + 2, False),
    ],
)
def test_check_uses_each_sides_own_attribute(att_attr, def_attr, att_total, def_total, success):
    s = _state({"force": 5, "cunning": 2, "wealth": 4}, {"force": 5, "cunning": 2, "wealth": 1},
               (6, 6))
    r = _check(s, att_attr, def_attr)
    assert (r.attacker.attribute, r.defender.attribute) == (att_attr, def_attr)
    assert (r.attacker.total, r.defender.total, r.success) == (att_total, def_total, success)


# --------------------------------------------------------------------- extra dice: keep highest
@pytest.mark.parametrize(
    "extra_att, extra_def, rolls, att_total, def_total, success",
    [
        (1, 0, (2, 9, 8), 12, 11, True),        # attacker 2,9 -> 9
        (1, 0, (9, 2, 8), 12, 11, True),        # order of the dice does not matter
        (2, 0, (1, 4, 3, 7), 7, 10, False),     # three dice, best 4
        (0, 1, (8, 3, 9), 11, 12, False),       # defender 3,9 -> 9
        (1, 1, (5, 6, 6, 1), 9, 9, False),      # both 6: tie to the defender
        (1, 1, (10, 1, 1, 9), 13, 12, True),
    ],
)
def test_extra_dice_keep_the_highest(extra_att, extra_def, rolls, att_total, def_total, success):
    s = _state(rolls=rolls)
    r = _check(s, "force", "force", extra_attacker_dice=extra_att, extra_defender_dice=extra_def)
    assert len(r.attacker.rolls) == 1 + extra_att
    assert len(r.defender.rolls) == 1 + extra_def
    assert (r.attacker.total, r.defender.total, r.success) == (att_total, def_total, success)
    assert s.rng.remaining == []


# --------------------------------------------------------------------- Machiavellian/Martial/Rich
@pytest.mark.parametrize(
    "tag, attribute, dice",
    [
        ("machiavellian", "cunning", 2), ("machiavellian", "force", 1),
        ("machiavellian", "wealth", 1),
        ("martial", "force", 2), ("martial", "cunning", 1), ("martial", "wealth", 1),
        ("rich", "wealth", 2), ("rich", "force", 1), ("rich", "cunning", 1),
        ("mobile", "force", 1), (None, "cunning", 1),
    ],
)
def test_tag_extra_die_only_on_its_attribute(tag, attribute, dice):
    tags = [tag] if tag else []
    s = _state({"tags": tags})
    assert tag_dice(s.factions["red"], attribute) == dice


@pytest.mark.parametrize(
    "tag, attribute, rolls, att_rolls, att_total, success",
    [
        ("machiavellian", "cunning", (2, 8, 7), [2, 8], 11, True),
        ("martial", "force", (9, 1, 8), [9, 1], 12, True),
        ("rich", "wealth", (3, 4, 7), [3, 4], 7, False),
        ("martial", "cunning", (2, 7), [2], 5, False),   # not its attribute: one die
    ],
)
def test_tagged_attacker_rolls_extra_die(tag, attribute, rolls, att_rolls, att_total, success):
    s = _state({"tags": [tag]}, rolls=rolls)
    r = _check(s, attribute, attribute)
    assert r.attacker.rolls == att_rolls
    assert (r.attacker.total, r.success) == (att_total, success)
    assert s.rng.remaining == []


@pytest.mark.parametrize(
    "tag, attribute, rolls, def_rolls, def_total, success",
    [
        ("machiavellian", "cunning", (7, 1, 9), [1, 9], 12, False),
        ("martial", "force", (7, 2, 3), [2, 3], 6, True),
        ("rich", "wealth", (5, 5, 1), [5, 1], 8, False),  # tie keeps the defender's win
    ],
)
def test_tagged_defender_rolls_extra_die(tag, attribute, rolls, def_rolls, def_total, success):
    s = _state(dfn={"tags": [tag]}, rolls=rolls)
    r = _check(s, attribute, attribute)
    assert r.defender.rolls == def_rolls
    assert (r.defender.total, r.success) == (def_total, success)


def test_tag_die_stacks_with_extra_dice():
    s = _state({"tags": ["martial"]}, rolls=(1, 2, 10, 9))
    r = _check(s, "force", "force", extra_attacker_dice=1)
    assert r.attacker.rolls == [1, 2, 10]
    assert (r.attacker.total, r.defender.total, r.success) == (13, 12, True)


# --------------------------------------------------------------------- Massive
@pytest.mark.parametrize(
    "att_tags, att_rating, def_tags, def_rating, winner",
    [
        (["massive"], 7, [], 3, "attacker"),       # 7 > 2*3
        (["massive"], 5, [], 2, "attacker"),       # 5 > 4
        (["massive"], 3, [], 1, "attacker"),
        (["massive"], 6, [], 3, None),             # 6 is not more than twice 3
        (["massive"], 4, [], 2, None),
        ([], 7, ["massive"], 3, None),             # the attacker is not the Massive one
        ([], 2, ["massive"], 5, "defender"),       # 5 > 2*2
        ([], 4, ["massive"], 8, None),             # 8 = 2*4
        (["massive"], 7, ["massive"], 3, None),    # both Massive: roll as usual
        ([], 7, [], 1, None),
    ],
)
def test_massive_auto_win(att_tags, att_rating, def_tags, def_rating, winner):
    att = {"tags": att_tags, "force": att_rating}
    dfn = {"tags": def_tags, "force": def_rating}
    s = _state(att, dfn, rolls=(1, 10))  # dice that favour the defender when they are rolled
    red, blue = s.factions["red"], s.factions["blue"]
    assert massive_winner(red, att_rating, blue, def_rating) == winner
    r = _check(s, "force", "force")
    if winner is None:
        assert r.automatic is None
        assert s.rng.remaining == []
        assert r.success is (1 + att_rating > 10 + def_rating)
    else:
        assert r.automatic == f"massive {winner}"
        assert r.success is (winner == "attacker")
        assert s.rng.calls == []  # decided without dice
        assert s.rng.remaining == [1, 10]


def test_massive_compares_the_attributes_of_the_check():
    # Force 8 vs the defender's Cunning 3: 8 > 6, an automatic win even though Force is equal
    s = _state({"tags": ["massive"], "force": 8}, {"force": 8, "cunning": 3})
    r = _check(s, "force", "cunning")
    assert (r.success, r.automatic) == (True, "massive attacker")
    s2 = _state({"tags": ["massive"], "force": 8}, {"force": 3, "cunning": 4}, rolls=(2, 3))
    r2 = _check(s2, "force", "cunning")  # 8 is exactly twice 4: dice decide
    assert (r2.automatic, r2.attacker.total, r2.defender.total, r2.success) == (None, 10, 7, True)


# --------------------------------------------------------------------- Antimagical
@pytest.mark.parametrize(
    "asset_type, magic_needed, rolls, att_rolls, att_total, success",
    [
        # Enchanted Elites need Medium Magic: roll twice, keep the worse (7 then 2 -> 2)
        ("enchanted-elites", "medium", (7, 2, 6), [7, 2], 5, False),
        ("enchanted-elites", "medium", (2, 7, 6), [2, 7], 5, False),
        ("enchanted-elites", "medium", (9, 8, 6), [9, 8], 11, True),
        # War Machines need Medium, Warshaped need High: also affected
        ("war-machines", "medium", (10, 1, 1), [10, 1], 4, False),
        ("warshaped", "high", (4, 10, 1), [4, 10], 7, True),
        # Witch Hunters need only Low Magic, Infantry none: one roll
        ("witch-hunters", "low", (7, 6), [7], 10, True),
        ("infantry", "none", (2, 6), [2], 5, False),
    ],
)
def test_antimagical_defender_makes_magic_attackers_roll_twice(
        asset_type, magic_needed, rolls, att_rolls, att_total, success):
    s = _state({"magic": "high"}, {"tags": ["antimagical"]}, rolls,
               att_assets=[{"type": asset_type, "location": "b"}],
               dfn_assets=[{"type": "infantry", "location": "b"}])
    attacker = asset(s, "red", asset_type)
    assert attacker.kind.magic == magic_needed
    attr = "cunning" if asset_type == "witch-hunters" else "force"
    r = _check(s, attr, attr, attacking_asset=attacker, defending_asset=asset(s, "blue", "infantry"))
    assert r.attacker.rolls == att_rolls
    assert r.attacker.twice_worst is (len(att_rolls) == 2)
    assert r.defender.rolls == [rolls[-1]] and not r.defender.twice_worst
    assert (r.attacker.total, r.defender.total, r.success) == (att_total, rolls[-1] + 3, success)
    assert s.rng.remaining == []


def test_antimagical_attacker_makes_magic_defender_roll_twice():
    s = _state({"tags": ["antimagical"]}, {"magic": "medium"}, (6, 9, 1),
               att_assets=[{"type": "infantry", "location": "b"}],
               dfn_assets=[{"type": "enchanted-elites", "location": "b"}])
    r = _check(s, "force", "force", attacking_asset=asset(s, "red", "infantry"),
               defending_asset=asset(s, "blue", "enchanted-elites"))
    assert r.defender.rolls == [9, 1] and r.defender.twice_worst
    assert (r.attacker.total, r.defender.total, r.success) == (9, 4, True)


@pytest.mark.parametrize("with_assets", [False, True])
def test_antimagical_only_during_an_attack_against_that_faction(with_assets):
    # No asset given (a check outside an Attack), or the Antimagical faction is not the opponent
    s = _state({"magic": "medium", "tags": ["antimagical"]}, {}, (3, 4),
               att_assets=[{"type": "enchanted-elites", "location": "b"}],
               dfn_assets=[{"type": "infantry", "location": "b"}])
    kw = {}
    if with_assets:
        kw = {"attacking_asset": asset(s, "red", "enchanted-elites"),
              "defending_asset": asset(s, "blue", "infantry")}
    r = _check(s, "force", "force", **kw)
    assert (r.attacker.rolls, r.defender.rolls) == ([3], [4])
    assert (r.attacker.total, r.defender.total, r.success) == (6, 7, False)


def test_antimagical_twice_with_extra_dice_keeps_worse_of_the_best():
    # Martial: two dice per roll; each roll keeps its best, the worse of the two rolls counts
    s = _state({"magic": "medium", "tags": ["martial"]}, {"tags": ["antimagical"]},
               (2, 9, 5, 4, 7),
               att_assets=[{"type": "enchanted-elites", "location": "b"}],
               dfn_assets=[{"type": "infantry", "location": "b"}])
    r = _check(s, "force", "force", attacking_asset=asset(s, "red", "enchanted-elites"),
               defending_asset=asset(s, "blue", "infantry"))
    assert r.attacker.rolls == [2, 9, 5, 4]
    assert (r.attacker.total, r.defender.total, r.success) == (8, 10, False)
