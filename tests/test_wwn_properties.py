"""Property-based invariants (hypothesis): random campaigns from the generator (``factionsim new``),
random house rules, random legal play; after every decision the state is sound, and a save at
any decision continues exactly as the original.

Invariants checked after each decision:

- a faction's HP is between 0 and its maximum, its Treasure never negative, its ratings 1..8;
- an asset's HP is between 1 and its maximum (0 only while its owner decides whether to save it);
- no faction holds more assets of an attribute than its rating, except assets it took over
  (Lead or Silver, Expert Treachery: "This conversion happens even if their new owners lack the
  attributes usually necessary to maintain their new Asset"), which then cost upkeep;
- a collapsed faction owns nothing and has 0 HP; every asset's owner is alive;
- the asset table's index by owner equals the table; a living faction that has not lost it has
  its headquarters Base, with the faction's max HP.

Examples are drawn deterministically (``derandomize``) so CI sees the same games every run.
"""

from __future__ import annotations

import copy

import numpy as np
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from factionsim.agents.simple import KeeperAgent, RandomAgent
from factionsim.core.campaign import dump_campaign_text
from factionsim.rules.wwn.data import ATTRIBUTES
from factionsim.rules.wwn.generate import generate_campaign
from factionsim.rules.wwn.state import WwnState
from factionsim.rules.wwn.validate import validate

HOUSE_RULES = st.fixed_dictionaries({}, optional={
    "xp_cost": st.sampled_from(["example", "table"]),
    "transport_once_per_turn": st.booleans(),
    "paralysis_blocks_abilities": st.booleans(),
    "relations_default": st.sampled_from(["hostile", "neutral"]),
})


@st.composite
def campaigns(draw) -> dict:
    n_factions = draw(st.integers(2, 5))
    data = generate_campaign(n_factions=n_factions,
                             n_locations=draw(st.integers(n_factions, n_factions + 6)),
                             seed=draw(st.integers(0, 2**31 - 1)), agent="random")
    rules = draw(HOUSE_RULES)
    if rules:
        data["house_rules"] = rules
    return data


def _load(data: dict) -> WwnState:
    return WwnState.from_dict(validate(data, "generated campaign"))


def _choose(legal: list, rng: np.random.Generator, keeper: bool):
    """Uniform, or (keeper) never passing and never abandoning a goal: uniform play mostly sits
    paralysed, the keeper fights, builds and spends."""
    return (KeeperAgent() if keeper else RandomAgent()).act(None, legal, rng)


def _captured(events, taken: set[str]) -> None:
    for e in events:
        if e.kind == "ability" and (e.data.get("effect") == "claim" or (
                e.data.get("effect") == "treachery" and e.data.get("converted"))):
            taken.add(e.data.get("asset") or e.data["target"])


def check_invariants(s: WwnState, taken: set[str]) -> None:
    ask = s.ctx.get("ask") if s.phase == "react" else None
    saving = ask["args"].get("defender") if ask and ask.get("then") == "attack-save" else None
    for f in s.factions.values():
        assert 0 <= f.hp <= f.max_hp, (f.id, f.hp, f.max_hp)
        assert f.treasure >= 0, (f.id, f.treasure)
        assert all(1 <= f.rating(a) <= 8 for a in ATTRIBUTES), f
        own = s.assets_of(f.id)
        if not f.alive:
            assert f.hp == 0 and not own, (f.id, own)
            continue
        for attr in ATTRIBUTES:
            bought = [a.id for a in own if a.attribute == attr and a.id not in taken]
            assert len(bought) <= f.rating(attr), (f.id, attr, bought)
        if not f.headquarters_lost:
            hq = s.headquarters_base(f.id)
            assert hq is not None and hq.max_hp == f.max_hp, (f.id, hq)
    for a in s.assets.values():
        assert 1 <= a.hp <= a.max_hp or (a.hp == 0 and a.id == saving), a
        assert s.factions[a.owner].alive and a.location in s.map.locations, a
    for fid in s.factions:
        assert list(s.assets_of(fid)) == [a for a in s.assets.values() if a.owner == fid], fid


def _play(s: WwnState, rng: np.random.Generator, keeper: bool, decisions: int,
          taken: set[str], check: bool) -> list[dict]:
    """Up to ``decisions`` decisions of random play; the events (as dicts) they caused."""
    log: list[dict] = []
    for _ in range(decisions):
        actor = s.current_actor()
        if actor is None:
            break
        assert s.factions[actor].alive
        legal = s.legal_actions()
        assert legal
        events = s.apply(_choose(legal, rng, keeper))
        _captured(events, taken)
        log += [e.to_dict() for e in events]
        if check:
            check_invariants(s, taken)
    return log


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=campaigns(), dice=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1),
       keeper=st.booleans(), before=st.integers(0, 200), after=st.integers(1, 80))
def test_random_play_of_generated_campaigns_keeps_the_invariants(data, dice, choices, keeper,
                                                                 before, after):
    """``before`` decisions, a save (through the campaign file's text), ``after`` more decisions;
    the invariants after every one, and the saved game played on with the same choices gives the
    same events and the same file."""
    note(f"house rules {data.get('house_rules')}, keeper {keeper}")
    s = _load(data)
    s.rng = np.random.default_rng(dice)
    s.max_turns = 30
    rng = np.random.default_rng(choices)
    taken: set[str] = set()
    _captured(s.advance(), taken)
    check_invariants(s, taken)
    _play(s, rng, keeper, before, taken, check=True)

    text = dump_campaign_text(s)
    saved = _load(yaml.safe_load(text))
    assert dump_campaign_text(saved) == text
    saved_rng, saved_taken = copy.deepcopy(rng), set(taken)

    ahead = _play(s, rng, keeper, after, taken, check=True)
    again = _play(saved, saved_rng, keeper, after, saved_taken, check=False)
    assert again == ahead
    assert dump_campaign_text(saved) == dump_campaign_text(s)
