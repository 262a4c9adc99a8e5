"""`pbem doctor`: check the config and that the mailbox and SMTP logins work, writing nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from pbem import config as configmod
from pbem import ticktext
from pbem.daemon import open_mailbox, open_transport
from pbem.mail.inbox import ImapSource, MailSourceError, newest_maildir_headers
from pbem.mail.reading import read_message
from pbem.mail.senders import shown_authserv, topmost_header
from pbem.store.health import inspect
from pbem.units import UNIT_FILES, installed_copy, read_unit, unit_problems
from pbem.wording import join_list, plural

NEWEST = 5
"""How many of the mailbox's newest mails `pbem doctor` reads to see who writes their Authentication-Results."""
_NB = "\u00a0"  # the non-breaking space French puts before « : ; ! ? » and inside « »


class Caution(str):
    """A check's detail that is a warning: the check passed, but something deserves the MJ's eye
    (`pbem doctor` shows it as « [attention] », not « [ok] »)."""


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
            yield (where, True, Caution("auth = \"none\" et pas de mots de passe : n'importe qui peut écrire avec "
                   "l'adresse d'un joueur ou la vôtre ; mettez auth = \"dkim\" (Gmail) ou passwords = true" if fr else
                   "auth = \"none\" and no passwords: anyone can send mail with a "
                   "player's or the MJ's From address; set auth = \"dkim\" (Gmail) or passwords = true"))
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
    yield from _unit_checks(Path(config_path).resolve().parent / "systemd", lang)
    sound, said = inspect(cfg.database)  # lost, damaged (every page read), or sound; read-only
    yield ("base" if fr else "database"), sound, said.get(lang)
    mailbox_ok = True
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
            mailbox_ok = False
            where = f"IMAP {mb.user}@{mb.host}:{mb.port}"  # (pbem's own failures name the server themselves)
            reason = ticktext.said(str(e), lang)
            yield "mailbox", False, reason if reason.startswith("IMAP ") else f"{where}{_NB if fr else ''}: {reason}"
    if mailbox_ok:
        yield from _authserv_check(cfg, lang)
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
            where = f"SMTP {cfg.outbox.host}:{cfg.outbox.port}"  # (the failure names the server itself)
            reason = ticktext.said(str(e), lang)
            yield "outbox", False, reason if reason.startswith(where) else f"{where}{_NB if fr else ''}: {reason}"


def _authserv_check(cfg: configmod.Config, lang: str) -> Iterator[tuple[str, bool, str]]:
    """Who wrote the topmost Authentication-Results of the mailbox's newest mails, against trusted_authserv.

    Only when a game checks senders (``auth`` other than ``none``).  A mismatch is a warning
    that names the value to put; the mails are only read (IMAP EXAMINE and BODY.PEEK).
    """
    fr = lang != "en"
    checked = [g for g in cfg.games.values() if g.auth != "none"]
    if not checked:
        return
    what = "trusted_authserv"
    for g in checked:
        if g.trusted_authserv != cfg.mailbox.trusted_authserv:
            yield what, True, Caution(f"trusted_authserv est réglé dans [games.{g.id}]{_NB}; mettez-le "
                               "plutôt dans [mailbox] (c'est le serveur qui remet le courrier à la boîte)" if fr else
                               f"trusted_authserv is set in [games.{g.id}]; put it in [mailbox] instead "
                               "(it is the server that delivers to the mailbox)")
    try:
        blocks = _newest_headers(cfg)
    except (MailSourceError, OSError) as e:
        yield what, True, Caution(f"les derniers courriels de la boîte sont illisibles ({e}){_NB}; "
                           "trusted_authserv n'est pas vérifié" if fr else
                           f"the mailbox's newest mails could not be read ({e}); trusted_authserv not checked")
        return
    if not blocks:
        yield what, True, Caution(f"la boîte est vide{_NB}; écrivez au jeu depuis une autre adresse, puis "
                           "relancez pbem doctor pour vérifier trusted_authserv" if fr else
                           "the mailbox is empty; write to the game from another address, then run "
                           "pbem doctor again to check trusted_authserv")
        return
    writers: Counter[str] = Counter()
    unreadable: list[str] = []
    for block in blocks:
        mail = read_message(block)
        header, problem = topmost_header(mail)
        if header is not None:
            writers[shown_authserv(header.authserv_id)] += 1
        elif "authentication-results" in mail.headers:
            unreadable.append(problem)
    n = len(blocks)
    of_newest = ((f"des {n} derniers courriels" if n > 1 else "du dernier courriel") if fr else
                 (f"the {n} newest mails" if n > 1 else "the newest mail"))
    if not writers and not unreadable:
        none = (f"aucun des {n} derniers courriels de la boîte ne porte" if n > 1 else
                "le dernier courriel de la boîte ne porte pas")
        yield what, True, Caution(f"{none} d'en-tête Authentication-Results{_NB}; le serveur qui remplit la "
                           f"boîte n'en écrit pas, et auth refusera votre courrier et celui des joueurs{_NB}: mettez "
                           "plutôt passwords = true" if fr else
                           f"no Authentication-Results header in {of_newest} of the mailbox; the server "
                           "that fills it writes none, and auth will refuse your mail and the players': set "
                           "passwords = true instead")
        return
    if unreadable:
        yield what, True, Caution(f"l'en-tête Authentication-Results du dessus est illisible dans "
                           f"{plural(len(unreadable), 'courriel')} sur {n} ({unreadable[0]}){_NB}; pbem refusera "
                           "un tel courriel" if fr else
                           f"the topmost Authentication-Results does not read in {len(unreadable)} of {n} "
                           f"mails ({unreadable[0]}); pbem will refuse such mail")
    if not writers:
        return
    writer = writers.most_common(1)[0][0]
    for trusted in sorted({g.trusted_authserv for g in checked}):
        listed = ", ".join(f'"{t}"' for t in trusted)
        if writer in trusted:
            yield what, True, (f"[{listed}]{_NB}: c'est bien le serveur qui a écrit l'en-tête Authentication-Results "
                               f"du dessus {of_newest} de la boîte" if fr else
                               f"[{listed}]: the server that wrote the topmost Authentication-Results of {of_newest} "
                               "of the mailbox")
        else:
            yield what, True, Caution(f"l'en-tête Authentication-Results du dessus {of_newest} de la boîte "
                               f"est écrit par «{_NB}{writer}{_NB}», pas par trusted_authserv = [{listed}]{_NB}; pbem "
                               f"refusera le courrier des parties qui vérifient les expéditeurs{_NB}: mettez "
                               f'trusted_authserv = ["{writer}"] dans [mailbox]' if fr else
                               f"the topmost Authentication-Results of {of_newest} of the mailbox is written "
                               f'by "{writer}", not by trusted_authserv = [{listed}]; pbem will refuse the mail of the '
                               f'games that check senders: put trusted_authserv = ["{writer}"] in [mailbox]')
    others = sorted(set(writers) - {writer})
    if others:
        yield what, True, Caution(f"d'autres serveurs ont écrit l'en-tête du dessus de certains courriels "
                           f"({join_list(others, lang)}){_NB}: des courriels transférés{_NB}? pbem les refusera"
                           if fr else f"other servers wrote the topmost header of some mails "
                           f"({join_list(others, lang)}): forwarded mail? pbem will refuse it")


def _newest_headers(cfg: configmod.Config) -> list[bytes]:
    """The header blocks of the mailbox's `NEWEST` newest mails, only read (nothing marked, moved or created)."""
    mb = cfg.mailbox
    if mb.kind == "maildir":
        return newest_maildir_headers(mb.path, NEWEST, mb.processed_folder)
    source = open_mailbox(cfg, _NoCursors())
    assert isinstance(source, ImapSource)
    return source.newest_headers(NEWEST)


def _roster_check(g: configmod.GameConfig, where: str, lang: str) -> Iterator[tuple[str, bool, str]]:
    """The game's roster file: readable, and accepted by its ruleset's own check (1626 sheets, with lines)."""
    if g.roster is None:
        return
    from pbem import games as registry
    from pbem.core import SetupError

    fr = lang != "en"
    try:
        text = g.roster.read_text(encoding="utf-8")
    except OSError as e:
        yield where, False, (f"fichier de joueurs {g.roster} illisible : {e}" if fr else f"roster {g.roster}: {e}")
        return
    try:
        checked = registry.get(g.ruleset).check_roster(text, dict(g.options))
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
    problems = override_problems(folder, tuple(cfg.games))
    count = sum(1 for p in folder.rglob("*") if p.is_file() and p.suffix in (".j2", ".toml"))
    if not problems:
        yield "templates", True, (f"{folder} : {count} gabarit{'s' if count > 1 else ''} remplacé"
                                  f"{'s' if count > 1 else ''}, tous se compilent" if fr
                                  else f"{folder}: {count} override{'s' if count != 1 else ''}, all compile")
    for problem in problems:
        yield "templates", False, (f"{problem} (en attendant, pbem prend la dernière bonne version ou la sienne)" if fr
                                   else f"{problem} (until fixed, pbem uses the last good or the packaged version)")


def _unit_checks(folder: Path, lang: str) -> Iterator[tuple[str, bool, str]]:
    """The systemd units `pbem init` wrote beside config.toml: can their user read the folder and run pbem?
    An installed unit that cannot is a failure; one not installed (yet), a warning."""
    fr = lang != "en"
    for name in UNIT_FILES:
        path = folder / name
        if not name.endswith(".service") or not path.is_file():
            continue
        unit = read_unit(path)
        problems = unit_problems(unit, lang)
        installed = installed_copy(path)
        if not problems:
            can = ((f"{unit.user} peut" if unit.user else "vous pouvez") + " lire le dossier et lancer pbem" if fr
                   else f"{unit.user or 'you'} can read the folder and run pbem")
            where = ((f" (installée{_NB}: {installed})" if fr else f" (installed: {installed})") if installed else "")
            yield "systemd", True, (f"{name}{_NB}: {can}{where}" if fr else f"{name}: {can}{where}")
            continue
        for problem in problems:
            if installed is not None:
                yield "systemd", False, f"{installed}{_NB}: {problem}" if fr else f"{installed}: {problem}"
            else:
                yield "systemd", True, Caution(f"{name} ne marchera pas tel quel{_NB}: {problem}" if fr
                                               else f"{name} will not work as it is: {problem}")


class _NoCursors:
    """doctor writes nothing: a cursor store that forgets."""

    def get_cursor(self, source: str) -> str | None:
        return None

    def set_cursor(self, source: str, value: str) -> None:
        pass
