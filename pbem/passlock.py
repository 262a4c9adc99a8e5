"""One pass at a time on a database: an exclusive lock on a file beside it.

`pbem tick` from cron, a second cron line, and `pbem run` may all start a pass on the
same data: two at once would read the same new mail twice and fight over the database.
Each pass holds this lock while it works.  The lock is `flock(2)` on ``<database>.lock``:
the operating system frees it when its process ends, however it ends (SIGKILL, power
cut), so a crashed pass never leaves a stale lock behind.  The file's text says who holds
it, since when, for the one-line message of the pass that has to wait or step aside.
"""

from __future__ import annotations

import fcntl
import os
import time
from datetime import datetime, timedelta
from pathlib import Path

from pbem.clock import iso, parse_iso, utcnow

STUCK_AFTER = timedelta(minutes=15)
"""A pass holding the lock longer than this is reported as possibly stuck (sending is bounded per pass,
so a healthy pass takes seconds to a few minutes)."""


class PassLock:
    """The lock of the pass on one database (``<database>.lock``)."""

    def __init__(self, database: str | os.PathLike[str]) -> None:
        self.path = Path(f"{os.fspath(database)}.lock")
        self._fd: int | None = None

    def acquire(self, wait_seconds: float = 0.0, *, who: str = "pbem") -> bool:
        """Take the lock, waiting at most ``wait_seconds`` for the pass holding it; False if still held."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + max(wait_seconds, 0.0)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {iso(utcnow())} {who}\n".encode(), 0)
        self._fd = fd
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def holder(self) -> tuple[int | None, datetime | None, str]:
        """(pid, since when, what) of the pass holding the lock, as far as its file says."""
        try:
            words = self.path.read_text(encoding="utf-8", errors="replace").split(maxsplit=2)
        except OSError:
            return None, None, ""
        try:
            return int(words[0]), parse_iso(words[1]), words[2].strip() if len(words) > 2 else ""
        except (IndexError, ValueError):
            return None, None, ""

    def describe_holder(self, now: datetime | None = None, lang: str = "en") -> tuple[str, bool]:
        """A few words on the pass holding the lock (in ``lang``), and whether it looks stuck (held over
        `STUCK_AFTER`)."""
        fr = lang != "en"
        pid, since, what = self.holder()
        if since is None:
            return (f"une autre passe (verrou {self.path})" if fr else f"another pass (lock {self.path})"), False
        held = (now or utcnow()) - since
        minutes = int(held.total_seconds() // 60)
        age = f"{minutes}\u00a0min" if minutes else f"{int(held.total_seconds())}\u00a0s"
        if fr:
            return f"{what or 'une passe'} (pid {pid}, depuis {age}\u00a0; verrou {self.path})", held > STUCK_AFTER
        return f"{what or 'a pass'} (pid {pid}, running for {age.replace(chr(0xA0), ' ')}; lock {self.path})", \
            held > STUCK_AFTER

    def __enter__(self) -> PassLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
