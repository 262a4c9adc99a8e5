"""One pass of work (`tick`) and the daemon that runs it on timers (APScheduler) and on new mail (IMAP IDLE).

A tick: fetch new mail and store it raw -> interpret stored mail and queue the
answers -> fire due registrations ends, reminders and deadlines -> write forum
files -> send the outbox.  Each stage commits before the next starts, so a crash
anywhere is repaired by the next tick.
"""

from __future__ import annotations

import logging
import signal
import sqlite3
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pbem.clock import iso, parse_iso, utcnow
from pbem.config import Config
from pbem.engine import Engine
from pbem.faults import crashpoint
from pbem.mail.inbox import (
    CursorStore,
    ImapSource,
    MaildirSource,
    MailSource,
    RawMessage,
    secret_provider,
)
from pbem.mail.transport import MaildirTransport, SmtpTransport, Transport, clean_maildir_tmp
from pbem.outbox import RetryPolicy, SendReport, send_due
from pbem.passlock import PassLock
from pbem.render import refresh_templates
from pbem.store import Store
from pbem.store.health import StoreError, storage_error

log = logging.getLogger("pbem")

STALE_OUTBOX_SECONDS = 600
"""At the start of a pass, files of the Maildir outbox's tmp/ older than this are a killed pass's half-written
mail: only a pass writes there, one pass at a time holds the data (`pbem.passlock`), and a write takes
milliseconds, so ten minutes leaves no doubt."""


def _ssl_context(cafile: str | None) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=cafile) if cafile else ssl.create_default_context()


def open_mailbox(config: Config, store: CursorStore) -> MailSource:
    """The configured game mailbox: a local Maildir (the embedded default) or IMAP."""
    mb = config.mailbox
    if mb.kind == "maildir":
        return MaildirSource(mb.path, store, mb.processed_folder)
    return ImapSource(
        host=mb.host, port=mb.port, user=mb.user, password_provider=secret_provider(mb.password),
        folder=mb.folder, ssl=mb.security == "ssl", starttls=mb.security == "starttls",
        ssl_context=_ssl_context(mb.cafile) if mb.security != "none" else None,
        oauth2_token_provider=secret_provider(mb.oauth2_token), cursors=store,
        processed_folder=mb.processed_folder, batch_size=mb.batch_size,
    )


def open_transport(config: Config) -> Transport:
    """The configured outbox transport: a local Maildir (the embedded default) or SMTP."""
    ob = config.outbox
    if ob.kind == "maildir":
        return MaildirTransport(ob.path)
    return SmtpTransport(
        host=ob.host, port=ob.port, security=ob.security,  # type: ignore[arg-type]
        user=ob.user or None, password_provider=secret_provider(ob.password),
        oauth2_token_provider=secret_provider(ob.oauth2_token),
        ssl_context=_ssl_context(ob.cafile) if ob.security != "none" else None,
        timeout=ob.timeout_seconds, connect_timeout=ob.connect_timeout_seconds,
    )


def open_store(config: Config) -> Store:
    """The configured database, with the configured durability (``synchronous``)."""
    return Store(config.database, synchronous=config.synchronous)


def retry_policy(config: Config) -> RetryPolicy:
    ob = config.outbox
    return RetryPolicy(horizon=timedelta(days=ob.retry_days), base_seconds=ob.retry_base_seconds,
                       max_seconds=ob.retry_max_seconds)


@dataclass
class TickReport:
    fetched: int = 0
    processed: int = 0
    fired: list[str] = field(default_factory=list)
    sent: SendReport | None = None
    errors: list[str] = field(default_factory=list)
    """What went wrong in this pass and needs the operator (the tick exits non-zero when there is any)."""
    cleaned: int = 0
    """Half-written files of a killed pass removed from the outbox's tmp/ at the start."""

    def summary(self) -> str:
        s = self.sent
        sent = f"{s.sent} sent, {s.retrying} to retry, {s.failed} failed" if s else "not sent"
        if s and s.stopped:
            sent += f" (stopped: {s.stopped})"
        parts = [f"{self.fetched} fetched", f"{self.processed} processed", sent, *self.fired, *self.errors]
        if self.cleaned:
            files = "file" if self.cleaned == 1 else "files"
            parts.append(f"{self.cleaned} half-written outbox {files} of a killed pass removed")
        return "; ".join(parts)


def tick(config: Config, store: Store, now: datetime | None = None, *, source: MailSource | None = None,
         transport: Transport | None = None) -> TickReport:
    """One full pass.  ``now`` may be simulated (cron catch-up, demos, tests)."""
    now = now or utcnow()
    report = TickReport()
    if config.outbox.kind == "maildir":  # what a killed pass left half-written goes first
        report.cleaned = clean_maildir_tmp(config.outbox.path, STALE_OUTBOX_SECONDS)
    refresh_templates()  # an MJ's template edits count from this pass on
    engine = Engine(config, store)
    own_source = source is None
    own_transport = transport is None
    src: MailSource | None = source
    try:
        try:
            src = src or open_mailbox(config, store)

            def sink(batch: list[RawMessage]) -> None:
                # a mail is judged by when the mailbox received it (never later than now): a cron
                # pass after a deadline still counts a mail that arrived before it
                report.fetched += store.store_raw([(m.key, m.raw) for m in batch], iso(now),
                                                  [iso(min(m.received, now)) if m.received else None for m in batch])

            src.fetch_new(sink)
            crashpoint("after-fetch")
        except Exception as e:  # a mailbox outage must not stop deadlines or sending
            _stop_on_storage(e, config, database_only=True)  # (the mailbox's own faults are an outage)
            log.warning("fetching mail failed: %s", e)
            report.errors.append(f"fetch failed: {e}")
        keys: list[str] = []
        try:
            keys = engine.process_pending(now)
        except Exception as e:  # a bug in one game: deadlines and sending still get their turn
            _stop_on_storage(e, config)
            log.exception("processing stored mail failed")
            report.errors.append(f"processing mail failed: {type(e).__name__}: {e}")
        report.processed = len(keys)
        if keys:
            try:
                if src is not None:
                    src.after_processed(keys)
            except Exception as e:
                log.warning("marking processed mail failed: %s", e)
            failed = store.errored_messages(keys)
            if failed:
                report.errors.append(f"{len(failed)} mail(s) could not be processed (pbem mail list --status error)")
        try:
            report.fired = engine.due(now)
        except Exception as e:
            _stop_on_storage(e, config)
            log.exception("firing due work failed")
            report.errors.append(f"firing deadlines failed: {type(e).__name__}: {e}")
        report.errors += [f"resolution failed: {f}" for f in report.fired if ": ERROR " in f]
        for game_id in config.games:
            try:
                if store.game(game_id):
                    engine.write_forum(game_id)
            except OSError as e:  # a full disk must not stop the mail: the file is written at the next tick
                log.warning("writing the forum file of %s failed: %s", game_id, e)
                report.errors.append(f"forum {game_id}: {e}")
        tr = transport or open_transport(config)
        try:
            report.sent = send_due(store, tr, sender=config.address, now=now, retry=retry_policy(config),
                                   budget_seconds=config.outbox.send_budget_seconds)
        finally:
            if own_transport:
                tr.close()
        report.errors += [f"mail failed: {f}" for f in report.sent.failures]
        if report.sent.blocked:
            report.errors.append(f"sending blocked, fix the configuration: {report.sent.blocked}")
    finally:
        if own_source and src is not None:
            src.close()
    return report


def _stop_on_storage(error: Exception, config: Config, *, database_only: bool = False) -> None:
    """A database that cannot be written (a full disk, a read-only file system, damaged pages) ends the pass
    with one line (`pbem.store.health`): its next stages would fail alike, and mail sent now could not be
    marked sent (it would go twice).  ``database_only``: a file system error counts only from SQLite."""
    if database_only and not isinstance(error, (sqlite3.Error, StoreError)):
        return
    problem = storage_error(error, config.database)
    if problem is not None:
        raise problem from None


def next_wakeup(config: Config, store: Store, now: datetime) -> datetime | None:
    """The earliest future moment something is due (a deadline, an early resolution, a reminder, a retry)."""
    times: list[datetime] = []
    for g in store.games():
        if g.id not in config.games or g.deadline is None or g.phase == "finished":
            continue
        deadline = g.deadline
        times.append(deadline)
        if g.early_at:
            times.append(g.early_at)
        for h in config.games[g.id].reminder_hours:
            if h not in g.reminders_sent:
                times.append(deadline - timedelta(hours=h))
    for item in store.outbox_items(status="queued"):
        times.append(parse_iso(item["next_attempt_at"]))
    future = [t for t in times if t > now]
    return min(future) if future else None


def run(config: Config, *, once_idle_source: Callable[[], MailSource] | None = None) -> None:
    """The daemon: a tick every ``poll_seconds``, at every deadline, and as soon as IDLE reports new mail."""
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler(executors={"default": ThreadPoolExecutor(1)},
                                  job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None})
    stop = threading.Event()

    lock = PassLock(config.database)
    # new mail reported while a pass runs must get a pass of its own: the scheduler would skip a job
    # added while that same job runs (max_instances=1), so the running pass is told to go round again
    state = threading.Lock()
    running = {"now": False, "again": False}
    fatal: list[StoreError] = []  # a lost or damaged database: the daemon ends with it

    def wake() -> None:
        with state:
            if running["now"]:
                running["again"] = True
                return
        scheduler.add_job(job, id="mail", replace_existing=True)

    def job() -> None:
        with state:
            running["now"], running["again"] = True, False
        try:
            for _ in range(100):  # bounded: each round reads what arrived during the previous one
                one_pass()
                with state:
                    if not running["again"]:
                        running["now"] = False
                        return
                    running["again"] = False
        finally:
            with state:
                running["now"] = False

    def one_pass() -> None:
        if not lock.acquire(config.lock_wait_seconds, who="pbem run"):
            holder, stuck = lock.describe_holder()
            log.warning("pass skipped: %s holds the data%s; the next timer tries again", holder,
                        " and looks stuck" if stuck else "")
            return
        try:
            store = open_store(config)
        except StoreError as e:
            lock.release()
            _storage_failed(e)
            return
        try:
            rep = tick(config, store)
            if rep.errors:
                log.warning("tick: %s", "; ".join(rep.errors))
            if rep.fetched or rep.processed or rep.fired or (rep.sent and (rep.sent.sent or rep.sent.failed)):
                log.info("tick: %s", rep.summary())
            wake = next_wakeup(config, store, utcnow())
            if rep.sent is not None and rep.sent.budget_used:  # more to send: go on after this pass's reading
                scheduler.add_job(job, id="more", replace_existing=True)
            elif wake is not None:
                scheduler.add_job(job, "date", run_date=wake, id="wakeup", replace_existing=True)
        except StoreError as e:
            _storage_failed(e)
        except Exception:
            log.exception("tick failed; next attempt at the next timer")
        finally:
            store.close()
            lock.release()

    def _storage_failed(e: StoreError) -> None:
        """One line, in the configured language; a lost or damaged database stops the daemon (nothing is read
        into it), a full or read-only disk is tried again at the next timer."""
        if not e.stops:
            log.error("%s", e.msg.get(config.language))
            return
        fatal.append(e)  # said once, by `pbem run` as it ends
        stop.set()
        threading.Thread(target=scheduler.shutdown, kwargs={"wait": False}, daemon=True).start()

    def watch_idle() -> None:
        """A second mailbox connection that only waits (IMAP IDLE) and wakes the tick up."""
        try:
            store = open_store(config)
        except StoreError:  # (the passes say it, and stop the daemon if they must)
            return
        source: Any = None
        while not stop.is_set():
            try:
                source = source or (once_idle_source() if once_idle_source else open_mailbox(config, store))
                if source.wait(min(config.poll_seconds, 25 * 60)) and not stop.is_set():
                    wake()
            except Exception as e:
                log.warning("waiting for mail failed (%s); polling continues", e)
                if source is not None:
                    source.close()
                source = None
                stop.wait(config.poll_seconds)
        if source is not None:
            source.close()
        store.close()

    scheduler.add_job(job, "interval", seconds=config.poll_seconds, id="poll", next_run_time=utcnow())
    if config.mailbox.kind == "imap" and config.mailbox.idle:
        threading.Thread(target=watch_idle, name="imap-idle", daemon=True).start()

    def shutdown(*_: Any) -> None:
        stop.set()
        scheduler.shutdown(wait=True)

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    log.info("pbem daemon started: mailbox %s, outbox %s, polling every %s s", config.mailbox.kind,
             config.outbox.kind, config.poll_seconds)
    scheduler.start()
    if fatal:
        raise fatal[0]
