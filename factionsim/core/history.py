"""Turn snapshots beside a campaign file: undo, redo and replay between sessions.

A campaign ``march.yaml`` keeps its history in the folder ``march.yaml.history/``:

- ``turn-0003.yaml``: the campaign file's exact text after 3 turns (the RNG state included, so
  the dice of every later turn are fixed by it);
- ``turn-0003.events.jsonl``: the events of turn 3 (one JSON object a line, as ``events.jsonl``);
- ``HEAD``: the turn the campaign file is at now; snapshots beyond it are the redo stack.

:meth:`History.undo` writes the previous snapshot back over the campaign file (atomically), and
:meth:`History.redo` the next one, so stepping back and forth gives byte-identical files and the
same dice. Playing a new turn after an undo discards the redo stack (a new branch of history).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> (d / "c.yaml").write_text("turn: 0\\n")
8
>>> h = History(d / "c.yaml")
>>> h.begin_turn("turn: 0\\n", 0)
>>> h.record_turn(1, "turn: 1\\n", [])
>>> (d / "c.yaml").write_text("turn: 1\\n") and h.undo()
0
>>> (d / "c.yaml").read_text(), h.redo(), (d / "c.yaml").read_text()
('turn: 0\\n', 1, 'turn: 1\\n')
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .campaign import write_atomic
from .game import Event, FactionsimError
from .safeyaml import parse_yaml

_SNAPSHOT = re.compile(r"^turn-(\d{4,})\.yaml$")


class HistoryError(FactionsimError):
    """Nothing to undo or redo, or a history folder that does not match its campaign."""


def history_dir(campaign: str | os.PathLike[str]) -> Path:
    """``march.yaml`` -> ``march.yaml.history`` (beside the campaign)."""
    p = Path(campaign)
    return p.with_name(p.name + ".history")


def event_from_dict(d: dict[str, Any]) -> Event:
    """Inverse of :meth:`Event.to_dict`."""
    data = {k: v for k, v in d.items() if k not in ("turn", "kind", "faction")}
    return Event(int(d["turn"]), d["kind"], d.get("faction"), data)


def turn_of_text(text: str, source: str = "<campaign>") -> int:
    """The ``turn`` field of a campaign text (0 when absent or not a turn number); broken or
    oversized YAML is a :class:`CampaignError` naming ``source``."""
    data = parse_yaml(text, source)
    turn = data.get("turn", 0) if isinstance(data, dict) else 0
    return turn if isinstance(turn, int) and not isinstance(turn, bool) and turn >= 0 else 0


class History:
    """The snapshot folder of one campaign file."""

    def __init__(self, campaign: str | os.PathLike[str]):
        self.campaign = Path(campaign)
        self.dir = history_dir(campaign)

    # ------------------------------------------------------------------ files
    def snapshot_path(self, turn: int) -> Path:
        return self.dir / f"turn-{turn:04d}.yaml"

    def events_path(self, turn: int) -> Path:
        return self.dir / f"turn-{turn:04d}.events.jsonl"

    def turns(self) -> list[int]:
        """Turns with a snapshot, in order (the redo stack included)."""
        if not self.dir.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.dir.iterdir() if (m := _SNAPSHOT.match(p.name)))

    def snapshot(self, turn: int) -> str | None:
        p = self.snapshot_path(turn)
        return p.read_text(encoding="utf-8") if p.is_file() else None

    def snapshot_data(self, turn: int) -> dict[str, Any] | None:
        """The snapshot of ``turn`` as data (bounded YAML, not validated), ``None`` if absent."""
        text = self.snapshot(turn)
        if text is None:
            return None
        data = parse_yaml(text, str(self.snapshot_path(turn)))
        return data if isinstance(data, dict) else None

    def events(self, turn: int) -> list[Event]:
        """The stored events of ``turn`` (empty when none were recorded)."""
        p = self.events_path(turn)
        if not p.is_file():
            return []
        return [event_from_dict(json.loads(line))
                for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]

    @property
    def head(self) -> int | None:
        p = self.dir / "HEAD"
        try:
            return int(p.read_text(encoding="utf-8").strip())
        except (FileNotFoundError, ValueError):
            return None

    def _set_head(self, turn: int) -> None:
        write_atomic(self.dir / "HEAD", f"{turn}\n")

    def current_turn(self) -> int:
        """The turn the campaign file is at (read from the file itself)."""
        return turn_of_text(self.campaign.read_text(encoding="utf-8"), str(self.campaign))

    # ------------------------------------------------------------------ recording
    def begin_turn(self, text: str, turn: int) -> None:
        """Before playing from ``turn``: keep ``text`` (the campaign now) as its snapshot and
        drop the redo stack beyond it (a new branch of history starts here)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.snapshot(turn) != text:
            write_atomic(self.snapshot_path(turn), text)
        for t in self.turns():
            if t > turn:
                self._drop(t)
        self._set_head(turn)

    def record_turn(self, turn: int, text: str, events: Iterable[Event]) -> None:
        """After playing turn ``turn``: its campaign text and its events."""
        self.dir.mkdir(parents=True, exist_ok=True)
        lines = "".join(json.dumps(e.to_dict(), separators=(",", ":"), ensure_ascii=False) + "\n"
                        for e in events)
        write_atomic(self.events_path(turn), lines)
        write_atomic(self.snapshot_path(turn), text)
        self._set_head(turn)

    def _drop(self, turn: int) -> None:
        for p in (self.snapshot_path(turn), self.events_path(turn)):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()

    # ------------------------------------------------------------------ stepping
    def undo(self) -> int:
        """Put the campaign file back to the turn before; returns that turn.

        Edits made to the file by hand since its turn was played are kept as that turn's
        snapshot, so ``redo`` brings them back.
        """
        text = self.campaign.read_text(encoding="utf-8")
        now = turn_of_text(text, str(self.campaign))
        before = [t for t in self.turns() if t < now]
        if not before:
            raise HistoryError(f"{self.campaign}: nothing to undo (the history in {self.dir} "
                               f"holds no turn before turn {now}).")
        if self.snapshot(now) != text:
            write_atomic(self.snapshot_path(now), text)
        target = before[-1]
        write_atomic(self.campaign, self.snapshot(target) or "")
        self._set_head(target)
        return target

    def redo(self) -> int:
        """Put the campaign file forward to the next recorded turn; returns that turn."""
        now = self.current_turn()
        after = [t for t in self.turns() if t > now]
        if not after:
            raise HistoryError(f"{self.campaign}: nothing to redo (turn {now} is the latest "
                               "recorded turn; play on with 'factionsim turn').")
        target = after[0]
        write_atomic(self.campaign, self.snapshot(target) or "")
        self._set_head(target)
        return target

    def replay_frames(self, upto: int | None = None) -> list[tuple[int, dict[str, Any]]]:
        """``(turn, campaign data)`` for every snapshot up to ``upto`` (default: the file's turn)."""
        upto = self.current_turn() if upto is None else upto
        return [(t, self.snapshot_data(t) or {}) for t in self.turns() if t <= upto]


# ------------------------------------------------------------------ chronicle files
TURN_MARK = "<!-- factionsim turn {turn} -->"
_MARK = re.compile(r"^<!-- factionsim turn (\d+) -->$", re.MULTILINE)


def trim_chronicle(path: Path, keep_upto: int) -> None:
    """Cut a chronicle file before the block of the first turn after ``keep_upto``.

    Blocks start with ``<!-- factionsim turn N -->``; text before the first block (the title,
    notes of the GM) is kept.
    """
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    for m in _MARK.finditer(text):
        if int(m.group(1)) > keep_upto:
            write_atomic(path, text[:m.start()].rstrip("\n") + "\n")
            return


def append_chronicle(path: Path, title: str, turn: int, block: str) -> None:
    """Append a turn's block (marked) to a chronicle file, creating it with ``title``."""
    text = path.read_text(encoding="utf-8") if path.is_file() else f"# {title}\n"
    mark = TURN_MARK.format(turn=turn)
    write_atomic(path, text.rstrip("\n") + f"\n\n{mark}\n{block.strip()}\n")
