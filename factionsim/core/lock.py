"""One writer at a time: an exclusive lock on a campaign file.

Every command that changes a campaign file (``turn``, ``undo``, ``redo``, ``new``, ``foundry
import``, ``run`` for the campaign it writes) holds the campaign's lock while it reads and
writes it. The lock is an operating-system lock (``flock``) on the file ``.march.yaml.lock``
beside ``march.yaml``: the system releases it when the process ends, even after ``kill -9``, so
a crashed command never leaves a campaign locked. The holder writes its process id into the file
(for the message a second command prints) and deletes the file when it is done.

A second command either refuses at once (the default) or, with ``--wait SECONDS``, waits up to
that long for the first to finish:

>>> import tempfile, pathlib
>>> c = pathlib.Path(tempfile.mkdtemp()) / "march.yaml"
>>> with campaign_lock(c):
...     try:
...         with campaign_lock(c):
...             pass
...     except CampaignBusy as exc:
...         print(f"pid {os.getpid()}" in str(exc))
True
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path

from .files import FileProblem, os_error_text
from .game import FactionsimError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; see lock_file()
    fcntl = None  # type: ignore[assignment]

#: How often a waiting command tries again (seconds).
POLL_S = 0.05


class CampaignBusy(FactionsimError):
    """Another command holds the campaign's lock."""


def lock_path(campaign: str | os.PathLike[str]) -> Path:
    """``march.yaml`` -> ``.march.yaml.lock`` (beside it)."""
    p = Path(campaign)
    return p.with_name(f".{p.name}.lock")


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        pid = int(os.pread(fd, 32, 0).decode("ascii").strip())
        return f" (pid {pid})"
    return ""


def _open(path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileProblem(f"{path} is a symbolic link; the lock file of a campaign must be a "
                              "plain file. Delete the link and run the command again.") from None
        raise FileProblem(os_error_text(exc, "create the lock file", path)
                          + " (factionsim locks a campaign while it changes it)") from None


def _try_lock(path: Path) -> tuple[int | None, str]:
    """One attempt: ``(fd, "")`` holding the lock on the file now at ``path``, or
    ``(None, holder)`` when another process holds it."""
    while True:
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _holder(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return None, holder
            raise FileProblem(os_error_text(exc, "lock", path)) from None
        # The previous holder deletes the file as it lets go: a lock won on a deleted file
        # guards nothing, so check that ours is still the file at `path`.
        try:
            now = os.stat(path, follow_symlinks=False)
            mine = os.fstat(fd)
            if (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev):
                return fd, ""
        except FileNotFoundError:
            pass
        os.close(fd)


@contextlib.contextmanager
def campaign_lock(campaign: str | os.PathLike[str], wait: float = 0.0) -> Iterator[None]:
    """Hold the exclusive lock of ``campaign`` for the ``with`` block.

    Raises :class:`CampaignBusy` when another process holds it for longer than ``wait``
    seconds (0: do not wait), :class:`~factionsim.core.files.FileProblem` when the lock file
    cannot be made (a read-only folder, say).
    """
    path = lock_path(campaign)
    if fcntl is None:  # pragma: no cover - no flock on this system: no lock
        yield
        return
    deadline = time.monotonic() + max(0.0, wait)
    while True:
        fd, holder = _try_lock(path)
        if fd is not None:
            break
        left = deadline - time.monotonic()
        if left <= 0:
            waited = f" (waited {wait:g} s)" if wait > 0 else ""
            raise CampaignBusy(
                f"another factionsim command is writing {campaign}{holder}{waited}; try again "
                "when it has finished, or add --wait SECONDS to wait for it.")
        time.sleep(min(POLL_S, left))
    try:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # before letting go: see _try_lock
        os.close(fd)
