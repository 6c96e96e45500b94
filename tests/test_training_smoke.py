"""A few hundred MaskablePPO steps; the saved model reloads and plays a campaign as an agent."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def test_train_save_reload_and_play(tmp_path):
    from factionsim import load_campaign
    from factionsim.commands.train import load_script
    from factionsim.configs import default_campaign_path
    from factionsim.core.campaign import save_campaign
    from factionsim.runner import agents_from_campaign, play

    script = load_script()
    args = script.Args(timesteps=256, n_envs=2, vec="subproc", n_steps=128, batch_size=64,
                       n_epochs=1, eval_every=10**9, eval_games=2, max_turns=4,
                       out=str(tmp_path / "run"), net_arch=[32], progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model_path = script.train(args)
    assert model_path.exists() and (tmp_path / "run" / "eval.json").exists()

    state = load_campaign(default_campaign_path())
    state.factions["silver-guild"].agent = f"policy:{model_path}"
    campaign = tmp_path / "campaign.yaml"
    save_campaign(state, campaign)
    state = load_campaign(campaign)
    agents = agents_from_campaign(state)
    assert agents["silver-guild"].name == "policy"
    seen = []
    play(state, turns=3, agents=agents,
         on_decision=lambda faction, action, agent: seen.append(agent.name))
    assert state.turn == 3 and "policy" in seen


def test_policy_agent_needs_a_path():
    from factionsim.agents import make_agent
    from factionsim.core.game import CampaignError

    with pytest.raises(CampaignError, match="no saved model"):
        make_agent("policy:/nonexistent/model.zip", "wwn")


def test_train_command_with_eval_only_evaluates_and_trains_nothing(tmp_path, capsys):
    import json

    from factionsim.cli import main

    out = tmp_path / "run"
    assert main(["train", "--eval-only", "random", "--eval-games", "2", "--max-turns", "2",
                 "--out", str(out), "--progress", "false"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["policy"] == "random" and line["games"] == 2 and 0 <= line["win_rate"] <= 1
    assert not out.exists()  # no training run, no model written
