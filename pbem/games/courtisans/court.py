"""What happens to people and to the Crown: cotes, exile, the Bastille, marriages, deaths, reigns, wars.

Each function takes the state and the list of events being told, and returns the new state.
The paragraphs of the rule text they follow are named in their docstrings (« EXIL », « BASTILLE »,
« MORT D'UN COURTISAN », « MORT DU ROI »…).
"""

from __future__ import annotations

import re

from pbem.core import JSON, Event, replace
from pbem.dice import Dice
from pbem.games.courtisans.news import cards_data, private, public, who
from pbem.games.courtisans.state import (
    AT_COURT,
    BASTILLE,
    DEAD,
    EXILE,
    KING,
    PARTIS,
    QUEEN,
    Courtier,
    CourtState,
    Crown,
    at_court,
    favorite,
    king_cote_key,
    lover,
    titles_of,
    with_courtier,
)

_DICE = re.compile(r"^\s*(\d*)d(\d+)\s*([+-]\s*\d+)?\s*$")


def parse_cote_dice(text: str) -> tuple[int, int, int]:
    """``"1d6+2"`` -> (1, 6, 2); ValueError if unreadable."""
    found = _DICE.match(text.lower())
    if not found:
        raise ValueError(text)
    count = int(found.group(1) or 1)
    sides = int(found.group(2))
    plus = int(found.group(3).replace(" ", "")) if found.group(3) else 0
    if not 1 <= count <= 5 or sides < 2:
        raise ValueError(text)
    return count, sides, plus


def clamp(state: CourtState, value: int) -> int:
    return max(state.options.cote_min, min(state.options.cote_max, value))


# ---------------------------------------------------------------- cotes


def shift_cote(state: CourtState, player: str, ev: list[Event], roi: int = 0, reine: int = 0) -> CourtState:
    """Move a courtier's cote with the King (the Régente stands for him) and with the Queen, within the scale."""
    c = state.courtiers[player]
    if not c.at_court:
        return state
    changes: list[JSON] = []
    for delta, key, label in ((roi, king_cote_key(state), "regente" if state.crown.regent else "roi"),
                              (reine, "cote_reine", "regente" if state.crown.regent else "reine")):
        before = getattr(c, key)
        if not delta or before is None:
            continue
        after = clamp(state, before + delta)
        c = replace(c, **{key: after})
        changes.append({"sovereign": label, "before": before, "after": after, "delta": delta})
    if not changes:
        return state
    ev.append(public("cote", who=who(state, player), changes=changes))
    return with_courtier(state, c)


def roll_cote(state: CourtState, player: str, sovereign: str, dice: Dice) -> tuple[int, int]:
    """A cote drawn by the MJ (option ``cote_dice``); with the Queen, +bonus for her parti.  -> (cote, bonus)."""
    count, sides, plus = parse_cote_dice(state.options.cote_dice)
    label = "the King" if sovereign == "roi" else "the Queen"
    total = sum(dice.d(sides, f"{player} cote with {label}") for _ in range(count)) + plus
    bonus = 0
    if sovereign == "reine" and state.courtiers[player].parti == state.crown.queen_nation:
        bonus = state.options.queen_parti_bonus
    return clamp(state, total + bonus), bonus


def draw_cotes(state: CourtState, player: str, dice: Dice, ev: list[Event], *, roi: bool = True,
               reine: bool = True) -> CourtState:
    """Cotes drawn anew for a courtier at Court, with the sovereigns who reign."""
    c = state.courtiers[player]
    bonus = 0
    if roi:
        c = replace(c, cote_roi=roll_cote(state, player, "roi", dice)[0] if state.crown.king else None)
    if reine:
        value, bonus = roll_cote(state, player, "reine", dice) if state.crown.queen else (None, 0)
        c = replace(c, cote_reine=value)
    state = with_courtier(state, c)
    ev.append(public("cotes", who=who(state, player), roi=c.cote_roi, reine=c.cote_reine,
                     regent=state.crown.regent))
    if bonus:
        ev.append(private([player], "cote_bonus", who=who(state, player), bonus=bonus,
                          nation=state.crown.queen_nation))
    return state


def _return_cotes(state: CourtState, player: str, dice: Dice, ev: list[Event]) -> CourtState:
    """Back at Court after exile or the Bastille: cotes drawn anew, or the old ones (option ``cote_on_return``)."""
    c = state.courtiers[player]
    if state.options.cote_on_return == "keep" and (c.kept_roi is not None or c.kept_reine is not None):
        c = replace(c, cote_roi=c.kept_roi if state.crown.king else None,
                    cote_reine=c.kept_reine if state.crown.queen else None, kept_roi=None, kept_reine=None)
        state = with_courtier(state, c)
        ev.append(public("cotes", who=who(state, player), roi=c.cote_roi, reine=c.cote_reine,
                         regent=state.crown.regent))
        return state
    return draw_cotes(state, player, dice, ev)


# ---------------------------------------------------------------- cards leaving a courtier


def _take(state: CourtState, player: str, numbers: list[int]) -> CourtState:
    c = state.courtiers[player]
    return with_courtier(state, replace(c, possessions=tuple(n for n in c.possessions if n not in numbers)))


def to_maison(state: CourtState, player: str, numbers: list[int], ev: list[Event], why: str) -> CourtState:
    """Possessions taken from a courtier go to the Maison du Roi (vacant, to be taken there)."""
    if not numbers:
        return state
    state = _take(state, player, numbers)
    ev.append(public("to_maison", who=who(state, player), cards=cards_data(state, numbers), why=why))
    return replace(state, maison=state.maison + tuple(numbers))


def discard_status_cards(state: CourtState, player: str, ev: list[Event], why: str,
                         kinds: tuple[str, ...] = ("favorite", "amant")) -> CourtState:
    """« n'est plus Favorite ou Amant de la Reine (cartes défaussées) »."""
    numbers = [n for n in state.courtiers[player].possessions if state.cards[n].kind in kinds]
    if not numbers:
        return state
    state = _take(state, player, numbers)
    ev.append(public("status_lost", who=who(state, player), cards=cards_data(state, numbers), why=why))
    return replace(state, discard=state.discard + tuple(numbers))


def _leave_court(state: CourtState, player: str, status: str, ev: list[Event]) -> CourtState:
    """Exile and the Bastille: charges to the Maison, Favorite and Amant discarded, no cote any more."""
    c = state.courtiers[player]
    kinds = ("charge",) if state.options.exile_keeps_pensions else ("charge", "pension")
    state = to_maison(state, player, [n for n in c.possessions if state.cards[n].kind in kinds], ev, status)
    state = discard_status_cards(state, player, ev, status)
    c = state.courtiers[player]
    kept_roi = c.cote_roi if c.status == AT_COURT else c.kept_roi
    kept_reine = c.cote_reine if c.status == AT_COURT else c.kept_reine
    return with_courtier(state, replace(c, status=status, cote_roi=None, cote_reine=None, kept_roi=kept_roi,
                                        kept_reine=kept_reine))


def exile(state: CourtState, player: str, ev: list[Event]) -> CourtState:
    """« EXIL » : plus de cote, charges retirées, plus Favorite ni Amant ; garde titres, maréchalat, revenus."""
    c = state.courtiers[player]
    if c.status in (EXILE, DEAD):
        ev.append(public("no_effect", who=who(state, player), why=c.status))
        return state
    state = _leave_court(state, player, EXILE, ev)
    ev.append(public("exiled", who=who(state, player)))
    return state


def imprison(state: CourtState, player: str, ev: list[Event]) -> CourtState:
    """« BASTILLE » : comme l'exil, et en plus plus de revenus et plus de cartes à jouer (sauf Justice)."""
    c = state.courtiers[player]
    if c.status in (BASTILLE, DEAD):
        ev.append(public("no_effect", who=who(state, player), why=c.status))
        return state
    state = _leave_court(state, player, BASTILLE, ev)
    ev.append(public("imprisoned", who=who(state, player)))
    return state


def release(state: CourtState, player: str, dice: Dice, ev: list[Event], how: str) -> CourtState:
    """« Fin de la Bastille » : Justice, audience, jugement du Chancelier, nouveaux souverains."""
    c = state.courtiers[player]
    if c.status != BASTILLE:
        return state
    state = with_courtier(state, replace(c, status=AT_COURT))
    ev.append(public("released", who=who(state, player), how=how))
    return _return_cotes(state, player, dice, ev)


def recall(state: CourtState, player: str, dice: Dice, ev: list[Event], how: str) -> CourtState:
    """« Fin de l'exil » : Gloire aux colonies, audience réussie, nouveaux souverains."""
    c = state.courtiers[player]
    if c.status != EXILE:
        return state
    state = with_courtier(state, replace(c, status=AT_COURT))
    ev.append(public("recalled", who=who(state, player), how=how))
    return _return_cotes(state, player, dice, ev)


# ---------------------------------------------------------------- marriages


def can_marry(state: CourtState, a: str, b: str) -> str | None:
    """Why these two cannot marry (a code), or None.  Different sexes, both at Court, both free."""
    if a == b:
        return "self"
    ca, cb = state.courtiers[a], state.courtiers[b]
    if not ca.at_court or not cb.at_court:
        return "absent"
    if ca.sex == cb.sex:
        return "same_sex"
    if ca.spouse or cb.spouse:
        return "married"
    if state.crown.secret_wife in (a, b):
        return "secret_wife"
    return None


def marry(state: CourtState, a: str, b: str, ev: list[Event]) -> CourtState:
    """« MARIAGES » : l'épouse prend le nom et porte les titres de son mari ; revenus en commun, moitié chacun."""
    husband, wife = (a, b) if not state.courtiers[a].woman else (b, a)
    h, w = state.courtiers[husband], state.courtiers[wife]
    before = who(state, wife)
    state = with_courtier(state, replace(h, spouse=wife))
    state = with_courtier(state, replace(w, spouse=husband, married_name=h.married_name or h.family))
    ev.append(public("married", husband=who(state, husband), wife=who(state, wife), wife_before=before))
    return state


# ---------------------------------------------------------------- deaths


def kill(state: CourtState, target: str, dice: Dice, ev: list[Event]) -> CourtState:
    """A courtisan, the King or the Queen dies."""
    if target == KING:
        return king_dies(state, ev)
    if target == QUEEN:
        return queen_dies(state, ev)
    return courtier_dies(state, target, ev)


def courtier_dies(state: CourtState, player: str, ev: list[Event]) -> CourtState:
    """« MORT D'UN COURTISAN » : titres à l'épouse, le reste à la Maison du Roi, Favorite et Amant défaussés,
    revenus acquis conservés ; retour au jeu à la présentation des nouveaux courtisans, du sexe opposé."""
    c = state.courtiers[player]
    if not c.alive:
        return state
    spouse = state.courtiers[c.spouse] if c.spouse else None
    inherited = titles_of(state, player) if spouse is not None and not c.woman and spouse.alive else []
    ev.append(public("died", who=who(state, player), livres=c.livres,
                     spouse=who(state, spouse.player) if spouse else None,
                     inherited=cards_data(state, inherited)))
    state = discard_status_cards(state, player, ev, "mort")
    if spouse is not None and inherited:
        state = _take(state, player, inherited)
        widow = state.courtiers[spouse.player]
        state = with_courtier(state, replace(widow, possessions=widow.possessions + tuple(inherited)))
    state = to_maison(state, player, list(state.courtiers[player].possessions), ev, "mort")
    if spouse is not None:
        state = with_courtier(state, replace(state.courtiers[spouse.player], spouse=None))
    state = with_courtier(state, replace(state.courtiers[player], status=DEAD, cote_roi=None, cote_reine=None,
                                         spouse=None, kept_roi=None, kept_reine=None))
    if state.crown.secret_wife == player:
        state = replace(state, crown=replace(state.crown, secret_wife=None))
    return state


def king_dies(state: CourtState, ev: list[Event]) -> CourtState:
    """« MORT DU ROI » : plus de Favorite, paix blanche, retour à Versailles, la Reine devient Régente
    jusqu'à la fin du tour de jeu suivant ; veuf ou marié en secret : « MORT DU ROI ET DE LA REINE »."""
    crown = state.crown
    if not crown.king:
        return state
    fav = favorite(state)
    if fav:
        state = discard_status_cards(state, fav, ev, "mort_roi", ("favorite",))
    state = _forget(white_peace(state, ev), "cote_roi")
    if not crown.queen or crown.secret_wife:
        state = replace(state, crown=replace(state.crown, king=False, secret_wife=None))
        ev.append(public("king_died", regency=False, secret=bool(crown.secret_wife)))
        return interregnum(state, ev)
    state = replace(state, crown=replace(state.crown, king=False, regency_until=state.round + 2))
    ev.append(public("king_died", regency=True, until=state.round + 2))
    return state


def queen_dies(state: CourtState, ev: list[Event]) -> CourtState:
    """« MORT DE LA REINE » : plus de cote auprès d'elle, plus d'Amant, le Roi est veuf ;
    une Régente qui meurt : « MORT D'UNE REGENTE »."""
    crown = state.crown
    if not crown.queen:
        return state
    lov = lover(state)
    if lov:
        state = discard_status_cards(state, lov, ev, "mort_reine", ("amant",))
    regent = crown.regent
    state = replace(state, crown=replace(state.crown, queen=False, regency_until=0))
    state = _forget(state, "cote_reine")
    ev.append(public("queen_died", regent=regent))
    if regent:
        return interregnum(state, ev)
    return state


def _forget(state: CourtState, key: str) -> CourtState:
    courtiers = dict(state.courtiers)
    for p in state.seats:
        courtiers[p] = replace(courtiers[p], **{key: None})
    return replace(state, courtiers=courtiers)


def interregnum(state: CourtState, ev: list[Event]) -> CourtState:
    """« MORT DU ROI ET DE LA REINE » : le tour de jeu cesse immédiatement ; le tour passe au nouveau
    Chambellan, et deux nouveaux souverains montent sur le trône."""
    state = white_peace(state, ev)
    skipped = [s.player for s in state.queue[1:]]
    ev.append(public("round_stops", skipped=[who(state, p) for p in dict.fromkeys(skipped)]))
    return replace(state, queue=state.queue[:1], crown=replace(state.crown, king=False, queen=False,
                                                                   regency_until=state.round + 1))


def new_sovereigns(state: CourtState, dice: Dice, ev: list[Event]) -> CourtState:
    """« deux nouveaux souverains montent sur le trône » : exilés et embastillés reviennent, cotes re-tirées."""
    for p in state.seats:
        state = discard_status_cards(state, p, ev, "nouveaux_souverains")
    nation = dice.choice(list(PARTIS), "nationality of the new Queen")
    state = replace(state, crown=Crown(king=True, queen=True, queen_nation=nation, reign=state.crown.reign + 1),
                    wars=(), court="versailles")
    ev.append(public("new_sovereigns", nation=nation, reign=state.crown.reign))
    courtiers = dict(state.courtiers)
    for p in state.seats:
        c = courtiers[p]
        if c.status in (EXILE, BASTILLE):
            ev.append(public("released" if c.status == BASTILLE else "recalled", who=who(state, p),
                             how="nouveaux_souverains"))
            courtiers[p] = replace(c, status=AT_COURT, kept_roi=None, kept_reine=None)
    state = replace(state, courtiers=courtiers)
    for p in at_court(state):
        state = draw_cotes(state, p, dice, ev)
    return state


def new_queen(state: CourtState, nation: str, dice: Dice, ev: list[Event]) -> CourtState:
    """« MARIAGE DU ROI » : la nouvelle Reine arrive ; cotes auprès d'elle re-tirées (+2 à son parti)."""
    state = replace(state, crown=replace(state.crown, queen=True, queen_nation=nation))
    ev.append(public("king_remarried", nation=nation))
    for p in at_court(state):
        state = draw_cotes(state, p, dice, ev, roi=False)
    return state


# ---------------------------------------------------------------- wars and the Court's place


def declare_war(state: CourtState, nation: str, ev: list[Event]) -> CourtState:
    if nation in state.wars:
        ev.append(public("war_already", nation=nation))
        return state
    state = replace(state, wars=state.wars + (nation,))
    ev.append(public("war_declared", nation=nation))
    return state


def end_war(state: CourtState, outcome: str, ev: list[Event], nation: str = "") -> CourtState:
    """« La guerre est gagnée/perdue » : ends one war (the one named, else the oldest); back to Versailles
    when none is left."""
    if not state.wars:
        return state
    ended = nation if nation in state.wars else state.wars[0]
    wars = tuple(w for w in state.wars if w != ended)
    state = replace(state, wars=wars, court="versailles" if not wars else state.court)
    ev.append(public("war_ended", nation=ended, outcome=outcome, back=not wars))
    return state


def white_peace(state: CourtState, ev: list[Event]) -> CourtState:
    """« toutes les guerres en cours sont conclues par une paix blanche » ; la Cour revient à Versailles."""
    if not state.wars:
        return state
    ev.append(public("white_peace", nations=list(state.wars)))
    return replace(state, wars=(), court="versailles")


def move_court(state: CourtState, place: str, ev: list[Event], by: str) -> CourtState:
    if state.wars:
        ev.append(public("court_at_war", place=place, by=by))
        return state
    ev.append(public("court_moved", place=place, before=state.court, by=by))
    return replace(state, court=place)


# ---------------------------------------------------------------- newcomers


def present_newcomers(state: CourtState, dice: Dice, ev: list[Event], draw: bool = True) -> CourtState:
    """« MORT D'UN COURTISAN » : rentre dans le jeu juste après qu'un nouveau joueur est devenu Chambellan,
    avec le sexe opposé et le parti de son choix ; le MJ tire ses cotes."""
    for p in state.seats:
        c = state.courtiers[p]
        if c.alive:
            continue
        parti = c.next_parti or c.parti
        new = Courtier(player=p, family=c.family, sex="homme" if c.woman else "femme", parti=parti,
                       generation=c.generation + 1, hand=c.hand, livres=c.livres, warnings=c.warnings,
                       fines=c.fines)
        state = with_courtier(state, new)
        ev.append(public("newcomer", who=who(state, p), generation=new.generation))
        ev.append(private([p], "your_parti", parti=parti, who=who(state, p)))
        if draw:
            state = draw_cotes(state, p, dice, ev)
    return state
