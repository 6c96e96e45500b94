"""Who may see what: the one notion every output of a campaign is made through.

There are two audiences (:data:`AUDIENCES`): the ``"gm"``, who sees everything, and the
``"players"``, who see only what the rules make public. Each ruleset says what is public in a
:class:`Visibility` (``RulesetInfo.visibility``):

- ``frame(data)``: the campaign data (a frame: the file's data, or a turn's snapshot) as the
  players know it: secret fields and secret things (WWN: Treasure, XP, goals, Stealthed assets)
  are *absent*, not blanked, so nothing built from it can show them;
- ``events``: for each event kind the players may hear of, the data keys they may know (a tuple),
  or a function that returns the public event (or ``None``); an event kind not listed is secret
  (a new kind stays hidden from the players until a ruleset declares it public);
- ``watch(before)``: optional, for secrets that come and go during a turn (WWN's Stealth): given
  the GM's data before the events, a function that takes each event and returns what the world
  saw of it: nothing (a secret operation), the event, or a rumour in its place.

The report (table, charts, map, timeline, chronicle), the chronicles, ``show --players``,
``factionsim events --players``, the Foundry export and the faction sheets all take their data
through :func:`visible_frame` and :func:`visible_events` (in :mod:`factionsim.chronicle.views`,
which finds the ruleset's :class:`Visibility`).

>>> vis = Visibility(frame=lambda d: {"name": d["name"]}, events={"move": ("to",)})
>>> vis.visible_frame({"name": "x", "treasure": 9}, "players")
{'name': 'x'}
>>> from factionsim.core.game import Event
>>> [e.to_dict() for e in vis.visible_events([Event(1, "move", "a", {"to": "y", "roll": [3]}),
...                                           Event(1, "income", "a", {"amount": 3})], "players")]
[{'turn': 1, 'kind': 'move', 'faction': 'a', 'to': 'y'}]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.game import Event

#: The audiences every output is made for.
AUDIENCES = ("gm", "players")

Frame = dict[str, Any]
#: kind -> the public data keys, or a function returning the public event (``None``: secret)
EventRule = tuple[str, ...] | Callable[[Event], Event | None]


def check_audience(audience: str) -> str:
    """``audience`` itself, or a ``ValueError`` naming the allowed ones."""
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r}; use one of {', '.join(AUDIENCES)}")
    return audience


def pick(data: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The entries of ``data`` whose keys are in ``keys`` (in ``data``'s order).

    >>> pick({"a": 1, "b": 2, "c": 3}, ("c", "a"))
    {'a': 1, 'c': 3}
    """
    wanted = set(keys)
    return {k: v for k, v in data.items() if k in wanted}


def without(data: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """``data`` less the entries whose keys are in ``keys``.

    >>> without({"a": 1, "dice": [3]}, ("dice",))
    {'a': 1}
    """
    unwanted = set(keys)
    return {k: v for k, v in data.items() if k not in unwanted}


def dropping(*keys: str) -> Callable[[Event], Event]:
    """An event rule: the event less the data ``keys`` (its dice, its costs...)."""
    def rule(e: Event) -> Event:
        return Event(e.turn, e.kind, e.faction, without(e.data, keys))
    return rule


def records_less(campaign_keys: Iterable[str], records: str,
                 secret_keys: Iterable[str]) -> Callable[[Frame], Frame]:
    """A frame rule: the campaign's ``campaign_keys`` only, and each record listed under
    ``records`` (its factions, Houses...) less its ``secret_keys``.

    >>> frame = records_less(("name", "factions"), "factions", ("dice",))
    >>> frame({"name": "x", "seed": 7, "factions": [{"id": "a", "dice": 3}]})
    {'name': 'x', 'factions': [{'id': 'a'}]}
    """
    secret = tuple(secret_keys)

    def frame(data: Frame) -> Frame:
        out = pick(data, campaign_keys)
        out[records] = [without(r, secret) for r in data.get(records) or []]
        return out
    return frame


def turn_end_less(*keys: str) -> Callable[[Event], Event]:
    """An event rule for ``turn-end``: each faction's numbers (``data["factions"]``) less
    ``keys``."""
    def rule(e: Event) -> Event:
        return Event(e.turn, e.kind, e.faction, {"factions": {
            f: without(v, keys) for f, v in (e.data.get("factions") or {}).items()}})
    return rule


def public_event(event: Event, rule: EventRule | None) -> Event | None:
    """``event`` as the players know it under ``rule`` (``None``: they do not)."""
    if rule is None:
        return None
    if callable(rule):
        return rule(event)
    return Event(event.turn, event.kind, event.faction, pick(event.data, rule))


def _everything(data: Frame) -> Frame:
    return data


@dataclass(frozen=True)
class Visibility:
    """What the players may know of a ruleset's campaigns (see the module docstring)."""

    frame: Callable[[Frame], Frame] = _everything
    events: Mapping[str, EventRule] = field(default_factory=dict)
    watch: Callable[[Frame | None], Callable[[Event], list[Event]]] | None = None
    #: everything is public (a ruleset without secrets): events pass whole
    open: bool = False

    def visible_frame(self, data: Frame, audience: str) -> Frame:
        """The campaign data ``audience`` may know."""
        if check_audience(audience) == "gm" or self.open:
            return data
        return self.frame(data)

    def visible_events(self, events: Iterable[Event], audience: str,
                       before: Frame | None = None) -> list[Event]:
        """The events ``audience`` may know, ``before`` being the GM's campaign data when they
        begin (what :attr:`watch` starts from)."""
        events = list(events)
        if check_audience(audience) == "gm" or self.open:
            return events
        seen = self.watch(before) if self.watch is not None else None
        out: list[Event] = []
        for e in events:
            for shown in (seen(e) if seen is not None else [e]):
                told = public_event(shown, self.events.get(shown.kind))
                if told is not None:
                    out.append(told)
        return out


#: A ruleset without secrets: the players see what the GM sees.
NOTHING_HIDDEN = Visibility(open=True)
