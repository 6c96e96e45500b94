"""The Great Houses as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import (  # noqa: E402
    assert_copies_carry_no_kept_answers,
    assert_observations_fresh,
    fresh_observation,
    maskable_ppo_smoke,
    play_random_masked,
)

from factionsim.envs import make_env  # noqa: E402


def test_random_games_masks_and_ending():
    env = make_env(ruleset="houses", max_turns=8)
    assert len(env.possible_agents) == 4
    for seed in range(3):
        play_random_masked(env, seed, max_steps=20000)
        assert env.state.is_over()


def test_observation_sees_stress_and_assets():
    env = make_env(ruleset="houses")
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    other = next(h for h in env.possible_agents if h != agent)
    env.state.houses[other].stress = 8
    after = env.observe(agent)["observation"].copy()
    assert not np.array_equal(before, after)
    aid = env.state.asset_ids(other)[0]
    env.state.assets[aid].die = 6
    assert not np.array_equal(after, env.observe(agent)["observation"])


def _fresh_answers(env) -> None:
    """The state's kept answers equal what they are worked out from now."""
    s = env.state
    assert s.scores() == s._work_out_scores()
    for hid in s.houses:
        assert s.asset_ids(hid) == [a.id for a in s.assets.values() if a.owner == hid]


#: every kind of change the rules make to Houses and assets (and the advance options)
_CHANGES = {"advance:attribute", "advance:sfx", "advance:signature", "advance:step",
            "advance:step-signature", "asset-created", "asset-lost", "collapse", "complication",
            "expired", "permanent-loss", "recovered:complication", "recovered:stress",
            "recovered:trauma", "repaired", "seized", "stress", "trait-damaged", "trauma",
            "trauma-escalates", "plot-point"}


def test_kept_rows_scores_and_asset_ids_are_never_stale(monkeypatch):
    """The codec reuses an observer's House and asset rows, and the state its scores and asset
    lists, while ``model.WRITES`` stays the same: through random games that make every kind of
    change the rules make (checked: ``_CHANGES`` all happen), every observation equals a fresh
    encoding and every kept answer a fresh one."""
    from factionsim.rules.houses.state import HousesState

    seen = set()
    apply = HousesState.apply

    def counting_apply(self, action):
        events = apply(self, action)
        for e in events:
            kind = e.kind
            if kind in ("advance", "recovered"):
                kind += ":" + str(e.data.get("option") or e.data["what"]).split(":")[0]
            seen.add(kind)
        return events

    monkeypatch.setattr(HousesState, "apply", counting_apply)
    env = make_env(ruleset="houses", max_turns=12)
    assert assert_observations_fresh(env, range(3), check=_fresh_answers) > 3000
    assert seen >= _CHANGES, _CHANGES - seen


def test_in_place_changes_outside_the_rules_are_seen_once_counted():
    """A House's dicts changed in place (not an attribute write) are seen after
    ``model.WRITES.bump()``, as the rules call it; attribute writes are seen at once. (The codec
    is asked directly: the env's own scores are worked out once per step.)"""
    from factionsim.rules.houses.model import WRITES

    env = make_env(ruleset="houses")
    env.reset(seed=0)
    agent = env.agent_selection
    view, s = env.view(agent), env.state

    def observed():
        return env.codec.observe(view, np.empty(env.codec.obs_size, np.float32), s.scores())

    observed()
    s.houses[agent].skills["might"] = 12
    WRITES.bump()
    np.testing.assert_array_equal(observed(), fresh_observation(env, agent))
    assert s.scores() == s._work_out_scores()
    s.houses[agent].plot_points = 0  # (not counted: read afresh at every observation)
    s.houses[agent].advances = 7
    s.assets[s.asset_ids(agent)[0]].die = 12
    np.testing.assert_array_equal(observed(), fresh_observation(env, agent))
    assert s.scores() == s._work_out_scores()


def test_copies_carry_no_kept_answers():
    assert_copies_carry_no_kept_answers(make_env(ruleset="houses"), {
        "_scores": "state", "_owned": "state", "_rows_seen": "codec"})


def test_maskable_ppo_smoke(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    maskable_ppo_smoke(SingleAgentEnv(ruleset="houses", opponents="random", max_turns=3), tmp_path)
