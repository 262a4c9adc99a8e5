"""Playing one scenario case with its ruleset alone (no mail, no database): set-up, steps, checks.

Orders go the way the engine takes them: each line through `Ruleset.parse_order` (with the
lines already accepted from the same player), an immediate order carried out at once, the others
kept for the step if the player is prompted; silent prompted players get their default orders.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

from pbem import games
from pbem.core import (
    MJ,
    Event,
    Msg,
    Order,
    OrderError,
    OrderNotAllowedError,
    PositionError,
    Ruleset,
    SetupError,
)
from pbem.dice import Dice, ForcedDiceError, Forcing, Roll
from pbem.names import fold, match_name
from pbem.render import Renderer
from pbem.scenario.case import Case, CaseError, Expectations, Step, load_state_file, null
from pbem.scenario.expect import Check, LineError, Outcomes, check_all
from pbem.scenario.paths import PathError, decode, patch_state


@dataclass(frozen=True)
class OrderLine:
    """One line of the orders as the case gives it, and what became of it."""

    player: str
    line: str
    status: str
    """``accepted``, ``immediate`` or ``refused``."""
    error: LineError | None = None
    acting: str | None = None
    """For the MJ's ``POUR <joueur> : ...``: the player the order is for."""
    note: Msg | None = None
    """What the ack says after « OK » (`pbem.core.Order.note`): a CHOIX entry dropped, a condition."""


@dataclass
class Phase:
    """The set-up or one step: what went in, what came out, and the checks."""

    number: int
    """0 for the set-up, then the step's rank in the file."""
    title: Msg
    lines: list[OrderLine] = field(default_factory=list)
    defaults: list[tuple[str, list[str]]] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    failure: Msg | None = None
    """The phase could not be played (a refused set-up nobody expected, a forced die out of range...)."""

    @property
    def ok(self) -> bool:
        return self.failure is None and all(c.ok for c in self.checks)


@dataclass
class CaseResult:
    case: Case
    game_title: str
    phases: list[Phase]
    state: Any = None

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.phases)

    @property
    def checks(self) -> list[Check]:
        return [c for p in self.phases for c in p.checks]


def _crash(fr: str, en: str, e: Exception) -> Msg:
    where = traceback.extract_tb(e.__traceback__)[-1]
    said = f"{type(e).__name__}: {e} ({where.filename}:{where.lineno})"
    return Msg(f"{fr} : {said}", f"{en}: {said}")


def _messages() -> tuple[Msg, Msg]:
    fr, en = Renderer("common", "fr"), Renderer("common", "en")
    return (Msg(fr.message("not_your_step"), en.message("not_your_step")),
            Msg(fr.message("mj_use_for"), en.message("mj_use_for")))


class _Player:
    """Plays a case step by step; the state and the ruleset travel with it."""

    def __init__(self, case: Case):
        self.case = case
        self.ruleset: Ruleset = games.get(case.game)
        self.state: Any = None
        self.not_your_step, self.use_for = _messages()

    def _patch(self, patch: dict[str, Any] | None, key: str) -> None:
        if patch is None:
            return
        try:
            self.state = patch_state(self.ruleset.state_type, self.state, null(patch))
        except PathError as e:
            raise CaseError(self.case.path, f"{key}.{e.at}", e.msg) from None

    def _decode(self, data: Any, key: str) -> Any:
        try:
            return decode(self.ruleset.state_type, data)
        except PathError as e:
            raise CaseError(self.case.path, f"{key}.{e.at}", e.msg) from None

    def setup(self) -> Phase:
        case = self.case
        phase = Phase(0, Msg("Mise en place", "Set-up"))
        forcing = Forcing(case.forced)
        dice = Dice(case.seed, "setup", forcing)
        setup_error: Msg | None = None
        if case.roster:
            try:
                self.state, events = self._setup(dice)
                phase.events = list(events)
            except SetupError as e:
                setup_error = e.msg
            except ForcedDiceError as e:
                phase.failure = e.msg
            except CaseError:
                raise
            except Exception as e:  # a crashing set-up is the case's failure, not a traceback
                phase.failure = _crash("la mise en place a échoué", "the set-up failed", e)
            if self.state is not None and case.state is not None:
                self._patch(dict(case.state), "etat")
        elif case.state_file is not None:
            self.state = self._decode(load_state_file(case), "etat_fichier")
            if case.state is not None:
                self._patch(dict(case.state), "etat")
        else:
            self.state = self._decode(null(case.state), "etat")
        phase.rolls = list(dice.rolls)
        if setup_error is not None and case.expect.setup_refused is None:
            phase.failure = Msg(f"mise en place refusée : {setup_error.fr}", f"set-up refused: {setup_error.en}")
        if phase.failure is None:
            self._check(phase, case.expect, [], forcing, setup_error)
        return phase

    def _setup(self, dice: Dice) -> tuple[Any, list[Event]]:
        """The ruleset's set-up; with ``[position]``, its ``scenario_setup`` (a `PositionError` is the file's fault)."""
        case = self.case
        if case.position is None:
            state, events = self.ruleset.setup(list(case.roster), dict(case.options), dice)
            return state, list(events)
        arrange = getattr(self.ruleset, "scenario_setup", None)
        if arrange is None:
            raise CaseError(case.path, "position", Msg(
                f"{self.ruleset.title} ne lit pas de [position] : décrivez la position avec [etat]",
                f"{self.ruleset.title} reads no [position]: describe the position with [etat]"))
        try:
            state, events = arrange(list(case.roster), dict(case.options), dict(case.position), dice)
        except PositionError as e:
            raise CaseError(case.path, f"position.{e.key}", e.msg) from None
        return state, list(events)

    def _checks(self, expect: Expectations, phase: Phase, errors: list[LineError], forcing: Forcing,
                setup_error: Msg | None = None) -> list[Check]:
        state = self.state
        out = Outcomes(
            events=phase.events, errors=errors, rolls=phase.rolls, state=state,
            view=lambda who: self.ruleset.view(state, who),
            prompts=self.ruleset.prompts(state) if state is not None else [],
            outcome=self.ruleset.outcome(state) if state is not None else None,
            setup_error=setup_error, forcing=forcing,
            notes=[(ln.player, ln.line, ln.note) for ln in phase.lines if ln.note is not None],
        )
        return check_all(expect, out)

    def step(self, step: Step) -> Phase:
        self._patch(dict(step.patch) if step.patch is not None else None, f"etape[{step.number}].etat")
        phase = Phase(step.number, self.ruleset.step_title(self.state))
        forcing = Forcing(step.forced)
        errors: list[LineError] = []
        rolls: list[Roll] = []
        try:
            for k in range(step.repeat):
                # each repetition is a step of its own for the dice (as in a game), all under this step's forcing
                dice = Dice(self.case.seed, f"step-{step.number}" + (f".{k + 1}" if k else ""), forcing)
                try:
                    self._play_once(step, phase, errors, dice)
                finally:
                    rolls += dice.rolls
        except ForcedDiceError as e:
            phase.failure = e.msg
        except Exception as e:  # a ruleset that crashes is reported as the case's failure, with where it broke
            phase.failure = _crash("l'étape a échoué", "the step failed", e)
        phase.rolls = rolls
        if phase.failure is None:
            self._check(phase, step.expect, errors, forcing)
        return phase

    def _play_once(self, step: Step, phase: Phase, errors: list[LineError], dice: Dice) -> None:
        """The step's orders read, then (unless ``resoudre = false``) the step resolved, defaults for the silent."""
        rs = self.ruleset
        prompts = rs.prompts(self.state)
        prompted = {p.player for p in prompts}
        accepted: dict[str, list[Order]] = {}
        for player, lines in step.orders:
            for line in lines:
                self._line(phase, player, line, prompted, accepted, errors, dice)
        if not step.resolve:
            return
        orders: dict[str, list[Order]] = {}
        for p in prompts:
            if p.player in orders:
                continue
            mine = accepted.get(p.player)
            if mine:
                orders[p.player] = mine
            else:
                orders[p.player] = rs.default_orders(self.state, p.player)
                if orders[p.player]:
                    phase.defaults.append((p.player, [o.text or o.verb for o in orders[p.player]]))
        self.state, events = rs.resolve(self.state, orders, dice)
        phase.events += events

    def _check(self, phase: Phase, expect: Expectations, errors: list[LineError], forcing: Forcing,
               setup_error: Msg | None = None) -> None:
        try:
            phase.checks = self._checks(expect, phase, errors, forcing, setup_error)
        except Exception as e:  # prompts(), outcome() or view() broke on this position
            phase.failure = _crash("la vérification a échoué", "checking failed", e)

    def _line(self, phase: Phase, player: str, line: str, prompted: set[str], accepted: dict[str, list[Order]],
              errors: list[LineError], dice: Dice) -> None:
        rs = self.ruleset
        acting = player
        text = line
        head, _, rest = line.partition(" ")
        on_behalf = player == MJ and fold(head) in ("pour", "for")
        try:
            if on_behalf:
                who, sep, text = rest.partition(":")
                if not sep:
                    raise OrderNotAllowedError(Msg("POUR <joueur> : <ordre>", "FOR <player> : <order>"))
                acting = match_name(who.strip(), rs.players(self.state))
                text = text.strip()
            order = rs.parse_order(self.state, acting, text, accepted.get(acting, []))
        except OrderError as e:
            err = LineError(player, line, e.label, e.msg)
            errors.append(err)
            phase.lines.append(OrderLine(player, line, "refused", err))
            return
        done = rs.immediate(self.state, acting, order, dice)
        if done is not None:
            self.state, events = done
            phase.events += events
            phase.lines.append(OrderLine(player, line, "immediate", acting=acting if on_behalf else None))
            return
        why = self.use_for if acting == MJ else (self.not_your_step if acting not in prompted else None)
        if why is not None:
            err = LineError(player, line, OrderNotAllowedError.label, why)
            errors.append(err)
            phase.lines.append(OrderLine(player, line, "refused", err))
            return
        accepted.setdefault(acting, []).append(order)
        phase.lines.append(OrderLine(player, line, "accepted", acting=acting if on_behalf else None, note=order.note))


def play_case(case: Case) -> CaseResult:
    """Play every phase of a case; a phase that fails stops the ones after it."""
    player = _Player(case)
    result = CaseResult(case, player.ruleset.title, [])
    phase = player.setup()
    result.phases.append(phase)
    if phase.failure is None and player.state is not None:
        for step in case.steps:
            phase = player.step(step)
            result.phases.append(phase)
            if phase.failure is not None:
                break
    result.state = player.state
    return result
