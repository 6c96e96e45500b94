"""Random play with every asset type in the game: 1,000 turns, no exception, no broken invariant."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from test_wwn_invariants import check_invariants

from factionsim.agents.simple import KeeperAgent
from factionsim.configs import default_campaign_path
from factionsim.rules.wwn.data import ASSETS
from factionsim.rules.wwn.state import WwnState

TURNS = 1000


def every_asset_campaign() -> WwnState:
    """The default campaign with all 81 asset types dealt round-robin to the four factions,
    at their headquarters, with ratings and Magic high enough to hold them."""
    data = yaml.safe_load(default_campaign_path().read_text())
    factions = data["factions"]
    for f in factions:
        f.update(force=8, cunning=8, wealth=8, magic="high", tags=[], treasure=20, hp=None)
        f["assets"] = []
    for i, type_id in enumerate(ASSETS):
        owner = factions[i % len(factions)]
        owner["assets"].append({"type": type_id, "location": owner["headquarters"]})
    data["locations"][0]["coastal"] = True  # a harbour for the fleets
    return WwnState.from_dict(data)


@pytest.mark.parametrize("seed", [0, 1])
def test_every_asset_type_in_random_play(seed: int) -> None:
    s = every_asset_campaign()
    assert {a.type for a in s.assets.values()} >= set(ASSETS)
    s.rng = np.random.default_rng(seed)
    s.max_turns = TURNS
    agents = {fid: KeeperAgent() for fid in s.factions}
    rng = np.random.default_rng(seed + 50)
    used: set[str] = set()
    while (actor := s.current_actor()) is not None:
        legal = s.legal_actions()
        assert legal, (s.phase, actor)
        action = agents[actor].act(s.view(actor), legal, rng)
        if str(action).startswith("use "):
            used.add(str(action).split()[1].split("#")[0])
        s.apply(action)
        check_invariants(s)
    assert s.turn == TURNS or s.is_over()
    assert len(used) >= 20  # many different abilities were actually exercised


def test_heuristic_agents_with_every_asset_type() -> None:
    """The heuristic answers every decision that any asset's ability can raise, legally."""
    from factionsim.agents import make_agent

    s = every_asset_campaign()
    s.rng = np.random.default_rng(7)
    s.max_turns = 12
    agents = {fid: make_agent("heuristic", "wwn") for fid in s.factions}
    rng = np.random.default_rng(8)
    used: set[str] = set()
    phases: set[str] = set()
    while (actor := s.current_actor()) is not None:
        legal = s.legal_actions()
        action = agents[actor].act(s.view(actor), legal, rng)
        assert action in legal, (s.phase, actor, action)
        assert agents[actor].last_reason, (s.phase, action)  # every decision explained
        phases.add(s.phase)
        if str(action).startswith("use "):
            used.add(str(action).split()[1].split("#")[0])
        s.apply(action)
        check_invariants(s)
    assert s.turn == 12 or s.is_over()
    assert len(used) >= 8, used  # the heuristic does use abilities, not only the basics
    assert "react" in phases  # and answers mid-rule questions
