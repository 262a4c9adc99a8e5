"""The actions of a player turn (« Actions possibles à son tour : 2 actions … parmi »), carried out.

Each action is checked when it is carried out (`refusal`), on the state the turn has reached: the
first action of a turn can change what the second may do.  An action that has become impossible is
lost (ruling).  The order parser checks each line with the same `refusal`, on the states the lines
before it may leave (`plan`).
"""

from __future__ import annotations

from pbem.core import JSON, Event, Msg, Order, replace
from pbem.dice import Dice
from pbem.games.courtisans import checks
from pbem.games.courtisans.court import marry, new_queen, recall, release, shift_cote
from pbem.games.courtisans.effects import play_card
from pbem.games.courtisans.news import card_data, cards_data, private, public, who
from pbem.games.courtisans.requests import Verdict, addressee, ask, audience_die, gossip_points, penalize
from pbem.games.courtisans.state import CourtState, holder, interrupted, with_courtier

DRAW, MAISON, PLAY, GIVE, MARRY, CHARGE, PRINCESS = "PIOCHER", "MAISON", "JOUER", "DONNER", "MARIAGE", "CHARGE", \
    "PRINCESSE"
RELEASE, RECALL, GOSSIP, PRAISE, PASS = "BASTILLE", "EXIL", "RAGOTS", "LOUANGES", "PASSER"
ACTIONS = (DRAW, MAISON, PLAY, GIVE, MARRY, CHARGE, PRINCESS, RELEASE, RECALL, GOSSIP, PRAISE, PASS)
AUDIENCES = (MARRY, CHARGE, PRINCESS, RELEASE, RECALL, GOSSIP, PRAISE)
"""The actions that need a die with the King or the Queen (the text's « 6 dernières actions »)."""


def refusal(state: CourtState, player: str, order: Order) -> Msg | None:
    """Why this action cannot be carried out on this state, or None: the resolution asks it on the state the
    turn has reached, the order parser on every state the lines before may leave (`plan`)."""
    verb, args = order.verb, order.args
    c = state.courtiers[player]
    if interrupted(state):
        return Msg("la manche s'est arrêtée : le Roi et la Reine sont morts", "the round stopped: the King and the "
                   "Queen are dead")
    if not c.alive:
        return Msg("votre personnage est mort", "your character is dead")
    if verb in AUDIENCES and not c.at_court:
        return Msg("exilé ou embastillé, on ne demande pas d'audience", "an exile or a prisoner asks no audience")
    if verb == MAISON:
        return checks.maison_refusal(state, player, int(args[0]))
    if verb == PLAY:
        number, target, sovereign = int(args[0]), str(args[1]), str(args[2])
        return checks.play_refusal(state, player, state.cards[number], target, sovereign)
    if verb == GIVE:
        return checks.gift_refusal(state, player, [int(n) for n in args[1:]], str(args[0]))
    if verb == MARRY:
        return checks.marriage_refusal(state, player, str(args[0]))
    if verb == CHARGE:
        return checks.charge_refusal(state, player, int(args[0]))
    if verb == PRINCESS:
        return checks.princess_refusal(state, player)
    if verb == RELEASE:
        return checks.release_refusal(state, player, str(args[0]))
    if verb == RECALL:
        return checks.recall_refusal(state, player, str(args[0]), str(args[1]))
    if verb in (GOSSIP, PRAISE):
        return checks.gossip_refusal(state, player, str(args[0]), str(args[1]))
    return None


def carry_out(state: CourtState, player: str, order: Order, dice: Dice, ev: list[Event]) -> CourtState:
    """One action of ``player``'s turn."""
    why = refusal(state, player, order)
    if why is not None:
        ev.append(private([player], "action_failed", who=who(state, player), line=order.text or order.verb,
                          reason=why.fr, reason_en=why.en))
        ev.append(public("action_lost", who=who(state, player)))
        return state
    verb, args = order.verb, order.args
    if verb == DRAW:
        return draw(state, player, dice, ev)
    if verb == PASS:
        ev.append(public("passed", who=who(state, player)))
        return state
    if verb == MAISON:
        number = int(args[0])
        c = state.courtiers[player]
        state = replace(state, maison=tuple(n for n in state.maison if n != number))
        state = with_courtier(state, replace(c, hand=c.hand + (number,)))
        ev.append(public("took_from_maison", who=who(state, player), card=card_data(state.cards[number])))
        return state
    if verb == PLAY:
        return play_card(state, player, int(args[0]), str(args[1]), str(args[2]), str(args[3]), dice, ev)
    if verb == GIVE:
        return _give(state, player, str(args[0]), [int(n) for n in args[1:]], ev)
    if verb in (GOSSIP, PRAISE):
        return _gossip(state, player, verb, str(args[0]), str(args[1]), dice, ev)
    return _audience(state, player, order, dice, ev)


def draw(state: CourtState, player: str, dice: Dice, ev: list[Event]) -> CourtState:
    """« Piocher 1 carte de la pioche générale » : when it is empty, the discard pile is shuffled into it."""
    if not state.deck and state.discard:
        state = replace(state, deck=tuple(dice.shuffle(list(state.discard), "shuffle the discard pile into the deck")),
                        discard=())
        ev.append(public("deck_reshuffled", size=len(state.deck)))
    if not state.deck:
        ev.append(public("deck_empty", who=who(state, player)))
        return state
    number, deck = state.deck[0], state.deck[1:]
    c = state.courtiers[player]
    state = replace(state, deck=deck)
    state = with_courtier(state, replace(c, hand=c.hand + (number,)))
    ev.append(private([player], "drew", who=who(state, player), card=card_data(state.cards[number])))
    ev.append(public("drew_public", who=who(state, player), left=len(deck)))
    return state


def _give(state: CourtState, player: str, other: str, numbers: list[int], ev: list[Event]) -> CourtState:
    """« Donner 1 ou 2 de ses cartes à un autre joueur » : which cards is known to the two of them only."""
    giver, taker = state.courtiers[player], state.courtiers[other]
    state = with_courtier(state, replace(giver, hand=tuple(n for n in giver.hand if n not in numbers)))
    state = with_courtier(state, replace(taker, hand=taker.hand + tuple(numbers)))
    ev.append(private([player, other], "gift", giver=who(state, player), taker=who(state, other),
                      cards=cards_data(state, numbers)))
    ev.append(public("gift_public", giver=who(state, player), taker=who(state, other), count=len(numbers)))
    return state


def _gossip(state: CourtState, player: str, verb: str, other: str, sovereign: str, dice: Dice,
            ev: list[Event]) -> CourtState:
    """« RAGOTS/LOUANGES » : one die to be received, then 1 to 3 points with that sovereign only."""
    kind = "ragots" if verb == GOSSIP else "louanges"
    verdict = audience_die(state, player, sovereign, dice)
    ev.append(public("audience", who=who(state, player), what=kind, target=who(state, other),
                     sovereign=addressee(state, sovereign), **verdict.data()))
    if not verdict.granted:
        return penalize(state, player, verdict, ev)
    die, points, bonus = gossip_points(state, player, sovereign, dice)
    ev.append(public("gossip", who=who(state, player), what=kind, target=who(state, other), die=die, points=points,
                     bonus=bonus, sovereign=addressee(state, sovereign)))
    delta = -points if kind == "ragots" else points
    return shift_cote(state, other, ev, roi=delta if sovereign == "roi" else 0,
                      reine=delta if sovereign == "reine" else 0)


def _audience(state: CourtState, player: str, order: Order, dice: Dice, ev: list[Event]) -> CourtState:
    """Marriage, a charge, a princess, a release, a return from exile: an audience without a card."""
    verb, args = order.verb, order.args
    sovereign = str(args[1]) if verb == RECALL else "roi"
    what = {MARRY: "mariage", CHARGE: "charge", PRINCESS: "princesse", RELEASE: "bastille", RECALL: "exil"}[verb]
    data: dict[str, JSON]
    if verb == CHARGE:
        data = {"card": card_data(state.cards[int(args[0])]),
                "target": who(state, holder(state, int(args[0])) or player)}
    elif verb == PRINCESS:
        data = {"nation": str(args[0])}
    else:
        data = {"target": who(state, str(args[0]))}
    verdict = ask(state, player, sovereign, dice, f"audience {what}")
    if verb == CHARGE and verdict.granted and (unmet := checks.charge_unmet(state, player, int(args[0]))):
        # option charge_conditions = "audience": the King gives no charge to whom it does not admit, whatever the
        # die; « En cas de refus, la cote du personnage qui a demandé l'audience diminue de 1 point »
        verdict = Verdict(False, verdict.rolls, addressee(state, sovereign))
        data |= {"not_admitted": unmet.fr, "not_admitted_en": unmet.en}
    ev.append(public("audience", who=who(state, player), what=what, sovereign=addressee(state, sovereign),
                     **data, **verdict.data()))
    if not verdict.granted:
        return penalize(state, player, verdict, ev)
    if verb == MARRY:
        return marry(state, player, str(args[0]), ev)
    if verb == CHARGE:
        number = int(args[0])
        owner = holder(state, number)
        assert owner is not None
        o, c = state.courtiers[owner], state.courtiers[player]
        state = with_courtier(state, replace(o, possessions=tuple(n for n in o.possessions if n != number)))
        state = with_courtier(state, replace(c, possessions=state.courtiers[player].possessions + (number,)))
        ev.append(public("charge_moved", card=card_data(state.cards[number]), giver=who(state, owner),
                         taker=who(state, player)))
        return state
    if verb == PRINCESS:
        return new_queen(state, str(args[0]), dice, ev)
    if verb == RELEASE:
        return release(state, str(args[0]), dice, ev, "audience")
    return recall(state, str(args[0]), dice, ev, "audience")
