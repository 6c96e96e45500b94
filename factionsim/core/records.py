"""What happened at the table between turns: the GM's records (``factionsim record``).

A ruleset declares the records it takes (``RulesetInfo.records``): each a :class:`RecordSpec`
with its name (``damage``, ``destroy``, ``treasure``...), its arguments and ``apply``, which makes
the change through the ruleset's own rules and returns the campaign data after it. Every
ruleset also takes :data:`NOTE` (a line of text and nothing else). ``factionsim record`` then
validates the data exactly as a campaign file is validated, and commits it as one step of the
campaign's history (:mod:`factionsim.core.history`): ``undo`` steps back over a record as over
a turn.

A record's events are a ``gm-record`` event (what the GM recorded, the GM's own sentence,
whether the players may know of it) followed by the events the rules made (damage, a destroyed
asset, a collapse...); :func:`factionsim.chronicle.records.record_blocks` tells them in both
chronicles.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .game import Event, FactionsimError, GameState
from .names import Names

__all__ = ["GM_RECORD", "NOTE", "Applied", "RecordArg", "RecordError", "RecordSpec", "gm_event"]

#: the event kind of a GM's record
GM_RECORD = "gm-record"


class RecordError(FactionsimError):
    """A record that cannot be made: the message names the argument and the allowed values."""


@dataclass(frozen=True)
class RecordArg:
    """One argument of a record: ``name`` (as the GM types it: ``ASSET``, ``--by``), ``help``,
    ``type`` (``str``, ``int``, or a function that reads the text) and, for options, the
    ``default``."""

    name: str
    help: str
    type: Callable[[str], Any] = str
    default: Any = None
    nargs: str | None = None

    @property
    def key(self) -> str:
        return self.name.lstrip("-").lower().replace("-", "_")


@dataclass(frozen=True)
class Applied:
    """What a record did: the campaign ``data`` after it (validated by the caller), the events
    the rules made, a one-line ``summary`` for the GM, and whether the players may know of it
    (``public``: False for secrets the rules keep, such as Treasure or a goal)."""

    data: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    summary: str = ""
    public: bool = True


@dataclass(frozen=True)
class RecordSpec:
    """A record a ruleset takes: ``name``, a one-line ``summary`` (the ``--help`` text), its
    ``args`` and ``apply(state, values, names) -> Applied`` (``values``: argument key ->
    value). ``example`` is an example line for the help."""

    name: str
    summary: str
    args: tuple[RecordArg, ...]
    apply: Callable[[GameState, dict[str, Any], Names], Applied]
    example: str = ""

    def parser(self, prog: str) -> argparse.ArgumentParser:
        """The argument parser of this record (``prog``: how the GM called it)."""
        p = argparse.ArgumentParser(prog=prog, description=self.summary,
                                    epilog=f"example: {self.example}" if self.example else None)
        for arg in self.args:
            kw: dict[str, Any] = {"help": arg.help, "type": arg.type}
            if arg.nargs:
                kw["nargs"] = arg.nargs
            if arg.name.startswith("-"):
                p.add_argument(arg.name, default=arg.default, dest=arg.key, **kw)
            else:
                p.add_argument(arg.key, metavar=arg.name, **kw)
        add_record_options(p)
        return p


def add_record_options(p: argparse.ArgumentParser) -> None:
    """``--because TEXT`` and ``--secret``, which every record takes."""
    p.add_argument("--because", default="", metavar="TEXT",
                   help="what happened at the table, in your words (written to the chronicles)")
    p.add_argument("--secret", action="store_true",
                   help="keep this record out of the players' chronicle")


def gm_event(turn: int, what: str, values: dict[str, Any], summary: str, public: bool,
             text: str = "") -> Event:
    """The ``gm-record`` event: the record's name and arguments, the GM's ``text``, the
    ``summary`` and whether the players may know of it."""
    data: dict[str, Any] = {"record": what, "args": values, "summary": summary,
                            "public": public}
    if text:
        data["text"] = text
    return Event(turn, GM_RECORD, None, data)


def _note(state: GameState, values: dict[str, Any], names: Names) -> Applied:
    text = " ".join(values["text"]).strip()
    if not text:
        raise RecordError("record note: TEXT is empty; write what happened, e.g. "
                          "factionsim record march.yaml note \"The party burned the granary.\"")
    return Applied(state.to_dict(), summary=text)


#: ``note TEXT``: every ruleset takes it.
NOTE = RecordSpec(
    "note", "write a line into the chronicles (nothing in the campaign changes)",
    (RecordArg("TEXT", "what happened", nargs="+"),),
    _note, example='factionsim record march.yaml note "The party burned the granary."')
