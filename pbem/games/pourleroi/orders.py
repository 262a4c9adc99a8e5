"""Order lines -> `Order`s: GARDER, NEUTRE, CENTRE, CHOIX, ROI, ENCHERE, PASSE (and their English aliases).

Cards are named as the mails write them (``Guerre C``, ``Or 2``, ``Roi 4``), by their code (``GUE-C``,
``GUEC``), or in a CHOIX line by their number in the centre; case, accents, hyphens and a value in
brackets (``Guerre C (2)``) do not matter.  Canonical arguments:

* ``GARDER`` / ``NEUTRE`` / ``CENTRE``: none;
* ``CHOIX``: card keys in order of preference (a card id, or ``OR:<value>`` for any Gold card of that value);
* ``ROI``: one entry per symbol of the card, ``"GUE+"``, ``"FIN-"`` or ``""`` (see `pbem.games.pourleroi.king`);
* ``ENCHERE`` / ``PASSE``: (card key, maximum, cards to give for a Gold card) where the key is ``""``
  for the card on sale, and a card id or ``OR:<value>`` for a maximum given in advance.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pbem.core import (
    Msg,
    Order,
    OrderAmbiguousError,
    OrderError,
    OrderHelp,
    OrderNotAllowedError,
    OrderSyntaxError,
)
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi import gift as G
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi.cards import GOLD, GOV, KING, Material, label, letter_of, ministry_of
from pbem.games.pourleroi.state import CENTRE, KEEP, NEUTRAL, State
from pbem.names import fold, match_keyword
from pbem.wording import join_list

VERBS: dict[str, str] = {
    "garder": F.KEEP_V, "keep": F.KEEP_V,
    "neutre": F.NEUTRAL_V, "neutral": F.NEUTRAL_V,
    "centre": F.CENTRE_V, "center": F.CENTRE_V,
    "choix": F.CHOOSE_V, "choisir": F.CHOOSE_V, "choose": F.CHOOSE_V, "pick": F.CHOOSE_V, "prendre": F.CHOOSE_V,
    "roi": F.KING_V, "king": F.KING_V,
    "enchere": F.BID_V, "encherir": F.BID_V, "bid": F.BID_V, "offre": F.BID_V,
    "passe": F.PASS_V, "passer": F.PASS_V, "pass": F.PASS_V,
}
DISCARD_WORDS = ("defausse", "defausser", "discard")
_EXPECTED = {F.PLACE: "GARDER, NEUTRE ou CENTRE", F.PICK: "CHOIX", F.KING: "ROI", F.BID: "ENCHERE ou PASSE"}
_EXPECTED_EN = {F.PLACE: "GARDER, NEUTRE or CENTRE", F.PICK: "CHOIX", F.KING: "ROI", F.BID: "ENCHERE or PASSE"}
_KIND_OF_VERB = {F.KEEP_V: F.PLACE, F.NEUTRAL_V: F.PLACE, F.CENTRE_V: F.PLACE, F.CHOOSE_V: F.PICK,
                 F.KING_V: F.KING, F.BID_V: F.BID, F.PASS_V: F.BID}


def _no(fr: str, en: str) -> OrderNotAllowedError:
    return OrderNotAllowedError(Msg(fr, en))


def _syntax(fr: str, en: str) -> OrderSyntaxError:
    return OrderSyntaxError(Msg(fr, en))


def norm(text: str) -> str:
    """The key a card or ministry name is compared by: folded, without spaces, hyphens or apostrophes."""
    return re.sub(r"[\s\-_'.]", "", fold(text))


def tokens_of(text: str) -> list[str]:
    """Words of a line, with bracketed values (``(2)``) and separators dropped."""
    text = re.sub(r"\([^)]*\)", " ", text)
    return [w for w in re.split(r"[\s,;:/]+", text) if w]


# ---------------------------------------------------------------- names of cards


def card_aliases(material: Material, card: str) -> list[str]:
    """Every folded spelling that names ``card`` (for Gold: any card of its value)."""
    kind = material.kind(card)
    if kind == GOLD:
        v = material.gold[card]
        return [f"or{v}", f"gold{v}", norm(card)]
    if kind == KING:
        n = int(card.split("-", 1)[1])
        return [f"roi{n}", f"king{n}", f"roi{n:02d}", f"king{n:02d}"]
    m = material.ministry(ministry_of(card))
    letter = letter_of(card).lower()
    names = {m.code, m.fr, m.en, m.fr.split()[0], m.en.split()[0]}
    return [norm(card)] + [norm(n) + letter for n in sorted(names)]


def _alias_map(material: Material, cards: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in cards:
        key = G.card_key(material, c)
        for a in card_aliases(material, c):
            out.setdefault(a, key)
    return out


CARD = Msg("carte", "card")


def read_cards(material: Material, tokens: Sequence[str], cards: Sequence[str], *,
               numbered: bool = False) -> list[str | int]:
    """What ``tokens`` name among ``cards`` (greedy, longest names first): a card key for each name
    found, the index of the token for each word that names none of them.

    With ``numbered``, a bare number is the card at that place in ``cards`` (1 = the first).
    """
    aliases = _alias_map(material, cards)
    out: list[str | int] = []
    i = 0
    while i < len(tokens):
        for n in range(min(4, len(tokens) - i), 0, -1):
            key = norm(" ".join(tokens[i:i + n]))
            if key in aliases:
                out.append(aliases[key])
                i += n
                break
        else:
            word = tokens[i]
            out.append(G.card_key(material, cards[int(word) - 1])
                       if numbered and word.isdecimal() and len(word) <= 3 and 1 <= int(word) <= len(cards) else i)
            i += 1
    return out


def _near(material: Material, tokens: Sequence[str], at: int, cards: Sequence[str]) -> str | None:
    """The card of ``cards`` whose name is close to the words at ``tokens[at]`` (a typo), if any."""
    aliases = _alias_map(material, cards)
    close = difflib.get_close_matches(norm(" ".join(tokens[at:at + 2])), list(aliases), n=1, cutoff=0.75)
    return next(c for c in cards if G.card_key(material, c) == aliases[close[0]]) if close else None


def unknown_card(material: Material, tokens: Sequence[str], at: int, cards: Sequence[str],
                 what: Msg = CARD) -> OrderError:
    """The error for the word ``tokens[at]`` that names none of ``cards``: a near name, or the possible ones."""
    card = _near(material, tokens, at, cards)
    if card is not None:
        return OrderAmbiguousError(Msg(
            f"{what.fr} inconnue « {' '.join(tokens[at:at + 2])} » : vouliez-vous dire {label(material, card)} ?",
            f"unknown {what.en} '{' '.join(tokens[at:at + 2])}': did you mean {label(material, card, 'en')}?"))
    listed = ", ".join(dict.fromkeys(label(material, c) for c in cards)) or "aucune"
    listed_en = ", ".join(dict.fromkeys(label(material, c, "en") for c in cards)) or "none"
    return _syntax(f"{what.fr} inconnue « {tokens[at]} » ; possibles : {listed}",
                   f"unknown {what.en} '{tokens[at]}'; possible: {listed_en}")


def match_cards(material: Material, tokens: Sequence[str], cards: Sequence[str], *,
                numbered: bool = False, what: Msg = CARD) -> list[str]:
    """The card keys named by ``tokens`` among ``cards`` (`read_cards`); a word that names none is an error."""
    out: list[str] = []
    for found in read_cards(material, tokens, cards, numbered=numbered):
        if isinstance(found, int):
            raise unknown_card(material, tokens, found, cards, what)
        out.append(found)
    return out


# ---------------------------------------------------------------- the parser


def parse(state: State, player: str, line: str, accepted: Sequence[Order]) -> Order:
    words = tokens_of(line)
    text = line.strip()
    if not words:
        raise _syntax("ligne vide", "empty line")
    if player not in state.seats:
        raise _no("le MJ donne les ordres d'un joueur avec POUR <joueur> : <ordre>",
                  "the MJ gives a player's orders with POUR <player>: <order>")
    verb = match_keyword(words[0], VERBS, what=Msg("ordre", "order"))
    rest = words[1:]
    if state.over:
        raise _no("la partie est terminée", "the game is over")
    asked = [a for a in F.asked(state) if a.player == player]
    kind = F.step_kind(state)
    if not asked or kind is None:
        others = [a.player for a in F.asked(state)]
        who = (", ".join(others[:-1]) + " et " + others[-1]) if len(others) > 1 else "".join(others)
        who_en = (", ".join(others[:-1]) + " and " + others[-1]) if len(others) > 1 else "".join(others)
        raise _no(f"aucune décision ne vous est demandée à cette étape (on attend {_EXPECTED[kind]} de {who})"
                  if kind else "aucune décision ne vous est demandée maintenant",
                  f"no decision is asked of you at this step ({_EXPECTED_EN[kind]} is expected from {who_en})"
                  if kind else "no decision is asked of you now")
    if _KIND_OF_VERB[verb] != kind:
        raise _no(f"{verb} n'est pas possible maintenant (attendu : {_EXPECTED[kind]})",
                  f"{verb} is not possible now (expected: {_EXPECTED_EN[kind]})")
    if kind == F.PLACE:
        return _placement(state, verb, rest, accepted, text)
    if kind == F.PICK:
        if any(o.verb == F.CHOOSE_V for o in accepted):
            raise _no("un seul CHOIX par message : mettez toutes les cartes sur la même ligne",
                      "one CHOIX per mail: put every card on the same line")
        return _choice(state, rest, text)
    if kind == F.KING:
        if any(o.verb == F.KING_V for o in accepted):
            raise _no("un seul ordre ROI par carte", "one ROI order per card")
        return _king(state, rest, text)
    return _bid(state, player, verb, rest, accepted, text)


def _placement(state: State, verb: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    r = state.round
    assert r is not None and r.drawn is not None
    if any(o.verb in F.PLACE_VERBS for o in accepted):
        raise _no("une seule destination pour la carte piochée", "one destination for the drawn card")
    drawn = label(state.material, r.drawn)
    if rest:
        named = match_cards(state.material, rest, state.material.all_cards())
        if named != [G.card_key(state.material, r.drawn)]:
            raise _no(f"la carte que vous avez piochée est {drawn} ; cet ordre ne vaut que pour elle",
                      f"the card you drew is {label(state.material, r.drawn, 'en')}; this order is for it only")
    dest = F.PLACE_VERBS[verb]
    if dest not in G.legal_destinations(state):
        why = {KEEP: ("vous avez déjà gardé une carte à ce tour de don", "you have already kept a card this round"),
               NEUTRAL: ("le paquet neutre a déjà reçu sa carte de ce tour de don",
                         "the neutral pile already has its card for this round"),
               CENTRE: (f"le centre est plein ({len(r.centre)} cartes)", f"the centre is full ({len(r.centre)} cards)")}
        fr, en = why[dest]
        raise _no(f"{fr} ; placez {drawn} autrement", f"{en}; place {label(state.material, r.drawn, 'en')} elsewhere")
    return Order(verb, (), text)


def _choice(state: State, rest: list[str], text: str) -> Order:
    """``CHOIX`` and the centre cards in order of preference.  A word that names no card of the centre
    drops that entry only (ruling): the others are kept, and the ack says which was dropped and why."""
    r = state.round
    assert r is not None
    if not rest:
        raise _syntax("CHOIX <carte> <carte> … : les cartes du centre dans l'ordre de vos préférences",
                      "CHOIX <card> <card> …: the centre cards in your order of preference")
    entries = [tokens_of(part) for part in re.split(r"[,;]", text)]
    entries[0] = entries[0][1:]  # the verb
    keys: list[str] = []
    dropped: list[list[str]] = []
    for words in (e for e in entries if e):
        found = read_cards(state.material, words, r.centre, numbered=True)
        keys += [k for k in found if isinstance(k, str)]
        for i, k in enumerate(found):  # each run of words that names no card is one dropped entry
            if isinstance(k, int) and (i == 0 or not isinstance(found[i - 1], int)):
                dropped.append([])
            if isinstance(k, int):
                dropped[-1].append(words[k])
    if not keys:
        read = read_cards(state.material, rest, r.centre, numbered=True)
        raise unknown_card(state.material, rest, next(k for k in read if isinstance(k, int)), r.centre)
    for key in dict.fromkeys(keys):
        copies = sum(1 for c in r.centre if G.card_key(state.material, c) == key)
        if keys.count(key) > copies:
            raise _no(f"{_key_label(state, key)} est nommée plus de fois qu'elle n'est au centre",
                      f"{_key_label(state, key, 'en')} is named more often than it is in the centre")
    return Order(F.CHOOSE_V, tuple(keys), text, _dropped_note(state, dropped, keys) if dropped else None)


def _dropped_note(state: State, dropped: Sequence[Sequence[str]], keys: Sequence[str]) -> Msg:
    """What the ack says of a CHOIX accepted in part: the choice kept, then each entry dropped with why
    (a card that is not in the centre, a near name, no such card)."""
    r = state.round
    assert r is not None
    m = state.material
    fr, en = [], []
    for words in dropped:
        said = " ".join(words)
        near = _near(m, words, 0, r.centre)
        if all(isinstance(k, str) for k in read_cards(m, words, m.all_cards())):
            why = Msg("pas au centre", "not in the centre")
        elif near is not None:
            short = G.card_key(m, near)
            why = Msg(f"vouliez-vous dire {_short(state, short)} ?", f"did you mean {_short(state, short, 'en')}?")
        else:
            why = Msg("carte inconnue", "unknown card")
        fr.append(f"« {said} » ({why.fr})")
        en.append(f"'{said}' ({why.en})")
    kept = ", puis ".join(_short(state, k) for k in keys)
    kept_en = ", then ".join(_short(state, k, "en") for k in keys)
    head = "écarté" if len(dropped) == 1 else "écartés"
    return Msg(f"choix gardé : {kept} ; {head} : {join_list(fr)}",
               f"choice kept: {kept_en}; dropped: {join_list(en, 'en')}")


def _short(state: State, key: str, lang: str = "fr") -> str:
    """A card key as a player names it, without its figures: « Guerre C », « Or 2 », « Roi 13 »."""
    m = state.material
    if key.startswith("OR:"):
        return f"{'Gold' if lang == 'en' else 'Or'} {key[3:]}"
    if m.kind(key) == GOV:
        ministry = m.ministry(ministry_of(key))
        return f"{ministry.en if lang == 'en' else ministry.fr} {letter_of(key)}"
    return f"{'King' if lang == 'en' else 'Roi'} {int(key.split('-', 1)[1])}"


def _key_label(state: State, key: str, lang: str = "fr") -> str:
    if key.startswith("OR:"):
        return f"{'Gold' if lang == 'en' else 'Or'} {key[3:]}"
    return label(state.material, key, lang)


SIGN_WORDS = {"+": "+", "+1": "+", "plus": "+", "monte": "+", "up": "+", "hausse": "+",
              "-": "-", "-1": "-", "−": "-", "moins": "-", "baisse": "-", "down": "-"}


def _ministry_aliases(state: State) -> dict[str, str]:
    out: dict[str, str] = {}
    for code in state.ministries:
        m = state.material.ministry(code)
        for name in (m.code, m.fr, m.en, m.fr.split()[0], m.en.split()[0], m.colour_fr, m.colour_en):
            out.setdefault(norm(name), code)
    return out


def parse_changes(state: State, rest: list[str]) -> list[tuple[str, str | None]]:
    """``GUE + FIN -``, ``+GUE -FIN``, ``Guerre plus``... -> [(ministry, sign or None)]."""
    words: list[str] = []
    for w in rest:
        words += [p for p in re.split(r"([+\-−]1?)", w) if p]
    aliases = _ministry_aliases(state)
    out: list[tuple[str, str | None]] = []
    signs_first = bool(words) and fold(words[0]) in SIGN_WORDS
    pending_sign: str | None = None
    i = 0
    while i < len(words):
        w = fold(words[i])
        if w in SIGN_WORDS:
            sign = SIGN_WORDS[w]
            if signs_first:
                pending_sign = sign
            elif out and out[-1][1] is None:
                out[-1] = (out[-1][0], sign)
            else:
                raise _syntax(f"signe « {words[i]} » sans ministère", f"sign '{words[i]}' without a ministry")
            i += 1
            continue
        run = next((j for j in range(i, len(words)) if fold(words[j]) in SIGN_WORDS), len(words)) - i
        for n in range(min(4, run), 0, -1):
            key = norm(" ".join(words[i:i + n]))
            if key in aliases:
                out.append((aliases[key], pending_sign))
                pending_sign = None
                i += n
                break
        else:
            names = ", ".join(state.material.ministry(c).fr for c in state.ministries)
            raise _syntax(f"ministère inconnu « {words[i]} » ; ministères : {names}",
                          f"unknown ministry '{words[i]}'; ministries: "
                          f"{', '.join(state.material.ministry(c).en for c in state.ministries)}")
    return out


def _king(state: State, rest: list[str], text: str) -> Order:
    head = state.kings_pending[0]
    pairs = parse_changes(state, rest)
    change = K.match_change(state, head.card, pairs)
    card = label(state.material, head.card)
    if change is None:
        example = K.change_text(K.legal_changes(state, head.card)[0])
        raise _no(f"ces changements ne conviennent pas à {card} (une fonction différente par symbole, fonctions "
                  f"primaires entre 1 et 6) ; par exemple : {example}",
                  f"these changes do not fit {label(state.material, head.card, 'en')} (a different office per "
                  f"symbol, primary offices between 1 and 6); for example: {example}")
    return Order(F.KING_V, change, text)


def _bid(state: State, player: str, verb: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
    a = state.auction
    assert a is not None and a.current is not None
    m = state.material
    cut = next((i for i, w in enumerate(rest) if fold(w) in DISCARD_WORDS), len(rest))
    head, given = rest[:cut], rest[cut + 1:]
    if verb == F.PASS_V:
        if given or cut < len(rest):
            raise _syntax("PASSE ne prend pas de cartes à défausser", "PASSE takes no cards to discard")
        amount, names = 0, head
    else:
        if not head or not re.fullmatch(r"\d{1,3}", head[-1]):
            raise _syntax("ENCHERE <n>, ou ENCHERE <carte> <n> pour une carte à venir (n : un nombre entier)",
                          "ENCHERE <n>, or ENCHERE <card> <n> for a card to come (n: a whole number)")
        amount, names = int(head[-1]), head[:-1]
    key = ""
    if names:
        # every card that might still be for sale, as far as this player knows (refusing a card that is in
        # another player's hand would tell him where it is)
        gone = {*state.out_of_box, *state.kings_played, *state.hands[player], *(s.card for s in state.sales)}
        found = match_cards(m, names, [c for c in m.all_cards() if c not in gone] + [a.current])
        if len(found) != 1:
            raise _syntax("une seule carte par ligne ENCHERE", "one card per ENCHERE line")
        key = found[0]
        if key == G.card_key(m, a.current):
            key = ""
    card_kind = m.kind(a.current) if not key else (GOLD if key.startswith("OR:") else m.kind(key))
    if any(o.verb in (F.BID_V, F.PASS_V) and o.args[0] == key for o in accepted):
        raise _no("une seule enchère par carte dans un message", "one bid per card in a mail")
    means = len(state.hands[player]) if card_kind == GOLD else state.gold_total(player)
    if amount > means and state.options.unpayable_bids == "refuse":
        if card_kind == GOLD:
            raise _no(f"vous avez {means} cartes en main : vous ne pouvez pas en défausser {amount}",
                      f"you hold {means} cards: you cannot discard {amount}")
        raise _no(f"votre Or en main vaut {means} : vous ne pouvez pas payer {amount}",
                  f"your Gold in hand is worth {means}: you cannot pay {amount}")
    discard: list[str] = []
    if cut < len(rest):
        if key or card_kind != GOLD:
            raise _no("DEFAUSSE ne se donne que pour une carte Or en vente", "DEFAUSSE is only for a Gold card on sale")
        discard = _hand_cards(state, player, given)
        if len(set(discard)) != len(discard):
            raise _no("une même carte est nommée deux fois après DEFAUSSE", "a card is named twice after DEFAUSSE")
    canonical = F.PASS_V if amount == 0 else F.BID_V
    return Order(canonical, (key, amount, " ".join(discard)), text)


def _hand_cards(state: State, player: str, words: list[str]) -> list[str]:
    """Cards of the player's hand named after DEFAUSSE (a Gold value names one more copy each time)."""
    if not words:
        raise _syntax("DEFAUSSE <carte> <carte> … : des cartes de votre main", "DEFAUSSE <card> <card> …: cards of your hand")
    hand = list(state.hands[player])
    keys = match_cards(state.material, words, hand, what=Msg("carte de votre main", "card of your hand"))
    out: list[str] = []
    for key in keys:
        card = next((c for c in hand if G.card_key(state.material, c) == key and c not in out), None)
        if card is None:
            raise _no(f"vous n'avez pas autant de cartes {_key_label(state, key)}",
                      f"you do not have that many {_key_label(state, key, 'en')} cards")
        out.append(card)
    return out


# ---------------------------------------------------------------- help


def help_for(state: State, player: str) -> list[OrderHelp]:
    kinds = [x.kind for x in F.asked(state) if x.player == player]
    if not kinds:
        return []
    kind = kinds[0]
    m = state.material
    if kind == F.PLACE:
        assert state.round is not None and state.round.drawn is not None
        card = label(m, state.round.drawn)
        king = m.kind(state.round.drawn) == KING
        keep = Msg(f"garder {card} : une carte Roi gardée se joue aussitôt" if king else
                   f"garder {card} face cachée pour vous",
                   f"keep {label(m, state.round.drawn, 'en')}" + (": a King card kept is played at once" if king else
                                                                   " face down"))
        texts = {KEEP: (F.KEEP_V, keep),
                 NEUTRAL: (F.NEUTRAL_V, Msg("la placer face cachée dans le paquet neutre (vendu aux enchères)",
                                            "put it face down into the neutral pile (sold at auction)")),
                 CENTRE: (F.CENTRE_V, Msg("la proposer face visible au centre, pour vos adversaires",
                                          "offer it face up in the centre, for your opponents"))}
        return [OrderHelp(texts[d][0], texts[d][1]) for d in G.legal_destinations(state)]
    if kind == F.PICK:
        assert state.round is not None
        return [OrderHelp("CHOIX <carte> <carte> …", Msg(
            "les cartes du centre dans l'ordre de vos préférences (nom ou numéro) ; vous prenez la première encore "
            "là à votre tour", "the centre cards in your order of preference (name or number); you take the first "
            "one still there at your turn"))]
    if kind == F.KING:
        head = state.kings_pending[0]
        example = K.change_text(K.legal_changes(state, head.card)[0])
        return [OrderHelp("ROI <ministère> <+|-> …", Msg(
            f"les changements de {label(m, head.card)}, une fonction primaire différente par symbole (exemple : {example})",
            f"the changes of {label(m, head.card, 'en')}, a different primary office per symbol (example: {example})"))]
    a = state.auction
    assert a is not None and a.current is not None
    out = [OrderHelp("ENCHERE <n>", Msg(
        f"votre maximum pour {label(m, a.current)} : " + (
            "un nombre de cartes de votre main à défausser" if m.kind(a.current) == GOLD else "en Or") +
        f" (au plus {state.means(player, a.current)})",
        f"your maximum for {label(m, a.current, 'en')}: " + (
            "a number of cards of your hand to discard" if m.kind(a.current) == GOLD else "in Gold") +
        f" (at most {state.means(player, a.current)})")),
        OrderHelp("PASSE", Msg("ne pas enchérir sur cette carte (on ne revient pas sur une carte passée)",
                               "do not bid for this card (no coming back once passed)")),
        OrderHelp("ENCHERE <carte> <n> / PASSE <carte>", Msg(
            "votre maximum donné à l'avance pour une carte à venir (Or 2 : la prochaine carte Or 2)",
            "your maximum given in advance for a card to come (Or 2: the next Gold 2 card)"))]
    if m.kind(a.current) == GOLD:
        out.insert(1, OrderHelp("ENCHERE <n> DEFAUSSE <carte> <carte> …", Msg(
            "en précisant les cartes que vous défausserez, dans l'ordre (les premières servent)",
            "naming the cards you would discard, in order (the first ones are used)")))
    return out
