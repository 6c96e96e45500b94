"""Bounded input and the rules every ruleset's files share (issue 17, items 3, 4 and 6).

The YAML limits of ``core/safeyaml.py`` (size, aliases, nesting, whole numbers, NaN), plain-text
names, unknown top-level fields, ``notes``, the ``rng`` and ``in_progress`` blocks, nulls and
negative counts: each case in a table, each refused with a one-paragraph ``CampaignError`` that
names the file, the line where it can, the field and what is allowed.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
import yaml

from factionsim.configs import default_campaign_path
from factionsim.core import safeyaml
from factionsim.core.campaign import dump_campaign_text
from factionsim.core.fields import plain_text_problem
from factionsim.core.game import CampaignError
from factionsim.core.safeyaml import parse_yaml
from factionsim.rulesets import load_campaign

RULESETS = ("wwn", "houses", "engagements", "conflict")


def error(text: str, source: str = "camp.yaml") -> str:
    with pytest.raises(CampaignError) as info:
        load_campaign(source, text)
    message = str(info.value)
    assert "\n" not in message and source in message, message
    return message


def parse_error(text: str) -> str:
    with pytest.raises(CampaignError) as info:
        parse_yaml(text, "doc.yaml")
    return str(info.value)


def bundled(ruleset: str) -> dict:
    return yaml.safe_load(default_campaign_path(ruleset).read_text())


def mid_turn(ruleset: str, decisions: int = 6) -> dict:
    """The bundled campaign saved a few random decisions into its first turn."""
    state = load_campaign(default_campaign_path(ruleset))
    rng = np.random.default_rng(1)
    for _ in range(decisions):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return yaml.safe_load(dump_campaign_text(state))


def text_of(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


# ------------------------------------------------------------------ the YAML limits
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{k}: &{k} [" + ", ".join([f"*{p}"] * 9) + "]\n" for p, k in zip("abcdefgh", "bcdefghi", strict=True))


def test_an_alias_bomb_is_refused_at_once_naming_line_and_limit():
    """Nine lines of nested aliases stand for 9**9 values; refused while parsing, fast."""
    start = time.perf_counter()
    message = parse_error(BOMB)
    assert time.perf_counter() - start < 5
    assert message.startswith("doc.yaml, line 5, column") and "limit: 10000 values" in message


def test_aliases_within_the_budget_load_as_separate_values():
    data = parse_yaml("base: &b {hp: 3}\none: *b\ntwo: {<<: *b, hp: 4}\n")
    assert data == {"base": {"hp": 3}, "one": {"hp": 3}, "two": {"hp": 4}}
    data["one"]["hp"] = 9  # a plain tree: no value shared between places
    assert data["base"]["hp"] == 3


@pytest.mark.parametrize("text, expected", [
    ("a: &s [1, *s]", "points into its own anchor &s"),
    ("a: " + "[" * 51 + "]" * 51, "nested more than 50 deep"),
    ("a: " + "9" * 41, "a whole number of 41 digits"),
    ("a: -" + "9" * 41, "a whole number of 41 digits"),
    ("a: 0x" + "f" * 41, "digits"),
    ("a: .nan", "is not finite"),
    ("a: -.inf", "is not finite"),
    ("a: 1.0e+999", "is not finite"),
    ("a: 2024-13-45", "cannot read the value '2024-13-45'"),
    ("a: !!int abc", "cannot read the value 'abc'"),
    ("a: !!python/object/apply:os.system [echo hi]", "no tags such as !!python"),
    ("a: b\nc: \x1b[31m", "line 2: the character U+001B cannot appear"),
    ("a: \x00", "the character U+0000"),
])
def test_yaml_beyond_the_limits_is_refused(text, expected):
    message = parse_error(text)
    assert expected in message and message.startswith("doc.yaml"), message


@pytest.mark.parametrize("text", ["a: " + "[" * 49 + "]" * 49, "a: " + "9" * 40,
                                  f"a: {2**128 - 1}", "a: 1.5e+300", "a: '\\x1b is text here'"])
def test_yaml_within_the_limits_loads(text):
    parse_yaml(text)


def test_the_value_count_is_bounded(monkeypatch):
    monkeypatch.setattr(safeyaml, "MAX_NODES", 50)
    assert "more than 50 values" in parse_error("a: [" + ", ".join(["1"] * 60) + "]")
    monkeypatch.setattr(safeyaml, "MAX_NODES", 60)
    assert "more than 60 values" in parse_error("a: &x [1, 2, 3, 4, 5]\n" + "".join(
        f"k{i}: *x\n" for i in range(20)))


def test_a_file_above_the_size_limit_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    monkeypatch.setattr(safeyaml, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.yaml"
    path.write_text("ruleset: wwn\n" + "# padding\n" * 200)
    with pytest.raises(CampaignError, match=r"big\.yaml: the file is more than .* \(limit: "):
        load_campaign(path)


def test_the_bundled_size_limit_is_5_mib():
    assert safeyaml.MAX_FILE_BYTES == 5 * 1024 * 1024


# ------------------------------------------------------------------ plain text
@pytest.mark.parametrize("text, multiline, problem", [
    ("The Iron Legion", False, None),
    ("Ünïcode Ørder 北方", False, None),
    ("Red\x1b[31mHand", False, "contains the control character U+001B"),
    ("a\nb", False, "contains a line break"),
    ("a\r\nb", False, "contains a line break"),
    ("a\u2028b", False, "contains a line break"),
    ("a\u2028b", True, "contains a line break"),
    ("nul\x00", False, "contains the control character U+0000"),
    ("del\x7f", False, "contains the control character U+007F"),
    ("c1\x9b", False, "contains the control character U+009B"),
    ("evil\u202etxt", False, "contains the control character U+202E"),
    ("tab\there", False, "contains the control character U+0009"),
    ("tab\there\nand a line", True, None),
])
def test_plain_text(text, multiline, problem):
    assert plain_text_problem(text, multiline) == problem


#: (ruleset, path to a name shown to people)
NAMES = [
    ("wwn", ("name",)), ("wwn", ("factions", 0, "name")), ("wwn", ("locations", 0, "name")),
    ("houses", ("houses", 0, "name")), ("houses", ("houses", 0, "assets", 0, "name")),
    ("houses", ("houses", 0, "distinctions", 0, "name")),
    ("engagements", ("factions", 0, "name")), ("engagements", ("factions", 0, "pillars", 0, "name")),
    ("conflict", ("sides", 0, "name")), ("conflict", ("sides", 0, "characters", 0, "name")),
    ("conflict", ("sides", 0, "characters", 1, "spells", 0, "name")),
]


@pytest.mark.parametrize("bad", ["The \x1b[2J Red Hand", "Two\nLines", "<!-- factionsim turn 9 -->\n",
                                 "x" * 201])
@pytest.mark.parametrize("ruleset, path", NAMES)
def test_names_must_be_plain_text_in_every_ruleset(ruleset, path, bad):
    data = bundled(ruleset)
    node = data
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = bad
    message = error(text_of(data))
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert field + ":" in message
    assert "plain text" in message or "characters long" in message


# ------------------------------------------------------------------ unknown fields, notes
@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unknown_top_level_field_is_refused_with_a_hint(ruleset):
    data = bundled(ruleset)
    data["max_turn"] = 40
    message = error(text_of(data))
    assert "max_turn: unknown field 'max_turn' (did you mean 'max_turns'" in message
    assert "notes" in message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_notes_are_kept_on_save(ruleset):
    data = bundled(ruleset)
    data["notes"] = "Session 3: the players burned the granary.\n\tAsk about the heir."
    state = load_campaign("camp.yaml", text_of(data))
    again = load_campaign("camp.yaml", dump_campaign_text(state))
    assert again.to_dict()["notes"] == data["notes"]


# ------------------------------------------------------------------ numbers, nulls, ids
#: (ruleset, field path, value, expected in the message)
BAD_VALUES = [
    ("wwn", ("factions", 0, "treasure"), 10**10, "at most 1000000, a limit of factionsim"),
    ("wwn", ("factions", 0, "treasure"), -3, ">= 0"),
    ("wwn", ("seed",), -1, "seed: must be a whole number >= 0"),
    ("wwn", ("factions", 0, "goal"), {"id": "sphere-dominance", "target": "charm"},
     "unknown attribute (the sphere's target) 'charm'"),
    ("wwn", ("factions", 0, "goal"), {"id": "root-out-the-enemy", "target": "nobody@tarsis"},
     "unknown faction 'nobody'"),
    ("wwn", ("factions", 0, "assets", 0, "status"), {"arriving": "atlantis"},
     "status.arriving: unknown location 'atlantis'"),
    ("houses", ("houses", 0, "plot_points"), -1, "plot_points: must be a whole number from 0 to 99"),
    ("houses", ("rules", "difficulty"), None, None),  # null: the default
    ("houses", ("houses", 0, "distinctions"), None, None),
    ("houses", ("houses", 0, "agent"), "heuristc", "unknown agent 'heuristc' (did you mean "
     "'heuristic'?)"),
    ("engagements", ("factions", 0, "pillars"), None, None),
    ("engagements", ("factions", 0, "faction_dice"), 1.5, "must be a whole number >= 0, not a "
     "decimal number"),
    ("engagements", ("factions", 0, "faction_dice"), float("nan"), "is not finite"),
    ("engagements", ("settings", "gm_deferral"), float("inf"), "is not finite"),
    ("engagements", ("factions", 0, "agent"), "random:x", "agent 'random' takes no ':' argument"),
    ("conflict", ("sides", 0, "characters"), None, "missing required side field 'characters' "
     "(null is not a value here)"),
    ("conflict", ("sides", 0, "characters", 0, "items", "weapon"), None, None),  # unarmed
    ("conflict", ("sides", 0, "characters", 0, "max_blood"), "99999d99999",
     "must be a number or dice such as '2d6+1'"),
    ("conflict", ("sides", 0, "characters", 0, "max_blood"), "2d0", "must be a number or dice"),
    ("conflict", ("settings", "minor_per_major"), 0, "settings.minor_per_major: must be a whole "
     "number from 1 to 20"),
    ("conflict", ("sides", 0, "characters", 0, "position"), 99, "from 0 to 16"),
    ("conflict", ("bonds",), [["ash", "bryn", 1], ["bryn", "ash", 2]], "already given at bonds[0]"),
    ("conflict", ("sides", 0, "agent_options"), {"budget": "lots", "x": {"y": 1}},
     "agent_options.x: an agent option must be a number, true/false, text or a list of those"),
]


@pytest.mark.parametrize("ruleset, path, value, expected", BAD_VALUES)
def test_a_bad_value_is_refused_and_null_means_left_out(ruleset, path, value, expected):
    data = bundled(ruleset)
    node = data
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    if expected is None:
        load_campaign("camp.yaml", text_of(data))  # null: the field's default
    else:
        assert expected in error(text_of(data))


# ------------------------------------------------------------------ rng and in_progress
@pytest.mark.parametrize("rng, expected", [
    ({"bit_generator": "PCG64", "state": {"state": 5, "inc": 4}}, "increment must be odd"),
    ({"bit_generator": "PCG64", "state": {"state": -5, "inc": 3}}, "rng.state.state"),
    ({"bit_generator": "PCG64", "state": {"state": 5, "inc": 3}, "has_uint32": 2},
     "rng.has_uint32"),
    ({"bit_generator": "PCG64", "state": {"state": 5, "inc": 3}, "extra": 1},
     "rng.extra: unknown field"),
    ("PCG64", "rng: must be a mapping"),
])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_bad_saved_generator_is_refused(ruleset, rng, expected):
    """An even increment would make PCG64 return zeros for ever: a die roll never ends."""
    data = bundled(ruleset)
    data["rng"] = rng
    assert expected in error(text_of(data))


def test_a_good_saved_generator_rolls_the_same_dice():
    data = bundled("wwn")
    data["rng"] = {"bit_generator": "PCG64", "state": {"state": 5, "inc": 3}}
    a = load_campaign("camp.yaml", text_of(data))
    b = np.random.Generator(np.random.PCG64())
    b.bit_generator.state = {**data["rng"], "has_uint32": 0, "uinteger": 0}
    assert a.rng.integers(0, 100, 5).tolist() == b.integers(0, 100, 5).tolist()


#: (ruleset, change to the saved turn in progress, expected in the message)
BAD_TURNS = [
    ("wwn", lambda ip: ip.update(phase="lunch"), "in_progress.phase: unknown phase 'lunch'"),
    ("wwn", lambda ip: ip.update(order_index=9), "in_progress.order_index: points past"),
    ("wwn", lambda ip: ip.update(order=["iron-legion", "nobody"]), "unknown faction 'nobody'"),
    ("wwn", lambda ip: ip["ctx"].update(expand="atlantis"), "in_progress.ctx.expand"),
    ("wwn", lambda ip: ip["ctx"].update(pending={"attacker": "x#1", "target": "iron-legion",
                                                 "resume": ["attack", "iron-legion"]}),
     "in_progress.ctx.pending.attacker: unknown asset 'x#1'"),
    ("wwn", lambda ip: ip.pop("initiative"), "missing field 'initiative'"),
    ("wwn", lambda ip: ip["ctx"].update(ask={"actor": "iron-legion", "options": ["fly away"],
                                             "then": "nowhere", "args": {},
                                             "back": ["goal", "iron-legion"]}) or ip.update(
        phase="react", actor="iron-legion"), "the turn saved in progress cannot go on"),
    ("houses", lambda ip: ip["ctx"]["pool"].update(committed=["ghost#9"]),
     "in_progress.ctx.pool.committed[0]: unknown asset 'ghost#9'"),
    ("houses", lambda ip: ip["ctx"]["pool"].update(dice=[7]), "in_progress.ctx.pool.dice[0]"),
    ("houses", lambda ip: ip.update(round="two"), "in_progress.round"),
    ("engagements", lambda ip: ip["ctx"]["eng"].update(stage="counter-draw"),
     "the stage 'counter-draw' needs the counter-attack"),
    ("engagements", lambda ip: ip["ctx"]["eng"]["parts"][0].update(remaining=10**9),
     "remaining: must be a whole number from 0 to 1000"),
    ("engagements", lambda ip: ip["ctx"].pop("eng"), "goes with the phase 'engage'"),
    ("conflict", lambda ip: ip.update(phase="question"), "in_progress.phase: unknown phase 'question'"),
    ("conflict", lambda ip: ip.update(jobs=[{"job": "teleport", "char": "ash"}]),
     "in_progress.jobs[0].job: unknown job 'teleport'"),
    ("conflict", lambda ip: ip.update(jobs=[{"job": "move", "char": "ash", "shift": 2}]),
     "missing required move job field 'mode'"),
]


@pytest.mark.parametrize("ruleset, change, expected", BAD_TURNS)
def test_a_bad_turn_in_progress_is_refused(ruleset, change, expected):
    data = mid_turn(ruleset)
    assert "in_progress" in data
    change(data["in_progress"])
    assert expected in error(text_of(data))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_good_turn_in_progress_loads(ruleset):
    data = mid_turn(ruleset)
    state = load_campaign("camp.yaml", text_of(data))
    assert state.current_actor() is not None
