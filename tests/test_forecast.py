"""``factionsim forecast``: many futures from where a campaign stands (factionsim/forecast.py).

Checked: the campaign file and its dice are never touched; each future's dice come from
``SeedSequence([seed, run])``; the forecast is byte for byte the same for any number of workers
(Ray: tests/test_cluster.py); it agrees with ``factionsim batch`` run for run when they share
seeds, and within the confidence intervals when they do not; the counting of every question
(collapse, goals, headquarters, places, headlines, fan quantiles) on hand-made futures; the WWN
headlines; the terminal table, the HTML page and the JSON; another ruleset.
"""

from __future__ import annotations

import json

import pytest

from factionsim.batch import run_batch
from factionsim.chronicle.forecast_page import forecast_html
from factionsim.cli import main
from factionsim.commands.forecast import forecast_text
from factionsim.configs import default_campaign_path
from factionsim.core.dice import seeded_dice
from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.stats import proportion
from factionsim.forecast import ForecastJob, play_future, run_forecast, summarize
from factionsim.rules.wwn.forecast import headline, holdings
from factionsim.rulesets import load_campaign
from factionsim.runner import CampaignTemplate


@pytest.fixture()
def campaign(tmp_path):
    path = tmp_path / "march.yaml"
    path.write_bytes(default_campaign_path().read_bytes())
    return path


# --------------------------------------------------------------------- the campaign is left alone
def test_a_forecast_never_changes_the_campaign_or_its_dice(campaign, capsys):
    before = (campaign.read_bytes(), campaign.stat().st_mtime_ns)
    rng_before = load_campaign(campaign).to_dict()["rng"]
    assert main(["forecast", str(campaign), "--runs", "3", "--turns", "2", "--quiet"]) == 0
    assert (campaign.read_bytes(), campaign.stat().st_mtime_ns) == before
    assert load_campaign(campaign).to_dict()["rng"] == rng_before
    assert sorted(p.name for p in campaign.parent.iterdir()) == ["march.yaml"]  # no history, no log


def test_a_faction_played_by_hand_is_played_by_the_default_agent(campaign, capsys):
    text = campaign.read_text(encoding="utf-8")
    first = text.index("agent: ")
    campaign.write_text(text[:first] + "agent: manual" + text[text.index("\n", first):],
                        encoding="utf-8")
    assert main(["forecast", str(campaign), "--runs", "2", "--turns", "1"]) == 0  # nobody asked
    assert "The Iron Legion, played by hand, is played by the heuristic agent" in capsys.readouterr().out
    assert run_forecast(campaign, runs=1, turns=1)["stand_ins"] == {"iron-legion": "heuristic"}


def test_each_future_has_the_dice_of_seed_and_run_not_the_campaigns(campaign):
    template = CampaignTemplate.load(campaign)
    own = template.data["rng"]
    job = ForecastJob(template, turns=1, seed=42)
    for run in (0, 1, 7):
        future = play_future(job, run)
        assert future["seed"] == seeded_dice(42, run)[0]  # SeedSequence([42, run])
    assert template.data["rng"] == own  # the template (the campaign as loaded) is not advanced
    seeds = [f["seed"] for f in run_forecast(campaign, runs=3, turns=1, seed=42)["futures"]]
    assert seeds == [seeded_dice(42, r)[0] for r in range(3)]


def test_byte_identical_for_any_number_of_workers(campaign):
    one = run_forecast(campaign, runs=4, turns=2, seed=9, workers=1)
    two = run_forecast(campaign, runs=4, turns=2, seed=9, workers=2)
    assert json.dumps(one) == json.dumps(two)
    assert forecast_html(one, "March") == forecast_html(two, "March")
    assert forecast_text(one) == forecast_text(two)
    other = run_forecast(campaign, runs=4, turns=2, seed=10, workers=1)
    assert [f["seed"] for f in other["futures"]] != [f["seed"] for f in one["futures"]]


# --------------------------------------------------------------------- validation against batch
def test_forecast_and_batch_sharing_seeds_agree_run_for_run(campaign):
    # future r of a forecast is run r of a batch with the same campaign, seed and turns
    runs, turns, seed = 6, 3, 5
    forecast = run_forecast(campaign, runs=runs, turns=turns, seed=seed)
    batch = run_batch(str(campaign), runs=runs, turns=turns, seed=seed)
    assert [f["seed"] for f in forecast["futures"]] == [r["seed"] for r in batch["per_run"]]
    for fid, f in forecast["factions"].items():
        b = batch["factions"][fid]
        assert f["alive_now"]
        assert f["collapse"]["count"] == runs - round(b["survival_rate"] * runs)
        assert f["goal"]["count"] == round(b["goals_met_rate"] * runs)
        for key in ("hp", "treasure"):  # both average the same numbers after every turn
            assert f["fan"][key]["mean"] == pytest.approx(b["curves"][key], abs=1e-6)


def test_forecast_and_a_longer_batch_with_other_seeds_agree_within_their_intervals(campaign):
    # independent futures: each share of the forecast and of the batch (its own Wilson interval)
    # must be statistically consistent, i.e. their 95% intervals overlap
    runs, turns = 10, 6  # long enough for goals to be met and factions to fall in some futures
    forecast = run_forecast(campaign, runs=runs, turns=turns, seed=1)
    batch = run_batch(str(campaign), runs=2 * runs, turns=turns, seed=2)
    for fid, f in forecast["factions"].items():
        b = batch["factions"][fid]
        for share, batch_rate in ((f["goal"], b["goals_met_rate"]),
                                  (f["collapse"], 1 - b["survival_rate"])):
            other = proportion(round(batch_rate * 2 * runs), 2 * runs)
            assert share["lo"] <= other["hi"] and other["lo"] <= share["hi"], (fid, share, other)


# --------------------------------------------------------------------- what is counted
def _future(run, alive, goals, hq, held, headlines, hp):
    return {"run": run, "seed": run, "turns": 1, "alive": alive, "goals": goals,
            "headquarters": hq, "holdings": held, "headlines": headlines,
            "series": [{"iron-legion": {"hp": 32, "treasure": 10, "assets": 8}},
                       {"iron-legion": {"hp": hp, "treasure": 10, "assets": 8}}]}


def test_summary_counts_every_question_with_wilson_intervals():
    start = load_campaign(default_campaign_path())
    now = holdings(start)
    assert "base@tarsis" in now["iron-legion"] and "base@ostara" not in now["silver-guild"]
    alive = {fid: True for fid in start.factions}
    hq = {fid: True for fid in start.factions}
    ostara = {**now["silver-guild"], "base@ostara": "Base at Ostara"}
    no_tarsis = {k: v for k, v in now["iron-legion"].items() if k != "base@tarsis"}
    futures = [
        _future(0, {**alive, "veiled-hand": False}, {"iron-legion": 1, "silver-guild": 0,
                "veiled-hand": 0, "ashen-flame": 0}, {**hq, "veiled-hand": False},
                {**now, "silver-guild": ostara}, {"a": "A happens", "b": "B happens"}, 20),
        _future(1, alive, {"iron-legion": 2, "silver-guild": 0, "veiled-hand": 0, "ashen-flame": 0},
                hq, {**now, "iron-legion": no_tarsis}, {"a": "A happens"}, 30),
        _future(2, alive, {"iron-legion": 0, "silver-guild": 0, "veiled-hand": 0, "ashen-flame": 0},
                hq, {**now, "silver-guild": ostara}, {"a": "A happens"}, 10),
        _future(3, alive, {"iron-legion": 0, "silver-guild": 0, "veiled-hand": 0, "ashen-flame": 0},
                hq, now, {}, 40),
    ]
    s = summarize(start, futures[::-1], turns=1, seed=0)  # futures in any order
    vh, il, sg = (s["factions"][f] for f in ("veiled-hand", "iron-legion", "silver-guild"))
    assert vh["collapse"] == proportion(1, 4) and vh["headquarters_lost"] == proportion(1, 4)
    assert il["collapse"] == proportion(0, 4) and il["goal"] == proportion(2, 4)
    assert sg["goal"] == proportion(0, 4)
    assert [(h["key"], h["change"], h["count"]) for h in sg["holdings"]] == [("base@ostara", "gained", 2)]
    assert [(h["key"], h["change"], h["count"]) for h in il["holdings"]] == [("base@tarsis", "lost", 1)]
    assert [(h["text"], h["count"]) for h in s["headlines"]] == [("A happens", 3), ("B happens", 1)]
    assert s["headlines"][0]["lo"] == proportion(3, 4)["lo"]
    fan = il["fan"]["hp"]  # turn 1: 20, 30, 10, 40 -> 10% 10, median 20, 90% 40 (values held)
    assert (fan["p10"], fan["median"], fan["p90"], fan["mean"]) == (
        [32, 10], [32, 20], [32, 40], [32, 25])
    assert [f["run"] for f in s["futures"]] == [0, 1, 2, 3]


def test_wwn_headlines_name_who_did_what_where():
    n = Names({"iron-legion": "The Iron Legion", "silver-guild": "The Silver Guild"},
              {"coldvale": "Coldvale"}, {"base-of-influence": "Base of Influence"}, "wwn")
    destroyed = Event(3, "destroyed", "iron-legion", {"asset": "base-of-influence#12",
                      "owner": "silver-guild", "location": "coldvale", "cause": "attack"})
    h = headline(destroyed, n)
    assert h.text == "The Iron Legion destroys The Silver Guild's Base of Influence at Coldvale"
    assert h.key == "destroyed|iron-legion|silver-guild|base-of-influence|coldvale"
    # the same blow in another future, to a Base with another number: the same headline
    other = Event(5, "destroyed", "iron-legion", {**destroyed.data, "asset": "base-of-influence#30"})
    assert headline(other, n).key == h.key
    exposure = Event(2, "destroyed", None, {**destroyed.data, "cause": "exposure"})
    assert headline(exposure, n).text == "The Silver Guild's Base of Influence at Coldvale is destroyed"
    collapse = Event(4, "collapse", "silver-guild", {"by": "iron-legion", "assets_lost": []})
    assert headline(collapse, n).text == "The Iron Legion brings down The Silver Guild"
    assert headline(Event(4, "move", "iron-legion", {}), n) is None


def test_wwn_goal_headlines_name_the_goal_as_the_chronicle_does():
    """A goal achieved is named as the chronicle names it: the book's "Wealth of Kingdoms" (it
    read "Wealth Of Kingdoms", its id title-cased), and a campaign's own goal by its name."""
    n = Names({"iron-legion": "The Iron Legion"}, ruleset="wwn")
    n.goals = {"hold-the-pass": "Hold the Pass at Dunmere"}
    for goal, text in (("wealth-of-kingdoms", "Wealth of Kingdoms"),
                       ("root-out-the-enemy", "Root Out the Enemy"),
                       ("hold-the-pass", "Hold the Pass at Dunmere")):
        done = Event(3, "goal-complete", "iron-legion", {"goal": goal, "xp": 2})
        assert headline(done, n).text == f"The Iron Legion achieves its goal {text}"


def test_houses_headlines_name_the_holding_seized():
    from factionsim.rules.houses.forecast import headline as houses_headline

    n = Names({"aldren": "House Aldren", "morrow": "House Morrow"})
    seized = Event(2, "seized", "aldren", {"asset": "morrow-counting-house#9", "previous": "morrow",
                                           "name": "Morrow Counting House", "die": 8, "full": 8,
                                           "effect": 10})
    h = houses_headline(seized, n)
    assert (h.key, h.text) == ("seized|aldren|morrow|morrow-counting-house#9",
                               "House Aldren seizes Morrow Counting House from House Morrow")
    assert houses_headline(Event(2, "advance", "aldren", {}), n) is None


# --------------------------------------------------------------------- outputs
def test_forecast_command_prints_tables_and_writes_a_page(campaign, tmp_path, capsys):
    page = tmp_path / "out" / "forecast.html"
    page.parent.mkdir()
    assert main(["forecast", str(campaign), "--runs", "3", "--turns", "2", "--html", str(page),
                 "--headlines", "3"]) == 0
    out = capsys.readouterr().out
    for text in ("3 futures of turns 1-2", "completes a goal", "loses its HQ", "collapses",
                 "MOST LIKELY EVENTS (3 of", "FACTION HP: MEDIAN (10%-90%)", "The Iron Legion",
                 "wrote"):
        assert text in out
    html = page.read_text(encoding="utf-8")
    assert html.count('<svg class="chart"') == 3  # HP, Treasure, assets: a fan chart each
    assert html.count("<polygon") == 3 * 4  # a 10-90% band per faction and chart
    assert "http" not in html.replace("http-equiv", "") and "<script" not in html  # self-contained
    assert main(["forecast", str(campaign), "--runs", "2", "--turns", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runs"] == 2 and data["turns"] == 1 and set(data["factions"]) >= {"iron-legion"}
    with pytest.raises(SystemExit) as usage:  # a usage error, as for every command
        main(["forecast", str(campaign), "--runs", "0"])
    assert usage.value.code == 2 and "--runs" in capsys.readouterr().err


def test_forecast_of_other_rulesets():
    # houses: its Forecasting counts Holdings and seizures; no goals, no headquarters
    f = run_forecast(default_campaign_path("houses"), runs=3, turns=2)
    assert f["ruleset"] == "houses"
    for house in f["factions"].values():
        assert house["goal"] is None and house["headquarters_lost"] is None
        assert all(h["key"].startswith("holding@") for h in house["holdings"])
        assert set(house["fan"]) == {k for k, _ in f["charts"]} and f["charts"]
    assert "completes a goal" not in forecast_text(f) and "loses its HQ" not in forecast_text(f)
    assert forecast_html(f, "Banteave").count('<svg class="chart"') == len(f["charts"])
    # engagements has no Forecasting: the contract alone, headlines its report's key events
    g = run_forecast(default_campaign_path("engagements"), runs=2, turns=1)
    assert all(f["holdings"] == [] for f in g["factions"].values())
    assert g["headlines"] and all(h["key"].count("|") == 1 for h in g["headlines"])
