"""One registry of rulesets; agents are resolved per ruleset when they are made, and a campaign
naming an agent its ruleset does not offer (or options that agent does not take) is refused when
it loads, naming the file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from factionsim import load_campaign
from factionsim.agents import check_agent, make_agent
from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.game import Agent, CampaignError, GameState, View
from factionsim.core.ruleset import DEFAULT_AGENT, RulesetInfo
from factionsim.rulesets import RULESETS, get_ruleset


def _with(tmp_path: Path, ruleset: str, old: str, new: str, count: int = 1) -> Path:
    """The ruleset's bundled campaign with ``old`` replaced by ``new`` (the first ``count``)."""
    text = default_campaign_path(ruleset).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{ruleset}.yaml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ------------------------------------------------------------------ the registry
@pytest.mark.parametrize("name", list(RULESETS))
def test_every_ruleset_declares_itself_completely(name: str) -> None:
    info = get_ruleset(name)
    assert isinstance(info, RulesetInfo) and info.name == name
    state = load_campaign(info.default_campaign_path())
    assert isinstance(state, GameState) and type(state) is info.state_class
    assert state.ruleset == name
    fid = state.current_actor()
    assert isinstance(state.view(fid), View)
    assert set(state.faction_summary()) == set(state.factions)
    names = info.present.names(state.to_dict())
    assert names.ruleset == name and set(names.factions) == set(state.factions)
    assert set(info.offered_agents()) >= {"random", "idle", "heuristic", "manual"}
    for spec in info.agents:
        assert issubclass(spec.load(), Agent)
    assert (Path(__file__).resolve().parents[1] / info.docs).is_file()


def test_unknown_ruleset_lists_the_registered_ones() -> None:
    with pytest.raises(ValueError, match="unknown ruleset 'd20'; available: wwn, houses"):
        get_ruleset("d20")


# ------------------------------------------------------------------ agents per ruleset
def test_make_agent_picks_the_ruleset_s_own_implementation_when_made() -> None:
    from factionsim.agents.houses_heuristic import Heuristic as HousesHeuristic
    from factionsim.agents.wwn_heuristic import HeuristicAgent

    assert type(make_agent("heuristic", "houses")) is HousesHeuristic
    assert type(make_agent("heuristic", "wwn", temperament="cautious")) is HeuristicAgent


@pytest.mark.parametrize("ruleset, name, options, expected", [
    ("houses", "heuristc", {}, "unknown agent 'heuristc' (did you mean 'heuristic'?); the houses "
                               "ruleset offers: heuristic, idle, manual, policy:PATH, random, trained"),
    ("houses", "planner", {}, "unknown agent 'planner'"),
    ("wwn", "planner", {"budget": 0}, "option 'budget' must be a whole number of at least 1, not 0"),
    ("wwn", "planner", {"discount": 0}, "'discount' must be a number above 0 and at most 1"),
    ("wwn", "planner", {"budgett": 4}, "has no option 'budgett' (did you mean 'budget'?)"),
    ("wwn", "heuristic", {"temperament": "angry"},
     "must be one of aggressive, cautious, greedy, scheming, balanced, not 'angry'"),
    ("conflict", "random", {"temperament": "cautious"}, "agent 'random' has no option"),
    ("wwn", "policy", {}, "agent 'policy' needs its path: policy:PATH"),
    ("wwn", "random:x", {}, "agent 'random' takes no ':' argument"),
    ("engagements", "trained", {"deterministic": "yes"},
     "agent 'trained' option 'deterministic' must be true or false, not 'yes'"),
    ("houses", "trained:x", {}, "agent 'trained' takes no ':' argument"),
])
def test_check_agent_names_what_is_wrong(ruleset: str, name: str, options: dict, expected: str) -> None:
    problem = check_agent(name, options, ruleset)
    assert problem is not None and expected in problem
    with pytest.raises(CampaignError, match="agent"):
        make_agent(name, ruleset, **options)


def test_check_agent_accepts_what_the_ruleset_offers() -> None:
    assert check_agent("planner", {"budget": 8, "discount": 1, "search": "halving"}, "wwn") is None
    assert check_agent("policy:runs/m.zip", {"deterministic": True}, "wwn") is None
    assert check_agent("heuristic", {}, "engagements") is None


@pytest.mark.parametrize("name", list(RULESETS))
def test_trained_policies_play_every_ruleset_with_a_codec(name: str) -> None:
    """``policy:PATH`` and ``trained`` play through the ruleset's env codec, so every ruleset
    that declares one offers them (``trained`` is refused when the campaign's agents are made
    if no policy ships for the ruleset: see tests/test_trained_agent.py)."""
    assert get_ruleset(name).codec is not None
    assert check_agent("policy:runs/x/policy.json", {"deterministic": True}, name) is None
    assert check_agent("trained", {"deterministic": False}, name) is None


def test_a_planner_in_a_houses_campaign_fails_validate_naming_file_line_and_offers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _with(tmp_path, "houses", "agent: heuristic", "agent: planner")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    line = _line_of(path, "agent: planner")
    assert f"{path}, line {line}, houses[0].agent: unknown agent 'planner'" in err
    assert "the houses ruleset offers: heuristic, idle, manual, policy:PATH, random, trained" in err


def test_a_misspelt_agent_fails_validate_with_a_suggestion(tmp_path: Path) -> None:
    path = _with(tmp_path, "conflict", "agent: heuristic", "agent: heuristc")
    with pytest.raises(CampaignError, match=r"line \d+, sides\[0\]\.agent: unknown agent 'heuristc' "
                                            r"\(did you mean 'heuristic'\?\)"):
        load_campaign(path)


def test_bad_agent_options_point_at_the_option(tmp_path: Path) -> None:
    path = _with(tmp_path, "wwn", "agent: heuristic",
                 "agent: planner\n    agent_options: {budget: 0}")
    with pytest.raises(CampaignError) as exc:
        load_campaign(path)
    line = _line_of(path, "agent_options: {budget: 0}")
    assert f"line {line}, factions[0].agent_options.budget: agent 'planner' option 'budget'" \
        in str(exc.value)


def test_a_faction_without_an_agent_is_played_by_the_heuristic(tmp_path: Path) -> None:
    path = _with(tmp_path, "engagements", "    agent: heuristic\n", "", count=-1)
    assert "agent:" not in path.read_text()
    state = load_campaign(path)
    assert DEFAULT_AGENT == "heuristic"
    assert {f.agent for f in state.factions.values()} == {"heuristic"}


# ------------------------------------------------------------------ tournament and batch
def test_tournament_plays_the_scenario_s_own_cap_unless_turns_is_given() -> None:
    from factionsim.tournament import run_tournament

    capped = run_tournament(["random"], games=1, ruleset="conflict")  # max_turns: 8
    assert capped["turns"] == 8 and capped["results"][0]["turns"] <= 8
    short = run_tournament(["random"], games=1, ruleset="conflict", turns=2)
    assert short["turns"] == 2 and short["results"][0]["turns"] <= 2


def test_tournament_refuses_an_agent_the_ruleset_does_not_offer(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--ruleset", "houses", "--agents", "random,planner", "--games", "1",
                 "--quiet"]) == 2
    assert "the houses ruleset offers" in capsys.readouterr().err


def test_batch_takes_a_ruleset_and_its_cap(tmp_path: Path) -> None:
    from factionsim.batch import run_batch

    summary = run_batch(None, runs=1, ruleset="conflict", out=tmp_path)
    assert summary["ruleset"] == "conflict" and summary["turns"] == 8
    assert main(["batch", "--ruleset", "houses", "--runs", "1", "--turns", "1", "--quiet",
                 "--out", str(tmp_path / "h")]) == 0
    assert '"ruleset": "houses"' in (tmp_path / "h" / "summary.json").read_text()
