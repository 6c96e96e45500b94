"""Rumours worth reading aloud (issue 23): in-world sentences by place, a headline per turn,
varied wording from a seeded phrase grammar, no sentence twice in a turn, no numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from wwn_helpers import generated_and_played

from factionsim.chronicle.record import CampaignRecord
from factionsim.core.rumours import _SLOT, Fact, Grammar, Teller, digest, load_grammar

WWN = load_grammar("factionsim.rules.wwn")
#: the slots the WWN facts fill (factionsim/rules/wwn/rumours.py)
FACT_SLOTS = ("attacker", "attacker_faction", "defender", "defender_faction", "where", "asset",
              "owner", "kind", "by", "who", "from", "source", "target", "deed", "goal", "count",
              "times", "outcome", "troops")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_and_played(tmp_path_factory.mktemp("rumours") / "c.yaml", 12,
                                "--seed", "11", "--factions", "6")


def test_every_template_of_the_wwn_grammar_can_be_told() -> None:
    """Each template's slots are filled by its fact or drawn from the grammar's words."""
    slots = {s: f"<{s}>" for s in FACT_SLOTS}
    for key, templates in WWN.facts.items():
        for template in templates:
            for slot in _SLOT.findall(template):
                assert slot in slots or slot in WWN.words, (key, template, slot)
        teller = Teller(WWN, seed=1, turn=1)
        for _ in templates:
            assert "{" not in teller.tell(Fact(key, "x", "Here", slots))
    assert set(WWN.weights) <= {k.removesuffix("-many") for k in WWN.facts}


def test_a_teller_never_says_a_sentence_twice_in_a_turn_while_it_has_words_left() -> None:
    g = Grammar(facts={"burn": ("{place} {burned}", "{place} was lost")},
                words={"burned": ("burned", "went up in flames", "was razed")})
    teller = Teller(g, seed=3, turn=2)
    said = [teller.tell(Fact("burn", "burn", "x", {"place": "the granary"})) for _ in range(4)]
    assert len(set(said)) == 4


def test_the_heaviest_fact_is_the_headline_and_is_told_once() -> None:
    g = Grammar(facts={"a": ("{who} did a",), "b": ("{who} did b",)}, weights={"a": 1, "b": 5})
    d = digest([Fact("a", "a", "X", {"who": "P"}), Fact("b", "b", "Y", {"who": "Q"})], g, 1, 1)
    assert d.headline == "Y: Q did b."
    assert d.places == [("X", ["P did a"])]


def test_several_assets_of_one_kind_mended_at_one_place_are_told_once() -> None:
    """Three of a faction's Trade Companies repaired at one place are one rumour with their count
    (the WWN grammar's ``repair-many``), not three sentences that soon repeat each other."""
    repaired = Fact("repair", "repair", "Hollowfall", {
        "asset": "the Dominion's Trade Company", "owner": "the Dominion", "kind": "Trade Company"})
    d = digest([repaired] * 3, WWN, seed=1, turn=1)
    told = [d.headline.split(": ", 1)[1]] if d.headline else []
    told += [s for _, ss in d.places for s in ss]
    assert len(told) == 1 and "three companies" in told[0]


def test_players_rumours_are_in_world_varied_and_numberless(played: Path) -> None:
    """Per turn: a headline, sentences by place, none repeated, no digits (names, never
    numbers: no Treasure, HP or dice), no ids."""
    rec = CampaignRecord(played, "players")
    told = 0
    for t in rec.played_turns():
        story = rec.story(t)
        assert story is not None
        sentences = [s for _, ss in story.places for s in ss]
        if story.headline:
            sentences.append(story.headline.split(": ", 1)[1].rstrip("."))
        assert len(sentences) == len({s.casefold() for s in sentences}), t
        for s in sentences:
            assert not re.search(r"\d|#|\{|_", s), s
        told += len(sentences)
    assert told >= 20


def test_rumours_are_the_same_for_the_same_campaign(played: Path) -> None:
    """Seeded by the campaign's seed and the turn: the chronicle reads the same every time."""
    def text() -> list[object]:
        rec = CampaignRecord(played, "players")
        return [(s.headline, s.places) for t in rec.played_turns() if (s := rec.story(t))]

    first = text()
    assert first == text()
    chronicle = played.with_name("c.players.md").read_text(encoding="utf-8")
    headline = next(h for h, _ in first if h)
    assert f"**{headline}**" in chronicle.replace("\\", "")


def test_both_chronicles_have_a_headline_for_every_turn_with_news(played: Path) -> None:
    """The GM's headline may tell what the players' may not (a goal achieved in secret)."""
    gm, players = CampaignRecord(played, "gm"), CampaignRecord(played, "players")
    for t in players.played_turns():
        p, g = players.story(t), gm.story(t)
        assert p is not None and g is not None
        assert bool(p.headline) == bool(p.places or p.facts), t
        assert g.headline or not g.facts, t
    text = played.with_name("c.chronicle.md").read_text(encoding="utf-8")
    assert text.count("\n**") >= 6  # headlines in the GM's chronicle too


def test_an_asset_carried_by_an_ability_is_told_and_seen_like_a_move() -> None:
    """Underground Roads, Smuggling Fleet...: the asset ends up elsewhere, in sight; the GM's
    chronicle tells it in prose (it printed "Transport (asset: ...; from: ...)")."""
    from factionsim.chronicle.story import describe
    from factionsim.chronicle.views import visible_events
    from factionsim.core.game import Event
    from factionsim.core.names import Names
    from factionsim.rules.wwn.rumours import facts

    n = Names({"g": "The Silver Guild"}, {"a": "Tarsis", "b": "Vell"}, {"healers": "Healers"},
              "wwn")
    e = Event(3, "transport", "g", {"asset": "healers#2", "from": "a", "to": "b"})
    assert describe(e, n) == "Its Healers is carried from Tarsis to Vell."
    assert [x.to_dict() for x in visible_events("wwn", [e], "players", {"factions": []})] == \
        [e.to_dict()]
    [fact] = facts([e], None, n)
    assert (fact.key, fact.place, fact.slots["from"]) == ("move", "Vell", "Tarsis")
