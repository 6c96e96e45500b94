"""Training from the package (issue 18 item 7, issue 21 item 5): a few hundred MaskablePPO steps
write a watchable, repeatable run folder whose policy file plays a campaign as an agent."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def tiny(tmp_path, **changes):
    from factionsim.training import Args

    options = dict(timesteps=256, n_envs=2, vec="dummy", n_steps=64, batch_size=64, n_epochs=1,
                   eval_every=128, eval_games=2, final_eval_games=2, max_turns=3,
                   eval_opponents=["random", "heuristic"], out=str(tmp_path / "run"),
                   trunk=16, net_arch=[16], progress=False)
    options.update(changes)
    return Args(**options)


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    from factionsim.training import train

    tmp = tmp_path_factory.mktemp("train")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        policy = train(tiny(tmp))
    return tmp / "run", policy


def test_a_run_folder_holds_policy_eval_command_and_versions(trained_run):
    run, policy = trained_run
    assert policy == run / "policy.json" and (run / "policy.npz").exists()
    assert (run / "sb3_checkpoint.zip").exists()
    evaluation = json.loads((run / "eval.json").read_text())
    assert [r["opponent"] for r in evaluation["final"]] == ["random", "heuristic"]
    steps = sorted({r["timesteps"] for r in evaluation["history"]})
    assert len(steps) >= 2 and steps[0] < steps[-1]  # evaluated during training, over time
    record = json.loads((run / "run.json").read_text())
    assert record["command"] == (run / "command.txt").read_text().strip()
    assert record["command"].startswith("factionsim train --ruleset wwn --timesteps 256")
    for package in ("python", "numpy", "torch", "stable-baselines3", "sb3-contrib", "factionsim"):
        assert record["versions"][package]
    assert record["args"]["timesteps"] == 256
    assert json.loads(policy.read_text())["training"]["command"] == record["command"]


def test_tensorboard_has_a_win_rate_curve_per_opponent(trained_run):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run, _ = trained_run
    (events,) = (run / "tb").rglob("events.out.tfevents.*")
    acc = EventAccumulator(str(events))
    acc.Reload()
    for opponent in ("random", "heuristic"):
        points = acc.Scalars(f"eval/win_rate_vs_{opponent}")
        assert len(points) >= 2 and points[0].step < points[-1].step


def test_the_policy_file_plays_a_campaign_as_an_agent(trained_run, tmp_path):
    from factionsim import load_campaign
    from factionsim.configs import default_campaign_path
    from factionsim.core.campaign import save_campaign
    from factionsim.runner import agents_from_campaign, play

    _, policy = trained_run
    state = load_campaign(default_campaign_path())
    state.factions["silver-guild"].agent = f"policy:{policy}"
    save_campaign(state, tmp_path / "campaign.yaml")
    state = load_campaign(tmp_path / "campaign.yaml")
    agents = agents_from_campaign(state)
    seen = []
    play(state, turns=3, agents=agents,
         on_decision=lambda faction, action, agent: seen.append(agent.name))
    assert state.turn == 3 and agents["silver-guild"].name == "policy"


def test_a_zip_converts_only_with_trust_and_gives_the_same_policy(trained_run, tmp_path, capsys):
    import numpy as np

    from factionsim.cli import main
    from factionsim.models import read_policy

    run, policy = trained_run
    out = tmp_path / "converted"
    assert main(["train", "--convert", str(run / "sb3_checkpoint.zip"), "--out", str(out)]) == 2
    assert "--trust-model" in capsys.readouterr().err and not out.exists()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["train", "--convert", str(run / "sb3_checkpoint.zip"), "--out", str(out),
                     "--trust-model"]) == 0
    obs = np.linspace(0, 1, read_policy(policy).obs_size)
    np.testing.assert_allclose(read_policy(out / "policy.json").logits(obs),
                               read_policy(policy).logits(obs), rtol=1e-6)


def test_eval_only_evaluates_and_trains_nothing(tmp_path, capsys, monkeypatch, shipped_folder):
    from factionsim.cli import main

    monkeypatch.setattr("factionsim.models.SHIPPED", shipped_folder)  # one that fits this env

    out = tmp_path / "run"
    for policy in ("random", "trained"):
        assert main(["train", "--eval-only", policy, "--eval-games", "2", "--max-turns", "2",
                     "--eval-opponents", "random", "--out", str(out), "--progress",
                     "false"]) == 0
        line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert line["policy"] == policy and line["games"] == 2 and 0 <= line["win_rate"] <= 1
    assert not out.exists()  # no training run, no model written


def test_another_ruleset_trains(tmp_path):
    from factionsim.models import read_policy
    from factionsim.training import train

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        policy = train(tiny(tmp_path, ruleset="houses", timesteps=128, eval_every=0,
                            final_eval_games=1, eval_opponents=["random"]))
    assert read_policy(policy).ruleset == "houses"


def test_train_help_and_the_script_need_no_torch(tmp_path):
    import subprocess
    import sys

    code = ("import sys\nsys.modules['torch'] = None\nfrom factionsim.cli import main\n"
            "try:\n    main(['train', '--help'])\nexcept SystemExit as e:\n    print('exit', e.code)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "exit 0" in r.stdout and "--eval-only" in r.stdout and "--trust-model" in r.stdout
    r = subprocess.run([sys.executable, "experiments/train_wwn_ppo.py", "--help"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "--timesteps" in r.stdout
