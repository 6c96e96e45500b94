"""A campaign file's own files: history, chronicles, lock, and how a turn is committed.

Beside ``march.yaml`` factionsim keeps:

- ``march.yaml.history/turn-0003.yaml``: the campaign file's exact text after 3 turns (the RNG
  state included, so the dice of every later turn are fixed by it);
- ``march.yaml.history/turn-0003.events.jsonl``: the events of turn 3 (one JSON object a line);
- ``march.yaml.history/HEAD``: the turn the campaign file is at now; snapshots beyond it are the
  redo stack;
- ``march.chronicle.md`` and ``march.players.md``: the GM's and the players' chronicles, one
  block per turn, each starting with the line ``<!-- factionsim turn N -->``;
- ``march.yaml.history/JOURNAL`` and ``.march.yaml.lock``: only while a command is changing the
  campaign (or after one was killed; the next command clears them).

:meth:`History.undo_to` writes an earlier snapshot back over the campaign file and
:meth:`History.redo_to` a later one, so stepping back and forth gives byte-identical files and
the same dice. Playing a new turn after an undo discards the redo stack (a new branch).

**One writer, whole turns.** A command that changes the campaign (``turn``, ``undo``,
``redo``) first takes the campaign's lock (:mod:`factionsim.core.lock`), then calls
:meth:`History.recover`, then reads the campaign file once. Everything one turn changes -- the
campaign file, the snapshot before it (when the file was edited by hand) and after it, the
turn's events, ``HEAD``, the block of both chronicles, the redo snapshots it drops -- is
committed together through a journal (:mod:`factionsim.core.journal`):

1. every new text (whole files) and every file to delete is written to ``JOURNAL``
   atomically; that rename is the commit point;
2. the files are replaced one by one in a fixed order (history files, ``HEAD``, chronicles,
   campaign file last), then the dropped snapshots are deleted;
3. ``JOURNAL`` is deleted.

If the process is killed before the commit point, nothing has changed (at most a temporary
file is left); after it, the next command finishes the change from the journal (roll forward).
:meth:`History.recover` does both: it completes a pending journal and deletes the temporary
files our writes leave when killed (``.NAME.XXXXXXXX.tmp`` for the campaign's own file names
only, nothing else). So after a ``kill -9`` at any moment, the campaign file, its history and
its chronicles agree once the next command has run: a turn is either fully there or absent.

**Files from elsewhere.** A history folder is read without following symbolic links: a link
inside it (or a linked folder) is refused with a clear error, so ``undo`` can never copy a file
from outside the campaign into it. Journal entries name only the campaign's own files.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> (d / "c.yaml").write_text("turn: 0\\n")
8
>>> h = History(d / "c.yaml")
>>> h.record_turn("turn: 0\\n", 0, "turn: 1\\n", 1, [], {"gm": "## Turn 1", "players": "## Turn 1"},
...               {"gm": "GM", "players": "Players"})
>>> (d / "c.yaml").read_text(), h.head, h.undo_to(0, h.campaign.read_text())
('turn: 1\\n', 1, 0)
>>> (d / "c.yaml").read_text(), h.chronicle_turns("gm")
('turn: 0\\n', [])
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from .campaign import load_campaign_data
from .files import FileProblem, read_own_file, remove_temp_files, temp_file_pattern, write_atomic
from .game import CampaignError, Event, FactionsimError
from .journal import Journal

_SNAPSHOT = re.compile(r"^turn-(\d{4,})\.yaml$")
_EVENTS = re.compile(r"^turn-(\d{4,})\.events\.jsonl$")
#: a step's snapshot or events: ``turn-0003.yaml`` (turn 3), ``turn-0003.r2.yaml`` (its record 2)
_STEP_FILE = re.compile(r"^turn-(\d{4,})(?:\.r(\d+))?\.(?:yaml|events\.jsonl)$")
#: Every file factionsim writes in a history folder.
_OWN = (r"turn-\d{4,}(?:\.r\d+)?\.yaml|turn-\d{4,}(?:\.r\d+)?\.events\.jsonl|HEAD|JOURNAL"
        r"|broken-turn-\d{4,}\.yaml")

VIEWS = ("gm", "players")

#: A place in a campaign's history: ``(turn, record)``; ``(3, 0)`` is the campaign after turn 3,
#: ``(3, 2)`` after the GM's second record between turns 3 and 4 (``factionsim record``).
Step = tuple[int, int]


def as_step(position: int | Step) -> Step:
    """A turn number as the step of that turn (``3`` -> ``(3, 0)``); a step as it is."""
    return (position, 0) if isinstance(position, int) else (int(position[0]), int(position[1]))


def step_text(step: Step) -> str:
    """``(3, 0)`` -> ``"3"``, ``(3, 2)`` -> ``"3.2"`` (the ``HEAD`` file's form)."""
    return f"{step[0]}" if step[1] == 0 else f"{step[0]}.{step[1]}"


class HistoryError(FactionsimError):
    """Nothing to undo or redo, or a history folder that does not match its campaign."""


def history_dir(campaign: str | os.PathLike[str]) -> Path:
    """``march.yaml`` -> ``march.yaml.history`` (beside the campaign)."""
    p = Path(campaign)
    return p.with_name(p.name + ".history")


def chronicle_paths(campaign: str | os.PathLike[str]) -> dict[str, Path]:
    """``{"gm": march.chronicle.md, "players": march.players.md}`` beside ``march.yaml``."""
    p = Path(campaign)
    return {"gm": p.with_name(p.stem + ".chronicle.md"),
            "players": p.with_name(p.stem + ".players.md")}


def event_from_dict(d: dict[str, Any]) -> Event:
    """Inverse of :meth:`Event.to_dict`."""
    data = {k: v for k, v in d.items() if k not in ("turn", "kind", "faction")}
    return Event(int(d["turn"]), d["kind"], d.get("faction"), data)


def event_lines(events: Iterable[Event]) -> str:
    """Events as JSON lines (the ``.events.jsonl`` format)."""
    return "".join(json.dumps(e.to_dict(), separators=(",", ":"), ensure_ascii=False) + "\n"
                   for e in events)


def campaign_turn(text: str, source: str) -> int | None:
    """The ``turn`` field of a campaign text; ``None`` when the text is not a campaign mapping
    with a whole, non-negative ``turn`` (0 when the field is absent). Parsed with the campaign
    loader, so the same bounds apply."""
    try:
        data, _ = load_campaign_data(source, text=text)
    except Exception:  # noqa: BLE001 - whatever the loader makes of it, the text is unreadable
        return None
    turn = data.get("turn", 0)
    if turn is None:
        return 0
    return turn if isinstance(turn, int) and not isinstance(turn, bool) and turn >= 0 else None


# ------------------------------------------------------------------ chronicle text
TURN_MARK = "<!-- factionsim turn {turn} -->"
#: the block of the GM's record ``n`` after turn ``turn`` (``factionsim record``)
RECORD_MARK = "<!-- factionsim turn {turn} record {n} -->"
_MARK = re.compile(r"^<!-- factionsim turn (\d+) -->$", re.MULTILINE)
_ANY_MARK = re.compile(r"^<!-- factionsim turn (\d+)(?: record (\d+))? -->$", re.MULTILINE)


def block_mark(step: int | Step) -> str:
    """The line that starts the chronicle block of ``step`` (a turn or a GM's record)."""
    turn, n = as_step(step)
    return TURN_MARK.format(turn=turn) if n == 0 else RECORD_MARK.format(turn=turn, n=n)


def chronicle_turns(text: str) -> list[int]:
    """The turns whose blocks a chronicle text holds, in order."""
    return [int(m.group(1)) for m in _MARK.finditer(text)]


def chronicle_steps(text: str) -> list[Step]:
    """The steps (turns and the GM's records) whose blocks a chronicle text holds, in order."""
    return [(int(m.group(1)), int(m.group(2) or 0)) for m in _ANY_MARK.finditer(text)]


def trimmed_chronicle(text: str, keep_upto: int | Step) -> str:
    """``text`` cut before the first block after ``keep_upto``: a step, or a turn number (that
    turn and the GM's records after it are kept).

    Text before the first block (the title, the GM's notes) is kept.
    """
    last = (keep_upto, float("inf")) if isinstance(keep_upto, int) else as_step(keep_upto)
    for m in _ANY_MARK.finditer(text):
        if (int(m.group(1)), int(m.group(2) or 0)) > last:
            return text[:m.start()].rstrip("\n") + "\n"
    return text


def appended_chronicle(text: str | None, title: str, turn: int | Step, block: str,
                       header: Sequence[str] = ()) -> str:
    """``text`` (or a new chronicle titled ``title``, with the ``header`` lines under the title:
    a campaign's house rules) with the block of ``turn`` (a turn, or the step of a GM's record)
    at the end.

    A line of ``block`` that looks like a block marker is defused (a backslash in front), so
    no text in a block can ever start a block of its own.
    """
    text = text if text is not None else f"# {title}\n" + "".join(f"\n{line}\n" for line in header)
    body = _ANY_MARK.sub(lambda m: "\\" + m.group(0), block.strip())
    return text.rstrip("\n") + f"\n\n{block_mark(turn)}\n{body}\n"


class History:
    """The history folder, chronicles and journal of one campaign file."""

    def __init__(self, campaign: str | os.PathLike[str]):
        self.campaign = Path(campaign)
        self.dir = history_dir(campaign)
        self.chronicles = chronicle_paths(campaign)
        self.journal = Journal(self.dir / "JOURNAL", self.campaign.parent, self._own_file)

    # ------------------------------------------------------------------ files
    def snapshot_path(self, turn: int | Step) -> Path:
        """The campaign text after a turn (``turn-0003.yaml``) or a GM's record (a step:
        ``turn-0003.r1.yaml``)."""
        return self.dir / f"{self._stem(turn)}.yaml"

    def events_path(self, turn: int | Step) -> Path:
        return self.dir / f"{self._stem(turn)}.events.jsonl"

    @staticmethod
    def _stem(turn: int | Step) -> str:
        t, n = as_step(turn)
        return f"turn-{t:04d}" + (f".r{n}" if n else "")

    def broken_path(self, turn: int) -> Path:
        """Where an unreadable campaign text is kept when undo/redo replace it."""
        return self.dir / f"broken-turn-{turn:04d}.yaml"

    def _own_file(self, name: str) -> bool:
        """Is ``name`` (relative to the campaign's folder) one of the files the journal may
        write?"""
        top = {self.campaign.name, *(p.name for p in self.chronicles.values())}
        if name in top:
            return True
        folder, _, rest = name.partition("/")
        return folder == self.dir.name and re.fullmatch(_OWN, rest) is not None \
            and rest != "JOURNAL"

    def check(self) -> None:
        """Refuse a history folder that is a symbolic link, not a folder, or holds a link."""
        if self.dir.is_symlink():
            raise HistoryError(f"{self.dir} is a symbolic link; factionsim reads a campaign's "
                               "history only from a real folder beside it. Replace the link with "
                               "the folder itself.")
        if not os.path.lexists(self.dir):
            return
        if not self.dir.is_dir():
            raise HistoryError(f"{self.dir} is not a folder; it should hold the history of "
                               f"{self.campaign}. Move it away and run the command again.")
        try:
            entries = list(os.scandir(self.dir))
        except OSError as exc:
            raise FileProblem(f"cannot list {self.dir}: {exc.strerror}.") from None
        for entry in entries:
            if entry.is_symlink():
                raise HistoryError(
                    f"{entry.path} is a symbolic link; factionsim never follows links in a "
                    "history folder (a shared campaign could point undo at any file on this "
                    "machine). Delete the link, or replace it with the file itself.")

    def _read(self, path: Path) -> str | None:
        try:
            return read_own_file(path)
        except FileNotFoundError:
            return None

    def turns(self) -> list[int]:
        """Turns with a snapshot, in order (the redo stack included)."""
        return sorted(int(m.group(1)) for p in self._entries() if (m := _SNAPSHOT.match(p)))

    def steps(self) -> list[Step]:
        """Every step with a snapshot, in order: the turns and the GM's records between them
        (the redo stack included)."""
        return sorted((int(m.group(1)), int(m.group(2) or 0)) for p in self._entries()
                      if p.endswith(".yaml") and (m := _STEP_FILE.match(p)))

    def _entries(self) -> list[str]:
        if not self.dir.is_dir() or self.dir.is_symlink():
            return []
        return os.listdir(self.dir)

    def snapshot(self, turn: int | Step) -> str | None:
        return self._read(self.snapshot_path(turn))

    def snapshot_data(self, turn: int | Step) -> dict[str, Any] | None:
        """A snapshot's campaign data, parsed by the campaign loader (``None`` when absent)."""
        text = self.snapshot(turn)
        if text is None:
            return None
        path = self.snapshot_path(turn)
        try:
            return load_campaign_data(path, text=text)[0]
        except CampaignError as exc:
            why = str(exc)
        except (yaml.YAMLError, RecursionError, ValueError) as exc:  # the loader's own limits
            why = f"{path}: cannot be read as YAML ({str(exc).splitlines()[0]})"
        raise HistoryError(f"{why} (a snapshot in the history of {self.campaign}; delete it or "
                           "put back a good copy)")

    def events(self, turn: int | Step) -> list[Event]:
        """The stored events of ``turn`` (empty when none were recorded)."""
        path = self.events_path(turn)
        text = self._read(path)
        out: list[Event] = []
        for i, line in enumerate((text or "").splitlines(), 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                out.append(event_from_dict(d))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise HistoryError(
                    f"{path}, line {i}: not an event factionsim wrote ({type(exc).__name__}: "
                    f"{exc}); each line must be a JSON object with turn, kind and faction. Put "
                    "back a good copy or delete the file (that turn's chronicle is then empty)."
                ) from None
        return out

    @property
    def head(self) -> int | None:
        """The turn ``HEAD`` names (``None`` when missing or not a number)."""
        step = self.head_step
        return step[0] if step is not None else None

    @property
    def head_step(self) -> Step | None:
        """The step ``HEAD`` names (``3`` or ``3.2``: turn 3, the GM's record 2 after it);
        ``None`` when missing or not a step."""
        text = self._read(self.dir / "HEAD")
        if text is None or not re.fullmatch(r"\d+(?:\.\d+)?", text.strip()):
            return None
        turn, _, n = text.strip().partition(".")
        return int(turn), int(n or 0)

    def chronicle_text(self, view: str) -> str | None:
        return self._read(self.chronicles[view])

    def chronicle_turns(self, view: str) -> list[int]:
        """The turns whose blocks the ``view`` chronicle holds."""
        return chronicle_turns(self.chronicle_text(view) or "")

    # ------------------------------------------------------------------ where the file is
    def read_campaign(self, lenient: bool = False) -> str:
        """The campaign file's text (read once by each command that changes it). Text that is
        not UTF-8 is a :class:`CampaignError`, or with ``lenient`` decoded with its bad bytes kept
        as surrogates (undo and redo keep such a file aside, byte for byte)."""
        try:
            data = self.campaign.read_bytes()
        except FileNotFoundError:
            raise CampaignError(f"{self.campaign}: campaign file not found; give the path of an "
                                "existing campaign file.") from None
        except IsADirectoryError:
            raise CampaignError(f"{self.campaign}: is a folder, not a campaign file; give the "
                                "path of a YAML file.") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if lenient:
                return data.decode("utf-8", "surrogateescape")
            raise CampaignError(f"{self.campaign}: cannot be read as UTF-8 text (byte "
                                f"{exc.start}); campaign files must be UTF-8 YAML.") from None

    def position(self, text: str) -> tuple[int, bool]:
        """``(turn, broken)``: the turn the campaign ``text`` is at, and whether the text is
        unreadable as a campaign (then the turn is ``HEAD``'s, else the latest recorded)."""
        turn = campaign_turn(text, str(self.campaign))
        if turn is not None:
            return turn, False
        head = self.head
        if head is None:
            recorded = self.turns()
            if not recorded:
                raise HistoryError(f"{self.campaign} cannot be read as a campaign and its history "
                                   f"({self.dir}) records no turn to go back to.")
            head = recorded[-1]
        return head, True

    def current_turn(self) -> int:
        """The turn the campaign file is at."""
        return self.position(self.read_campaign())[0]

    def step_position(self, text: str) -> tuple[Step, bool]:
        """Like :meth:`position`, the step: the turn of ``text`` and, when ``HEAD`` names a GM's
        record after that turn, that record (the file is at it, or was edited by hand since)."""
        turn, broken = self.position(text)
        head = self.head_step
        return (head if head is not None and head[0] == turn else (turn, 0)), broken

    # ------------------------------------------------------------------ committing
    def recover(self) -> bool:
        """Before a command changes the campaign (holding its lock): finish a change a killed
        command committed, and delete the temporary files killed writes left (the campaign's
        own file names only). ``True`` when an interrupted change was finished."""
        self.check()
        finished = self.journal.recover()
        names = "|".join(re.escape(n) for n in (self.campaign.name,
                                                 *(p.name for p in self.chronicles.values())))
        remove_temp_files(self.campaign.parent, [temp_file_pattern(names)])
        if self.dir.is_dir():
            remove_temp_files(self.dir, [temp_file_pattern(_OWN)])
        return finished

    def _commit(self, writes: Mapping[Path, str], deletes: Iterable[Path] = ()) -> None:
        def rel(p: Path) -> str:  # the journal's names: relative to the campaign's folder
            return f"{self.dir.name}/{p.name}" if p.parent == self.dir else p.name

        self.journal.commit({rel(p): t for p, t in writes.items()}, [rel(p) for p in deletes])

    def _recorded_after(self, step: int | Step) -> list[Path]:
        """The snapshot and events files of the steps after ``step`` (the redo stack)."""
        out = []
        last = as_step(step)
        for name in self._entries():
            m = _STEP_FILE.match(name)
            if m and (int(m.group(1)), int(m.group(2) or 0)) > last:
                out.append(self.dir / name)
        return sorted(out)

    def _chronicles(self, keep_upto: int | Step, turn: int | Step | None,
                    blocks: Mapping[str, str] | None,
                    titles: Mapping[str, str] | None, header: Sequence[str] = ()
                    ) -> dict[Path, str]:
        """Both chronicles cut after ``keep_upto`` and, given ``turn``, with its block appended
        (a new chronicle starts with its title and the ``header`` lines; an empty block, a GM's
        record the players may not know of, adds nothing)."""
        out: dict[Path, str] = {}
        for view, path in self.chronicles.items():
            old = self.chronicle_text(view)
            new = trimmed_chronicle(old, keep_upto) if old is not None else None
            if turn is not None and blocks is not None and titles is not None and blocks[view]:
                new = appended_chronicle(new, titles[view], turn, blocks[view], header)
            if new is not None and new != old:
                out[path] = new
        return out

    def record_turn(self, before: str, before_turn: int | Step, after: str, turn: int | Step,
                    events: Iterable[Event], blocks: Mapping[str, str],
                    titles: Mapping[str, str], header: Sequence[str] = ()) -> None:
        """Commit one played turn (or one GM's record: ``turn`` is then its step) as a unit: the
        snapshot ``before`` (when the file was edited since it was recorded), the snapshot
        ``after`` and the events of ``turn``, ``HEAD``, each chronicle's ``blocks[view]`` (a new
        chronicle titled ``titles[view]``, the ``header`` lines under its title), the campaign
        file, and the redo stack beyond ``before_turn`` (a turn or a step) dropped."""
        writes: dict[Path, str] = {}
        if self.snapshot(before_turn) != before:
            writes[self.snapshot_path(before_turn)] = before
        writes[self.events_path(turn)] = event_lines(events)
        writes[self.snapshot_path(turn)] = after
        writes[self.dir / "HEAD"] = f"{step_text(as_step(turn))}\n"
        writes.update(self._chronicles(as_step(before_turn), turn, blocks, titles, header))
        writes[self.campaign] = after
        self._commit(writes, self._recorded_after(before_turn))

    def _keep_current(self, text: str, writes: dict[Path, str]) -> int:
        """Before undo/redo replace the campaign text: keep it (a hand edit becomes its turn's
        snapshot; an unreadable text is kept as ``broken-turn-N.yaml``). Returns its turn."""
        now, broken = self.step_position(text)
        if broken:  # kept at once, byte for byte (its own file: not part of any turn)
            write_atomic(self.broken_path(now[0]), text.encode("utf-8", "surrogateescape"))
        elif self.snapshot(now) != text:
            writes[self.snapshot_path(now)] = text
        return now[0]

    def undo_to(self, target: int | Step, text: str) -> int | Step:
        """Put the campaign (whose current ``text`` is given) back at recorded turn ``target``
        (or step: a GM's record) and cut both chronicles after it; returns ``target``."""
        return self._move_to(target, text, self._chronicles(as_step(target), None, None, None))

    def redo_to(self, target: int | Step, text: str, blocks: Mapping[str, str],
                titles: Mapping[str, str], header: Sequence[str] = ()) -> int | Step:
        """Put the campaign forward to recorded turn (or step) ``target``, appending its
        chronicle ``blocks`` (``titles`` and ``header``: as :meth:`record_turn`); returns
        ``target``."""
        earlier = [s for s in self.steps() if s < as_step(target)]
        keep = earlier[-1] if earlier else (as_step(target)[0] - 1, 0)
        return self._move_to(target, text, self._chronicles(keep, target, blocks, titles, header))

    def _move_to(self, target: int | Step, text: str, chronicles: dict[Path, str]) -> int | Step:
        """Commit the campaign at snapshot ``target`` with ``HEAD`` and the ``chronicles``."""
        snapshot = self.snapshot(target)
        if snapshot is None:
            raise HistoryError(f"{self.snapshot_path(target)} is missing; cannot move "
                               f"{self.campaign} to turn {target}.")
        writes: dict[Path, str] = {}
        self._keep_current(text, writes)
        writes[self.dir / "HEAD"] = f"{step_text(as_step(target))}\n"
        writes.update(chronicles)
        writes[self.campaign] = snapshot
        self._commit(writes)
        return target
