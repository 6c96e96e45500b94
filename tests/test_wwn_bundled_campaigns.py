"""Every bundled WWN campaign that starts at turn 0 follows the faction creation rules of 6.7.0.

6.7.0: "For a small faction, give them a 3 or 4 in their best attribute, a 2 or 3 in their
second-best, and a 1 or 2 in their worst quality. Medium factions should assign 5 or 6 to their
best attribute, 4 or 5 to their second-best, and 2 or 3 to their worst. They should have two
Assets in their primary attribute and two others among the other two. Large factions should
assign 7 or 8 to their strongest attribute, 6 or 7 to their second-best attribute, and 3 or 4 to
their worst quality. They should have four Assets in their primary attribute, and four others
spread among the other two." And: "All factions have a Base of Influence at their primary
headquarters with a hit point total equal to the faction's maximum."

A faction's size is read from its best rating (3-4 small, 5-6 medium, 7-8 large: the ranges do
not overlap). The text gives small factions no asset count. Every starting asset must be one the
faction could buy (6.6.0 Create Asset: "They must have the minimum attribute and Magic ratings
necessary to buy the Asset"), and no attribute may hold more assets than its rating ("A faction
can have no more Assets of a particular attribute than their attribute score").
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
import yaml

from factionsim.rules.wwn.data import (
    ASSETS,
    ATTRIBUTES,
    BASE_OF_INFLUENCE,
    MAGIC_LEVELS,
    max_faction_hp,
)
from factionsim.rules.wwn.generate import SIZES, generate_campaign
from factionsim.rulesets import load_campaign


def _bundled_wwn() -> list[str]:
    root = resources.files("factionsim.configs")
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".yaml")
                  and yaml.safe_load(p.read_text(encoding="utf-8")).get("ruleset") == "wwn")


def creation_problems(data: dict[str, Any]) -> list[str]:
    """What in campaign ``data`` breaks the creation rules quoted above (empty when nothing)."""
    problems = []
    for f in data["factions"]:
        ratings = {a: f[a] for a in ATTRIBUTES}
        best, second, worst = sorted(ratings.values(), reverse=True)
        size = next(name for name, spec in SIZES.items() if spec[0][0] <= best <= spec[0][1])
        (_, _), second_range, worst_range, n_primary, n_other, _ = SIZES[size]
        who = f"{f['id']} ({size})"
        if not (second_range[0] <= second <= second_range[1]
                and worst_range[0] <= worst <= worst_range[1]):
            problems.append(f"{who}: ratings {best}/{second}/{worst}")
        full = max_faction_hp(ratings["force"], ratings["wealth"], ratings["cunning"])
        if f.get("hp") is not None and f["hp"] != full:
            problems.append(f"{who}: starts with hp {f['hp']} of {full}")
        assets = [a for a in f.get("assets") or [] if a["type"] != BASE_OF_INFLUENCE]
        if any(a["type"] == BASE_OF_INFLUENCE and a["location"] == f["headquarters"] and "hp" in a
               for a in f.get("assets") or []):
            problems.append(f"{who}: its headquarters Base is not at full HP")
        counts = {a: sum(ASSETS[x["type"]].attribute == a for x in assets) for a in ATTRIBUTES}
        for x in assets:
            kind = ASSETS[x["type"]]
            if kind.rating > ratings[kind.attribute] or \
                    kind.magic_level > MAGIC_LEVELS.index(f.get("magic", "none")):
                problems.append(f"{who}: cannot buy {x['type']}")
            if "hp" in x:
                problems.append(f"{who}: {x['type']} starts damaged")
        for a in ATTRIBUTES:
            if counts[a] > ratings[a]:
                problems.append(f"{who}: {counts[a]} {a} assets with {a} {ratings[a]}")
        if size != "small":  # (the text gives small factions no count)
            primaries = [a for a in ATTRIBUTES if ratings[a] == best]
            if not any(counts[p] == n_primary and len(assets) - counts[p] == n_other
                       for p in primaries):
                problems.append(f"{who}: {counts} assets, not {n_primary} of its primary attribute "
                                f"and {n_other} others")
    return problems


def test_the_checker_finds_what_the_text_forbids():
    """The Silver Guild as it was bundled (medium, Wealth 6): 3 Wealth + 1 Cunning assets."""
    path = resources.files("factionsim.configs").joinpath("shattered_march.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    guild = next(f for f in data["factions"] if f["id"] == "silver-guild")
    guild["assets"] = [{"type": t, "location": "saltmere"}
                       for t in ("caravan", "pleaders", "informers", "armed-guards")]
    assert creation_problems(data) == [
        "silver-guild (medium): {'force': 0, 'cunning': 1, 'wealth': 3} assets, not 2 of its "
        "primary attribute and 2 others"]
    guild["force"], guild["cunning"] = 7, 2
    assert "silver-guild (large): ratings 7/6/2" in creation_problems(data)


@pytest.mark.parametrize("name", _bundled_wwn())
def test_bundled_wwn_campaign_follows_the_creation_rules(name):
    path = resources.files("factionsim.configs").joinpath(name)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data.get("turn", 0) == 0, "a bundled campaign starts at turn 0"
    assert creation_problems(data) == []
    load_campaign(str(path))  # and it loads


@pytest.mark.parametrize("seed", range(12))
def test_generated_campaigns_follow_the_creation_rules(seed):
    assert creation_problems(generate_campaign(n_factions=2 + seed % 5, seed=seed)) == []
