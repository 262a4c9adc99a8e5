"""The `pbem` command: a thin shell over the library.  Each command is a few lines; the work is elsewhere.

The root (`main`) and its groups: a game's life (`games`), mail (`mail`), the MJ's seat (`desk`, whose
commands join the game's groups), the tools (`tools`); what they share, the config, the engine under
the pass lock, the language and the dates, in `shell`; their texts in `text`.

The root loads a command's module when the command is asked for (`Commands`): a cron's `pbem tick` loads
`mail` and what it needs, not the game desk nor the tools (issue #24, the cold start).
"""

from __future__ import annotations

import importlib
import logging

import click

from pbem import config as configmod
from pbem.cli.shell import CommandLine, french
from pbem.ticktext import SaidFormatter

__all__ = ["main"]

# each command of the root, by the module that defines it (``pbem.cli.<module>.<attribute>``)
COMMANDS: dict[str, tuple[str, str]] = {
    **{name: ("games", name) for name in ("game", "player", "turn", "orders")},
    **{name: ("mail", name) for name in ("run", "tick", "mail", "outbox", "gc")},
    **{name: ("tools", name) for name in ("export", "verify", "archive", "demo", "scenario", "init", "templates",
                                          "doctor", "guide", "systemd", "calendar")},
}


def _log_language(obj: dict[str, object]) -> str:
    """The language the log is written in: the configuration's (French when it cannot be read), read once, when
    the first record is written (the click context is not asked: the daemon's threads log outside it)."""
    if "lang" not in obj:
        try:
            obj["lang"] = configmod.load(str(obj["config"])).language
        except Exception:  # (a log line must never fail: the config's own error is said by the command)
            obj["lang"] = "fr"
    return str(obj["lang"])


def _load(module: str) -> object:
    """A command module, loaded on first use (for speed: `pbem tick` does not pay for the others; no circle is
    dodged, `pbem.cli.games` and the rest never import this package's root)."""
    loaded = importlib.import_module(f"pbem.cli.{module}")
    if module == "games" and not getattr(loaded, "_desk_joined", False):
        desk = importlib.import_module("pbem.cli.desk")  # the MJ's seat joins the game's groups
        desk.register(loaded.game, loaded.turn, loaded.player)
        loaded._desk_joined = True  # type: ignore[attr-defined]
    return loaded


class Commands(CommandLine):
    """The root group whose commands are loaded when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name]
        command = getattr(_load(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                           list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as e:  # click suggests among the commands loaded: all of ours
            raise click.exceptions.NoSuchCommand(e.command_name, possibilities=COMMANDS, ctx=ctx) from None


@french("pbem\u00a0: le MJ automatique des parties par courriel.\n\n"
        "Exemple\u00a0: pbem tick",
        config_path="Fichier de configuration (variable d'environnement PBEM_CONFIG).",
        verbose="Journalise ce que fait le démon.",
        version="Affiche la version de pbem et s'arrête.")
@click.group(cls=Commands)
@click.version_option(package_name="pbem", message="pbem %(version)s", help="Show pbem's version and exit.")
@click.option("--config", "config_path", envvar="PBEM_CONFIG", default="config.toml", show_default=True,
              type=click.Path(dir_okay=False), help="Config file (env PBEM_CONFIG).")
@click.option("-v", "--verbose", is_flag=True, help="Log what the daemon does.")
@click.pass_context
def main(ctx: click.Context, config_path: str, verbose: bool) -> None:
    """pbem: play-by-email game master automation.

    Example: pbem tick
    """
    ctx.ensure_object(dict)
    ctx.obj["config"] = config_path
    handler = logging.StreamHandler()
    handler.setFormatter(SaidFormatter("%(asctime)s %(message)s", lambda: _log_language(ctx.obj)))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, SaidFormatter)]:
        root.removeHandler(old)  # (an earlier command of this process, with its own configuration's language)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, handlers=[handler])
