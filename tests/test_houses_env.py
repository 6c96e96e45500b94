"""The Great Houses as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import maskable_ppo_smoke, play_random_masked  # noqa: E402

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


def test_maskable_ppo_smoke(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    maskable_ppo_smoke(SingleAgentEnv(ruleset="houses", opponents="random", max_turns=3), tmp_path)
