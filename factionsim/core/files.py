"""Reading and writing files safely: whole files or nothing, no links followed, clear OS errors.

- :func:`write_atomic` replaces a file with new text so that readers (and a crash) see the old
  file or the new one, never half of it; it refuses to replace a read-only file.
- :func:`read_own_file` reads a file factionsim manages (history, chronicles) without following
  a symbolic link: a link shipped in a shared campaign folder cannot make factionsim read (and
  then copy into the campaign) a file outside it.
- :func:`os_error_text` is the one place an operating-system error (permission denied, disk
  full, read-only file system...) becomes a sentence for the GM: the file, the system's reason
  and what to do. :class:`FileProblem` carries it; the command line prints it with exit code 2.
- :func:`remove_temp_files` deletes the temporary files :func:`write_atomic` leaves behind when
  a process is killed mid-write (``.NAME.XXXXXXXX.tmp``), for the names it is given only.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(d / "a.txt", "hello\\n")
>>> read_own_file(d / "a.txt")
'hello\\n'
>>> os_error_text(OSError(28, "No space left on device", "c.yaml"), "write")
'cannot write c.yaml: No space left on device (ENOSPC); free some disk space and run the command again.'
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .game import FactionsimError


class FileProblem(FactionsimError, OSError):
    """A file that cannot be read or written: the message names it and the system's reason
    (an :class:`OSError` too, for callers that catch those)."""


#: What the GM can do about the common system errors.
_ADVICE = {
    errno.ENOSPC: "free some disk space and run the command again",
    errno.EDQUOT: "free some space within your disk quota and run the command again",
    errno.EROFS: "the folder is on a read-only file system; copy the campaign somewhere writable",
    errno.EACCES: "check the permissions of the file and of its folder",
    errno.EPERM: "check the permissions of the file and of its folder",
    errno.ENOENT: "check the path",
    errno.ENOTDIR: "a part of the path is a file, not a folder; check the path",
    errno.EISDIR: "it is a folder; give the path of a file",
    errno.ELOOP: "it is a symbolic link, which factionsim does not follow here; replace it with "
                 "the file itself",
    errno.EMFILE: "too many open files; close some programs and run the command again",
    errno.ENAMETOOLONG: "use a shorter path",
    errno.EIO: "the disk reported an input/output error; check the disk",
}


def os_error_text(exc: OSError, action: str | None = None, path: str | os.PathLike[str] | None = None
                  ) -> str:
    """One sentence for an OS error: ``cannot <action> <file>: <reason> (<ERRNO>); <advice>.``

    ``path`` names the file (rather than a temporary file, or nothing for errors raised on an
    open handle); without it the error's own file names are used.
    """
    name = path if path is not None else exc.filename
    if path is None and exc.filename2 is not None:
        name = f"{name} -> {exc.filename2}"
    reason = exc.strerror or str(exc) or type(exc).__name__
    code = errno.errorcode.get(exc.errno or -1)
    head = f"cannot {action} {name}" if action and name is not None else (
        f"{name}" if name is not None else f"cannot {action or 'use a file'}")
    text = f"{head}: {reason}" + (f" ({code})" if code else "")
    advice = _ADVICE.get(exc.errno or -1)
    return text + (f"; {advice}." if advice else ".")


def check_writable(path: Path) -> None:
    """Refuse to replace a read-only file (no write permission bit, or none for this user).

    A missing file is fine (it will be created). Raises :class:`FileProblem`.
    """
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileProblem(os_error_text(exc, "check", path)) from None
    if stat.S_ISLNK(st.st_mode):
        return  # replacing a link replaces the link itself, never its target
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise FileProblem(
            f"{path} is read-only (mode {stat.filemode(st.st_mode)}); factionsim does not replace "
            f"a read-only file. Make it writable (chmod u+w {path}) if it is meant to change.")


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (UTF-8; bytes as they are) so that readers see the old or
    the new file only.

    The text goes to a temporary file ``.NAME.XXXXXXXX.tmp`` in the same folder, is flushed and
    fsynced, then renamed over ``path``; on any failure the old file is left as it was, the
    temporary file is removed and :class:`FileProblem` names the file and the system's reason.
    A read-only ``path`` is refused (see :func:`check_writable`).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
    except UnicodeEncodeError as exc:
        raise FileProblem(
            f"cannot write {path}: the text holds a character that UTF-8 cannot store "
            f"({exc.object[exc.start]!r} at character {exc.start}, a lone surrogate from an "
            f"escape in the campaign file); remove it from the campaign. {path} was left as it "
            "was.") from None
    check_writable(path)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise FileProblem(os_error_text(exc, "write", path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise FileProblem(os_error_text(exc, "write", path) + f" {path} was left as it was."
                              ) from None
        raise
    sync_folder(directory)


def same_file(a: Path, b: Path) -> bool:
    """Are ``a`` and ``b`` the same file (links and ``..`` resolved; either may not exist)?"""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def sync_folder(directory: Path) -> None:
    """Make renames in ``directory`` durable (best effort: not every system allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def read_own_file(path: Path) -> str:
    """The UTF-8 text of a file factionsim manages, never through a symbolic link.

    Raises :class:`FileProblem` for a link, an unreadable file or text that is not UTF-8;
    :class:`FileNotFoundError` (untranslated) for a missing one, which callers treat as absent.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileProblem(
                f"{path} is a symbolic link; factionsim never follows links among a campaign's "
                "own files (a shared folder could point it at any file on this machine). "
                "Replace the link with the file itself, or delete it.") from None
        raise FileProblem(os_error_text(exc, "read", path)) from None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise FileProblem(f"{path} is not a regular file; remove it or put the file back.")
            data = handle.read()
    except OSError as exc:
        raise FileProblem(os_error_text(exc, "read", path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"{path} cannot be read as UTF-8 text (byte {exc.start}); it is not a "
                          "file factionsim wrote, or it was damaged.") from None


#: ``tempfile.mkstemp`` names: 8 characters from this alphabet between the prefix and suffix.
_TEMP_TAIL = r"\.[a-z0-9_]{8}\.tmp"


def temp_file_pattern(name_pattern: str) -> re.Pattern[str]:
    """The temporary files :func:`write_atomic` makes for files whose names match
    ``name_pattern`` (a regular expression)."""
    return re.compile(rf"\.(?:{name_pattern}){_TEMP_TAIL}")


def remove_temp_files(directory: Path, patterns: Iterable[re.Pattern[str]]) -> list[Path]:
    """Delete the leftover temporary files in ``directory`` whose whole names match one of
    ``patterns`` (see :func:`temp_file_pattern`); returns them. Only regular files are removed;
    call it while holding the campaign's lock (another writer's temporary file is in use)."""
    removed: list[Path] = []
    patterns = list(patterns)
    try:
        entries = list(os.scandir(directory))
    except FileNotFoundError:
        return removed
    except OSError as exc:
        raise FileProblem(os_error_text(exc, "list", directory)) from None
    for entry in entries:
        if not any(p.fullmatch(entry.name) for p in patterns):
            continue
        if entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise FileProblem(os_error_text(exc, "remove the leftover file", entry.path)
                                  ) from None
            removed.append(Path(entry.path))
    return removed
