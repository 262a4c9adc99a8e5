"""`pbem doctor`: check the config and that the mailbox and SMTP logins work, writing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pbem import config as configmod
from pbem.wording import join_list, plural


def checks(config_path: str, lang: str = "fr") -> Iterator[tuple[str, bool, str]]:
    """(what, ok, detail) for each check, in order; later checks are skipped when the config is broken.

    Reading the config checks every value, the games' options by their ruleset included; each
    game's roster file is read and checked too (a 1626 sheets file: every fault with its line).
    """
    fr = lang != "en"
    try:
        cfg = configmod.load(config_path)
    except configmod.ConfigError as e:
        yield "config", False, e.text(lang)
        return
    names = join_list(cfg.games, lang) or ("aucune" if fr else "none")
    count = plural(len(cfg.games), "partie" if fr else "game", lang=lang)
    yield "config", True, (f"{config_path} : {count} : {names}" if fr else f"{config_path}: {count}: {names}")
    for gid, g in cfg.games.items():
        where = f"partie {gid}" if fr else f"game {gid}"
        if g.auth == "none" and not g.passwords:
            yield (where, True, "attention : auth = \"none\" et pas de mots de passe : n'importe qui peut écrire avec "
                   "l'adresse d'un joueur ou la vôtre ; mettez auth = \"dkim\" (Gmail) ou passwords = true" if fr else
                   "warning: auth = \"none\" and no passwords: anyone can send mail with a "
                   "player's or the MJ's From address; set auth = \"dkim\" (Gmail) or passwords = true")
        else:
            yield where, True, (f"contrôle des expéditeurs : auth = {g.auth}, passwords = {g.passwords}" if fr
                                else f"sender checks: auth = {g.auth}, passwords = {g.passwords}")
        if g.passwords and g.mj_password is None:
            yield (where, False, "passwords = true sans mj_password_env ni mj_password_command : les courriels de "
                   "votre adresse seront refusés (sinon un faussaire y verrait tout ce qui est caché)" if fr else
                   "passwords = true but no mj_password_env / mj_password_command: mail from "
                   "the MJ's address will be refused (it would otherwise show a forger everything hidden)")
        yield where, True, (f"options de {g.ruleset} vérifiées" if fr else f"{g.ruleset} options checked")
        yield from _roster_check(g, where, lang)
    yield from _template_checks(cfg, lang)
    db = Path(cfg.database)
    yield ("base" if fr else "database"), True, (f"{db} ({'existe' if db.exists() else 'sera créée'})" if fr else
                                                 f"{db} ({'exists' if db.exists() else 'will be created'})")
    from pbem.daemon import open_mailbox, open_transport

    if cfg.mailbox.kind == "maildir":
        path = Path(cfg.mailbox.path)
        yield "mailbox", True, (f"Maildir {path} ({'existe' if path.exists() else 'sera créé'})" if fr else
                                f"Maildir {path} ({'exists' if path.exists() else 'will be created'})")
    else:
        mb = cfg.mailbox
        try:
            src = open_mailbox(cfg, _NoCursors())
            src.check_login()  # type: ignore[attr-defined]
            src.close()
            yield "mailbox", True, (f"connexion IMAP {mb.user}@{mb.host}:{mb.port} réussie, dossier {mb.folder} lisible"
                                    if fr else f"IMAP login {mb.user}@{mb.host}:{mb.port} ok, folder {mb.folder} readable")
        except Exception as e:
            yield "mailbox", False, f"IMAP {mb.user}@{mb.host}:{mb.port}: {e}"
    if cfg.outbox.kind == "maildir":
        yield "outbox", True, f"Maildir {cfg.outbox.path}"
    else:
        try:
            tr = open_transport(cfg)
            tr.check_login()  # type: ignore[attr-defined]
            tr.close()
            who = cfg.outbox.user or ("(sans authentification)" if fr else "(no auth)")
            yield "outbox", True, (f"connexion SMTP {who}@{cfg.outbox.host}:{cfg.outbox.port} réussie" if fr
                                   else f"SMTP login {who}@{cfg.outbox.host}:{cfg.outbox.port} ok")
        except Exception as e:
            yield "outbox", False, f"SMTP {cfg.outbox.host}:{cfg.outbox.port}: {e}"


def _roster_check(g: configmod.GameConfig, where: str, lang: str) -> Iterator[tuple[str, bool, str]]:
    """The game's roster file: readable, and accepted by its ruleset's own check (1626 sheets, with lines)."""
    if g.roster is None:
        return
    from pbem import games as registry
    from pbem.core import SetupError
    from pbem.engine.optional import check_roster

    fr = lang != "en"
    try:
        text = g.roster.read_text(encoding="utf-8")
    except OSError as e:
        yield where, False, (f"fichier de joueurs {g.roster} illisible : {e}" if fr else f"roster {g.roster}: {e}")
        return
    try:
        checked = check_roster(registry.get(g.ruleset), text, dict(g.options))
    except SetupError as e:
        yield where, False, (f"fichier de joueurs {g.roster} refusé :\n{e.msg.fr}" if fr
                             else f"roster {g.roster} refused:\n{e.msg.en}")
        return
    yield where, True, ((f"fichier de joueurs {g.roster} vérifié" if checked else f"fichier de joueurs {g.roster}")
                        if fr else f"roster {g.roster}" + (" checked" if checked else ""))


def _template_checks(cfg: configmod.Config, lang: str) -> Iterator[tuple[str, bool, str]]:
    """The MJ's template overrides: each must compile and override a template pbem has."""
    from pbem.render import override_problems

    fr = lang != "en"
    folder = cfg.templates_dir
    if folder is None or not folder.is_dir():
        yield "templates", True, ("gabarits de pbem seulement (pas de dossier templates/)" if fr
                                  else "packaged templates only (no override folder)")
        return
    problems = override_problems(folder)
    count = sum(1 for p in folder.rglob("*") if p.is_file() and p.suffix in (".j2", ".toml"))
    if not problems:
        yield "templates", True, (f"{folder} : {count} gabarit{'s' if count > 1 else ''} remplacé"
                                  f"{'s' if count > 1 else ''}, tous se compilent" if fr
                                  else f"{folder}: {count} override{'s' if count != 1 else ''}, all compile")
    for problem in problems:
        yield "templates", False, (f"{problem} (en attendant, pbem prend la dernière bonne version ou la sienne)" if fr
                                   else f"{problem} (until fixed, pbem uses the last good or the packaged version)")


class _NoCursors:
    """doctor writes nothing: a cursor store that forgets."""

    def get_cursor(self, source: str) -> str | None:
        return None

    def set_cursor(self, source: str, value: str) -> None:
        pass
