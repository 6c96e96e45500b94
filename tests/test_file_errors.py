"""Issue 17, items 4 and 6 (the file side): every OS error and every broken or foreign file gives
a clean error.

"Every bad input is a clean error: exit 2, one paragraph naming file, line and field, and the
allowed values, no traceback -- for every command (validate, run, turn, undo, redo, show,
report, batch, tournament, new) and every ruleset, including ... OS errors."
"`--out` that would overwrite the input, a read-only campaign file and symlinks inside a history
folder get clear errors." "undo crashing on a broken file -- exactly when a GM needs it."
"""

from __future__ import annotations

import builtins
import errno
import io
import os
import pathlib
import stat
import tempfile
from pathlib import Path

import pytest
from file_safety_helpers import assert_consistent, leftovers, played, tree, turn_of

from factionsim.cli import main
from factionsim.core.history import History

OS_ERRORS = [(errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system"),
             (errno.EACCES, "Permission denied")]


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A campaign played 2 turns and undone 1 (so turn, undo and redo all have work)."""
    c = played(tmp_path / "camp", 2)
    assert main(["undo", str(c), "--quiet"]) == 0
    return c.parent


def writers(f: Path) -> dict[str, list[str]]:
    """Every command that writes, each writing into ``f``."""
    c = str(f / "march.yaml")
    return {
        "turn": ["turn", c, "--quiet"], "undo": ["undo", c, "--quiet"],
        "redo": ["redo", c, "--quiet"], "new": ["new", str(f / "new.yaml"), "--quiet"],
        "run": ["run", c, "--turns", "1", "--out", str(f / "out"), "--quiet"],
        "report": ["report", c, "-o", str(f / "r.html"), "--quiet"],
        "schema": ["schema", "-o", str(f / "s.json"), "--quiet"],
        "batch": ["batch", c, "--runs", "1", "--turns", "1", "--out", str(f / "b"), "--quiet"],
        "tournament": ["tournament", "--agents", "random,idle", "--games", "1", "--turns", "1",
                       "--campaign", c, "--out", str(f / "t"), "--quiet"],
    }


def readers(f: Path) -> dict[str, list[str]]:
    """Every command that reads the campaign file."""
    c = str(f / "march.yaml")
    return {**{k: v for k, v in writers(f).items() if k not in ("new", "schema")},
            "validate": ["validate", c], "show": ["show", c]}


def clean_error(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1, err  # one paragraph
    for needle in needles:
        assert needle in err, (needle, err)
    return err


@pytest.mark.parametrize("code,reason", OS_ERRORS)
def test_every_writing_command_reports_os_errors_cleanly(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        code: int, reason: str) -> None:
    """A write refused by the system (disk full, read-only file system, permission denied):
    exit 2, one paragraph with the file and the system's reason, no file changed or left."""
    commands = writers(folder)
    before = tree(folder)

    def refuse(*args: object, **kwargs: object) -> None:  # as the system's: with the file names
        raise OSError(code, reason, *[str(a) for a in args[:2] if isinstance(a, str | os.PathLike)])

    for name, argv in commands.items():
        with monkeypatch.context() as m:
            for target, attr in ((os, "replace"), (tempfile, "mkstemp"), (os, "mkdir")):
                m.setattr(target, attr, refuse)
            assert main(argv) == 2, name
        err = clean_error(capsys, reason, errno.errorcode[code])
        assert str(folder) in err, (name, err)
        assert tree(folder) == before, name
        assert not leftovers(folder), name


@pytest.mark.parametrize("code,reason", [(errno.EACCES, "Permission denied"), (errno.EIO, "I/O error")])
def test_every_reading_command_reports_read_errors_cleanly(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        code: int, reason: str) -> None:
    """A campaign file (or its history) the system will not let us read: exit 2, a paragraph
    naming it and the reason."""
    real_open, real_os_open = io.open, os.open

    def guarded(file: object, *args: object, **kwargs: object) -> object:
        if str(folder) in str(file) and not str(file).endswith(".lock"):
            raise OSError(code, reason, str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    def guarded_os(file: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(folder) in str(file) and not str(file).endswith(".lock"):
            raise OSError(code, reason, str(file))
        return real_os_open(file, flags, *args, **kwargs)  # type: ignore[arg-type]

    before = tree(folder)
    for name, argv in readers(folder).items():
        with monkeypatch.context() as m:
            m.setattr(io, "open", guarded)
            m.setattr(builtins, "open", guarded)
            m.setattr(pathlib.io, "open", guarded)  # type: ignore[attr-defined]
            m.setattr(os, "open", guarded_os)
            assert main(argv) == 2, name
        clean_error(capsys, reason, str(folder))
        assert tree(folder) == before, name


def test_disk_full_after_the_commit_point_is_finished_by_the_next_command(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The disk fills up while a committed turn is being applied: a clean error that says the
    change will be completed, and the next command completes it."""
    c = folder / "march.yaml"
    calls = [0]
    real = os.replace

    def replace(*args: object) -> None:
        calls[0] += 1
        if calls[0] == 3:  # the journal (1) and a file (2) are in place
            raise OSError(errno.ENOSPC, "No space left on device")
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    assert main(["turn", str(c), "--quiet"]) == 2
    monkeypatch.setattr(os, "replace", real)
    clean_error(capsys, "No space left on device", "completed by the next factionsim command")
    assert History(c).journal.pending()
    assert main(["show", str(c)]) == 0 and turn_of(c) == 1  # a reader does not write
    capsys.readouterr()
    assert main(["undo", str(c), "--quiet"]) == 0  # finishes turn 2, then undoes it
    assert turn_of(c) == 1 and History(c).turns() == [0, 1, 2]
    assert_consistent(c)


def test_a_read_only_folder_cannot_be_locked_clear_error(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = os.open

    def no_create(path: object, flags: int, *args: object) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", no_create)
    assert main(["turn", str(folder / "march.yaml")]) == 2
    clean_error(capsys, "cannot create the lock file", ".march.yaml.lock", "Read-only file system")


# --------------------------------------------------------------------------- broken files
BROKEN_TEXTS = {"broken YAML": b"ruleset: wwn\nturn: [\n", "empty": b"",
                "not UTF-8": b"\xff\xfe\x00garbage", "turn not a number": b"ruleset: wwn\nturn: lots\n",
                "a list": b"- 1\n- 2\n"}


@pytest.mark.parametrize("kind", BROKEN_TEXTS)
def test_undo_works_on_a_broken_campaign_file(folder: Path, kind: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """"undo crashing on a broken file -- exactly when a GM needs it": undo puts back the turn
    before HEAD, keeps the broken text aside, and redo brings the good turn back; turn refuses
    the broken file with a clean error."""
    c = folder / "march.yaml"
    h = History(c)
    good = c.read_text()
    c.write_bytes(BROKEN_TEXTS[kind])
    assert main(["turn", str(c), "--quiet"]) == 2
    clean_error(capsys, str(c))
    assert main(["undo", str(c)]) == 0
    out = capsys.readouterr().out
    assert "could not be read as a campaign" in out and "broken-turn-0001.yaml" in out
    assert c.read_text() == h.snapshot(0) and h.head == 0
    assert h.broken_path(1).read_bytes() == BROKEN_TEXTS[kind]  # byte for byte
    assert_consistent(c)
    assert main(["redo", str(c), "--quiet"]) == 0
    assert c.read_text() == good
    assert_consistent(c)


def test_redo_on_a_broken_campaign_file_keeps_it_aside(folder: Path) -> None:
    c = folder / "march.yaml"
    c.write_text("ruleset: [")
    assert main(["redo", str(c), "--quiet"]) == 0
    assert History(c).broken_path(1).read_text() == "ruleset: ["
    assert turn_of(c) == 2
    assert_consistent(c)


def test_broken_history_files_are_clean_errors(folder: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    c = folder / "march.yaml"
    h = History(c)
    h.events_path(2).write_text('{"turn": 2, "kind": "income"}\nnot json\n')
    assert main(["redo", str(c)]) == 2
    clean_error(capsys, f"{h.events_path(2)}, line 2", "not an event")
    h.events_path(2).write_text("")
    h.snapshot_path(2).write_text("ruleset: wwn\nfactions: [\n")
    assert main(["redo", str(c)]) == 2
    clean_error(capsys, str(h.snapshot_path(2)), "broken YAML")
    h.snapshot_path(0).write_bytes(b"\xff\xfe")
    assert main(["undo", str(c)]) == 2
    clean_error(capsys, str(h.snapshot_path(0)), "UTF-8")
    assert main(["report", str(c), "--quiet"]) == 2
    clean_error(capsys, str(h.snapshot_path(0)))
    (h.dir / "HEAD").write_text("garbage")
    c.write_text("{{{")
    h.snapshot_path(0).write_text("turn: 0\n")
    assert main(["undo", str(c), "--quiet"]) == 0  # HEAD unreadable: the latest recorded turn
    assert c.read_text() == h.snapshot(1)


def test_a_history_folder_that_is_a_file_is_a_clean_error(folder: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    c = folder / "march.yaml"
    h = History(c)
    for p in sorted(h.dir.iterdir()):
        p.unlink()
    h.dir.rmdir()
    h.dir.write_text("x")
    for command in ("turn", "undo", "redo"):
        assert main([command, str(c)]) == 2
        clean_error(capsys, str(h.dir))


# --------------------------------------------------------------------------- links, read-only, --out
def test_a_symlink_in_the_history_folder_is_refused(folder: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """"a symlink shipped in a campaign's history folder lets undo copy an outside file into
    the campaign": refused, for every command that reads the history; nothing is copied."""
    c = folder / "march.yaml"
    h = History(c)
    secret = tmp_path / "secret.yaml"
    secret.write_text(h.snapshot(0).replace("name: The Shattered March", "name: SECRET"))
    h.snapshot_path(0).unlink()
    h.snapshot_path(0).symlink_to(secret)
    before = tree(folder)
    for argv in (["undo", str(c)], ["redo", str(c)], ["turn", str(c)],
                 ["report", str(c), "-o", str(tmp_path / "r.html")]):
        assert main(argv) == 2, argv
        clean_error(capsys, str(h.snapshot_path(0)), "symbolic link")
        assert tree(folder) == before
        assert b"SECRET" not in c.read_bytes()


def test_a_linked_history_folder_or_chronicle_is_refused(folder: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    c = folder / "march.yaml"
    h = History(c)
    moved = tmp_path / "elsewhere"
    h.dir.rename(moved)
    h.dir.symlink_to(moved)
    assert main(["undo", str(c)]) == 2
    clean_error(capsys, "symbolic link")
    h.dir.unlink()
    moved.rename(h.dir)
    gm = folder / "march.chronicle.md"
    outside = tmp_path / "passwords.txt"
    outside.write_text("hunter2\n")
    gm.unlink()
    gm.symlink_to(outside)
    assert main(["turn", str(c)]) == 2
    clean_error(capsys, str(gm), "symbolic link")
    assert outside.read_text() == "hunter2\n" and gm.is_symlink()


def test_a_read_only_campaign_file_is_not_replaced(folder: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """"a read-only campaign file is silently replaced": now a clear error, and nothing of the
    turn is written (not its history either)."""
    c = folder / "march.yaml"
    c.chmod(0o444)
    before = tree(folder)
    for command in ("turn", "undo", "redo"):
        assert main([command, str(c)]) == 2
        clean_error(capsys, f"{c} is read-only", "chmod u+w")
        assert tree(folder) == before
        assert stat.S_IMODE(c.stat().st_mode) == 0o444
    c.chmod(0o644)
    assert main(["turn", str(c), "--quiet"]) == 0


def test_run_refuses_to_write_over_its_own_input(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """"`run c.yaml --out .` overwrites its own input": refused, however the folder is named."""
    c = played(tmp_path / "x", 0).rename(tmp_path / "x" / "campaign.yaml")
    text = c.read_bytes()
    (tmp_path / "link").symlink_to(tmp_path / "x")
    for out in (str(c.parent), str(c.parent) + "/", str(tmp_path / "x" / ".." / "x"),
                str(tmp_path / "link")):
        assert main(["run", str(c), "--turns", "1", "--out", out, "--quiet"]) == 2
        clean_error(capsys, "over its own input")
        assert c.read_bytes() == text
    assert main(["report", str(c), "-o", str(c), "--quiet"]) == 2
    clean_error(capsys, "over the campaign file")
    assert c.read_bytes() == text


@pytest.mark.parametrize("argv", [
    ["run", "--seed", "-1"], ["run", "--seed", "1.5"], ["run", "--seed", "lots"],
    ["new", "x.yaml", "--seed", "-5"], ["batch", "--seed", "-1"],
    ["tournament", "--agents", "random", "--seed", "-2"], ["run", "--seed", str(2**64)],
])
def test_a_bad_seed_is_a_clean_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """"a negative --seed" crashed: now argparse's one-line usage error, exit 2."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "a seed is a whole number from 0 to" in err
    assert "Traceback" not in err
