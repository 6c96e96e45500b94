"""In-game dates (the campaign's optional ``calendar:`` block): arithmetic, checks, and where
the dates appear (chronicle headings, the HTML report, the Foundry log)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from foundry_helpers import export_to, run

from factionsim.configs import default_campaign_path
from factionsim.core.calendar import parse_calendar, turn_title
from factionsim.core.game import CampaignError
from factionsim.rulesets import get_ruleset

SEASONS = ["Thaw", "Sowing", {"name": "Highsun", "days": 35}, "Reaping", "Frost",
           {"name": "Deepwinter", "days": 28}]


def label(block: dict[str, Any], turn: int) -> str:
    return parse_calendar(block).label(turn)


# (calendar, turn, date): turn n begins n - 1 turn lengths after the start
DATES = [
    ({"start": {"year": 1203, "month": "Thaw", "day": 14}, "months": SEASONS}, 0, "14 Thaw 1203"),
    ({"start": {"year": 1203, "month": "Thaw", "day": 14}, "months": SEASONS}, 1, "14 Thaw 1203"),
    ({"start": {"year": 1203, "month": "Thaw", "day": 14}, "months": SEASONS}, 2, "14 Sowing 1203"),
    ({"start": {"year": 1203, "month": "Frost"}, "months": SEASONS}, 3, "1 Thaw 1204"),
    ({"start": {"year": 1203, "month": 6}, "months": SEASONS, "turn_length": "2 months"}, 2,
     "1 Sowing 1204"),
    # a long month's last day, cut to the length of shorter months, never drifting
    ({"start": {"year": 5, "month": "Highsun", "day": 35}, "months": SEASONS}, 2, "30 Reaping 5"),
    ({"start": {"year": 5, "month": "Highsun", "day": 35}, "months": SEASONS}, 4, "28 Deepwinter 5"),
    ({"start": {"year": 5, "month": "Highsun", "day": 35}, "months": SEASONS}, 7, "35 Highsun 6"),
    ({"start": {"year": 1}, "turn_length": "1 week"}, 5, "29 January 1"),
    ({"start": {"year": 1}, "turn_length": "1 week"}, 6, "5 February 1"),
    ({"start": {"year": 1}, "turn_length": "2 weeks", "days_per_week": 10}, 3, "10 February 1"),
    ({"start": {"year": 1, "month": "December", "day": 30}, "turn_length": "3 days"}, 2,
     "2 January 2"),
    ({"start": {"year": 1203, "month": "Thaw"}, "months": SEASONS, "turn_length": "10 days"}, 4,
     "1 Sowing 1203"),
    ({"start": {"year": 2, "month": "March", "day": 31}, "turn_length": "1 year"}, 3,
     "31 March 4"),
    ({"start": {"year": 1, "month": "January", "day": 31}}, 2, "28 February 1"),  # no leap years
    ({"start": {"year": -3}, "turn_length": "1 year"}, 6, "1 January 2"),
]


@pytest.mark.parametrize(("block", "turn", "date"), DATES)
def test_dates_of_turns(block: dict[str, Any], turn: int, date: str) -> None:
    assert label(block, turn) == date


@pytest.mark.parametrize(("day", "ordinal"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                              (11, "11th"), (12, "12th"), (13, "13th"),
                                              (21, "21st"), (22, "22nd"), (23, "23rd"),
                                              (30, "30th")])
def test_formats(day: int, ordinal: str) -> None:
    block = {"start": {"year": 1203, "month": 3, "day": day},
             "format": "the {ordinal} day of {month} (month {month_number}), {year} AR"}
    assert label(block, 1) == f"the {ordinal} day of March (month 3), 1203 AR"


def test_turn_titles() -> None:
    cal = parse_calendar({"start": {"year": 1203, "month": "Thaw"}, "months": SEASONS})
    assert turn_title(cal, 3) == "Turn 3 (1 Highsun 1203)"
    assert turn_title(None, 3) == "Turn 3"


BAD = [
    ({"start": {"year": 1}, "turn_lenght": "1 month"}, "calendar.turn_lenght: unknown calendar "
     "field 'turn_lenght' (did you mean 'turn_length'?); allowed: start, turn_length"),
    ({"turn_length": "1 month"}, "calendar: a calendar needs a 'start' date"),
    ({"start": {"month": 2}}, "calendar.start: the start date needs a 'year'"),
    ({"start": {"year": "1203"}}, "calendar.start.year: must be a whole number (got '1203')"),
    ({"start": {"year": 1, "month": "Thew"}, "months": SEASONS}, "calendar.start.month: unknown "
     "month 'Thew' (did you mean 'Thaw'?); allowed: one of Thaw, Sowing, Highsun, Reaping, Frost, "
     "Deepwinter, or a number from 1 to 6"),
    ({"start": {"year": 1, "month": 13}}, "calendar.start.month: must be a whole number from 1 to 12"),
    ({"start": {"year": 1, "month": "February", "day": 29}}, "calendar.start.day: must be a whole "
     "number from 1 to 28 (got 29)"),
    ({"start": {"year": 1}, "turn_length": "1 fortnight"}, "calendar.turn_length: must say how long "
     "one turn is (got '1 fortnight'); allowed: 'N days', 'N weeks', 'N months' or 'N years'"),
    ({"start": {"year": 1}, "turn_length": "0 days"}, "calendar.turn_length: must say how long"),
    ({"start": {"year": 1}, "turn_length": 30}, "calendar.turn_length: must say how long"),
    ({"start": {"year": 1}, "months": []}, "calendar.months: must be a non-empty list"),
    ({"start": {"year": 1}, "months": ["Thaw", "thaw"]}, "calendar.months[1]: month name given "
     "twice (also months[0])"),
    ({"start": {"year": 1}, "months": [{"name": "Thaw", "days": 0}]}, "calendar.months[0].days: "
     "must be a whole number from 1 to 1000 (got 0)"),
    ({"start": {"year": 1}, "months": [{"days": 30}]}, "calendar.months[0]: a month needs a 'name'"),
    ({"start": {"year": 1}, "months": [{"name": "Thaw", "length": 3}]}, "calendar.months[0].length: "
     "unknown month field 'length'; allowed: name, days"),
    ({"start": {"year": 1}, "months": ["  "]}, "calendar.months[0]: a month name must be non-empty"),
    ({"start": {"year": 1}, "format": "{day} {season}"}, "calendar.format: unknown placeholder "
     "{season} (got '{day} {season}'); allowed: {day}, {ordinal}, {month}, {month_number}, {year}"),
    ({"start": {"year": 1}, "format": "{day"}, "calendar.format: is not a valid date pattern"),
    ({"start": {"year": 1}, "format": "{month:d}"}, "calendar.format: is not a valid date pattern"),
    # a width spec would write a gigabyte for every date shown
    ({"start": {"year": 1}, "format": "{day:>999999999}"}, "calendar.format: is not a valid date "
     "pattern ({day} has a format spec)"),
    ({"start": {"year": 1}, "format": "{day!r}"}, "{day} has a format spec"),
    # names shown in every chronicle heading are plain text
    ({"start": {"year": 1}, "months": ["Thaw\x1b[2J"]}, "calendar.months[0]: must be plain text"),
    ({"start": {"year": 1}, "format": "{day}\n{year}"}, "calendar.format: must be plain text"),
    ({"start": {"year": 1}, "days_per_week": 0}, "calendar.days_per_week: must be a whole number "
     "from 1 to 1000"),
    ("monthly", "calendar: must be a mapping of calendar fields (got 'monthly')"),
]


@pytest.mark.parametrize(("block", "message"), BAD)
def test_bad_calendars_are_refused_with_field_line_and_allowed_values(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], block: Any, message: str) -> None:
    campaign = tmp_path / "march.yaml"
    text = default_campaign_path().read_text(encoding="utf-8")
    campaign.write_text(text + "\ncalendar: " + json.dumps(block) + "\n", encoding="utf-8")
    assert run("validate", campaign) == 2
    err = capsys.readouterr().err
    line = len(text.splitlines()) + 2
    assert f"{campaign}, line {line}, " in err and message in err, err
    with pytest.raises(CampaignError):
        parse_calendar(block)


def test_the_schema_knows_the_calendar() -> None:
    schema = wwn_schema()
    validator = jsonschema.Draft202012Validator(schema)
    campaign = {"ruleset": "wwn", "locations": [{"id": "a"}],
                "factions": [{"id": "f", "force": 1, "cunning": 1, "wealth": 1, "headquarters": "a"}]}
    good = {"start": {"year": 1203, "month": "Thaw", "day": 14}, "turn_length": "1 month",
            "months": SEASONS, "format": "{day} {month} {year}"}
    assert not list(validator.iter_errors({**campaign, "calendar": good}))
    assert list(validator.iter_errors({**campaign, "calendar": {**good, "turn_length": "soon"}}))
    assert list(validator.iter_errors({**campaign, "calendar": {"months": SEASONS}}))


CALENDAR = """
calendar:
  start: {year: 1203, month: Thaw, day: 14}
  turn_length: 1 month
  months: [Thaw, Sowing, {name: Highsun, days: 35}, Reaping, Frost, Deepwinter]
  format: "{ordinal} of {month}, {year} AR"
"""


@pytest.fixture()
def dated(tmp_path: Path) -> Path:
    campaign = tmp_path / "march.yaml"
    campaign.write_text(default_campaign_path().read_text(encoding="utf-8") + CALENDAR,
                        encoding="utf-8")
    assert run("turn", campaign, "--turns", "2", "--quiet") == 0
    return campaign


def test_dates_in_the_chronicles(dated: Path) -> None:
    for name in ("march.chronicle.md", "march.players.md"):
        headings = re.findall(r"^## .*$", dated.with_name(name).read_text(encoding="utf-8"), re.M)
        assert headings == ["## Turn 1 (14th of Thaw, 1203 AR)", "## Turn 2 (14th of Sowing, 1203 AR)"]
    assert "calendar:" in dated.read_text(encoding="utf-8")  # kept as written through the turns


def test_no_calendar_no_dates(tmp_path: Path) -> None:
    campaign = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), campaign)
    assert run("turn", campaign, "--quiet") == 0
    text = campaign.with_name("march.chronicle.md").read_text(encoding="utf-8")
    assert re.findall(r"^## .*$", text, re.M) == ["## Turn 1"]


def test_dates_in_the_report(dated: Path) -> None:
    """Panels and the timeline name each turn's date; the slider shows the date of the state it
    shows (after turn t: the day turn t + 1 begins)."""
    assert run("report", dated, "-o", dated.with_name("r.html"), "--quiet") == 0
    page = dated.with_name("r.html").read_text(encoding="utf-8")
    assert "<h3>Turn 2 (14th of Sowing, 1203 AR)</h3>" in page
    assert '<span class="tnum">Turn 1 (14th of Thaw, 1203 AR)</span>' in page
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page).group(1))
    assert data["dates"] == ["14th of Thaw, 1203 AR", "14th of Sowing, 1203 AR",
                             "14th of Highsun, 1203 AR"]


def test_dates_in_the_foundry_log(dated: Path) -> None:
    actors = export_to(dated, dated.with_name("out"))
    entries = [e for a in actors.values() for e in a["system"]["log"]]
    assert entries and all(
        "Turn 1 (14th of Thaw, 1203 AR)" in e or "Turn 2 (14th of Sowing, 1203 AR)" in e
        for e in entries)


def wwn_schema() -> dict:
    """The WWN campaign JSON Schema, with the agents WWN offers."""
    wwn = get_ruleset("wwn")
    return wwn.schema([spec.usage for spec in wwn.agents])
