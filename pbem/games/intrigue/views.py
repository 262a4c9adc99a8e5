"""What each player sees: the status view, the orders they may give now, step titles and the final summary."""

from __future__ import annotations

from pbem.core import JSON, MJ, PUBLIC, Msg, OrderHelp, Outcome, PlayerName, replace
from pbem.games.intrigue import sequential
from pbem.games.intrigue.decisions import awaited, bribe_targets, keep_candidates
from pbem.games.intrigue.orders import ENGLISH, de_name, fmt, motif_label
from pbem.games.intrigue.simultaneous import involvements
from pbem.games.intrigue.state import LAST_ROUND, MOTIF_NAMES, IntrigueState
from pbem.games.intrigue.table import (
    absent_pieces,
    board,
    bribe_data,
    duplicate_motifs,
    free_values,
    left_of,
    ranking,
    winners,
)


def step_title(state: IntrigueState) -> Msg:
    if state.over:
        return Msg("Partie terminée", "Game over")
    r = state.round
    if not state.sequential:
        names = {
            "bribes": ("pots-de-vin", "bribes"),
            "decisions": ("décisions", "decisions"),
            "placements": ("placements", "placements"),
            "income": ("revenus", "income"),
        }
        fr, en = names.get(state.step, (state.step, state.step))
        return Msg(f"Manche {r} — {fr}", f"Round {r} — {en}")
    awaited = sequential.awaiting(state)
    if awaited is None:
        return Msg(f"Manche {r}", f"Round {r}")
    player, kind = awaited
    pend = state.pending
    where_fr = where_en = ""
    if pend is not None:
        where_fr = f" (palais {de_name(pend.palace)}" + (f", {motif_label(pend.motif)})" if pend.motif else ")")
        where_en = f" ({pend.palace}'s palace" + (f", {MOTIF_NAMES[pend.motif].en})" if pend.motif else ")")
    labels = {
        "bribe": ("pot-de-vin", "bribe"),
        "keep": ("décision", "decision"),
        "post": ("postes", "posts"),
        "conflict": ("choix du conflit", "next conflict"),
        "place": ("placement", "placement"),
    }
    fr, en = labels[kind]
    return Msg(f"Manche {r} — {player} : {fr}{where_fr}", f"Round {r} — {player}: {en}{where_en}")


def outcome(state: IntrigueState) -> Outcome | None:
    if not state.over:
        return None
    win = winners(state)
    best, best_en = fmt(state.money[win[0]]), f"{state.money[win[0]]:,}"
    if len(win) == 1:
        return Outcome(tuple(win), Msg(f"{win[0]} a la plus grosse fortune : {best}.",
                                       f"{win[0]} is the richest with {best_en}."))
    return Outcome(tuple(win), Msg(f"Victoire partagée entre {listing(win, 'et')} avec {best} chacun.",
                                   f"Shared victory between {listing(win, 'and')} with {best_en} each."))


def listing(names: list[str], conjunction: str) -> str:
    """« A, B et C »: a list as French (or English) writes it."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def view(state: IntrigueState, player: PlayerName) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "game": "intrigue",
        "viewer": player,
        "mode": state.options.mode,
        "refund_loser": state.options.refund_loser,
        "refund_conflicts": state.options.refund_conflicts,
        "minimum_bribe": state.options.minimum_bribe,
        "post_values": list(state.options.post_values),
        "round": state.round,
        "last_round": LAST_ROUND,
        "step": state.step,
        "seats": list(state.seats),
        "over": state.over,
        "waiting_for": [{"player": p, "kind": k} for p, k in awaited(state)],
        "board": board(state),
        "bribes": [bribe_data(b) for b in state.bribes],
        "bribes_this_round": [bribe_data(b) for b in state.bribes if b.round == state.round],
        "start_total": state.start_total,
        "income_paid": state.income_paid,
        "total_money": sum(state.money[p] for p in state.seats),
        "winners": winners(state) if state.over else [],
        "ranking": ranking(state),
    }
    pend = state.pending
    out["pending"] = None if pend is None else {
        "palace": pend.palace,
        "stage": pend.stage,
        "motif": pend.motif,
        "bidders": list(pend.bidders),
        "bids": [{"player": p, "amount": a} for p, a in zip(pend.bidders, pend.bids, strict=False)],
        "awaiting": pend.awaiting,
    }
    if player != PUBLIC and player in state.seats or player == MJ:
        viewers = list(state.seats) if player == MJ else [player]
        out["involvements"] = {
            v: [{"palace": s.palace, "motif": s.motif, "with": [b for b in s.bidders if b != v]}
                for s in involvements(state, v)]
            for v in viewers
        } if not state.sequential and state.step == "bribes" else {}
        if player in state.seats:
            out["money"] = state.money[player]
            out["hand"] = list(state.hands[player])
            out["help"] = [{"syntax": h.syntax, "fr": h.description.fr, "en": h.description.en}
                           for h in help_for(state, player)]
    return out

def help_for(state: IntrigueState, player: PlayerName) -> list[OrderHelp]:
    if state.over or player not in state.seats:
        return []
    kinds = [k for p, k in awaited(state) if p == player]
    if not kinds:
        return []
    kind = kinds[0]
    out: list[OrderHelp] = []
    money, money_en = fmt(state.money[player]), f"{state.money[player]:,}"
    if kind == "bribe":
        for pal, m in bribe_targets(state, player):
            least = state.options.minimum_bribe
            floor_fr, floor_en = (f"au moins {fmt(least)}", f"at least {least:,}") if least else ("0 permis", "0 allowed")
            out.append(OrderHelp(
                f"POT-DE-VIN {pal} {m} <montant>",
                Msg(f"pot-de-vin au propriétaire {pal} pour votre conseiller {motif_label(m)} (multiple de 10 000, "
                    f"{floor_fr}, au plus {money} en tout)",
                    f"bribe {pal} for your {MOTIF_NAMES[m].en} counsellor (multiple of 10,000, {floor_en}, "
                    f"at most {money_en} in all)")))
    elif kind in ("keep", "decide"):
        for m, cands in keep_candidates(state, player).items():
            out.append(OrderHelp(
                f"GARDER <{' | '.join(cands)}> {m}",
                Msg(f"le conseiller {motif_label(m)} de ce joueur reste (les autres vont sur l'île)",
                    f"that player's {MOTIF_NAMES[m].en} counsellor stays (the others go to the island)")))
    if kind in ("post", "decide"):
        palace = state.palaces[player]
        free = " | ".join(str(v) for v in free_values(palace))
        for pc in absent_pieces(palace):
            out.append(OrderHelp(
                f"POSTE {pc.owner} {pc.motif} <{free}>",
                Msg(f"donne ce poste libre au conseiller {motif_label(pc.motif)} {de_name(pc.owner)}",
                    f"give that free post to {pc.owner}'s {MOTIF_NAMES[pc.motif].en} counsellor")))
    if kind == "conflict":
        ms = " | ".join(duplicate_motifs(state.palaces[player]))
        out.append(OrderHelp(f"CONFLIT <{ms}>", Msg(
            "les conseillers en double du parc à départager maintenant (les autres ensuite, dans l'ordre de votre choix)",
            "the duplicate counsellors of your park to settle now (the others next, in the order you choose)")))
    if kind == "place":
        hand = " | ".join(dict.fromkeys(state.hands[player]))
        others = " | ".join(p for p in left_of(state, player))
        out.append(OrderHelp(
            f"PLACER <{hand}> CHEZ <{others}>",
            Msg("deux ordres, dans deux palais adverses différents", "two orders, in two different opponents' palaces")))
    return [replace(h, aliases=ENGLISH.get(h.syntax.split()[0], ())) for h in out]
