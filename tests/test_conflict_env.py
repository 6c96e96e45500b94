"""The conflict ruleset as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import maskable_ppo_smoke, play_random_masked  # noqa: E402

from factionsim.envs import make_env  # noqa: E402


def test_random_games_masks_positions_and_ending():
    env = make_env(ruleset="conflict", max_turns=6)
    for seed in range(3):
        play_random_masked(env, seed, max_steps=5000)
        assert env.state.is_over()
    # positions in heights are part of the observation: moving a character changes it
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    env.state.chars[env.state.factions[agent].characters[0]].position += 1
    assert not np.array_equal(before, env.observe(agent)["observation"])


def test_maskable_ppo_smoke(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    maskable_ppo_smoke(SingleAgentEnv(ruleset="conflict", opponents="random", max_turns=3), tmp_path)
