"""Shared test helpers: building mails, a config for a test game, reading the outbox."""

from __future__ import annotations

import email
import os
import sys
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from pbem import config as configmod
from pbem import games

games.register(games.Game("toy", "toy_ruleset:RULESET"))

GAME_ADDRESS = "jeu@pbem.test"
MJ_ADDRESS = "mj@pbem.test"


def make_mail(sender: str, body: str, subject: str = "[TOY] ordres", to: str = GAME_ADDRESS,
              name: str | None = None, message_id: str | None = None, **headers: str) -> bytes:
    m = EmailMessage()
    m["From"] = f"{name} <{sender}>" if name else sender
    m["To"] = to
    m["Subject"] = subject
    if message_id:
        m["Message-ID"] = message_id
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    m.set_content(body)
    return m.as_bytes()


def toy_config_toml(tmp: Path, *, top: str = "", game: str = "", with_game: bool = True) -> str:
    """The config.toml the CLI tests write: local Maildirs under ``tmp`` and one toy game ``toy1`` (tag TOY).

    ``top`` adds lines to ``[pbem]``, ``game`` to ``[games.toy1]``."""
    text = (f'\n[pbem]\n{top + chr(10) if top else ""}database = "{tmp}/db.sqlite"\naddress = "jeu@pbem.test"\n'
            f'forum_dir = "{tmp}/forum"\n\n[mailbox]\nkind = "maildir"\npath = "{tmp}/inbox"\n\n'
            f'[outbox]\nkind = "maildir"\npath = "{tmp}/outbox"\n')
    if with_game:
        text += '\n[games.toy1]\nruleset = "toy"\ntag = "TOY"\nmj = "mj@pbem.test"\nregistration = "1d"\n'
        text += f"{game}\n" if game else ""
    return text


def make_config(tmp: Path, *, ruleset: str = "toy", game_id: str = "toy1", tag: str = "TOY",
                extra_game: dict[str, Any] | None = None, top: dict[str, Any] | None = None,
                mailbox: dict[str, Any] | None = None, outbox: dict[str, Any] | None = None,
                more_games: dict[str, Any] | None = None) -> configmod.Config:
    data: dict[str, Any] = {
        "pbem": {"database": str(tmp / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(tmp / "forum"),
                 "timezone": "Europe/Paris", **(top or {})},
        "mailbox": mailbox or {"kind": "maildir", "path": str(tmp / "inbox")},
        "outbox": outbox or {"kind": "maildir", "path": str(tmp / "outbox")},
        "games": {game_id: {"ruleset": ruleset, "tag": tag, "mj": MJ_ADDRESS, "registration": "1d",
                            "deadlines": {"turn": "2d", "short": "1d"}, **(extra_game or {})},
                  **(more_games or {})},
    }
    return configmod.parse(data, tmp)


def outbox_messages(store: Any, **filters: str) -> list[email.message.EmailMessage]:
    """Queued or sent mails, parsed, filtered on kind / rcpt."""
    out = []
    for item in store.outbox_items():
        if any(getattr(item, k, None) != v for k, v in filters.items()):
            continue
        raw = store.outbox_raw(item.id)
        out.append(email.message_from_bytes(raw, policy=default))
    return out


def body(msg: email.message.EmailMessage, *, nbsp: bool = False) -> str:
    """A mail's text; French non-breaking spaces read as spaces unless ``nbsp`` (tests match plain text)."""
    part = msg.get_body(("plain",))
    assert part is not None
    text = str(part.get_content()).replace("\r\n", "\n")
    return text if nbsp else text.replace("\u00a0", " ").replace("\u202f", " ")


def pbem_command(config: Path, *args: str) -> list[str]:
    """The argv of a real ``pbem`` process that also knows the toy ruleset."""
    code = "import helpers; from pbem.cli import main; main()"  # importing helpers registers the toy ruleset
    return [sys.executable, "-c", code, "--config", str(config), *args]


def pbem_env(**extra: str) -> dict[str, str]:
    """The environment for `pbem_command`: this folder on PYTHONPATH, no leftover crash or pause point."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent), **extra)
    for hook in ("PBEM_CRASH_AT", "PBEM_PAUSE_AT"):
        if hook not in extra:
            env.pop(hook, None)
    return env
