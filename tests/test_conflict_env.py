"""The conflict ruleset as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import (  # noqa: E402
    assert_copies_carry_no_kept_answers,
    assert_observations_fresh,
    maskable_ppo_smoke,
    play_random_masked,
)

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


def _fresh_answers(env) -> None:
    from factionsim.rules.conflict import turn

    s = env.state
    assert s.scores() == s._work_out_scores()
    assert turn.passes(s) == turn._passes(s, s.turn == 0)
    for side in s.factions:  # all plans at once, as each one alone
        view = env.view(side)
        assert view.known_plans() == {cid: view.known_plan(cid) for cid in s.chars}


def test_kept_scores_are_never_stale(monkeypatch):
    """``scores()`` is kept while no character's health changed (``model.HEALTH_WRITES``):
    through random games in which characters take damage, lose Approach points (an in-place
    change of ``approaches``) and fall, every kept answer equals a fresh one, and so does every
    observation; ``known_plans()`` (worked out for every character at once) equals
    ``known_plan`` of each."""
    from factionsim.rules.conflict.state import ConflictState

    seen = set()
    apply = ConflictState.apply

    def counting_apply(self, action):
        events = apply(self, action)
        for e in events:
            seen.add(e.kind)
            if "approaches_lost" in str(e.data):
                seen.add("approaches_lost")
        return events

    monkeypatch.setattr(ConflictState, "apply", counting_apply)
    env = make_env(ruleset="conflict", max_turns=8)
    assert assert_observations_fresh(env, range(4), check=_fresh_answers) > 500
    assert {"attack", "approaches_lost", "fallen", "cast"} <= seen, seen


def test_a_health_write_outside_the_rules_is_seen():
    env = make_env(ruleset="conflict")
    env.reset(seed=0)
    s = env.state
    before = s.scores()
    c = next(iter(s.chars.values()))
    c.blood = 0
    c.approaches[next(iter(c.approaches))] = 0  # (in place: counted by the next write)
    c.guts = 0
    assert s.scores() == s._work_out_scores() != before


def test_copies_carry_no_kept_answers():
    assert_copies_carry_no_kept_answers(make_env(ruleset="conflict"), {
        "_scores": "state", "_passes": "state"})


def test_maskable_ppo_smoke(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    maskable_ppo_smoke(SingleAgentEnv(ruleset="conflict", opponents="random", max_turns=3), tmp_path)
