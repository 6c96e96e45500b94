"""Whole games of the engagements ruleset: random play keeps every invariant, the CLI commands,
the heuristic against random, the environment and a smoke training run."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml
from contract_play import decisions as random_decisions
from env_helpers import maskable_ppo_smoke, play_random_masked

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


def test_smoke_maskable_ppo(tmp_path):
    from factionsim.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(campaign=SCENARIO, opponents="random", max_turns=4)
    model = maskable_ppo_smoke(env, tmp_path, n_steps=128, batch_size=64)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)]
