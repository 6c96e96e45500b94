"""Whole games of the engagements ruleset: random play keeps every invariant, the CLI commands,
the heuristic against random, the environment and a smoke training run."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml
from contract_play import decisions as random_decisions
from env_helpers import (
    assert_copies_carry_no_kept_answers,
    assert_fresh_indices,
    assert_observations_fresh,
    maskable_ppo_smoke,
    play_random_masked,
)

from factionsim import load_campaign
from factionsim.configs import default_campaign_path
from factionsim.rules.engagements.model import MAX_COMPETENCE, MAX_DEFENSE
from factionsim.rules.engagements.state import EngagementsState

SCENARIO = default_campaign_path("engagements")


def check_invariants(s: EngagementsState) -> None:
    owned = [p for f in s.factions.values() for p in f.pillars]
    assert sorted(owned) == sorted(s.pillars), "every standing pillar belongs to one faction"
    for f in s.factions.values():
        assert f.faction_dice >= 0 and all(v >= 0 for v in f.engagement.values())
        assert len(f.pillars) <= s.settings.pillar_cap
        if not f.alive:
            assert not f.pillars and f.faction_dice == 0
    for p in s.pillars.values():
        assert 1 <= p.competence <= MAX_COMPETENCE and 0 <= p.defense <= MAX_DEFENSE
        assert 0 <= p.wounds < p.circles
    assert all(v >= 0 for v in s.scores().values())
    if "eng" in s.ctx:
        e = s.ctx["eng"]
        for part in [*e["parts"], *([e["counter"]] if e["counter"] else [])]:
            assert 0 <= part["remaining"] <= part["dice"]
            assert sum(part["alloc"].values()) + part["remaining"] == part["dice"] or \
                part["remaining"] == 0 and not part["alloc"]


def test_a_thousand_random_turns_break_nothing():
    turns, game = 0, 0
    while turns < 1000:
        s = load_campaign(SCENARIO)
        s.rng = np.random.default_rng(game)
        s.max_turns = 150
        rng = np.random.default_rng(1000 + game)
        for decisions, _ in enumerate(random_decisions(s, rng), 1):
            check_invariants(s)
            if decisions % 97 == 0:  # a saved game continues exactly
                copy = EngagementsState.from_dict(s.to_dict())
                assert copy.to_dict() == s.to_dict()
        assert s.is_over()
        turns += s.turn
        game += 1


def test_a_game_reloaded_again_and_again_writes_the_same_file_as_one_played_through():
    """Saving and reloading keeps every file byte-identical to continuous play (engagement pools
    used to be written in the order they were last filled, which a reload changes)."""
    from factionsim.core.campaign import dump_campaign_text

    for game in range(3):
        live, saved = (load_campaign(SCENARIO) for _ in range(2))
        for s in (live, saved):
            s.rng = np.random.default_rng(game)
        rng = np.random.default_rng(100 + game)
        n = 0
        while live.current_actor() is not None:
            legal = live.legal_actions()
            i = int(rng.integers(len(legal)))
            live.apply(legal[i])
            saved.current_actor()
            saved.apply(saved.legal_actions()[i])
            n += 1
            if n % 13 == 0:
                saved = EngagementsState.from_dict(yaml.safe_load(dump_campaign_text(saved)))
                assert dump_campaign_text(saved) == dump_campaign_text(live)
        assert dump_campaign_text(saved) == dump_campaign_text(live)


def test_run_turn_undo_show_report_and_validate(tmp_path, capsys):
    from factionsim.cli import main

    assert main(["run", "--ruleset", "engagements", "--turns", "3", "--out", str(tmp_path / "o"),
                 "--quiet"]) == 0
    chronicle = (tmp_path / "o" / "chronicle.md").read_text()
    assert "## Turn 3" in chronicle and "Engages" in chronicle
    assert (tmp_path / "o" / "events.jsonl").read_text().count("\n") > 20
    campaign = tmp_path / "c.yaml"
    campaign.write_text(SCENARIO.read_text())
    assert main(["turn", str(campaign), "--quiet"]) == 0
    assert load_campaign(campaign).turn == 1
    assert main(["undo", str(campaign)]) == 0 and load_campaign(campaign).turn == 0
    assert main(["turn", str(campaign), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["show", str(campaign)]) == 0
    shown = capsys.readouterr().out
    state = load_campaign(campaign)
    p = next(iter(state.pillars.values()))  # a pillar still standing, as show writes it
    assert f"{p.name} C{p.competence}/D{p.defense}" in shown
    assert main(["report", str(campaign), "--out", str(tmp_path / "r.html")]) == 0
    assert "The Ashen Thrones" in (tmp_path / "r.html").read_text()
    assert main(["validate", str(campaign)]) == 0


def test_heuristic_beats_random_small_sample():
    from factionsim.tournament import run_tournament

    r = run_tournament(["random", "heuristic"], games=8, campaign=str(SCENARIO), turns=12)
    wins = {name: a["wins"] for name, a in r["agents"].items()} if isinstance(r["agents"], dict) \
        else {a["agent"]: a["wins"] for a in r["agents"]}
    assert wins["heuristic"] >= 0.8 * 8


@pytest.mark.parametrize("own, defender, joins", [
    # a sturdy pillar against a lone fragile defender: much to gain, little to fear
    ((3, 3), [(1, 0)], True),
    # a fragile pillar against three hard hitters that will counter it: it stays out
    ((1, 0), [(5, 4), (5, 4), (5, 4)], False),
])
def test_heuristic_joins_only_when_the_gain_outweighs_the_risk(own, defender, joins):
    """Joining a combined engagement is a choice (issue 20, item 9): the invitee weighs the
    wounds its dice may make against the counter its committed pillar would face."""
    from engagements_helpers import drive, faction, make_state, pillar

    from factionsim.agents.engagements_heuristic import Heuristic

    a = faction("a", pillar("A", 2, 1), engagement={"b": 1})
    b = faction("b", *[pillar(f"B{i}", c, d) for i, (c, d) in enumerate(defender)])
    c = faction("c", pillar("C", *own))
    s = make_state(a, b, c, settings={"income_base": 0, "income_per_pillars": 10})
    drive(s, "engage b", "invite c")
    assert s.actor == "c"
    h = Heuristic()
    choice = h.act(s.view("c"), s.legal_actions(), None)
    assert str(choice) == ("join" if joins else "decline"), h.last_reason


@pytest.mark.parametrize("threat, hardens", [
    # two hard hitters would wipe out a defense-1 pillar: raising it to 2 halves the wounds
    ([(3, 2), (3, 2)], True),
    # a feeble rival barely scratches it: a new pillar adds more strength
    ([(1, 0)], False),
])
def test_heuristic_raises_a_defense_when_the_threat_makes_it_worth_it(threat, hardens):
    """Raising a pillar is a choice weighed against the danger (issue 24, item 8: no unused
    actions; the heuristic never raised before): with three pillars or more, it raises the
    defense of the pillar the most dangerous rival would hurt most when that saves at least half a
    wound per faction die; otherwise it builds."""
    from engagements_helpers import faction, make_state, pillar

    from factionsim.agents.engagements_heuristic import Heuristic

    a = faction("a", pillar("A1", 1, 1), pillar("A2", 1, 1), pillar("A3", 1, 1), faction_dice=4)
    b = faction("b", *[pillar(f"B{i}", c, d) for i, (c, d) in enumerate(threat)])
    s = make_state(a, b, settings={"income_base": 0, "income_per_pillars": 10})
    s.current_actor()
    s.advance()
    assert s.actor == "a" and s.factions["a"].faction_dice == 4
    h = Heuristic()
    choice = h.act(s.view("a"), s.legal_actions(), None)
    assert str(choice).startswith("raise" if hardens else "build"), (str(choice), h.last_reason)


@pytest.mark.parametrize("rival, pays", [
    # the leader's pillars have no defense: the mercenary's four dice wound them, worth the price
    ([(5, 0), (5, 0), (1, 0)], True),
    # the leader's pillars are hard: the mercenary would barely scratch them
    ([(5, 4), (5, 4), (5, 4)], False),
])
def test_heuristic_commissions_a_mercenary_when_it_pays(rival, pays):
    """"Some factions may act as mercenaries and will participate or engage for payment (in
    faction dice)": with no engagement of its own to make, the heuristic pays a mercenary to
    engage the leader when the wounds expected beat the price (it never did before: it wanted
    five faction dice, which it never held)."""
    from engagements_helpers import faction, make_state, pillar

    from factionsim.agents.engagements_heuristic import Heuristic

    a = faction("a", pillar("A1", 1, 2), pillar("A2", 1, 2), pillar("A3", 1, 2), faction_dice=3)
    b = faction("b", *[pillar(f"B{i}", c, d) for i, (c, d) in enumerate(rival)])
    m = faction("m", pillar("M", 4, 2), mercenary=2)
    s = make_state(a, b, m, settings={"income_base": 0, "income_per_pillars": 10})
    s.current_actor()
    s.advance()
    assert s.actor == "a"
    h = Heuristic()
    choice = h.act(s.view("a"), s.legal_actions(), None)
    assert str(choice).startswith("commission m -> b") == pays, (str(choice), h.last_reason)


def test_heuristic_says_why_it_ends_its_turn_instead_of_engaging():
    """Ending a turn with an engagement open is a choice with a reason: against a wall of
    defense 4, one die of competence 1 promises no wound."""
    from engagements_helpers import faction, make_state, pillar

    from factionsim.agents.engagements_heuristic import Heuristic

    a = faction("a", pillar("A", 1, 1), engagement={"b": 1})
    b = faction("b", pillar("B", 5, 4))
    s = make_state(a, b, settings={"income_base": 0, "income_per_pillars": 10})
    s.current_actor()
    s.advance()
    assert s.actor == "a" and any(str(x).startswith("engage") for x in s.legal_actions())
    h = Heuristic()
    choice = h.act(s.view("a"), s.legal_actions(), None)
    assert str(choice) == "done"
    assert "every faction die spent; no engagement promises a wound" in h.last_reason


def test_heuristic_explains_itself_and_never_plays_illegal():
    from factionsim.runner import agents_from_campaign, play

    s = load_campaign(SCENARIO)
    events = play(s, 6, agents_from_campaign(s))
    reasons = [e for e in events if e.kind == "decision"]
    assert reasons and all(e.data["reason"] for e in reasons)
    json.dumps([e.to_dict() for e in events])


# ------------------------------------------------------------------ the environment




def test_env_masks_match_legal_actions_over_random_games():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from factionsim.envs import make_env

    env = make_env(ruleset="engagements", max_turns=15)
    for seed in range(3):
        play_random_masked(env, seed, max_steps=20_000)


def _event_kinds_seen(monkeypatch) -> set[str]:
    """The kinds of every event ``EngagementsState.apply`` returns from now on (filled as the
    test plays)."""
    seen: set[str] = set()
    apply = EngagementsState.apply

    def counting_apply(self, action):
        events = apply(self, action)
        seen.update(e.kind for e in events)
        return events

    monkeypatch.setattr(EngagementsState, "apply", counting_apply)
    return seen


def test_kept_scores_are_never_stale(monkeypatch):
    """``scores()`` is kept while no pillar, and no faction's pillars, renown or fate, changed
    (``model.SCORE_WRITES``): through random games in which pillars are built, wounded, healed,
    raised and defeated and factions collapse (checked: all of these happen), every kept answer
    equals a fresh one, and every observation a fresh encoding."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from factionsim.envs import make_env

    seen = _event_kinds_seen(monkeypatch)

    def fresh(env):
        assert env.state.scores() == env.state._work_out_scores()

    env = make_env(ruleset="engagements", max_turns=12)
    assert assert_observations_fresh(env, range(3), check=fresh) > 500
    assert {"build", "strike", "heal", "raise", "pillar-defeated", "collapse"} <= seen, seen


def test_kept_pillar_rows_survive_the_rows_starting_afresh(monkeypatch):
    """The encoded pillar rows (float32 bytes per distinct pillar) kept for 24 pillars at most
    (the 20 pillar slots of an observation and a few more) start afresh again and again, while
    observers keep the rows they saw: every observation still equals a fresh encoding."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from factionsim.envs import engagements_codec, make_env

    class CountingDict(dict):
        cleared = 0

        def clear(self):
            CountingDict.cleared += 1
            super().clear()

    monkeypatch.setattr(engagements_codec, "_PILLAR_ROWS", 24)
    env = make_env(ruleset="engagements", max_turns=8)
    env.codec._pillar_row_of = CountingDict()
    assert_observations_fresh(env, range(2))
    assert CountingDict.cleared > 10


def test_kept_pillar_slots_are_never_stale(monkeypatch):
    """The codec keeps the pillars' slots (each pillar's place in its faction's list, which the
    actions naming a pillar are encoded by) while no pillar changed: through random games in
    which pillars are built and defeated (so that pillars move to other slots), every
    decision's action indices equal a new codec's; a copied codec keeps none (another
    process's count of writes does not continue this one's)."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    import copy

    from factionsim.envs import make_env

    seen = _event_kinds_seen(monkeypatch)
    env = make_env(ruleset="engagements", max_turns=12)
    assert assert_observations_fresh(env, range(3), check=assert_fresh_indices) > 500
    assert {"build", "pillar-defeated"} <= seen, seen
    assert env.codec._slots_kept[2] and copy.deepcopy(env.codec)._slots_kept == (None, -1, {})


def test_copies_carry_no_kept_answers():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from factionsim.envs import make_env

    assert_copies_carry_no_kept_answers(make_env(ruleset="engagements"), {
        "_scores": "state", "_pillar_rows_seen": "codec"})


def test_a_pillar_write_outside_the_rules_is_seen():
    state = EngagementsState.from_dict(yaml.safe_load(SCENARIO.read_text()))
    before = state.scores()
    next(iter(state.pillars.values())).wounds += 1
    assert state.scores() == state._work_out_scores() != before
    state.remove_pillar(next(iter(state.pillars)))
    assert state.scores() == state._work_out_scores()


def test_smoke_maskable_ppo(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(campaign=SCENARIO, opponents="random", max_turns=4)
    model = maskable_ppo_smoke(env, tmp_path, n_steps=128, batch_size=64)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)]
