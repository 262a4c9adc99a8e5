"""The deck as data: card definitions, loading a deck file (TOML), checking it, describing a card.

A deck file lists ``[[carte]]`` tables in a small French vocabulary (documented at the top of
``data/courtisans/cartes.toml`` and in ``docs/rules/courtisans.md``), which the ruleset
interprets: an MJ who has the original card list can re-author the deck without code.
Every error names the file, the card number and what is wrong.

``python -m pbem.games.courtisans.cards <fichier.toml>`` checks a deck file and prints its cards.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core import Msg
from pbem.shipped import DATA

DEFAULT_DECK = DATA / "courtisans" / "cartes.toml"

KINDS = ("titre", "charge", "pension", "marechalat", "favorite", "amant", "action")
"""Card types.  All but ``action`` are possessions: once in effect the card lies in front of its holder."""

INCOME_KINDS = ("titre", "charge", "pension", "marechalat", "favorite", "amant")
PLACES = ("versailles", "chasse", "guerre")
TARGETS = ("courtisan", "personnage", "roi", "reine", "aucune")
"""``courtisan``: a player's character; ``personnage``: a courtisan, the King or the Queen (Régente);
``roi`` / ``reine``: that sovereign only; ``aucune``: the card is played on nobody (Court, wars)."""

POWERS = ("maitre_chasse", "chancelier", "guerre")
NATIONS = ("anglais", "hollandais", "espagnol")
SIMPLE_CONDITIONS = ("homme", "femme", "titre", "empoisonneuse", "favorite", "amant", "exile", "bastille",
                     "absent", "a_la_cour", "marie", "celibataire", "autre")
"""Conditions on the target (``conditions``) or on the player (``joueur``), besides cote bounds."""

STATE_CONDITIONS = ("roi", "reine", "roi_veuf", "guerre", "paix")
EFFECTS = ("mort", "exil", "bastille", "liberation", "rappel", "cote", "livres", "cour", "guerre", "fin_guerre",
           "perd_favorite", "perd_amant", "mariage_secret", "rien")
GLOBAL_EFFECTS = ("cour", "guerre", "fin_guerre", "rien")
"""Effects on the Court or the kingdom, not on a person (``sur`` does not apply)."""
SUBJECTS = ("cible", "joueur", "parti", "armee", "cour")
"""Who an effect applies to: the target, the player, the target's parti (the others at court), the army
(maréchaux and the holder of the war charge), everyone at court; or ``parti:<nation>``."""

MARKS = ("empoisonneuse",)
_COTE = re.compile(r"^cote_(roi|reine)\s*(>=|<=)\s*(-?\d+)$")
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Effect:
    """One step of a card's effect, applied to ``on`` (see `SUBJECTS`)."""

    kind: str
    on: str = "cible"
    roi: int = 0
    reine: int = 0
    amount: int = 0
    per_d10: int = 0
    place: str = ""
    nation: str = ""
    outcome: str = ""


@dataclass(frozen=True)
class Result:
    """One line of a D10 table: the effects when the die falls in ``low``..``high``."""

    low: int
    high: int
    effects: tuple[Effect, ...] = ()
    text: str = ""
    text_en: str = ""


@dataclass(frozen=True)
class Card:
    """One card of the deck, as the MJ wrote it."""

    number: int
    name: str
    name_en: str
    kind: str
    income: int = 0
    rank: int = 0
    feminine: str = ""
    power: str = ""
    place: str = ""
    target: str = "courtisan"
    conditions: tuple[str, ...] = ()
    player: tuple[str, ...] = ()
    state: tuple[str, ...] = ()
    request: bool = False
    d10: bool = False
    refused_to: str = "maison"
    from_bastille: bool = False
    marks: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    results: tuple[Result, ...] = ()
    text: str = ""
    text_en: str = ""

    @property
    def possession(self) -> bool:
        return self.kind != "action"

    def label(self) -> str:
        """``Poison (n° 60)``: how texts name a card."""
        return f"{self.name} (n° {self.number})"

    def result_for(self, die: int) -> Result:
        return next(r for r in self.results if r.low <= die <= r.high)


class DeckError(Exception):
    """A deck file that cannot be used; ``problems`` are the precise complaints, one a line."""

    def __init__(self, path: str, problems: Sequence[str]):
        self.path = path
        self.problems = list(problems)
        super().__init__(f"{path}: " + "; ".join(self.problems))

    @property
    def msg(self) -> Msg:
        lines = "\n".join(f"  {p}" for p in self.problems)
        return Msg(f"jeu de cartes {self.path} invalide :\n{lines}", f"invalid deck {self.path}:\n{lines}")


# ---------------------------------------------------------------- loading


def load_deck(path: str | Path | None = None) -> tuple[Card, ...]:
    """The cards of a deck file (the shipped deck when ``path`` is empty), checked; `DeckError` otherwise."""
    file = Path(path) if path else DEFAULT_DECK
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise DeckError(str(file), [f"fichier illisible ({e.strerror or e})"]) from None
    return parse_deck(text, str(file))


def parse_deck(text: str, where: str = "<texte>") -> tuple[Card, ...]:
    """The cards of a deck given as TOML text; every problem found is reported at once."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DeckError(where, [f"TOML illisible : {e}"]) from None
    problems: list[str] = []
    unknown = sorted(set(doc) - {"carte", "jeu"})
    if unknown:
        problems.append(f"tables inconnues : {', '.join(unknown)} (attendu : [[carte]])")
    entries = doc.get("carte", [])
    if not isinstance(entries, list) or not entries:
        raise DeckError(where, [*problems, "aucune carte : écrivez des tables [[carte]]"])
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for index, entry in enumerate(entries, 1):
        numbers, errors = _numbers(entry, index)
        if errors:
            problems.extend(errors)
            continue
        for number in numbers:
            if number in seen:
                problems.append(f"carte n° {number} : numéro déjà pris par la carte [[carte]] n° {seen[number]} "
                                "du fichier")
            seen[number] = index
        first = numbers[0]
        try:
            card = _card(entry, first)
        except _CardProblems as e:
            problems.extend(f"carte n° {first} ({entry.get('nom', '?')}) : {p}" for p in e.problems)
            continue
        cards.extend(dataclasses.replace(card, number=n) for n in numbers)
    if problems:
        raise DeckError(where, problems)
    return tuple(sorted(cards, key=lambda c: c.number))


class _CardProblems(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def _numbers(entry: Any, index: int) -> tuple[list[int], list[str]]:
    where = f"[[carte]] n° {index} du fichier"
    if not isinstance(entry, dict):
        return [], [f"{where} : ce n'est pas une table"]
    if "numero" in entry and "numeros" in entry:
        return [], [f"{where} : donnez « numero » ou « numeros », pas les deux"]
    raw = [entry["numero"]] if "numero" in entry else entry.get("numeros")
    if not isinstance(raw, list) or not raw:
        return [], [f"{where} ({entry.get('nom', '?')}) : numéro manquant (numero = 12, ou numeros = [12, 13])"]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in raw):
        return [], [f"{where} ({entry.get('nom', '?')}) : un numéro est un entier positif, pas {raw!r}"]
    if len(set(raw)) != len(raw):
        return [], [f"{where} ({entry.get('nom', '?')}) : numéro répété dans {raw!r}"]
    return list(raw), []


_KEYS = {"numero", "numeros", "nom", "nom_en", "type", "revenu", "rang", "feminin", "pouvoir", "lieu", "cible",
         "conditions", "joueur", "etat", "requete", "d10", "refus", "bastille", "marque", "effets", "resultat",
         "texte", "texte_en"}


def _card(entry: Mapping[str, Any], number: int) -> Card:
    problems: list[str] = []
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        problems.append(f"clés inconnues : {', '.join(unknown)}")

    def get(key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = entry.get(key, default)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            problems.append(f"« {key} » : valeur {value!r} de mauvais type")
            return default
        return value

    name = get("nom", str, "")
    if not name.strip():
        problems.append("nom manquant")
    kind = get("type", str, "action")
    if kind not in KINDS:
        problems.append(f"type « {kind} » inconnu (permis : {', '.join(KINDS)})")
    income = get("revenu", int, 0)
    if kind in INCOME_KINDS and kind not in ("favorite", "amant") and income <= 0:
        problems.append(f"une carte de type {kind} a un revenu positif (revenu = 2000)")
    if income < 0:
        problems.append("revenu négatif")
    if kind == "action" and income:
        problems.append("une carte d'action n'a pas de revenu")
    rank = get("rang", int, 0)
    feminine = get("feminin", str, "")
    if kind == "titre" and (rank < 1 or not feminine):
        problems.append("un titre a un rang (1 = le plus bas) et une forme féminine (feminin = \"Baronne\")")
    power = get("pouvoir", str, "")
    if power and (kind != "charge" or power not in POWERS):
        problems.append(f"pouvoir « {power} » : seulement sur une charge, parmi {', '.join(POWERS)}")
    place = get("lieu", str, "")
    if place and place not in PLACES:
        problems.append(f"lieu « {place} » inconnu (permis : {', '.join(PLACES)})")
    target = get("cible", str, "courtisan")
    if target not in TARGETS:
        problems.append(f"cible « {target} » inconnue (permis : {', '.join(TARGETS)})")
    if kind != "action" and target != "courtisan":
        problems.append("une possession (titre, charge, pension…) se joue sur un courtisan : cible = \"courtisan\"")
    conditions = _conditions(get("conditions", list, []), "conditions", problems)
    if target == "aucune" and conditions:
        problems.append("une carte sans cible n'a pas de conditions sur la cible")
    player = _conditions(get("joueur", list, []), "joueur", problems)
    state = tuple(get("etat", list, []))
    for s in state:
        if s not in STATE_CONDITIONS:
            problems.append(f"etat « {s} » inconnu (permis : {', '.join(STATE_CONDITIONS)})")
    request = get("requete", bool, False)
    if kind != "action" and not request and kind not in ("favorite", "amant"):
        problems.append(f"une carte de type {kind} s'obtient par une REQUETE : requete = true")
    d10 = get("d10", bool, False)
    refused = get("refus", str, "maison")
    if refused not in ("maison", "main"):
        problems.append(f"refus « {refused} » inconnu (permis : maison, main)")
    if refused == "main" and not request:
        problems.append("refus = \"main\" n'a de sens que pour une REQUETE")
    marks = tuple(get("marque", list, []))
    for m in marks:
        if m not in MARKS:
            problems.append(f"marque « {m} » inconnue (permis : {', '.join(MARKS)})")
    effects = _effects(get("effets", list, []), "effets", problems)
    results: list[Result] = []
    raw_results = get("resultat", list, [])
    if d10 and not raw_results:
        problems.append("d10 = true demande une table [[carte.resultat]] (des = \"1-3\", effets = [...])")
    if raw_results and not d10:
        problems.append("une table [[carte.resultat]] demande d10 = true")
    covered: list[int] = []
    for i, raw in enumerate(raw_results, 1):
        if not isinstance(raw, dict):
            problems.append(f"résultat {i} : ce n'est pas une table")
            continue
        extra = sorted(set(raw) - {"des", "effets", "texte", "texte_en"})
        if extra:
            problems.append(f"résultat {i} : clés inconnues : {', '.join(extra)}")
        found = _RANGE.match(str(raw.get("des", "")))
        if not found:
            problems.append(f"résultat {i} : « des » doit être « 4 » ou « 1-3 », pas {raw.get('des')!r}")
            continue
        low, high = int(found.group(1)), int(found.group(2) or found.group(1))
        if not 1 <= low <= high <= 10:
            problems.append(f"résultat {i} : plage {low}-{high} hors de 1-10")
            continue
        covered += range(low, high + 1)
        results.append(Result(low, high, _effects(raw.get("effets", []), f"résultat {low}-{high}", problems),
                              str(raw.get("texte", "")), str(raw.get("texte_en", ""))))
    if d10 and raw_results:
        doubled = sorted({n for n in covered if covered.count(n) > 1})
        missing = [n for n in range(1, 11) if n not in covered]
        if doubled:
            problems.append(f"table du D10 : {', '.join(map(str, doubled))} dans plusieurs résultats")
        if missing:
            problems.append(f"table du D10 : aucun résultat pour {', '.join(map(str, missing))}")
    if kind == "action" and not effects and not results:
        problems.append("une carte d'action a des effets (effets = [...]) ou une table du D10")
    for e in [*effects, *(x for r in results for x in r.effects)]:
        if target == "aucune" and e.on in ("cible", "parti") and e.kind not in GLOBAL_EFFECTS:
            problems.append(f"effet {e.kind} sur « {e.on} » : cette carte n'a pas de cible")
        if e.kind in ("cour",) and target != "aucune":
            problems.append("l'effet cour (déplacer la Cour) va sur une carte sans cible (cible = \"aucune\")")
    if problems:
        raise _CardProblems(problems)
    return Card(
        number=number, name=name.strip(), name_en=str(entry.get("nom_en") or name).strip(), kind=kind,
        income=income, rank=rank, feminine=feminine, power=power, place=place, target=target,
        conditions=conditions, player=player, state=state, request=request, d10=d10, refused_to=refused,
        from_bastille=get("bastille", bool, False), marks=marks, effects=effects, results=tuple(results),
        text=str(entry.get("texte", "")), text_en=str(entry.get("texte_en", "")),
    )


def _conditions(raw: list[Any], key: str, problems: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for c in raw:
        text = str(c).strip().replace(" ", "")
        if text in SIMPLE_CONDITIONS or _COTE.match(text):
            out.append(text)
        else:
            problems.append(f"{key} : condition « {c} » inconnue (permis : {', '.join(SIMPLE_CONDITIONS)}, "
                            "cote_roi>=5, cote_reine<=0…)")
    if "homme" in out and "femme" in out:
        problems.append(f"{key} : homme et femme à la fois")
    return tuple(out)


_EFFECT_KEYS = {"effet", "sur", "roi", "reine", "montant", "montant_d10", "lieu", "nation", "issue"}


def _effects(raw: Any, where: str, problems: list[str]) -> tuple[Effect, ...]:
    if not isinstance(raw, list):
        problems.append(f"{where} : « effets » est une liste de tables")
        return ()
    out: list[Effect] = []
    for e in raw:
        if not isinstance(e, dict):
            problems.append(f"{where} : effet {e!r} : ce n'est pas une table")
            continue
        extra = sorted(set(e) - _EFFECT_KEYS)
        kind = str(e.get("effet", ""))
        label = f"{where} : effet « {kind} »"
        if extra:
            problems.append(f"{label} : clés inconnues : {', '.join(extra)}")
        if kind not in EFFECTS:
            problems.append(f"{where} : effet « {kind} » inconnu (permis : {', '.join(EFFECTS)})")
            continue
        on = str(e.get("sur", "cible"))
        if on not in SUBJECTS and not (on.startswith("parti:") and on[6:] in NATIONS):
            problems.append(f"{label} : sur « {on} » inconnu (permis : {', '.join(SUBJECTS)}, parti:anglais…)")
        ints = {}
        for k in ("roi", "reine", "montant", "montant_d10"):
            v = e.get(k, 0)
            if not isinstance(v, int) or isinstance(v, bool):
                problems.append(f"{label} : « {k} » est un entier, pas {v!r}")
                v = 0
            ints[k] = v
        place, nation, outcome = str(e.get("lieu", "")), str(e.get("nation", "")), str(e.get("issue", ""))
        if kind == "cote" and not (ints["roi"] or ints["reine"]):
            problems.append(f"{label} : donnez roi = n ou reine = n")
        if kind == "livres" and not (ints["montant"] or ints["montant_d10"]):
            problems.append(f"{label} : donnez montant = n ou montant_d10 = n (n × le D10)")
        if kind == "cour" and place not in ("versailles", "chasse"):
            problems.append(f"{label} : lieu = \"versailles\" ou \"chasse\"")
        if kind == "guerre" and nation not in NATIONS:
            problems.append(f"{label} : nation parmi {', '.join(NATIONS)}")
        if kind == "fin_guerre" and outcome not in ("victoire", "defaite"):
            problems.append(f"{label} : issue = \"victoire\" ou \"defaite\"")
        if kind in (*GLOBAL_EFFECTS, "mariage_secret") and on != "cible":
            problems.append(f"{label} : cet effet ne prend pas « sur »")
        out.append(Effect(kind, on, ints["roi"], ints["reine"], ints["montant"], ints["montant_d10"], place,
                          nation, outcome))
    return tuple(out)


# ---------------------------------------------------------------- describing a card

PLACE_NAMES = {"versailles": Msg("Versailles", "Versailles"), "chasse": Msg("Chasse", "Hunt"),
               "guerre": Msg("Guerre", "War")}
CONDITION_NAMES = {
    "homme": Msg("homme", "man"), "femme": Msg("femme", "woman"), "titre": Msg("titré", "titled"),
    "empoisonneuse": Msg("ayant tenté un empoisonnement", "who tried a poisoning"),
    "favorite": Msg("Favorite", "Favourite"), "amant": Msg("Amant de la Reine", "Queen's Lover"),
    "exile": Msg("exilé", "in exile"), "bastille": Msg("à la Bastille", "in the Bastille"),
    "absent": Msg("exilé ou à la Bastille", "in exile or in the Bastille"),
    "a_la_cour": Msg("à la Cour", "at Court"), "marie": Msg("marié", "married"),
    "celibataire": Msg("célibataire", "unmarried"), "autre": Msg("un autre que soi", "someone else"),
}
STATE_NAMES = {"roi": Msg("s'il y a un Roi", "if there is a King"), "reine": Msg("s'il y a une Reine",
                                                                                  "if there is a Queen"),
               "roi_veuf": Msg("Roi veuf", "widowed King"), "guerre": Msg("en guerre", "at war"),
               "paix": Msg("en paix", "at peace")}


def condition_name(c: str) -> Msg:
    found = _COTE.match(c)
    if found:
        who, op, n = found.groups()
        fr_who, en_who = ("Roi", "King") if who == "roi" else ("Reine", "Queen")
        fr_op, en_op = ("minimum", "at least") if op == ">=" else ("maximum", "at most")
        return Msg(f"cote {fr_who} {fr_op} {n}", f"{en_who} cote {en_op} {n}")
    return CONDITION_NAMES[c]


def _joined(conditions: tuple[str, ...], lang: str) -> str:
    """« homme titré », « homme avec cote Roi minimum 5 », « femme ayant tenté un empoisonnement », « femme, à la Cour »:
    the rule text's double conditions read as one phrase, the others are listed."""
    out = ""
    for c in conditions:
        word = condition_name(c).get(lang)
        if not out:
            out = word
        elif _COTE.match(c):
            out += (" avec " if lang == "fr" else " with ") + word
        elif c in ("titre", "empoisonneuse") and out in ("homme", "femme", "man", "woman"):
            out += " " + word if lang == "fr" or c == "empoisonneuse" else ""
            if lang == "en" and c == "titre":
                out = f"titled {out}"
        else:
            out += ", " + word
    return out


def restrictions(card: Card) -> Msg:
    """What the forum's card list puts in brackets: ``Chasse, homme, D10, REQUETE``."""
    fr: list[str] = []
    en: list[str] = []
    if card.place:
        fr.append(PLACE_NAMES[card.place].fr)
        en.append(PLACE_NAMES[card.place].en)
    if card.target in ("roi", "reine"):
        fr.append("sur le Roi" if card.target == "roi" else "sur la Reine")
        en.append("on the King" if card.target == "roi" else "on the Queen")
    if card.conditions:
        fr.append(_joined(card.conditions, "fr"))
        en.append(_joined(card.conditions, "en"))
    if card.player:
        fr.append("ne peut être jouée que par : " + _joined(card.player, "fr"))
        en.append("can only be played by: " + _joined(card.player, "en"))
    for s in card.state:
        fr.append(STATE_NAMES[s].fr)
        en.append(STATE_NAMES[s].en)
    if card.d10:
        fr.append("D10")
        en.append("D10")
    if card.request:
        fr.append("REQUETE")
        en.append("REQUEST")
    return Msg(", ".join(fr), ", ".join(en))


def listing(card: Card) -> Msg:
    """``60 (D10) Poison`` : number, restrictions in brackets, name, as the forum lists cards."""
    r = restrictions(card)
    fr = f"{card.number} ({r.fr}) {card.name}" if r.fr else f"{card.number} {card.name}"
    en = f"{card.number} ({r.en}) {card.name_en}" if r.en else f"{card.number} {card.name_en}"
    if card.kind in INCOME_KINDS and card.income:
        fr += f" — {_money(card.income)} livres par tour"
        en += f" — {card.income:,} livres a turn"
    return Msg(fr, en)


_COUNTRY = {"anglais": Msg("l'Angleterre", "England"), "hollandais": Msg("la Hollande", "Holland"),
            "espagnol": Msg("l'Espagne", "Spain")}
_SUBJECT = {"joueur": Msg("vous : ", "you: "), "parti": Msg("son parti : ", "the target's party: "),
            "armee": Msg("l'armée : ", "the army: "), "cour": Msg("toute la Cour : ", "the whole Court: ")}


def _effect_text(e: Effect, lang: str) -> str:
    fr = lang == "fr"
    kind = e.kind
    if kind == "cote":
        parts = []
        for who, delta in (("Roi" if fr else "King", e.roi), ("Reine" if fr else "Queen", e.reine)):
            if delta:
                parts.append(f"{'cote ' if fr else ''}{who}{'' if fr else ' cote'} {delta:+d}")
        text = ", ".join(parts)
    elif kind == "livres":
        if e.per_d10:
            text = f"D10 × {abs(e.per_d10)} livres {'en plus' if fr else 'more'}" if e.per_d10 > 0 else \
                f"D10 × {abs(e.per_d10)} livres {'en moins' if fr else 'less'}"
        else:
            text = f"{e.amount:+,} livres".replace(",", "\u202f" if fr else ",")
    elif kind == "cour":
        text = ("la Cour va " + ("à la Chasse" if e.place == "chasse" else "à Versailles")) if fr else \
            ("the Court goes " + ("to the Hunt" if e.place == "chasse" else "to Versailles"))
    elif kind == "guerre":
        text = f"guerre contre {_COUNTRY[e.nation].fr}" if fr else f"war with {_COUNTRY[e.nation].en}"
    elif kind == "fin_guerre":
        won = e.outcome == "victoire"
        text = ("fin d'une guerre, " + ("gagnée" if won else "perdue")) if fr else \
            ("end of a war, " + ("won" if won else "lost"))
    else:
        words = {"mort": ("mort", "death"), "exil": ("exil", "exile"), "bastille": ("Bastille", "Bastille"),
                 "liberation": ("sort de la Bastille", "leaves the Bastille"),
                 "rappel": ("revient d'exil", "back from exile"),
                 "perd_favorite": ("n'est plus Favorite", "no longer the Favourite"),
                 "perd_amant": ("n'est plus l'Amant de la Reine", "no longer the Queen's Lover"),
                 "mariage_secret": ("le Roi l'épouse en secret", "the King marries her in secret"),
                 "rien": ("rien", "nothing")}
        text = words[kind][0 if fr else 1]
    if e.on.startswith("parti:"):
        nation = e.on.split(":", 1)[1]
        english = {"anglais": "English", "hollandais": "Dutch", "espagnol": "Spanish"}[nation]
        prefix = f"le parti {nation} : " if fr else f"the {english} party: "
    else:
        prefix = _SUBJECT[e.on].get(lang) if e.on in _SUBJECT else ""
    return prefix + text


def effect_text(card: Card) -> Msg:
    """What a card does, from its vocabulary: « D10 : 1-3 mort ; 4-6 cote Roi -1, Reine -1 ; … »."""
    out = {}
    for lang in ("fr", "en"):
        fr = lang == "fr"
        parts = []
        if card.possession:
            kinds = {"titre": ("titre", "title"), "charge": ("charge", "charge"), "pension": ("pension", "pension"),
                     "marechalat": ("maréchalat", "marshal's baton"), "favorite": ("devient la Favorite du Roi",
                                                                                   "becomes the King's Favourite"),
                     "amant": ("devient l'Amant de la Reine", "becomes the Queen's Lover")}
            income = f"{card.income:,}".replace(",", "\u202f" if fr else ",")
            parts.append(f"{kinds[card.kind][0 if fr else 1]}, {income} livres " + ("par tour" if fr else "a turn"))
        if card.power:
            powers = {"maitre_chasse": ("pouvoir : déplacer la Cour", "power: move the Court"),
                      "chancelier": ("pouvoir : embastiller (cote Roi 0 ou moins) ou juger",
                                     "power: jail (King cote 0 or less) or judge"),
                      "guerre": ("gagne ou perd de la cote avec l'armée", "gains or loses cote with the army")}
            parts.append(powers[card.power][0 if fr else 1])
        parts += [_effect_text(e, lang) for e in card.effects]
        if card.results:
            table = (" ; " if fr else "; ").join(
                f"{r.low if r.low == r.high else f'{r.low}-{r.high}'} "
                + (", ".join(_effect_text(e, lang) for e in r.effects) or ("rien" if fr else "nothing"))
                for r in card.results)
            parts.append(f"D10 : {table}" if fr else f"D10: {table}")
        if card.refused_to == "main":
            parts.append("refusée, elle revient dans la main" if fr else "refused, it comes back to the hand")
        if card.marks:
            parts.append("marque le joueur comme empoisonneur" if fr else "marks the player as a poisoner")
        out[lang] = " ; ".join(parts) if fr else "; ".join(parts)
    return Msg(out["fr"], out["en"])


def _money(n: int) -> str:
    return f"{n:,}".replace(",", "\u202f")


def main(argv: Sequence[str]) -> int:
    """Check a deck file: print its cards, or its problems (exit status 1)."""
    path = argv[1] if len(argv) > 1 else ""
    try:
        cards = load_deck(path)
    except DeckError as e:
        print(e.msg.fr)
        return 1
    for card in cards:
        print(f"{listing(card).fr}\n    {effect_text(card).fr}")
    print(f"{len(cards)} cartes, jeu valide.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
