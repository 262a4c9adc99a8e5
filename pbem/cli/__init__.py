"""The `pbem` command: a thin shell over the library.  Each command is a few lines; the work is elsewhere.

The root (`main`) and its groups: a game's life (`games`), mail (`mail`), the MJ's seat (`desk`, whose
commands join the game's groups), the tools (`tools`); what they share, the config, the engine under
the pass lock, the language and the dates, in `shell`; their texts in `text`.
"""

from __future__ import annotations

import logging

import click

from pbem.cli import desk, games, mail, tools
from pbem.cli.shell import CommandLine, french

__all__ = ["main"]


@french("pbem\u00a0: le MJ automatique des parties par courriel.\n\n"
        "Exemple\u00a0: pbem tick",
        config_path="Fichier de configuration (variable d'environnement PBEM_CONFIG).",
        verbose="Journalise ce que fait le démon.",
        version="Affiche la version de pbem et s'arrête.")
@click.group(cls=CommandLine)
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
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(asctime)s %(message)s")


for command in (games.game, games.player, games.turn, games.orders, mail.run, mail.tick, mail.mail, mail.outbox, mail.gc,
                tools.export, tools.verify, tools.archive, tools.demo, tools.scenario, tools.init, tools.templates,
                tools.doctor, tools.guide, tools.systemd, tools.calendar):
    main.add_command(command)
desk.register(games.game, games.turn, games.player)
