"""The systemd units `pbem init` writes, for the way pbem was installed, and whether they can work.

Two kinds (`UnitKind`):

* ``user``: a user unit, run by the MJ's own systemd (``systemctl --user``), as the MJ.  It is the one that
  works when pbem or the game folder lives in a home directory: pipx as the MJ (``~/.local/bin/pbem``), a
  venv in the MJ's home.  ``loginctl enable-linger`` keeps it running when the MJ is logged out.
* ``system``: a system unit run as a dedicated user (``User=pbem``), hardened, that may write only the game
  folder.  It can work only when that user can reach both the program and the folder: neither under a
  home directory (Debian's homes are private, and the unit has ``ProtectHome=read-only``), e.g. a venv in
  ``/opt/pbem`` and a folder in ``/srv/pbem``.

`unit_kind` chooses from where the program and the folder are; `unit_problems` (for `pbem doctor`) reads
the units of a folder and says, for each, whether its user can read the folder, write its data and run
its program.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

UnitKind = Literal["user", "system"]

UNIT_FILES = ("pbem.service", "pbem-tick.service", "pbem-tick.timer")

_HOMES = (Path("/home"), Path("/root"))


def under_home(path: Path) -> bool:
    """Is ``path`` in a home directory (``/home/…``, ``/root``, or this user's ``$HOME``)?"""
    path = path.resolve()
    homes = [*_HOMES, Path.home().resolve()]
    return any(path == h or h in path.parents for h in homes if str(h) != "/")


def unit_kind(folder: Path, program: str) -> UnitKind:
    """``user`` when the program or the folder is in a home directory (pipx, a venv in one's home), else
    ``system`` (a dedicated user can reach both)."""
    executable = Path(program.split()[0])
    return "user" if under_home(folder) or under_home(executable) else "system"


# seccomp and no-new-privileges work in a user manager too; the mount-namespace options (ProtectSystem,
# PrivateTmp…) need privileges a user manager lacks, so only the system unit has them
_COMMON_HARDENING = """NoNewPrivileges=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RestrictRealtime=yes
SystemCallArchitectures=native
UMask=0077"""


def _system_hardening(folder: Path, user: str) -> str:
    return f"""User={user}
Group={user}
WorkingDirectory={folder}
# hardening: the service writes only its own folder, and cannot gain privileges
ProtectSystem=strict
ReadWritePaths={folder}
ProtectHome=read-only
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
ProtectClock=yes
RestrictNamespaces=yes
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
CapabilityBoundingSet=
{_COMMON_HARDENING}"""


def _user_hardening(folder: Path) -> str:
    return f"""WorkingDirectory={folder}
# runs as you, with your systemd (systemctl --user): it cannot gain privileges
{_COMMON_HARDENING}"""


def systemd_units(folder: Path, pbem: str, user: str = "pbem", kind: UnitKind = "system") -> dict[str, str]:
    """``pbem.service`` (the daemon), ``pbem-tick.service`` + ``pbem-tick.timer`` (a pass every 5 minutes),
    for ``kind``; each says in its comments how to install it."""
    if kind == "user":
        hardening = _user_hardening(folder)
        target = "default.target"
        install = (f"# Install (as yourself, no sudo): mkdir -p ~/.config/systemd/user\n"
                   f"#   cp {folder}/systemd/{{files}} ~/.config/systemd/user/ && systemctl --user daemon-reload\n"
                   f"#   systemctl --user enable --now {{unit}}\n"
                   f"#   loginctl enable-linger      # keeps it running while you are logged out\n"
                   f"# Logs: journalctl --user -u {{log}}")
    else:
        hardening = _system_hardening(folder, user)
        target = "multi-user.target"
        install = (f"# Install: sudo useradd --system --home-dir {folder} --shell /usr/sbin/nologin {user}\n"
                   f"#   sudo chown -R {user}: {folder}       # the MJ's commands then run as {user}: "
                   f"sudo -u {user} {pbem} …\n"
                   f"#   sudo cp {folder}/systemd/{{files}} /etc/systemd/system/ && sudo systemctl daemon-reload\n"
                   f"#   sudo systemctl enable --now {{unit}}\n"
                   f"# Logs: journalctl -u {{log}}")
    kind_line = ("# A user unit: pbem or its folder is in a home directory (pipx, a venv of yours), so it runs as you."
                 if kind == "user" else
                 f"# A system unit run as the dedicated user {user}, who must reach {pbem} and {folder}.")
    return {
        "pbem.service": f"""# The pbem daemon: answers within seconds (IMAP IDLE), fires deadlines on time.
{kind_line}
{install.format(files="pbem.service", unit="pbem", log="pbem")}
# pbem doctor checks that this unit's user can read the folder and run pbem.
[Unit]
Description=pbem play-by-email game master ({folder})
After=network-online.target
Wants=network-online.target
StartLimitIntervalSec=600
StartLimitBurst=5

[Service]
Type=simple
ExecStart={pbem} run
Restart=on-failure
RestartSec=30
{hardening}

[Install]
WantedBy={target}
""",
        "pbem-tick.service": f"""# One pbem pass (fetch, answer, fire deadlines, send), started by pbem-tick.timer.
# Use this pair instead of pbem.service, not beside it.
{kind_line}
[Unit]
Description=pbem pass ({folder})
After=network-online.target
Wants=network-online.target

[Service]
Type=oneshot
ExecStart={pbem} tick
{hardening}
""",
        "pbem-tick.timer": f"""# A pbem pass every five minutes (like cron); a pass missed while the machine was off runs at boot.
{install.format(files="pbem-tick.*", unit="pbem-tick.timer", log="pbem-tick")}
[Unit]
Description=pbem pass every five minutes ({folder})

[Timer]
OnCalendar=*:0/5
Persistent=true
RandomizedDelaySec=10

[Install]
WantedBy=timers.target
""",
    }


def cron_line(folder: Path, pbem: str) -> str:
    """The crontab line for a pass every five minutes, with the real paths (cron's PATH has no ~/.local/bin)."""
    return f"*/5 * * * * cd {_quoted(folder)} && {pbem} tick >> data/pbem.log 2>&1"


def _quoted(path: Path) -> str:
    text = str(path)
    return f"'{text}'" if any(c in text for c in " \"'$`\\") and "'" not in text else text


# --- can a unit work: what pbem doctor checks ---


@dataclass(frozen=True)
class Unit:
    """What a unit file says that matters here: who runs it, from where, what."""

    path: Path
    user: str | None  # None: a user unit, run as whoever owns the folder's units (the MJ)
    folder: Path | None
    program: Path | None
    protect_home: bool


def read_unit(path: Path) -> Unit:
    """The ``User=``, ``WorkingDirectory=``, ``ExecStart=`` (its program) and ``ProtectHome=`` of a unit file."""
    keys: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:400]:
        key, sep, value = line.partition("=")
        if sep and not line.lstrip().startswith(("#", ";")):
            keys[key.strip()] = value.strip()
    program = keys.get("ExecStart", "").lstrip("-@:+!").split(" ", 1)[0]
    return Unit(path, keys.get("User") or None, Path(keys["WorkingDirectory"]) if "WorkingDirectory" in keys else None,
                Path(program) if program else None, keys.get("ProtectHome", "no") not in ("no", "false"))


@dataclass(frozen=True)
class Account:
    """A system user as the permission bits see it."""

    name: str
    uid: int
    gids: frozenset[int]


def account(name: str | None) -> Account | None:
    """The account ``name`` (None: the user running pbem), or None when there is no such user."""
    try:
        entry = pwd.getpwnam(name) if name is not None else pwd.getpwuid(os.getuid())
    except KeyError:
        return None
    gids = {entry.pw_gid} | {g.gr_gid for g in grp.getgrall() if entry.pw_name in g.gr_mem}
    return Account(entry.pw_name, entry.pw_uid, frozenset(gids))


def _allowed(st: os.stat_result, who: Account, want: int) -> bool:
    """Do ``st``'s permission bits give ``who`` every right in ``want`` (4 read, 2 write, 1 search/run)?"""
    if who.uid == 0:
        return not (want & 1) or stat.S_ISDIR(st.st_mode) or bool(st.st_mode & 0o111)
    if st.st_uid == who.uid:
        bits = (st.st_mode >> 6) & 7
    elif st.st_gid in who.gids:
        bits = (st.st_mode >> 3) & 7
    else:
        bits = st.st_mode & 7
    return bits & want == want


def reach_problem(path: Path, who: Account, want: int) -> str | None:
    """Why ``who`` cannot use ``path`` with the rights ``want`` (every folder above it searchable), or None.
    Symbolic links are followed, each target checked as well (pipx's ~/.local/bin/pbem is one)."""
    seen = 0
    todo = [path]
    while todo and seen < 40:
        current = todo.pop()
        seen += 1
        parts = current.parts
        for i in range(1, len(parts)):
            above = Path(*parts[:i])
            try:
                st = os.stat(above)
            except OSError as e:
                return f"{above}: {e.strerror}"
            if not _allowed(st, who, 1):
                return f"{above}"
        try:
            st = os.stat(current)
        except OSError as e:
            return f"{current}: {e.strerror}"
        if not _allowed(st, who, want):
            return f"{current}"
        if current.is_symlink():
            target = Path(os.readlink(current))
            todo.append(target if target.is_absolute() else current.parent / target)
    return None


def interpreter(program: Path) -> Path | None:
    """The interpreter a script's ``#!`` line names (a pip or pipx ``pbem`` is a Python script)."""
    try:
        with open(program, "rb") as f:
            first = f.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    return Path(words[0]) if words else None


def installed_copy(unit: Path) -> Path | None:
    """The installed unit of the same name and content (system, or this user's), if there is one."""
    for where in (Path("/etc/systemd/system"), Path.home() / ".config" / "systemd" / "user"):
        copy = where / unit.name
        try:
            if copy.is_file() and copy.read_bytes() == unit.read_bytes():
                return copy
        except OSError:
            continue
    return None


def unit_problems(unit: Unit, lang: str) -> list[str]:
    """What stops ``unit`` from working, in ``lang``: its user missing, the folder it cannot read or write,
    the program (or its Python) it cannot run, a home directory behind ``ProtectHome``.  Empty: it can work."""
    fr = lang != "en"
    who = account(unit.user)
    if who is None:
        return [f"l'utilisateur {unit.user} n'existe pas (sudo useradd --system {unit.user})" if fr
                else f"user {unit.user} does not exist (sudo useradd --system {unit.user})"]
    problems = []
    if unit.folder is not None:
        for path, want, what_fr, what_en in ((unit.folder, 7, "lire et écrire le dossier", "read and write the folder"),
                                             (unit.folder / "data", 7, "écrire les données", "write the data")):
            if path == unit.folder / "data" and not path.exists():
                continue
            blocked = reach_problem(path, who, want)
            if blocked is not None:
                problems.append(f"{who.name} ne peut pas {what_fr} {path} (bloqué à {blocked})" if fr
                                else f"{who.name} cannot {what_en} {path} (blocked at {blocked})")
    if unit.program is not None:
        runs = [unit.program]
        python = interpreter(unit.program)
        if python is not None:
            runs.append(python)
        for program in runs:
            blocked = reach_problem(program, who, 5)
            if blocked is not None:
                problems.append(f"{who.name} ne peut pas lancer {program} (bloqué à {blocked})" if fr
                                else f"{who.name} cannot run {program} (blocked at {blocked})")
    if unit.protect_home:
        homes = [p for p in (unit.folder, unit.program) if p is not None and under_home(p)]
        for path in homes:
            problems.append(f"ProtectHome=read-only cache {path} à ce service\u00a0; prenez l'unité utilisateur "
                            "(pbem systemd --kind user)" if fr else
                            f"ProtectHome=read-only hides {path} from this service: use the user unit "
                            "(pbem systemd --kind user)")
    return problems
