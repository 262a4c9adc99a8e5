"""The `pbem` commands that move mail: a pass for cron (`tick`), the daemon (`run`), the stored mail (`mail`) and
the outbox (`outbox`), and pruning old mail bytes (`gc`).  Each is a few lines over the library; its French help stands beside it (`french`)."""

from __future__ import annotations

import logging
import sys
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import click

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
from pbem.cli.text import (
    UserError,
    count,
    file_size_line,
    pruned_lines,
    said_mail_status,
    said_status,
    said_verdict,
)
from pbem.msg import Msg
from pbem.ticktext import said

if TYPE_CHECKING:  # (only named: `pbem tick` loads this module and needs no rows)
    from pbem.store.rows import MailStatus, OutboxStatus


@french("Lance le démon\u00a0: relève la boîte aux lettres (ou l'écoute en IDLE), déclenche les dates limites, "
        "envoie le courrier.\n\n"
        "Sans option, le démon journalise chaque passe qui a fait quelque chose et chaque erreur\u00a0; "
        "avec -v, aussi le détail de chaque étape.\n\n"
        "Exemple\u00a0: pbem run -v",
        verbose="Journalise aussi le détail de chaque étape (niveau DEBUG).")
@click.command(cls=HelpCommand)
@click.option("-v", "--verbose", is_flag=True, help="Also log the detail of each stage (DEBUG level).")
@click.pass_context
def run(ctx: click.Context, verbose: bool) -> None:
    """Run the daemon: polls (or IDLEs on) the mailbox, fires deadlines, sends mail.

    Without options the daemon logs each pass that did something and each error; with -v, the detail of
    each stage too.

    Example: pbem run -v
    """
    from pbem.daemon import run as run_daemon

    logging.getLogger().setLevel(logging.INFO)
    # pbem's own detail with -v (never the mail libraries' DEBUG: imapclient's shows the protocol);
    # the scheduler's job bookkeeping only with -v
    logging.getLogger("pbem").setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.INFO if verbose else logging.ERROR)  # (a poll skipped: a pass runs)
    run_daemon(config(ctx))


@french("Une passe pour cron\u00a0: relève, traite, déclenche les dates limites et les rappels échus, envoie.\n\n"
        "Sort avec le code 1 (raisons sur stderr) quand la passe a rencontré des erreurs\u00a0: une résolution "
        "ou un courriel en échec, une boîte aux lettres illisible, une configuration que le serveur SMTP "
        "refuse. Une seule passe à la fois travaille sur une base\u00a0: une seconde attend jusqu'à "
        "pbem.lock_wait_seconds, puis s'efface (code 0, une ligne sur stderr), ou sort avec le code 1 si la "
        "passe en cours semble bloquée.\n\n"
        "Exemple\u00a0: pbem tick --now 2026-12-01T21:05")
@click.command(cls=HelpCommand)
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
    from pbem import published
    from pbem.daemon import open_store
    from pbem.daemon import tick as do_tick
    from pbem.passlock import PassLock

    cfg = config(ctx)
    when = now_from(now)
    with PassLock(cfg.database) as lock:
        if not lock.acquire(cfg.lock_wait_seconds, who="pbem tick"):
            holder, stuck = lock.describe_holder(lang=language())
            if stuck:
                click.echo(message("tick_stuck", holder=holder), err=True)
                sys.exit(1)
            click.echo(message("tick_busy", holder=holder), err=True)
            return
        store = open_store(cfg)
        try:
            report = do_tick(cfg, store, when)
            report.add(published.refresh(cfg, store, when))  # the live calendars and archives, after the pass
        finally:
            store.close()
    lang = language()
    click.echo(report.summary(lang))
    if report.errors:
        for error in report.errors:
            click.echo(f"pbem tick{':' if lang == 'en' else chr(0xA0) + ':'} {said(error, lang)}", err=True)
        sys.exit(1)


@french("Consulter et renvoyer le courrier sortant.\n\n"
        "Exemple\u00a0: pbem outbox list --status failed")
@click.group(cls=HelpGroup)
def outbox() -> None:
    """Inspect and retry outgoing mail.

    Example: pbem outbox list --status failed
    """


@french("Les courriels sortants et leur état.\n\n"
        "Exemple\u00a0: pbem outbox list --status failed",
        status="Seulement les courriels dans cet état.",
        game_id="Seulement les courriels de cette partie.")
@outbox.command("list")
@click.option("--status", type=click.Choice(["queued", "sent", "failed", "bounced"]), help="Only the mails in this state.")
@click.option("--game", "game_id", help="Only this game's mails.")
@click.pass_context
def outbox_list(ctx: click.Context, status: OutboxStatus | None, game_id: str | None) -> None:
    """Outgoing mails with their state.

    Example: pbem outbox list --status failed
    """
    from pbem.outbox.compose import said_kind  # (with this command, for speed: `pbem tick` composes nothing)

    with engine(ctx, writes=False) as e:
        lang = language()
        for i in e.store.outbox_items(status, game_id):
            err = f"  ({said(i.last_error, lang)})" if i.last_error else ""
            shown, kind = said_status(i.status, lang), said_kind(i.kind, lang)
            click.echo(f"{shown:9} {kind:9} {i.rcpt:32} {i.subject}{err}  {i.id}")


@french("Remet en file les courriels en échec (ils partent avec la prochaine passe).\n\n"
        "Exemple\u00a0: pbem outbox retry --failed",
        all_failed="Renvoie tous les courriels en échec ou revenus.")
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

    with engine(ctx) as e:
        chosen = list(ids) + ([i.id for status in ("failed", "bounced") for i in e.store.outbox_items(status)]
                              if all_failed else [])
        with e.store.atomic():
            click.echo(count(language(), "queued_again", retry(e.store, chosen, now_from(now))))


@french("Le courrier reçu tel qu'il est enregistré\u00a0: le lister, et traiter de nouveau celui qui a échoué.\n\n"
        "Exemple\u00a0: pbem mail list --status error")
@click.group(cls=HelpGroup)
def mail() -> None:
    """Inbound mail as stored: list it, and process failed mail again.

    Example: pbem mail list --status error
    """


@french("Le courrier reçu enregistré, avec son verdict.\n\n"
        "Exemple\u00a0: pbem mail list --status error",
        status="Seulement le courrier dans cet état.")
@mail.command("list")
@click.option("--status", type=click.Choice(["new", "done", "error"]), help="Only the mail with this status.")
@click.pass_context
def mail_list(ctx: click.Context, status: MailStatus | None) -> None:
    """Stored inbound mail with its verdict.

    Example: pbem mail list --status error
    """
    lang = language()
    with engine(ctx, writes=False) as e:
        for m in e.store.messages(status):
            def in_zone(t: datetime, game: str = m.game) -> datetime | None:  # (as the MJ reads every time)
                return e.local(game, t)

            local = in_zone(m.received_at)
            received = f"{local:%Y-%m-%d %H:%M}" if local else "-"
            click.echo(f"{said_mail_status(m.status, lang):8} {received} {m.game or '-':10} "
                       f"{m.sender or '-':30} {said_verdict(m.verdict, lang, in_zone)}  [{m.key}]")


@french("Traite de nouveau le courrier enregistré à la prochaine passe (après avoir corrigé ce qui l'a fait "
        "échouer).\n\n"
        "Seul le courrier dont le traitement a échoué (état error) et n'a rien enregistré est traité de "
        "nouveau\u00a0: le courrier déjà traité reste tel quel, ses ordres ne sont donc jamais appliqués deux "
        "fois.\n\n"
        "Exemple\u00a0: pbem mail retry --errors",
        all_errors="Tout le courrier dont le traitement a échoué.")
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
    with engine(ctx) as e:
        chosen = list(keys) + ([m.key for m in e.store.messages("error")] if all_errors else [])
        for key, why in e.store.requeue_refusals(chosen).items():
            click.echo(message("left_alone", stored=key, why=why.get(language())))
        click.echo(count(language(), "mail_again", e.store.requeue_messages(chosen)))


@french("Allège la base\u00a0: efface le contenu du courrier reçu et traité, et celui du courrier envoyé, plus "
        "vieux que [retention] keep_days (90\u00a0jours par défaut). Les lignes de ce courrier restent (qui, "
        "quand, quel verdict), et tout ce que lisent pbem verify, pbem export, l'archive, un nouveau calcul ou "
        "une correction est gardé\u00a0; le courrier en attente, en erreur, pas encore envoyé, en échec ou "
        "revenu garde son contenu.\n\n"
        "Exemple\u00a0: pbem gc --dry-run",
        dry_run="Dit ce qui serait effacé, sans rien effacer.",
        keep_days="Garde ce nombre de jours au lieu de [retention] keep_days.",
        vacuum="Puis réécrit le fichier pour rendre la place au disque (demande autant d'espace libre que la "
               "base, et les passes attendent).")
@click.command(cls=HelpCommand)
@click.option("--dry-run", is_flag=True, help="Say what would be pruned, pruning nothing.")
@click.option("--keep-days", type=int, help="Keep this many days instead of [retention] keep_days.")
@click.option("--vacuum", is_flag=True, help="Then rewrite the file to give the space back to the disk (needs as "
              "much free space as the database; passes wait meanwhile).")
@NOW
@click.pass_context
def gc(ctx: click.Context, dry_run: bool, keep_days: int | None, vacuum: bool, now: str | None) -> None:
    """Slim the database: prune the bytes of inbound mail processed and of mail sent, older than
    [retention] keep_days (default 90). Their rows stay (who, when, which verdict), and everything pbem
    verify, pbem export, the archive, a re-run or a correction reads is kept; mail waiting, in error, not
    sent yet, failed or bounced keeps its bytes.

    Example: pbem gc --dry-run
    """
    cfg = config(ctx)
    if keep_days is not None and keep_days < 1:
        raise UserError(Msg(f"--keep-days\u00a0: au moins 1\u00a0jour, pas {keep_days} (le courrier du jour n'est "
                            "jamais vidé)", f"--keep-days: at least 1 day, not {keep_days} (today's mail is never pruned)"))
    days = keep_days or cfg.keep_days
    before = now_from(now) - timedelta(days=days)
    lang = language()
    with engine(ctx, writes=not dry_run) as e:
        size = e.store.file_bytes()
        pruned = e.store.prunable(before) if dry_run else e.store.prune(before)
        for line in pruned_lines(pruned, days, before.astimezone(cfg.timezone), lang, dry=dry_run):
            click.echo(line)
        if vacuum and not dry_run:
            e.store.vacuum()
            click.echo(file_size_line(size, e.store.file_bytes(), lang))
        elif pruned.bytes and not dry_run:
            click.echo(file_size_line(size, None, lang))
