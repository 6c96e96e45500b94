"""WWN behaviour counts (factionsim.rules.wwn.behaviour) on a campaign with its own asset types.

The asset value a faction is measured by is "the listed cost of its non-Base assets"; a
campaign's own (homebrew) types are listed in its ``asset_types:`` block, so they count at the
cost written there, like the standard types at the table's.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from factionsim.rules.wwn.behaviour import count
from factionsim.rules.wwn.data import ASSET_TYPES

HOMEBREW = Path(__file__).parent / "data" / "wwn_homebrew.yaml"


def test_homebrew_assets_count_at_their_listed_cost():
    frame = yaml.safe_load(HOMEBREW.read_text(encoding="utf-8"))
    costs = {row["id"]: row["cost"] for row in frame["asset_types"]}
    costs.update({k: v.cost for k, v in ASSET_TYPES.items()})
    tallies = count([], frame, frame, first_turn=1)
    for f in frame["factions"]:
        listed = sum(costs[a["type"]] for a in f["assets"])
        assert any(a["type"] not in ASSET_TYPES for a in f["assets"])  # the case under test
        assert tallies[f["id"]].counts["value_start"] == listed
        assert tallies[f["id"]].counts["value_end"] == listed
