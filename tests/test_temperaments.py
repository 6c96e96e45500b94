"""How each temperament plays its part (issue 24 item 5): what a greedy faction buys and raises,
what a scheming one buys and strikes with, and the odds each takes a fight at. Each test sets
the same faction before two temperaments (or a temperament and ``balanced``) and checks the
choice that differs; the batch figures are in docs/agents.md."""

from __future__ import annotations

import numpy as np
from wwn_helpers import faction, make_state, play_to

from factionsim.agents.wwn_heuristic import HeuristicAgent, Personality
from factionsim.agents.wwn_heuristic.tactics import AttackPlan, Situation
from factionsim.rules.wwn import turn as T
from factionsim.rules.wwn.actions import RaiseRating

RNG = np.random.default_rng(0)


def _state(**us):
    s = make_state([faction("us", **us), faction("them", assets=[
        {"type": "infantry", "location": "c"}])])
    return s


def _situation(state, temperament):
    view = state.view("us")
    return Situation(view, Personality.of(view.faction, temperament))


def test_greedy_values_an_earning_asset_more_than_balanced():
    """Court Patronage "earns its owner 1 extra Treasure at the start of each of its turns"; a
    greedy faction counts that income (and a Free Company's upkeep of 1 Treasure a turn) for more
    than a balanced one does."""
    s = _state(force=4, cunning=4, wealth=4, treasure=20)
    greedy, balanced = _situation(s, "greedy"), _situation(s, "balanced")
    earning = greedy.purchase_value("court-patronage", "a") - balanced.purchase_value(
        "court-patronage", "a")
    plain = greedy.purchase_value("spymaster", "a") - balanced.purchase_value("spymaster", "a")
    assert earning > plain + 3
    upkeep = greedy.purchase_value("free-company", "a") - balanced.purchase_value(
        "free-company", "a")
    assert upkeep < plain


def test_greedy_raises_the_attribute_that_opens_an_earning_asset():
    """With Cunning 3, one more point opens Court Patronage (Cunning 4, +1 Treasure a turn);
    Force 3 -> 4 opens nothing that earns. A greedy faction with XP for any raise raises Cunning
    and says why; the same faction, balanced, raises its focus (Force, on a tie)."""
    s = _state(force=3, cunning=3, wealth=3, xp=20)
    play_to(s, T.RAISE, "us")
    legal = s.legal_actions()
    greedy = HeuristicAgent(temperament="greedy")
    assert greedy.act(s.view("us"), legal, RNG) == RaiseRating("cunning")
    assert "Court Patronage" in greedy.last_reason
    assert HeuristicAgent(temperament="balanced").act(s.view("us"), legal, RNG) \
        == RaiseRating("force")


def test_scheming_prefers_cunning_purchases():
    """Scheming prices Cunning assets above the rest: the gap between the best Cunning asset and
    the best Force asset it could buy is wider for it than for the same faction, balanced."""
    s = _state(force=4, cunning=4, wealth=4, treasure=10)

    def gap(temperament):
        sit = _situation(s, temperament)
        best = {attr: max(sit.purchase_value(k, "a") for k, kind in s.asset_types.items()
                          if kind.attribute == attr and kind.rating <= 4 and kind.magic_level == 0)
                for attr in ("cunning", "force")}
        return best["cunning"] - best["force"]

    assert gap("scheming") > gap("balanced") + 3


def test_scheming_strikes_with_its_agents_rather_than_its_soldiers():
    """Against the same Infantry, a scheming faction values its Saboteurs' (Cunning) blow more
    than a balanced one does, and its Knights' (Force) blow less."""
    s = make_state([faction("us", force=4, cunning=4, assets=[
        {"type": "knights", "location": "b"}, {"type": "saboteurs", "location": "b"}]),
        faction("them", assets=[{"type": "infantry", "location": "b"}])])
    scheming, balanced = _situation(s, "scheming"), _situation(s, "balanced")

    def value(sit, kind):
        mine = next(a for a in sit.mine if a.type == kind)
        return sit.attack_value(mine, next(iter(sit.enemies)))[0]

    assert value(scheming, "saboteurs") > value(balanced, "saboteurs")
    assert value(scheming, "knights") < value(balanced, "knights")


def test_odds_each_temperament_fights_at():
    """An attack at 40% to hit is worth making for an aggressive or balanced faction, not for a
    cautious or greedy one (a lost fight is lost money); at 55% all of them take it."""
    s = _state()
    for chance, fights in ((0.4, {"aggressive", "balanced", "scheming"}),
                           (0.55, {"aggressive", "balanced", "scheming", "cautious", "greedy"})):
        plan = AttackPlan("x", "them", "y", chance, 5.0, 0.0)
        took = {t for t in ("aggressive", "cautious", "greedy", "scheming", "balanced")
                if _situation(s, t).attack_ready(plan)}
        assert took == fights


def _spots_state(goal=None):
    """Us with an Informers network at B (quiet) and one at D (next to C, where their Infantry
    stand): both are spots for a new Base. "Damage done to a Base of Influence is also done
    directly to the faction's hit points." (WWN, Attack)"""
    locations = [{"id": "a", "neighbors": ["b", "d"]}, {"id": "b"}, {"id": "c", "neighbors": ["d"]},
                 {"id": "d"}]
    us = faction("us", force=4, cunning=4, wealth=4, treasure=10, assets=[
        {"type": "informers", "location": "b"}, {"type": "informers", "location": "d"}])
    if goal:
        us["goal"] = goal
    return make_state([us, faction("them", headquarters="c", assets=[
        {"type": "infantry", "location": "c"}])], locations)


def test_greedy_plants_its_bases_away_from_its_rivals_blows():
    """A greedy faction plants a Base as an investment only where no rival can strike it soon:
    D, one move from their Infantry, scores below quiet B for it (and it founds its Base at B),
    while a balanced faction sees the two spots alike (the last in map order wins the tie)."""
    from factionsim.agents.wwn_heuristic import _expand_where
    from factionsim.rules.wwn.actions import ExpandAt

    s = _spots_state()
    greedy, balanced = _situation(s, "greedy"), _situation(s, "balanced")
    assert greedy.base_risk("d") > 0 == greedy.base_risk("b")
    assert greedy.plant_score("d") < greedy.plant_score("b") == balanced.plant_score("b")
    assert balanced.plant_score("d") == balanced.plant_score("b")
    legal = [ExpandAt("b"), ExpandAt("d")]
    assert _expand_where(greedy, legal)[0] == ExpandAt("b")
    assert _expand_where(balanced, legal)[0] == ExpandAt("d")


def test_greedy_plants_where_its_goal_asks_whatever_the_risk():
    """With Expand Influence (plant a Base) as its goal, the greedy faction weighs spots as
    any other does: the goal is worth the risk."""
    s = _spots_state("expand-influence")
    greedy = _situation(s, "greedy")
    assert greedy.plant_score("d") == greedy.expand_score("d") == greedy.plant_score("b")


def _expand_state(treasure):
    """Us with Informers at B (quiet ground, no Base of ours there) and ``treasure``."""
    return make_state([faction("us", force=4, cunning=4, wealth=4, treasure=treasure, assets=[
        {"type": "informers", "location": "b"}]), faction("them", headquarters="c")],
        [{"id": "a", "neighbors": ["b"]}, {"id": "b"}, {"id": "c"}])


def test_greedy_builds_its_bases_to_last():
    """Expand Influence: "the faction may pay 1 Treasure for each hit point it wishes the Base
    to have" (at most its own maximum HP). A Base keeps the Treasure paid for its HP while it
    stands, so a greedy faction puts up to half its spare Treasure (its Treasure less 2) into a
    new Base, 3 HP at least and 6 at most; a balanced faction gives quiet ground 1 HP."""
    from factionsim.agents.wwn_heuristic import _expand_hp
    from factionsim.rules.wwn.actions import BaseHp, ChooseAction, ExpandAt

    for treasure, greedy_hp in ((6, 3), (10, 4), (20, 6)):  # (Treasure after income, HP)
        s = _expand_state(treasure - 4)  # income: Wealth 4 / 2 + (Force 4 + Cunning 4) / 4
        play_to(s, T.ACTION, "us")
        assert s.factions["us"].treasure == treasure
        s.apply(ChooseAction("expand"))
        if s.phase == T.EXPAND_WHERE:
            s.apply(ExpandAt("b"))
        assert s.phase == T.EXPAND_HP
        legal = s.legal_actions()
        assert _expand_hp(_situation(s, "greedy"), legal)[0] == BaseHp(greedy_hp)
        assert _expand_hp(_situation(s, "balanced"), legal)[0] == BaseHp(1)


def test_greedy_does_not_buy_xp_with_bribes():
    """Wealth of Kingdoms: "spend Treasure equal to four times the faction's Wealth rating on
    bribes and influence" for 2 XP. With the 12 Treasure it needs in hand, a balanced faction
    sets out for it at once; a greedy one keeps its Treasure and takes Expand Influence (an
    asset already stands on ground with no Base of its)."""
    s = make_state([faction("us", treasure=12, assets=[{"type": "informers", "location": "a"}]),
                    faction("them", headquarters="c", assets=[{"type": "infantry",
                                                               "location": "c"}])])
    play_to(s, T.GOAL, "us")
    legal = s.legal_actions()
    picks = {t: HeuristicAgent(temperament=t).act(s.view("us"), legal, RNG).goal
             for t in ("greedy", "balanced")}
    assert picks == {"greedy": "expand-influence", "balanced": "wealth-of-kingdoms"}
