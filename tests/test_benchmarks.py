"""The env benchmark's modes run, and its no-rules floor env is a valid PettingZoo env (so the floor
figure is the cost of a real AEC loop). Speeds are measured by the script, never asserted here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

api_test = pytest.importorskip("pettingzoo.test").api_test  # the rl extra
sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
benchmark_env = pytest.importorskip("benchmark_env")


def _floor_env() -> benchmark_env.FloorEnv:
    from factionsim.envs import make_env

    env = make_env()
    return benchmark_env.FloorEnv(env.possible_agents, env.codec.observation_space,
                                  env.codec.action_space, length=40)


def test_floor_env_passes_the_pettingzoo_api_test():
    api_test(_floor_env(), num_cycles=50)


def test_floor_observation_fits_the_wwn_spaces():
    env = _floor_env()
    env.reset()
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)
    assert obs["action_mask"].sum() == 21


@pytest.mark.parametrize("mode", ["floor", "engine", "full", "mask-only"])
def test_every_env_mode_plays_whole_games(mode):
    result = benchmark_env.env_steps_per_second(
        benchmark_env.Args(seconds=0.01, max_turns=2, train_steps=0), mode)
    assert result["mode"] == mode
    assert result["games"] >= 1 and result["steps"] >= result["games"]


def test_comparison_measures_every_ruleset_next_to_connect_four():
    """The ratio table: connect four (the reference, ratio 1) and each ruleset, with as many
    interleaved ratios as repeats."""
    args = benchmark_env.Args(seconds=0.001, repeats=2, max_turns=2)
    report = benchmark_env.compare(args)
    rows = {r["env"]: r for r in report["results"]}
    assert set(rows) == {benchmark_env.REFERENCE, *benchmark_env.RULESETS}
    assert rows[benchmark_env.REFERENCE]["ratios"] == [1.0, 1.0]
    for ruleset in benchmark_env.RULESETS:
        assert len(rows[ruleset]["ratios"]) == 2 and rows[ruleset]["steps_per_s"] > 0
        assert rows[ruleset]["best_steps_per_s"] >= rows[ruleset]["steps_per_s"]
    assert rows[benchmark_env.REFERENCE]["best_ratio"] == 1.0


def test_sliced_measurement_takes_turns_until_each_env_has_its_seconds(monkeypatch):
    """"each repeat measures every env in turn, in slices of ``--slice`` CPU seconds ... taken
    round robin until each env has had ``--seconds``": with slices of a tenth of the time, each
    env runs about ten times, alternating with the others; ``--slice 0`` runs each once."""
    calls: list[tuple[str, float]] = []
    real_run = benchmark_env.Meter.run

    def run(self, seconds):
        calls.append((self.label, seconds))
        real_run(self, seconds)

    monkeypatch.setattr(benchmark_env.Meter, "run", run)
    makers = benchmark_env.env_makers(benchmark_env.Args(rulesets="wwn", max_turns=2))
    jobs = [(benchmark_env.REFERENCE, "full"), ("wwn", "full")]
    rates = benchmark_env.measure_sliced(makers, jobs, seconds=0.02, slice_s=0.002, seed=0)
    assert set(rates) == set(jobs) and all(r > 0 for r in rates.values())
    names = [name for name, _ in calls]
    assert names[:4] == [benchmark_env.REFERENCE, "wwn"] * 2  # alternating
    assert all(s <= 0.002 for _, s in calls) and len(calls) >= 4
    calls.clear()
    benchmark_env.measure_sliced(makers, jobs, seconds=0.02, slice_s=0, seed=0)
    assert calls == [(benchmark_env.REFERENCE, 0.02), ("wwn", 0.02)]


def test_ab_comparison_loads_a_revisions_env_next_to_todays(capsys):
    """``benchmark_env_ab.py``: the env and codecs of a git revision (here ``HEAD``) are loaded
    next to the working tree's and both play whole games; one ``new / old`` line per ruleset."""
    _skip_outside_a_git_checkout()
    ab = pytest.importorskip("benchmark_env_ab")
    ab.main(["--rev", "HEAD", "--repeats", "1", "--seconds", "0.001", "--max-turns", "2"])
    out = capsys.readouterr().out
    for ruleset in benchmark_env.RULESETS:
        assert f"{ruleset}-old" in out and f"{ruleset}-new" in out
        line = next(x for x in out.splitlines() if x.startswith(f"{ruleset}: new / old "))
        assert float(line.rsplit(" ", 1)[1]) > 0


def test_codec_timing_times_each_part_old_and_new(capsys):
    """``time_codec.py``: a revision's codec and today's play the same games in turns; the time of
    ``observe`` and ``encode_actions`` per step is printed for each, and one ``new / old`` line."""
    _skip_outside_a_git_checkout()
    timing = pytest.importorskip("time_codec")
    timing.main(["--rev", "HEAD", "--rulesets", "wwn", "--rounds", "1", "--max-turns", "2"])
    out = capsys.readouterr().out
    for tag in ("old", "new"):
        line = next(x for x in out.splitlines() if x.startswith(f"wwn-{tag}: "))
        assert "observe" in line and "encode_actions" in line
    line = next(x for x in out.splitlines() if x.startswith("wwn: new / old "))
    assert float(line.rsplit(" ", 1)[1]) > 0


def test_rules_comparison_swaps_a_revisions_decision_module(capsys):
    """``benchmark_rules_ab.py``: a revision's ``turn.py`` (here ``HEAD``) plays the rules alone
    next to today's, and the state class gets today's module back afterwards."""
    _skip_outside_a_git_checkout()
    rules_ab = pytest.importorskip("benchmark_rules_ab")
    from factionsim.rules.conflict import turn
    from factionsim.rules.conflict.state import ConflictState

    rules_ab.main(["--rev", "HEAD", "--ruleset", "conflict", "--repeats", "2", "--seconds",
                   "0.001", "--max-turns", "2"])
    out = capsys.readouterr().out
    assert "old:" in out and "new:" in out
    line = next(x for x in out.splitlines() if "new / old" in x)
    assert float(line.split("new / old ")[1].split()[0]) > 0
    assert ConflictState.decision_module is turn


def _skip_outside_a_git_checkout() -> None:
    """The old-against-new measures read a revision with ``git show``."""
    import subprocess

    root = Path(__file__).parents[1]
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True).returncode:
        pytest.skip("not a git checkout")
