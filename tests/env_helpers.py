"""Shared checks for the rulesets' PettingZoo envs (tests of one ruleset's env reuse these
instead of copying the loop): random masked play and a MaskablePPO smoke run."""

from __future__ import annotations

import warnings

import numpy as np
import pytest


def play_random_masked(env, seed: int, max_steps: int) -> None:
    """One game from ``env.reset(seed=seed)`` with random masked actions; checks on every step
    that the observation is in its space and that the mask has exactly one index per legal action
    (none empty, none colliding)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, info = env.last()
        assert env.observation_space(agent).contains(obs)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(env.state.legal_actions()) > 0  # distinct indices
        env.step(int(rng.choice(legal)))


def live_decisions(env, seeds):
    """Walk random games of ``env``, one per seed, yielding at every decision an agent still in
    play must take (the caller steps the env) a generator seeded by that game's seed; agents out
    of the game are stepped with None here."""
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                yield rng


def maskable_ppo_smoke(env, tmp_path, n_steps: int = 64, batch_size: int = 32):
    """Train MaskablePPO for 256 steps on a :class:`SingleAgentEnv`, save it, check the file
    exists, and return the model (skipped without torch / sb3-contrib)."""
    pytest.importorskip("torch")
    sb3c = pytest.importorskip("sb3_contrib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = sb3c.MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=batch_size, n_epochs=1,
                                 policy_kwargs={"net_arch": [32]}, verbose=0, seed=0)
        model.learn(256)
    model.save(tmp_path / "m.zip")
    assert (tmp_path / "m.zip").exists()
    return model


def fresh_observation(env, agent: str) -> np.ndarray:
    """``agent``'s observation encoded by a new codec of the same kind (no row kept from an
    earlier observation) from a fresh ``state.scores()``: what a cached observation must equal."""
    codec = type(env.codec)(env.state, env.codec.limits)
    out = np.empty(codec.obs_size, np.float32)
    return codec.observe(env.view(agent), out, env.state.scores())


def assert_observations_fresh(env, seeds: range, max_steps: int = 20000, check=None) -> int:
    """Random masked games from ``env.reset(seed=s)`` for each seed; at every step the env's
    observation (from a codec that keeps rows between observations) must equal
    :func:`fresh_observation`, for the deciding agent and for every other agent in the game.
    ``check(env)``, if given, runs at every step too (a ruleset's own cache checks). Returns the
    steps played."""
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_steps):
            obs, reward, term, trunc, info = env.last()
            np.testing.assert_array_equal(obs["observation"], fresh_observation(env, agent))
            if steps % 7 == 0:  # now and then: every agent, the decider's rivals too
                for other in env.agents:
                    np.testing.assert_array_equal(env.observe(other)["observation"],
                                                  fresh_observation(env, other))
            if check is not None:
                check(env)
            steps += 1
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
    return steps


def assert_copies_carry_no_kept_answers(env, kept: dict[str, str]) -> None:
    """A pickled or deep-copied state (and codec, where it pickles) leaves out what it kept,
    keyed on this process's count of writes (``kept``: attribute -> on "state" or "codec"):
    another process's count does not continue it. The copy still answers as the original."""
    import copy
    import pickle

    env.reset(seed=0)
    env.last()
    scores = env.state.scores()
    for name, owner in kept.items():
        original = getattr(env.state if owner == "state" else env.codec, name)
        assert original not in ({}, (-1, None, {}), (-1, None, None, {}), (-1, None, 0.0, {})), name
    for clone in (pickle.loads(pickle.dumps(env.state)), copy.deepcopy(env.state)):
        for name, owner in kept.items():
            if owner == "state":
                assert getattr(clone, name) != getattr(env.state, name), name
        assert clone.scores() == scores
    codec = copy.deepcopy(env.codec)
    for name, owner in kept.items():
        if owner == "codec":
            assert getattr(codec, name) == {}, name


def assert_fresh_indices(env) -> None:
    """The env's catalogue indices of the legal actions equal a new codec's (a ``check`` for
    :func:`assert_observations_fresh`, for codecs that keep what encoding needs)."""
    actor = env.state.current_actor()
    if actor is None:
        return
    legal, indices = env._legal()
    fresh = type(env.codec)(env.state, env.codec.limits)
    assert indices == fresh.encode_actions(env.view(actor), legal)
