"""Tuned-heuristic policies (``factionsim train --method tune``, issue 21 item 1): the WWN
heuristic with learned shifts of its weights (agents/wwn_heuristic/tuning.py), tuned by the
cross-entropy method or an antithetic evolution strategy against the heuristic. Checked: an
all-zero tuning *is* the heuristic, each shift does what the tuning's docstring says, the games'
mirrored pairs, the evolution strategy's step, tiny end-to-end runs (same file for 1 and 2
workers), option and file validation, and torch-free play."""

from __future__ import annotations

import json
import math
from itertools import combinations

import numpy as np
import pytest
from policy_fixtures import play_with_torch_blocked

from factionsim import load_campaign
from factionsim.agents.wwn_heuristic import HeuristicAgent
from factionsim.agents.wwn_heuristic.tuning import (
    FEATURES,
    RELATION_FEATURES,
    SHEET_FEATURES,
    TUNING_NAMES,
    ReadingTuning,
    Tuning,
    faction_features,
    relation_features,
    sheet_features,
)
from factionsim.configs import default_campaign_path
from factionsim.core.game import CampaignError
from factionsim.models import ModelFileError, read_policy
from factionsim.runner import play
from factionsim.training import Args

TINY = dict(method="tune", workers=1, progress=False, torch_threads=1, max_turns=2,
            tune_generations=2, tune_population=3, tune_elites=2, tune_games=2,
            final_eval_games=2, generated_seeds=[1000, 1001])


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    pytest.importorskip("torch")
    from factionsim.training import run

    out = tmp_path_factory.mktemp("tune") / "run"
    run(Args(out=str(out), **TINY))
    return out


def _events(agent_for):
    state = load_campaign(default_campaign_path())
    events = play(state, 3, {f: agent_for(f) for f in state.factions})
    return [str(e) for e in events], state.scores()


def test_an_all_zero_tuning_plays_exactly_as_the_heuristic():
    """"Every number is 0 for 'as the temperament says', so an all-zero tuning plays exactly as
    the heuristic does." """
    zero = Tuning.of({})
    assert _events(lambda f: HeuristicAgent(tuning=zero)) == _events(lambda f: HeuristicAgent())


@pytest.mark.parametrize("name, value, check", [
    # "multiplied by exp(value)"
    ("aggression", 0.5, lambda base, t: math.isclose(t.aggression, base.aggression * math.exp(0.5))),
    ("caution", -1.0, lambda base, t: math.isclose(t.caution, base.caution * math.exp(-1.0))),
    ("greed", 0.2, lambda base, t: math.isclose(t.greed, base.greed * math.exp(0.2))),
    # "added to the lowest chance to hit ... (the sum kept within 0.05-0.95)"
    ("attack_floor", 0.1, lambda base, t: math.isclose(t.attack_floor, base.attack_floor + 0.1)),
    ("attack_floor", 2.0, lambda base, t: t.attack_floor == 0.95),
    ("attack_floor", -2.0, lambda base, t: t.attack_floor == 0.05),
    # "the temperament's weight of that goal, multiplied by exp(value)"
    ("goal:peaceable-kingdom", 1.0, lambda base, t: math.isclose(
        t.goal_weight["peaceable-kingdom"], base.goal_weight.get("peaceable-kingdom", 1.0) * math.e)),
    # "the action's value ... multiplied by exp(value)"
    ("action:create", -1.0, lambda base, t: math.isclose(t.weigh("create", 3.0), 3.0 / math.e)),
    ("action:pass", 1.0, lambda base, t: math.isclose(t.weigh("pass", 0.5), 0.5 * math.e)),
])
def test_each_shift_does_what_the_tuning_says(name, value, check):
    state = load_campaign(default_campaign_path())
    for faction in state.factions.values():
        base = HeuristicAgent().personality(faction)
        tuned = HeuristicAgent(tuning=Tuning.of({name: value})).personality(faction)
        assert check(base, tuned), (faction.id, name)
        assert tuned.temperament == base.temperament


def test_an_action_shift_scales_that_actions_value_when_the_faction_chooses():
    state = load_campaign(default_campaign_path())
    plain, tuned = HeuristicAgent(), HeuristicAgent(tuning=Tuning.of({"action:move": 0.7}))
    for _ in range(200):
        actor = state.current_actor()
        view, legal = state.view(actor), state.legal_actions()
        before, after = plain.action_scores(view, legal), tuned.action_scores(view, legal)
        if before:
            assert before.keys() == after.keys()
            for action, value in before.items():
                factor = math.exp(0.7) if action.kind == "move" else 1.0
                assert math.isclose(after[action], value * factor), action
        state.apply(plain.act(view, legal, np.random.default_rng(0)))


def test_unknown_names_and_wrong_lengths_are_refused():
    with pytest.raises(ValueError, match="unknown tuning name"):
        Tuning.of({"boldness": 1.0})
    with pytest.raises(ValueError, match=f"{len(TUNING_NAMES)} values"):
        Tuning.from_vector([0.0, 1.0])


def test_a_tiny_run_writes_a_playable_tuned_heuristic(run_dir):
    d = json.loads((run_dir / "policy.json").read_text())
    assert d["search"] == {"kind": "tuned-heuristic", "features": "constant",
                           "parameters": list(TUNING_NAMES)}
    summary = json.loads((run_dir / "eval.json").read_text())
    assert [g["generation"] for g in summary["generations"]] == [1, 2]
    assert summary["final"]["games"] == 2
    model = read_policy(run_dir / "policy.json")
    values = model.logits(np.ones(1))
    assert values.tolist() == pytest.approx([summary["tuning"][n] for n in TUNING_NAMES], abs=1e-6)
    from factionsim.agents import make_agent

    agent = make_agent(f"policy:{run_dir / 'policy.json'}", "wwn")
    state = load_campaign(default_campaign_path())
    agent.check_fits(state)
    play(state, 1, {f: agent for f in state.factions})
    assert agent._search.tuning == Tuning.from_vector(values)


def test_the_run_is_the_same_with_two_workers(run_dir, tmp_path):
    from factionsim.training import run

    run(Args(out=str(tmp_path / "two"), **{**TINY, "workers": 2}))
    one = json.loads((run_dir / "eval.json").read_text())
    two = json.loads((tmp_path / "two" / "eval.json").read_text())
    assert one["tuning"] == two["tuning"]
    assert [g["share_of_mean"] for g in one["generations"]] == \
        [g["share_of_mean"] for g in two["generations"]]


def test_the_evolution_strategy_moves_along_the_pairs_that_differ(tmp_path):
    """``--tune-search es``: "the mean plus and minus ``spread * e`` play the same games; the mean
    moves by ``--tune-step * spread`` times the average of ``e`` weighted by each pair's
    difference of shares (divided by those differences' root mean square)"."""
    from factionsim.training.tune import es_step

    directions = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
    plus, minus = np.array([0.75, 0.5]), np.array([0.25, 0.5])  # differences 0.5 and 0
    spread = np.array([0.5, 0.5, 0.1])
    rms = math.sqrt((0.5 ** 2 + 0.0) / 2)
    expected = 0.3 * spread * (0.5 / rms * directions[0]) / 2
    assert es_step(np.zeros(3), spread, directions, plus, minus, 0.3) == pytest.approx(expected)
    # every pair tied: no move
    assert es_step(np.ones(3), spread, directions, minus, minus, 0.3).tolist() == [1.0] * 3


def test_a_tiny_evolution_strategy_run_writes_its_search(tmp_path):
    pytest.importorskip("torch")
    from factionsim.training import run

    run(Args(out=str(tmp_path / "es"), **{**TINY, "tune_search": "es", "tune_population": 4}))
    summary = json.loads((tmp_path / "es" / "eval.json").read_text())
    assert summary["search"] == "es"
    assert [g["games"] for g in summary["generations"]] == [8, 8]  # 2 pairs x 2 games
    assert all("share_of_mean" not in g for g in summary["generations"])  # (not played)
    d = json.loads((tmp_path / "es" / "policy.json").read_text())
    assert d["training"]["algorithm"].startswith("an antithetic evolution strategy")


def _run_watching(out, monkeypatch, keyword: str, default: str, **options) -> list[str]:
    """A tiny run (``options`` on top, two final games) into ``out``; the ``keyword`` argument
    of ``tune_game`` at each game played, in order (``default`` where it was not passed)."""
    import factionsim.training.tune as tune
    from factionsim.training import run

    seen: list[str] = []
    real = tune.tune_game

    def watch(*a, **kw):
        seen.append(kw.get(keyword, default))
        return real(*a, **kw)

    monkeypatch.setattr(tune, "tune_game", watch)
    run(Args(out=str(out), **{**TINY, **options, "final_eval_games": 2}))
    return seen


def test_a_run_seated_alone_names_its_fitness_and_ends_on_split_games(tmp_path, monkeypatch):
    """"The final games are always seated ``split`` (the tournament's pairwise share: comparable
    between runs)"; the policy file names the fitness the run used."""
    seatings = _run_watching(tmp_path / "alone", monkeypatch, "seating", "split",
                             tune_seating="alone")
    generations = TINY["tune_generations"] * TINY["tune_population"] * TINY["tune_games"]
    assert seatings == ["alone"] * generations + ["split"] * 2
    d = json.loads((tmp_path / "alone" / "policy.json").read_text())
    assert d["training"]["algorithm"].endswith(
        "fitness its faction's share of the win, seated alone at one faction a game")


@pytest.mark.parametrize("options, message", [
    ({"tune_search": "es", "tune_population": 5}, "--tune-population 5: .*even"),
    ({"tune_search": "pso"}, "--tune-search 'pso'; allowed: cem, es"),
    ({"tune_step": 0.0}, "--tune-step 0: above 0"),
    ({"generated": 1.5}, "--generated 1.5: .*from 0 to 1"),
    ({"tune_features": "map"}, "--tune-features 'map'; allowed: constant, faction, sheet"),
    ({"generated_hostile": 1.5}, "--generated-hostile 1.5: .*at war, from 0 to 1"),
    ({"tune_seating": "half"}, "--tune-seating 'half'; allowed: split, alone"),
    ({"tune_fitness": "xp"}, "--tune-fitness 'xp'; allowed: win, margin"),
])
def test_bad_search_options_are_refused_naming_them(options, message):
    from factionsim.training.tune import check_tune

    with pytest.raises(ValueError, match=message):
        check_tune(Args(**{**TINY, **options}))


def test_the_games_come_in_mirrored_pairs():
    """"games ``2p`` and ``2p + 1`` ... are one campaign ... with the same dice ... the candidate
    plays every second faction (the first, third... in the even game, the others in the odd
    one)": the heuristic against itself takes exactly one win per pair."""
    from factionsim.training.tune import tune_game

    zero = tuple(0.0 for _ in TUNING_NAMES)
    for pair in range(3):
        even, odd = (tune_game(0, None, (1000, 1999), 2, (0, 2 * pair + i, zero)) for i in (0, 1))
        assert even + odd == 1.0


def test_seated_alone_the_candidate_plays_one_faction_and_scores_its_share_of_the_win(
        monkeypatch):
    """"With ``--tune-seating alone`` the candidate plays **one** faction of each game (game
    ``g``: the campaign's faction ``g`` modulo their number ...), the heuristic every other, and
    its fitness is that faction's share of the win (1, ``1/k`` when ``k`` factions share the
    best score, else 0)": checked against the same game played by the heuristic alone."""
    import factionsim.agents.wwn_heuristic as wwn_heuristic
    from factionsim.training.tune import _campaigns, tune_game

    tuned_at: list[bool] = []

    class Spy(HeuristicAgent):
        def __init__(self, tuning=None, **kw):
            tuned_at.append(tuning is not None)
            super().__init__(tuning=tuning, **kw)

    monkeypatch.setattr(wwn_heuristic, "HeuristicAgent", Spy)
    zero = tuple(0.0 for _ in TUNING_NAMES)
    for game in range(6):
        tuned_at.clear()
        share = tune_game(0, None, (1000, 1999), 3, (0, game, zero), seating="alone")
        state = _campaigns(None, (1000, 1999), 1.0).draw(np.random.default_rng([0, 0, game // 2]))
        factions = list(state.factions)
        assert tuned_at == [f == factions[game % len(factions)] for f in factions]
        play(state, 3, {f: HeuristicAgent() for f in factions})  # the zero tuning's own game
        scores = state.scores()
        winners = [f for f, v in scores.items() if v == max(scores.values())]
        seat = factions[game % len(factions)]
        assert share == (1 / len(winners) if seat in winners else 0.0)


@pytest.mark.parametrize("seating", ["split", "alone"])
def test_margin_fitness_scores_the_best_score_over_the_best_of_the_others(seating):
    """"With ``--tune-fitness margin`` a game scores not who won but by how much: ``0.5 + margin
    / 20``, the margin (its best score less the best of the others', in score points) clipped to
    10 either way": checked against the same game played by the heuristic alone (the zero
    tuning), for both seatings."""
    from factionsim.training.tune import _campaigns, tune_game

    zero = tuple(0.0 for _ in TUNING_NAMES)
    for game in range(4):
        fitness = tune_game(0, None, (1000, 1999), 3, (0, game, zero), seating=seating,
                            fitness="margin")
        state = _campaigns(None, (1000, 1999), 1.0).draw(np.random.default_rng([0, 0, game // 2]))
        factions = list(state.factions)
        play(state, 3, {f: HeuristicAgent() for f in factions})
        scores = state.scores()
        mine = ({factions[game % len(factions)]} if seating == "alone"
                else {f for i, f in enumerate(factions) if (i + game) % 2 == 0})
        margin = max(scores[f] for f in mine) - max(scores[f] for f in factions if f not in mine)
        assert fitness == pytest.approx(0.5 + max(-10.0, min(10.0, margin)) / 20)


@pytest.mark.parametrize("margin, fitness", [(0.0, 0.5), (1.0, 0.55), (-4.0, 0.3), (10.0, 1.0),
                                             (-10.0, 0.0), (25.0, 1.0), (-0.5, 0.475)])
def test_margin_fitness_is_clipped_at_ten_points(margin, fitness):
    """"``0.5 + margin / 20``, the margin ... clipped to 10 either way"."""
    from factionsim.training.tune import margin_fitness

    assert margin_fitness(margin) == pytest.approx(fitness)


def test_a_margin_run_names_its_fitness_and_scores_its_final_games_by_the_win(tmp_path,
                                                                               monkeypatch):
    """The final games are scored by the win whatever ``--tune-fitness`` says; the policy file
    names the fitness the run used."""
    fitnesses = _run_watching(tmp_path / "margin", monkeypatch, "fitness", "win",
                              tune_fitness="margin")
    generations = TINY["tune_generations"] * TINY["tune_population"] * TINY["tune_games"]
    assert fitnesses == ["margin"] * generations + ["win"] * 2
    d = json.loads((tmp_path / "margin" / "policy.json").read_text())
    assert "by the score margin" in d["training"]["algorithm"]
    final = json.loads((tmp_path / "margin" / "eval.json").read_text())["final"]
    assert final["share"] in (0.0, 0.25, 0.5, 0.75, 1.0)  # two games scored 0, 0.5 or 1


@pytest.mark.parametrize("generated, bundled", [(0.0, {20}), (1.0, {0}), (0.5, set(range(5, 16)))])
def test_generated_decides_the_share_of_pairs_on_the_runs_own_campaign(generated, bundled):
    """"with probability ``--generated`` a campaign generated from a seed in
    ``--generated-seeds`` ..., otherwise the run's campaign itself": of 20 pairs, 0 plays only
    the bundled campaign, 1 only generated ones, 0.5 a mix of both."""
    from factionsim.training.tune import _campaigns

    name = load_campaign(default_campaign_path()).name
    drawn = [_campaigns(None, (1000, 1999), generated).draw(np.random.default_rng([0, 0, p]))
             for p in range(20)]
    assert sum(s.name == name for s in drawn) in bundled


@pytest.mark.parametrize("hostile, at_war", [(0.0, {0}), (1.0, {20}), (0.5, set(range(5, 16)))])
def test_generated_hostile_is_the_share_of_generated_campaigns_played_at_war(hostile, at_war):
    """"``hostile``: the share of generated campaigns played with the house rule
    ``relations_default: hostile`` instead of the generator's ``neutral`` (every pair of factions
    the campaign does not list is at war ...; the listed rivals and allies stay as they are)":
    of 20 pairs none, all or some are at war, and a campaign drawn at war lists the same
    relations as when it is drawn at peace."""
    from factionsim.training.tune import _campaigns

    def draws(share):
        return [_campaigns(None, (1000, 1999), 1.0, share).draw(np.random.default_rng([0, 0, p]))
                for p in range(20)]

    drawn = draws(hostile)
    assert sum(s.house_rules.relations_default == "hostile" for s in drawn) in at_war
    for war, peace in zip(drawn, draws(0.0), strict=True):
        assert war.name == peace.name and war.relations == peace.relations
        assert peace.house_rules.relations_default == "neutral"
    for s in drawn:
        if s.house_rules.relations_default != "hostile":
            continue
        for a, b in combinations(s.factions, 2):  # unlisted: at war; listed: as listed
            listed = s.relations.get(frozenset((a, b)))
            assert (b in s.hostile_factions(a)) == (listed in (None, "hostile"))


def test_the_policy_file_says_which_share_was_played_at_war():
    from factionsim.training.value import search_policy_header

    assert search_policy_header((1000, 1999), 3, 22, hostile=0.5)["trained_on"]["campaign"] == (
        "campaigns generated with seeds 1000-1999 (50% of them with every pair they do not list "
        "at war)")
    assert search_policy_header((1000, 1999), 3, 22)["trained_on"]["campaign"] == (
        "campaigns generated with seeds 1000-1999")


@pytest.mark.parametrize("change, message", [
    (lambda d: d["search"].update(features="afterstate-v1"), "search.features"),
    (lambda d: d["search"].update(parameters="aggression"), "search.parameters"),
    (lambda d: d["spaces"].update(observation=3),
     r"features constant reads 1 value\(s\) and gives one per parameter"),
    (lambda d: d["search"].update(features="faction"),
     r"features faction reads 3 value\(s\) and gives one per parameter \(22\); this one reads 1"),
    (lambda d: d["search"].update(features="sheet"),
     r"features sheet reads 6 value\(s\) and gives one per parameter \(22\); this one reads 1"),
    (lambda d: d["search"].pop("parameters"), "has the keys kind, features, parameters"),
])
def test_broken_files_are_refused_naming_the_field(run_dir, tmp_path, change, message):
    d = json.loads((run_dir / "policy.json").read_text())
    change(d)
    path = tmp_path / "policy.json"
    (tmp_path / "policy.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    path.write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match=message):
        read_policy(path)


def test_a_tuning_of_other_names_is_refused_when_the_agent_is_made(run_dir, tmp_path):
    from factionsim.agents import make_agent

    d = json.loads((run_dir / "policy.json").read_text())
    d["search"]["parameters"] = ["boldness", *TUNING_NAMES[1:]]
    (tmp_path / "policy.npz").write_bytes((run_dir / "policy.npz").read_bytes())
    (tmp_path / "policy.json").write_text(json.dumps(d))
    with pytest.raises(CampaignError, match="missing: aggression; unknown: boldness"):
        make_agent(f"policy:{tmp_path / 'policy.json'}", "wwn")


def test_it_plays_a_campaign_with_torch_blocked(run_dir):
    out = play_with_torch_blocked(run_dir / "policy.json",
                                  "CampaignTemplate.load(None).new_game(1, 0)")
    assert "played 2 4" in out


@pytest.mark.parametrize("argv, message", [
    (["--method", "tune", "--tune-search", "pso"], "--tune-search 'pso'; allowed: cem, es"),
    (["--method", "tune", "--tune-elites", "40"], "--tune-elites 40: from 1 to --tune-population"),
    (["--method", "leaf", "--leaf-model", "bad"], "--leaf-model 'bad'; allowed: anchored, network"),
    # (the league method reads --generated too: above 1 it was taken as 1, silently)
    (["--method", "league", "--generated", "2"],
     "--generated 2: the share of games on generated campaigns, from 0 to 1"),
    (["--method", "league", "--prior", "oracle"], "--prior 'oracle'; allowed: none, "),
])
def test_a_bad_training_option_is_one_line_on_the_command_line(tmp_path, capsys, argv, message):
    """A user expects an error naming the option and its allowed values, never a traceback, and
    no run folder left behind."""
    pytest.importorskip("torch")
    from factionsim.cli import main

    out = tmp_path / "run"
    assert main(["train", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {message}") and len(err.strip().splitlines()) == 1
    assert not out.exists()


# ---------------------------------------------------------------- a tuning that reads the campaign
@pytest.mark.parametrize("faction, strength, threat", [
    # "strength: the faction's Force + Cunning + Wealth less the mean of its rivals', over 3;
    # threat: the highest Force among its rivals less its own, over 3; each kept within -2..2"
    # (bundled campaign: Iron Legion 7+3+6, Silver Guild 2+4+6, Veiled Hand 4+6+3, Ashen Flame
    # 3+4+1)
    ("iron-legion", (16 - (12 + 13 + 8) / 3) / 3, (4 - 7) / 3),
    ("silver-guild", (12 - (16 + 13 + 8) / 3) / 3, (7 - 2) / 3),
    ("ashen-flame", (8 - (16 + 12 + 13) / 3) / 3, (7 - 3) / 3),
])
def test_the_features_read_the_factions_place_among_its_rivals(faction, strength, threat):
    state = load_campaign(default_campaign_path())
    assert faction_features(state.view(faction)) == pytest.approx((1.0, strength, threat))


def test_the_features_are_kept_within_bounds():
    from types import SimpleNamespace as NS

    minnow, giant = NS(id="m", force=1, cunning=1, wealth=1), NS(id="g", force=8, cunning=8,
                                                                 wealth=8)
    view = NS(faction=minnow, living_factions=lambda: [minnow, giant])
    assert faction_features(view) == (1.0, -2.0, 2.0)  # (3 - 24) / 3 and (8 - 1) / 3, kept


@pytest.mark.parametrize("faction, treasure, holdings", [
    # "treasure: its Treasure over 10, less 1; holdings: how many assets it has less the mean
    # of how many each rival has that it can see, over 4" (bundled campaign: Treasure 10, 8, 6,
    # 3; assets 9, 5, 5, 3, none Stealthed; "health: its fraction of HP left less its rivals'
    # mean fraction, times 2": every faction at full HP, so 0)
    ("iron-legion", 10 / 10 - 1, (9 - (5 + 5 + 3) / 3) / 4),
    ("silver-guild", 8 / 10 - 1, (5 - (9 + 5 + 3) / 3) / 4),
    ("ashen-flame", 3 / 10 - 1, (3 - (9 + 5 + 5) / 3) / 4),
])
def test_the_sheet_features_read_its_treasure_and_holdings(faction, treasure, holdings):
    state = load_campaign(default_campaign_path())
    view = state.view(faction)
    assert sheet_features(view) == pytest.approx((*faction_features(view), 0.0, treasure,
                                                  holdings))


def test_the_sheet_features_read_wounds_and_only_the_assets_a_faction_sees():
    """health: Silver Guild at 10 of 20 HP against rivals at full HP reads 2 * (0.5 - 1); a
    rival's Stealthed asset is not counted in its holdings by the others, but its owner counts
    its own."""
    state = load_campaign(default_campaign_path())
    state.factions["silver-guild"].hp = 10
    hidden = state.assets_of("iron-legion")[0]
    hidden.stealth = True
    guild = sheet_features(state.view("silver-guild"))
    assert guild[3] == pytest.approx(2 * (0.5 - 1))
    assert guild[5] == pytest.approx((5 - (8 + 5 + 3) / 3) / 4)  # Iron Legion's 9 less 1 hidden
    legion = sheet_features(state.view("iron-legion"))
    assert legion[3] == pytest.approx(2 * (1 - (0.5 + 1 + 1) / 3))
    assert legion[5] == pytest.approx((9 - (5 + 5 + 3) / 3) / 4)


@pytest.mark.parametrize("faction, hostility", [
    # "hostility: the share of its living rivals that are hostile to it, from -1 (none) to 1
    # (all): 2 * hostile / rivals - 1" (bundled campaign: the Veiled Hand neutral with all,
    # every other pair hostile)
    ("veiled-hand", 2 * 0 / 3 - 1),
    ("iron-legion", 2 * 2 / 3 - 1),
    ("ashen-flame", 2 * 2 / 3 - 1),
])
def test_the_relations_reading_counts_the_rivals_at_war(faction, hostility):
    state = load_campaign(default_campaign_path())
    view = state.view(faction)
    assert relation_features(view) == pytest.approx((*faction_features(view), hostility))


def test_the_relations_reading_follows_a_change_of_relations_and_counts_the_living_only():
    """A collapsed faction is no rival: without the Silver Guild the Iron Legion has one rival
    at war (the Cult) of two (the Veiled Hand neutral). An attack on a neutral makes the pair
    hostile (house rule relations_change): the Veiled Hand then has one rival at war (the
    Legion) of two, and the Legion two of two."""
    state = load_campaign(default_campaign_path())
    assert relation_features(state.view("iron-legion"))[3] == pytest.approx(2 * 2 / 3 - 1)
    state.factions["silver-guild"].alive = False
    assert relation_features(state.view("iron-legion"))[3] == pytest.approx(2 * 1 / 2 - 1)
    state.relations = {**state.relations, frozenset(("iron-legion", "veiled-hand")): "hostile"}
    assert relation_features(state.view("veiled-hand"))[3] == pytest.approx(2 * 1 / 2 - 1)
    assert relation_features(state.view("iron-legion"))[3] == pytest.approx(1.0)
    state.factions["ashen-flame"].alive = False
    state.factions["veiled-hand"].alive = False
    assert relation_features(state.view("iron-legion")) == (1.0, 0.0, 0.0, 0.0)


def test_the_sheet_features_are_kept_within_bounds():
    from types import SimpleNamespace as NS

    rich = NS(id="r", force=1, cunning=1, wealth=1, hp=1, max_hp=20, treasure=90)
    hale = NS(id="h", force=1, cunning=1, wealth=1, hp=20, max_hp=20, treasure=0)
    held = {"r": (), "h": tuple(range(30))}
    view = NS(faction=rich, living_factions=lambda: [rich, hale], assets_of=held.__getitem__)
    # health 2 * (0.05 - 1) = -1.9 stays; Treasure 90 / 10 - 1 = 8 and holdings -30 / 4 are kept
    assert sheet_features(view)[3:] == pytest.approx((-1.9, 2.0, -2.0))


def test_a_reading_tuning_with_only_its_constant_plays_as_the_constant_tuning():
    """"A reading tuning with every weight but the constant's 0 plays as the constant tuning
    does." """
    constant = Tuning.of({"aggression": -0.8, "action:expand": 0.5, "goal:sphere-dominance": -0.6})
    expected = _events(lambda f: HeuristicAgent(tuning=constant))
    for name, features in (("faction", FEATURES), ("sheet", SHEET_FEATURES),
                           ("relations", RELATION_FEATURES)):
        weights = np.zeros((len(TUNING_NAMES), len(features)))
        weights[:, 0] = constant.values
        reading = ReadingTuning.linear(weights, name)
        assert _events(lambda f, r=reading: HeuristicAgent(tuning=r)) == expected, name


def test_a_reading_tuning_shifts_a_small_faction_otherwise_than_a_giant():
    """Its numbers are "weights @ features": aggression 0.5 per unit of strength makes the
    strongest faction bolder and the weakest meeker, each by its own strength."""
    state = load_campaign(default_campaign_path())
    weights = np.zeros((len(TUNING_NAMES), len(FEATURES)))
    weights[TUNING_NAMES.index("aggression"), 1] = 0.5
    agent = HeuristicAgent(tuning=ReadingTuning.linear(weights))
    for fid in state.factions:
        view = state.view(fid)
        base = HeuristicAgent().personality(view.faction)
        tuned = agent.personality(view.faction, view)
        assert tuned.aggression == pytest.approx(
            base.aggression * math.exp(0.5 * faction_features(view)[1]))


@pytest.mark.parametrize("reading, features, read", [
    ("faction", FEATURES, faction_features), ("sheet", SHEET_FEATURES, sheet_features),
    ("relations", RELATION_FEATURES, relation_features)])
def test_a_tiny_run_that_reads_the_faction_writes_a_playable_file(tmp_path, reading, features,
                                                                  read):
    pytest.importorskip("torch")
    from factionsim.agents import make_agent
    from factionsim.training import run

    run(Args(out=str(tmp_path / "f"), **{**TINY, "tune_search": "es", "tune_population": 2,
                                         "tune_features": reading}))
    d = json.loads((tmp_path / "f" / "policy.json").read_text())
    assert d["search"]["features"] == reading
    assert d["spaces"]["observation"] == len(features) and d["spaces"]["actions"] == 22
    record = d["training"]["tuning"]
    assert list(record) == list(TUNING_NAMES) and list(record["aggression"]) == list(features)
    agent = make_agent(f"policy:{tmp_path / 'f' / 'policy.json'}", "wwn")
    state = load_campaign(default_campaign_path())
    play(state, 1, {f: agent for f in state.factions})
    weights = np.array([[record[n][f] for f in features] for n in TUNING_NAMES])
    view = state.view(next(iter(state.factions)))
    assert agent._search.tuning.at(view).values == pytest.approx(
        tuple(weights @ read(view)), abs=1e-5)


def test_an_unknown_reading_is_named_as_such():
    weights = np.zeros((len(TUNING_NAMES), len(FEATURES)))
    with pytest.raises(ValueError, match="unknown reading 'map'; known: faction, sheet"):
        ReadingTuning.linear(weights, "map")
    with pytest.raises(ValueError, match="a tuning reading sheet has 22 x 6 weights, not 22 x 3"):
        ReadingTuning.linear(weights, "sheet")
