"""Behaviour metrics for every ruleset in ``factionsim batch`` (issue 24, item 1: "Works for every
ruleset (their own counts where WWN's don't apply)"): each kind of action's share, the kinds never
chosen, the stall rate, and how the runs ended."""

from __future__ import annotations

import pytest

from factionsim.batch import run_batch
from factionsim.core.behaviour import Tally, summarise
from factionsim.core.ending import how_it_ended
from factionsim.core.game import Event
from factionsim.rules.engagements import behaviour as eng_behaviour
from factionsim.rulesets import get_ruleset

CAMPAIGNS = {"wwn": "configs/shattered_march.yaml",
             "houses": "configs/banteave_succession.yaml",
             "engagements": "configs/ashen_thrones.yaml",
             "conflict": "configs/conflict_bridge.yaml"}


def test_every_ruleset_declares_the_actions_it_counts():
    for ruleset in CAMPAIGNS:
        assert get_ruleset(ruleset).behaviour.actions, ruleset


def test_engagement_choices_are_counted_as_actions():
    events = [Event(1, "faction-turn", "a"), Event(1, "income", "a"), Event(1, "build", "a"),
              Event(1, "convert", "a"), Event(1, "engage", "a"), Event(1, "invite", "a"),
              Event(1, "decline", "b"), Event(1, "faction-turn", "b"), Event(1, "income", "b"),
              Event(1, "raise", "b"), Event(1, "turn-end", None)]
    tallies = eng_behaviour.count(events, {}, {}, first_turn=1)
    m = summarise(list(tallies.values()), eng_behaviour.BEHAVIOUR)
    assert m["action_share"]["build"] == pytest.approx(1 / 6, abs=1e-6)
    assert m["action_share"]["decline"] == pytest.approx(1 / 6, abs=1e-6)
    assert set(m["unused_actions"]) == {"heal", "commission", "join", "fanatical"}
    assert m["stall_rate"] == 0.0


def test_unused_actions_are_the_declared_kinds_never_counted():
    spec = get_ruleset("houses").behaviour
    t = Tally(turns=[1, 2], counts={"action_seize": 1, "action_pass": 1, "stalls": 1})
    m = summarise([t], spec)
    assert m["action_share"]["seize"] == 0.5 and m["action_share"]["create-complication"] == 0.0
    assert "create-complication" in m["unused_actions"] and "seize" not in m["unused_actions"]
    assert list(m["action_share"])[:2] == ["pass", "seize"]  # most used first, then by name


@pytest.mark.parametrize("ruleset", sorted(CAMPAIGNS))
def test_batch_reports_action_mix_stalls_and_endings(ruleset, tmp_path):
    s = run_batch(CAMPAIGNS[ruleset], runs=2, turns=3, out=tmp_path)
    b = s["behaviour"]["all"]
    actions = get_ruleset(ruleset).behaviour.actions
    assert set(actions) <= set(b["action_share"])
    assert sum(b["action_share"].values()) == pytest.approx(1.0, abs=1e-4)
    assert b["unused_actions"] == [k for k in actions if b["action_share"][k] == 0]
    assert 0.0 <= b["stall_rate"] <= 1.0
    assert sum(s["endings"].values()) == pytest.approx(1.0)
    assert [r["ending"] for r in s["per_run"]] and all(r["ending"] in s["endings"]
                                                       for r in s["per_run"])
    page = (tmp_path / "summary.html").read_text(encoding="utf-8")
    assert "Runs end:" in page and "never chosen:" in page


def test_how_it_ended_reads_the_closing_event_else_the_state():
    class F:
        def __init__(self, alive):
            self.alive = alive

    class S:
        factions = {"a": F(True), "b": F(False)}

    assert how_it_ended([Event(3, "conflict-end", "a", {"reason": "fled"})], S()) == "fled"
    assert how_it_ended([Event(3, "game-end", None, {"reason": "cap"})], S()) == "cap"
    assert how_it_ended([], S()) == "last-standing"
    S.factions = {"a": F(True), "b": F(True)}
    assert how_it_ended([], S()) == "turn-limit"


def test_conflict_round_cut_short_by_the_end_is_no_stall():
    """A side whose turn never came because the conflict ended within the round did not stall;
    a side that had a full round and did nothing did."""
    from factionsim.rules.conflict import behaviour as conflict_behaviour

    order = {"order": ["heroes", "legion"]}
    events = [Event(1, "round", None, order),
              Event(1, "attack", "heroes", {"mode": "harm", "success": True}),
              Event(2, "round", None, order),  # round 1: the legion did nothing
              Event(2, "attack", "heroes", {"mode": "harm", "success": True}),
              Event(2, "fallen", "legion"),
              Event(2, "conflict-end", "heroes", {"reason": "fell"})]
    tallies = conflict_behaviour.count(events, {}, {}, first_turn=1)
    assert tallies["legion"].counts.get("stalls") == 1
    assert tallies["legion"].turns == [1]
    assert tallies["heroes"].turns == [1, 2] and not tallies["heroes"].counts.get("stalls")
