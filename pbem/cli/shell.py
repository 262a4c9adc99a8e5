"""What every `pbem` command shares: the config, the engine under the pass lock, the language of
its messages, the reading of ``--now`` and date options, and the help in the configured language.

A user's mistake is one line in his language, never a traceback: every error pbem says to a user
is a `pbem.msg.PbemError`, and `CommandLine` prints its message (« Erreur\u00a0: … »).  A command's
French help stands beside it (`french`); its English help is its docstring and its options' ``help=``.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pbem import config as configmod
from pbem.cli.text import UserError, msg, say
from pbem.cli.text import when as _local_text
from pbem.clock import parse_iso, utcnow
from pbem.msg import Msg, PbemError
from pbem.passlock import PassLock
from pbem.store import Store
from pbem.store.health import storage_error
from pbem.wording import join_list, plural

if TYPE_CHECKING:
    from pbem.engine import Engine


@contextmanager
def engine(ctx: click.Context, game_id: str | None = None, *, writes: bool = True) -> Iterator[Engine]:
    """The engine over the configured store.

    ``game_id``, when given, must be a game of config.toml (else the error lists them).  A command that
    ``writes`` (resolves, corrects, registers, queues mail…) takes the pass lock, as `pbem tick` and the
    daemon do: it waits up to ``lock_wait_seconds`` for a running pass, then says who holds the data
    and to try again, rather than interleave its work with that pass.  A command that only reads does
    not wait.  A mistake the engine finds is a `PbemError`: `CommandLine` says it in one line.
    """
    cfg = config(ctx)
    if game_id is not None and game_id not in cfg.games:
        raise UserError(Msg(say("fr", "unknown_game", game=game_id, games=join_list(cfg.games, "fr") or "-"),
                            say("en", "unknown_game", game=game_id, games=join_list(cfg.games, "en") or "-")))
    with PassLock(cfg.database) as lock:
        if writes and not lock.acquire(cfg.lock_wait_seconds, who=_command_name(ctx)):
            raise UserError(_busy(lock))
        store = Store(cfg.database, synchronous=cfg.synchronous)
        try:
            mark = store.outbox_mark() if writes else 0
            # the engine (every room of it) is loaded by the commands that use it, for speed: `pbem tick` on
            # an empty inbox never needs it (issue #24); no circle is dodged, the engine never imports the CLI
            from pbem.engine import Engine

            yield Engine(cfg, store)
            if writes:  # every mail the command queued, said with its recipients
                queued = store.queued_since(mark)
                if queued:
                    click.echo(queued_text(cfg, queued, language()))
        except (sqlite3.Error, OSError) as e:  # a full disk, a read-only database: one line (`pbem.store.health`)
            problem = storage_error(e, cfg.database)
            if problem is None:
                raise
            raise problem from None
        finally:
            store.close()


SHOWN_RECIPIENTS = 8
"""Up to this many recipients, the line of mail queued names each one; beyond, it counts them."""


def queued_text(cfg: configmod.Config, queued: list[tuple[str, str, str]], lang: str) -> str:
    """« 3 courriels mis en file d'envoi (le prochain pbem tick les envoie) : arya@x, bran@y et le MJ
    (mj@x) »: what a command sent, and to whom."""
    mj = {a for g in cfg.games.values() for a in g.mj}
    forum = {g.forum_address for g in cfg.games.values() if g.forum_address}
    seen: list[str] = []
    for _game, _kind, rcpt in queued:
        if rcpt not in seen:
            seen.append(rcpt)
    players = [a for a in seen if a not in mj and a not in forum]
    names = players if len(seen) <= SHOWN_RECIPIENTS else [
        plural(len(players), "joueur" if lang != "en" else "player", lang=lang)] if players else []
    if any(a in mj for a in seen):
        names.append(("the MJ" if lang == "en" else "le MJ") + (
            f" ({', '.join(a for a in seen if a in mj)})" if len(seen) <= SHOWN_RECIPIENTS else ""))
    if any(a in forum for a in seen):
        names.append("the forum" if lang == "en" else "le forum")
    if len(queued) == 1:
        return say(lang, "queued_one", to=join_list(names, lang))
    mails = plural(len(queued), "courriel" if lang != "en" else "mail", lang=lang)
    return say(lang, "queued", mails=mails, to=join_list(names, lang))


def _command_name(ctx: click.Context) -> str:
    """« pbem turn resolve », however pbem was started (``python -m pbem``, a wrapper): for the lock's file."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["pbem", *reversed(names)])


def _busy(lock: PassLock) -> Msg:
    """« pbem tick (pid 4242, depuis 12 s) travaille sur ces données : réessayez dans un instant »."""
    pid, since, what = lock.holder()
    if since is None:
        return msg("busy_unknown", lock=lock.path)
    seconds = int((utcnow() - since).total_seconds())
    held = f"{seconds // 60} min" if seconds >= 60 else f"{max(seconds, 0)} s"
    return msg("busy", what=what or "pbem", pid=pid, held=held, lock=lock.path)


def language() -> str:
    """The configured language (French when the config cannot be read)."""
    root = click.get_current_context().find_root()
    if "lang" not in root.obj:
        try:
            root.obj["lang"] = configmod.load(root.obj["config"]).language
        except configmod.ConfigError:
            root.obj["lang"] = "fr"
    return str(root.obj["lang"])


def message(key: str, **params: object) -> str:
    """A CLI message in the configured language (`pbem.cli.text.MESSAGES`)."""
    return say(language(), key, **params)


def step_word(e: Engine, game_id: str) -> str:
    """What the game calls its steps, in the CLI's language (« tour », « manche », « étape »)."""
    word = e.step_word(game_id)
    return word.en if language() == "en" else word.fr


def local_text(dt: datetime | None) -> str:
    """A local time for the MJ's terminal, in the game's zone: « mercredi 2 décembre 2026 à 20 h »."""
    return _local_text(dt, language())


def config(ctx: click.Context) -> configmod.Config:
    """The configuration the command was given (a fault in it: one line that names the key)."""
    try:
        return configmod.load(ctx.obj["config"])
    except configmod.ConfigError as e:
        raise UserError(Msg("configuration\u00a0: " + e.msg.fr, "config: " + e.msg.en)) from None


def now_from(value: str | None) -> datetime:
    """``--now``: a naive time is read in the configured time zone."""
    if not value:
        return utcnow()
    ctx = click.get_current_context()
    try:
        tz = configmod.load(ctx.find_root().obj["config"]).timezone
    except configmod.ConfigError:
        tz = None
    try:
        return parse_iso(value, tz)
    except ValueError:
        raise UserError(msg("bad_now", value=value)) from None


def date_from(ctx: click.Context, option: str, value: str | None, now: datetime) -> datetime | None:
    """A date option: ISO (``2026-12-01T21:00``) or as the MJ writes it (« lundi 17 février à 21 h »), in the
    game's zone; a day without an hour is its start."""
    if not value:
        return None
    cfg = config(ctx)
    try:
        return parse_iso(value, cfg.timezone)
    except ValueError:
        pass
    # the MJ's way of writing dates, loaded when one is read (for speed, as the engine above: no circle)
    from pbem.engine.when import WhenError, parse_moment

    try:
        return parse_moment(value, now, cfg.timezone, time(0, 0))
    except WhenError as e:
        raise UserError(Msg(say("fr", "bad_date", option=option, why=e.msg.fr),
                            say("en", "bad_date", option=option, why=e.msg.en))) from None


NOW = click.option("--now", "now", metavar="ISO", help="Simulated current time (ISO, game time zone if naive).")


# click's own usage errors (missing argument, unknown option…), said in French as the rest of the CLI;
# the English ones stay click's
_USAGE_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^Missing argument '(.+)'\.$", r"il manque l'argument \1"),
    (r"^Missing option '(.+)'\.$", r"il manque l'option \1"),
    # click writes « Did you mean 'x'? » for one near name and « (Did you mean one of: 'x', 'y'?) » for several
    (r"^No such option:? '?([^' ]+)'?\.?(?: \(?Did you mean (?:one of: )?(?P<hint>.+?)\?\)?)?$", r"option inconnue : \1"),
    (r"^No such command '(.+?)'\.(?: \(?Did you mean (?:one of: )?(?P<hint>.+?)\?\)?)?$", r"commande inconnue « \1 »"),
    (r"^Got unexpected extra arguments? \((.+)\)$", r"argument en trop : \1"),
    (r"^Invalid value for '(.+?)': (.+)$", r"valeur incorrecte pour \1 : \2"),
    (r"^Option '(.+)' requires an argument\.$", r"l'option \1 attend une valeur"),
    (r"^Missing command\.$", "il manque la commande"),
))
_VALUE_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"'(.*)' is not a valid float\.", r"« \1 » n'est pas un nombre"),
    (r"'(.*)' is not a valid integer\.", r"« \1 » n'est pas un nombre entier"),
    (r"'(.*)' is not one of (.+)\.", r"« \1 » n'est pas l'une des valeurs \2"),
    (r"'(.*)' is not a valid boolean\.", r"« \1 » n'est ni oui ni non"),
    (r"Path '(.*)' does not exist\.", r"le chemin \1 n'existe pas"),
    (r"File '(.*)' is a directory\.", r"\1 est un dossier, pas un fichier"),
    (r"File '(.*)' does not exist\.", r"le fichier \1 n'existe pas"),
))


def usage_error_text(e: click.UsageError, lang: str) -> str:
    """One line for a mistake in the command line, with how to get help: « Erreur : il manque l'argument
    GAME_ID (pbem game status --help montre l'usage) »."""
    message = e.format_message()
    where = e.ctx.command_path if e.ctx is not None else "pbem"
    if lang == "en":
        return f"Error: {message} ({where} --help shows the usage)"
    for pattern, french in _USAGE_FR:
        m = pattern.match(message)
        if m:
            hint = m.groupdict().get("hint")
            message = french_placeholders(m.expand(french))
            for value, said in _VALUE_FR:
                message = value.sub(said, message)
            if hint:
                message += " ; vouliez-vous dire " + hint.replace("'", "") + " ?"
            break
    from pbem.render import french_spaces  # (loaded when needed, for speed, as in `pbem.cli.text.when`)

    return f"Erreur\u00a0: {french_spaces(message)} ({where} --help montre l'usage)"


# click's help, in French when the configured language is: the headings, the option types, the extras
_HEADINGS_FR = {"Options": "Options", "Commands": "Commandes", "Positional arguments": "Arguments"}
_METAVARS_FR = {"TEXT": "TEXTE", "INTEGER": "ENTIER", "FLOAT": "NOMBRE", "FILENAME": "FICHIER", "FILE": "FICHIER",
                "PATH": "CHEMIN", "GAME_ID": "PARTIE", "GAME": "PARTIE", "FOLDER": "DOSSIER", "NAME": "NOM",
                "NEW_NAME": "NOUVEAU_NOM", "ADDRESS": "ADRESSE", "NEW_ADDRESS": "NOUVELLE_ADRESSE", "NUMBER": "NUMÉRO",
                "PLAYER_NAME": "JOUEUR", "LINES": "LIGNES", "KEYS": "CLÉS", "CASES": "CAS",
                "NICKNAMES": "SURNOMS", "NICKNAME": "SURNOM"}
"""click's placeholders (types, and the arguments' names) as the French help and errors write them."""
_METAVAR = re.compile(r"\b(" + "|".join(sorted(_METAVARS_FR, key=len, reverse=True)) + r")\b")


def french_placeholders(text: str) -> str:
    """« GAME_ID FOLDER » -> « PARTIE DOSSIER » (whole words, upper case: a placeholder, never prose)."""
    return _METAVAR.sub(lambda m: _METAVARS_FR[m.group(1)], text)


class _FrenchHelpFormatter(click.HelpFormatter):
    """click's help layout with French headings: « Usage : », « Options : », « Commandes : »."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, "Usage\u00a0: " if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{_HEADINGS_FR.get(heading, heading)}\u00a0:\n")


@dataclass(frozen=True)
class Help:
    """A command's help in French: its description (paragraphs split by a blank line, ending with the same
    « Exemple\u00a0: pbem … » as its docstring's) and, by option name (the click parameter's), each option's help."""

    text: str
    options: Mapping[str, str] = field(default_factory=dict)


SHARED_OPTIONS: dict[str, str] = {
    "help": "Affiche cette aide et s'arrête.",
    "now": "Heure courante simulée (ISO, dans le fuseau de la partie si aucun n'est donné).",
}
"""The French help of the options many commands share (NOW, click's --help); a command's own comes first."""

C = TypeVar("C", bound=click.Command)


def french(text: str, **options: str) -> Callable[[C], C]:
    """The French help of the command below (`Help`): the English is its docstring and its options' ``help=``."""
    def beside(command: C) -> C:
        command.french = Help(text, options)  # type: ignore[attr-defined]
        return command
    return beside


def french_help(command: click.Command) -> Help | None:
    return getattr(command, "french", None)


def option_help(command: click.Command, option: str) -> str | None:
    """The French help of ``option`` (a click parameter's name) of ``command``."""
    entry = french_help(command)
    own = entry.options.get(option) if entry is not None else None
    return own if own is not None else SHARED_OPTIONS.get(option)


def _help_lang(ctx: click.Context) -> str:
    """The configured language for a help text: the config once `pbem` has read ``--config``, else the
    command line `pbem` was given (``pbem --help`` is answered before its options are read)."""
    root = ctx.find_root()
    if isinstance(root.obj, dict) and "config" in root.obj:
        with ctx.scope(cleanup=False):
            return language()
    return _lang_before_context(root.meta.get("pbem.argv"))


class HelpCommand(click.Command):
    """A `pbem` command whose help is French (`french`) when the configured language is French, its docstring
    and options' ``help=`` otherwise."""

    def get_help(self, ctx: click.Context) -> str:
        ctx.meta["pbem.help_lang"] = lang = _help_lang(ctx)
        if lang == "en":
            return super().get_help(ctx)
        formatter = _FrenchHelpFormatter(width=ctx.terminal_width, max_width=ctx.max_content_width)
        with ctx.scope(cleanup=False):  # the subcommands' short help finds the language in it
            self.format_help(ctx, formatter)
        return formatter.getvalue().rstrip("\n")

    def _french(self, ctx: click.Context | None) -> bool:
        return ctx is not None and ctx.meta.get("pbem.help_lang") == "fr"

    def get_short_help_str(self, limit: int = 45) -> str:
        ctx = click.get_current_context(silent=True)
        entry = french_help(self) if ctx is not None and self._french(ctx) else None
        if entry is None:
            return super().get_short_help_str(limit)
        return _short_help(french_placeholders(entry.text), limit)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        entry = french_help(self) if self._french(ctx) else None
        if entry is None:
            return super().format_help_text(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(french_placeholders(entry.text))

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        if self._french(ctx):
            pieces = ["COMMANDE [ARGUMENTS]..." if p == "COMMAND [ARGS]..." else french_placeholders(p) for p in pieces]
        return pieces

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if not self._french(ctx):
            return super().format_options(ctx, formatter)
        records = [_french_record(self, p, ctx, p is self.get_help_option(ctx)) for p in self.get_params(ctx)
                   if isinstance(p, click.Option) and p.get_help_record(ctx) is not None]
        if records:
            with formatter.section("Options"):
                formatter.write_dl(records)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)


def _short_help(text: str, limit: int) -> str:
    """A command's line in its group's list: the first sentence of its description, cut to ``limit``."""
    words = re.split(r"[ \n]+", text.split("\n\n", 1)[0].strip())  # not at the non-breaking spaces
    line = ""
    for word in words:
        if len(line) + 1 + len(word) > limit:
            return line + "…"
        line = f"{line} {word}".strip()
        if word.endswith("."):
            break
    return line


def _french_record(command: click.Command, option: click.Option, ctx: click.Context,
                   is_help: bool) -> tuple[str, str]:
    """An option's line of the help, in French: « --hours NOMBRE  Ajoute ce nombre d'heures… »."""
    opts, _ = option.get_help_record(ctx) or ("", "")
    text = option_help(command, "help" if is_help else option.name or "") or ""
    extras = []
    extra = option.get_help_extra(ctx)
    if "envvars" in extra:
        extras.append("variable d'environnement\u00a0: " + ", ".join(extra["envvars"]))
    if "default" in extra:
        extras.append(f"par défaut\u00a0: {extra['default']}")
    if "range" in extra:
        extras.append(extra["range"])
    if "required" in extra:
        extras.append("obligatoire")
    if extras:
        text = (text + "  [" + "\u00a0; ".join(extras) + "]").strip()
    return french_placeholders(opts), text


class HelpGroup(HelpCommand, click.Group):
    """A `pbem` group: its help as `HelpCommand`'s, and so are its subcommands' and subgroups'."""

    command_class = HelpCommand
    group_class: type[click.Group] | type[type] | None = type  # a subgroup is a HelpGroup too


class CommandLine(HelpGroup):
    """The `pbem` group: click's usage errors and every `PbemError` in one line, in the configured language;
    the help of every command in it too."""

    group_class = HelpGroup

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["pbem.argv"] = list(args)  # `pbem --help` reads the language before --config is parsed
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        given = kwargs.get("args", args[0] if args else None)  # (CliRunner and callers pass their own)
        argv = None if given is None else list(given)
        try:
            return super().main(*args, **{**kwargs, "standalone_mode": False})
        except click.exceptions.NoArgsIsHelpError as e:  # `pbem game` alone: its help, as click shows it
            click.echo(e.ctx.get_help() if e.ctx is not None else e.format_message(), err=True)
            sys.exit(e.exit_code)
        except click.UsageError as e:
            click.echo(usage_error_text(e, _lang_before_context(argv)), err=True)
            sys.exit(e.exit_code)
        except PbemError as e:  # a user's mistake, or what cannot be done: one line in his language
            lang = _lang_before_context(argv)
            click.echo(("Error: " if lang == "en" else "Erreur\u00a0: ") + e.msg.get(lang), err=True)
            sys.exit(1)
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo("Abandon." if _lang_before_context(argv) == "fr" else "Aborted.", err=True)
            sys.exit(1)


def _lang_before_context(argv: list[str] | None = None) -> str:
    """The configured language when no click context is left, from the command line (``argv``, default
    the process's) and the environment (French when the config cannot be read)."""
    path = os.environ.get("PBEM_CONFIG", "config.toml")
    argv = sys.argv[1:] if argv is None else argv
    for i, a in enumerate(argv):
        if a == "--config" and i + 1 < len(argv):
            path = argv[i + 1]
        elif a.startswith("--config="):
            path = a.split("=", 1)[1]
    try:
        return configmod.load(path).language
    except (configmod.ConfigError, OSError):
        return "fr"
