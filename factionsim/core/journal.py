"""Several files that change together or not at all: a write-ahead journal.

A :class:`Journal` commits a set of new file texts (and files to delete) in three steps:

1. the whole change (every file's new text, every file to delete) is written to the journal
   file, atomically (a temporary file, fsync, rename). The rename is the commit point: before
   it nothing has changed; after it the change is decided, even if the process dies now;
2. each file is replaced in turn (atomically, one by one), then the deletions are made;
3. the journal file is deleted.

A process killed during step 2 or 3 leaves the journal behind; :meth:`Journal.recover`, which
every command that writes these files calls first (under the files' lock), finishes the change
from the journal (replacing a file with the same text twice is harmless). A process killed
before the commit point leaves no journal, only perhaps a temporary file, which
:func:`~factionsim.core.files.remove_temp_files` cleans. So the files are always seen, after the
next command, either all before or all after the change.

A journal file names its files relative to one folder, and :meth:`Journal.recover` applies only
names the owner allows (``allowed``): a crafted journal in a shared folder cannot write
anywhere else.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> j = Journal(d / "JOURNAL", d, allowed=lambda name: name in ("a.txt", "b.txt"))
>>> j.commit({"a.txt": "one\\n", "b.txt": "two\\n"})
>>> sorted(p.name for p in d.iterdir()), (d / "b.txt").read_text()
(['a.txt', 'b.txt'], 'two\\n')
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .files import FileProblem, check_writable, os_error_text, read_own_file, sync_folder, write_atomic
from .game import FactionsimError

FORMAT = "factionsim-journal/1"


class JournalError(FactionsimError):
    """A journal file that factionsim did not write (or that was damaged)."""


class Journal:
    """The journal file ``path`` of the files under ``root`` whose relative names pass
    ``allowed``."""

    def __init__(self, path: Path, root: Path, allowed: Callable[[str], bool]):
        self.path = Path(path)
        self.root = Path(root)
        self.allowed = allowed

    def pending(self) -> bool:
        """Is a committed change waiting to be finished (a process died during it)?"""
        return os.path.lexists(self.path)

    def commit(self, writes: Mapping[str, str], deletes: Iterable[str] = ()) -> None:
        """Change the files: ``writes`` maps relative names to new texts, ``deletes`` lists
        names to remove. All happen, or (if this fails before the commit point) none."""
        writes, deletes = dict(writes), [d for d in dict.fromkeys(deletes) if d not in writes]
        for name in (*writes, *deletes):
            if not self.allowed(name):
                raise ValueError(f"journal of {self.root}: {name!r} is not one of its files")
        for name in writes:  # a read-only file refuses the change before anything is written
            check_writable(self.root / name)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": FORMAT, "writes": [[k, v] for k, v in writes.items()],
                           "deletes": deletes}, ensure_ascii=False)
        write_atomic(self.path, text + "\n")  # the commit point
        self._apply(writes, deletes)

    def recover(self) -> bool:
        """Finish a change a killed process committed; ``True`` when there was one."""
        if not self.pending():
            return False
        writes, deletes = self._read()
        self._apply(writes, deletes)
        return True

    # ------------------------------------------------------------------ inside
    def _read(self) -> tuple[dict[str, str], list[str]]:
        try:
            data = json.loads(read_own_file(self.path))
        except (FileProblem, ValueError) as exc:
            raise JournalError(self._foreign(f"it cannot be read ({exc})")) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise JournalError(self._foreign("it does not start as factionsim's journals do"))
        writes, deletes = data.get("writes"), data.get("deletes")
        if not (isinstance(writes, list) and isinstance(deletes, list)
                and all(isinstance(w, list) and len(w) == 2 and all(isinstance(x, str) for x in w)
                        for w in writes) and all(isinstance(d, str) for d in deletes)):
            raise JournalError(self._foreign("its entries are not a list of files and texts"))
        for name in [w[0] for w in writes] + deletes:
            if not self.allowed(name):
                raise JournalError(self._foreign(f"it names {name!r}, which is not one of the "
                                                 "campaign's own files"))
        return dict((k, v) for k, v in writes), deletes

    def _foreign(self, why: str) -> str:
        return (f"{self.path}: this journal of an unfinished change was not written by "
                f"factionsim ({why}); nothing was changed. Delete {self.path} and run the command "
                "again (check that the campaign and its history are as you expect).")

    def _apply(self, writes: dict[str, str], deletes: list[str]) -> None:
        try:
            for name, text in writes.items():
                target = self.root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, text)
            for name in deletes:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.root / name)
            os.unlink(self.path)
        except (FileProblem, OSError) as exc:
            why = str(exc) if isinstance(exc, FileProblem) else os_error_text(exc, "change")
            raise FileProblem(
                f"{why} The change was recorded in {self.path} and will be completed by the next "
                "factionsim command on this campaign once the problem is fixed.") from None
        sync_folder(self.path.parent)
