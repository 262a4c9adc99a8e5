"""King cards: which changes of the primary offices a card allows, and playing it.

« Une carte Roi obtenue se joue immédiatement : elle modifie les valeurs des fonctions selon ses
symboles, puis quitte le jeu. »  « Les fonctions primaires restent entre un et six ; on ne modifie pas
directement une fonction secondaire. »

A change is a tuple with one entry per symbol, in the card's order: ``"GUE+"`` (raise the War office),
``"FIN-"``, or ``""`` when the symbol cannot be used (every office it may touch is at its bound).
Each symbol of a card changes a different office (ruling).  A symbol is lost only when it has no
legal use given the symbols before it.
"""

from __future__ import annotations

from pbem.core import Audience, Event, replace
from pbem.games.pourleroi.cards import Symbol, card_data, ministry_data, parse_symbols
from pbem.games.pourleroi.state import PRIMARY_MAX, PRIMARY_MIN, KingToPlay, State, secondary_value

Change = tuple[str, ...]


def symbols_of(state: State, card: str) -> tuple[Symbol, ...]:
    return parse_symbols(state.material.kings[card])


def _signs(symbol: Symbol) -> tuple[str, ...]:
    return ("+", "-") if symbol.sign == "±" else (symbol.sign,)


def _options(state: State, symbol: Symbol, offices: dict[str, int], used: set[str]) -> list[str]:
    out = []
    for m in (symbol.ministry,) if symbol.ministry else state.ministries:
        if m in used or m not in offices:
            continue
        for s in _signs(symbol):
            after = offices[m] + (symbol.amount if s == "+" else -symbol.amount)
            if PRIMARY_MIN <= after <= PRIMARY_MAX:
                out.append(m + s)
    return out


def legal_changes(state: State, card: str) -> list[Change]:
    """Every legal way to play ``card`` now, the default first (board order, raising before lowering)."""
    symbols = symbols_of(state, card)
    out: list[Change] = []

    def walk(i: int, offices: dict[str, int], used: set[str], chosen: tuple[str, ...]) -> None:
        if i == len(symbols):
            out.append(chosen)
            return
        options = _options(state, symbols[i], offices, used)
        if not options:
            walk(i + 1, offices, used, (*chosen, ""))
            return
        for opt in options:
            m, s = opt[:-1], opt[-1]
            delta = symbols[i].amount if s == "+" else -symbols[i].amount
            walk(i + 1, {**offices, m: offices[m] + delta}, used | {m}, (*chosen, opt))

    walk(0, dict(state.offices), set(), ())
    return out


def needs_choice(state: State, card: str) -> bool:
    """Does the owner of ``card`` have anything to choose (more than one legal change)?"""
    return len(legal_changes(state, card)) > 1


def match_change(state: State, card: str, wanted: list[tuple[str, str | None]]) -> Change | None:
    """The legal change that gives each symbol one of the (ministry, sign or None) pairs asked for.

    The pairs may come in any order; a pair without a sign fits a symbol whose sign is fixed.
    Symbols with a printed ministry may be left out.  None when no legal change fits.
    """
    symbols = symbols_of(state, card)
    for change in legal_changes(state, card):
        used = [False] * len(wanted)
        fits = True
        for sym, chosen in zip(symbols, change, strict=True):
            if not chosen:
                continue
            m, s = chosen[:-1], chosen[-1]
            for j, (wm, ws) in enumerate(wanted):
                if not used[j] and wm == m and (ws == s or (ws is None and sym.sign != "±")):
                    used[j] = True
                    break
            else:
                if not sym.ministry:
                    fits = False
                    break
        if fits and all(used):
            return change
    return None


def play(state: State, pending: KingToPlay, change: Change, ev: list[Event], *, chosen: bool) -> State:
    """Apply ``change`` (one of `legal_changes`); the card leaves the game."""
    symbols = symbols_of(state, pending.card)
    offices = dict(state.offices)
    changes = []
    for sym, c in zip(symbols, change, strict=True):
        if not c:
            continue
        m, s = c[:-1], c[-1]
        before = offices[m]
        offices[m] = before + (sym.amount if s == "+" else -sym.amount)
        changes.append({"ministry": ministry_data(state.material, m), "before": before, "after": offices[m],
                        "secondary_before": secondary_value(before), "secondary_after": secondary_value(offices[m])})
    ev.append(Event("king_played", Audience.public(), {
        "player": pending.player, "card": card_data(state.material, pending.card), "how": pending.how,
        "changes": changes, "lost": sum(1 for c in change if not c), "chosen": chosen,
        "secondary": state.secondary}))
    waiting = list(state.kings_pending)
    waiting.remove(pending)
    return replace(state, offices=offices, kings_played=(*state.kings_played, pending.card),
                   kings_pending=tuple(waiting))


def change_text(change: Change) -> str:
    """A change as the ROI order line that gives it (``ROI GUE + FIN -``)."""
    parts = [f"{c[:-1]} {c[-1]}" for c in change if c]
    return "ROI " + " ".join(parts) if parts else "ROI"
