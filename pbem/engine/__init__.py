"""The game driver: one face over the engine's rooms, for the CLI, the daemon, the demo and the tests.

The engine is the only place that ties a ruleset to the store and the outbox.  It never talks to
a mail server: it takes stored mail and queues letters; the caller passes ``now``.  `Engine` takes
game ids and hands each room the game's `Table` (`table`: its settings, ruleset, renderer, row and
state).  The rooms, each with one job, stand in three folders, one per audience (see
docs/architecture.md):

* `orders/`: what comes in by mail: `intake` (one stored mail -> sender, game, authentication, its
  lines interpreted, the answer queued), `interpret` (a player's lines), `commands` (the commands all
  games share), `mjdesk` (an MJ's lines);
* `desk/`: the MJ's desk: `mjmail` (his mail commands), `pauses`, `absences`, `approval` (results held
  for him), `seats` (players removed or replaced);
* `steps/`: the step machine: `turns` (the open step, the orders in force, resolution), `calendar`
  (when a step closes, and why), `publish` (a resolved step's results taken out), `letters` (who is
  told what), `handover` (seats changing hands), `lifecycle`, `corrections`, `actions` (immediate
  orders), `preview`, `export`;

and `schedule` (what the clock makes due) beside this face; `answers`, `words`, `when` and `phrases`
at the ground floor.  Every state change that must hold together (a processed message
and its ack; a resolved step, the new state and its mails) is one database transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.config import Config, GameConfig
from pbem.core import Ruleset, StepWord
from pbem.engine import phrases, schedule
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import absences, approval, confirm, pauses, seats
from pbem.engine.desk.approval import Published
from pbem.engine.desk.pauses import PauseNews
from pbem.engine.desk.seats import SeatNews
from pbem.engine.orders import intake, mjdesk
from pbem.engine.steps import (
    actions,
    calendar,
    corrections,
    export,
    letters,
    lifecycle,
    preview,
    publish,
    turns,
)
from pbem.engine.steps.corrections import RerunResult
from pbem.engine.steps.preview import Preview
from pbem.engine.steps.turns import GameStatus, gc_paused, run_resolve
from pbem.engine.table import EngineError, House, Table
from pbem.mail.reading import IncomingMail, read_message
from pbem.outbox import Letter
from pbem.render import Renderer
from pbem.store import AbsenceRow, GameRow, PlayerRow, Store
from pbem.store.records import events_from_json, rolls_from_json

__all__ = ["Engine", "EngineError", "GameStatus", "LineVerdict", "MailResult", "RerunResult", "events_from_json",
           "gc_paused", "read", "rolls_from_json", "run_resolve"]


class Engine:
    """Drives every game of one config over one store: each method is a call into one room."""

    BATCH = intake.BATCH

    def __init__(self, config: Config, store: Store):
        self.house = House(config, store)
        self.config = config
        self.store = store

    def table(self, game_id: str) -> Table:
        """The handle of one game, for the rooms."""
        return self.house.table(game_id)

    # --- what a game is now
    def settings(self, game_id: str) -> GameConfig:
        return self.table(game_id).settings

    def ruleset(self, game_id: str) -> Ruleset[Any]:
        return self.table(game_id).ruleset

    def renderer(self, game_id: str) -> Renderer:
        return self.table(game_id).renderer

    def game(self, game_id: str) -> GameRow:
        return self.table(game_id).row

    def state(self, g: GameRow) -> Any:
        return self.table(g.id).decode(g)

    def local(self, game_id: str, when: datetime | None) -> datetime | None:
        return self.house.local(when)

    def step_word(self, game_id: str) -> StepWord:
        return self.table(game_id).step_word

    def status(self, game_id: str, now: datetime) -> GameStatus:
        return turns.status(self.table(game_id), now)

    # --- lifecycle and players
    def new_game(self, game_id: str, now: datetime, seed: str | None = None) -> GameRow:
        return lifecycle.new_game(self.table(game_id), now, seed)

    def start_game(self, game_id: str, now: datetime) -> GameRow:
        return lifecycle.start_game(self.table(game_id), now)

    def finish(self, game_id: str, now: datetime) -> GameRow:
        return lifecycle.finish(self.table(game_id), now)

    def add_player(self, game_id: str, name: str, address: str, now: datetime, *, role: str | None = None,
                   data: Mapping[str, Any] | None = None, password: str | None = None, by: str = "mj",
                   gender: str | None = None) -> PlayerRow:
        return lifecycle.add_player(self.table(game_id), name, address, now, role=role, data=data, password=password,
                                    by=by, gender=gender)

    def set_nicknames(self, game_id: str, name: str, nicknames: Sequence[str], now: datetime) -> tuple[str, tuple[str, ...]]:
        return lifecycle.set_nicknames(self.table(game_id), name, nicknames, now)

    def remove_player(self, game_id: str, name: str, now: datetime, *, at_end: bool = False) -> SeatNews:
        return seats.remove(self.table(game_id), name, now, at_end=at_end)

    def replace_player(self, game_id: str, name: str, new_address: str, now: datetime, *, new_name: str = "",
                       from_turn: int | None = None) -> SeatNews:
        return seats.replace(self.table(game_id), name, new_name, new_address, now, from_turn=from_turn)

    def absence(self, game_id: str, name: str, start: datetime | None, end: datetime, now: datetime) -> AbsenceRow:
        return absences.declare(self.table(game_id), self.table(game_id).player_named(name).name, start, end, now, "mj")

    def cancel_absence(self, game_id: str, name: str, now: datetime) -> int:
        return absences.cancel(self.table(game_id), self.table(game_id).player_named(name).name, now, "mj")

    # --- mail in
    def process_pending(self, now: datetime) -> list[str]:
        return intake.process_pending(self.house, now)

    def process_message(self, key: str, raw: bytes, now: datetime, received_at: datetime | None = None) -> str:
        return intake.process_message(self.house, key, raw, now, received_at)

    def route(self, mail: IncomingMail) -> str | None:
        return intake.route(self.house, mail)

    # --- time and steps
    def due(self, now: datetime) -> list[str]:
        """What the clock made due, done; with the steps a late mail closed as this pass read it first."""
        return schedule.closed_while_reading(self.house) + schedule.due(self.house, now)

    def resolve(self, game_id: str, now: datetime, *, closed_at: datetime | None = None,
                write_forum: bool = True) -> bool:
        return turns.resolve(self.table(game_id), now, closed_at=closed_at, write_forum=write_forum)

    def deadline_plus(self, game_id: str, hours: float) -> datetime:
        return calendar.deadline_plus(self.table(game_id), hours)

    def extend(self, game_id: str, until: datetime, now: datetime, *, allow_earlier: bool = False) -> datetime:
        return calendar.extend(self.table(game_id), until, now, allow_earlier=allow_earlier)

    # --- the MJ's seat: pauses, who is missing, preview, approval
    def pause(self, game_id: str, start: datetime | None, end: datetime | None, reason: str,
              now: datetime) -> PauseNews:
        return pauses.schedule(self.table(game_id), start, end, reason, now)

    def resume(self, game_id: str, now: datetime, at: datetime | None = None) -> PauseNews:
        return pauses.resume(self.table(game_id), now, at)

    def missing_text(self, game_id: str, now: datetime) -> str:
        return mjdesk.missing_text(self.table(game_id), now)

    def preview(self, game_id: str, now: datetime) -> Preview:
        return preview.preview_step(self.table(game_id), now)

    def pause_text(self, game_id: str, news: PauseNews) -> str:
        return mjdesk.pause_text(self.table(game_id), news)

    def published_text(self, game_id: str, done: Published) -> str:
        return mjdesk.published_text(self.table(game_id), done)

    def preview_text(self, game_id: str, now: datetime) -> str:
        return mjdesk.preview_text(self.table(game_id), preview.preview_step(self.table(game_id), now))

    def publish(self, game_id: str, now: datetime, *, turn: int | None = None,
                chronicle: str | None = None) -> Published:
        return approval.publish(self.table(game_id), now, turn=turn, chronicle=chronicle)

    def confirmations_text(self, game_id: str, now: datetime, *, every: bool = False) -> str:
        return confirm.listing(self.table(game_id), now, every=every)

    def mj_help(self, game_id: str) -> str:
        return mjdesk.help_text(self.table(game_id))

    # --- the MJ's corrections
    def set_orders_mj(self, game_id: str, player: str, lines: Sequence[str], now: datetime,
                      turn: int | None = None) -> list[LineVerdict]:
        return corrections.set_orders_mj(self.table(game_id), player, lines, now, turn)

    def rerun(self, game_id: str, turn: int, now: datetime, *, publish: bool = False) -> RerunResult:
        return corrections.rerun(self.table(game_id), turn, now, publish=publish)

    # --- texts and files
    def digest_text(self, game_id: str, turn: int | None = None) -> str:
        return actions.turn_show(self.table(game_id), turn)

    def status_text(self, game_id: str, player: str) -> str:
        return letters.status_text(self.table(game_id), player)

    def orders_text(self, game_id: str, player: str) -> str:
        return letters.orders_text(self.table(game_id), player)

    def report_text(self, game_id: str, player: str, turn: int) -> str | None:
        return letters.report_text(self.table(game_id), player, turn)

    def write_forum(self, game_id: str) -> list[Path]:
        return publish.write_forum(self.table(game_id))

    def forum_path(self, game_id: str, turn: int, suffix: str = "") -> Path:
        return publish.forum_path(self.table(game_id), turn, suffix)

    # --- audit
    def verify(self, game_id: str, seed: str | None = None) -> list[str]:
        return export.verify(self.table(game_id), seed)

    def export(self, game_id: str, *, include_seed: bool | None = None) -> dict[str, Any]:
        return export.export(self.table(game_id), include_seed=include_seed)

    def resend(self, game_id: str, player: str, turn: int | None, now: datetime, *, to: str | None = None) -> Letter:
        """A player's results mailed again, to that player only (`letters.check_recipient`); queued, and logged."""
        table = self.table(game_id)
        name = table.player_named(player).name
        history = ((phrases.say(table.renderer, "tests_of", player=name), actions.history_text(table, name))
                   if actions.plays_by_actions(table) else None)
        step = turn if turn is not None else table.known().row.turn - 1
        letter = letters.resend_letter(table, player, step, f"cli-{now.isoformat()}", to=to, history=history)
        with self.store.atomic():
            table.outgoing.queue([letter], now)
            self.store.log(game_id, now, "mj", "results resent", {"player": player, "turn": step, "to": letter.to})
        return letter

    def public_export(self, game_id: str) -> dict[str, Any]:
        return export.public_export(self.table(game_id))


def read(raw: bytes) -> IncomingMail:
    """Re-exported for callers that hold raw bytes (benchmarks, tests)."""
    return read_message(raw)
