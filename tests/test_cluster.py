"""The Ray backend gives the local backend's results byte for byte; the RLlib smoke run.

One local Ray instance for the module (starting one costs seconds)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from factionsim.batch import run_batch
from factionsim.cli import main
from factionsim.forecast import run_forecast
from factionsim.tournament import run_tournament

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def ray_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_tournament_ray_equals_local_byte_for_byte():
    local = run_tournament(["random", "heuristic"], games=5, turns=4, seed=11, workers=1)
    for workers in (1, 2):
        remote = run_tournament(["random", "heuristic"], games=5, turns=4, seed=11,
                                backend="ray", workers=workers)
        assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


def test_batch_ray_equals_local_byte_for_byte(tmp_path):
    run_batch(None, runs=4, turns=3, seed=4, out=tmp_path / "local", workers=2)
    run_batch(None, runs=4, turns=3, seed=4, out=tmp_path / "ray", backend="ray", workers=2)
    local, remote = _files(tmp_path / "local"), _files(tmp_path / "ray")
    assert len(local) == 3 + 2 * 4 and local == remote  # summary.json, .html, curves.csv + runs


def test_forecast_ray_equals_local_byte_for_byte():
    local = run_forecast(None, runs=4, turns=2, seed=3, workers=2)
    remote = run_forecast(None, runs=4, turns=2, seed=3, backend="ray", workers=2)
    assert json.dumps(remote) == json.dumps(local)


def test_commands_with_the_ray_backend(tmp_path, capsys):
    assert main(["tournament", "--agents", "random,idle", "--games", "2", "--turns", "2",
                 "--backend", "ray", "--out", str(tmp_path / "t"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    assert main(["batch", "--runs", "2", "--turns", "2", "--backend", "ray",
                 "--out", str(tmp_path / "b"), "--quiet"]) == 0
    assert (tmp_path / "b" / "summary.json").exists()


def test_rllib_smoke(tmp_path):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    sys.path.insert(0, str(ROOT / "experiments"))
    try:
        import train_rllib
    finally:
        sys.path.remove(str(ROOT / "experiments"))
    args = train_rllib.parse_args(["--smoke", "--out", str(tmp_path)])
    history = train_rllib.train(args)
    assert len(history) == args.iterations and all(h["env_steps"] > 0 for h in history)
    assert (tmp_path / "checkpoint").is_dir()
    # the env: one deciding agent per step, masks that match the engine, frozen seats inside
    env = train_rllib.FactionMultiAgentEnv({"max_turns": 2, "internal": {"ashen-flame": "random"}})
    assert "ashen-flame" not in env.possible_agents
    obs, _ = env.reset(seed=0)
    steps = 0
    while True:
        ((agent, o),) = obs.items()
        assert o["action_mask"].sum() >= 1 and env.observation_spaces[agent].contains(o)
        obs, rew, term, trunc, info = env.step({agent: int(o["action_mask"].argmax())})
        steps += 1
        if term["__all__"]:
            break
    assert steps > 2 and obs and all(term[a] for a in obs)
    # self-play snapshot: the frozen module takes the learner's weights
    algo = train_rllib.build_config(args).build_algo()
    try:
        algo.train()
        train_rllib.snapshot(algo)
        frozen = algo.env_runner_group.local_env_runner.module["frozen"].get_state()
        learner = algo.get_module("learner").get_state(inference_only=True)
        tensors = [k for k, v in learner.items() if hasattr(v, "shape")]
        assert tensors
        for k in tensors:
            assert (frozen[k] == learner[k]).all(), k
    finally:
        algo.stop()
