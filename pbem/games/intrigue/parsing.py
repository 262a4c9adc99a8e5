"""Understanding one order line in the game's situation: which decision it answers and whether it is allowed.

The words themselves (verbs, motifs, amounts) are read by `orders`; this module checks them
against the state and the lines already accepted from the same mail, and words every refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core import MJ, Msg, Order, OrderNotAllowedError, OrderSyntaxError, PlayerName
from pbem.games.intrigue.decisions import bribe_targets, keep_candidates, kind_for
from pbem.games.intrigue.orders import (
    BRIBE,
    CONFLICT,
    KEEP,
    PLACE,
    PLACE_LINKS,
    POST,
    de_name,
    fmt,
    motif_label,
    parse_amount,
    split_verb,
    starts_with_motif,
    take_motif,
)
from pbem.games.intrigue.state import BRIBE_UNIT, IntrigueState, Piece
from pbem.games.intrigue.table import absent_pieces, duplicate_motifs, free_values
from pbem.grammar import refused, syntax
from pbem.names import fold, take_name


def not_now() -> OrderNotAllowedError:
    return refused("aucune décision n'est attendue de vous maintenant", "no decision is expected from you now")


def _kind_for(state: IntrigueState, player: str) -> str:
    kind = kind_for(state, player)
    if kind is None:
        raise not_now()
    return kind


def parse_order(state: IntrigueState, player: PlayerName, line: str, accepted: Sequence[Order]) -> Order:
    verb, rest = split_verb(line)  # first: a line without an order word is no order (the engine's prose)
    if player == MJ or player not in state.seats:
        raise refused("le MJ n'a pas d'ordre de jeu à Intrigue (utilisez POUR <joueur> : ...)",
                      "the MJ has no game orders in Intrigue (use POUR <player>: ...)")
    text = line.strip()
    if state.over:
        raise refused("la partie est terminée", "the game is over")
    kind = _kind_for(state, player)
    expected = {"bribe": (BRIBE,), "keep": (KEEP,), "post": (POST,), "conflict": (CONFLICT,),
                "place": (PLACE,), "decide": (KEEP, POST)}[kind]
    if verb not in expected:
        want = " / ".join(expected)
        raise refused(f"{verb} n'est pas possible maintenant (attendu : {want})",
                      f"{verb} is not possible now (expected: {want})")
    if verb == BRIBE:
        return _parse_bribe(state, player, rest, accepted, text)
    if verb == KEEP:
        return _parse_keep(state, player, rest, accepted, text)
    if verb == POST:
        return _parse_post(state, player, rest, accepted, text)
    if verb == CONFLICT:
        motif, extra = take_motif(rest)
        if extra:
            raise syntax("syntaxe : CONFLIT <motif>", "syntax: CONFLICT <motif>")
        duplicates = duplicate_motifs(state.palaces[player])
        if motif not in duplicates:
            listed = " ou ".join(motif_label(m) for m in duplicates)
            raise OrderNotAllowedError(Msg(
                f"pas de conseillers {motif_label(motif)} en double dans votre parc (au choix : {listed})",
                f"no duplicate {motif} counsellors in your park (choose: {' or '.join(duplicates)})"))
        return Order(CONFLICT, (motif,), text)
    return _parse_place(state, player, rest, accepted, text)


def _parse_bribe(state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    targets = bribe_targets(state, player)
    usage = Msg("syntaxe : POT-DE-VIN <propriétaire du palais> <motif> <montant>",
                 "syntax: BRIBE <palace owner> <motif> <amount>")
    if not rest:
        raise OrderSyntaxError(usage)
    if rest[0][0].isdigit() and not starts_with_motif(rest):
        # short form: only the amount, when the situation is unique
        if len(targets) != 1:
            raise syntax("précisez le palais et le motif : POT-DE-VIN <propriétaire> <motif> <montant>",
                         "give the palace and motif: BRIBE <palace owner> <motif> <amount>")
        palace, motif = targets[0]
        amount = parse_amount(rest)
    else:
        if starts_with_motif(rest):
            palaces = list(dict.fromkeys(t[0] for t in targets))
            if len(palaces) != 1:
                raise OrderSyntaxError(usage)
            palace = palaces[0]
            motif, tail = take_motif(rest)
        else:
            palace, tail = take_name(rest, list(state.seats))
            if not tail:
                raise OrderSyntaxError(usage)
            if tail[0][0].isdigit() and not starts_with_motif(tail):
                motifs = [m for pal, m in targets if pal == palace]
                if len(motifs) != 1:
                    raise OrderSyntaxError(usage)
                motif = motifs[0]
            else:
                motif, tail = take_motif(tail)
        amount = parse_amount(tail)
    if (palace, motif) not in targets:
        raise OrderNotAllowedError(Msg(
            f"vous n'êtes pas concerné par le motif {motif_label(motif)} dans le parc {de_name(palace)}",
            f"you are not involved with motif {motif} in {palace}'s park"))
    if amount % BRIBE_UNIT:
        raise refused(f"un pot-de-vin est un multiple de 10 000 (pas {fmt(amount)})",
                      f"a bribe is a multiple of 10,000 (not {amount:,})")
    minimum = state.options.minimum_bribe
    if amount < minimum:
        raise refused(f"dans cette partie, un pot-de-vin est d'au moins {fmt(minimum)}",
                      f"in this game a bribe is at least {minimum:,}")
    others = sum(
        int(o.args[2]) for o in accepted
        if o.verb == BRIBE and len(o.args) == 3 and (o.args[0], o.args[1]) != (palace, motif)
    )
    if amount + others > state.money[player]:
        raise OrderNotAllowedError(Msg(
            f"vous n'avez que {fmt(state.money[player])}" + (f" (dont {fmt(others)} déjà promis)" if others else ""),
            f"you only have {state.money[player]:,}" + (f" ({others:,} already promised)" if others else "")))
    return Order(BRIBE, (palace, motif, amount), text)


def _parse_keep(state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    sits = keep_candidates(state, player)
    if not sits:
        raise not_now()
    if not rest:
        raise syntax("syntaxe : GARDER <joueur> <motif>", "syntax: KEEP <player> <motif>")
    kept, tail = take_name(rest, list(state.seats))
    if tail:
        motif, tail = take_motif(tail)
        if tail:
            raise syntax("syntaxe : GARDER <joueur> <motif>", "syntax: KEEP <player> <motif>")
    else:
        motifs = [m for m, c in sits.items() if kept in c]
        if len(motifs) != 1:
            raise syntax("précisez le motif : GARDER <joueur> <motif>", "give the motif: KEEP <player> <motif>")
        motif = motifs[0]
    if motif not in sits:
        raise refused(f"rien à décider pour le motif {motif_label(motif)}",
                      f"nothing to decide for motif {motif}")
    if kept not in sits[motif]:
        listed = ", ".join(sits[motif])
        raise refused(f"{kept} n'a pas de conseiller {motif_label(motif)} en jeu ici ({listed})",
                      f"{kept} has no {motif} counsellor at stake here ({listed})")
    for o in accepted:
        if o.verb == POST and o.args[1] == motif and o.args[0] != kept:
            raise refused(f"contredit « {o.text} »", f"contradicts '{o.text}'")
    return Order(KEEP, (kept, motif), text)


def _post_candidates(state: IntrigueState, player: str) -> list[Piece]:
    palace = state.palaces[player]
    return absent_pieces(palace)


def _parse_post(state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    palace = state.palaces[player]
    cands = _post_candidates(state, player)
    usage = Msg("syntaxe : POSTE <joueur> <motif> <valeur du poste>", "syntax: POST <player> <motif> <post value>")
    if not cands:
        raise refused("aucun conseiller n'attend de poste libre", "no counsellor is waiting for a free post")
    if not rest:
        raise OrderSyntaxError(usage)
    if starts_with_motif(rest):
        motif, tail = take_motif(rest)
        owners = [pc.owner for pc in cands if pc.motif == motif]
        if len(owners) > 1:
            raise syntax(f"plusieurs conseillers {motif_label(motif)} : précisez le joueur",
                         f"several {motif} counsellors: name the player")
        if not owners:
            raise refused(f"aucun conseiller {motif_label(motif)} n'attend de poste libre",
                          f"no {motif} counsellor waits for a free post")
        who = owners[0]
    else:
        who, tail = take_name(rest, list(state.seats))
        if tail and not tail[0][0].isdigit() or starts_with_motif(tail):
            motif, tail = take_motif(tail)
        else:
            mine = [pc.motif for pc in cands if pc.owner == who]
            if len(mine) != 1:
                raise OrderSyntaxError(usage)
            motif = mine[0]
    if Piece(who, motif) not in cands:
        raise refused(f"{who} n'a pas de conseiller {motif_label(motif)} attendant un poste libre",
                      f"{who} has no {motif} counsellor waiting for a free post")
    value = parse_amount(tail)
    free = free_values(palace)
    if value not in free:
        listed = ", ".join(fmt(v) for v in free)
        raise refused(f"pas de poste libre de valeur {fmt(value)} (libres : {listed})",
                      f"no free post worth {value:,} (free: {', '.join(f'{v:,}' for v in free)})")
    for o in accepted:
        if o.verb == POST and o.args[2] == value and o.args[1] != motif:
            raise refused(f"ce poste est déjà donné par « {o.text} »", f"that post is already given by '{o.text}'")
        if o.verb == KEEP and o.args[1] == motif and o.args[0] != who:
            raise refused(f"contredit « {o.text} »", f"contradicts '{o.text}'")
    return Order(POST, (who, motif, value), text)


def _parse_place(state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    usage = Msg("syntaxe : PLACER <motif> CHEZ <joueur>", "syntax: PLACE <motif> AT <player>")
    if not rest:
        raise OrderSyntaxError(usage)
    motif, tail = take_motif(rest)
    if tail and fold(tail[0]) in PLACE_LINKS and len(tail) > 1:
        tail = tail[1:]
    if not tail:
        raise OrderSyntaxError(usage)
    target, extra = take_name(tail, list(state.seats))
    if extra:
        raise OrderSyntaxError(usage)
    if target == player:
        raise refused("on place ses conseillers dans les palais adverses, pas dans le sien",
                      "counsellors go to opponents' palaces, not your own")
    earlier = [o for o in accepted if o.verb == PLACE]
    if len(earlier) >= 2:
        raise refused("deux conseillers par manche seulement", "only two counsellors a round")
    if any(o.args[1] == target for o in earlier):
        raise refused(f"déjà un conseiller placé chez {target} cette manche : deux palais différents",
                      f"already one counsellor placed at {target} this round: two different palaces")
    hand = list(state.hands[player])
    for o in earlier:
        if o.args[0] in hand:
            hand.remove(str(o.args[0]))
    if motif not in hand:
        raise refused(f"plus de conseiller {motif_label(motif)} en main",
                      f"no {motif} counsellor left in hand")
    return Order(PLACE, (motif, target), text)
