"""Who owns what: assets that change sides, and a headquarters Base that is lost for good.

Default map a - b - c; red acts first (initiative 8 against 1), every die scripted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from wwn_helpers import ScriptedRng, do, faction, make_state, play_to, texts

from factionsim.core.campaign import save_campaign
from factionsim.rules.wwn import movement
from factionsim.rules.wwn.state import WwnState
from factionsim.rulesets import load_campaign

RULES = Path(__file__).resolve().parents[1] / "factionsim" / "rules" / "wwn"


#: every way the engine builds a state from another one
RELOADS = ["from_dict", "copy", "planner view", "file"]


def _reloaded(s, how, tmp_path):
    """``s`` saved and built again: ``from_dict(to_dict())``, ``copy()``, the planner's view of
    Red (``view().to_state``) or ``save_campaign`` + ``load_campaign``."""
    s.rng = np.random.default_rng(0)
    if how == "from_dict":
        return WwnState.from_dict(s.to_dict())
    if how == "copy":
        return s.copy()
    if how == "planner view":
        return s.view("red").to_state(np.random.default_rng(1))
    save_campaign(s, tmp_path / "c.yaml")
    return load_campaign(tmp_path / "c.yaml")


# ------------------------------------------------------------------ Lead or Silver (item 1)
def _claimed():
    """Red's Lead or Silver (Wealth vs Wealth, 2d10) brings Blue's Infantry (6 HP, cost 6) to 0 at
    b and red pays half its cost, 3 Treasure, to claim it. Blue also has Knights at b."""
    s = make_state([faction("red", wealth=7, treasure=10,
                            assets=[{"type": "lead-or-silver", "location": "b"},
                                    {"type": "infantry", "location": "b"}]),
                    faction("blue", headquarters="c",
                            assets=[{"type": "infantry", "location": "b"},
                                    {"type": "knights", "location": "b"}])],
                   rng=ScriptedRng(8, 1))
    play_to(s, "action", "red")
    do(s, "action attack")
    do(s, "attack lead-or-silver#1 -> blue")
    do(s, "defend with infantry#3", 9, 1, 5, 5)       # 9+7 vs 1+3; 2d10 = 10 >= 6 HP
    assert texts(s) == ["use lead-or-silver#1 claim", "decline"]
    do(s, "use lead-or-silver#1 claim")
    return s


def test_lead_or_silver_claim_changes_the_owner_everywhere_at_once():
    """6.10.0 Lead or Silver: "If Lead or Silver's Attack reduces an enemy Asset to zero hit points,
    this Asset's owner may immediately pay half the target's purchase cost to claim it as their
    own, reviving it with 1 hit point." The claimed Infantry is Red's from that moment: Blue can no
    longer choose it to meet Red's next attack in the same action, and it is Red's in every
    query of ownership."""
    s = _claimed()
    inf = s.assets["infantry#3"]
    assert (inf.owner, inf.hp) == ("red", 1)
    assert s.factions["red"].treasure == 10 + 5 - 3
    assert inf in s.assets_of("red") and inf not in s.assets_of("blue")
    red_infantry = s.assets["infantry#2"]
    assert [d.id for d in movement.defenders(s, "blue", red_infantry)] == ["knights#4"]
    assert "attack infantry#2 -> blue" in texts(s)


@pytest.mark.parametrize("how", RELOADS)
def test_a_claimed_asset_is_saved_under_its_new_owner(how, tmp_path):
    """A save made right after the claim (before anything else touches the asset table) writes the
    Infantry under Red; loading it back must not hand it back to Blue."""
    t = _reloaded(_claimed(), how, tmp_path)
    assert t.assets["infantry#3"].owner == "red"
    assert "infantry#3" in [a.id for a in t.assets_of("red")]
    assert "infantry#3" not in [a.id for a in t.assets_of("blue")]


def test_only_the_asset_table_changes_owners():
    """One path for every ownership change, the one that keeps the owner index
    (``AssetTable.reassign``): no rules module assigns ``<asset>.owner`` itself."""
    offenders = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for t in targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Attribute) and el.attr == "owner":
                        offenders.append(f"{path.name}:{node.lineno}")
    assert [o.split(":")[0] for o in offenders] == ["model.py"], offenders  # AssetTable.reassign


# ------------------------------------------------------------------ the headquarters Base (item 2)
def _hq_destroyed():
    """Blue's headquarters Base at c has 2 HP left of 12 (Blue 3/3/3, at 12 HP); Red's Infantry
    hits it for 1d8 = 5: the Base is destroyed and Blue loses 2 HP (no overflow), surviving."""
    s = make_state([faction("red", assets=[{"type": "infantry", "location": "c"}]),
                    faction("blue", headquarters="c",
                            assets=[{"type": "base-of-influence", "location": "c", "hp": 2},
                                    {"type": "farmers", "location": "b"}])],
                   rng=ScriptedRng(8, 1))
    play_to(s, "action", "red")
    do(s, "action attack")
    do(s, "attack infantry#1 -> blue", 9, 1, 5)
    blue = s.factions["blue"]
    assert blue.alive and blue.hp == 10 and s.base_of("blue", "c") is None
    return s


@pytest.mark.parametrize("how", RELOADS)
def test_a_destroyed_headquarters_base_stays_destroyed(how, tmp_path):
    """6.6.0: "If the damage done to an Asset reduces it to zero hit points, it is destroyed."
    6.7.0 gives every faction a Base "at their primary headquarters" when it is created; nothing
    rebuilds one that was destroyed in play. Every way of loading a state keeps it gone."""
    t = _reloaded(_hq_destroyed(), how, tmp_path)
    assert t.base_of("blue", "c") is None and t.headquarters_base("blue") is None
    assert t.factions["blue"].hp == 10 and t.factions["blue"].headquarters_lost


def test_a_base_planted_later_at_the_old_headquarters_is_an_ordinary_one():
    """Reading (docs/rules-wwn.md): once lost, a faction has no headquarters Base; a Base it plants
    later (there too) keeps the HP paid for, and raising a rating does not touch it."""
    s = _hq_destroyed()
    base = s.new_asset("base-of-influence", "blue", "c", max_hp=3)
    s.rng = np.random.default_rng(0)
    t = WwnState.from_dict(s.to_dict())
    assert (t.assets[base.id].hp, t.assets[base.id].max_hp) == (3, 3)
    assert t.headquarters_base("blue") is None
