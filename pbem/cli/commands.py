"""The `pbem` command: a thin shell over the library.  Each command is a few lines; the work is elsewhere."""

from __future__ import annotations

import json
import logging
import sys
import tomllib
from pathlib import Path

import click

from pbem.cli.shell import NOW, CommandLine, _config, _date, _engine, _lang, _now, _step, _t, _when
from pbem.cli.text import UserError, count
from pbem.clock import parse_iso
from pbem.wording import join_list, plural


@click.group(cls=CommandLine)
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


# ---------------------------------------------------------------- running


@main.command()
@click.pass_context
def run(ctx: click.Context) -> None:
    """Run the daemon: polls (or IDLEs on) the mailbox, fires deadlines, sends mail.

    Example: pbem run
    """
    from pbem.daemon import run as run_daemon

    logging.getLogger().setLevel(logging.INFO)
    run_daemon(_config(ctx))


@main.command()
@NOW
@click.pass_context
def tick(ctx: click.Context, now: str | None) -> None:
    """One pass for cron: fetch, process, fire due deadlines and reminders, send.

    Exits 1 (reasons on stderr) when the pass hit errors: a resolution or a mail that failed, a mailbox
    that could not be read, a configuration the SMTP server refuses. Only one pass runs at a time on a
    database: a second one waits up to pbem.lock_wait_seconds, then steps aside (exit 0, one line on
    stderr), or exits 1 if the running pass looks stuck.

    Example: pbem tick --now 2026-12-01T21:05
    """
    from pbem.daemon import open_store
    from pbem.daemon import tick as do_tick
    from pbem.passlock import PassLock

    cfg = _config(ctx)
    when = _now(now)
    with PassLock(cfg.database) as lock:
        if not lock.acquire(cfg.lock_wait_seconds, who="pbem tick"):
            holder, stuck = lock.describe_holder()
            if stuck:
                click.echo(f"pbem tick: {holder} holds the data and looks stuck; this pass steps aside", err=True)
                sys.exit(1)
            click.echo(f"pbem tick: {holder} is already working on this data; this pass steps aside", err=True)
            return
        store = open_store(cfg)
        try:
            report = do_tick(cfg, store, when)
        finally:
            store.close()
    click.echo(report.summary())
    if report.errors:
        for error in report.errors:
            click.echo(f"pbem tick: {error}", err=True)
        sys.exit(1)


# ---------------------------------------------------------------- games


@main.group()
def game() -> None:
    """Create, start and inspect games.

    Example: pbem game list
    """


@game.command("new")
@click.argument("game_id")
@click.option("--seed", help="Fix the secret seed (hex); default: a fresh random one.")
@NOW
@click.pass_context
def game_new(ctx: click.Context, game_id: str, seed: str | None, now: str | None) -> None:
    """Create GAME_ID (declared in config.toml) and open registration.

    Example: pbem game new pmb1
    """
    with _engine(ctx, game_id) as e:
        g = e.new_game(game_id, _now(now), seed)
        click.echo(_t("registration_open", game=game_id, until=_when(e.local(game_id, g.deadline))))
        click.echo(_t("commitment", commitment=g.commitment))


@game.command("start")
@click.argument("game_id")
@NOW
@click.pass_context
def game_start(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Close registration now, deal roles and mail everyone.

    Example: pbem game start pmb1
    """
    with _engine(ctx, game_id) as e:
        g = e.start_game(game_id, _now(now))
        click.echo(_t("started", game=game_id, turn=g.turn, deadline=_when(e.local(game_id, g.deadline))))


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
        click.confirm(_t("confirm_finish", game=game_id), abort=True)
    with _engine(ctx, game_id) as e:
        g = e.finish(game_id, _now(now))
        click.echo(_t("finished", game=game_id, seed=g.seed))


@game.command("status")
@click.argument("game_id")
@click.pass_context
def game_status(ctx: click.Context, game_id: str) -> None:
    """Phase, step, deadline, who has ordered.

    Example: pbem game status pmb1
    """
    with _engine(ctx, game_id, writes=False) as e:
        st = e.status(game_id)
        early = _t("status_early", early=_when(st.early)) if st.early else ""
        click.echo(_t("status_head", game=game_id, ruleset=st.ruleset, phase=_t(f"phase_{st.phase}"), turn=st.turn))
        click.echo(_t("status_deadline", deadline=_when(st.deadline), early=early))
        click.echo(_t("status_commitment", commitment=st.commitment))
        click.echo(_t("status_players", players=st.players))
        if st.prompted:
            click.echo(_t("status_orders", done=st.prompted - len(st.waiting), asked=st.prompted))
        if st.waiting:
            click.echo(_t("status_waiting", names=join_list(st.waiting, _lang())))
        if st.missed:
            click.echo(_t("status_missed", names=join_list(
                [_t("missed_one", name=n, steps=plural(k, _step(e, game_id), lang=_lang()),
                    abandoned=_t("missed_abandoned") if n in st.abandoned else "") for n, k in st.missed.items()],
                _lang())))


@game.command("list")
@click.pass_context
def game_list(ctx: click.Context) -> None:
    """Every game in the database and in config.toml.

    Example: pbem game list
    """
    with _engine(ctx, writes=False) as e:
        known = {g.id: g for g in e.store.games()}
        for gid, s in e.config.games.items():
            g = known.get(gid)
            state = _t("list_state", phase=_t(f"phase_{g.phase}"), turn=g.turn) if g else _t("list_not_created",
                                                                                               game=gid)
            click.echo(f"{gid:12} [{s.tag}] {s.title}: {state}")


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
        raise UserError(_t("hours_or_until"), _lang())
    with _engine(ctx, game_id) as e:
        when = _now(now)
        target = _date(ctx, "--until", until, when) or e.deadline_plus(game_id, hours or 0.0)
        done = e.extend(game_id, target, when, allow_earlier=earlier)
        click.echo(_t("deadline_now", game=game_id, deadline=_when(e.local(game_id, done))))


# ---------------------------------------------------------------- players


@main.group()
def player() -> None:
    """Add, remove or replace players (the MJ's side of registration).

    Example: pbem player list pmb1
    """


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
    with _engine(ctx, game_id) as e:
        p = e.add_player(game_id, name, address, _now(now), role=role, data=data, gender=gender)
        click.echo(_t("registered", game=game_id, name=p.name, address=p.address))


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
    with _engine(ctx, game_id) as e:
        news = e.remove_player(game_id, name, _now(now), at_end=at_end)
        detail = _t("removed_at_end", turn=news.after_turn) if not news.now else ""
        click.echo(_t("removed", game=game_id, name=news.player, detail=detail))


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
    with _engine(ctx, game_id) as e:
        news = e.replace_player(game_id, name, new_address, _now(now), new_name=new_name, from_turn=from_turn)
        detail = _t("replaced_later", turn=(news.after_turn or 0) + 1) if not news.now else ""
        click.echo(_t("replaced", game=game_id, name=news.player, address=news.new_address, detail=detail))


@player.command("list")
@click.argument("game_id")
@click.pass_context
def player_list(ctx: click.Context, game_id: str) -> None:
    """Players and their addresses.

    Example: pbem player list pmb1
    """
    with _engine(ctx, game_id, writes=False) as e:
        for p in e.store.players(game_id, include_removed=True):
            click.echo(f"{p.name:24} {p.address:36} {p.status}")


# ---------------------------------------------------------------- turns


@main.group()
def turn() -> None:
    """Look at, resolve and re-run steps.

    Example: pbem turn show pmb1 3
    """


@turn.command("show")
@click.argument("game_id")
@click.argument("number", type=int, required=False)
@click.pass_context
def turn_show(ctx: click.Context, game_id: str, number: int | None) -> None:
    """The MJ digest of a resolved step (default: the last one); in a 1626 game, its tests (NUMBER: one record).

    Example: pbem turn show pmb1 3
    """
    with _engine(ctx, game_id, writes=False) as e:
        click.echo(e.digest_text(game_id, number))


@turn.command("resolve")
@click.argument("game_id")
@NOW
@click.pass_context
def turn_resolve(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Resolve the open step now, without waiting for the deadline (mails are queued; pbem tick sends them).

    Example: pbem turn resolve pmb1
    """
    with _engine(ctx, game_id) as e:
        turn_no = e.game(game_id).turn
        click.echo(_t("resolved" if e.resolve(game_id, _now(now)) else "not_resolved", game=game_id, turn=turn_no))


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
    with _engine(ctx, game_id) as e:
        res = e.rerun(game_id, number, _now(now), publish=publish)
        if not res.diff and not res.state_changed:
            click.echo(_t("rerun_same", turn=number))
            return
        for line in res.diff:
            click.echo(line)
        if res.state_changed and not res.diff:
            click.echo(_t("rerun_state", turn=number))
        click.echo(_t("rerun_published" if res.published else "rerun_not_published"))


# ---------------------------------------------------------------- orders


@main.group()
def orders() -> None:
    """See and correct orders (MJ overrides are logged).

    Example: pbem orders show pmb1
    """


@orders.command("show")
@click.argument("game_id")
@click.option("--turn", "turn_no", type=int, help="Step number (default: the open one).")
@click.pass_context
def orders_show(ctx: click.Context, game_id: str, turn_no: int | None) -> None:
    """Current orders of every player for a step, with their source.

    Example: pbem orders show pmb1 --turn 2
    """
    with _engine(ctx, game_id, writes=False) as e:
        t = e.game(game_id).turn if turn_no is None else turn_no
        for name, o in sorted(e.store.current_orders(game_id, t).items()):
            click.echo(f"{name} [{o.source} {_when(e.local(game_id, o.received_at))}]")
            for x in o.orders:
                click.echo(f"    {x.text or x.verb}")


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
    with _engine(ctx, game_id) as e:
        verdicts = e.set_orders_mj(game_id, player_name, list(lines), _now(now), turn_no)
        for v in verdicts:
            click.echo(f"{v.text}: {'OK' if v.ok else v.note}")
        if any(not v.ok for v in verdicts):
            raise UserError(_t("orders_unchanged"), _lang())


# ---------------------------------------------------------------- outbox


@main.group()
def outbox() -> None:
    """Inspect and retry outgoing mail.

    Example: pbem outbox list --status failed
    """


@outbox.command("list")
@click.option("--status", type=click.Choice(["queued", "sent", "failed", "bounced"]), help="Only the mails in this state.")
@click.option("--game", "game_id", help="Only this game's mails.")
@click.pass_context
def outbox_list(ctx: click.Context, status: str | None, game_id: str | None) -> None:
    """Outgoing mails with their state.

    Example: pbem outbox list --status failed
    """
    with _engine(ctx, writes=False) as e:
        for i in e.store.outbox_items(status, game_id):
            err = f"  ({i['last_error']})" if i["last_error"] else ""
            click.echo(f"{i['status']:7} {i['kind']:8} {i['rcpt']:32} {i['subject']}{err}  {i['id']}")


@outbox.command("retry")
@click.argument("ids", nargs=-1)
@click.option("--failed", "all_failed", is_flag=True, help="Retry every failed or bounced mail.")
@NOW
@click.pass_context
def outbox_retry(ctx: click.Context, ids: tuple[str, ...], all_failed: bool, now: str | None) -> None:
    """Queue failed mails again (they go with the next tick).

    Example: pbem outbox retry --failed
    """
    from pbem.outbox import retry

    with _engine(ctx) as e:
        chosen = list(ids) + ([i["id"] for status in ("failed", "bounced") for i in e.store.outbox_items(status)]
                              if all_failed else [])
        with e.store.atomic():
            click.echo(count(_lang(), "queued_again", retry(e.store, chosen, _now(now))))


# ---------------------------------------------------------------- inbound mail


@main.group()
def mail() -> None:
    """Inbound mail as stored: list it, and process failed mail again.

    Example: pbem mail list --status error
    """


@mail.command("list")
@click.option("--status", type=click.Choice(["new", "done", "error"]), help="Only the mail with this status.")
@click.pass_context
def mail_list(ctx: click.Context, status: str | None) -> None:
    """Stored inbound mail with its verdict.

    Example: pbem mail list --status error
    """
    with _engine(ctx, writes=False) as e:
        for m in e.store.messages(status):
            local = e.local(m["game"], parse_iso(m["received_at"]))  # in the game's zone, as the MJ reads every time
            received = f"{local:%Y-%m-%d %H:%M}" if local else "-"
            click.echo(f"{m['status']:5} {received} {m['game'] or '-':10} {m['sender'] or '-':30} "
                       f"{m['verdict']}  [{m['key']}]")


@mail.command("retry")
@click.argument("keys", nargs=-1)
@click.option("--errors", "all_errors", is_flag=True, help="Every mail whose processing failed.")
@click.pass_context
def mail_retry(ctx: click.Context, keys: tuple[str, ...], all_errors: bool) -> None:
    """Process stored mail again with the next tick (after fixing what made it fail).

    Only mail whose processing failed (status error) and recorded nothing is processed again:
    mail already processed is left as it is, so its orders are never applied twice.

    Example: pbem mail retry --errors
    """
    with _engine(ctx) as e:
        chosen = list(keys) + ([m["key"] for m in e.store.messages("error")] if all_errors else [])
        for key, why in e.store.requeue_refusals(chosen).items():
            click.echo(_t("left_alone", stored=key, why=why.get(_lang())))
        click.echo(count(_lang(), "mail_again", e.store.requeue_messages(chosen)))


# ---------------------------------------------------------------- audit


@main.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, required=True, help="JSON output (the only format).")
@click.option("--with-seed", is_flag=True, help="Include the seed even before the game ends (MJ only!).")
@click.pass_context
def export(ctx: click.Context, game_id: str, as_json: bool, with_seed: bool) -> None:
    """Everything about a game: players, step records, rolls, events, journal.

    Example: pbem export pmb1 --json > pmb1.json
    """
    with _engine(ctx, game_id, writes=False) as e:
        click.echo(json.dumps(e.export(game_id, include_seed=True if with_seed else None), ensure_ascii=False,
                              indent=1))


@main.command()
@click.argument("game_id")
@click.argument("folder", type=click.Path(file_okay=False))
@click.pass_context
def archive(ctx: click.Context, game_id: str, folder: str) -> None:
    """Write a game's public record as a static HTML site: every forum post, the pictures, charts over the game
    and, once the seed is revealed, the dice verification.  Readable offline; FOLDER is replaced.

    Example: pbem archive pmb1 archives/pmb1
    """
    from pbem.archive import build

    with _engine(ctx, game_id, writes=False) as e:
        done = build(e, game_id, Path(folder))
    lang = _lang()
    made = join_list([plural(len(done.pages), "page", lang=lang),
                      plural(len(done.pictures), "image" if lang != "en" else "picture", lang=lang),
                      plural(len(done.charts), "graphique" if lang != "en" else "chart", lang=lang)], lang)
    click.echo(_t("archived", made=made, folder=folder, index=Path(folder) / "index.html"))
    if done.verified is False:
        click.echo(_t("archive_unverified"))


@main.command()
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
        lines, ok = verification_report(data, seed, _lang())
    else:
        if not game_id:
            raise UserError(_t("game_or_file"), _lang())
        with _engine(ctx, game_id, writes=False) as e:
            lines, ok = verification_report(e.export(game_id, include_seed=True), seed, _lang())
    for line in lines:
        click.echo(line)
    if not ok:
        raise UserError(count(_lang(), "problems", len(lines)), _lang())


# ---------------------------------------------------------------- tools


@main.command()
@click.argument("which", default="all", type=click.Choice(["all", "1626", "pmb", "intrigue", "pourleroi", "courtisans"]))
@click.option("--dir", "out_dir", default="data/demo", show_default=True, help="Where the demo writes everything.")
def demo(which: str, out_dir: str) -> None:
    """Play scripted games by mail on local Maildirs with simulated time; print where everything went.

    Example: pbem demo pmb
    """
    from pbem.demo import run_demos

    for line in run_demos(which, Path(out_dir)):
        click.echo(line)


@main.group()
def scenario() -> None:
    """Scenario files: play one case of a game's rules from a file, without mail or database.

    Example: pbem scenario run docs/rules/pmb-cases/
    """


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


@main.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--user", default="pbem", show_default=True, help="The system user the systemd units run as.")
def init(folder: str, user: str) -> None:
    """Create a game folder: a commented config.toml (local Maildirs), data/, templates/, systemd units, LISEZMOI.md.

    Run every pbem command from that folder afterwards.

    Example: pbem init ~/pourmabelle
    """
    from pbem.folder import FolderError, init_folder

    try:
        made = init_folder(Path(folder), user=user)
    except (FolderError, OSError) as e:
        raise click.ClickException(str(e)) from None
    for path in made.files:
        click.echo(f"  {path}")
    click.echo(_t("folder_ready", folder=made.folder))


@main.group()
def templates() -> None:
    """The texts pbem writes, and the ones your game folder overrides (templates/ beside config.toml).

    Example: pbem templates list
    """


@templates.command("list")
@click.pass_context
def templates_list(ctx: click.Context) -> None:
    """Every template pbem has; those your folder overrides are marked.

    Example: pbem templates list
    """
    from pbem.folder import template_list

    folder = _templates_dir(ctx)
    for name, overridden in template_list(folder):
        click.echo(f"{'*' if overridden else ' '} {name}")
    click.echo(_t("overridden", folder=folder) if folder else _t("no_templates"))


@templates.command("copy")
@click.argument("name")
@click.option("--force", is_flag=True, help="Overwrite an override that exists already.")
@click.pass_context
def templates_copy(ctx: click.Context, name: str, force: bool) -> None:
    """Copy a packaged template (as listed) into templates/ to edit it; it is used from the next pass on.

    Example: pbem templates copy common/ack.fr.j2
    """
    from pbem.folder import FolderError, template_copy

    folder = _config(ctx).templates_dir or Path("templates")
    try:
        target = template_copy(name, folder, force=force)
    except (FolderError, OSError) as e:
        raise click.ClickException(str(e)) from None
    click.echo(_t("template_copied", target=target))


def _templates_dir(ctx: click.Context) -> Path | None:
    folder = _config(ctx).templates_dir
    return folder if folder is not None and folder.is_dir() else None


@main.command()
@click.pass_context
def doctor(ctx: click.Context) -> None:
    """Check the config, the mailbox login and the SMTP login.  Writes nothing.

    Example: pbem doctor
    """
    from pbem.doctor import checks

    ok = True
    for name, good, detail in checks(ctx.obj["config"], _lang()):
        ok &= good
        click.echo(f"[{_t('ok') if good else _t('fail')}] {name}{':' if _lang() == 'en' else ' :'} {detail}")
    if not ok:
        sys.exit(1)


from pbem.cli import desk as cli_desk  # noqa: E402  (the MJ's seat commands, in their own module, join the groups above)

cli_desk.register(game, turn, player)
