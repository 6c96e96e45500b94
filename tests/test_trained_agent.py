"""``agent: trained``: the WWN policy shipped in the package, played with numpy alone (issue 21
item 2): in campaigns, in tournaments and in ``turn --interactive`` re-plans; it refuses a
campaign whose spaces it does not fit, saying why and what fits."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from factionsim import load_campaign
from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.game import CampaignError


@pytest.fixture(autouse=True)
def _a_fitting_shipped_policy(monkeypatch, shipped_folder):
    """``agent: trained`` plays the shipped WWN policy, or an untrained stand-in of the current
    env version while the shipped one was trained on an older one (tests/policy_fixtures.py)."""
    monkeypatch.setattr("factionsim.models.SHIPPED", shipped_folder)


@pytest.fixture
def network_shipped(monkeypatch, tmp_path):
    """A network policy (untrained, this env version's spaces) shipped as ``agent: trained``,
    whatever kind ships: for what a network policy does that a search policy (a tuned
    heuristic) does not (refusing a campaign whose spaces it does not fit; the heuristic
    deciding past the codec's limits)."""
    from policy_fixtures import write_untrained_policy

    write_untrained_policy(tmp_path / "wwn.json")
    monkeypatch.setattr("factionsim.models.SHIPPED", tmp_path)


def test_the_shipped_policy_is_small_data_with_its_spaces_and_version():
    """The file in the package (not the stand-in): small, with its spaces and env version; it
    fits the bundled campaign when its version is the env's, and is refused clearly otherwise."""
    import factionsim.models
    from factionsim.agents import make_agent
    from factionsim.envs import env_version, make_codec
    from factionsim.models import load_policy

    path = Path(factionsim.models.__file__).parent / "shipped" / "wwn.json"
    d = json.loads(path.read_text())
    assert path.with_suffix(".npz").stat().st_size < 2_000_000
    assert d["ruleset"] == "wwn"
    assert d["training"]["command"].startswith("factionsim train")
    assert load_policy(path).n_actions == d["spaces"]["actions"]
    state = load_campaign(default_campaign_path())
    agent = make_agent(f"policy:{path}", "wwn")
    if "search" in d:  # a search policy (the tuned heuristic) reads the game, not the env
        _check_a_shipped_tuned_heuristic(d, agent, state)
    elif d["env_version"] == env_version("wwn"):
        codec = make_codec(state)
        assert d["spaces"] == {"observation": codec.obs_size, "actions": codec.n_actions}
        agent.check_fits(state)
    else:
        with pytest.raises(CampaignError, match=f"env version {d['env_version']}.*version "
                                                f"{env_version('wwn')}.*retrain it"):
            agent.check_fits(state)


def _check_a_shipped_tuned_heuristic(d, agent, state):
    """A tuned heuristic shipped as the WWN policy: this version's tuning names and features,
    the env version it was made under, and it fits and plays any shape of campaign."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_INPUTS, TUNING_NAMES
    from factionsim.envs import env_version
    from factionsim.rules.wwn.generate import generate_campaign
    from factionsim.rules.wwn.state import WwnState
    from factionsim.runner import play

    assert d["search"]["kind"] == "tuned-heuristic"
    assert d["search"]["parameters"] == list(TUNING_NAMES)
    assert d["spaces"] == {"observation": TUNING_INPUTS[d["search"]["features"]],
                           "actions": len(TUNING_NAMES)}
    assert d["env_version"] == env_version("wwn")
    five = WwnState.from_dict(generate_campaign(5, 14, 3))
    for game in (state, five):
        agent.check_fits(game)
        play(game, 1, {f: agent for f in game.factions})
        assert game.turn == 1


def test_a_policy_of_an_older_env_version_is_refused_saying_so(tmp_path):
    from policy_fixtures import write_untrained_policy

    from factionsim.agents import make_agent
    from factionsim.envs import env_version

    path = write_untrained_policy(tmp_path / "old.json")
    d = json.loads(path.read_text())
    d["env_version"] = env_version("wwn") - 1
    path.write_text(json.dumps(d))
    agent = make_agent(f"policy:{path}", "wwn")
    with pytest.raises(CampaignError) as err:
        agent.check_fits(load_campaign(default_campaign_path()))
    assert str(err.value) == (
        f"policy {path} was trained on wwn env version {env_version('wwn') - 1}; this "
        f"factionsim encodes wwn games with version {env_version('wwn')} (the spaces changed: "
        "retrain it with 'factionsim train --ruleset wwn', see docs/training.md)")


NO_TORCH = """
import sys
from pathlib import Path
for name in ("torch", "gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib"):
    sys.modules[name] = None  # importing any of them now fails: numpy alone must do
import factionsim.models
factionsim.models.SHIPPED = Path(sys.argv[3])  # the folder the tests' shipped policy is in
from factionsim.cli import main
code = main(["run", sys.argv[1], "--turns", "2", "--out", sys.argv[2], "--quiet"])
heavy = [m for m in ("torch", "gymnasium", "pettingzoo") if sys.modules.get(m) is not None]
print(code, heavy)
"""


def trained_campaign(tmp_path: Path, factions: tuple[int, ...] = (0, 2)) -> Path:
    text = default_campaign_path().read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    k = -1
    for i, line in enumerate(lines):
        if line.strip() == "agent: heuristic":
            k += 1
            if k in factions:
                lines[i] = line.replace("heuristic", "trained")
    path = tmp_path / "c.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_trained_plays_a_campaign_with_numpy_alone(tmp_path, shipped_folder):
    campaign = trained_campaign(tmp_path)
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-c", NO_TORCH, str(campaign), str(out),
                        str(shipped_folder)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "[]"]
    reasons = [e["reason"] for e in map(json.loads, (out / "events.jsonl").open())
               if e["kind"] == "decision" and e["faction"] == "iron-legion"]
    assert reasons and all(r.startswith("trained policy (wwn): ") for r in reasons)
    assert "Trained policy (wwn): " in (out / "chronicle.md").read_text()


def test_same_campaign_and_seed_give_the_same_game(tmp_path):
    campaign = trained_campaign(tmp_path, factions=(0, 1, 2, 3))
    for out in ("a", "b"):
        assert main(["run", str(campaign), "--turns", "2", "--seed", "7", "--out",
                     str(tmp_path / out), "--quiet"]) == 0
    assert (tmp_path / "a" / "events.jsonl").read_bytes() == \
        (tmp_path / "b" / "events.jsonl").read_bytes()


def test_it_plays_another_campaign_that_fits_its_spaces(tmp_path):
    """Any campaign of 4 factions and 10 locations fits (spaces, not this map, decide)."""
    path = tmp_path / "new.yaml"
    assert main(["new", str(path), "--factions", "4", "--locations", "10", "--seed", "5",
                 "--agent", "trained", "--quiet"]) == 0
    assert main(["validate", str(path)]) == 0
    assert main(["turn", str(path), "--quiet"]) == 0
    assert load_campaign(path).turn == 1


def test_a_network_policy_refuses_a_campaign_it_does_not_fit_naming_file_faction_and_what_fits(
        tmp_path, capsys, network_shipped):
    path = tmp_path / "five.yaml"
    assert main(["new", str(path), "--factions", "5", "--seed", "5", "--agent", "trained",
                 "--quiet"]) == 0
    before = path.read_bytes()
    for command in (["turn", str(path)], ["run", str(path), "--out", str(tmp_path / "o")],
                    ["validate", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "faction '" in err
        assert "does not fit" in err and "4 factions, 10 locations" in err  # what fits
        assert "5 factions" in err  # why: this campaign's shape
        assert "Traceback" not in err
    assert path.read_bytes() == before
    assert "line " in err  # validate also names the line of the agent field


def test_a_ruleset_without_a_shipped_policy_is_refused_clearly():
    from factionsim.agents import make_agent

    with pytest.raises(CampaignError, match="no trained policy ships for the houses ruleset"):
        make_agent("trained", "houses")  # when the registry makes it, before any game


def test_trained_in_a_tournament(tmp_path):
    from factionsim.tournament import run_tournament

    r = run_tournament(["trained", "random"], games=2, turns=2)
    assert r["games"] == 2 and set(r["agents"]) == {"trained", "random"}
    assert main(["tournament", "--agents", "trained,heuristic", "--games", "1", "--turns", "1",
                 "--out", str(tmp_path / "t"), "--quiet"]) == 0


def test_a_tournament_checks_the_policy_at_every_seat_before_any_game(tmp_path, capsys,
                                                                       network_shipped):
    path = tmp_path / "five.yaml"
    assert main(["new", str(path), "--factions", "5", "--seed", "5", "--quiet"]) == 0
    assert main(["tournament", "--campaign", str(path), "--agents", "random,trained", "--games",
                 "1", "--out", str(tmp_path / "t"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "faction '" in err and "does not fit" in err and "5 factions" in err
    assert not (tmp_path / "t").exists()


def test_evaluation_plays_the_one_game_loop_reproducibly():
    """``factionsim train`` evaluates through :func:`factionsim.runner.play`: game ``g`` is the
    tournament's game ``g`` (dice from ``(seed, g)``) with the player at seat ``g mod 4``, so
    replaying it by hand gives the evaluation's outcome, and two evaluations are identical."""
    from factionsim.agents import make_agent
    from factionsim.runner import CampaignTemplate, play
    from factionsim.training import Args
    from factionsim.training.evaluate import evaluate, outcome

    args = Args(max_turns=3)
    player = make_agent("trained", "wwn")
    first = evaluate(player, args, "random", games=4, seed=3)
    assert {k: v for k, v in first.items() if k != "seconds"} == \
        {k: v for k, v in evaluate(player, args, "random", games=4, seed=3).items() if k != "seconds"}
    results = []
    for g in range(4):
        state = CampaignTemplate.load(None).new_game(3, g)
        seat = list(state.factions)[g % 4]
        state.max_turns = state.turn + 3
        agents = {fid: make_agent("random", "wwn") for fid in state.factions}
        play(state, 3, {**agents, seat: player})
        results.append(outcome(state.scores(), seat, state.factions[seat].alive))
    assert first["win_rate"] == sum(r > 0 for r in results) / 4
    assert first["shared_win_rate"] == sum(r == 0 for r in results) / 4


def test_trained_replans_when_the_gm_asks(tmp_path):
    """``turn --interactive``: the GM rejects the plan; the policy offers another legal action
    (its choice among those left), recorded as a GM veto."""
    from factionsim.agents import make_agent
    from factionsim.agents.manual import GmReview

    state = load_campaign(default_campaign_path())
    fid = state.current_actor()
    while len(state.legal_actions()) < 3:  # a decision with a real choice
        state.apply(state.legal_actions()[0])
        fid = state.current_actor()
    legal = state.legal_actions()
    out = io.StringIO()
    review = GmReview(make_agent("trained", "wwn"), input=io.StringIO("r\na\n"), output=out,
                      ask_always=True)  # asked even when its first plan is "done"
    action = review.act(state.view(fid), legal, np.random.default_rng(0))
    first = out.getvalue().split("plans: ")[1].splitlines()[0]
    assert action in legal and str(action) != first
    assert "new plan:" in out.getvalue() and "trained policy (wwn)" in out.getvalue()
    assert review.pending_events[0].data["how"] == "re-planned"


def test_interactive_turn_with_trained_factions(tmp_path, monkeypatch, capsys):
    campaign = trained_campaign(tmp_path, factions=(0,))
    monkeypatch.setattr("sys.stdin", io.StringIO("t\n" * 400))
    assert main(["turn", str(campaign), "--interactive", "--quiet"]) == 0
    assert "reason: trained policy (wwn):" in capsys.readouterr().out


def test_deterministic_option_must_be_true_or_false():
    from factionsim.agents import make_agent

    with pytest.raises(CampaignError, match="deterministic"):
        make_agent("trained", "wwn", deterministic="yes")


def test_a_game_that_outgrows_the_codec_is_decided_by_the_heuristic(monkeypatch,
                                                                     network_shipped):
    """Mid-game, a position beyond the codec's limits (say a 33rd asset) cannot be encoded: that
    decision is the heuristic's, and the reason says so."""
    from factionsim.agents import make_agent
    from factionsim.envs.wwn_codec import EncodingError, WwnCodec

    state = load_campaign(default_campaign_path())
    agent = make_agent("trained", "wwn")
    agent.check_fits(state)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])

    def too_many(self, *args):
        raise EncodingError("faction iron-legion has 33 assets; the codec's own_assets limit is 32")

    monkeypatch.setattr(WwnCodec, "encode_actions", too_many)
    fid = state.current_actor()
    action = agent.act(state.view(fid), state.legal_actions(), np.random.default_rng(0))
    assert action in state.legal_actions()
    assert "33 assets" in agent.last_reason and "the heuristic decided" in agent.last_reason


def test_validate_reports_trained_on_a_ruleset_without_a_policy_with_its_line(tmp_path, capsys):
    text = default_campaign_path("houses").read_text(encoding="utf-8")
    path = tmp_path / "houses.yaml"
    path.write_text(text.replace("agent: heuristic", "agent: trained", 1), encoding="utf-8")
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "trained" in t)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}, line {line}, houses[0].agent: " in err
    assert "no trained policy ships for the houses" in err


def test_trained_plays_its_most_probable_action_unless_told_to_sample():
    """docs/training.md: "`agent: trained` plays the most probable action by default
    (`deterministic: false` samples)"; a policy file named by path samples unless told."""
    from factionsim.agents import make_agent

    assert make_agent("trained", "wwn").deterministic is True
    assert make_agent("trained", "wwn", deterministic=False).deterministic is False


def test_a_tuned_heuristic_shipped_as_trained_plays_any_shape_under_the_trained_label(
        tmp_path, monkeypatch):
    """A search policy shipped for ``agent: trained`` (here a tuned heuristic, its 22 numbers
    drawn at random) reads the game, not the env's observation: a 5-faction campaign of 14
    places plays, and every decision's reason names it as the trained policy."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES
    from factionsim.models import write_policy
    from factionsim.training.tune import tuned_heuristic_fields
    from factionsim.training.value import search_policy_header

    description = {
        **search_policy_header((1000, 1999), 1, len(TUNING_NAMES)), **tuned_heuristic_fields(),
        "training": {"command": "factionsim train --method tune (none: a test fixture)"}}
    tuning = np.random.default_rng(0).normal(0, 0.3, (len(TUNING_NAMES), 1))
    write_policy(tmp_path / "shipped" / "wwn.json", description, {"tuning": tuning})
    monkeypatch.setattr("factionsim.models.SHIPPED", tmp_path / "shipped")
    path = tmp_path / "five.yaml"
    assert main(["new", str(path), "--factions", "5", "--locations", "14", "--seed", "5",
                 "--agent", "trained", "--quiet"]) == 0
    out = tmp_path / "out"
    assert main(["run", str(path), "--turns", "2", "--out", str(out), "--quiet"]) == 0
    reasons = [e["reason"] for e in map(json.loads, (out / "events.jsonl").open())
               if e["kind"] == "decision"]
    assert reasons and all(r.startswith("trained policy (wwn): ") for r in reasons)


def test_a_tuned_heuristic_replans_with_its_own_reason(tmp_path, monkeypatch):
    """``turn --interactive``, re-plan: a tuned heuristic shipped as ``trained`` decides among
    the actions the GM left open as the tuned heuristic (its own reason under the trained
    label), not as the plain heuristic "(nothing searched here)"."""
    from factionsim.agents import make_agent
    from factionsim.agents.manual import GmReview
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES
    from factionsim.models import write_policy
    from factionsim.training.tune import tuned_heuristic_fields
    from factionsim.training.value import search_policy_header

    description = {
        **search_policy_header((1000, 1999), 1, len(TUNING_NAMES)), **tuned_heuristic_fields(),
        "training": {"command": "factionsim train --method tune (none: a test fixture)"}}
    tuning = np.random.default_rng(1).normal(0, 0.3, (len(TUNING_NAMES), 1))
    write_policy(tmp_path / "shipped" / "wwn.json", description, {"tuning": tuning})
    monkeypatch.setattr("factionsim.models.SHIPPED", tmp_path / "shipped")
    state = load_campaign(default_campaign_path())
    while len(state.legal_actions()) < 3:  # a decision with a real choice
        state.apply(state.legal_actions()[0])
    fid, legal = state.current_actor(), state.legal_actions()
    out = io.StringIO()
    agent = make_agent("trained", "wwn")
    review = GmReview(agent, input=io.StringIO("r\na\n"), output=out, ask_always=True)
    action = review.act(state.view(fid), legal, np.random.default_rng(0))
    replan = out.getvalue().split("new plan:")[1]
    assert "nothing searched here" not in replan
    assert "reason: trained policy (wwn): " in replan
    first = out.getvalue().split("plans: ")[1].splitlines()[0]
    left = [a for a in legal if str(a) != first]
    tuned = agent._search.agent  # the tuned heuristic itself, asked about what was left
    assert action == tuned.act(state.view(fid), left, np.random.default_rng(0))
