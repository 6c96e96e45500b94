"""``factionsim odds``: the odds of one Attack (6.4.0 checks, 6.6.0 Attack), exact and sampled.

The exact odds are checked against brute force: the check and dice distributions against every
combination of faces, and whole attacks against the rules engine itself, played once for every
sequence of dice it can roll (each weighted by its probability). Monte Carlo is checked against
the exact odds where both apply, and where abilities step in it is the method chosen.
"""

from __future__ import annotations

import json
import pickle
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from wwn_helpers import ScriptedRng, faction, make_state, play_to

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.game import FactionsimError
from factionsim.odds import campaign_odds
from factionsim.rules.wwn.actions import parse_action
from factionsim.rules.wwn.checks import Side
from factionsim.rules.wwn.odds import (
    OddsError,
    action_odds,
    check_success,
    dice_distribution,
    kept_die,
)


# --------------------------------------------------------------------- the check (6.4.0)
def _brute_check(att: Side, dfn: Side) -> Fraction:
    """Every face of every die: "the attacker and defender both roll 1d10 and add their relevant
    attribute ... The attacker wins if their total is higher, and the defender wins if it's a tie
    or their roll is higher"; more dice: "the dice are rolled and the highest of them are used";
    rolled twice (Antimagical): the worse of the two results."""
    def kept(side: Side) -> list[int]:
        rolls = [max(r) for r in product(range(1, 11), repeat=side.dice)]
        if not side.twice_worst:
            return rolls
        return [min(x, y) for x in rolls for y in rolls]

    a_kept, d_kept = kept(att), kept(dfn)
    wins = sum(a + att.rating > d + dfn.rating for a in a_kept for d in d_kept)
    return Fraction(wins, len(a_kept) * len(d_kept))


CHECKS = [  # (attacker rating, dice, twice worst), (defender rating, dice, twice worst)
    ((2, 1, False), (1, 1, False)),   # the 1d10+2 vs 1d10+1 of the brief
    ((3, 1, False), (3, 1, False)),   # equal ratings: ties go to the defender
    ((1, 1, False), (8, 1, False)),
    ((5, 2, False), (4, 1, False)),   # Martial/Machiavellian/Rich: an extra die
    ((4, 1, False), (4, 3, False)),
    ((4, 1, True), (2, 1, False)),    # Antimagical: rolled twice, the worse kept
    ((6, 2, True), (3, 2, False)),
]


@pytest.mark.parametrize(("att", "dfn"), CHECKS)
def test_check_odds_equal_enumeration_of_every_face(att, dfn):
    a = Side("a", "force", att[0], att[1], att[2])
    d = Side("d", "force", dfn[0], dfn[1], dfn[2])
    assert check_success(a, d, None) == _brute_check(a, d)


def test_1d10_plus_2_against_1d10_plus_1_ties_to_the_defender():
    # "The attacker wins if their total is higher, and the defender wins if it's a tie": of the
    # 100 face pairs, the attacker wins when a + 2 > d + 1, i.e. d <= a: 55 of them
    assert check_success(Side("a", "force", 2), Side("d", "force", 1), None) == Fraction(55, 100)
    # equal totals are the defender's: 1d10+3 vs 1d10+3 is 45/100 for the attacker, not 50
    assert check_success(Side("a", "force", 3), Side("d", "force", 3), None) == Fraction(45, 100)


def test_massive_decides_without_dice():
    a, d = Side("a", "force", 7), Side("d", "force", 3)
    assert check_success(a, d, "attacker") == 1 and check_success(a, d, "defender") == 0


def test_kept_die_is_a_distribution():
    for dice, twice in product((1, 2, 3), (False, True)):
        dist = kept_die(dice, twice)
        assert sum(dist.values()) == 1 and set(dist) == set(range(1, 11))


@pytest.mark.parametrize("expr", ["1d8", "2d6", "1d4-1", "3d4+1", "1d10+2", "2d4-3"])
def test_damage_distribution_equals_enumeration(expr):
    count, rest = expr.split("d")
    sides, _, mod = rest.replace("-", "+-").partition("+")
    faces = list(product(range(1, int(sides) + 1), repeat=int(count)))
    want: dict[int, Fraction] = {}
    for f in faces:  # a total below 0 counts as 0 (core.dice: "never less")
        v = max(0, sum(f) + int(mod or 0))
        want[v] = want.get(v, Fraction(0)) + Fraction(1, len(faces))
    assert dice_distribution(expr) == want


# --------------------------------------------------------------------- whole attacks, brute force
def _engine_outcomes(state, action: str, outcome) -> dict[str, Fraction]:
    """Apply ``action`` on a copy of ``state`` once for every sequence of dice the rules ask for
    (each call of the dice branches over all its faces), and add up ``outcome(before, after,
    events)`` weighted by each sequence's probability."""
    blob = pickle.dumps(state)
    totals: dict[str, Fraction] = {}

    def run(prefix: tuple[int, ...], weight: Fraction) -> None:
        s = pickle.loads(blob)
        s.rng = ScriptedRng(*prefix)
        try:
            events = s.apply(parse_action(action))
        except AssertionError as exc:
            if "exhausted" not in str(exc):
                raise
            low, high, size = s.rng.calls[-1]
            n = size or 1
            for faces in product(range(low, high), repeat=n):
                run(prefix + faces, weight / (high - low) ** n)
            return
        assert s.rng.remaining == []
        for key, happened in outcome(state, s, events).items():
            totals[key] = totals.get(key, Fraction(0)) + (weight if happened else 0)

    run((), Fraction(1))
    return totals


def _observed(attacker: str, defender: str):
    def outcome(before, after, events):
        attack = next(e for e in events if e.kind == "attack")
        owner = before.assets[defender].owner
        return {"hit": attack.data["success"], "defender destroyed": defender not in after.assets,
                "attacker destroyed": attacker not in after.assets,
                "defending faction collapses": not after.factions[owner].alive}
    return outcome


def _exact(choice: dict) -> dict[str, Fraction]:
    return {k: Fraction(v["exact"]) for k, v in choice["outcomes"].items()}


def _at_attack(red: dict, blue: dict) -> object:
    s = make_state([faction("red", **red), faction("blue", headquarters="c", **blue)],
                   rng=ScriptedRng(8, 1))  # initiative: red first
    play_to(s, "action", "red")
    s.apply(parse_action("action attack"))
    s.rng = np.random.default_rng(0)  # the campaign's own dice (odds never roll them)
    return s


def test_exact_odds_equal_the_engine_over_every_die_infantry_against_thugs():
    # red Infantry (Force vs Force, 1d8) against Idealistic Thugs (counter 1d6): a hit damages the
    # thugs, a miss brings the counterattack on the infantry
    s = _at_attack({"force": 2, "assets": [{"type": "infantry", "location": "b", "hp": 3}]},
                   {"force": 1, "assets": [{"type": "idealistic-thugs", "location": "b"}]})
    action = "attack infantry#1 -> blue"
    result = action_odds(s, action, method="exact")
    (choice,) = result["defenders"]
    assert choice["method"] == "exact" and choice["defender"] == "idealistic-thugs#2"
    assert choice["check"]["hit"]["exact"] == "11/20"  # 1d10+2 vs 1d10+1
    assert _exact(choice) == {k: v for k, v in _engine_outcomes(
        s, action, _observed("infantry#1", "idealistic-thugs#2")).items()
        if k != "defending faction collapses"}
    assert choice["counter"]["dice"] == "1d6" and choice["damage"]["dice"] == "1d8"


def test_exact_odds_equal_the_engine_over_every_die_against_a_base():
    # "Damage done to a Base of Influence is also done directly to the faction's hit points.
    # Overflow damage is not transmitted": blue's headquarters Base has 3 HP, blue itself 2 HP
    s = _at_attack({"force": 4, "assets": [{"type": "infantry", "location": "c"}]},
                   {"force": 1, "cunning": 1, "wealth": 1, "hp": 2})
    (base,) = [a for a in s.assets.values() if a.owner == "blue"]
    assert (base.hp, s.factions["blue"].hp) == (3, 2)
    action = "attack infantry#1 -> blue"
    (choice,) = action_odds(s, action)["defenders"]
    assert choice["base"] and choice["method"] == "exact"
    assert _exact(choice) == _engine_outcomes(s, action, _observed("infantry#1", base.id))
    lost = {int(k): Fraction(v["exact"]) for k, v in choice["faction_damage"]["distribution"].items()}
    assert lost == {1: Fraction(1, 8), 2: Fraction(7, 8)}  # 1d8: 1 -> 1 HP, 2..8 -> at most 2


def test_each_defender_choice_has_its_own_odds():
    # "the defender chooses which of the Assets present will meet the Attack"
    s = _at_attack({"force": 3, "assets": [{"type": "infantry", "location": "b"}]},
                   {"force": 3, "cunning": 5, "assets": [{"type": "informers", "location": "b"},
                                                         {"type": "infantry", "location": "b"}]})
    result = action_odds(s, "attack infantry#1 -> blue")
    assert [d["defender"] for d in result["defenders"]] == ["informers#2", "infantry#3"]
    hits = [Fraction(d["check"]["hit"]["exact"]) for d in result["defenders"]]
    # Infantry attacks Force vs Force whoever defends: the same check, different HP and counters
    assert hits[0] == hits[1] == Fraction(45, 100)
    assert [d["counter"] and d["counter"]["dice"] for d in result["defenders"]] == [None, "1d6"]


# --------------------------------------------------------------------- Monte Carlo
def test_monte_carlo_agrees_with_exact_within_its_intervals():
    # the bundled campaign's Guerrilla Populace on the Legion's Cavalry at Greymoor: every outcome
    # but "defender destroyed" has a chance strictly between 0 and 1 (worked out by hand below)
    path = default_campaign_path()
    action = "attack guerrilla-populace#18 -> iron-legion"
    exact, _ = campaign_odds(path, action)
    sampled, text = campaign_odds(path, action, method="monte-carlo", samples=2000, seed=3)
    e, m = exact["defenders"][0], sampled["defenders"][0]
    assert e["method"] == "exact" and m["method"] == "monte-carlo" and m["samples"] == 2000
    for outcome, p in e["outcomes"].items():
        share = m["outcomes"][outcome]
        assert share["n"] == 2000 and share["lo"] <= p["p"] <= share["hi"], outcome
    assert "2000 rollouts" in text and "95% intervals" in text


# The bundled campaign at turn 0 has two attacks, both at Greymoor, where the Iron Legion's
# Cavalry (Force 4 asset, 12 HP, attack Force vs Force 2d6, counterattack 1d4) stands beside the
# Cult of the Ashen Flame's Guerrilla Populace (Force 2 asset, 4 HP, attack Force vs Force 1d4+1,
# no counterattack). The Legion has Force 7 and the tag Martial: "It rolls an extra die for all
# Force attribute checks", attacking or defending; the Cult has Force 3. Worked by hand from
# 6.4.0 ("the attacker and defender both roll 1d10 and add their relevant attribute ... The
# attacker wins if their total is higher, and the defender wins if it's a tie or their roll is
# higher"; "the dice are rolled and the highest of them are used") and 6.6.0 Attack ("On a
# success, the defending Asset takes damage equal to the attacking Asset's attack score ... On a
# failure, the attacking Asset takes damage equal to the defending Asset's counterattack score";
# "If the damage done to an Asset reduces it to zero hit points, it is destroyed"). The highest
# of 2d10 is k with chance (k^2 - (k-1)^2)/100 = (2k-1)/100.
#
# Cavalry -> Cult: 2d10 keep highest + 7 vs 1d10 + 3. The Cavalry hits when k + 7 > d + 3, i.e.
#   d <= k + 3: k + 3 of the 10 faces of d for k <= 6, all 10 for k >= 7:
#   sum_{k=1..6} (2k-1)(k+3) = 4 + 15 + 30 + 49 + 72 + 99 = 269, sum_{k=7..10} (2k-1) * 10 = 640,
#   hit = (269 + 640) / 1000 = 909/1000. The Populace (4 HP) dies when 2d6 >= 4: 1 - 3/36 = 11/12,
#   so destroyed = 909/1000 * 11/12 = 3333/4000. No counterattack: the Cavalry never dies.
# Populace -> Legion (the Cavalry, its only asset there, meets it): 1d10 + 3 vs 2d10 keep highest
#   + 7. The Populace hits when a + 3 > k + 7, i.e. a >= k + 5: 6 - k faces for k <= 5:
#   sum_{k=1..5} (2k-1)(6-k) = 5 + 12 + 15 + 14 + 9 = 55, hit = 55/1000 = 11/200. 1d4+1 (at most
#   5) never fells 12 HP. On a miss (189/200) the Cavalry's 1d4 counterattack kills the 4-HP
#   Populace on a 4 (1/4): attacker destroyed = 189/200 * 1/4 = 189/800.
HAND_WORKED = [
    ("attack cavalry#4 -> ashen-flame", "guerrilla-populace#18", "909/1000",
     {"hit": "909/1000", "defender destroyed": "3333/4000", "attacker destroyed": "0"}, None),
    ("attack guerrilla-populace#18 -> iron-legion", "cavalry#4", "11/200",
     {"hit": "11/200", "defender destroyed": "0", "attacker destroyed": "189/800"}, "1d4"),
]


@pytest.mark.parametrize(("action", "defender", "hit", "outcomes", "counter"), HAND_WORKED)
def test_bundled_campaign_odds_equal_the_hand_computation(action, defender, hit, outcomes,
                                                          counter):
    result, _ = campaign_odds(default_campaign_path(), action)
    (choice,) = result["defenders"]
    assert (choice["defender"], choice["method"]) == (defender, "exact")
    assert choice["check"]["hit"]["exact"] == hit
    assert _exact(choice) == {k: Fraction(v) for k, v in outcomes.items()}
    assert (choice["counter"] and choice["counter"]["dice"]) == counter


def test_abilities_that_step_in_make_it_monte_carlo():
    # Temple Fanatics "take 1d4 damage" after every attack: the engine plays that part, the check
    # itself is the plain 1d10+Force vs 1d10+Force
    s = _at_attack({"force": 2, "assets": [{"type": "temple-fanatics", "location": "b"}]},
                   {"force": 2, "assets": [{"type": "infantry", "location": "b"}]})
    action = "attack temple-fanatics#1 -> blue"
    before = s.to_dict()
    with pytest.raises(OddsError, match="Temple Fanatics .* acts after it attacks"):
        action_odds(s, action, method="exact")
    result = action_odds(s, action, samples=1000, choose=lambda *a: pytest.fail("nobody is asked"))
    (choice,) = result["defenders"]
    assert choice["method"] == "monte-carlo" and "acts after it attacks" in choice["why"][0]
    hit = choice["outcomes"]["hit"]
    assert hit["lo"] <= 0.45 <= hit["hi"]  # 1d10+2 vs 1d10+2
    # the fanatics (6 HP) can die of the 1d6 counterattack, or of their own 1d4 after a hit
    assert choice["outcomes"]["attacker destroyed"]["count"] > 0
    assert s.to_dict() == before  # the state itself (its dice included) is untouched


# --------------------------------------------------------------------- errors and the command
@pytest.mark.parametrize(("action", "message"), [
    ("move cavalry#4 -> vell", "odds are given for attacks"),
    ("attack infantry#99 -> ashen-flame", "no asset 'infantry#99' in play; attacks possible now: "
                                          "cavalry#4 -> ashen-flame"),
    ("attack cavalry#4 -> nobody", "no faction 'nobody'"),
    ("attack cavalry#4 -> silver-guild", "silver-guild has no asset at greymoor"),
    ("attack base-of-influence#19 -> ashen-flame", "cannot attack now"),
    ("attack knights#1 -> silver-guild", "silver-guild has no asset at tarsis"),
    # the Veiled Hand is neutral towards the Guild (the campaign's relations): no attack at all
    ("attack thugs#15 -> silver-guild", "not hostile .* it can attack: nobody"),
])
def test_actions_without_odds_are_clear_errors(action, message):
    with pytest.raises(FactionsimError, match=message):
        campaign_odds(default_campaign_path(), action)


def test_rulesets_without_odds_say_so():
    with pytest.raises(FactionsimError, match="not available for the houses ruleset .*wwn"):
        campaign_odds(default_campaign_path("houses"), "anything")


def test_odds_command_leaves_the_campaign_alone(tmp_path, capsys):
    path = tmp_path / "march.yaml"
    path.write_bytes(default_campaign_path().read_bytes())
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    # the numbers of HAND_WORKED, as the command prints them (docs/commands.md shows the first)
    assert main(["odds", str(path), "attack cavalry#4 -> ashen-flame"]) == 0
    out = capsys.readouterr().out
    assert "2d10 keep highest + 7 vs 1d10 + 3 (a tie goes to the defender)" in out
    assert "exactly 909/1000" in out and "exactly 3333/4000" in out and "no counterattack" in out
    assert main(["odds", str(path), "attack guerrilla-populace#18 -> iron-legion"]) == 0
    out = capsys.readouterr().out
    assert "1d10 + 3 vs 2d10 keep highest + 7 (a tie goes to the defender)" in out
    assert "exactly 11/200" in out and "exactly 189/800" in out
    assert "counterattack on a miss (1d4): 1: 25.0%, 2: 25.0%, 3: 25.0%, 4: 25.0%" in out
    assert main(["odds", str(path), "attack cavalry#4 -> ashen-flame", "--json",
                 "--method", "monte-carlo", "--samples", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["defenders"][0]["outcomes"]["hit"]["n"] == 50
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["march.yaml"]
    assert main(["odds", str(path), "hide cavalry#4"]) == 2
    assert "odds are given for attacks" in capsys.readouterr().err
