"""The flow of play: a player's turn from the Chambellan's choice to the discard, then the next turn or round.

« Le Chambellan » decides Versailles or the Hunt and plays first, then each player in order, then
the Chambellan again; then the next player becomes Chambellan.  « Fin du tour d'un joueur » : the
power of a charge, the turn's income, the discard down to 10 cards.  The first to 50 000 livres wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core import Event, Order, replace
from pbem.dice import Dice
from pbem.games.courtisans.actions import ACTIONS, DRAW, carry_out
from pbem.games.courtisans.checks import POWER_OF, power_refusal
from pbem.games.courtisans.court import imprison, move_court, new_sovereigns, present_newcomers, release
from pbem.games.courtisans.news import cards_data, mj, private, public, who
from pbem.games.courtisans.state import (
    BASTILLE,
    CourtState,
    Slot,
    cote,
    interrupted,
    power_holder,
    with_courtier,
)

COURT, JAIL, JUDGE, DISCARD = "COUR", "EMBASTILLER", "JUGER", "DEFAUSSER"
POWERS = (COURT, JAIL, JUDGE)
POWER_USES = {COURT: "cour", JAIL: "embastiller", JUDGE: "juger"}
"""Each power's use, as `checks.power_refusal` names it."""


def round_queue(state: CourtState) -> tuple[Slot, ...]:
    """« Joueur A Chambellan, Joueur B, Joueur C, Joueur D, Joueur A Chambellan »."""
    seats = state.seats
    start = seats.index(state.chamberlain)
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    return (Slot(order[0], "first"), *(Slot(p) for p in order[1:]), Slot(order[0], "closing"))


def start_round(state: CourtState, dice: Dice, ev: list[Event], *, first: bool = False) -> CourtState:
    """A new Chambellan is named; then the new courtisans are presented (and new sovereigns crowned)."""
    if not first:
        state = replace(state, round=state.round + 1)
    state = replace(state, paid={}, powers_used=())
    ev.append(public("round_started", round=state.round, chamberlain=who(state, state.chamberlain)))
    crown = state.crown
    crowning = not crown.king and crown.regency_until > 0 and state.round >= crown.regency_until
    state = present_newcomers(state, dice, ev, draw=not crowning)
    if crowning:
        state = new_sovereigns(state, dice, ev)
    return replace(state, queue=round_queue(state))


def advance(state: CourtState, dice: Dice, ev: list[Event]) -> CourtState:
    """The next player turn: dead players' turns are skipped; after the closing turn, the next round."""
    queue = state.queue[1:]
    while True:
        while queue and not state.courtiers[queue[0].player].alive:
            ev.append(public("turn_skipped", who=who(state, queue[0].player), closing=queue[0].kind == "closing"))
            queue = queue[1:]
        if queue:
            return replace(state, queue=queue)
        if state.options.max_rounds and state.round >= state.options.max_rounds:
            return finish(replace(state, queue=()), ev, "rounds")
        state = start_round(replace(state, queue=()), dice, ev)
        queue = state.queue


def play_turn(state: CourtState, player: str, orders: Sequence[Order], dice: Dice) -> tuple[CourtState, list[Event]]:
    """The open turn of ``player``, with their orders (or the defaults); then on to the next turn."""
    ev: list[Event] = []
    slot = state.slot
    assert slot is not None and slot.player == player
    state = replace(state, turns=state.turns + 1)
    ev.append(public("turn_started", who=who(state, player), round=state.round, slot=slot.kind))
    if slot.kind == "first":
        state = _chamberlain_choice(state, player, orders, ev)
    actions = [o for o in orders if o.verb in ACTIONS][:2]
    while len(actions) < 2:  # ruling: a missing action is a draw, like the silent player's two
        actions.append(Order(DRAW, (), DRAW))
    for order in actions:
        if interrupted(state) or not state.courtiers[player].alive:
            ev.append(public("action_lost", who=who(state, player)))
            continue
        state = carry_out(state, player, order, dice, ev)
    if not interrupted(state):
        for order in orders:
            if order.verb in POWERS and not (order.verb == COURT and order.args[1] == "chambellan"):
                state = use_power(state, player, order, dice, ev)
    state = collect_income(state, player, ev, closing=slot.kind == "closing")
    state = discard_down(state, player, [int(n) for o in orders if o.verb == DISCARD for n in o.args], dice, ev)
    state = check_victory(state, ev)
    if not state.over:
        state = advance(state, dice, ev)
    ev.append(register(state))
    return state, ev


def register(state: CourtState) -> Event:
    """For the MJ's digest: every hand, every parti, the deck in order and the discard pile."""
    return mj("register", hands=[{**who(state, p), "parti": state.courtiers[p].parti,
                                  "cards": cards_data(state, state.courtiers[p].hand)} for p in state.seats],
              deck=list(state.deck), discard=list(state.discard))


def _chamberlain_choice(state: CourtState, player: str, orders: Sequence[Order], ev: list[Event]) -> CourtState:
    """« décide avant de jouer si la Cour se trouve à Versailles ou à la Chasse » (default: Versailles)."""
    chosen = [str(o.args[0]) for o in orders if o.verb == COURT and o.args[1] == "chambellan"]
    place = chosen[-1] if chosen else "versailles"
    if state.wars:
        ev.append(public("court_at_war", place=place, by="chambellan"))
        return state
    if not state.courtiers[player].at_court:
        ev.append(public("chamberlain_absent", who=who(state, player)))
        return replace(state, court="versailles")
    ev.append(public("chamberlain_choice", who=who(state, player), place=place, defaulted=not chosen))
    return replace(state, court=place)


# ---------------------------------------------------------------- the powers of the charges


def use_power(state: CourtState, player: str, order: Order, dice: Dice, ev: list[Event]) -> CourtState:
    """« il peut encore décider le pouvoir de sa charge » : once a round for each charge, on the state the two
    actions leave, checked there as the order parser checked it (`checks.power_refusal`)."""
    use = POWER_USES[order.verb]
    target = "" if order.verb == COURT else str(order.args[0])
    why = power_refusal(state, player, use, target)
    power = POWER_OF[use]
    if why is not None:
        extra = {"target": who(state, target)} if target and why.code in ("cote", "not_jailed") else {}
        ev.append(private([player], "power_failed", reason=why.code, power=power, **extra))
        return state
    held = power_holder(state, power)
    assert held is not None
    if order.verb == COURT:
        state = move_court(state, str(order.args[0]), ev, "maitre_chasse")
    elif order.verb == JAIL:
        value = cote(state, target, "roi")
        ev.append(public("chancellor_jails", who=who(state, player), target=who(state, target), cote=value))
        state = imprison(state, target, ev)
    else:
        ev.append(public("chancellor_judges", who=who(state, player), target=who(state, target)))
        state = release(state, target, dice, ev, "jugement")
    return replace(state, powers_used=state.powers_used + (held[1],))


# ---------------------------------------------------------------- income, discard, victory


def income_due(state: CourtState, player: str, closing: bool) -> tuple[int, list[int], list[int], str | None]:
    """The income of ``player``'s turn: (amount, cards paid, cards already paid this round, pooled spouse).

    Titles, charges and pensions held at the end of the turn, the spouse's pooled with them and halved;
    nothing in the Bastille, and the spouse in the Bastille is left out.  « Le Roi ne paie pas deux fois » :
    a card already paid this round to someone outside the household pays nothing (listed as skipped);
    ruling: nor, on the Chambellan's closing turn, to himself, unless option ``chamberlain_paid_twice``.
    """
    c = state.courtiers[player]
    if not c.alive or c.status == BASTILLE:
        return 0, [], [], None
    spouse = state.courtiers[c.spouse] if c.spouse else None
    pooled = spouse is not None and spouse.alive and spouse.status != BASTILLE
    household = {player, spouse.player} if pooled and spouse else {player}
    cards = list(c.possessions) + (list(spouse.possessions) if pooled and spouse else [])
    paid, skipped = [], []
    for n in cards:
        card = state.cards[n]
        if not card.income:
            continue
        before = state.paid.get(n, ())
        again = closing and state.options.chamberlain_paid_twice
        if not all(p in household for p in before):
            skipped.append(n)
        elif player not in before or again:
            paid.append(n)
    total = sum(state.cards[n].income for n in paid)
    return (total // 2 if pooled else total), paid, skipped, (spouse.player if pooled and spouse else None)


def collect_income(state: CourtState, player: str, ev: list[Event], closing: bool) -> CourtState:
    c = state.courtiers[player]
    if not c.alive:
        return state
    amount, paid, skipped, spouse = income_due(state, player, closing)
    state = replace(state, paid={**state.paid, **{n: state.paid.get(n, ()) + (player,) for n in paid}})
    state = with_courtier(state, replace(c, livres=c.livres + amount))
    data = {"who": who(state, player), "amount": amount, "livres": c.livres + amount,
            "cards": [{**d, "income": state.cards[int(str(d["number"]))].income} for d in cards_data(state, paid)],
            "skipped": cards_data(state, skipped), "spouse": who(state, spouse) if spouse else None,
            "jailed": c.status == BASTILLE, "closing": closing and not state.options.chamberlain_paid_twice}
    if state.options.public_fortunes:
        ev.append(public("income", **data))
    else:
        ev.append(private([player], "income", **data))
    return state


def discard_down(state: CourtState, player: str, wanted: list[int], dice: Dice, ev: list[Event]) -> CourtState:
    """« s'il a plus de 10 cartes, indiquer au MJ desquelles il se défausse » ; the rest at random."""
    c = state.courtiers[player]
    excess = len(c.hand) - state.options.hand_limit
    if excess <= 0:
        return state
    chosen = [n for n in dict.fromkeys(wanted) if n in c.hand][:excess]
    rest = [n for n in c.hand if n not in chosen]
    drawn = dice.sample(rest, excess - len(chosen), f"cards {player} discards at random") \
        if excess > len(chosen) else []
    gone = chosen + drawn
    state = with_courtier(state, replace(c, hand=tuple(n for n in c.hand if n not in gone)))
    state = replace(state, discard=state.discard + tuple(gone))
    ev.append(private([player], "discarded", who=who(state, player), cards=cards_data(state, gone),
                      random=len(drawn)))
    ev.append(public("discarded_public", who=who(state, player), count=len(gone)))
    return state


def ranking(state: CourtState) -> list[str]:
    return sorted(state.seats, key=lambda p: (-state.courtiers[p].livres, state.seats.index(p)))


def check_victory(state: CourtState, ev: list[Event]) -> CourtState:
    """« the first to amass 50 000 livres », checked at the end of every player turn (ruling): the richest of
    those who have it wins; equal fortunes share the victory."""
    rich = [p for p in state.seats if state.courtiers[p].livres >= state.options.target]
    if not rich:
        return state
    return finish(state, ev, "target")


def finish(state: CourtState, ev: list[Event], reason: str) -> CourtState:
    best = max(state.courtiers[p].livres for p in state.seats)
    winners = tuple(p for p in state.seats if state.courtiers[p].livres == best)
    state = replace(state, over=True, winners=winners, end=reason, queue=())
    ev.append(public("game_over", reason=reason, winners=[who(state, p) for p in winners],
                     ranking=[{**who(state, p), "livres": state.courtiers[p].livres} for p in ranking(state)],
                     target=state.options.target, round=state.round))
    return state
