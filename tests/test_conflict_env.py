"""The conflict ruleset as a PettingZoo AEC env (needs the rl extra)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import (  # noqa: E402
    assert_copies_carry_no_kept_answers,
    assert_fresh_indices,
    assert_observations_fresh,
    fresh_observation,
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


def test_kept_character_rows_are_never_stale(monkeypatch):
    """The codec keeps each observer's character rows while the character counts no write
    (``Character.writes``), and the Advantages' sums while their sides, targets and bonuses
    are the same: through random games in which characters move, plan, act, are targeted, take
    damage, lose Approach points, get assists and spend spells (in-place changes, counted by
    ``Character.changed``) and Advantages are made, raised and removed (checked: all of these
    happen), every observation of every agent equals a fresh encoding."""
    from factionsim.rules.conflict.state import ConflictState

    seen = set()
    apply = ConflictState.apply

    def counting_apply(self, action):
        raised = {a["id"]: a["bonus"] for a in self.advantages}
        events = apply(self, action)
        for e in events:
            seen.add(e.kind)
            if "approaches_lost" in str(e.data):
                seen.add("approaches_lost")
        if any(a["bonus"] != raised.get(a["id"], a["bonus"]) for a in self.advantages):
            seen.add("advantage-raised")
        return events

    monkeypatch.setattr(ConflictState, "apply", counting_apply)
    env = make_env(ruleset="conflict", max_turns=8)
    assert assert_observations_fresh(env, range(6)) > 500
    assert {"hold", "dash", "attack", "approaches_lost", "assist", "cast", "advantage",
            "remove", "fallen"} <= seen, seen


def test_kept_action_indices_are_never_stale():
    """The codec keeps the catalogue index of each action object the rules offer (one object
    per choice, looked up by ``id``) per observer and numbering of the characters: through
    random games every decision's indices equal a new codec's; a game whose side lists its
    characters in another order (another numbering) gets its own indices from the same codec;
    a copied codec keeps none (a pickled one would meet other objects under those ids)."""
    import copy

    from factionsim.rules.conflict.state import ConflictState

    env = make_env(ruleset="conflict", max_turns=8)
    assert assert_observations_fresh(env, range(3), check=assert_fresh_indices) > 300
    env.reset(seed=0)
    s = env.state
    side = s.current_actor()
    d = s.to_dict()
    for sd in d["sides"]:
        sd["characters"].reverse()
    other = ConflictState.from_dict(d)
    codec = env.codec

    def indices(codec, state):
        legal = state.legal_actions()
        return dict(zip(legal, codec.encode_actions(state.view(side), legal), strict=True))

    mine, theirs = indices(codec, s), indices(codec, other)
    assert other.current_actor() == side and set(mine) == set(theirs) and mine != theirs
    assert theirs == indices(type(codec)(other, codec.limits), other)
    assert codec._codes and copy.deepcopy(codec)._codes == {}


def test_in_place_changes_outside_the_rules_are_seen_once_counted():
    """A character's own writes are seen at once; an in-place change (an Approach point, an
    assist, a spell's use, an Advantage's bonus) after ``Character.changed()`` (the Advantages
    are compared by value: no call needed)."""
    env = make_env(ruleset="conflict")
    env.reset(seed=0)
    agent = env.agent_selection
    s = env.state

    def observed():
        view = env.view(agent)
        return env.codec.observe(view, np.empty(env.codec.obs_size, np.float32), s.scores())

    c = s.chars[s.factions[agent].characters[0]]
    changes = [
        lambda: setattr(c, "position", c.position + 1),
        lambda: setattr(c, "standing", True),
        lambda: (c.approaches.update({next(iter(c.approaches)): 0}), c.changed()),
        lambda: (c.assists.append(["x", 2]), c.changed()),
        lambda: s.advantages.append({"id": "adv-t", "side": agent, "by": c.id,
                                     "targets": [c.id], "bonus": 1, "until": None}),
        lambda: s.advantages[-1].update(bonus=3),
    ]
    if c.spells:
        changes.append(lambda: (setattr(c.spells[0], "uses", 0), c.changed()))
    for change in changes:
        before = observed().copy()
        change()
        after = observed()
        assert not np.array_equal(before, after)
        np.testing.assert_array_equal(after, fresh_observation(env, agent))


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
