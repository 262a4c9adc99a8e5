"""One pass of work (`tick`) and the daemon that runs it on timers (APScheduler) and on new mail (IMAP IDLE).

A tick: fetch new mail and store it raw -> interpret stored mail and queue the
answers -> fire due registrations ends, reminders and deadlines -> write forum
files -> send the outbox.  Each stage commits before the next starts, so a crash
anywhere is repaired by the next tick.  After it, the daemon's pass and `pbem tick`
refresh the live calendars and archives (`pbem.published`).
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pbem import published, ticktext
from pbem.clock import utcnow
from pbem.config import Config
from pbem.due import engine_work
from pbem.faults import crashpoint
from pbem.mail.inbox import (
    CursorStore,
    ImapSource,
    MaildirSource,
    MailSource,
    RawMessage,
)
from pbem.mail.secrets import secret_provider
from pbem.mail.transport import MaildirTransport, SmtpTransport, Transport, clean_maildir_tmp
from pbem.passlock import PassLock
from pbem.published import Refreshed
from pbem.sendreport import SendReport
from pbem.store import Store
from pbem.store.health import StoreError, storage_error

if TYPE_CHECKING:
    import ssl

    from pbem.engine import Engine
    from pbem.outbox import RetryPolicy

log = logging.getLogger("pbem")

STALE_OUTBOX_SECONDS = 600
"""At the start of a pass, files of the Maildir outbox's tmp/ older than this are a killed pass's half-written
mail: only a pass writes there, one pass at a time holds the data (`pbem.passlock`), and a write takes
milliseconds, so ten minutes leaves no doubt."""


def _ssl_context(cafile: str | None) -> ssl.SSLContext:
    import ssl  # TLS is loaded when a server needs it, for speed (a Maildir set-up never does); no circle

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
    from pbem.outbox import RetryPolicy  # (with the sending, for speed: see `_send`; no circle)

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
    stopped_before: str | None = None
    """The stage this pass did not start because the daemon was stopping (the next pass does it)."""
    cleaned: int = 0
    """Half-written files of a killed pass removed from the outbox's tmp/ at the start."""

    def add(self, refreshed: Refreshed) -> None:
        """What was refreshed after the pass (`pbem.published`), told with the pass."""
        self.fired += refreshed.fired
        self.errors += refreshed.errors

    def summary(self, lang: str = "en") -> str:
        """What the pass did in one line, in ``lang`` (`pbem.ticktext`)."""
        s = self.sent
        return ticktext.summary(self.fetched, self.processed, (s.sent, s.retrying, s.failed, s.stopped) if s else None,
                                self.fired, self.errors, self.stopped_before, self.cleaned, lang)


def tick(config: Config, store: Store, now: datetime | None = None, *, source: MailSource | None = None,
         transport: Transport | None = None, should_stop: Callable[[], bool] = lambda: False) -> TickReport:
    """One full pass.  ``now`` may be simulated (cron catch-up, demos, tests).

    ``should_stop`` is asked between stages (the daemon was told to stop): the pass then ends there.  Each
    stage has committed its work, so the next pass takes up the rest, exactly as after a crash at that point.
    """
    now = now or utcnow()
    report = TickReport()

    def stopping(before: str) -> bool:
        if should_stop():
            report.stopped_before = before
            return True
        return False

    _refresh_templates()  # an MJ's template edits count from this pass on
    if config.outbox.kind == "maildir":  # what a killed pass left half-written goes before anything is sent
        report.cleaned = clean_maildir_tmp(config.outbox.path, STALE_OUTBOX_SECONDS)
    own_source = source is None
    own_transport = transport is None
    src: MailSource | None = source
    try:
        try:
            src = src or open_mailbox(config, store)

            def sink(batch: list[RawMessage]) -> None:
                # a mail is judged by when the mailbox received it (never later than now): a cron
                # pass after a deadline still counts a mail that arrived before it
                report.fetched += store.store_raw([(m.key, m.raw) for m in batch], now,
                                                  [min(m.received, now) if m.received else None for m in batch])

            src.fetch_new(sink)
            crashpoint("after-fetch")
        except Exception as e:  # a mailbox outage must not stop deadlines or sending
            _stop_on_storage(e, config, database_only=True)  # (the mailbox's own faults are an outage)
            report.errors.append(_warned(config, f"fetch failed: {e}"))
        if stopping("processing"):
            return report
        keys: list[str] = []
        engine: Engine | None = None
        try:
            # the engine only when the pass has work for it: stored mail to read, or in a game of
            # config.toml a deadline, a reminder, a pause, forum files due (`pbem.due`, read from the
            # database alone); a cron's pass with neither costs the start of Python and little more (#24)
            if engine_work(config, store, now):
                engine = _engine(config, store)
                keys = engine.process_pending(now)
        except Exception as e:  # a bug in one game: deadlines and sending still get their turn
            _stop_on_storage(e, config)
            report.errors.append(_warned(config, f"processing mail failed: {type(e).__name__}: {e}", trace=True))
        report.processed = len(keys)
        if keys:
            try:
                if src is not None:
                    src.after_processed(keys)
            except Exception as e:
                _warned(config, f"marking processed mail failed: {e}")
            failed = store.errored_messages(keys)
            if failed:
                report.errors.append(f"{len(failed)} mail(s) could not be processed (pbem mail list --status error)")
        if stopping("deadlines"):
            return report
        if engine is not None:
            _game_work(config, store, engine, report, now)
        if stopping("sending"):
            return report
        tr = transport or open_transport(config)
        try:
            report.sent = _send(config, store, tr, now)
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


def _send(config: Config, store: Store, transport: Transport, now: datetime) -> SendReport:
    """The queued mail that is due sent (`pbem.outbox.send_due`).  With no mail queued at all there is
    nothing to send nor to expire, and the outbox, which composes mail, is not even loaded: a cron's pass
    that finds nothing to do costs the start of Python and little more (issue #24).  No circle is dodged:
    the outbox never imports the daemon."""
    if not store.has_queued_outbox():
        return SendReport(0, 0, 0)
    from pbem.outbox import send_due

    return send_due(store, transport, sender=config.address, now=now, retry=retry_policy(config),
                    budget_seconds=config.outbox.send_budget_seconds)


def _refresh_templates() -> None:
    """Let the Jinja environments this process made see the templates edited since (`refresh_templates`).
    A process that never loaded `pbem.render` has none to refresh, and loading it only to find that out
    would cost a cron's pass its start (issue #24): a pass that has work loads it with the engine."""
    render = sys.modules.get("pbem.render")
    if render is not None:
        render.refresh_templates()


def _engine(config: Config, store: Store) -> Engine:
    """The engine over the store.  Loaded here, when a pass needs it, for speed: every room of the engine
    costs more than the rest of a pass that finds nothing to do (issue #24, the cold start).  No circle
    is dodged: the engine never imports the daemon."""
    from pbem.engine import Engine

    return Engine(config, store)


def _game_work(config: Config, store: Store, engine: Engine, report: TickReport, now: datetime) -> None:
    """The games' part of a pass: what is due fired, the forum files written."""
    try:
        report.fired = engine.due(now)
    except Exception as e:
        _stop_on_storage(e, config)
        report.errors.append(_warned(config, f"firing deadlines failed: {type(e).__name__}: {e}", trace=True))
    report.errors += [f"resolution failed: {f}" for f in report.fired if ": ERROR " in f]
    for game_id in config.games:
        try:
            if store.game(game_id):
                engine.write_forum(game_id)
        except OSError as e:  # a full disk must not stop the mail: the file is written at the next tick
            report.errors.append(_warned(config, f"forum {game_id}: {e}"))


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
    times += [item.next_attempt_at for item in store.outbox_items(status="queued") if item.next_attempt_at]
    future = [t for t in times if t > now]
    return min(future) if future else None


def _acquire_unless_stopping(lock: PassLock, wait_seconds: float, stop: threading.Event) -> bool:
    """`PassLock.acquire` that gives up as soon as the daemon is asked to stop (a pass waiting for
    another one's lock must not hold the shutdown back for ``lock_wait_seconds``)."""
    deadline = time.monotonic() + max(wait_seconds, 0.0)
    while not stop.is_set():
        if lock.acquire(min(0.5, max(deadline - time.monotonic(), 0.0)), who="pbem run"):
            return True
        if time.monotonic() >= deadline:
            return False
    return False


STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})


def _warned(config: Config, line: str, *, trace: bool = False) -> str:
    """Log one of the pass's lines in the configured language (`pbem.ticktext.warned`); returns the line."""
    return ticktext.warned(log, line, config.language, trace=trace)


def _said(config: Config, fr: str, en: str) -> str:
    """A line of the daemon's log in the configured language (the MJ reads it: short, and French by default)."""
    return en if config.language == "en" else fr


def run(config: Config, *, once_idle_source: Callable[[], MailSource] | None = None) -> None:
    """The daemon: a tick every ``poll_seconds``, at every deadline, and as soon as IDLE reports new mail.

    SIGTERM or SIGINT stops it: no new pass starts, the running pass stops at its next stage (each stage
    commits, so what is left is done by the next start, as after a crash) and the daemon exits 0.  A second
    signal while that pass finishes ends the process at once (exit 128 + signal), like a kill.

    Signals are blocked in every thread and taken synchronously by the main thread (`signal.sigwait`):
    no handler runs asynchronously inside a lock, and the scheduler is shut down without waiting (APScheduler's
    ``shutdown(wait=True)`` waits for the running job while holding the job-store lock that job's last
    ``add_job`` needs: a daemon stopped during a pass hung for ever).
    """
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.schedulers.background import BackgroundScheduler

    # before any thread starts: every thread inherits the mask, so only sigwait below ever sees these signals
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    main_thread = threading.get_ident()
    scheduler = BackgroundScheduler(executors={"default": ThreadPoolExecutor(1)},
                                    job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None})
    stop = threading.Event()
    busy = threading.Lock()  # held while a job runs: the main thread waits on it before exiting

    lock = PassLock(config.database)
    # new mail reported while a pass runs must get a pass of its own: the scheduler would skip a job
    # added while that same job runs (max_instances=1), so the running pass is told to go round again.
    # A pass asked for once a pass has ended gets a job id of its own (`soon`): a job is still counted as
    # running for a moment after its function returned, and a new run of the same id in that moment was
    # skipped (« maximum number of running instances reached »), leaving the mail to the next poll
    state = threading.Lock()
    running = {"now": False, "again": False, "queued": False}
    passes = itertools.count()
    fatal: list[StoreError] = []  # a lost or damaged database: the daemon ends with it

    def schedule(*args: Any, **kwargs: Any) -> None:
        if not stop.is_set():  # once stopping, nothing new is planned (the next start plans again)
            scheduler.add_job(job, *args, replace_existing=True, **kwargs)

    def soon(kind: str) -> None:
        """A pass as soon as the one running (if any) has ended: one at most waiting."""
        with state:
            if running["queued"]:
                return
            running["queued"] = True
        schedule(id=f"{kind}-{next(passes)}")

    def wake() -> None:
        with state:
            if running["now"]:
                running["again"] = True
                return
        soon("mail")

    def job() -> None:
        with busy:
            if stop.is_set():
                return
            with state:
                running["now"], running["again"], running["queued"] = True, False, False
            try:
                for _ in range(100):  # bounded: each round reads what arrived during the previous one
                    one_pass()
                    with state:
                        if stop.is_set() or not running["again"]:
                            running["now"] = False
                            return
                        running["again"] = False
            finally:
                with state:
                    running["now"] = False

    def one_pass() -> None:
        if not _acquire_unless_stopping(lock, config.lock_wait_seconds, stop):
            if stop.is_set():
                return
            holder, stuck = lock.describe_holder(lang=config.language)
            log.warning("%s", _said(config, f"passe sautée\u00a0: {holder} tient les données"
                                    f"{' et semble bloqué' if stuck else ''}\u00a0; le prochain minuteur réessaie",
                                    f"pass skipped: {holder} holds the data{' and looks stuck' if stuck else ''}; "
                                    "the next timer tries again"))
            return
        try:
            store = open_store(config)
        except StoreError as e:
            lock.release()
            _storage_failed(e)
            return
        try:
            now = utcnow()
            rep = tick(config, store, now, should_stop=stop.is_set)
            if rep.stopped_before is None:  # (a pass told to stop leaves them to the next one)
                rep.add(published.refresh(config, store, now))
            if rep.errors:
                log.warning("%s", "; ".join(ticktext.said(e, config.language) for e in rep.errors))
            if rep.fetched or rep.processed or rep.fired or (rep.sent and (rep.sent.sent or rep.sent.failed)):
                log.info("%s", rep.summary(config.language))
            else:  # (`pbem run -v`: every pass, the empty ones too)
                log.debug("%s", rep.summary(config.language))
            wake = next_wakeup(config, store, utcnow())
            if rep.sent is not None and rep.sent.budget_used:  # more to send: go on after this pass's reading
                soon("more")
            elif wake is not None:
                schedule("date", run_date=wake, id="wakeup")
        except StoreError as e:
            _storage_failed(e)
        except Exception:
            log.exception("%s", _said(config, "la passe a échoué\u00a0; nouvel essai au prochain minuteur",
                                      "tick failed; next attempt at the next timer"))
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
        # the main thread waits in sigwait: a stop signal aimed at it (blocked, so only pending) wakes it up
        signal.pthread_kill(main_thread, signal.SIGTERM)

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
                log.warning("%s", _said(config, f"l'attente du courrier a échoué ({e})\u00a0; la relève continue",
                                        f"waiting for mail failed ({e}); polling continues"))
                if source is not None:
                    source.close()
                source = None
                stop.wait(config.poll_seconds)
        if source is not None:
            source.close()
        store.close()

    scheduler.add_job(job, "interval", seconds=config.poll_seconds, id="poll", next_run_time=utcnow())
    log.info("%s", _said(config, f"démon pbem lancé\u00a0: boîte {config.mailbox.kind}, envoi {config.outbox.kind}, "
                                 f"relève toutes les {config.poll_seconds}\u00a0s",
                         f"pbem daemon started: mailbox {config.mailbox.kind}, outbox {config.outbox.kind}, "
                         f"polling every {config.poll_seconds} s"))
    scheduler.start()
    if config.mailbox.kind == "imap" and config.mailbox.idle:
        # a daemon thread: it may sit in IDLE for minutes and must not keep the process alive when it stops
        threading.Thread(target=watch_idle, name="imap-idle", daemon=True).start()

    signum = signal.sigwait(STOP_SIGNALS)
    stop.set()
    if not fatal:
        name = signal.Signals(signum).name
        log.info("%s", _said(config, f"démon pbem\u00a0: arrêt demandé ({name}), la passe en cours s'arrête à sa "
                                     "prochaine étape",
                             f"pbem daemon stopping ({name}): the running pass ends at its next stage"))
    scheduler.shutdown(wait=False)  # never wait here: see the docstring
    while not busy.acquire(timeout=0.2):
        again = signal.sigtimedwait(STOP_SIGNALS, 0)
        if again is not None:
            name = signal.Signals(again.si_signo).name
            log.warning("%s", _said(config, f"démon pbem\u00a0: second {name}, arrêt immédiat (le prochain "
                                            "démarrage finit le travail)",
                                    f"pbem daemon: second {name}, stopping at once (the next start finishes the work)"))
            logging.shutdown()
            os._exit(128 + again.si_signo)
    busy.release()
    if fatal:
        raise fatal[0]
    log.info("%s", _said(config, "démon pbem arrêté", "pbem daemon stopped"))
