"""Reading Courtisans' order lines: verbs, cards (by number or by name), characters, sovereigns, nations.

Orders are French with English aliases, one a line, in any case and with or without accents.
What an order may do is checked with the resolution's own checks (`actions.refusal`,
`checks.power_refusal`) on every state the lines before it may leave (`plan`), so a refused line
says why, and a line that depends on the dice of the lines before says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.core import (
    MJ,
    Msg,
    Order,
    OrderAmbiguousError,
    OrderError,
    OrderNotAllowedError,
    OrderSyntaxError,
    replace,
)
from pbem.games.courtisans import checks, plan
from pbem.games.courtisans.actions import (
    ACTIONS,
    CHARGE,
    DRAW,
    GIVE,
    GOSSIP,
    MAISON,
    MARRY,
    PASS,
    PLAY,
    PRAISE,
    PRINCESS,
    RECALL,
    RELEASE,
    refusal,
)
from pbem.games.courtisans.checks import power_refusal
from pbem.games.courtisans.etiquette import address, aliases
from pbem.games.courtisans.state import KING, PARTIS, QUEEN, CourtState, holder
from pbem.games.courtisans.turns import COURT, DISCARD, JAIL, JUDGE
from pbem.names import fold, match_keyword, take_name, whole_number, words

PARTY, FINE, WARN = "PARTI", "AMENDE", "AVERTISSEMENT"
MAX_AMOUNT = 999_999_999
"""The most livres a fine may be written with (a bound of what is typed, far above any treasury)."""
ACTION, POWER = Msg("action", "action"), Msg("pouvoir", "power")
REFUSING = ("refuse", "refuser", "refus", "non", "jamais", "decline", "never")
"""The first words of a spouse-to-be who would refuse: « Le futur conjoint ne peut pas refuser »."""
MJ_VERBS = (FINE, WARN)
IMMEDIATE = (PARTY, FINE, WARN)

VERBS: dict[str, str] = {
    "piocher": DRAW, "pioche": DRAW, "piocher carte": DRAW, "draw": DRAW,
    "maison": MAISON, "take": MAISON, "prendre": MAISON,
    "jouer": PLAY, "joue": PLAY, "play": PLAY,
    "donner": GIVE, "donne": GIVE, "give": GIVE,
    "mariage": MARRY, "marier": MARRY, "epouser": MARRY, "marry": MARRY,
    "charge": CHARGE, "office": CHARGE,
    "princesse": PRINCESS, "princess": PRINCESS,
    "bastille": RELEASE, "liberer": RELEASE, "liberation": RELEASE, "release": RELEASE,
    "exil": RECALL, "rappeler": RECALL, "recall": RECALL,
    "ragots": GOSSIP, "ragot": GOSSIP, "medire": GOSSIP, "gossip": GOSSIP,
    "louanges": PRAISE, "louange": PRAISE, "louer": PRAISE, "praise": PRAISE,
    "passer": PASS, "pass": PASS,
    "versailles": COURT, "chasse": COURT, "hunt": COURT, "cour": COURT, "court": COURT,
    "pouvoir": "POUVOIR", "power": "POUVOIR",
    "embastiller": JAIL, "imprison": JAIL, "jail": JAIL,
    "juger": JUDGE, "judge": JUDGE,
    "defausser": DISCARD, "defausse": DISCARD, "discard": DISCARD,
    "parti": PARTY, "party": PARTY,
    "amende": FINE, "fine": FINE,
    "avertissement": WARN, "avertir": WARN, "rappel": WARN, "warn": WARN, "warning": WARN,
}
PLACES = {"versailles": "versailles", "chasse": "chasse", "hunt": "chasse", "la chasse": "chasse"}
NATIONS = {
    "anglais": "anglais", "anglaise": "anglais", "angleterre": "anglais", "english": "anglais",
    "england": "anglais", "l'angleterre": "anglais",
    "hollandais": "hollandais", "hollandaise": "hollandais", "hollande": "hollandais", "dutch": "hollandais",
    "holland": "hollandais", "la hollande": "hollandais",
    "espagnol": "espagnol", "espagnole": "espagnol", "espagne": "espagnol", "spanish": "espagnol",
    "spain": "espagnol", "l'espagne": "espagnol",
}
SOVEREIGN_WORDS = {"roi": KING, "le roi": KING, "king": KING, "the king": KING, "sa majeste": KING,
                   "reine": QUEEN, "la reine": QUEEN, "queen": QUEEN, "the queen": QUEEN, "regente": QUEEN,
                   "la regente": QUEEN, "regent": QUEEN, "the regent": QUEEN}
SELF_WORDS = ("moi", "moi-meme", "moi meme", "me", "myself", "self", "soi")
TO_WORDS = ("a", "à", "to", "au", "aux")
ON_WORDS = ("sur", "on", "a", "à")
ADDRESS_PREFIX = ("au", "a", "à", "la", "aupres", "auprès", "du", "de", "to", "the")
CARD = Msg("carte", "card")
CHARACTER = Msg("personnage", "character")


def syntax(fr: str, en: str) -> OrderSyntaxError:
    return OrderSyntaxError(Msg(fr, en))


def not_allowed(msg: Msg) -> OrderNotAllowedError:
    return OrderNotAllowedError(msg)


# ---------------------------------------------------------------- pieces of a line


def take_card(state: CourtState, tokens: Sequence[str], candidates: Sequence[int], where: Msg) -> tuple[int, list[str]]:
    """A card named by its number (``60``, ``n°60``, ``#60``) or its name, among ``candidates``."""
    if not tokens:
        raise syntax("carte manquante : donnez son numéro ou son nom", "missing card: give its number or name")
    number_text = re.sub(r"^(n°|no|n|#)", "", fold(tokens[0]))
    rest = list(tokens[1:])
    if not number_text and len(tokens) > 1 and re.fullmatch(r"\d+", tokens[1]):
        number_text, rest = tokens[1], list(tokens[2:])
    if re.fullmatch(r"\d+", number_text):
        number = int(number_text)
        if number not in state.cards:
            raise syntax(f"il n'y a pas de carte n° {number} (1 à {max(state.cards)})",
                         f"there is no card number {number} (1 to {max(state.cards)})")
        if number not in candidates:
            label = state.cards[number].label()
            raise not_allowed(Msg(f"la carte {label} n'est pas {where.fr}", f"card {label} is not {where.en}"))
        return number, rest
    names: dict[str, int] = {}
    for n in sorted(candidates):
        card = state.cards[n]
        for label in (card.name, card.name_en):
            names.setdefault(label, n)
            names.setdefault(re.sub(r"(\d)[\s,\u202f\u00a0](\d{3})", r"\1\2", label), n)
    try:
        found, rest = take_name(tokens, list(names), what=CARD)
        return names[found], rest
    except OrderError:
        every = {c.name: c for c in state.cards.values()} | {c.name_en: c for c in state.cards.values()}
        try:
            found, _ = take_name(tokens, list(every), what=CARD)
        except OrderError:
            if names:
                raise
            raise not_allowed(Msg(f"aucune carte {where.fr}", f"no card {where.en}")) from None
        raise not_allowed(Msg(f"pas de carte « {every[found].name} » {where.fr}",
                              f"no '{every[found].name_en}' card {where.en}")) from None


def take_person(state: CourtState, tokens: Sequence[str], player: str) -> tuple[str, list[str]]:
    """A courtisan (by player name, form of address or family name), ``moi``, the King or the Queen."""
    if not tokens:
        raise syntax("personnage manquant", "missing character")
    for size in (2, 1):
        head = fold(" ".join(tokens[:size]))
        if len(tokens) >= size and head in SOVEREIGN_WORDS:
            return SOVEREIGN_WORDS[head], list(tokens[size:])
        if len(tokens) >= size and head in SELF_WORDS and player in state.courtiers:
            return player, list(tokens[size:])
    by_alias: dict[str, list[str]] = {}
    for p in state.seats:
        for a in aliases(state, p):
            owners = by_alias.setdefault(a, [])
            if p not in owners:
                owners.append(p)
    by_key: dict[str, list[str]] = {}
    for a, owners in by_alias.items():
        by_key.setdefault(fold(a), [])
        by_key[fold(a)] += [o for o in owners if o not in by_key[fold(a)]]
    canonical = {fold(a): a for a in by_alias}
    name, rest = take_name(tokens, list(canonical.values()), what=CHARACTER)
    owners = by_key[fold(name)]
    exact = [p for p in owners if fold(p) == fold(name)]
    if exact:  # a player's exact name always means that player, whoever else it now names (his wife's title)
        return exact[0], rest
    if len(owners) > 1:
        listed = " ou ".join(f"{address(state, o)} ({o})" for o in owners)
        listed_en = " or ".join(f"{address(state, o)} ({o})" for o in owners)
        raise OrderAmbiguousError(Msg(f"« {name} » peut désigner {listed} : écrivez le nom du joueur",
                                      f"'{name}' may mean {listed_en}: write the player's name"))
    return owners[0], rest


def take_sovereign(tokens: Sequence[str]) -> tuple[str, list[str]]:
    """An optional ``ROI`` / ``REINE`` (``au Roi``, ``à la Reine``, ``King``…) -> (``roi``/``reine``/"", rest)."""
    rest = list(tokens)
    while rest and fold(rest[0]) in ADDRESS_PREFIX and len(rest) > 1:
        rest = rest[1:]
    if rest and fold(rest[0]) in SOVEREIGN_WORDS:
        return ("roi" if SOVEREIGN_WORDS[fold(rest[0])] == KING else "reine"), rest[1:]
    return "", list(tokens)


def take_nation(tokens: Sequence[str]) -> tuple[str, list[str]]:
    rest = [t for t in tokens if fold(t) not in ("contre", "against", "a", "une", "la", "l'", "de")]
    if not rest:
        raise syntax("nation manquante : anglaise, hollandaise ou espagnole",
                     "missing nation: anglaise, hollandaise or espagnole")
    key = fold(rest[0])
    return match_keyword(key, NATIONS, what=Msg("nation", "nation")), rest[1:]


def _done(rest: Sequence[str], example: str) -> None:
    if rest:
        raise syntax(f"mots en trop : « {' '.join(rest)} » (exemple : « {example} »)",
                     f"unexpected words: '{' '.join(rest)}' (example: '{example}')")


def _amount(tokens: Sequence[str], default: int) -> int:
    text = "".join(tokens).replace("\u202f", "").replace("\u00a0", "").replace(".", "").lower()
    text = text.removesuffix("livres").removesuffix("l")
    if not text:
        return default
    if not text.isdecimal():
        raise syntax(f"montant illisible « {' '.join(tokens)} »", f"unreadable amount '{' '.join(tokens)}'")
    return whole_number(text, 0, MAX_AMOUNT, what=Msg("le montant", "the amount"))


# ---------------------------------------------------------------- what the lines before may leave


def _worlds(state: CourtState, player: str, accepted: Sequence[Order]) -> plan.Worlds:
    """Every state the turn's lines accepted so far may leave (`plan`)."""
    return plan.reached(state, player, accepted, COURT)


def _union(values: Sequence[Sequence[int]]) -> list[int]:
    return sorted({n for v in values for n in v})


# ---------------------------------------------------------------- the parser


def parse(state: CourtState, player: str, line: str, accepted: Sequence[Order]) -> Order:
    tokens = words(line)
    if not tokens:
        raise syntax("ligne vide", "empty line")
    if fold(tokens[0]) in REFUSING or (fold(tokens[0]) in ("je", "i") and len(tokens) > 1
                                        and fold(tokens[1]).startswith(("refus", "decline", "ne"))):
        raise not_allowed(Msg("« Le futur conjoint ne peut pas refuser » : un mariage accordé par le Roi ne se refuse "
                              "pas, et il n'y a pas de divorce", "« Le futur conjoint ne peut pas refuser » (the "
                              "spouse-to-be cannot refuse): a marriage the King grants is not refused, and there is "
                              "no divorce"))
    verb = match_keyword(tokens[0], VERBS, what=Msg("ordre", "order"))
    rest = tokens[1:]
    if verb == COURT and fold(tokens[0]) in PLACES:
        rest = tokens[:1]
    if player == MJ:
        if verb not in MJ_VERBS:
            raise not_allowed(Msg("le MJ donne un ordre pour un joueur ainsi : « POUR <joueur> : <ordre> »",
                                  "the MJ gives an order for a player this way: 'POUR <player> : <order>'"))
        target, rest = take_person(state, rest, MJ)
        if target in (KING, QUEEN):
            raise not_allowed(Msg("on ne met pas les souverains à l'amende", "the sovereigns are not fined"))
        amount = _amount(rest, state.options.fine) if verb == FINE else 0
        return Order(verb, (target, amount) if verb == FINE else (target,), line)
    if verb in MJ_VERBS:
        raise not_allowed(Msg(f"{verb} est réservé au MJ", f"{verb} is for the MJ only"))
    if player not in state.courtiers:
        raise not_allowed(Msg("vous ne jouez pas dans cette partie", "you do not play in this game"))
    if verb == PARTY:
        return _party(state, player, rest, line)
    slot = state.slot
    if slot is None:
        raise not_allowed(Msg("la partie est terminée", "the game is over"))
    if slot.player != player:
        raise not_allowed(Msg(f"ce n'est pas votre tour : c'est celui de {address(state, slot.player)}",
                              f"it is not your turn: it is {address(state, slot.player)}'s"))
    if verb in ACTIONS:
        if sum(1 for o in accepted if o.verb in ACTIONS) >= 2:
            raise not_allowed(Msg("deux actions par tour, pas plus (les lignes suivantes : VERSAILLES, "
                                  "POUVOIR, DEFAUSSER)", "two actions a turn, no more"))
        # judged on every state the lines before may leave, with the resolution's own check (`plan`); the
        # Chambellan's choice of the Court's place comes before the actions, whatever the line order
        worlds = _worlds(state, player, accepted)
        order = _action(state, player, verb, rest, line, accepted, worlds)
        order = plan.judged(order, worlds, lambda s: refusal(s, player, order), ACTION)
        if order.verb == CHARGE and state.options.charge_conditions == "audience":
            order = _noted(order, _unadmitted(worlds, player, int(str(order.args[0]))))
        return _noted(order, _powers_after(state, player, order, accepted))
    if verb == COURT:
        return _court(state, player, rest, line, accepted)
    if verb == "POUVOIR":
        if not rest:
            raise syntax("POUVOIR CHASSE, POUVOIR VERSAILLES, POUVOIR EMBASTILLER <personnage> ou "
                         "POUVOIR JUGER <personnage>", "POWER CHASSE|VERSAILLES, POWER JAIL|JUDGE <character>")
        inner = match_keyword(rest[0], VERBS, what=Msg("pouvoir", "power"))
        if inner == COURT:
            return _court(state, player, rest[:1] if fold(rest[0]) in PLACES else rest[1:], line, accepted,
                          power=True)
        if inner in (JAIL, JUDGE):
            return _chancellor(state, player, inner, rest[1:], line, accepted)
        raise syntax("POUVOIR CHASSE, POUVOIR VERSAILLES, POUVOIR EMBASTILLER <personnage> ou POUVOIR JUGER "
                     "<personnage>", "POWER CHASSE|VERSAILLES, POWER JAIL|JUDGE <character>")
    if verb in (JAIL, JUDGE):
        return _chancellor(state, player, verb, rest, line, accepted)
    if verb == DISCARD:
        hand = _union([s.courtiers[player].hand for s in _worlds(state, player, accepted).states()])
        numbers: list[int] = []
        while rest:
            number, rest = take_card(state, rest, [n for n in hand if n not in numbers],
                                     Msg("dans votre main", "in your hand"))
            numbers.append(number)
        if not numbers:
            raise syntax("DEFAUSSER <carte> [<carte>…]", "DISCARD <card> [<card>…]")
        return Order(DISCARD, tuple(numbers), line)
    raise syntax("ordre inconnu", "unknown order")


def _party(state: CourtState, player: str, rest: list[str], line: str) -> Order:
    if state.courtiers[player].alive:
        raise not_allowed(Msg("on choisit son parti en revenant dans le jeu, après la mort de son personnage",
                              "a party is chosen when coming back into the game, after one's character died"))
    if not rest:
        raise syntax("PARTI anglais, hollandais ou espagnol", "PARTY anglais, hollandais or espagnol")
    parti, tail = take_nation(rest)
    _done(tail, "PARTI espagnol")
    return Order(PARTY, (parti,), line)


def _action(state: CourtState, player: str, verb: str, rest: list[str], line: str, accepted: Sequence[Order],
            worlds: plan.Worlds) -> Order:
    """The action's words; its cards are looked for where the lines before may have put them (a card taken
    from the Maison, a Lettre de cachet back in hand after a refusal)."""
    states = worlds.states()
    hand = _union([s.courtiers[player].hand for s in states])
    in_hand = Msg("dans votre main", "in your hand")
    if verb in (DRAW, PASS):
        _done(rest, verb)
        return Order(verb, (), line)
    if verb == MAISON:
        if rest and fold(" ".join(rest[:2])) == "du roi":
            rest = rest[2:]
        number, tail = take_card(state, rest, _union([s.maison for s in states]),
                                 Msg("dans la Maison du Roi", "in the King's Household"))
        _done(tail, "MAISON 17")
        return Order(MAISON, (number,), line)
    if verb == PLAY:
        number, tail = take_card(state, rest, hand, in_hand)
        card = state.cards[number]
        target = ""
        if tail and fold(tail[0]) in ON_WORDS:
            tail = tail[1:]
            target, tail = take_person(state, tail, player)
        elif tail and card.target != "aucune":
            target, tail = take_person(state, tail, player)
        sovereign, tail = take_sovereign(tail)
        if sovereign and not card.request:
            raise syntax("ROI ou REINE ne se précise que pour une carte REQUETE",
                         "KING or QUEEN is only given for a REQUEST card")
        nation = ""
        if tail and any(e.kind == "fin_guerre" for e in card.effects):
            nation, tail = take_nation(tail)
            if all(nation not in s.wars for s in states):
                raise not_allowed(Msg(f"pas de guerre contre ce pays ({nation})", f"no war with that nation ({nation})"))
        _done(tail, f"JOUER {number} SUR moi ROI" if card.request else f"JOUER {number} SUR moi")
        return Order(PLAY, (number, target, sovereign, nation), line)
    if verb == GIVE:
        first, tail = take_card(state, rest, hand, in_hand)
        numbers = [first]
        if tail and fold(tail[0]) in ("et", "and", "+"):
            tail = tail[1:]
        if tail and fold(tail[0]) not in TO_WORDS:
            second, tail = take_card(state, tail, [n for n in hand if n != first], in_hand)
            numbers.append(second)
        if not tail or fold(tail[0]) not in TO_WORDS:
            raise syntax("DONNER <carte> [<carte>] A <joueur>", "GIVE <card> [<card>] TO <player>")
        other, tail = take_person(state, tail[1:], player)
        _done(tail, "DONNER 12 40 A Malveyance")
        return Order(GIVE, (other, *numbers), line)
    if verb == CHARGE:
        held = _union([[n for p in s.seats if p != player for n in s.courtiers[p].possessions
                         if s.cards[n].kind == "charge"] for s in states])
        number, tail = take_card(state, rest, held, Msg("détenue par un autre courtisan",
                                                         "held by another courtier"))
        if tail and fold(tail[0]) in ("de", "d", "du", "from", "of"):
            tail = tail[1:]
        if tail:
            named, tail = take_person(state, tail, player)
            if all(named != holder(s, number) for s in states):
                raise not_allowed(Msg(f"{state.cards[number].label()} n'est pas détenue par "
                                      f"{checks.name(state, named)}", f"{state.cards[number].label()} is not "
                                      f"held by {checks.name(state, named)}"))
        _done(tail, "CHARGE Chancelier DE Malveyance")
        return Order(CHARGE, (number,), line)
    if verb == PRINCESS:
        nation, tail = take_nation(rest)
        _done(tail, "PRINCESSE espagnole")
        return Order(PRINCESS, (nation,), line)
    other, tail = take_person(state, rest, player)
    if verb in (MARRY, RELEASE):
        if verb == RELEASE:
            sovereign, tail = take_sovereign(tail)
            if sovereign == "reine" and not state.crown.regent:
                raise not_allowed(Msg("seul le Roi fait sortir de la Bastille", "only the King releases from "
                                      "the Bastille"))
        _done(tail, "MARIAGE Vilenie" if verb == MARRY else "BASTILLE Malveyance")
        return Order(verb, (other,), line)
    sovereign, tail = take_sovereign(tail)
    _done(tail, f"{verb} Malveyance REINE")
    return Order(verb, (other, sovereign or "roi"), line)


def _court(state: CourtState, player: str, rest: list[str], line: str, accepted: Sequence[Order],
           power: bool = False) -> Order:
    if not rest:
        raise syntax("VERSAILLES ou CHASSE", "VERSAILLES or CHASSE")
    place = PLACES.get(fold(" ".join(rest)))
    if place is None:
        raise syntax(f"lieu inconnu « {' '.join(rest)} » : VERSAILLES ou CHASSE",
                     f"unknown place '{' '.join(rest)}': VERSAILLES or CHASSE")
    slot = state.slot
    chose = any(o.verb == COURT and o.args[1] == "chambellan" for o in accepted)
    if not power and slot is not None and slot.kind == "first" and not chose:
        # « décide avant de jouer si la Cour se trouve à Versailles ou à la Chasse » : before the actions
        if state.wars:
            raise not_allowed(Msg("la Cour est à la Guerre : elle ne rentrera à Versailles qu'à la fin du conflit",
                                  "the Court is at War: it only comes back to Versailles when the war is over"))
        if not state.courtiers[player].at_court:
            raise not_allowed(Msg("loin de la Cour, le Chambellan ne décide pas où elle se tient",
                                  "away from Court, the Chambellan does not decide where it is"))
        return Order(COURT, (place, "chambellan"), line)
    if any(o.verb == COURT and o.args[1] == "maitre_chasse" for o in accepted):
        raise not_allowed(Msg("le pouvoir du Maître de la Chasse sert une fois par manche",
                              "the Master of the Hunt's power serves once a round"))
    return _power(state, player, Order(COURT, (place, "maitre_chasse"), line), "cour", "", accepted)


def _chancellor(state: CourtState, player: str, verb: str, rest: list[str], line: str,
                accepted: Sequence[Order]) -> Order:
    if any(o.verb in (JAIL, JUDGE) for o in accepted):
        raise not_allowed(Msg("le pouvoir du Chancelier sert une fois par manche",
                              "the Chancellor's power serves once a round"))
    target, tail = take_person(state, rest, player)
    _done(tail, f"{verb} Malveyance")
    return _power(state, player, Order(verb, (target,), line), "embastiller" if verb == JAIL else "juger", target,
                  accepted)


def _power(state: CourtState, player: str, order: Order, use: str, target: str, accepted: Sequence[Order]) -> Order:
    """« une fois que le joueur a transmis ses deux actions, il peut encore décider le pouvoir de sa charge » :
    judged on every state the actions written above may leave, with the resolution's own check."""
    above = len(plan.actions_of(accepted))

    def check(s: CourtState) -> Msg | None:
        why = power_refusal(s, player, use, target)
        return None if why is None else why.msg

    try:
        judged = plan.judged(order, _worlds(state, player, accepted), check, POWER)
    except OrderNotAllowedError as e:
        if above >= 2:
            raise
        raise not_allowed(Msg(f"{e.msg.fr} (un pouvoir est jugé sur l'état que laissent les actions écrites "
                              "au-dessus de lui : écrivez-le après vos deux actions)",
                              f"{e.msg.en} (a power is judged on the state the actions written above it leave: "
                              "write it after your two actions)")) from None
    if above < 2 and judged.note is None:
        return replace(judged, note=Msg("jugé sur l'état que laissent les actions écrites au-dessus ; une action "
                                        "écrite plus bas peut encore le changer",
                                        "judged on the state the actions written above leave; an action written "
                                        "below may still change it"))
    return judged


def _noted(order: Order, note: Msg | None) -> Order:
    """``order`` with one more note for its ack."""
    if note is None:
        return order
    if order.note is None:
        return replace(order, note=note)
    return replace(order, note=Msg(f"{order.note.fr} ; {note.fr}", f"{order.note.en}; {note.en}"))


def _unadmitted(worlds: plan.Worlds, player: str, number: int) -> Msg | None:
    """A CHARGE the charge does not admit the asker to (option charge_conditions = "audience"): said in the ack."""
    kind, why = plan.verdict(worlds, lambda s: checks.charge_unmet(s, player, number))
    if why is None:
        return None
    if kind == "refused":
        return Msg(f"le Roi refusera cette charge quel que soit le dé ({why.fr}), et ce refus vous coûtera 1 point de "
                   "cote", f"the King will refuse this charge whatever the die ({why.en}), and the refusal will cost "
                   "you 1 point of cote")
    return Msg(f"selon les lignes au-dessus, le Roi pourrait refuser cette charge quel que soit le dé ({why.fr})",
               f"depending on the lines above, the King may refuse this charge whatever the die ({why.en})")


def _powers_after(state: CourtState, player: str, order: Order, accepted: Sequence[Order]) -> Msg | None:
    """What an action does to the powers written above it (they are used after the actions): a note when one of
    them may no longer be used."""
    powers = [o for o in accepted if o.verb in (JAIL, JUDGE) or (o.verb == COURT and o.args[1] == "maitre_chasse")]
    if not powers:
        return None
    worlds = _worlds(state, player, [*accepted, order])
    for p in powers:
        use = "cour" if p.verb == COURT else ("embastiller" if p.verb == JAIL else "juger")
        target = "" if p.verb == COURT else str(p.args[0])

        def check(s: CourtState, use: str = use, target: str = target) -> Msg | None:
            why = power_refusal(s, player, use, target)
            return None if why is None else why.msg

        kind, why = plan.verdict(worlds, check)
        if kind == "refused" and why is not None:
            return Msg(f"après cette action, votre « {p.text} » ne pourra plus servir : {why.fr}",
                       f"after this action, your '{p.text}' can no longer be used: {why.en}")
        if kind == "depends":
            return Msg(f"après cette action, votre « {p.text} » pourrait ne plus servir (selon les dés)",
                       f"after this action, your '{p.text}' may no longer be usable (depending on the dice)")
    return None


__all__ = ["IMMEDIATE", "MJ_VERBS", "PARTIS", "parse"]
