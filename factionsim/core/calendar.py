"""In-game dates: the optional ``calendar:`` block of a campaign file.

A campaign may say when its first turn happens, how much time one turn covers and what its world
calls its months; every turn then has a date, shown in the chronicle's turn headings, the HTML
report and the Foundry VTT log::

    calendar:
      start: {year: 1203, month: Thaw, day: 1}   # the date turn 1 begins
      turn_length: 1 month                     # N days | weeks | months | years
      months: [Thaw, Sowing, {name: Highsun, days: 35}, Reaping, Frost, Deepwinter]
      days_per_week: 7                         # only "weeks" reads it
      format: "{day} {month} {year} AR"

Every field is optional except ``start.year``. Without ``months`` the twelve months of the
Gregorian calendar are used (with their usual lengths, no leap years); a month given by name
only has 30 days. Turn ``n`` begins ``n - 1`` turn lengths after ``start`` (turn 0, before play,
shares the start date). Adding months keeps the day of the month, cut to the length of a shorter
month (day 31 + 1 month in a 30-day month is day 30), and always counts from the start date, so
the cut never accumulates.

Nothing here depends on a ruleset: a ruleset's validator calls :func:`check_calendar` and the
chronicle asks :func:`turn_title`.

>>> cal = parse_calendar({"start": {"year": 1203, "month": "Thaw"}, "turn_length": "1 month",
...                       "months": ["Thaw", "Frost", {"name": "Highsun", "days": 35}]})
>>> [cal.label(t) for t in (0, 1, 2, 3, 4)]
['1 Thaw 1203', '1 Thaw 1203', '1 Frost 1203', '1 Highsun 1203', '1 Thaw 1204']
>>> turn_title(cal, 2), turn_title(None, 2)
('Turn 2 (1 Frost 1203)', 'Turn 2')
>>> parse_calendar({"start": {"year": 1}, "turn_length": "2 weeks"}).label(3)
'29 January 1'
"""

from __future__ import annotations

import difflib
import re
import string
from dataclasses import dataclass
from typing import Any, NoReturn

from .campaign import FieldChecker, FieldPath
from .fields import MAX_NAME, plain_text_problem
from .game import CampaignError

GREGORIAN = (("January", 31), ("February", 28), ("March", 31), ("April", 30), ("May", 31),
             ("June", 30), ("July", 31), ("August", 31), ("September", 30), ("October", 31),
             ("November", 30), ("December", 31))
#: days in a month given by name only
DEFAULT_MONTH_DAYS = 30
UNITS = ("days", "weeks", "months", "years")
CALENDAR_KEYS = ("start", "turn_length", "months", "days_per_week", "format")
START_KEYS = ("year", "month", "day")
MONTH_KEYS = ("name", "days")
#: the placeholders a ``format`` may use
FORMAT_FIELDS = ("day", "ordinal", "month", "month_number", "year")
DEFAULT_FORMAT = "{day} {month} {year}"
MAX_MONTH_DAYS = 1000
MAX_MONTHS = 100

_LENGTH = re.compile(r"^\s*(\d+)\s+(day|week|month|year)s?\s*$")


@dataclass(frozen=True, slots=True)
class Calendar:
    """A checked calendar (build it with :func:`parse_calendar`).

    ``months`` are ``(name, days)`` pairs; the start is ``start_year``, ``start_month`` (index
    into ``months``) and ``start_day`` (from 1); one turn is ``count`` ``unit`` (a name in
    :data:`UNITS`).
    """

    months: tuple[tuple[str, int], ...]
    start_year: int
    start_month: int
    start_day: int
    unit: str
    count: int
    days_per_week: int = 7
    format: str = DEFAULT_FORMAT

    @property
    def days_per_year(self) -> int:
        return sum(days for _, days in self.months)

    def date(self, turn: int) -> tuple[int, int, int]:
        """``(year, month index, day)`` on which turn ``turn`` begins (turn 0 and 1: the start)."""
        steps = max(turn - 1, 0) * self.count
        year, month, day = self.start_year, self.start_month, self.start_day
        if self.unit in ("days", "weeks"):
            return self._from_ordinal(self._ordinal(year, month, day)
                                      + steps * (self.days_per_week if self.unit == "weeks" else 1))
        if self.unit == "months":
            month += steps
            year, month = year + month // len(self.months), month % len(self.months)
        else:
            year += steps
        return year, month, min(day, self.months[month][1])

    def _ordinal(self, year: int, month: int, day: int) -> int:
        return year * self.days_per_year + sum(d for _, d in self.months[:month]) + day - 1

    def _from_ordinal(self, n: int) -> tuple[int, int, int]:
        year, rest = divmod(n, self.days_per_year)
        for month, (_, days) in enumerate(self.months):
            if rest < days:
                return year, month, rest + 1
            rest -= days
        raise AssertionError("unreachable: the rest is less than a year")

    def label(self, turn: int) -> str:
        """The date turn ``turn`` begins on, written with :attr:`format`."""
        year, month, day = self.date(turn)
        return self.format.format(day=day, ordinal=_ordinal(day), month=self.months[month][0],
                                  month_number=month + 1, year=year)


def turn_title(calendar: Calendar | None, turn: int) -> str:
    """``"Turn 3"``, or ``"Turn 3 (1 Frost 1203)"`` when the campaign has a calendar."""
    return f"Turn {turn}" if calendar is None else f"Turn {turn} ({calendar.label(turn)})"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ------------------------------------------------------------------------------ checking
def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Checks:
    """Checks one ``calendar`` value, reporting through a campaign's :class:`FieldChecker`."""

    def __init__(self, checker: FieldChecker, path: FieldPath):
        self.checker, self.path = checker, path

    def fail(self, sub: FieldPath, problem: str, value: Any = None, allowed: str = "") -> NoReturn:
        msg = f"{self.checker.where((*self.path, *sub))}: {problem}"
        if value is not None:
            msg += f" (got {_show(value)})"
        raise CampaignError(msg + (f"; allowed: {allowed}" if allowed else "") + ".")

    def keys(self, value: Any, sub: FieldPath, known: tuple[str, ...], what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(sub, f"must be a mapping of {what} fields", value, ", ".join(known))
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.fail((*sub, key), f"unknown {what} field {key!r}{hint}",
                          allowed=", ".join(known))
        return value

    def whole(self, value: Any, sub: FieldPath, lo: int | None = None, hi: int | None = None) -> int:
        bounds = (f" from {lo} to {hi}" if lo is not None and hi is not None
                  else f" >= {lo}" if lo is not None else "")
        if isinstance(value, bool) or not isinstance(value, int) or \
                (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(sub, f"must be a whole number{bounds}", value)
        return value

    def months(self, value: Any) -> tuple[tuple[str, int], ...]:
        if value is None:
            return GREGORIAN
        if not isinstance(value, list) or not value:
            self.fail(("months",), "must be a non-empty list of month names or "
                      "{name, days} mappings", value, "e.g. [Thaw, {name: Highsun, days: 35}]")
        if len(value) > MAX_MONTHS:
            self.fail(("months",), f"has {len(value)} months", allowed=f"at most {MAX_MONTHS}")
        out: list[tuple[str, int]] = []
        seen: dict[str, int] = {}
        for i, month in enumerate(value):
            days = DEFAULT_MONTH_DAYS
            if isinstance(month, dict):
                self.keys(month, ("months", i), MONTH_KEYS, "month")
                if "name" not in month:
                    self.fail(("months", i), "a month needs a 'name'")
                days = self.whole(month.get("days", DEFAULT_MONTH_DAYS), ("months", i, "days"),
                                  1, MAX_MONTH_DAYS)
                name = month["name"]
            else:
                name = month
            if not isinstance(name, str) or not name.strip():
                self.fail(("months", i), "a month name must be non-empty text", name)
            self.plain(name, ("months", i))
            if name.casefold() in seen:
                self.fail(("months", i), f"month name given twice (also months[{seen[name.casefold()]}])",
                          name, "each month name once")
            seen[name.casefold()] = i
            out.append((name, days))
        return tuple(out)

    def start(self, value: Any, months: tuple[tuple[str, int], ...]) -> tuple[int, int, int]:
        start = self.keys(value, ("start",), START_KEYS, "start date")
        if "year" not in start:
            self.fail(("start",), "the start date needs a 'year'", allowed="e.g. {year: 1203}")
        year = self.whole(start["year"], ("start", "year"))
        month_value = start.get("month", 1)
        names = [name for name, _ in months]
        if isinstance(month_value, str):
            folded = [n.casefold() for n in names]
            if month_value.casefold() not in folded:
                close = difflib.get_close_matches(month_value, names, n=2, cutoff=0.6)
                hint = " (did you mean " + " or ".join(map(repr, close)) + "?)" if close else ""
                self.fail(("start", "month"), f"unknown month {month_value!r}{hint}",
                          allowed="one of " + ", ".join(names) + f", or a number from 1 to "
                          f"{len(names)}")
            month = folded.index(month_value.casefold())
        else:
            month = self.whole(month_value, ("start", "month"), 1, len(months)) - 1
        day = self.whole(start.get("day", 1), ("start", "day"), 1, months[month][1])
        return year, month, day

    def turn_length(self, value: Any) -> tuple[str, int]:
        m = _LENGTH.match(value) if isinstance(value, str) else None
        if m is None or int(m.group(1)) < 1:
            self.fail(("turn_length",), "must say how long one turn is", value,
                      "'N days', 'N weeks', 'N months' or 'N years' with N >= 1, e.g. '1 month'")
        return m.group(2) + "s", int(m.group(1))

    def plain(self, text: str, sub: FieldPath) -> None:
        """Text shown to people (a month name, the date pattern) is plain text on one line."""
        if len(text) > MAX_NAME:
            self.fail(sub, f"is {len(text)} characters long", allowed=f"at most {MAX_NAME}")
        problem = plain_text_problem(text)
        if problem:
            self.fail(sub, f"must be plain text but {problem}", text,
                      "letters, digits, spaces and punctuation on one line")

    def format(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(("format",), "must be non-empty text", value)
        self.plain(value, ("format",))
        try:
            parts = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(value)
                     if f is not None]
        except ValueError as exc:
            self.fail(("format",), f"is not a valid date pattern ({exc})", value,
                      "text with " + ", ".join("{" + f + "}" for f in FORMAT_FIELDS))
        for name, spec, conv in parts:
            if name not in FORMAT_FIELDS:
                self.fail(("format",), f"unknown placeholder {{{name}}}", value,
                          ", ".join("{" + f + "}" for f in FORMAT_FIELDS))
            if spec or conv:  # "{day:>999999999}" would write a gigabyte per date
                self.fail(("format",), f"is not a valid date pattern ({{{name}}} has a format "
                          "spec)", value,
                          "placeholders without format specs, e.g. '{day} {month} {year}'")
        try:
            value.format(day=1, ordinal="1st", month="M", month_number=1, year=1)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            self.fail(("format",), f"is not a valid date pattern ({exc})", value,
                      "placeholders without format specs, e.g. '{day} {month} {year}'")
        return value


def parse_calendar(value: Any, checker: FieldChecker | None = None,
                   path: FieldPath = ("calendar",)) -> Calendar:
    """Check a ``calendar`` block and build its :class:`Calendar`.

    Problems raise :class:`CampaignError` naming the file and line through ``checker`` (a
    campaign validator; by default messages name just the field path).
    """
    checks = _Checks(checker or FieldChecker("campaign", {}), path)
    block = checks.keys(value, (), CALENDAR_KEYS, "calendar")
    if "start" not in block:
        checks.fail((), "a calendar needs a 'start' date", allowed="e.g. start: {year: 1203, "
                    "month: Thaw, day: 1}")
    months = checks.months(block.get("months"))
    year, month, day = checks.start(block["start"], months)
    unit, count = checks.turn_length(block.get("turn_length", "1 month"))
    week = checks.whole(block.get("days_per_week", 7), ("days_per_week",), 1, MAX_MONTH_DAYS)
    fmt = checks.format(block.get("format", DEFAULT_FORMAT))
    return Calendar(months, year, month, day, unit, count, week, fmt)


def check_calendar(value: Any, checker: FieldChecker, path: FieldPath = ("calendar",)) -> None:
    """The hook for a ruleset's validator: refuse a bad ``calendar`` block (see
    :func:`parse_calendar`); the block itself is kept as written."""
    parse_calendar(value, checker, path)


def campaign_calendar(data: dict[str, Any] | None) -> Calendar | None:
    """The calendar of campaign data (a loaded file or ``state.extra``), or ``None``."""
    block = (data or {}).get("calendar")
    return None if block is None else parse_calendar(block)


def calendar_schema() -> dict[str, Any]:
    """The JSON Schema of the ``calendar`` block (for ``factionsim schema``)."""
    month = {"oneOf": [{"type": "string", "minLength": 1},
                       {"type": "object", "additionalProperties": False, "required": ["name"],
                        "properties": {"name": {"type": "string", "minLength": 1},
                                       "days": {"type": "integer", "minimum": 1,
                                                "maximum": MAX_MONTH_DAYS}}}]}
    return {
        "type": "object", "additionalProperties": False, "required": ["start"],
        "description": "in-game dates of the turns; see docs/campaign-format.md",
        "properties": {
            "start": {"type": "object", "additionalProperties": False, "required": ["year"],
                      "properties": {"year": {"type": "integer"},
                                     "month": {"type": ["string", "integer"]},
                                     "day": {"type": "integer", "minimum": 1}}},
            "turn_length": {"type": "string",
                            "pattern": r"^\s*\d+\s+(day|week|month|year)s?\s*$"},
            "months": {"type": "array", "minItems": 1, "maxItems": MAX_MONTHS, "items": month},
            "days_per_week": {"type": "integer", "minimum": 1},
            "format": {"type": "string", "minLength": 1,
                       "description": "placeholders: " + ", ".join("{" + f + "}"
                                                                   for f in FORMAT_FIELDS)},
        },
    }
