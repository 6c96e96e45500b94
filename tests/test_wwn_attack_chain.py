"""The end of every attack: what the after-attack and after-defend abilities do when an asset has
left play or the hit was negated (docs/rules-wwn.md, "The attack chain"), and the one rule that
costs every attacking asset its Stealth.

Map a - b - c. Red acts first (initiative 8 against 1); Red's assets are numbered first, then
Blue's, then the headquarters Bases. Ratings 3/3/3 unless stated. Every die scripted.
"""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng, do, faction, make_state, play_to, texts

from factionsim.rules.wwn import abilities, movement
from factionsim.rules.wwn.actions import parse_action


def A(type_id, loc, **kw):
    return {"type": type_id, "location": loc, **kw}


def _state(red, blue, **red_kw):
    return make_state([faction("red", assets=red, **red_kw),
                       faction("blue", headquarters="c", assets=blue)], rng=ScriptedRng(8, 1))


def _attacking(s):
    play_to(s, "action", "red")
    s.apply(parse_action("action attack"))


# ------------------------------------------------------------------ Fortification Program
def test_fortification_program_defends_once_per_turn_even_when_its_counter_kills():
    """6.9.0 Fortification Program: "Once per turn, when an enemy makes an Attack that targets the
    faction's Force rating, the faction can use the Fortification Program to defend if the Asset
    is within a turn's move from the attack." Its 2d6 counterattack destroys the first Infantry;
    that was its once this turn, so the second Infantry meets only the Farmers."""
    s = _state([A("infantry", "b"), A("infantry", "b")],
               [A("fortification-program", "c"), A("farmers", "b")])
    _attacking(s)
    s.apply(parse_action("attack infantry#1 -> blue"))
    assert texts(s) == ["defend with farmers#4", "defend with fortification-program#3"]
    do(s, "defend with fortification-program#3", 1, 9, 6, 6)  # 1+3 vs 9+3; counter 2d6 = 12
    assert "infantry#1" not in s.assets
    assert [d.id for d in movement.defenders(s, "blue", s.assets["infantry#2"])] == ["farmers#4"]


# ------------------------------------------------------------------ Temple Fanatics
#: (Red's attacker, Blue's defender, Blue's other assets, dice, the Fanatics' HP after)
FANATICS = {
    # Fanatics defend: 1d4 after every defence, whatever became of the attacker
    "defend, counter destroys the attacker": (
        A("infantry", "b"), A("temple-fanatics", "b"), [], (1, 9, 4, 3, 2), 6 - 2),
    "defend, the attacker survives the counter": (
        A("infantry", "b"), A("temple-fanatics", "b"), [], (1, 9, 1, 1, 3), 6 - 3),
    "defend, the hit lands": (
        A("infantry", "b"), A("temple-fanatics", "b"), [], (9, 1, 2, 1), 6 - 2 - 1),
    "defend, the hit destroys them (nothing left to hurt)": (
        A("infantry", "b"), A("temple-fanatics", "b"), [], (9, 1, 8), None),
    # Fanatics attack: 1d4 after a successful attack only
    "attack succeeds": (
        A("temple-fanatics", "b"), A("knights", "b"), [], (9, 1, 1, 1, 4), 6 - 4),
    "attack succeeds and destroys the defender": (
        A("temple-fanatics", "b"), A("farmers", "b"), [], (9, 1, 3, 3, 1), 6 - 1),
    "attack fails": (
        A("temple-fanatics", "b"), A("farmers", "b"), [], (1, 9, 2), 6 - 2),  # counter 1d4
    "attack negated by Useful Idiots (not a successful attack)": (
        A("temple-fanatics", "b"), A("farmers", "b"), [A("useful-idiots", "c")], (9, 1), 6),
}


@pytest.mark.parametrize("case", FANATICS)
def test_temple_fanatics_take_1d4_after_every_defence_and_successful_attack(case):
    """6.9.0 Temple Fanatics: "After every time the Temple Fanatics defend or successfully attack,
    they take 1d4 damage." Readings: the 1d4 follows even when their counterattack destroyed the
    attacker; a hit negated by Useful Idiots is not a successful attack."""
    attacker, defender, others, dice, hp_after = FANATICS[case]
    s = _state([attacker], [defender, *others])
    _attacking(s)
    fanatics = next(a for a in s.assets.values() if a.type == "temple-fanatics")
    s.rng = ScriptedRng(*dice)
    s.apply(parse_action(f"attack {attacker['type']}#1 -> blue"))
    if s.phase == "react":  # Useful Idiots offered
        s.apply(parse_action("use useful-idiots#3"))
    assert s.rng.remaining == []
    if hp_after is None:
        assert fanatics.id not in s.assets
    else:
        assert s.assets[fanatics.id].hp == hp_after


# ------------------------------------------------------------------ Saboteurs
#: (Saboteurs' HP, Blue's other assets, dice, the Farmers are marked)
SABOTEURS = {
    "hit": (6, [], (9, 1, 1, 1), True),                          # 2d4 = 2 of the Farmers' 4 HP
    "miss, the Saboteurs survive the counter": (6, [], (1, 9, 2), True),
    "miss, the counter destroys the Saboteurs": (2, [], (1, 9, 3), True),
    "hit negated by Useful Idiots": (6, [A("useful-idiots", "c")], (9, 1), True),
    "hit destroys the target (nothing to mark)": (6, [], (9, 1, 2, 2), False),
}


@pytest.mark.parametrize("case", SABOTEURS)
def test_saboteurs_stop_the_targets_free_actions_next_turn_whatever_the_outcome(case):
    """6.8.0 Saboteurs: "An Asset that is Attacked by the Saboteurs can't use any free action
    abilities it may have during the next turn, whether or not the Attack was successful."
    The Farmers (free action: 1d6 harvest) were attacked, so Blue's turn that comes next (Blue
    acts after Red in this turn) offers no harvest: also when the Saboteurs died to the
    counterattack and when Useful Idiots were sacrificed to negate the hit."""
    hp, others, dice, marked = SABOTEURS[case]
    s = _state([A("saboteurs", "b", hp=hp)], [A("farmers", "b"), *others])
    _attacking(s)
    s.rng = ScriptedRng(*dice)
    s.apply(parse_action("attack saboteurs#1 -> blue"))
    if s.phase == "react":
        s.apply(parse_action("use useful-idiots#3"))
    assert s.rng.remaining == []
    if not marked:
        assert "farmers#2" not in s.assets
        return
    assert s.assets["farmers#2"].status["no_free_turn"] == 1
    play_to(s, "action", "blue")  # (with no free ability to offer, Blue's abilities step passed)
    assert abilities.free_options(s, "blue") == []
    s.assets["farmers#2"].status.clear()
    assert abilities.free_options(s, "blue") == [("farmers#2", "")]  # what the mark took away


# ------------------------------------------------------------------ Stealth: one rule
def _attack_action(s):
    _attacking(s)
    return do(s, "attack infantry#1 -> blue", 9, 1, 1)


def _cryptomancers(s):
    _attacking(s)
    return do(s, "use cryptomancers#1 farmers#2", 9, 1)


def _informers(s):
    play_to(s, "abilities", "red")
    return do(s, "use informers#1 blue", 9, 1)


def _vigilant_agents(s):
    play_to(s, "action", "red")
    s.apply(parse_action("action move"))
    return do(s, "move infantry#1 -> b", 9, 1)  # Blue's Agents attack the Stealthed mover


#: (Red's assets, Blue's assets, what happens, the attacking asset)
STEALTHY_ATTACKERS = {
    "an Attack action": ([A("infantry", "b", stealth=True)], [A("farmers", "b")], _attack_action,
                         "infantry#1"),
    "Cryptomancers": ([A("cryptomancers", "a", stealth=True)], [A("farmers", "b")], _cryptomancers,
                      "cryptomancers#1"),
    "Informers": ([A("informers", "a", stealth=True)], [A("farmers", "b", stealth=True)],
                  _informers, "informers#1"),
    "Vigilant Agents": ([A("infantry", "a", stealth=True)], [A("vigilant-agents", "c", stealth=True)],
                        _vigilant_agents, "vigilant-agents#2"),
}


@pytest.mark.parametrize("case", STEALTHY_ATTACKERS)
def test_every_asset_that_attacks_loses_its_stealth(case):
    """6.3.0: "Stealthed Assets cannot be Attacked by other Assets until they lose the Stealth
    quality. This happens when they are discovered by certain special Assets or when the Stealthed
    Asset Attacks something." Informers "make a Cunning vs. Cunning Attack", Cryptomancers "make a
    Cunning vs. Cunning attack", Vigilant Agents "may make a Cunning vs. Cunning attack": each is
    an attack, so each costs the attacker its Stealth, as the Attack action does."""
    red, blue, act, attacker = STEALTHY_ATTACKERS[case]
    s = _state(red, blue, treasure=2)
    events = act(s)
    assert not s.assets[attacker].stealth
    assert any(e.kind == "revealed" and e.data == {"asset": attacker, "reason": "attacked"}
               for e in events)
