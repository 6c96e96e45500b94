"""The homebrew test campaign (tests/data/wwn_homebrew.yaml) played whole: 100 games with random
agents and 100 with heuristic ones, each from its own seed, checking the state after every
decision (the invariants of test_wwn_invariants, and homebrew assets within their own max HP),
and counting the homebrew abilities that fired, so that a vocabulary effect that never acts fails;
likewise the campaign's own tags (tag_types) and goals (goal_types, at least one completed).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
from test_wwn_invariants import check_invariants

import factionsim
from factionsim.agents import make_agent
from factionsim.rules.wwn.homebrew_tags import extra_dice

CAMPAIGN = Path(__file__).parent / "data" / "wwn_homebrew.yaml"
GAMES, TURNS = 100, 8


def _fired(state, events, counts: Counter) -> None:
    """Count each homebrew ability use: the logged ones (income, transport, repair, upkeep, a
    tag's income) by their events, the dice ones by the checks that rolled the extra dice (more
    than the owner's homebrew tags give, for an asset's own; a tag's when its faction rolls more
    than one die); and the campaign's own goals completed."""
    for e in events:
        d = e.data
        if e.kind == "ability" and str(d.get("effect", "")).startswith("homebrew-"):
            counts[d["effect"]] += 1
        elif e.kind == "attack":
            attacker = d["attacker"].split("#")[0]
            defender = d["defender"].split("#")[0]
            att_tags = extra_dice(state, e.faction, "attack-dice")
            def_tags = extra_dice(state, d["target_faction"], "defense-dice")
            att_dice, def_dice = len(d["attacker_check"]["roll"]), len(d["defender_check"]["roll"])
            if state.asset_types[attacker].effect == "attack-dice":
                counts["attack-dice"] += att_dice > 1 + att_tags
            if state.asset_types[defender].effect == "defense-dice":
                counts["defense-dice"] += def_dice > 1 + def_tags
            counts["tag-attack-dice"] += bool(att_tags) and att_dice > 1
            counts["tag-defense-dice"] += bool(def_tags) and def_dice > 1
        elif e.kind == "expand-check" and e.faction == "reed-cult":
            counts["expand-dice"] += len(d["attacker_check"]["roll"]) > 1
        elif e.kind == "expand-check" and extra_dice(state, e.faction, "expand-dice"):
            counts["tag-expand-dice"] += len(d["attacker_check"]["roll"]) > 1
        elif e.kind == "goal-complete" and d["goal"] in state.goal_types:
            counts["homebrew-goal"] += 1
        elif e.kind == "create" and state.asset_types[d["asset"].split("#")[0]].homebrew:
            counts["bought"] += 1


def _play(agent_name: str, seed: int, counts: Counter) -> None:
    s = factionsim.load_campaign(CAMPAIGN)
    s.rng = np.random.default_rng(seed)
    s.max_turns = TURNS
    agents = {fid: make_agent(agent_name, "wwn") for fid in s.factions}
    rng = np.random.default_rng(10_000 + seed)
    while (actor := s.current_actor()) is not None:
        events = s.apply(agents[actor].act(s.view(actor), s.legal_actions(), rng))
        _fired(s, events, counts)
        check_invariants(s)
        for a in s.assets.values():
            assert a.kind is s.asset_types[a.type] and a.max_hp == (a.kind.hp if not a.is_base
                                                                     else a.max_hp), a
    assert s.is_over()


#: what must have fired in the 200 games, besides income and upkeep (every game, every Bargemen
#: turn): random play mends (the Field Surgeons start at 3/6), carries, buys and now and then
#: expands; the heuristic factions attack with and into the Shield Walls and the Berserkers.
#: Which agent fires which effect shifts with the agents' play, so the check is over both.
FIRED = ("homebrew-repair", "homebrew-transport", "bought", "attack-dice", "defense-dice",
         "expand-dice", "homebrew-tag-income", "tag-attack-dice", "tag-defense-dice",
         "tag-expand-dice", "homebrew-goal")


def test_homebrew_campaign_plays_soundly_and_its_abilities_fire():
    counts: Counter = Counter()
    for agent_name in ("random", "heuristic"):
        mine: Counter = Counter()
        for seed in range(GAMES):
            _play(agent_name, seed, mine)
        print(agent_name, dict(sorted(mine.items())))
        assert mine["homebrew-income"] >= GAMES and mine["homebrew-upkeep"] >= GAMES, mine
        counts += mine
    for effect in FIRED:
        assert counts[effect] > 0, (effect, counts)
