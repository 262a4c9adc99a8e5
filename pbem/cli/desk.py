"""The `pbem` commands of the MJ's seat: pause and resume, who is missing, his mail commands waiting for his OUI,
preview, approval, absences.

A thin layer like `pbem.cli.games` (whose groups they join, see `register`): each command is a few lines over
the engine; its French help stands beside it.
"""

from __future__ import annotations

import click

from pbem.cli.shell import NOW, HelpCommand, date_from, engine, french, language, message, now_from
from pbem.cli.text import UserError, msg


@french("Arrête l'horloge de la partie (dates limites, rappels) entre deux dates ou jusqu'à la reprise\u00a0; "
        "les joueurs sont prévenus.\n\n"
        "Les dates sont en ISO ou comme vous les écrivez (un jour sans heure en désigne le début\u00a0: "
        "--until \"17 février\" reprend le 17 à 0 h).\n\n"
        "Exemple\u00a0: pbem game pause pmb1 --from \"samedi 8 février\" --until \"lundi 17 février\" "
        "--reason vacances",
        start="Début de la pause (par défaut, maintenant).",
        until="Reprise du jeu (par défaut, quand vous la reprenez).",
        reason="Le motif, dit aux joueurs.")
@click.command("pause", cls=HelpCommand)
@click.argument("game_id")
@click.option("--from", "start", metavar="DATE", help="When the pause begins (default: now).")
@click.option("--until", "until", metavar="DATE", help="When play resumes (default: until you resume it).")
@click.option("--reason", default="", help="Told to the players.")
@NOW
@click.pass_context
def game_pause(ctx: click.Context, game_id: str, start: str | None, until: str | None, reason: str,
               now: str | None) -> None:
    """Stop the game's clock (deadlines, reminders) between two dates or until resumed; players are told.

    Dates are ISO or as you write them (a day without an hour is its start: --until "17 février"
    resumes on the 17th at 0 h).

    Example: pbem game pause pmb1 --from "samedi 8 février" --until "lundi 17 février" --reason vacances
    """
    with engine(ctx, game_id) as e:
        when = now_from(now)
        news = e.pause(game_id, date_from(ctx, "--from", start, when), date_from(ctx, "--until", until, when), reason, when)
        click.echo(message("paused", game=game_id, news=e.pause_text(game_id, news)))


@french("Termine la pause maintenant (ou en fixe la fin)\u00a0; le temps qui restait est rendu\u00a0; les "
        "joueurs sont prévenus.\n\n"
        "Exemple\u00a0: pbem game resume pmb1",
        at="Reprend plus tard, à cette date (par défaut, maintenant).")
@click.command("resume", cls=HelpCommand)
@click.argument("game_id")
@click.option("--at", "at", metavar="DATE", help="Resume later, at this date (default: now).")
@NOW
@click.pass_context
def game_resume(ctx: click.Context, game_id: str, at: str | None, now: str | None) -> None:
    """End the pause now (or set its end); the time that was left is given back; players are told.

    Example: pbem game resume pmb1
    """
    with engine(ctx, game_id) as e:
        when = now_from(now)
        news = e.resume(game_id, when, date_from(ctx, "--at", at, when))
        click.echo(message("paused", game=game_id, news=e.pause_text(game_id, news)))


@french("Qui doit encore donner ses ordres pour l'étape ouverte, qui est absent, ce qui retient la partie.\n\n"
        "Exemple\u00a0: pbem game missing pmb1")
@click.command("missing", cls=HelpCommand)
@click.argument("game_id")
@NOW
@click.pass_context
def game_missing(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Who still has to order for the open step, who is away, what holds the game.

    Example: pbem game missing pmb1
    """
    with engine(ctx, game_id, writes=False) as e:
        click.echo(e.missing_text(game_id, now_from(now)).rstrip())


@french("Les commandes du MJ reçues par courriel qui attendent sa confirmation (OUI en réponse à notre courriel, "
        "avec son code pour une commande qui ne se défait pas)\u00a0; avec --all, celles faites, abandonnées ou "
        "expirées aussi.\n\n"
        "Exemple\u00a0: pbem game confirmations pmb1",
        every="Toutes, pas seulement celles en attente.")
@click.command("confirmations", cls=HelpCommand)
@click.argument("game_id")
@click.option("--all", "every", is_flag=True, help="All of them, not only those waiting.")
@NOW
@click.pass_context
def game_confirmations(ctx: click.Context, game_id: str, every: bool, now: str | None) -> None:
    """The MJ's mail commands that wait for his confirmation (YES answering our mail, with its code for one that
    cannot be undone); with --all, those done, dropped or expired too.

    Example: pbem game confirmations pmb1
    """
    with engine(ctx, game_id, writes=False) as e:
        click.echo(e.confirmations_text(game_id, now_from(now), every=every).rstrip())


@french("Résout l'étape ouverte sur une copie, avec les ordres reçus et les valeurs par défaut\u00a0: résumé, "
        "message du forum, chaque lettre privée. Rien n'est enregistré ni envoyé.\n\n"
        "Exemple\u00a0: pbem turn preview pmb1")
@click.command("preview", cls=HelpCommand)
@click.argument("game_id")
@NOW
@click.pass_context
def turn_preview(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Resolve the open step on a copy, with the orders in and the defaults: digest, forum post, each private
    letter.  Nothing is stored or sent.

    Example: pbem turn preview pmb1
    """
    with engine(ctx, game_id) as e:  # (the preview resolves on a copy it rolls back: it needs the lock)
        click.echo(e.preview_text(game_id, now_from(now)).rstrip())


@french("Envoie les résultats qui attendent votre accord (publish = \"mj\")\u00a0; les ordres corrigés sont "
        "appliqués d'abord.\n\n"
        "Exemple\u00a0: pbem turn publish pmb1 3 --chronicle chronique.txt",
        chronicle="Un fichier (ou - pour l'entrée standard)\u00a0: le texte en tête du message du forum.")
@click.command("publish", cls=HelpCommand)
@click.argument("game_id")
@click.argument("number", type=int, required=False)
@click.option("--chronicle", type=click.File(encoding="utf-8"), help="A file (or - for stdin): the text that "
              "heads the forum post.")
@NOW
@click.pass_context
def turn_publish(ctx: click.Context, game_id: str, number: int | None, chronicle: object, now: str | None) -> None:
    """Send the results held for your approval (publish = "mj"); corrected orders are applied first.

    Example: pbem turn publish pmb1 3 --chronicle chronique.txt
    """
    text = chronicle.read() if chronicle is not None else None  # type: ignore[attr-defined]
    with engine(ctx, game_id) as e:
        done = e.publish(game_id, now_from(now), turn=number, chronicle=text)
        click.echo(message("published", game=game_id, news=e.published_text(game_id, done)))


@french("Enregistre l'absence d'un joueur (la règle d'absence de la partie s'applique\u00a0: valeurs par "
        "défaut, ou la date limite attend).\n\n"
        "Exemple\u00a0: pbem player absence pmb1 Arya --from \"8 février\" --until \"17 février\"",
        start="Début de l'absence (par défaut, maintenant).",
        until="Retour du joueur.",
        cancel="Annule les absences à venir du joueur.")
@click.command("absence", cls=HelpCommand)
@click.argument("game_id")
@click.argument("name")
@click.option("--from", "start", metavar="DATE", help="When the absence begins (default: now).")
@click.option("--until", "until", metavar="DATE", help="When the player is back.")
@click.option("--cancel", is_flag=True, help="Call off the player's absences to come.")
@NOW
@click.pass_context
def player_absence(ctx: click.Context, game_id: str, name: str, start: str | None, until: str | None, cancel: bool,
                   now: str | None) -> None:
    """Record a player's absence (the game's absence policy applies: defaults, or the deadline waits).

    Example: pbem player absence pmb1 Arya --from "8 février" --until "17 février"
    """
    with engine(ctx, game_id) as e:
        when = now_from(now)
        if cancel:
            click.echo(message("absence", game=game_id, news=str(e.cancel_absence(game_id, name, when))))
            return
        end = date_from(ctx, "--until", until, when)
        if end is None:
            raise UserError(msg("bad_date", option="--until", why="?"))
        row = e.absence(game_id, name, date_from(ctx, "--from", start, when), end, when)
        from pbem.engine.when import period_text

        click.echo(message("absence", game=game_id, news=f"{row.player} : " + period_text(
            row.starts_at, row.ends_at, e.config.timezone, language())))


def register(game: click.Group, turn: click.Group, player: click.Group) -> None:
    """Add these commands to the groups of `pbem.cli`."""
    for command in (game_pause, game_resume, game_missing, game_confirmations):
        game.add_command(command)
    for command in (turn_preview, turn_publish):
        turn.add_command(command)
    player.add_command(player_absence)
