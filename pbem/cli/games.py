"""The `pbem` commands of a game's life: `game` (new, start, finish, status, list, extend), `player`, `turn` and
`orders`.  Each is a few lines over the engine; its French help stands beside it (`french`)."""

from __future__ import annotations

import tomllib

import click

from pbem.cli.shell import (
    NOW,
    HelpGroup,
    date_from,
    engine,
    french,
    language,
    local_text,
    message,
    now_from,
    step_word,
)
from pbem.cli.text import UserError, msg
from pbem.clock import utcnow
from pbem.engine import Engine
from pbem.store import PlayerRow
from pbem.wording import StepNoun, join_list, plural


@french("Créer, lancer et consulter les parties.\n\n"
        "Exemple\u00a0: pbem game list")
@click.group(cls=HelpGroup)
def game() -> None:
    """Create, start and inspect games.

    Example: pbem game list
    """


@french("Crée GAME_ID (déclarée dans config.toml) et ouvre les inscriptions.\n\n"
        "Exemple\u00a0: pbem game new pmb1",
        seed="Fixe la graine secrète (hexadécimale)\u00a0; par défaut, une graine tirée au hasard.")
@game.command("new")
@click.argument("game_id")
@click.option("--seed", help="Fix the secret seed (hex); default: a fresh random one.")
@NOW
@click.pass_context
def game_new(ctx: click.Context, game_id: str, seed: str | None, now: str | None) -> None:
    """Create GAME_ID (declared in config.toml) and open registration.

    Example: pbem game new pmb1
    """
    with engine(ctx, game_id) as e:
        g = e.new_game(game_id, now_from(now), seed)
        click.echo(message("registration_open", game=game_id, until=local_text(e.local(game_id, g.deadline))))
        click.echo(message("commitment", commitment=g.commitment))


@french("Clôt les inscriptions maintenant, distribue les rôles et écrit à chacun.\n\n"
        "Exemple\u00a0: pbem game start pmb1")
@game.command("start")
@click.argument("game_id")
@NOW
@click.pass_context
def game_start(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Close registration now, deal roles and mail everyone.

    Example: pbem game start pmb1
    """
    with engine(ctx, game_id) as e:
        g = e.start_game(game_id, now_from(now))
        click.echo(message("started", game=game_id, turn=g.turn, deadline=local_text(e.local(game_id, g.deadline))))


@french("Termine une partie maintenant (une campagne 1626 ne s'achève pas d'elle-même) et révèle la graine des dés.\n\n"
        "Exemple\u00a0: pbem game finish gant --yes",
        yes="Ne demande pas de confirmation.")
@game.command("finish")
@click.argument("game_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@NOW
@click.pass_context
def game_finish(ctx: click.Context, game_id: str, yes: bool, now: str | None) -> None:
    """End a game now (a 1626 campaign has no end of its own) and reveal the dice seed.

    Example: pbem game finish gant --yes
    """
    if not yes:
        click.confirm(message("confirm_finish", game=game_id), abort=True)
    with engine(ctx, game_id) as e:
        g = e.finish(game_id, now_from(now))
        click.echo(message("finished", game=game_id, seed=g.seed))


@french("Phase, étape, date limite, qui a donné ses ordres, une pause, des résultats à approuver.\n\n"
        "Exemple\u00a0: pbem game status pmb1")
@game.command("status")
@click.argument("game_id")
@NOW
@click.pass_context
def game_status(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Phase, step, deadline, who has ordered, a pause, results to approve.

    Example: pbem game status pmb1
    """
    with engine(ctx, game_id, writes=False) as e:
        st = e.status(game_id, now_from(now))
        early = message("status_early", early=local_text(st.early)) if st.early else ""
        click.echo(message("status_head", game=game_id, ruleset=st.ruleset,
                           standing=_standing(e, game_id, st.phase, st.turn, st.last_step)))
        frozen = st.pause is not None and st.pause.now and st.pause.open_end
        if st.deadline and not frozen:  # (during a pause until further notice, the deadline is frozen: no date)
            click.echo(message("status_deadline", deadline=local_text(st.deadline), early=early))
        if st.pause is not None:
            click.echo(message("status_paused", until=st.pause.until, frozen=message("status_frozen") if frozen else "")
                       if st.pause.now else message("status_pause_planned", period=st.pause.period))
        if st.held is not None:
            noun = StepNoun(e.step_word(game_id), language())
            click.echo(message("status_held", of=noun.of, step=noun.noun, turn=st.held, game=game_id))
        click.echo(message("status_commitment", commitment=st.commitment))
        click.echo(message("status_players", players=st.players))
        if st.dead:
            click.echo(message("status_dead", names=join_list(st.dead, language())))
        if st.prompted:
            click.echo(message("status_orders", done=st.ordered, asked=st.prompted))
        if st.waiting:
            click.echo(message("status_waiting", names=join_list(st.waiting, language())))
        if st.missed:
            click.echo(message("status_missed", names=join_list(
                [message("missed_one", name=n, steps=plural(k, step_word(e, game_id), lang=language()),
                    abandoned=message("missed_abandoned") if n in st.abandoned else "") for n, k in st.missed.items()],
                language())))


@french("Toutes les parties de la base et de config.toml.\n\n"
        "Exemple\u00a0: pbem game list")
@game.command("list")
@click.pass_context
def game_list(ctx: click.Context) -> None:
    """Every game in the database and in config.toml.

    Example: pbem game list
    """
    with engine(ctx, writes=False) as e:
        known = {g.id: g for g in e.store.games()}
        for gid, s in e.config.games.items():
            g = known.get(gid)
            last = e.status(gid, utcnow()).last_step if g and g.phase == "finished" else None
            state = _standing(e, gid, g.phase, g.turn, last) if g else message("list_not_created", game=gid)
            click.echo(message("list_line", game=f"{gid:12}", tag=s.tag, title=s.title, standing=state))


def _standing(e: Engine, game_id: str, phase: str, turn: int, last_step: int | None) -> str:
    """Where a game stands, in a few words: « inscriptions », « en cours, tour 3 », « terminée au tour 7 »."""
    noun = StepNoun(e.step_word(game_id), language())
    if phase == "running":
        return message("standing_running", step=noun.noun, turn=turn)
    if phase == "finished" and last_step is not None:
        return message("standing_finished_at", to=noun.to, step=noun.noun, turn=last_step)
    return message(f"phase_{phase}")


@french("Déplace la date limite de l'étape ouverte\u00a0; chaque joueur est prévenu.\n\n"
        "Exemple\u00a0: pbem game extend pmb1 --hours 24",
        hours="Ajoute ce nombre d'heures à la date limite actuelle.",
        until="Nouvelle date limite\u00a0: ISO, ou comme vous l'écrivez («\u00a0lundi 17 février à 21 h\u00a0»).",
        earlier="Permet d'avancer la date limite (les joueurs sont prévenus).")
@game.command("extend")
@click.argument("game_id")
@click.option("--hours", type=float, help="Add this many hours to the current deadline.")
@click.option("--until", "until", metavar="DATE", help="New deadline: ISO, or as you write it (\"lundi 17 février à 21 h\").")
@click.option("--earlier", is_flag=True, help="Allow moving the deadline earlier (players are told).")
@NOW
@click.pass_context
def game_extend(ctx: click.Context, game_id: str, hours: float | None, until: str | None, earlier: bool,
                now: str | None) -> None:
    """Move the deadline of the open step; every player is told.

    Example: pbem game extend pmb1 --hours 24
    """
    if (hours is None) == (until is None):
        raise UserError(msg("hours_or_until"))
    with engine(ctx, game_id) as e:
        when = now_from(now)
        target = date_from(ctx, "--until", until, when) or e.deadline_plus(game_id, hours or 0.0)
        done = e.extend(game_id, target, when, allow_earlier=earlier)
        click.echo(message("deadline_now", game=game_id, deadline=local_text(e.local(game_id, done))))


@french("Ajouter, retirer ou remplacer des joueurs (le côté MJ des inscriptions).\n\n"
        "Exemple\u00a0: pbem player list pmb1")
@click.group(cls=HelpGroup)
def player() -> None:
    """Add, remove or replace players (the MJ's side of registration).

    Example: pbem player list pmb1
    """


@french("Inscrit NAME à l'adresse ADDRESS pendant les inscriptions.\n\n"
        "Exemple\u00a0: pbem player add pmb1 \"dame Olenna\" olenna@example.org --gender f",
        role="Fixe le rôle de ce joueur (reprise d'une partie, tests).",
        sheet="Fichier TOML avec les données du joueur.",
        gender="Les textes s'accordent à ce genre (sinon ils restent neutres).")
@player.command("add")
@click.argument("game_id")
@click.argument("name")
@click.argument("address")
@click.option("--role", help="Fix this player's role (resuming a game, tests).")
@click.option("--sheet", type=click.Path(exists=True, dir_okay=False), help="TOML file with the player's data.")
@click.option("--gender", type=click.Choice(["f", "m"]), help="The texts agree with it (else they are neutral).")
@NOW
@click.pass_context
def player_add(ctx: click.Context, game_id: str, name: str, address: str, role: str | None, sheet: str | None,
               gender: str | None, now: str | None) -> None:
    """Register NAME at ADDRESS during registration.

    Example: pbem player add pmb1 "dame Olenna" olenna@example.org --gender f
    """
    data = None
    if sheet:
        with open(sheet, "rb") as f:
            data = tomllib.load(f)
    with engine(ctx, game_id) as e:
        p = e.add_player(game_id, name, address, now_from(now), role=role, data=data, gender=gender)
        click.echo(message("registered", game=game_id, name=p.name, address=p.address))
        if e.settings(game_id).passwords:  # (passwords = true: pbem made one, and mails it to the player)
            click.echo(message("password_mailed", address=p.address))


@french("Cesse d'écrire à NAME (qui en est prévenu)\u00a0; ses décisions prennent les valeurs par défaut "
        "des règles.\n\n"
        "Exemple\u00a0: pbem player remove pmb1 Arya --at-end",
        at_end="À la fin de l'étape ouverte\u00a0: ses ordres pour cette étape comptent encore.")
@player.command("remove")
@click.argument("game_id")
@click.argument("name")
@click.option("--at-end", is_flag=True, help="At the end of the open step: their orders for it still count.")
@NOW
@click.pass_context
def player_remove(ctx: click.Context, game_id: str, name: str, at_end: bool, now: str | None) -> None:
    """Stop mailing NAME (they are told); their decisions take the rules' defaults.

    Example: pbem player remove pmb1 Arya --at-end
    """
    with engine(ctx, game_id) as e:
        news = e.remove_player(game_id, name, now_from(now), at_end=at_end)
        detail = message("removed_at_end", turn=news.after_turn) if not news.now else ""
        click.echo(message("removed", game=game_id, name=news.player, detail=detail))


@french("Un nouveau venu reprend la place de NAME (même personnage, nouvelle adresse)\u00a0; il reçoit un "
        "briefing, l'ancienne adresse est prévenue.\n\n"
        "Exemple\u00a0: pbem player replace pmb1 Arya jeanne@example.org --name \"Jeanne Dupont\"",
        new_name="Le nom du nouveau venu (pour le courriel de bienvenue).",
        from_turn="L'étape à partir de laquelle le nouveau venu joue (par défaut, l'étape ouverte).")
@player.command("replace")
@click.argument("game_id")
@click.argument("name")
@click.argument("new_address")
@click.option("--name", "new_name", default="", help="The newcomer's own name (for the welcome mail).")
@click.option("--from-turn", type=int, help="The step from which the newcomer plays (default: the open one).")
@NOW
@click.pass_context
def player_replace(ctx: click.Context, game_id: str, name: str, new_address: str, new_name: str,
                   from_turn: int | None, now: str | None) -> None:
    """A newcomer takes over NAME's seat (same character, new address); they get a briefing, the old address is told.

    Example: pbem player replace pmb1 Arya jeanne@example.org --name "Jeanne Dupont"
    """
    with engine(ctx, game_id) as e:
        news = e.replace_player(game_id, name, new_address, now_from(now), new_name=new_name, from_turn=from_turn)
        detail = message("replaced_later", turn=(news.after_turn or 0) + 1) if not news.now else ""
        click.echo(message("replaced", game=game_id, name=news.player, address=news.new_address, detail=detail))


@french("Renvoie à NAME ses résultats d'une étape (par défaut, la dernière publiée). Les résultats d'un joueur ne "
        "vont qu'à lui\u00a0: --to ne peut nommer que lui.\n\n"
        "Exemple\u00a0: pbem player resend pmb1 Arya --turn 3",
        turn="L'étape (0\u00a0: le courriel de début de partie)\u00a0; par défaut, la dernière publiée.",
        to="À qui (le joueur lui-même\u00a0; tout autre est refusé).")
@player.command("resend")
@click.argument("game_id")
@click.argument("name")
@click.option("--turn", type=int, help="The step (0: the start mail); default: the last one published.")
@click.option("--to", "to", help="To whom (the player themself; anyone else is refused).")
@NOW
@click.pass_context
def player_resend(ctx: click.Context, game_id: str, name: str, turn: int | None, to: str | None,
                  now: str | None) -> None:
    """Mail NAME their results of a step again (default: the last one published).  A player's results go to
    them alone: --to may name only them.

    Example: pbem player resend pmb1 Arya --turn 3
    """
    with engine(ctx, game_id) as e:
        letter = e.resend(game_id, name, turn, now_from(now), to=to)
        click.echo(message("resent", game=game_id, name=e.table(game_id).player_named(name).name,
                           subject=letter.subject))


@french("Donne à NAME les surnoms SURNOM… que vous employez dans vos courriels de MJ («\u00a0retire "
        "Littlefinger\u00a0»)\u00a0: pbem les comprend, et vous demande confirmation avant d'agir. Sans surnom, "
        "les oublie.\n\n"
        "Exemple\u00a0: pbem player nickname pmb1 Petit-Doigt Littlefinger PD")
@player.command("nickname")
@click.argument("game_id")
@click.argument("name")
@click.argument("nicknames", nargs=-1)
@NOW
@click.pass_context
def player_nickname(ctx: click.Context, game_id: str, name: str, nicknames: tuple[str, ...], now: str | None) -> None:
    """Give NAME the nicknames NICKNAME… you use in your MJ mail (« remove Littlefinger »): pbem reads them, and
    asks you to confirm before it acts.  With none, forgets them.

    Example: pbem player nickname pmb1 Petit-Doigt Littlefinger PD
    """
    with engine(ctx, game_id) as e:
        player, given = e.set_nicknames(game_id, name, nicknames, now_from(now))
        if given:
            lang = language()
            quoted = [f"«\u00a0{n}\u00a0»" if lang != "en" else f'"{n}"' for n in given]
            click.echo(message("nicknamed", game=game_id, name=player,
                               nicknames=join_list(quoted, lang, "ou" if lang != "en" else "or")))
        else:
            click.echo(message("nicknames_cleared", game=game_id, name=player))


@french("Les joueurs et leurs adresses.\n\n"
        "Exemple\u00a0: pbem player list pmb1")
@player.command("list")
@click.argument("game_id")
@click.pass_context
def player_list(ctx: click.Context, game_id: str) -> None:
    """Players and their addresses.

    Example: pbem player list pmb1
    """
    with engine(ctx, game_id, writes=False) as e:
        dead = set(e.status(game_id, utcnow()).dead)
        nicknames = e.store.nicknames(game_id)
        for p in e.store.players(game_id, include_removed=True):
            also = f"  ({', '.join(nicknames[p.name])})" if p.name in nicknames else ""
            click.echo(f"{p.name:24} {p.address:36} {_player_status(p, dead)}{also}")


def _player_status(p: PlayerRow, dead: set[str]) -> str:
    """« en jeu », « mort » / « morte » (« a perdu la vie » without a gender), « retiré de la partie »…"""
    if p.status == "removed":
        key = "player_removed"
    elif p.name in dead:
        key = "player_dead"
    else:
        return message("player_playing")
    return message(key + {"m": "", "f": "_f"}.get(p.gender or "", "_n"))


@french("Consulter, résoudre et recalculer les étapes.\n\n"
        "Exemple\u00a0: pbem turn show pmb1 3")
@click.group(cls=HelpGroup)
def turn() -> None:
    """Look at, resolve and re-run steps.

    Example: pbem turn show pmb1 3
    """


@french("Le résumé MJ d'une étape résolue (par défaut, la dernière)\u00a0; dans une partie 1626, ses tests "
        "(NUMBER\u00a0: un seul relevé).\n\n"
        "Exemple\u00a0: pbem turn show pmb1 3")
@turn.command("show")
@click.argument("game_id")
@click.argument("number", type=int, required=False)
@click.pass_context
def turn_show(ctx: click.Context, game_id: str, number: int | None) -> None:
    """The MJ digest of a resolved step (default: the last one); in a 1626 game, its tests (NUMBER: one record).

    Example: pbem turn show pmb1 3
    """
    with engine(ctx, game_id, writes=False) as e:
        click.echo(e.digest_text(game_id, number))


@french("Résout l'étape ouverte maintenant, sans attendre la date limite (les courriels sont mis en file\u00a0; "
        "pbem tick les envoie).\n\n"
        "Exemple\u00a0: pbem turn resolve pmb1")
@turn.command("resolve")
@click.argument("game_id")
@NOW
@click.pass_context
def turn_resolve(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Resolve the open step now, without waiting for the deadline (mails are queued; pbem tick sends them).

    Example: pbem turn resolve pmb1
    """
    with engine(ctx, game_id) as e:
        turn_no = e.game(game_id).turn
        click.echo(message("resolved" if e.resolve(game_id, now_from(now)) else "not_resolved", game=game_id, turn=turn_no))


@french("Recalcule l'étape NUMBER à partir de son relevé (avec les ordres corrigés), montre les différences "
        "et, sur demande, publie.\n\n"
        "Exemple\u00a0: pbem turn rerun pmb1 3 --publish",
        publish="Remplace les résultats publiés et envoie un RECTIFICATIF.")
@turn.command("rerun")
@click.argument("game_id")
@click.argument("number", type=int)
@click.option("--publish", is_flag=True, help="Replace the published results and mail a RECTIFICATIF.")
@NOW
@click.pass_context
def turn_rerun(ctx: click.Context, game_id: str, number: int, publish: bool, now: str | None) -> None:
    """Recompute step NUMBER from its record (with corrected orders), show the diff, optionally publish.

    Example: pbem turn rerun pmb1 3 --publish
    """
    with engine(ctx, game_id) as e:
        res = e.rerun(game_id, number, now_from(now), publish=publish)
        if not res.diff and not res.state_changed:
            click.echo(message("rerun_same", turn=number))
            return
        for line in res.diff:
            click.echo(line)
        if res.state_changed and not res.diff:
            click.echo(message("rerun_state", turn=number))
        click.echo(message("rerun_published" if res.published else "rerun_not_published"))


@french("Voir et corriger les ordres (les corrections du MJ sont journalisées).\n\n"
        "Exemple\u00a0: pbem orders show pmb1")
@click.group(cls=HelpGroup)
def orders() -> None:
    """See and correct orders (MJ overrides are logged).

    Example: pbem orders show pmb1
    """


@french("Les ordres en cours de chaque joueur pour une étape, avec leur provenance.\n\n"
        "Exemple\u00a0: pbem orders show pmb1 --turn 2",
        turn_no="Numéro de l'étape (par défaut, l'étape ouverte).")
@orders.command("show")
@click.argument("game_id")
@click.option("--turn", "turn_no", type=int, help="Step number (default: the open one).")
@click.pass_context
def orders_show(ctx: click.Context, game_id: str, turn_no: int | None) -> None:
    """Current orders of every player for a step, with their source.

    Example: pbem orders show pmb1 --turn 2
    """
    with engine(ctx, game_id, writes=False) as e:
        t = e.game(game_id).turn if turn_no is None else turn_no
        for name, o in sorted(e.store.current_orders(game_id, t).items()):
            click.echo(f"{name} [{o.source} {local_text(e.local(game_id, o.received_at))}]")
            for x in o.orders:
                click.echo(f"    {x.text or x.verb}")


@french("Fixe les ordres de PLAYER_NAME, un argument par ligne.\n\n"
        "Exemple\u00a0: pbem orders set pmb1 Arya \"ESCOUADE Joffrey\"",
        turn_no="Corrige une étape résolue (ensuite\u00a0: pbem turn rerun).")
@orders.command("set")
@click.argument("game_id")
@click.argument("player_name")
@click.argument("lines", nargs=-1, required=True)
@click.option("--turn", "turn_no", type=int, help="Correct a resolved step (then: pbem turn rerun).")
@NOW
@click.pass_context
def orders_set(ctx: click.Context, game_id: str, player_name: str, lines: tuple[str, ...], turn_no: int | None,
               now: str | None) -> None:
    """Set PLAYER_NAME's orders, one argument per line.

    Example: pbem orders set pmb1 Arya "ESCOUADE Joffrey"
    """
    with engine(ctx, game_id) as e:
        verdicts = e.set_orders_mj(game_id, player_name, list(lines), now_from(now), turn_no)
        for v in verdicts:
            click.echo(f"{v.text}: {'OK' if v.ok else v.note}")
        if any(not v.ok for v in verdicts):
            raise UserError(msg("orders_unchanged"))
