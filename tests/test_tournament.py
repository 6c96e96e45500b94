"""Tournaments: rotation, aggregation (ties, CIs, pairwise, ratings), workers, the command."""

from __future__ import annotations

import json

import pytest

from factionsim.cli import main
from factionsim.core.game import CampaignError
from factionsim.tournament import (
    aggregate,
    parse_agent_options,
    run_tournament,
    seat_agents,
    wilson,
)


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


@pytest.mark.parametrize("texts, expected", [
    (["trained:deterministic=true"], {"trained": {"deterministic": True}}),
    (["planner:budget=8", "planner:margin=0.2"], {"planner": {"budget": 8, "margin": 0.2}}),
    # a policy's path holds a ':' itself: the option is the name after the last one
    (["policy:runs/a/policy.json:deterministic=false"],
     {"policy:runs/a/policy.json": {"deterministic": False}}),
    (["heuristic:temperament=aggressive"], {"heuristic": {"temperament": "aggressive"}}),
])
def test_agent_options_are_read_per_agent(texts, expected):
    assert parse_agent_options(texts) == expected


@pytest.mark.parametrize("text", ["trained", "deterministic=true", "trained:=true", ":x=1",
                                  "trained:deterministic"])
def test_agent_options_of_another_form_are_refused(text):
    with pytest.raises(CampaignError, match="write AGENT:OPTION=VALUE"):
        parse_agent_options([text])


def test_command_passes_agent_options_to_every_seat_of_that_agent(tmp_path, monkeypatch):
    import factionsim.agents

    made = []
    real = factionsim.agents.make_agent

    def recording(name, ruleset, **options):
        made.append((name, options))
        return real(name, ruleset, **options)

    monkeypatch.setattr(factionsim.agents, "make_agent", recording)
    rc = main(["tournament", "--agents", "random,heuristic", "--games", "2", "--turns", "1",
               "--workers", "1", "--agent-options", "heuristic:temperament=cautious",
               "--out", str(tmp_path), "--quiet"])
    assert rc == 0
    played = [(name, options) for name, options in made if name == "heuristic"]
    assert played and all(options == {"temperament": "cautious"} for _, options in played)
    assert all(options == {} for name, options in made if name == "random")


@pytest.mark.parametrize("option, message", [
    ("trained:determinstic=true", "agent options for 'trained': agent 'trained' has no option "
     "'determinstic' (did you mean 'deterministic'?); it takes: deterministic"),
    ("trained:deterministic=5", "agent 'trained' option 'deterministic' must be true or false, "
     "not 5"),
    ("random:x=1", "agent options for 'random', which does not play in this tournament "
     "(agents: heuristic, trained)"),
    ("trained", "--agent-options 'trained': write AGENT:OPTION=VALUE"),
])
def test_command_refuses_bad_agent_options_before_any_game(tmp_path, capsys, option, message):
    rc = main(["tournament", "--agents", "heuristic,trained", "--games", "1",
               "--agent-options", option, "--out", str(tmp_path / "t"), "--quiet"])
    assert rc == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def test_the_text_table_keeps_its_columns_with_a_long_agent_name():
    """``policy:runs/<run>/policy.json`` is a usual agent name: the columns widen to it, so each
    figure stays under its heading (they were laid out for names of at most 16 characters)."""
    from factionsim.tournament import format_table

    long = "policy:runs/houses-long-run/policy.json"
    names = ["heuristic", long, "random"]
    result = {"games": 3, "turns": 12,
              "agents": {n: {"games": 3, "wins": 1.0, "win_rate": 1 / 3, "ci95": [0.0, 1.0],
                             "rating": -12.5} for n in names},
              "pairwise": {a: {b: {"share": 0.5} for b in names if b != a} for a in names}}
    lines = format_table(result).splitlines()
    header = lines[1]
    for row in lines[2:5]:
        assert len(row) == len(header)  # the rating ends under "rating"
        assert row.split()[1] == "3" and row.index(" 3 ") < header.index("games") + len("games")
    columns = lines[7]
    for row in lines[8:11]:
        assert len(row) == len(columns)
        ends = [columns.index(n) + len(n) for n in names]  # each share ends under its agent
        assert all(row[end - 1] in "-%" for end in ends)
