"""After a pass: the files that show a game outside the mail, kept up to date (a game's ``calendar_file`` and
``archive_dir``).

They are derived from what the pass stored, never read back by it, and optional: so they are not part of the
pass over mail and deadlines (`pbem.daemon.tick`), and their caller (the daemon's pass, `pbem tick`) refreshes
them once that pass is over.  A failure is said (the pass's errors) and never stops anything: the files are
tried again at the next pass.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem import ticktext
from pbem.config import Config
from pbem.store import Store

if TYPE_CHECKING:
    from pbem.engine import Engine

log = logging.getLogger("pbem")


@dataclass
class Refreshed:
    """What a refresh did, in the words of the pass's report: the files written, the failures."""

    fired: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def refresh(config: Config, store: Store, now: datetime) -> Refreshed:
    """Rewrite the live calendars whose dates moved and rebuild the live archives whose public record changed,
    for the configured games that are in the database."""
    done = Refreshed()
    calendars = [(gid, g.calendar_file) for gid, g in config.games.items() if g.calendar_file is not None]
    archives = [(gid, g.archive_dir) for gid, g in config.games.items() if g.archive_dir is not None]
    calendars = [(gid, path) for gid, path in calendars if store.game(gid) is not None]
    archives = [(gid, folder) for gid, folder in archives if store.game(gid) is not None]
    if not calendars and not archives:  # (the usual case: no engine, no calendar nor archive code loaded)
        return done
    from pbem.engine import Engine  # (loaded when a live file is configured: a pass stays light without)

    engine = Engine(config, store)
    _calendars(engine, calendars, now, done, config.language)
    _archives(engine, archives, done, config.language)
    return done


def _calendars(engine: Engine, live: list[tuple[str, Path]], now: datetime, done: Refreshed, lang: str) -> None:
    """The live calendars: rewritten when a deadline or a pause moved (`pbem.ics`)."""
    if not live:
        return
    from pbem import ics  # (only when one is configured)

    for game_id, path in live:
        try:
            table = engine.table(game_id)
            entries = ics.game_entries(table, now)
            if ics.write_calendar(path, table.settings.title or game_id, entries, table.lang, now,
                                  only_if_changed=True) is not None:
                done.fired.append(f"{game_id}: calendar written")
        except Exception as e:  # (a folder pbem may not write, a full disk: said, and tried at the next pass)
            done.errors.append(ticktext.warned(log, f"calendar {game_id}: {ticktext.why(e, lang)}", lang))


def _archives(engine: Engine, live: list[tuple[str, Path]], done: Refreshed, lang: str) -> None:
    """The live archives: rebuilt when a game's public record changed (`pbem.archive.live`: a step published,
    a correction, the seed revealed)."""
    if not live:
        return
    from pbem.archive import live as live_archive  # (only when one is configured)

    for game_id, folder in live:
        try:
            if live_archive.refresh(engine, game_id, folder):
                done.fired.append(f"{game_id}: archive refreshed")
        except Exception as e:  # (a folder pbem may not write, a full disk: said, and tried at the next pass)
            done.errors.append(ticktext.warned(log, f"archive {game_id}: {ticktext.why(e, lang)}", lang))
