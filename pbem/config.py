"""Reading and checking `config.toml`: every error names the key and says what is expected."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem import limits
from pbem.core import GameOptions, SetupError
from pbem.msg import Msg, PbemError
from pbem.wording import number


class ConfigError(PbemError):
    """A config value is missing or wrong; the message names the key and says what is expected.

    ``fr`` is the same message in French (without it, the English is said in French too).
    """

    def __init__(self, en: str, fr: str | None = None):
        super().__init__(Msg(fr or en, en))

    def text(self, lang: str = "fr") -> str:
        return self.msg.get(lang)


@dataclass(frozen=True)
class Duration:
    """A step length: whole days keep the wall-clock time across DST; ``at`` rounds to a local time of day."""

    days: int = 0
    seconds: int = 0
    at: tuple[int, int] | None = None  # (hour, minute) local

    @property
    def delta(self) -> timedelta:
        return timedelta(days=self.days, seconds=self.seconds)

    @property
    def empty(self) -> bool:
        """No time at all (``"0h"``): not a step length."""
        return not self.days and not self.seconds and self.at is None


_DURATION = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*(?:@\s*(\d{1,2})[:h](\d{2}))?\s*$")


def parse_duration(value: Any, key: str) -> Duration:
    """``48`` (hours), ``"2d"``, ``"36h"``, ``"90m"``, ``"2d@21:00"`` (two days, then the next 21:00 local)."""
    if isinstance(value, bool):
        raise ConfigError(f"{key}: expected a duration like 48, \"2d\", \"36h\" or \"2d@21:00\", got {value!r}",
                          f"{key} : une durée comme 48, \"2d\", \"36h\" ou \"2d@21:00\", pas {value!r}")
    if isinstance(value, (int, float)):
        return Duration(seconds=int(value * 3600))
    m = _DURATION.match(str(value))
    if not m or not any(m.groups()):
        raise ConfigError(f"{key}: expected a duration like 48, \"2d\", \"36h\" or \"2d@21:00\", got {value!r}",
                          f"{key} : une durée comme 48, \"2d\", \"36h\" ou \"2d@21:00\", pas {value!r}")
    d, h, mins, ah, am = m.groups()
    at = (int(ah), int(am)) if ah is not None else None
    if at and not (0 <= at[0] < 24 and 0 <= at[1] < 60):
        raise ConfigError(f"{key}: time of day {ah}:{am} is not a valid HH:MM",
                          f"{key} : {ah}:{am} n'est pas une heure valable (HH:MM)")
    return Duration(days=int(d or 0), seconds=int(h or 0) * 3600 + int(mins or 0) * 60, at=at)


@dataclass(frozen=True)
class SecretSource:
    """Where a password or OAuth2 token comes from: an environment variable or a command's output."""

    env: str | None = None
    command: str | None = None


@dataclass(frozen=True)
class MailboxConfig:
    kind: str  # maildir | imap
    path: str = "data/mail/inbox"
    host: str = ""
    port: int = 993
    user: str = ""
    password: SecretSource = field(default_factory=SecretSource)
    oauth2_token: SecretSource | None = None
    security: str = "ssl"  # ssl | starttls | none
    cafile: str | None = None
    folder: str = "INBOX"
    processed_folder: str | None = None
    batch_size: int = 500
    idle: bool = True
    trusted_authserv: tuple[str, ...] = ("mx.google.com",)
    """The authserv-id of the server that delivers to this mailbox: the one whose Authentication-Results
    (the topmost header) `auth` believes (``pbem doctor`` reads it from the newest mails)."""


@dataclass(frozen=True)
class OutboxConfig:
    kind: str  # maildir | smtp
    path: str = "data/mail/outbox"
    host: str = ""
    port: int = 587
    user: str = ""
    password: SecretSource = field(default_factory=SecretSource)
    oauth2_token: SecretSource | None = None
    security: str = "starttls"
    cafile: str | None = None
    retry_days: float = 5.0
    """A mail not sent this long after it was queued fails (temporary failures are retried until then)."""
    retry_base_seconds: int = 60
    """The first wait after a temporary failure; it doubles at each attempt, up to ``retry_max_seconds``."""
    retry_max_seconds: int = 1800
    timeout_seconds: float = 30.0
    """How long an SMTP command may go unanswered (a stalled server costs at most this per command)."""
    connect_timeout_seconds: float = 10.0
    """How long connecting and the server's greeting may take."""
    send_budget_seconds: float = 60.0
    """Sending stops after this long in a pass (the rest goes in the next), so a slow server never holds
    reading mail and deadlines back."""


@dataclass(frozen=True)
class GameConfig:
    id: str
    ruleset: str
    tag: str
    title: str = ""
    language: str = "fr"
    mj: tuple[str, ...] = ()
    forum_address: str = ""
    registration: Duration = field(default_factory=lambda: Duration(days=3))
    deadlines: Mapping[str, Duration] = field(default_factory=dict)
    reminder_hours: tuple[float, ...] = (24.0,)
    early_resolution: bool = True
    early_delay_minutes: int = 30
    after_early: str | None = None
    """``calendar`` | ``length``: the deadline after an early resolution (docs/guide-mj.md); None when the
    config does not say: the game's own choice (`Context.after_early`), else ``calendar``."""
    grace: Duration | None = None  # orders still accepted this long after the deadline, while the step is open
    nmr_alert: int = 2  # the MJ digest names a player silent this many steps in a row (0: never)
    nmr_abandon: int = 0  # silent this many steps in a row: abandoned, no longer waited for (0: never)
    auth: str = "none"  # none | dkim | spf | dkim_or_spf
    trusted_authserv: tuple[str, ...] = ("mx.google.com",)
    """The mailbox's `MailboxConfig.trusted_authserv`, or the game's own list (an older config) when the
    mailbox sets none."""
    passwords: bool = False
    min_players: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    commit_seed: bool = True
    roster: Path | None = None  # TOML file with per-player roles/sheets merged at start
    archive_dir: Path | None = None  # a live archive: refreshed by the pass after each published step
    calendar_file: Path | None = None  # a live calendar (.ics): rewritten by the pass when a date moves
    mj_password: SecretSource | None = None  # with passwords = true, the MJ's own mails carry this one
    pictures: bool = True  # a picture of the public board with each forum post (games that have one)
    # the MJ's seat (docs/guide-mj.md): results held for approval, absences
    publish: str = "auto"  # auto | mj: with "mj", a resolved step's results wait for the MJ's approval
    approval_reminder: Duration = field(default_factory=lambda: Duration(seconds=12 * 3600))
    absence: str = "defaults"  # defaults | wait: an absent player's defaults apply, or the deadline waits
    absence_wait: Duration = field(default_factory=lambda: Duration(days=3))  # the longest a deadline waits


@dataclass(frozen=True)
class Config:
    root: Path
    database: Path
    timezone: ZoneInfo
    language: str
    address: str  # the game address: From of everything we send, never answered
    forum_dir: Path
    poll_seconds: int
    reply_cap_per_hour: int
    mailbox: MailboxConfig
    outbox: OutboxConfig
    games: Mapping[str, GameConfig]
    max_message_bytes: int = limits.MAX_READ_BYTES
    """What pbem reads of a mail, at most (`read_bytes`); never above the hard limit `limits.MAX_READ_BYTES`."""
    max_order_lines: int = 200  # a mail with more lines than this is refused whole (nothing of it applied)
    templates_dir: Path | None = None  # the MJ's template overrides (default: templates/ beside config.toml)
    synchronous: str = "normal"
    """SQLite's ``synchronous`` in WAL mode: ``normal`` survives a killed process, ``full`` a power cut too."""
    lock_wait_seconds: float = 10.0
    """How long a pass waits for the one already running on this database before stepping aside."""
    keep_days: int = 90
    """``[retention] keep_days``: `pbem gc` prunes the bytes of mail processed or sent longer ago than this."""

    @property
    def read_bytes(self) -> int:
        """The cap of the mail reader: ``max_message_bytes``, never above the hard limit (checked at reading, kept
        here too for a Config built in code)."""
        return min(self.max_message_bytes, limits.MAX_READ_BYTES)

    def game(self, game_id: str) -> GameConfig:
        """The settings of a game; a game created with `pbem game new` but absent from config gets defaults."""
        if game_id in self.games:
            return self.games[game_id]
        raise ConfigError(f"games.{game_id}: no such game in config.toml (add a [games.{game_id}] table)",
                          f"games.{game_id} : pas de partie {game_id} dans config.toml (ajoutez une table "
                          f"[games.{game_id}] ; pbem game list donne les parties)")


DEFAULT_DEADLINES = {"turn": Duration(days=2), "short": Duration(days=1)}

_KNOWN_TOP = {"pbem", "mailbox", "outbox", "games", "retention"}
_KNOWN_PBEM = {"database", "timezone", "language", "address", "forum_dir", "poll_seconds", "reply_cap_per_hour",
               "max_message_bytes", "max_order_lines", "synchronous", "lock_wait_seconds", "templates_dir"}
_OUTBOX_ONLY = {"retry_days", "retry_base_seconds", "retry_max_seconds", "timeout_seconds", "connect_timeout_seconds",
                "send_budget_seconds"}
_KNOWN_BOX = {"kind", "path", "host", "port", "user", "password_env", "password_command", "oauth2_token_command",
              "security", "cafile", "folder", "processed_folder", "batch_size", "idle", "trusted_authserv",
              *_OUTBOX_ONLY}
_KNOWN_GAME = {"ruleset", "tag", "title", "language", "mj", "forum_address", "registration", "deadlines",
               "reminder_hours", "early_resolution", "early_delay_minutes", "after_early", "grace", "nmr_alert",
               "nmr_abandon", "auth", "trusted_authserv", "passwords", "min_players", "options", "commit_seed",
               "roster", "mj_password_env", "mj_password_command", "pictures", "archive_dir", "calendar_file"}
_KNOWN_GAME |= {"publish", "approval_reminder", "absence", "absence_wait"}  # the MJ's seat


def _check_keys(table: Mapping[str, Any], known: set[str], where: str) -> None:
    for key in table:
        if key not in known:
            raise ConfigError(f"{where}.{key}: unknown key (expected one of: {', '.join(sorted(known))})",
                              f"{where}.{key} : clé inconnue (clés possibles : {', '.join(sorted(known))})")


_FR_TYPES = {"str": "un texte", "int": "un nombre entier", "bool": "true ou false", "list": "une liste",
             "dict": "une table", "str or list": "un texte ou une liste"}


def _get(table: Mapping[str, Any], key: str, where: str, typ: type | tuple[type, ...], default: Any) -> Any:
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, typ) or (isinstance(value, bool) and typ is int):
        names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
        raise ConfigError(f"{where}.{key}: expected {names}, got {value!r}",
                          f"{where}.{key} : attendu {_FR_TYPES.get(names, names)}, pas {value!r}")
    return value


def _positive(table: Mapping[str, Any], key: str, where: str, default: float) -> float:
    value = _get(table, key, where, (int, float), default)
    if value <= 0:
        raise ConfigError(f"{where}.{key}: expected a positive number, got {value!r}",
                          f"{where}.{key} : attendu un nombre positif, pas {value!r}")
    return float(value)


def _choice(table: Mapping[str, Any], key: str, where: str, choices: tuple[str, ...], default: str) -> str:
    value = _get(table, key, where, str, default)
    if value not in choices:
        raise ConfigError(f"{where}.{key}: expected one of {', '.join(choices)}, got {value!r}",
                          f"{where}.{key} : valeurs permises {', '.join(choices)}, pas {value!r}")
    return str(value)


def _secret(table: Mapping[str, Any], where: str) -> tuple[SecretSource, SecretSource | None]:
    env = _get(table, "password_env", where, str, None)
    cmd = _get(table, "password_command", where, str, None)
    if env and cmd:
        raise ConfigError(f"{where}: give password_env or password_command, not both",
                          f"{where} : donnez password_env ou password_command, pas les deux")
    token_cmd = _get(table, "oauth2_token_command", where, str, None)
    return SecretSource(env=env, command=cmd), (SecretSource(command=token_cmd) if token_cmd else None)


def _resolve_path(root: Path, value: str) -> Path:
    p = Path(value).expanduser()
    return p if p.is_absolute() else root / p


def load(path: str | Path) -> Config:
    """Read and check a config file; relative paths are relative to the file's folder."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found (run pbem from your game folder, give --config, "
                          "or create a folder with: pbem init DIR)",
                          f"{path} : fichier de configuration introuvable (lancez pbem depuis votre dossier de jeu, "
                          "donnez --config, ou créez un dossier avec : pbem init DOSSIER)") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}", f"{path} : TOML incorrect : {e}") from None
    return parse(data, path.resolve().parent)


def parse(data: Mapping[str, Any], root: Path) -> Config:
    _check_keys(data, _KNOWN_TOP, "config")
    top = _get(data, "pbem", "config", dict, {})
    _check_keys(top, _KNOWN_PBEM, "pbem")
    tzname = _get(top, "timezone", "pbem", str, "Europe/Paris")
    try:
        tz = ZoneInfo(tzname)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"pbem.timezone: unknown time zone {tzname!r} (expected e.g. \"Europe/Paris\")",
                          f"pbem.timezone : fuseau horaire inconnu {tzname!r} (par exemple \"Europe/Paris\")") from None
    language = _choice(top, "language", "pbem", ("fr", "en"), "fr")
    address = _get(top, "address", "pbem", str, "")
    if "@" not in address:
        raise ConfigError(f"pbem.address: expected the game's e-mail address, got {address!r}",
                          f"pbem.address : l'adresse électronique du jeu, pas {address!r}")

    mb = _get(data, "mailbox", "config", dict, {"kind": "maildir"})
    _check_keys(mb, _KNOWN_BOX - _OUTBOX_ONLY, "mailbox")
    mkind = _choice(mb, "kind", "mailbox", ("maildir", "imap"), "maildir")
    mpw, mtok = _secret(mb, "mailbox")
    mailbox = MailboxConfig(
        kind=mkind,
        path=str(_resolve_path(root, _get(mb, "path", "mailbox", str, "data/mail/inbox"))),
        host=_get(mb, "host", "mailbox", str, ""),
        port=_get(mb, "port", "mailbox", int, 993),
        user=_get(mb, "user", "mailbox", str, ""),
        password=mpw, oauth2_token=mtok,
        security=_choice(mb, "security", "mailbox", ("ssl", "starttls", "none"), "ssl"),
        cafile=_get(mb, "cafile", "mailbox", str, None),
        folder=_get(mb, "folder", "mailbox", str, "INBOX"),
        processed_folder=_get(mb, "processed_folder", "mailbox", str, None),
        batch_size=_get(mb, "batch_size", "mailbox", int, 500),
        idle=_get(mb, "idle", "mailbox", bool, True),
        trusted_authserv=_authserv_ids(mb, "mailbox") or ("mx.google.com",),
    )
    if mkind == "imap":
        for key in ("host", "user"):
            if not getattr(mailbox, key):
                raise ConfigError(f"mailbox.{key}: required when mailbox.kind = \"imap\"",
                                  f"mailbox.{key} : obligatoire avec mailbox.kind = \"imap\"")
        if not (mpw.env or mpw.command or mtok):
            raise ConfigError("mailbox: give password_env, password_command or oauth2_token_command for IMAP",
                              "mailbox : donnez password_env, password_command ou oauth2_token_command pour IMAP")

    ob = _get(data, "outbox", "config", dict, {"kind": "maildir"})
    if "max_attempts" in ob:
        raise ConfigError("outbox.max_attempts: no longer used; temporary failures are retried for retry_days "
                          "(default 5) with a backoff capped at retry_max_seconds (default 1800)",
                          "outbox.max_attempts : n'est plus utilisé ; les échecs passagers sont réessayés pendant "
                          "retry_days (5 par défaut), à intervalles d'au plus retry_max_seconds (1800 par défaut)")
    _check_keys(ob, _KNOWN_BOX - {"folder", "processed_folder", "batch_size", "idle", "trusted_authserv"}, "outbox")
    okind = _choice(ob, "kind", "outbox", ("maildir", "smtp"), "maildir")
    opw, otok = _secret(ob, "outbox")
    outbox = OutboxConfig(
        kind=okind,
        path=str(_resolve_path(root, _get(ob, "path", "outbox", str, "data/mail/outbox"))),
        host=_get(ob, "host", "outbox", str, ""),
        port=_get(ob, "port", "outbox", int, 587),
        user=_get(ob, "user", "outbox", str, ""),
        password=opw, oauth2_token=otok,
        security=_choice(ob, "security", "outbox", ("ssl", "starttls", "none"), "starttls"),
        cafile=_get(ob, "cafile", "outbox", str, None),
        retry_days=_positive(ob, "retry_days", "outbox", 5.0),
        retry_base_seconds=int(_positive(ob, "retry_base_seconds", "outbox", 60)),
        retry_max_seconds=int(_positive(ob, "retry_max_seconds", "outbox", 1800)),
        timeout_seconds=_positive(ob, "timeout_seconds", "outbox", 30.0),
        connect_timeout_seconds=_positive(ob, "connect_timeout_seconds", "outbox", 10.0),
        send_budget_seconds=_positive(ob, "send_budget_seconds", "outbox", 60.0),
    )
    if outbox.retry_max_seconds < outbox.retry_base_seconds:
        raise ConfigError(f"outbox.retry_max_seconds: expected at least retry_base_seconds "
                          f"({outbox.retry_base_seconds}), got {outbox.retry_max_seconds}",
                          f"outbox.retry_max_seconds : au moins retry_base_seconds "
                          f"({outbox.retry_base_seconds}), pas {outbox.retry_max_seconds}")
    if okind == "smtp" and not outbox.host:
        raise ConfigError("outbox.host: required when outbox.kind = \"smtp\"",
                          "outbox.host : obligatoire avec outbox.kind = \"smtp\"")

    games: dict[str, GameConfig] = {}
    for gid, g in _get(data, "games", "config", dict, {}).items():
        check_game_id(gid)
        games[gid] = _game(gid, g, language, root, mailbox.trusted_authserv if "trusted_authserv" in mb else None)
    tags = [g.tag.lower() for g in games.values()]
    if len(set(tags)) != len(tags):
        raise ConfigError("games: two games share the same tag; each game needs its own subject tag",
                          "games : deux parties ont la même étiquette (tag) ; chacune a besoin de la sienne")

    return Config(
        root=root,
        database=_resolve_path(root, _get(top, "database", "pbem", str, "data/pbem.sqlite")),
        timezone=tz,
        language=language,
        address=address.lower(),
        forum_dir=_resolve_path(root, _get(top, "forum_dir", "pbem", str, "data/forum")),
        poll_seconds=_get(top, "poll_seconds", "pbem", int, 60),
        reply_cap_per_hour=_get(top, "reply_cap_per_hour", "pbem", int, 20),
        mailbox=mailbox,
        outbox=outbox,
        games=games,
        max_message_bytes=_message_bytes(top),
        max_order_lines=_whole(top, "max_order_lines", 200),
        templates_dir=_resolve_path(root, _get(top, "templates_dir", "pbem", str, "templates")),
        synchronous=_choice(top, "synchronous", "pbem", ("normal", "full"), "normal"),
        lock_wait_seconds=float(_get(top, "lock_wait_seconds", "pbem", (int, float), 10.0)),
        keep_days=_keep_days(_get(data, "retention", "config", dict, {})),
    )


def _keep_days(table: Mapping[str, Any]) -> int:
    """``[retention] keep_days``: a whole number of days, at least 1 (a mail of today is never pruned)."""
    _check_keys(table, {"keep_days"}, "retention")
    days = _get(table, "keep_days", "retention", int, 90)
    if days < 1:
        raise ConfigError(f"retention.keep_days: expected a whole number of days, at least 1, got {days!r}",
                          f"retention.keep_days : attendu un nombre entier de jours, au moins 1, pas {days!r}")
    return int(days)


GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
"""A game id: it names the game's folders (forum files, archive) and appears in mail, so only letters, digits,
``-`` and ``_`` (no dot, no slash: « ../x » would put files outside ``forum_dir``)."""


def check_game_id(gid: str) -> None:
    """Refuse a game id outside `GAME_ID` (at config load, and again when a game is created)."""
    if not isinstance(gid, str) or not GAME_ID.fullmatch(gid):
        shown = str(gid)[:60]
        raise ConfigError(f"games.{shown}: a game id is letters, digits, - and _ only (1 to 40, starting with a "
                          f"letter or a digit): it names the game's folders; got {shown!r}",
                          f"games.{shown}\u00a0: un identifiant de partie ne contient que des lettres, des chiffres, "
                          f"- et _ (1 à 40, en commençant par une lettre ou un chiffre)\u00a0: il sert de nom de "
                          f"dossier\u00a0; «\u00a0{shown}\u00a0» est refusé")


def _message_bytes(top: Mapping[str, Any]) -> int:
    """``max_message_bytes``: from 1 byte to the hard limit of the reader (`limits.MAX_READ_BYTES`)."""
    value = _get(top, "max_message_bytes", "pbem", int, limits.MAX_READ_BYTES)
    if not 1 <= value <= limits.MAX_READ_BYTES:
        hard = limits.MAX_READ_BYTES
        raise ConfigError(f"pbem.max_message_bytes: expected a whole number of bytes from 1 to {hard} (pbem's hard "
                          f"limit), got {value!r}",
                          f"pbem.max_message_bytes : attendu un nombre entier d'octets de 1 à {number(hard)} (la "
                          f"limite de pbem), pas {value!r}")
    return int(value)


def _whole(top: Mapping[str, Any], key: str, default: int) -> int:
    value = _get(top, key, "pbem", int, default)
    if value < 1:
        raise ConfigError(f"pbem.{key}: expected a positive whole number, got {value!r}",
                          f"pbem.{key} : attendu un nombre entier positif, pas {value!r}")
    return int(value)


def _game(gid: str, g: Any, language: str, root: Path, mailbox_authserv: tuple[str, ...] | None) -> GameConfig:
    """One ``[games.X]`` table; ``mailbox_authserv`` is ``mailbox.trusted_authserv`` when the config sets it."""
    where = f"games.{gid}"
    if not isinstance(g, dict):
        raise ConfigError(f"{where}: expected a table", f"{where} : attendu une table [{where}]")
    _check_keys(g, _KNOWN_GAME, where)
    from pbem import games as registry

    ruleset = _get(g, "ruleset", where, str, "")
    try:
        ruleset = registry.canonical(ruleset)
    except KeyError:
        raise ConfigError(f"{where}.ruleset: expected one of {', '.join(registry.names())}, got {ruleset!r}",
                          f"{where}.ruleset : jeux possibles {', '.join(registry.names())}, pas {ruleset!r}") from None
    deadlines = dict(DEFAULT_DEADLINES)
    for k, v in _get(g, "deadlines", where, dict, {}).items():
        deadlines[k] = parse_duration(v, f"{where}.deadlines.{k}")
        if deadlines[k].empty:
            raise ConfigError(f"{where}.deadlines.{k}: a step must last some time, got {v!r}",
                              f"{where}.deadlines.{k} : une étape doit durer un peu, pas {v!r}")
    grace = parse_duration(g["grace"], f"{where}.grace") if "grace" in g else None
    if grace is not None and grace.at is not None:
        raise ConfigError(f"{where}.grace: expected a length like \"2h\" or \"30m\" (no time of day), got {g['grace']!r}",
                          f"{where}.grace : une durée comme \"2h\" ou \"30m\" (sans heure du jour), pas {g['grace']!r}")
    mj = _get(g, "mj", where, (str, list), [])
    mj_list = [mj] if isinstance(mj, str) else mj
    if not all(isinstance(a, str) and "@" in a for a in mj_list):
        raise ConfigError(f"{where}.mj: expected an e-mail address or a list of them, got {mj!r}",
                          f"{where}.mj : une adresse électronique ou une liste d'adresses, pas {mj!r}")
    reminders = _get(g, "reminder_hours", where, list, [24])
    if not all(isinstance(h, (int, float)) and not isinstance(h, bool) and h > 0 for h in reminders):
        raise ConfigError(f"{where}.reminder_hours: expected a list of positive numbers of hours, got {reminders!r}",
                          f"{where}.reminder_hours : une liste de nombres d'heures positifs, pas {reminders!r}")
    options = _get(g, "options", where, dict, {})
    declared = registry.options(ruleset)  # (not the ruleset: a pass with nothing due never loads the rules)
    defaults = declared.default_options
    for k in options:
        if k not in defaults:
            raise ConfigError(f"{where}.options.{k}: unknown option for {ruleset} (expected one of: "
                              f"{', '.join(sorted(defaults)) or 'none'})",
                              f"{where}.options.{k} : option inconnue de {ruleset} (options : "
                              f"{', '.join(sorted(defaults)) or 'aucune'} ; voir docs/rules/{ruleset}.md)")
    for k in declared.path_options:  # a file named from the game folder, not cwd
        if isinstance(options.get(k), str) and options[k]:
            options = {**options, k: str(_resolve_path(root, options[k]))}
    _check_options(declared, {**defaults, **options}, where)
    return GameConfig(
        id=gid,
        ruleset=ruleset,
        tag=_get(g, "tag", where, str, gid).strip("[]"),
        title=_get(g, "title", where, str, declared.title),
        language=_choice(g, "language", where, ("fr", "en"), language),
        mj=tuple(a.lower().strip() for a in mj_list),
        forum_address=_get(g, "forum_address", where, str, ""),
        registration=parse_duration(g.get("registration", "3d"), f"{where}.registration"),
        deadlines=deadlines,
        reminder_hours=tuple(float(h) for h in reminders),
        early_resolution=_get(g, "early_resolution", where, bool, True),
        early_delay_minutes=_get(g, "early_delay_minutes", where, int, 30),
        after_early=_choice(g, "after_early", where, ("calendar", "length"), "calendar") if "after_early" in g else None,
        grace=None if grace is None or grace.empty else grace,
        nmr_alert=_count(g, "nmr_alert", where, 2),
        nmr_abandon=_count(g, "nmr_abandon", where, 0),
        auth=_choice(g, "auth", where, ("none", "dkim", "spf", "dkim_or_spf"), "none"),
        trusted_authserv=_game_authserv(g, where, mailbox_authserv),
        passwords=_get(g, "passwords", where, bool, False),
        min_players=_get(g, "min_players", where, int, 0),
        options={**defaults, **options},
        commit_seed=_get(g, "commit_seed", where, bool, True),
        roster=_resolve_path(root, g["roster"]) if _get(g, "roster", where, str, None) else None,
        archive_dir=_resolve_path(root, g["archive_dir"]) if _get(g, "archive_dir", where, str, None) else None,
        calendar_file=(_resolve_path(root, g["calendar_file"]) if _get(g, "calendar_file", where, str, None)
                       else None),
        mj_password=_mj_password(g, where),
        pictures=_get(g, "pictures", where, bool, True),
        **_seat(g, where),
    )


def _seat(g: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The MJ's seat settings of a game: approval of results, absences."""
    return {
        "publish": _choice(g, "publish", where, ("auto", "mj"), "auto"),
        "approval_reminder": parse_duration(g.get("approval_reminder", "12h"), f"{where}.approval_reminder"),
        "absence": _choice(g, "absence", where, ("defaults", "wait"), "defaults"),
        "absence_wait": parse_duration(g.get("absence_wait", "3d"), f"{where}.absence_wait"),
    }


def _check_options(declared: GameOptions, options: Mapping[str, Any], where: str) -> None:
    """The game's own check of every option value (`Ruleset.check_options`), when the config is read."""
    try:
        declared.check_options(options)
    except SetupError as e:
        raise ConfigError(f"{where}.options: {e.msg.en}", f"{where}.options : {e.msg.fr}") from None


def _count(g: Mapping[str, Any], key: str, where: str, default: int) -> int:
    value = _get(g, key, where, int, default)
    if value < 0:
        raise ConfigError(f"{where}.{key}: expected a number of steps (0: never), got {value!r}",
                          f"{where}.{key} : attendu un nombre d'étapes (0 : jamais), pas {value!r}")
    return int(value)


_AUTHSERV_ID = re.compile(r"[A-Za-z0-9._-]+")


def _authserv_ids(table: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """``trusted_authserv``: a server name (``"mx.google.com"``) or a list of them, lower-case; ``()`` if absent."""
    if "trusted_authserv" not in table:
        return ()
    value = _get(table, "trusted_authserv", where, (str, list), [])
    names = [value] if isinstance(value, str) else value
    if (isinstance(value, list) and not value) or not all(isinstance(n, str) and _AUTHSERV_ID.fullmatch(n.strip())
                                                           for n in names):
        raise ConfigError(f"{where}.trusted_authserv: expected the name of the server that writes the "
                          f"Authentication-Results of your mail, as in \"mx.google.com\" (pbem doctor shows it), "
                          f"got {value!r}",
                          f"{where}.trusted_authserv : le nom du serveur qui écrit l'en-tête Authentication-Results "
                          f"de votre courrier, comme \"mx.google.com\" (pbem doctor le montre), pas {value!r}")
    return tuple(n.strip().lower() for n in names)


def _game_authserv(g: Mapping[str, Any], where: str, mailbox_authserv: tuple[str, ...] | None) -> tuple[str, ...]:
    """The trusted authserv-ids for a game's mail: the mailbox's; a game's own list only in an older config.

    Every game's mail comes through the one mailbox, so a game's list that differs from the
    mailbox's is an error that says which line to remove.
    """
    own = _authserv_ids(g, where) if "trusted_authserv" in g else None
    if own is None:
        return mailbox_authserv or ("mx.google.com",)
    if mailbox_authserv is not None and set(own) != set(mailbox_authserv):
        raise ConfigError(
            f"{where}.trusted_authserv: {list(own)} differs from mailbox.trusted_authserv {list(mailbox_authserv)}; "
            "Authentication-Results is written by the server that delivers to the mailbox, the same for every "
            f"game: remove trusted_authserv from [{where}] (and keep the right value in [mailbox])",
            f"{where}.trusted_authserv : {list(own)} diffère de mailbox.trusted_authserv {list(mailbox_authserv)} ; "
            "l'en-tête Authentication-Results est écrit par le serveur qui remet le courrier à la boîte, le même "
            f"pour toutes les parties : retirez trusted_authserv de [{where}] (et gardez la bonne valeur dans "
            "[mailbox])")
    return own


def _mj_password(g: Mapping[str, Any], where: str) -> SecretSource | None:
    env = _get(g, "mj_password_env", where, str, None)
    cmd = _get(g, "mj_password_command", where, str, None)
    if env and cmd:
        raise ConfigError(f"{where}: give mj_password_env or mj_password_command, not both",
                          f"{where} : donnez mj_password_env ou mj_password_command, pas les deux")
    return SecretSource(env=env, command=cmd) if env or cmd else None
