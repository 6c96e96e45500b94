"""Helpers of the file-safety tests: folder contents, consistency of a campaign with its history
and chronicles, and commands run in a forked child that can crash or be killed."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.history import History, campaign_turn

#: exit status of a child that "crashed" at the chosen step
CRASHED = 99


@contextmanager
def fast_folder(fallback: Path) -> Iterator[Path]:
    """A scratch folder in memory (``/dev/shm``) when the system has one, else ``fallback``:
    the crash tests make thousands of fsync calls, which cost milliseconds each on a disk and
    nothing in memory (the rename and unlink semantics under test are the same)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix="factionsim-test-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``: relative name -> bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def new_campaign(folder: Path, ruleset: str = "wwn", name: str = "march.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    shutil.copy(default_campaign_path(ruleset), path)
    return path


def played(folder: Path, turns: int, ruleset: str = "wwn") -> Path:
    """A bundled campaign in ``folder`` after ``turns`` turns, one ``turn`` command each."""
    path = new_campaign(folder, ruleset)
    for _ in range(turns):
        assert main(["turn", str(path), "--quiet"]) == 0
    return path


def turn_of(path: Path) -> int:
    turn = campaign_turn(path.read_text(encoding="utf-8"), str(path))
    assert turn is not None
    return turn


def assert_consistent(path: Path) -> None:
    """The campaign file, its history and its chronicles agree: the file is the snapshot of the
    turn HEAD names, every recorded turn has its events, and both chronicles hold exactly the
    blocks of turns 1..HEAD, once each and in order."""
    h = History(path)
    head = h.head
    if head is None:  # nothing recorded yet (a first turn that never reached its commit)
        assert h.turns() == [] and turn_of(path) == 0
        assert all(h.chronicle_text(v) is None for v in ("gm", "players"))
        return
    assert head == turn_of(path), (head, turn_of(path))
    assert h.snapshot(head) == path.read_text(encoding="utf-8")
    for t in h.turns():
        if t > 0:
            assert h.events_path(t).is_file(), t
    for view in ("gm", "players"):
        assert h.chronicle_turns(view) == list(range(1, head + 1)), (view, head)


def leftovers(folder: Path) -> list[str]:
    """Temporary files, journals and lock files under ``folder``."""
    return [p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.name.endswith(".tmp") or p.name in ("JOURNAL",) or p.name.endswith(".lock")]


def in_child(fn: Callable[[], int], kill_after: float | None = None) -> int:
    """Run ``fn`` in a forked child process; its exit status (``-9`` when killed with SIGKILL
    after ``kill_after`` seconds)."""
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 70
        try:
            code = fn()
        finally:
            os._exit(code if isinstance(code, int) else 70)
    if kill_after is not None:
        time.sleep(kill_after)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def crash_at(step: int) -> None:
    """In a child: make the process die abruptly (no cleanup, as with ``kill -9``) just before
    its ``step``-th file operation that changes which files are there (``os.replace``: a
    temporary file is written but not renamed yet; ``os.unlink``), counted from 0."""
    count = [0]

    def wrap(fn: Callable[..., object]) -> Callable[..., object]:
        def inner(*args: object, **kwargs: object) -> object:
            if count[0] == step:
                os._exit(CRASHED)
            count[0] += 1
            return fn(*args, **kwargs)
        return inner

    os.replace = wrap(os.replace)  # type: ignore[assignment]
    os.unlink = wrap(os.unlink)  # type: ignore[assignment]


def crash_trials(start: Path, argv: list[str], check: Callable[[Path, int], None],
                 limit: int = 300) -> int:
    """Copy the folder ``start`` and run the command ``argv`` (``{c}`` is the campaign path)
    in a child that crashes at step 0, 1, 2... until it runs to the end; ``check(campaign,
    step)`` judges each crashed copy. Returns the number of crash points tried."""
    for step in range(limit):
        folder = start.parent / f"{start.name}-crash-{step}"
        shutil.copytree(start, folder)
        campaign = folder / "march.yaml"
        args = [a.replace("{c}", str(campaign)) for a in argv]

        def run(args: list[str] = args, step: int = step) -> int:
            crash_at(step)
            return main(args)

        code = in_child(run)
        if code != CRASHED:
            assert code == 0, (step, code)
            shutil.rmtree(folder)
            return step
        check(campaign, step)
        shutil.rmtree(folder)
    raise AssertionError(f"{argv} did not finish within {limit} file operations")
