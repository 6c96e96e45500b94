"""The heuristic and the env with a campaign's own content (tests/data/wwn_homebrew.yaml): the
heuristic buys homebrew assets when they are good, uses a homebrew transport, and picks and
completes the campaign's own goals; the WWN codec encodes homebrew goal choices in the "other"
block's reserved slot, so the catalogue (and the shipped policy's env version) is unchanged."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

import factionsim
from factionsim.agents import make_agent
from factionsim.agents.wwn_heuristic import homebrew as hb
from factionsim.agents.wwn_heuristic.personality import Personality
from factionsim.agents.wwn_heuristic.tactics import Situation
from factionsim.rules.wwn.actions import ChooseGoal

DATA = Path(__file__).parent / "data"
CAMPAIGN = DATA / "wwn_homebrew.yaml"
GAMES, TURNS = 6, 10


def _heuristic_games() -> Counter:
    """Counts of experiments/homebrew_play.py over GAMES heuristic games of TURNS turns."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
    try:
        from homebrew_play import play
    finally:
        sys.path.remove(str(Path(__file__).parents[1] / "experiments"))
    counts: Counter = Counter()
    for key, n in play(CAMPAIGN, GAMES, TURNS).items():
        what = {"bought": "bought", "homebrew": "transport", "goal-chosen": "chose",
                "goal-complete": "completed"}.get(key.split(" ")[0])
        if what:
            counts[what] += n
    return counts


def test_the_heuristic_buys_homebrew_assets_transports_and_plays_homebrew_goals():
    """Over a few heuristic games (6 games of 10 turns) each of these happens at least once: a
    homebrew asset bought, a homebrew transport's free carry, a homebrew goal chosen at a goal
    step and one completed. (Before the heuristic valued homebrew abilities and knew homebrew
    goals, 100 games had no purchase and no carry, and the goals were abandoned.)"""
    counts = _heuristic_games()
    for what in ("bought", "transport", "chose", "completed"):
        assert counts[what] > 0, (what, counts)


def _situation(fid="bargemen"):
    s = factionsim.load_campaign(CAMPAIGN)
    return s, Situation(s.view(fid), Personality.of(s.factions[fid]))


def test_an_income_asset_is_worth_its_treasure_over_the_turns_left():
    """A Toll Bridge (+1 Treasure a turn) is valued at the Treasure it brings over the turns the
    game has left (at most 8), and upkeep costs the same way; extra dice add a share of the
    stat line they improve."""
    s, sit = _situation()
    bridge, barges = s.asset_types["toll-bridge"], s.asset_types["river-barges"]
    per_turn = hb.TREASURE_POINTS * sit.p.greed
    assert hb.effect_value(sit, bridge, 0.0, 0.0) == pytest.approx(hb.HORIZON * per_turn)
    s.max_turns = 3
    assert hb.effect_value(sit, bridge, 0.0, 0.0) == pytest.approx(3 * per_turn)
    transport = hb.effect_value(sit, barges, 0.0, 0.0) + 3 * per_turn  # less its upkeep of 1
    assert transport > 0
    wall = s.asset_types["shield-wall"]
    assert hb.effect_value(sit, wall, 0.0, 10.0) == pytest.approx(3.0 * sit.p.caution)


def test_an_own_assets_goal_makes_its_type_worth_buying_until_it_has_enough():
    s, sit = _situation()   # the Bargemen's goal: own 2 River Barges (they have 1)
    assert sit.goal.id == "barge-fleet"
    assert hb.purchase_bonus(sit, "river-barges") > 0
    assert hb.purchase_bonus(sit, "toll-bridge") == 0
    s.new_asset("river-barges", "bargemen", "weir")
    _, sit = s, Situation(s.view("bargemen"), Personality.of(s.factions["bargemen"]))
    assert hb.purchase_bonus(sit, "river-barges") == 0


def test_the_purchase_that_completes_an_own_assets_goal_pays_all_its_xp():
    """A Fleet of Barges (difficulty 1) asks for 2 River Barges: with one owned, the purchase
    that completes it earns the goal's whole XP; with none owned each of the two earns half.
    The greedy Bargemen (Wealth their best attribute), weighing the second barge's upkeep of 1
    a turn, then value it above every other purchase at their headquarters (before, they
    counted half the XP for it and never bought it: their River Barges never carried anything)."""
    s, sit = _situation()
    assert sit.p.temperament == "greedy"
    assert hb.purchase_bonus(sit, "river-barges") == pytest.approx(1.0)
    best = max(sit.state.buyable(sit.me, "weir"),
               key=lambda t: sit.purchase_value(t, "weir"))
    assert best == "river-barges"
    for a in [a for a in s.assets.values() if a.type == "river-barges"]:
        del s.assets[a.id]
    sit = Situation(s.view("bargemen"), Personality.of(s.factions["bargemen"]))
    assert hb.purchase_bonus(sit, "river-barges") == pytest.approx(0.5)


def test_homebrew_goal_choices_are_encoded_in_the_reserved_other_slot():
    """The codec keeps the book's goal block; a campaign's own goals take the "other" block's
    reserved slot, the k-th one offered at index other + (MAX_OTHER_KINDS - 2) * K + k."""
    pytest.importorskip("pettingzoo")
    from factionsim.envs.wwn_codec import MAX_OTHER_KINDS, WwnCodec

    s = factionsim.load_campaign(CAMPAIGN)
    codec = WwnCodec(s)
    me = s.factions["bargemen"]
    legal = [ChooseGoal("blood-the-enemy"), *(ChooseGoal(g) for g in s.goal_types)]
    idx = codec.encode_actions(s.view(me.id), legal)
    base = codec.offset["other"] + (MAX_OTHER_KINDS - 2) * codec.limits.options
    assert idx[1:] == [base + k for k in range(len(s.goal_types))]
    assert idx[0] == codec.offset["goal"] + codec.goal_offset["blood-the-enemy"]
    obs = np.zeros(codec.obs_size, dtype=np.float32)
    codec.observe(s.view(me.id), obs)   # a homebrew goal and homebrew tags observe as well
    assert codec.layout.view(obs, "tags").sum() == 0   # the Bargemen's tags are both homebrew


def test_the_shipped_policy_still_fits_and_plays_a_campaign_with_homebrew_goals(tmp_path):
    """Adding goal_types and tag_types to the campaign the shipped policy was trained on keeps
    its spaces (env version 2, same sizes): the trained agent plays it, homebrew goals included."""
    pytest.importorskip("pettingzoo")
    data = yaml.safe_load((Path(factionsim.__file__).parent.parent / "configs" /
                           "shattered_march.yaml").read_text())
    homebrew = yaml.safe_load(CAMPAIGN.read_text())
    data["tag_types"] = homebrew["tag_types"]
    data["goal_types"] = [g for g in homebrew["goal_types"]
                          if g["counter"]["kind"] not in ("own-assets", "hold-base")]
    data["factions"][0]["tags"] = ["river-lords"]
    data["factions"][0]["goal"] = "river-reavers"
    for f in data["factions"]:
        f["agent"] = "trained"
    path = tmp_path / "march.yaml"
    path.write_text(yaml.safe_dump(data))
    s = factionsim.load_campaign(path)
    s.max_turns = 4
    agent = make_agent("trained", "wwn")
    rng = np.random.default_rng(1)
    while (actor := s.current_actor()) is not None:
        s.apply(agent.act(s.view(actor), s.legal_actions(), rng))
        assert "beyond what" not in (agent.last_reason or "")   # the policy itself decided
    assert s.is_over()


def test_the_heuristic_meets_an_attacker_it_cannot_see_with_its_sturdiest_asset():
    """A Stealthed attacker is not in the defender's view (views are opaque): the heuristic
    defends with its sturdiest asset instead of weighing a blow it cannot see."""
    from wwn_helpers import ScriptedRng, faction, make_state, play_to

    from factionsim.rules.wwn.actions import Defend, parse_action

    s = make_state([faction("red", assets=[{"type": "infantry", "location": "b",
                                            "stealth": True}]),
                    faction("blue", headquarters="c",
                            assets=[{"type": "infantry", "location": "b", "hp": 2},
                                    {"type": "local-guard", "location": "b"}])],
                   rng=ScriptedRng(8, 1))
    play_to(s, "action", "red")
    s.apply(parse_action("action attack"))
    s.apply(parse_action("attack infantry#1 -> blue"))
    assert s.phase == "defend" and s.current_actor() == "blue"
    assert s.view("blue").asset("infantry#1") is None
    agent = make_agent("heuristic", "wwn")
    choice = agent.act(s.view("blue"), s.legal_actions(), np.random.default_rng(0))
    assert isinstance(choice, Defend) and choice.asset == "local-guard#3"
