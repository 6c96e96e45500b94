"""The conflict ruleset as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from factionsim.envs import make_env  # noqa: E402


def test_random_games_masks_positions_and_ending():
    env = make_env(ruleset="conflict", max_turns=6)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(5000):
            obs, reward, term, trunc, info = env.last()
            assert env.observation_space(agent).contains(obs)
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) == len(env.state.legal_actions()) > 0
            env.step(int(rng.choice(legal)))
        assert env.state.is_over()
    # positions in heights are part of the observation: moving a character changes it
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    env.state.chars[env.state.factions[agent].characters[0]].position += 1
    assert not np.array_equal(before, env.observe(agent)["observation"])


def test_maskable_ppo_smoke(tmp_path):
    pytest.importorskip("torch")
    sb3c = pytest.importorskip("sb3_contrib")
    from factionsim.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(ruleset="conflict", opponents="random", max_turns=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = sb3c.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1,
                                 policy_kwargs={"net_arch": [32]}, verbose=0, seed=0)
        model.learn(256)
    model.save(tmp_path / "m.zip")
    assert (tmp_path / "m.zip").exists()
