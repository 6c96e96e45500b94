"""Tournaments: rotation, aggregation (ties, CIs, pairwise, ratings), workers, the command."""

from __future__ import annotations

import json

import pytest

from factionsim.cli import main
from factionsim.tournament import aggregate, run_tournament, seat_agents, wilson


def test_wilson_interval():
    lo, hi = wilson(160, 200)
    assert 0.73 < lo < 0.8 < hi < 0.86
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_seats_rotate_over_the_factions():
    f = ["a", "b", "c", "d"]
    assert seat_agents(f, ["x", "y"], 0) == {"a": "x", "b": "y", "c": "x", "d": "y"}
    assert seat_agents(f, ["x", "y"], 1) == {"a": "y", "b": "x", "c": "y", "d": "x"}
    assert seat_agents(f, ["x", "y", "z"], 2)["a"] == "z"


def test_ties_share_the_win_and_pairwise():
    results = [
        {"game": 0, "seats": {"a": "x", "b": "y"}, "scores": {"a": 3.0, "b": 3.0},
         "winners": ["a", "b"]},
        {"game": 1, "seats": {"a": "y", "b": "x"}, "scores": {"a": 1.0, "b": 5.0},
         "winners": ["b"]},
    ]
    r = aggregate(results, ["x", "y"])
    assert r["agents"]["x"]["wins"] == 1.5 and r["agents"]["y"]["wins"] == 0.5
    assert r["agents"]["x"]["win_rate"] == 0.75
    assert r["pairwise"]["x"]["y"]["share"] == 0.75
    assert r["agents"]["x"]["rating"] > r["agents"]["y"]["rating"]


def test_results_do_not_depend_on_workers():
    one = run_tournament(["random", "idle"], games=3, turns=3, seed=5, workers=1)
    two = run_tournament(["random", "idle"], games=3, turns=3, seed=5, workers=2)
    assert one["results"] == two["results"] and one["agents"] == two["agents"]


def test_heuristic_beats_random():
    r = run_tournament(["heuristic", "random"], games=6, turns=12, seed=1)
    assert r["pairwise"]["heuristic"]["random"]["share"] >= 0.8


def test_command_json_and_files(tmp_path, capsys):
    rc = main(["tournament", "--agents", "random,heuristic", "--games", "2", "--turns", "3",
               "--out", str(tmp_path), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    for name in ("random", "heuristic"):
        assert {"games", "wins", "win_rate"} <= set(out["agents"][name])
        assert out["agents"][name]["games"] == 2
    assert (tmp_path / "results.json").exists()
    assert (tmp_path / "results.csv").read_text().startswith("agent,games")


def test_command_rejects_unknown_agents(tmp_path, capsys):
    rc = main(["tournament", "--agents", "random,nosuch", "--games", "1",
               "--out", str(tmp_path), "--quiet"])
    assert rc == 2
    assert "nosuch" in capsys.readouterr().err
