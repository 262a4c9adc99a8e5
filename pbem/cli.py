"""The `pbem` command: a thin shell over the library.  Each command is a few lines; the work is elsewhere."""

from __future__ import annotations

import json
import logging
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import click

from pbem import config as configmod
from pbem.clock import iso, parse_iso, utcnow
from pbem.engine import Engine, EngineError
from pbem.store import Store


@contextmanager
def _engine(ctx: click.Context) -> Iterator[Engine]:
    cfg = _config(ctx)
    store = Store(cfg.database, synchronous=cfg.synchronous)
    try:
        yield Engine(cfg, store)
    except EngineError as e:
        raise click.ClickException(str(e)) from None
    finally:
        store.close()


def _when(dt: datetime | None) -> str:
    """A local time for the MJ's terminal: ``2026-12-02 20:00 (Europe/Paris)``."""
    return f"{dt:%Y-%m-%d %H:%M} ({dt.tzinfo})" if dt else "-"


def _config(ctx: click.Context) -> configmod.Config:
    try:
        return configmod.load(ctx.obj["config"])
    except configmod.ConfigError as e:
        raise click.ClickException(f"config: {e}") from None


def _now(value: str | None) -> datetime:
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
        raise click.BadParameter(f"expected an ISO date-time like 2026-12-01T21:00, got {value!r}") from None


NOW = click.option("--now", "now", metavar="ISO", help="Simulated current time (ISO, game time zone if naive).")


@click.group()
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
    with _engine(ctx) as e:
        g = e.new_game(game_id, _now(now), seed)
        click.echo(f"{game_id}: registration open until {_when(e.local(game_id, g.deadline))}")
        click.echo(f"seed commitment (publish it): sha256 {g.commitment}")


@game.command("start")
@click.argument("game_id")
@NOW
@click.pass_context
def game_start(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Close registration now, deal roles and mail everyone.

    Example: pbem game start pmb1
    """
    with _engine(ctx) as e:
        g = e.start_game(game_id, _now(now))
        click.echo(f"{game_id}: started, step {g.turn}, deadline {_when(e.local(game_id, g.deadline))}")


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
        click.confirm(f"End {game_id} now? Nothing more will be resolved", abort=True)
    with _engine(ctx) as e:
        g = e.finish(game_id, _now(now))
        click.echo(f"{game_id}: finished; seed {g.seed} (publish it: anyone can check every roll with pbem verify)")


@game.command("status")
@click.argument("game_id")
@click.pass_context
def game_status(ctx: click.Context, game_id: str) -> None:
    """Phase, step, deadline, who has ordered.

    Example: pbem game status pmb1
    """
    with _engine(ctx) as e:
        st = e.status(game_id)
        early = f" (early: {_when(st.early)})" if st.early else ""
        click.echo(f"game {game_id} ({st.ruleset}): {st.phase}, step {st.turn}")
        click.echo(f"deadline: {_when(st.deadline)}{early}")
        click.echo(f"seed commitment: {st.commitment}")
        click.echo(f"players: {st.players}")
        if st.prompted:
            click.echo(f"orders in: {st.prompted - len(st.waiting)}/{st.prompted}")
        if st.waiting:
            click.echo("waiting for: " + ", ".join(st.waiting))
        if st.missed:
            click.echo("steps missed in a row: " + ", ".join(f"{n} {k}" + (" (abandoned)" if n in st.abandoned else "")
                                                           for n, k in st.missed.items()))


@game.command("list")
@click.pass_context
def game_list(ctx: click.Context) -> None:
    """Every game in the database and in config.toml.

    Example: pbem game list
    """
    with _engine(ctx) as e:
        known = {g.id: g for g in e.store.games()}
        for gid, s in e.config.games.items():
            g = known.get(gid)
            state = f"{g.phase}, step {g.turn}" if g else "not created (pbem game new " + gid + ")"
            click.echo(f"{gid:12} [{s.tag}] {s.title}: {state}")


@game.command("extend")
@click.argument("game_id")
@click.option("--hours", type=float, help="Add this many hours to the current deadline.")
@click.option("--until", "until", metavar="ISO", help="New deadline (ISO, game time zone if naive).")
@click.option("--earlier", is_flag=True, help="Allow moving the deadline earlier (players are told).")
@NOW
@click.pass_context
def game_extend(ctx: click.Context, game_id: str, hours: float | None, until: str | None, earlier: bool,
                now: str | None) -> None:
    """Move the deadline of the open step; every player is told.

    Example: pbem game extend pmb1 --hours 24
    """
    with _engine(ctx) as e:
        if (hours is None) == (until is None):
            raise click.UsageError("give --hours or --until")
        target = parse_iso(until, e.config.timezone) if until else e.deadline_plus(game_id, hours or 0.0)
        done = e.extend(game_id, target, _now(now), allow_earlier=earlier)
        click.echo(f"{game_id}: deadline now {_when(e.local(game_id, iso(done)))}")


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
    with _engine(ctx) as e:
        p = e.add_player(game_id, name, address, _now(now), role=role, data=data, gender=gender)
        click.echo(f"{game_id}: {p.name} <{p.address}> registered")


@player.command("remove")
@click.argument("game_id")
@click.argument("name")
@NOW
@click.pass_context
def player_remove(ctx: click.Context, game_id: str, name: str, now: str | None) -> None:
    """Stop mailing NAME; their decisions take the rules' defaults.

    Example: pbem player remove pmb1 Arya
    """
    with _engine(ctx) as e:
        e.remove_player(game_id, name, _now(now))
        click.echo(f"{game_id}: {name} removed")


@player.command("replace")
@click.argument("game_id")
@click.argument("name")
@click.argument("new_address")
@NOW
@click.pass_context
def player_replace(ctx: click.Context, game_id: str, name: str, new_address: str, now: str | None) -> None:
    """A new person takes over NAME's seat (same character, new address).

    Example: pbem player replace pmb1 Arya arya.bis@example.org
    """
    with _engine(ctx) as e:
        e.replace_player(game_id, name, new_address, _now(now))
        click.echo(f"{game_id}: {name} now played from {new_address}")


@player.command("list")
@click.argument("game_id")
@click.pass_context
def player_list(ctx: click.Context, game_id: str) -> None:
    """Players and their addresses.

    Example: pbem player list pmb1
    """
    with _engine(ctx) as e:
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
    """The MJ digest of a resolved step (default: the last one).

    Example: pbem turn show pmb1 3
    """
    with _engine(ctx) as e:
        click.echo(e.digest_text(game_id, number))


@turn.command("resolve")
@click.argument("game_id")
@NOW
@click.pass_context
def turn_resolve(ctx: click.Context, game_id: str, now: str | None) -> None:
    """Resolve the open step now, without waiting for the deadline (mails are queued; pbem tick sends them).

    Example: pbem turn resolve pmb1
    """
    with _engine(ctx) as e:
        turn_no = e.game(game_id).turn
        click.echo(f"{game_id}: step {turn_no} " + ("resolved" if e.resolve(game_id, _now(now))
                                                   else "not resolved (already done, or nothing to resolve)"))


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
    with _engine(ctx) as e:
        res = e.rerun(game_id, number, _now(now), publish=publish)
        if not res.diff and not res.state_changed:
            click.echo(f"turn {number}: re-run identical to what was published")
            return
        for line in res.diff:
            click.echo(line)
        if res.state_changed and not res.diff:
            click.echo(f"turn {number}: events identical, state after differs")
        click.echo("published as RECTIFICATIF" if res.published else "not published (add --publish)")


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
    with _engine(ctx) as e:
        t = e.game(game_id).turn if turn_no is None else turn_no
        for name, o in sorted(e.store.current_orders(game_id, t).items()):
            click.echo(f"{name} [{o.source} {o.received_at}]")
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
    with _engine(ctx) as e:
        verdicts = e.set_orders_mj(game_id, player_name, list(lines), _now(now), turn_no)
        for v in verdicts:
            click.echo(f"{v.text}: {'OK' if v.ok else v.note}")
        if any(not v.ok for v in verdicts):
            raise click.ClickException("orders not changed")


# ---------------------------------------------------------------- outbox


@main.group()
def outbox() -> None:
    """Inspect and retry outgoing mail.

    Example: pbem outbox list --status failed
    """


@outbox.command("list")
@click.option("--status", type=click.Choice(["queued", "sent", "failed", "bounced"]))
@click.option("--game", "game_id")
@click.pass_context
def outbox_list(ctx: click.Context, status: str | None, game_id: str | None) -> None:
    """Outgoing mails with their state.

    Example: pbem outbox list --status failed
    """
    with _engine(ctx) as e:
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
            n = retry(e.store, chosen, _now(now))
            click.echo(f"{n} mail{'' if n == 1 else 's'} queued again")


# ---------------------------------------------------------------- inbound mail


@main.group()
def mail() -> None:
    """Inbound mail as stored: list it, and process failed mail again.

    Example: pbem mail list --status error
    """


@mail.command("list")
@click.option("--status", type=click.Choice(["new", "done", "error"]))
@click.pass_context
def mail_list(ctx: click.Context, status: str | None) -> None:
    """Stored inbound mail with its verdict.

    Example: pbem mail list --status error
    """
    with _engine(ctx) as e:
        for m in e.store.messages(status):
            click.echo(f"{m['status']:5} {m['received_at']} {m['game'] or '-':10} {m['sender'] or '-':30} "
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
            click.echo(f"{key}: left as it is: {why}")
        n = e.store.requeue_messages(chosen)
        click.echo(f"{n} mail{'' if n == 1 else 's'} will be processed again")


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
    with _engine(ctx) as e:
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

    with _engine(ctx) as e:
        done = build(e, game_id, Path(folder))
    def count(n: int, word: str) -> str:
        return f"{n} {word}" if n == 1 else f"{n} {word}s"

    click.echo(f"{count(len(done.pages), 'page')}, {count(len(done.pictures), 'picture')} and "
               f"{count(len(done.charts), 'chart')} in {folder}; open {Path(folder) / 'index.html'}")
    if done.verified is False:
        click.echo("the dice verification found problems: see verification.html")


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
        lines, ok = verification_report(data, seed)
    else:
        if not game_id:
            raise click.UsageError("give GAME_ID or --file")
        with _engine(ctx) as e:
            lines, ok = verification_report(e.export(game_id, include_seed=True), seed)
    for line in lines:
        click.echo(line)
    if not ok:
        raise click.ClickException(f"{len(lines)} problem{'' if len(lines) == 1 else 's'}")


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
    click.echo(f"Game folder ready: cd {made.folder} && pbem doctor (then read LISEZMOI.md)")


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
    click.echo(f"(* = overridden in {folder})" if folder else "(no templates/ folder beside config.toml)")


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
    click.echo(f"{target}: edit it; pbem doctor checks that it compiles")


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
    for name, good, detail in checks(ctx.obj["config"]):
        ok &= good
        click.echo(f"[{'ok' if good else 'FAIL'}] {name}: {detail}")
    if not ok:
        sys.exit(1)

