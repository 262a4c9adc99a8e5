"""The `pbem` tools around the games: `export`, `verify`, `archive`, `demo`, `scenario`, `init`, `templates`,
`doctor`.  Each is a few lines over the library; its French help stands beside it (`french`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pbem import games
from pbem.cli.shell import (
    NOW,
    HelpCommand,
    HelpGroup,
    config,
    engine,
    french,
    language,
    message,
    now_from,
)
from pbem.cli.text import UserError, counted, msg, say
from pbem.msg import Msg
from pbem.units import UnitKind, cron_line
from pbem.wording import join_list, plural


@french("Tout sur une partie\u00a0: joueurs et leurs adresses, relevés des étapes avec les états cachés, "
        "ordres, jets de dés, événements, journal. C'est pour le MJ seul\u00a0: à qui vérifie les dés, donnez "
        "l'export --public.\n\n"
        "--csv donne le tableau du MJ, une ligne par joueur et par étape résolue (rôle, en jeu, d'où venaient "
        "ses ordres, silences d'affilée, statut)\u00a0: les rôles sont des informations cachées, ce fichier "
        "est pour le MJ seul, ne le partagez pas.\n\n"
        "Exemple\u00a0: pbem export pmb1 --json > pmb1.json",
        as_json="Sortie en JSON.",
        as_csv="Le tableau du MJ en CSV, une ligne par joueur et par étape (rôles compris\u00a0: pour le MJ seul).",
        with_seed="Inclut la graine même avant la fin de la partie (réservé au MJ\u00a0!).",
        public="Seulement ce que pbem verify demande (empreinte, graine révélée, jets de chaque étape publiée)\u00a0: "
               "ni adresse, ni état, ni ordre, ni événement. À partager une fois la partie finie.")
@click.command(cls=HelpCommand)
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.option("--csv", "as_csv", is_flag=True,
              help="The MJ's spreadsheet as CSV, one row per player and step (roles included: for the MJ alone).")
@click.option("--with-seed", is_flag=True, help="Include the seed even before the game ends (MJ only!).")
@click.option("--public", is_flag=True, help="Only what pbem verify needs (commitment, revealed seed, each "
              "published step's rolls): no address, state, order or event. To share once the game is over.")
@click.pass_context
def export(ctx: click.Context, game_id: str, as_json: bool, as_csv: bool, with_seed: bool, public: bool) -> None:
    """Everything about a game: players and their addresses, step records with their hidden states, orders,
    rolls, events, journal.  It is for the MJ alone: give whoever checks the dice the --public export.

    --csv gives the MJ's spreadsheet, one row per player and resolved step (role, in play, where the orders
    came from, silent steps in a row, status): roles are hidden information, this file is for the MJ alone,
    do not share it.

    Example: pbem export pmb1 --json > pmb1.json
    """
    if as_json == as_csv:
        raise UserError(msg("json_or_csv"))
    if as_csv and (public or with_seed):
        raise UserError(msg("csv_alone"))
    if public and with_seed:
        raise UserError(msg("public_with_seed"))
    if as_csv:
        from pbem.sheet import csv_text

        with engine(ctx, game_id, writes=False) as e:
            text = csv_text(e.table(game_id), language())
        click.echo(text, nl=False)
        click.echo(message("exported_csv", game=game_id), err=True)  # (stderr: the CSV alone goes to stdout)
        return
    with engine(ctx, game_id, writes=False) as e:
        data = e.public_export(game_id) if public else e.export(game_id, include_seed=True if with_seed else None)
    click.echo(json.dumps(data, ensure_ascii=False, indent=1))
    if public:  # (on stderr: the JSON alone goes where stdout is sent)
        lang = language()
        rolls = plural(sum(len(r["rolls"]) for r in data["records"]), "jet" if lang != "en" else "roll", lang=lang)
        records = plural(len(data["records"]), "relevé publié" if lang != "en" else "published record",
                         "relevés publiés" if lang != "en" else None, lang=lang)
        click.echo(message("exported_public", game=game_id, records=records, rolls=rolls), err=True)


@french("Écrit les archives publiques d'une partie en site HTML statique\u00a0: chaque message du forum, les "
        "images, des graphiques sur la partie et, une fois la graine révélée, la vérification des dés. "
        "Lisible hors ligne. DOSSIER doit être neuf, vide, ou une archive que pbem y a écrite (il n'efface que ses "
        "propres fichiers).\n\n"
        "Exemple\u00a0: pbem archive pmb1 archives/pmb1")
@click.command(cls=HelpCommand)
@click.argument("game_id")
@click.argument("folder", type=click.Path(file_okay=False))
@click.pass_context
def archive(ctx: click.Context, game_id: str, folder: str) -> None:
    """Write a game's public record as a static HTML site: every forum post, the pictures, charts over the game
    and, once the seed is revealed, the dice verification.  Readable offline.  FOLDER must be new, empty, or an
    archive pbem wrote there (it deletes only its own files).

    Example: pbem archive pmb1 archives/pmb1
    """
    from pbem.archive import build

    with engine(ctx, game_id, writes=False) as e:
        done = build(e, game_id, Path(folder))
    lang = language()
    made = join_list([plural(len(done.pages), "page", lang=lang),
                      plural(len(done.pictures), "image" if lang != "en" else "picture", lang=lang),
                      plural(len(done.charts), "graphique" if lang != "en" else "chart", lang=lang)], lang)
    click.echo(message("archived", made=made, folder=folder, index=Path(folder) / "index.html"))
    if done.removed:
        click.echo(message("archive_replaced", files=plural(len(done.removed), "fichier" if lang != "en" else "file",
                                                            lang=lang)))
    if done.kept:
        click.echo(message("archive_kept_one") if done.kept == 1 else message("archive_kept", n=done.kept))
    if done.verified is False:
        click.echo(message("archive_unverified"))


@french("Écrit le calendrier d'une partie (iCalendar, .ics)\u00a0: la fin des inscriptions, la date limite de "
        "l'étape ouverte et les pauses annoncées. Relancée, la commande met le fichier à jour\u00a0: un "
        "événement garde son identifiant et un agenda abonné au fichier le déplace quand sa date change. Tout y "
        "est public (les joueurs reçoivent chacune de ces dates par courriel)\u00a0: publiez-le où vous voulez.\n\n"
        "FICHIER, par défaut PARTIE.ics à côté de la base.\n\n"
        "Exemple\u00a0: pbem calendar pmb1 /var/www/pmb1.ics",
        )
@click.command(cls=HelpCommand)
@click.argument("game_id", metavar="GAME")
@click.argument("file", required=False, type=click.Path(dir_okay=False), metavar="[FILE]")
@NOW
@click.pass_context
def calendar(ctx: click.Context, game_id: str, file: str | None, now: str | None) -> None:
    """Write a game's calendar (iCalendar, .ics): the end of registration, the open step's deadline and the
    announced pauses.  Run again, it updates the file: an event keeps its identifier and a calendar
    subscribed to the file moves it when its date changes.  All of it is public (players get each of these
    dates by mail): publish it anywhere.

    FILE defaults to GAME.ics beside the database.

    Example: pbem calendar pmb1 /var/www/pmb1.ics
    """
    from pbem.ics import game_entries, write_calendar

    when = now_from(now)
    with engine(ctx, game_id, writes=False) as e:
        table = e.table(game_id)
        entries = game_entries(table, when)
        name = table.settings.title or game_id
        target = Path(file) if file else Path(table.config.database).parent / f"{game_id}.ics"
        lang = language()
    write_calendar(target, name, entries, lang, when)
    lang_events = plural(len(entries), "événement" if lang != "en" else "event", lang=lang)
    click.echo(message("calendar_written", file=target, events=lang_events))


@french("Vérifie la graine contre son engagement et recalcule chaque jet de dés enregistré.\n\n"
        "Exemple\u00a0: pbem verify --file pmb1.json --seed 3f2a...",
        seed="La graine révélée (par défaut, celle de la base).",
        export_file="Vérifie un export (pbem export --json) au lieu de la base.")
@click.command(cls=HelpCommand)
@click.argument("game_id", required=False)
@click.option("--seed", help="The revealed seed (default: the one in the database).")
@click.option("--file", "export_file", type=click.Path(exists=True, dir_okay=False),
              help="Check an export (pbem export --json) instead of the database.")
@click.pass_context
def verify(ctx: click.Context, game_id: str | None, seed: str | None, export_file: str | None) -> None:
    """Check the seed against its commitment and re-derive every recorded die roll.

    Example: pbem verify --file pmb1.json --seed 3f2a...
    """
    from pbem.audit import verification_report

    if export_file:
        with open(export_file, encoding="utf-8") as f:
            data = json.load(f)
        lines, ok = verification_report(data, seed, language())
    else:
        if not game_id:
            raise UserError(msg("game_or_file"))
        with engine(ctx, game_id, writes=False) as e:
            lines, ok = verification_report(e.export(game_id, include_seed=True), seed, language())
    for line in lines:
        click.echo(line)
    if not ok:
        raise UserError(counted("problems", len(lines)))


@french("Joue des parties scriptées par courriel sur des Maildir locaux, en temps simulé\u00a0; affiche où "
        "tout est allé.\n\n"
        "Exemple\u00a0: pbem demo pmb",
        out_dir="Où la démo écrit tout.")
@click.command(cls=HelpCommand)
@click.argument("which", default="all", type=click.Choice(["all", *games.demos()]))
@click.option("--dir", "out_dir", default="data/demo", show_default=True, help="Where the demo writes everything.")
def demo(which: str, out_dir: str) -> None:
    """Play scripted games by mail on local Maildirs with simulated time; print where everything went.

    Example: pbem demo pmb
    """
    from pbem.demo import run_demos

    for line in run_demos(which, Path(out_dir), language()):
        click.echo(line)


@french("Fichiers de scénario\u00a0: jouer un cas des règles d'un jeu depuis un fichier, sans courriel ni base.\n\n"
        "Exemple\u00a0: pbem scenario run docs/rules/pmb-cases/")
@click.group(cls=HelpGroup)
def scenario() -> None:
    """Scenario files: play one case of a game's rules from a file, without mail or database.

    Example: pbem scenario run docs/rules/pmb-cases/
    """


@french("Joue chaque CAS (un fichier .toml, ou un dossier de fichiers) et vérifie ce qu'il attend "
        "(format\u00a0: docs/scenarios.md).\n\n"
        "Code de sortie\u00a0: 0 quand toutes les attentes sont tenues, 1 quand l'une ne l'est pas, 2 quand un "
        "fichier est mal formé.\n\n"
        "Exemple\u00a0: pbem scenario run docs/rules/pmb-cases/C1-escouade-correcte-tue-la-cible.toml --lang en",
        lang="Langue du compte rendu.",
        quiet="Seulement les attentes non tenues et le résultat de chaque cas.",
        show_state="Affiche aussi l'état final de chaque cas (JSON).")
@scenario.command("run")
@click.argument("cases", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--lang", type=click.Choice(["fr", "en"]), default="fr", show_default=True, help="Language of the report.")
@click.option("-q", "--quiet", is_flag=True, help="Only the failed expectations and each case's result.")
@click.option("--etat", "show_state", is_flag=True, help="Also print each case's final state (JSON).")
def scenario_run(cases: tuple[str, ...], lang: str, quiet: bool, show_state: bool) -> None:
    """Play each CASE (a .toml file, or a folder of them) and check what it expects (format: docs/scenarios.md).

    Exit code: 0 when every expectation held, 1 when one did not, 2 when a file is malformed.

    Example: pbem scenario run docs/rules/pmb-cases/C1-escouade-correcte-tue-la-cible.toml --lang en
    """
    from pbem.scenario import RunTotals, run_files

    totals = RunTotals()
    for line in run_files(cases, lang, quiet=quiet, show_state=show_state, totals=totals):
        click.echo(line)
    sys.exit(totals.exit_code)


UNITS_KIND_EN = ("user: a user unit (systemctl --user), as you; system: a system service run by a user of its "
                 "own. Default: user when pbem or the folder is in a home directory (pipx), else system.")
UNITS_KIND_FR = ("user\u00a0: une unité utilisateur (systemctl --user), sous votre nom\u00a0; system\u00a0: un service "
                 "système, sous un utilisateur à lui. Par défaut\u00a0: user si pbem ou le dossier est dans un "
                 "dossier personnel (pipx), sinon system.")


@french("Crée un dossier de partie\u00a0: un config.toml commenté (Maildir locaux, un exemple de chaque jeu), "
        "data/, templates/, les unités systemd, le guide du MJ et les pages de règles (docs/), LISEZMOI.md.\n\n"
        "Lancez ensuite chaque commande pbem depuis ce dossier.\n\n"
        "Exemple\u00a0: pbem init ~/pourmabelle",
        user="L'utilisateur à qui est le service système (--kind system).",
        kind=UNITS_KIND_FR)
@click.command(cls=HelpCommand)
@click.argument("folder", type=click.Path(file_okay=False), metavar="FOLDER")
@click.option("--user", default="pbem", show_default=True, help="The user the system service runs as (--kind system).")
@click.option("--kind", type=click.Choice(["user", "system"]), help=UNITS_KIND_EN)
def init(folder: str, user: str, kind: str | None) -> None:
    """Create a game folder: a commented config.toml (local Maildirs, an example of every game), data/, templates/,
    systemd units, the MJ's guide and the rules pages (docs/), LISEZMOI.md.

    Run every pbem command from that folder afterwards.

    Example: pbem init ~/pourmabelle
    """
    from pbem.folder import init_folder

    try:
        made = init_folder(Path(folder), user=user, kind=_kind(kind))
    except OSError as e:  # (a FolderError is a PbemError: said in one line, in the configured language)
        raise UserError(Msg(f"impossible d'écrire\u00a0: {e}", f"cannot write: {e}")) from None
    for path in made.files:
        click.echo(f"  {path}")
    click.echo(message("folder_ready", folder=made.folder))


def _kind(kind: str | None) -> UnitKind | None:
    return "user" if kind == "user" else "system" if kind == "system" else None


@french("Réécrit les unités systemd du dossier de jeu (systemd/ à côté de config.toml) pour l'installation "
        "présente de pbem\u00a0; chaque fichier dit comment l'installer. pbem doctor vérifie ensuite que leur "
        "utilisateur peut lire le dossier et lancer pbem.\n\n"
        "Exemple\u00a0: pbem systemd --kind user",
        user="L'utilisateur à qui est le service système (--kind system).",
        kind=UNITS_KIND_FR)
@click.command("systemd", cls=HelpCommand)
@click.option("--user", default="pbem", show_default=True, help="The user the system service runs as (--kind system).")
@click.option("--kind", type=click.Choice(["user", "system"]), help=UNITS_KIND_EN)
@click.pass_context
def systemd(ctx: click.Context, user: str, kind: str | None) -> None:
    """Write the game folder's systemd units again (systemd/ beside config.toml) for this install of pbem; each
    file says how to install it.  pbem doctor then checks that their user can read the folder and run pbem.

    Example: pbem systemd --kind user
    """
    from pbem.folder import installed_pbem, write_units

    folder = Path(ctx.obj["config"]).resolve().parent
    for path in write_units(folder, user=user, kind=_kind(kind)):
        click.echo(f"  {path}")
    click.echo(message("units_written", cron=cron_line(folder, installed_pbem())))


@french("Les textes qu'écrit pbem, et ceux que remplace votre dossier de partie (templates/ à côté de "
        "config.toml).\n\n"
        "Exemple\u00a0: pbem templates list")
@click.group(cls=HelpGroup)
def templates() -> None:
    """The texts pbem writes, and the ones your game folder overrides (templates/ beside config.toml).

    Example: pbem templates list
    """


@french("Tous les modèles de pbem\u00a0; ceux que votre dossier remplace sont marqués (avec --game, ceux que "
        "remplace cette partie aussi).\n\n"
        "Exemple\u00a0: pbem templates list --game pmb1",
        game_id="Marque aussi ce que remplace cette partie seule (templates/PARTIE/).")
@templates.command("list")
@click.option("--game", "game_id", metavar="GAME", help="Also mark what this game alone overrides (templates/GAME/).")
@click.pass_context
def templates_list(ctx: click.Context, game_id: str | None) -> None:
    """Every template pbem has; those your folder overrides are marked (with --game, that game's own too).

    Example: pbem templates list --game pmb1
    """
    from pbem.folder import template_list

    folder = _templates_dir(ctx)
    if game_id is not None:
        _known_game(ctx, game_id)
    for name, overridden in template_list(folder, game_id):
        click.echo(f"{'*' if overridden else ' '} {name}")
    click.echo(message("overridden", folder=folder) if folder else message("no_templates"))


@french("Copie un modèle fourni (tel que listé) dans templates/ pour le modifier\u00a0; il sert dès la passe "
        "suivante, pour toutes les parties du dossier. Avec --game, il va dans templates/PARTIE/ et ne change "
        "que cette partie.\n\n"
        "Exemple\u00a0: pbem templates copy common/reminder.fr.j2 --game pmb1",
        force="Écrase un remplacement qui existe déjà.",
        game_id="Pour cette partie seule (templates/PARTIE/).")
@templates.command("copy")
@click.argument("name")
@click.option("--force", is_flag=True, help="Overwrite an override that exists already.")
@click.option("--game", "game_id", metavar="GAME", help="For this game alone (templates/GAME/).")
@click.pass_context
def templates_copy(ctx: click.Context, name: str, force: bool, game_id: str | None) -> None:
    """Copy a packaged template (as listed) into templates/ to edit it; it is used from the next pass on, for
    every game of the folder.  With --game it goes into templates/GAME/ and changes that game alone.

    Example: pbem templates copy common/reminder.fr.j2 --game pmb1
    """
    from pbem.folder import template_copy

    folder = config(ctx).templates_dir or Path("templates")
    if game_id is not None:
        _known_game(ctx, game_id)
    try:
        target = template_copy(name, folder, force=force, game_id=game_id)
    except OSError as e:  # (a FolderError is a PbemError: said in one line, in the configured language)
        raise UserError(Msg(f"impossible d'écrire\u00a0: {e}", f"cannot write: {e}")) from None
    click.echo(message("template_copied", target=target))


@french("Affiche le guide du MJ (en français), ou la page de règles d'un jeu\u00a0: comment pbem applique "
        "chaque phrase de la règle, ses options et ses arbitrages. pbem init en copie aussi chaque page dans "
        "docs/.\n\n"
        "Exemple\u00a0: pbem guide pmb",
        path="Affiche seulement le chemin du fichier (pour l'ouvrir dans un éditeur).",
        list_pages="Liste les pages.")
@click.command(cls=HelpCommand)
@click.argument("page", required=False, metavar="[PAGE]")
@click.option("--path", is_flag=True, help="Only print the file's path (to open it in an editor).")
@click.option("--list", "list_pages", is_flag=True, help="List the pages.")
def guide(page: str | None, path: bool, list_pages: bool) -> None:
    """Print the MJ's guide (in French), or a game's rules page: how pbem applies each sentence of the rules,
    its options and rulings.  pbem init also copies every page into docs/.

    Example: pbem guide pmb
    """
    from pbem.guide import page_path, pages

    if list_pages:
        for name in pages():
            click.echo(name)
        return
    where = page_path(page)
    if path:
        click.echo(str(where))
        return
    text = where.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=False)


@french("Vérifie la configuration, la connexion à la boîte aux lettres et la connexion SMTP. N'écrit rien.\n\n"
        "Exemple\u00a0: pbem doctor")
@click.command(cls=HelpCommand)
@click.pass_context
def doctor(ctx: click.Context) -> None:
    """Check the config, the mailbox login and the SMTP login.  Writes nothing.

    Example: pbem doctor
    """
    from pbem.doctor import Caution, checks

    ok = True
    for name, good, detail in checks(ctx.obj["config"], language()):
        ok &= good
        mark = message("fail") if not good else message("caution") if isinstance(detail, Caution) else message("ok")
        click.echo(f"[{mark}] {name}{':' if language() == 'en' else ' :'} {detail}")
    if not ok:
        sys.exit(1)


def _known_game(ctx: click.Context, game_id: str) -> None:
    """``--game`` names a game of config.toml (else the error lists them)."""
    games = config(ctx).games
    if game_id not in games:
        raise UserError(Msg(say("fr", "unknown_game", game=game_id, games=join_list(games, "fr") or "-"),
                            say("en", "unknown_game", game=game_id, games=join_list(games, "en") or "-")))


def _templates_dir(ctx: click.Context) -> Path | None:
    folder = config(ctx).templates_dir
    return folder if folder is not None and folder.is_dir() else None
