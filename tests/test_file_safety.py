"""Issue 17, item 2: one writer at a time, and a turn committed as a unit.

"Every command that writes a campaign (turn, undo, redo, ...) takes an exclusive lock on it,
reads it once, and gives a clear message when another command holds it (optionally --wait
SECONDS). Campaign, history snapshot, events and chronicle blocks of one turn are committed
together: after a kill at any moment, the file, its history and its chronicles agree (a turn is
either fully there or fully absent), and leftover temporary files are cleaned up by the next
command."

The crash tests run each command in a forked child that dies (``os._exit``, no cleanup, like
``kill -9``) just before its k-th file operation, for every k until the command completes; the
next command must then leave the folder byte-identical to a run that was never interrupted (the
dice of a replayed turn are fixed by the saved generator). ``FACTIONSIM_KILL_TRIALS`` and
``FACTIONSIM_CONCURRENT_TRIALS`` raise the number of random ``SIGKILL`` trials (default 4) and of
two-writer trials of each kind (default 2) for a longer run.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path

import pytest
from file_safety_helpers import (
    assert_consistent,
    crash_trials,
    fast_folder,
    in_child,
    leftovers,
    new_campaign,
    played,
    tree,
    turn_of,
)

from factionsim.cli import main
from factionsim.commands.gm import changing
from factionsim.core.history import History
from factionsim.core.lock import campaign_lock, lock_path

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork (POSIX)")

KILL_TRIALS = int(os.environ.get("FACTIONSIM_KILL_TRIALS", "4"))
CONCURRENT_TRIALS = int(os.environ.get("FACTIONSIM_CONCURRENT_TRIALS", "2"))


@pytest.fixture()
def scratch(tmp_path: Path) -> Iterator[Path]:
    """A scratch folder in memory when the system has one (see ``fast_folder``)."""
    with fast_folder(tmp_path) as folder:
        yield folder


def recover(campaign: Path) -> None:
    """What the next command does first (under the lock)."""
    with changing(campaign, Namespace(wait=5.0, quiet=True)):
        pass


def reference(tmp_path: Path, name: str, *argvs: list[str]) -> dict[str, bytes]:
    """The folder after the given commands, never interrupted."""
    folder = tmp_path / name
    c = new_campaign(folder)
    for argv in argvs:
        assert main([a.replace("{c}", str(c)) for a in argv]) == 0
    return tree(folder)


TURN = ["turn", "{c}", "--quiet"]
UNDO = ["undo", "{c}", "--quiet"]
REDO = ["redo", "{c}", "--quiet"]


# --------------------------------------------------------------------------- crash at every step
def test_a_turn_killed_at_any_step_is_whole_or_absent(scratch: Path) -> None:
    """Kill `turn` before each of its file operations: before the next command the campaign is
    consistent or a journal is pending; after it the turn is fully there or fully absent, and
    playing on gives the very files of an uninterrupted game, with no leftover files."""
    start = played(scratch / "start", 1).parent
    want = reference(scratch, "ref", TURN, TURN)
    outcomes = {"absent": 0, "committed": 0}

    def check(c: Path, step: int) -> None:
        if not History(c).journal.pending():
            assert_consistent(c)  # the kill came before the commit point or after the end
        recover(c)
        assert_consistent(c)
        assert not leftovers(c.parent), (step, leftovers(c.parent))
        assert turn_of(c) in (1, 2)
        outcomes["committed" if turn_of(c) == 2 else "absent"] += 1
        if turn_of(c) == 1:
            assert main(["turn", str(c), "--quiet"]) == 0
        assert tree(c.parent) == want, step

    steps = crash_trials(start, TURN, check)
    print(f"turn: killed at each of its {steps} file operations: {outcomes}")
    assert steps >= 8 and outcomes["absent"] > 0 and outcomes["committed"] > 0, outcomes


@pytest.mark.parametrize("command,before,back_at", [
    (UNDO, [TURN, TURN, TURN], 3),
    (REDO, [TURN, TURN, TURN, ["undo", "{c}", "--turns", "2", "--quiet"]], 1)])
def test_undo_and_redo_killed_at_any_step_are_whole_or_absent(
        scratch: Path, command: list[str], before: list[list[str]], back_at: int) -> None:
    """The same for `undo` and `redo` (the campaign file, HEAD and both chronicles move
    together): after the next command, the step is done or not, and doing it again (when not)
    gives the files of an uninterrupted run."""
    want = reference(scratch, "ref", *before, command)
    start = new_campaign(scratch / "start")
    for argv in before:
        assert main([a.replace("{c}", str(start)) for a in argv]) == 0

    def check(c: Path, step: int) -> None:
        recover(c)
        assert_consistent(c)
        if turn_of(c) == back_at:
            assert main([a.replace("{c}", str(c)) for a in command]) == 0
        assert tree(c.parent) == want, step

    steps = crash_trials(start.parent, command, check)
    print(f"{command[0]}: killed at each of its {steps} file operations, all whole or absent")
    assert steps >= 4


def test_sigkill_at_random_moments_loses_no_turn(scratch: Path) -> None:
    """`kill -9` a `turn --turns 4` at random moments (KILL_TRIALS times): the next commands
    finish or replay what was cut, and the folder ends as an uninterrupted game's."""
    want = reference(scratch, "ref", ["turn", "{c}", "--turns", "4", "--quiet"])
    timing = new_campaign(scratch / "timing")
    began = time.monotonic()
    assert in_child(lambda: main(["turn", str(timing), "--turns", "4", "--quiet"])) == 0
    duration = time.monotonic() - began
    rng = random.Random(17)
    killed = 0
    for trial in range(KILL_TRIALS):
        c = new_campaign(scratch / f"kill-{trial}")
        code = in_child(lambda c=c: main(["turn", str(c), "--turns", "4", "--quiet"]),
                        kill_after=rng.uniform(0.0, duration))
        killed += code == -9
        recover(c)
        assert_consistent(c)
        assert not leftovers(c.parent)
        while turn_of(c) < 4:
            assert main(["turn", str(c), "--quiet"]) == 0
        assert tree(c.parent) == want, trial
    print(f"{KILL_TRIALS} SIGKILL trials, {killed} killed mid-command, 0 lost or doubled turns")
    assert killed >= 1


# --------------------------------------------------------------------------- one writer
def test_a_second_writer_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    """While a command holds the lock, `turn`/`undo`/`redo` stop at once: exit 2, one paragraph
    naming the file and the holder's pid, and --wait as the way out; nothing changes."""
    c = played(tmp_path / "c", 1)
    before = tree(c.parent)
    err = tmp_path / "err.txt"
    with campaign_lock(c):
        for command in ("turn", "undo", "redo"):
            def run(command: str = command) -> int:
                with open(err, "w") as sys.stderr:  # the child's own standard error
                    return main([command, str(c)])

            assert in_child(run) == 2
            message = err.read_text()
            assert f"another factionsim command is writing {c} (pid {os.getpid()})" in message
            assert "--wait SECONDS" in message and "Traceback" not in message
            assert message.count("\n") == 1  # one paragraph
    assert not lock_path(c).exists()  # the holder removes it as it lets go
    assert tree(c.parent) == before


def test_wait_waits_for_the_other_writer(tmp_path: Path) -> None:
    """--wait SECONDS: the command waits for the lock, then plays."""
    c = played(tmp_path / "c", 1)
    holding = threading.Event()

    def hold() -> None:
        with campaign_lock(c):
            holding.set()
            time.sleep(0.6)

    t = threading.Thread(target=hold)
    t.start()
    holding.wait()
    began = time.monotonic()
    assert main(["turn", str(c), "--wait", "30", "--quiet"]) == 0
    assert time.monotonic() - began >= 0.4
    t.join()
    assert turn_of(c) == 2
    assert_consistent(c)
    for bad in ("-1", "soon", "nan"):  # a clean usage error (exit 2), not a traceback
        with pytest.raises(SystemExit) as stop:
            main(["turn", str(c), "--wait", bad])
        assert stop.value.code == 2


def test_two_turn_commands_at_once_lose_no_turn(scratch: Path) -> None:
    """Two `turn --turns 2` on one file at the same moment: with --wait both play, one after
    the other (4 turns, the files of an uninterrupted 4-turn game); without it the second may
    be refused, never both half-done: the file has 2 turns per command that succeeded."""
    want = {n: reference(scratch, f"ref-{n}", *[TURN] * n) for n in (2, 4)}
    for trial in range(CONCURRENT_TRIALS):
        c = new_campaign(scratch / f"wait-{trial}")
        pid = os.fork()
        if pid == 0:
            os._exit(main(["turn", str(c), "--turns", "2", "--wait", "60", "--quiet"]))
        mine = main(["turn", str(c), "--turns", "2", "--wait", "60", "--quiet"])
        _, status = os.waitpid(pid, 0)
        assert (mine, os.waitstatus_to_exitcode(status)) == (0, 0)
        assert tree(c.parent) == want[4]
    refused = 0
    for trial in range(CONCURRENT_TRIALS):
        c = new_campaign(scratch / f"nowait-{trial}")
        pid = os.fork()
        if pid == 0:
            os._exit(main(["turn", str(c), "--turns", "2", "--quiet"]))
        mine = main(["turn", str(c), "--turns", "2", "--quiet"])
        _, status = os.waitpid(pid, 0)
        codes = [mine, os.waitstatus_to_exitcode(status)]
        assert set(codes) <= {0, 2} and 0 in codes
        assert tree(c.parent) == want[2 * codes.count(0)]
        refused += codes.count(2)
    print(f"{CONCURRENT_TRIALS} x 2 two-writer trials: 0 lost turns; without --wait "
          f"{refused} of {2 * CONCURRENT_TRIALS} commands were refused")


def test_two_real_processes_with_wait(tmp_path: Path) -> None:
    """The same with two `python -m factionsim turn` processes started together."""
    want = reference(tmp_path, "ref", *[TURN] * 4)
    c = new_campaign(tmp_path / "c")
    cmd = [sys.executable, "-m", "factionsim", "turn", str(c), "--turns", "2", "--wait", "120",
           "--json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert sorted(json.loads(o)["from_turn"] for o, _ in outs) == [0, 2]
    assert tree(c.parent) == want


def test_turn_reads_the_campaign_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"turn also reads the file twice, so a history snapshot can carry the wrong turn label":
    now it reads it once, under the lock, and the snapshot is that very text."""
    c = played(tmp_path / "c", 1)
    text = c.read_text()
    reads: list[str] = []
    for method in ("read_text", "read_bytes"):
        original = getattr(Path, method)

        def spy(self: Path, *a: object, _original=original, _m=method, **k: object) -> object:
            if self == c:
                reads.append(_m)
            return _original(self, *a, **k)

        monkeypatch.setattr(Path, method, spy)
    assert main(["turn", str(c), "--quiet"]) == 0
    assert len(reads) == 1, reads
    assert History(c).snapshot(1) == text


# --------------------------------------------------------------------------- leftovers
def test_the_next_command_removes_our_leftover_temporary_files_only(tmp_path: Path) -> None:
    """"leftover temporary files are cleaned up by the next command": the temporary files of
    the campaign's own files go; anything else (other names, other patterns, folders) stays."""
    c = played(tmp_path / "c", 1)
    h = History(c)
    ours = [c.parent / ".march.yaml.ab3_x9zq.tmp", c.parent / ".march.chronicle.md.qqqqqqqq.tmp",
            h.dir / ".HEAD.abcdefgh.tmp", h.dir / ".turn-0002.yaml.0123abcd.tmp",
            h.dir / ".JOURNAL.zzzzzzzz.tmp"]
    theirs = [c.parent / ".other.yaml.abcdefgh.tmp", c.parent / ".march.yaml.short.tmp",
              c.parent / ".march.yaml.ABCDEFGH.tmp",
              c.parent / "march.yaml.abcdefgh.tmp", c.parent / "notes.txt",
              h.dir / ".notes.abcdefgh.tmp", h.dir / "mine.txt"]
    for p in ours + theirs:
        p.write_text("x")
    (c.parent / ".march.yaml.folder99.tmp").mkdir()
    assert main(["turn", str(c), "--quiet"]) == 0
    assert [p for p in ours if p.exists()] == []
    assert all(p.read_text() == "x" for p in theirs)
    assert (c.parent / ".march.yaml.folder99.tmp").is_dir()
    assert_consistent(c)


def test_a_journal_that_names_other_files_is_refused(tmp_path: Path) -> None:
    """A journal from a shared folder cannot write outside the campaign's own files."""
    c = played(tmp_path / "c", 1)
    before = tree(c.parent)
    for writes in ([["../outside.txt", "pwned"]], [["march.yaml.history/../../x", "y"]],
                   [["/etc/x", "y"]], [["notes.txt", "y"]]):
        journal = History(c).journal.path
        journal.write_text(json.dumps({"format": "factionsim-journal/1", "writes": writes,
                                       "deletes": []}))
        assert main(["turn", str(c), "--quiet"]) == 2
        journal.unlink()
        assert tree(c.parent) == before
        assert not (tmp_path / "outside.txt").exists()
    journal.write_text("not json")
    assert main(["undo", str(c), "--quiet"]) == 2
    journal.unlink()
    assert tree(c.parent) == before


def interrupt_a_turn_after_its_commit(c: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play a turn of ``c`` that stops right after its commit point: the journal is left
    pending and the campaign still at its old turn."""
    from factionsim.core.journal import Journal

    apply = Journal._apply
    turn = turn_of(c)

    def stop(self: Journal, writes: object, deletes: object) -> None:
        raise KeyboardInterrupt  # interrupted right after the commit point

    monkeypatch.setattr(Journal, "_apply", stop)
    assert main(["turn", str(c), "--quiet"]) == 130
    monkeypatch.setattr(Journal, "_apply", apply)
    assert History(c).journal.pending() and turn_of(c) == turn


def test_report_finishes_a_pending_turn_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader of the history (report) finishes a committed change before reading it."""
    c = played(tmp_path / "c", 1)
    interrupt_a_turn_after_its_commit(c, monkeypatch)
    assert main(["report", str(c), "-o", str(tmp_path / "r.html"), "--quiet"]) == 0
    assert not History(c).journal.pending()
    assert turn_of(c) == 2
    assert_consistent(c)


def test_foundry_import_is_a_writer_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`foundry import --into CAMPAIGN` changes the campaign: it takes the lock like `turn`
    (refused while another command writes, nothing changed), and finishes a turn a killed
    command left committed before it reads the campaign."""
    from foundry_helpers import EXAMPLES

    c = played(tmp_path / "c", 1)
    before = tree(c.parent)
    err = tmp_path / "err.txt"
    argv = ["foundry", "import", str(EXAMPLES[0]), "--into", str(c), "--quiet"]
    with campaign_lock(c):
        def run() -> int:
            with open(err, "w") as sys.stderr:  # the child's own standard error
                return main(argv)

        assert in_child(run) == 2
    assert f"another factionsim command is writing {c}" in err.read_text()
    assert tree(c.parent) == before
    # a turn interrupted right after its commit point is finished before the import reads
    interrupt_a_turn_after_its_commit(c, monkeypatch)
    assert main(argv) == 0
    assert not History(c).journal.pending() and turn_of(c) == 2
    assert "foundry:" in c.read_text(encoding="utf-8")  # the import wrote the turn-2 campaign
