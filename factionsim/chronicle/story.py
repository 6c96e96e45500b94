"""A chronicle's turns as data (:class:`TurnStory`), before they become markdown (the
chronicle files) or HTML (the report): one model, two renderings, two audiences.

For the GM, a turn is its headline, the order of play and, by faction, one compact line per
event told by the ruleset's prose (the dice apart, :class:`~factionsim.core.prose.Told`), with
the agents' reasons under the line they led to: a reason already given in the faction's turn is
not repeated, and the same line again is told once with how many times.

For the players, a turn is its headline and the rumours by place
(:mod:`factionsim.core.rumours`) of the events they may know
(:mod:`factionsim.core.visibility`); a ruleset without rumours tells those events in its prose,
its dice left out.

Every name and reason is escaped for markdown here (:meth:`Names.markdown`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.prose import told
from factionsim.core.rumours import Fact, capital, digest
from factionsim.core.text import markdown_line, markdown_text
from factionsim.core.visibility import check_audience
from factionsim.rulesets import get_ruleset

__all__ = ["Line", "Section", "TurnStory", "concerns", "describe", "faction_lines", "prose_table",
           "stories"]

#: decisions too small to tell (ending a step, keeping a goal); the GM sees the rest
_QUIET_DECISIONS = ("done", "keep goal")
#: events that structure a turn rather than tell something
_FRAME_KINDS = ("initiative", "round", "faction-turn", "turn-end", "decision")
#: data keys that name the other faction an event concerns
_OTHER_FACTION_KEYS = ("owner", "target_faction", "rival", "target", "defender", "by",
                       "aggressor", "previous")
#: the teller's stream for each audience (their words are drawn apart)
_STREAMS = {"gm": 0, "players": 1}


def prose_table(ruleset: str) -> dict[str, Callable[[Event, Names], str]]:
    """Event kind -> sentence maker for ``ruleset`` (its descriptor's ``prose``)."""
    return dict(get_ruleset(ruleset).prose)


def _value(value: Any, n: Names) -> str:
    """A data value in words: a roll as its dice, an asset id as its name, never a raw dict."""
    if isinstance(value, dict):
        if "expr" in value and "dice" in value:
            return f"{value['expr']} [{', '.join(map(str, value['dice']))}] = {value.get('total')}"
        return ", ".join(f"{k.replace('_', ' ')} {_value(v, n)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, n) for v in value) or "none"
    if isinstance(value, str):
        if value in n.factions:
            return n.faction(value)
        if value in n.locations:
            return n.place(value)
        if "#" in value:
            return n.asset(value)
        if "@" in value:
            owner, place = value.split("@", 1)
            return f"{n.faction(owner)}'s Base at {n.place(place)}"
        return markdown_text(value)
    return markdown_text(value)


def plain(e: Event, n: Names) -> str:
    """An event no prose tells, written plainly: its kind and its details in words."""
    details = "; ".join(f"{k.replace('_', ' ')}: {_value(v, n)}" for k, v in e.data.items())
    return f"{e.kind.replace('-', ' ').capitalize()}" + (f" ({details})." if details else ".")


def describe(event: Event, names: Names) -> str:
    """One event as one sentence (a :class:`Told` where dice decided it), in the prose of
    ``names.ruleset``."""
    return prose_table(names.ruleset).get(event.kind, plain)(event, names)


def concerns(event: Event, faction: str) -> bool:
    """Whether ``event`` is the faction's doing or happens to it."""
    return event.faction == faction or any(event.data.get(k) == faction
                                           for k in _OTHER_FACTION_KEYS)


def faction_lines(events: Iterable[Event], names: Names, faction: str,
                  audience: str = "gm") -> list[str]:
    """The compact lines (markdown) of ``events`` that concern ``faction``: the GM's, dice in a
    parenthesis; or, for ``audience="players"`` in a ruleset without rumours (``events`` being
    those they may know), as the players' chronicle tells them, without dice. Another faction's
    doing is prefixed with its name."""
    names = names.markdown()
    out = []
    for e in events:
        if e.kind in _FRAME_KINDS or not concerns(e, faction):
            continue
        text = (_players_text(e, names) if audience == "players"
                else markdown_line(describe(e, names)))
        if e.faction not in (faction, None) and names.faction(e.faction) not in text:
            text = f"({names.faction(e.faction)}) {text}"
        out.append(text)
    return out


@dataclass
class Line:
    """One told event of the GM's chronicle: ``text`` without its dice, ``dice`` (may be
    empty), ``prefix`` (``(Other faction) `` when another faction's event is told in this
    faction's turn), the agents' ``reasons`` and how many ``times`` it happened in a row."""

    text: str
    dice: str = ""
    prefix: str = ""
    reasons: list[str] = field(default_factory=list)
    times: int = 1

    def sentence(self) -> str:
        """The text with ``(N times)`` before its final stop when it repeats."""
        if self.times == 1:
            return self.text
        stop = self.text[-1] if self.text[-1:] in ".!?" else ""
        return f"{self.text[:len(self.text) - len(stop)]} ({self.times} times){stop}"


@dataclass
class Section:
    """One faction's turn in the GM's chronicle (``title`` ``None``: before anyone acts)."""

    title: str | None
    lines: list[Line] = field(default_factory=list)


@dataclass
class TurnStory:
    """One turn, as told to one audience (see the module docstring)."""

    turn: int
    title: str
    audience: str
    headline: str | None = None
    order: Line | None = None
    sections: list[Section] = field(default_factory=list)
    places: list[tuple[str, list[str]]] = field(default_factory=list)
    facts: list[tuple[Fact, str]] = field(default_factory=list)
    top: Fact | None = None


class _GmTurn:
    """Builds the sections of one turn for the GM (see the module docstring)."""

    def __init__(self, names: Names):
        self.n = names
        self.sections: list[Section] = [Section(None)]
        self.current: str | None = None
        self.pending: list[str] = []  # reasons waiting for the event they caused
        self.order: Line | None = None
        self.given: set[str] = set()  # reasons already told in this faction's turn

    def _flush(self) -> None:
        if self.pending:  # decisions that caused nothing to tell
            self.sections[-1].lines.append(Line("", reasons=self.pending))
            self.pending = []

    def reason(self, e: Event) -> None:
        if e.data.get("action") in _QUIET_DECISIONS:
            return
        text = str(e.data.get("reason", ""))
        text = markdown_text((text[:1].upper() + text[1:]).rstrip(".") + ".")
        if e.faction not in (self.current, None):
            text = f"({self.n.faction(e.faction)}) {text}"
        if text not in self.given and text not in self.pending:
            self.pending.append(text)
            self.given.add(text)

    def event(self, e: Event) -> None:
        if e.kind in ("initiative", "round"):
            self._flush()
            self.order = _order_line(e, self.n)
        elif e.kind == "faction-turn":
            self._flush()
            self.current = e.faction
            self.given = set()
            self.sections.append(Section(self.n.faction(e.faction)))
        elif e.kind == "decision":
            self.reason(e)
        elif e.kind != "turn-end":
            self.line(e)

    def line(self, e: Event) -> None:
        t = told(describe(e, self.n))
        prefix = "" if e.faction in (self.current, None) else f"({self.n.faction(e.faction)}) "
        new = Line(markdown_line(t.text), markdown_line(t.dice), prefix, self.pending)
        self.pending = []
        lines = self.sections[-1].lines
        last = lines[-1] if lines else None
        if last is not None and not new.dice and not last.dice and not new.reasons and \
                (last.text, last.prefix) == (new.text, new.prefix):
            last.times += 1
        else:
            lines.append(new)

    def done(self) -> list[Section]:
        self._flush()
        return [s for s in self.sections if s.lines or s.title is not None]


def _order_line(e: Event, n: Names) -> Line:
    """``Initiative: A, B, C.`` (the rolls as its dice) or ``Order: A, B.``"""
    order = ", ".join(n.faction(f) for f in e.data["order"])
    rolls = e.data.get("rolls")
    if e.kind == "initiative" and rolls:
        dice = "rolls " + ", ".join(str(rolls[f]) for f in e.data["order"] if f in rolls)
        return Line(f"Initiative: {order}.", dice)
    return Line(f"{'Initiative' if e.kind == 'initiative' else 'Order'}: {order}.")


def _by_turn(events: Iterable[Event]) -> list[tuple[int, list[Event]]]:
    out: list[tuple[int, list[Event]]] = []
    for e in events:
        if not out or out[-1][0] != e.turn:
            out.append((e.turn, []))
        out[-1][1].append(e)
    return out


def _players_text(e: Event, names: Names) -> str:
    """An event the players may know, in the ruleset's prose with the dice left out (markdown)."""
    try:
        text = told(describe(e, names)).text
    except (KeyError, TypeError, ValueError):  # prose that needs a detail kept secret
        text = plain(e, names)
    return markdown_line(text)


def _players_lines(evs: list[Event], names: Names) -> list[tuple[str, list[str]]]:
    """Without rumours: the players' events in the ruleset's prose, dice left out."""
    lines = []
    for e in evs:
        if e.kind in _FRAME_KINDS:
            continue
        who = names.faction(e.faction) if e.faction else ""
        lines.append((who, _players_text(e, names)))
    grouped: dict[str, list[str]] = {}
    for who, text in lines:
        grouped.setdefault(who, []).append(text.rstrip("."))
    return list(grouped.items())


def stories(events: Iterable[Event], names: Names, audience: str = "gm",
            frame: dict[str, Any] | None = None) -> list[TurnStory]:
    """The turns of ``events`` (already those ``audience`` may know) told to ``audience``;
    ``frame`` is the campaign data (as ``audience`` knows it) before the first of them."""
    check_audience(audience)
    names = names.markdown()
    book = get_ruleset(names.ruleset).rumours if names.ruleset else None
    events = list(events)
    facts_of: dict[int, list[Fact]] = {}
    for f in book.facts(events, frame, names) if book else []:
        facts_of.setdefault(f.turn, []).append(f)
    out = []
    for turn, evs in _by_turn(events):
        story = TurnStory(turn, names.turn_title(turn), audience)
        facts = facts_of.get(turn, [])
        if book is not None:
            told_turn = digest(facts, book.grammar, names.seed, turn, _STREAMS[audience])
            story.headline, story.facts = told_turn.headline, told_turn.told
            story.top = told_turn.top
            if audience == "players":
                story.places = [(p, [capital(s) if i == 0 else s for i, s in enumerate(ss)])
                                for p, ss in told_turn.places]
        if audience == "gm":
            gm = _GmTurn(names)
            for e in evs:
                gm.event(e)
            story.sections, story.order = gm.done(), gm.order
        else:
            story.order = next((_order_line(e, names) for e in evs
                                if e.kind in ("initiative", "round")), None)
            if story.order is not None:
                story.order.dice = ""
            if book is None:
                story.places = _players_lines(evs, names)
        out.append(story)
    return out

