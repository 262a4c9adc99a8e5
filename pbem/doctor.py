"""`pbem doctor`: check the config and that the mailbox and SMTP logins work, writing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pbem import config as configmod


def checks(config_path: str) -> Iterator[tuple[str, bool, str]]:
    """(what, ok, detail) for each check, in order; later checks are skipped when the config is broken."""
    try:
        cfg = configmod.load(config_path)
    except configmod.ConfigError as e:
        yield "config", False, str(e)
        return
    yield "config", True, f"{config_path}: {len(cfg.games)} game{'' if len(cfg.games) == 1 else 's'}: {', '.join(cfg.games) or 'none'}"
    for gid, g in cfg.games.items():
        if g.auth == "none" and not g.passwords:
            yield (f"game {gid}", True, "warning: auth = \"none\" and no passwords: anyone can send mail with a "
                   "player's or the MJ's From address; set auth = \"dkim\" (Gmail) or passwords = true")
        else:
            yield f"game {gid}", True, f"sender checks: auth = {g.auth}, passwords = {g.passwords}"
        if g.passwords and g.mj_password is None:
            yield (f"game {gid}", False, "passwords = true but no mj_password_env / mj_password_command: mail from "
                   "the MJ's address will be refused (it would otherwise show a forger everything hidden)")
    yield from _template_checks(cfg)
    db = Path(cfg.database)
    yield "database", True, f"{db} ({'exists' if db.exists() else 'will be created'})"
    from pbem.daemon import open_mailbox, open_transport

    if cfg.mailbox.kind == "maildir":
        path = Path(cfg.mailbox.path)
        yield "mailbox", True, f"Maildir {path} ({'exists' if path.exists() else 'will be created'})"
    else:
        mb = cfg.mailbox
        try:
            src = open_mailbox(cfg, _NoCursors())
            src.check_login()  # type: ignore[attr-defined]
            src.close()
            yield "mailbox", True, f"IMAP login {mb.user}@{mb.host}:{mb.port} ok, folder {mb.folder} readable"
        except Exception as e:
            yield "mailbox", False, f"IMAP {mb.user}@{mb.host}:{mb.port}: {e}"
    if cfg.outbox.kind == "maildir":
        yield "outbox", True, f"Maildir {cfg.outbox.path}"
    else:
        try:
            tr = open_transport(cfg)
            tr.check_login()  # type: ignore[attr-defined]
            tr.close()
            yield "outbox", True, f"SMTP login {cfg.outbox.user or '(no auth)'}@{cfg.outbox.host}:{cfg.outbox.port} ok"
        except Exception as e:
            yield "outbox", False, f"SMTP {cfg.outbox.host}:{cfg.outbox.port}: {e}"


def _template_checks(cfg: configmod.Config) -> Iterator[tuple[str, bool, str]]:
    """The MJ's template overrides: each must compile and override a template pbem has."""
    from pbem.render import override_problems

    folder = cfg.templates_dir
    if folder is None or not folder.is_dir():
        yield "templates", True, "packaged templates only (no override folder)"
        return
    problems = override_problems(folder)
    count = sum(1 for p in folder.rglob("*") if p.is_file() and p.suffix in (".j2", ".toml"))
    if not problems:
        yield "templates", True, f"{folder}: {count} override(s), all compile"
    for problem in problems:
        yield "templates", False, f"{problem} (until fixed, pbem uses the last good or the packaged version)"


class _NoCursors:
    """doctor writes nothing: a cursor store that forgets."""

    def get_cursor(self, source: str) -> str | None:
        return None

    def set_cursor(self, source: str, value: str) -> None:
        pass
