"""The Cortex Prime dice core of the Great Houses, table by table."""

from __future__ import annotations

import pytest
from wwn_helpers import ScriptedRng

from factionsim.core.names import Names
from factionsim.rules.houses.dice import add_die, evaluate, inflict, roll, step_down, step_up
from factionsim.rules.houses.prose import pools


@pytest.mark.parametrize("dice, values, total, effect, hitches", [
    ([8, 10, 6], [7, 9, 3], 16, 6, 0),          # best two, the third is the effect die
    ([8, 10, 6], [7, 9, 1], 16, 4, 1),          # a hitch never counts: no die left -> d4
    ([8, 10, 6], [1, 9, 5], 14, 4, 1),          # the d8 hitch is not the effect die either
    ([8, 8], [1, 1], 0, 4, 2),                  # nothing usable: total 0, effect d4
    ([6, 6, 12], [1, 4, 1], 4, 4, 2),           # one usable die: total is that die
    ([8, 10, 12, 6], [5, 5, 5, 2], 10, 12, 0),  # equal values: the smaller dice go to the total
    ([4, 4, 4], [4, 4, 4], 8, 4, 0),
    ([12, 6, 8], [12, 6, 3], 18, 8, 0),
])
def test_totals_effects_and_hitches(dice, values, total, effect, hitches):
    r = evaluate(dice, values)
    assert (r.total, r.effect, r.hitches) == (total, effect, hitches)


def test_difficulty_ones_are_plain_numbers():
    """2d8 summed: the difficulty pool's 1s count."""
    assert evaluate([8, 8], [1, 6], hitches_count=True).total == 7


@pytest.mark.parametrize("dice, values, before, after, effect_after", [
    ([8, 10, 6], [7, 9, 3], 16, 19, 4),     # a Plot Point keeps the third die
    ([8, 10, 6, 12], [7, 9, 3, 2], 16, 19, 12),
])
def test_plot_point_adds_a_die(dice, values, before, after, effect_after):
    r = evaluate(dice, values)
    assert r.total == before and r.can_add()
    r2 = add_die(r)
    assert (r2.total, r2.effect) == (after, effect_after)


def test_plot_point_cannot_add_a_hitch():
    assert not evaluate([8, 10, 6], [7, 9, 1]).can_add()


@pytest.mark.parametrize("current, effect, result", [
    (0, 6, 6),     # no stress yet: the effect die
    (6, 6, 8),     # equal: steps up
    (8, 6, 10),    # larger: steps up
    (6, 10, 10),   # smaller: becomes the effect die
    (12, 4, 0),    # past d12 (0: taken out / collapse, the caller decides)
    (12, 12, 0),
    (10, 12, 12),
])
def test_stress_steps_up_when_equal_or_larger(current, effect, result):
    assert inflict(current, effect) == result


@pytest.mark.parametrize("d, up, down", [(4, 6, 0), (6, 8, 4), (8, 10, 6), (10, 12, 8), (12, 0, 10)])
def test_steps(d, up, down):
    assert (step_up(d), step_down(d)) == (up, down)


def test_roll_uses_one_die_at_a_time():
    rng = ScriptedRng(7, 9, 3)
    r = roll(rng, [8, 10, 6])
    assert rng.calls == [(1, 9, None), (1, 11, None), (1, 7, None)]
    assert (r.total, r.effect) == (16, 6)


def test_chronicle_shows_the_dice():
    act = evaluate([8, 10, 6], [7, 9, 3]).to_dict()
    opp = {**evaluate([8, 8], [5, 6], hitches_count=True).to_dict(), "house": None,
           "labels": ["difficulty", "difficulty"]}
    assert pools({**act, "house": "a"}, opp, Names()) == "d8 d10 d6 -> 7+9, effect d6 vs 2d8 = 11"
    opp2 = {**evaluate([8, 8, 6], [5, 6, 2], hitches_count=True).to_dict(), "house": None,
            "labels": ["difficulty", "difficulty", "stress:a"]}
    assert pools({**act, "house": "a"}, opp2, Names()) == "d8 d10 d6 -> 7+9, effect d6 vs 2d8 + d6 = 11"
