"""The start of a game: options checked, the deck loaded, characters, partis, the Queen, cotes, hands, order.

« Etiquette : chaque joueur se choisit un nom et le sexe de son personnage » ; « Partis : le MJ détermine
aléatoirement … le parti que soutient chaque joueur » ; « Préparation : le MJ distribue 6 cartes » ;
« le MJ détermine en début de partie l'ordre initial des joueurs ».
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from pbem.core import JSON, Event, Msg, Seat, SetupError
from pbem.dice import Dice
from pbem.games.courtisans.cards import DeckError, load_deck
from pbem.games.courtisans.court import draw_cotes, parse_cote_dice
from pbem.games.courtisans.etiquette import parse_name
from pbem.games.courtisans.news import cards_data, private, public, who
from pbem.games.courtisans.state import PARTIS, Courtier, CourtState, Crown, Options
from pbem.games.courtisans.turns import start_round

SEXES = {"homme": "homme", "h": "homme", "m": "homme", "man": "homme", "male": "homme",
         "femme": "femme", "f": "femme", "woman": "femme", "female": "femme"}


def options_from(raw: Mapping[str, JSON]) -> Options:
    """The options, checked: a wrong value says which option and what it accepts."""
    defaults = Options()
    values = {}
    for f in dataclasses.fields(Options):
        value = raw.get(f.name, getattr(defaults, f.name))
        expected = type(getattr(defaults, f.name))
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise SetupError(Msg(f"option {f.name} : un nombre entier, pas {value!r}",
                                 f"option {f.name}: a whole number, not {value!r}"))
        if expected in (bool, str) and not isinstance(value, expected):
            raise SetupError(Msg(f"option {f.name} : {value!r} n'est pas du bon type",
                                 f"option {f.name}: {value!r} has the wrong type"))
        values[f.name] = value
    options = Options(**values)
    try:
        parse_cote_dice(options.cote_dice)
    except ValueError:
        raise SetupError(Msg(f"option cote_dice : « {options.cote_dice} » ; écrivez par exemple « 1d6+2 »",
                             f"option cote_dice: '{options.cote_dice}'; write for instance '1d6+2'")) from None
    if options.cote_on_return not in ("draw", "keep"):
        raise SetupError(Msg("option cote_on_return : draw ou keep", "option cote_on_return: draw or keep"))
    if options.seating not in ("draw", "roster"):
        raise SetupError(Msg("option seating : draw ou roster", "option seating: draw or roster"))
    if options.charge_conditions not in ("audience", "refus"):
        raise SetupError(Msg("option charge_conditions : audience ou refus", "option charge_conditions: audience or refus"))
    if not options.cote_min < options.cote_max or options.target <= 0 or options.hand_limit < options.hand_size:
        raise SetupError(Msg("options incohérentes (cote_min < cote_max, target > 0, hand_limit >= hand_size)",
                             "inconsistent options (cote_min < cote_max, target > 0, hand_limit >= hand_size)"))
    return options


def check_options(raw: Mapping[str, JSON]) -> Options:
    """The options as `new_game` reads them, checked before any game starts: their values, and the deck
    file when one is named (each fault of the file with its card)."""
    options = options_from(raw)
    if options.deck:
        try:
            load_deck(options.deck)
        except DeckError as e:
            raise SetupError(e.msg) from None
    return options


def new_game(roster: Sequence[Seat], raw: Mapping[str, JSON], dice: Dice) -> tuple[CourtState, list[Event]]:
    options = options_from(raw)
    n = len(roster)
    if not options.min_players <= n <= options.max_players:
        raise SetupError(Msg(f"Courtisans se joue de {options.min_players} à {options.max_players} joueurs "
                             f"(option max_players), pas {n}",
                             f"Courtisans is played by {options.min_players} to {options.max_players} players "
                             f"(option max_players), not {n}"))
    try:
        cards = load_deck(options.deck)
    except DeckError as e:
        raise SetupError(e.msg) from None
    if len(cards) < n * options.hand_size + 10:
        raise SetupError(Msg(f"le jeu n'a que {len(cards)} cartes : trop peu pour {n} joueurs",
                             f"the deck has only {len(cards)} cards: too few for {n} players"))
    names = [s.name for s in roster]
    seats = tuple(names if options.seating == "roster" else dice.shuffle(names, "order of play"))
    nation = dice.choice(list(PARTIS), "nationality of the Queen")
    courtiers: dict[str, Courtier] = {}
    for seat in sorted(roster, key=lambda s: seats.index(s.name)):
        data = dict(seat.data)
        said_sex, family = parse_name(str(data.get("nom") or seat.name))
        # « chaque joueur se choisit un nom et le sexe de son personnage » : the civility of his name, else the sex
        # he gave at registration or the MJ's roster (``sexe = "femme"``), else a draw (ruling)
        sex = SEXES.get(str(data.get("sexe", "")).lower()) or said_sex \
            or {"f": "femme", "m": "homme"}.get(seat.gender or "") \
            or dice.choice(["homme", "femme"], f"sex of {seat.name}")
        parti = str(data.get("parti", "")).lower()
        if parti not in PARTIS:
            parti = dice.choice(list(PARTIS), f"parti of {seat.name}")
        courtiers[seat.name] = Courtier(player=seat.name, family=family, sex=sex, parti=parti)
    deck = dice.shuffle([c.number for c in cards], "shuffle the deck")
    for p in seats:
        hand, deck = deck[:options.hand_size], deck[options.hand_size:]
        courtiers[p] = dataclasses.replace(courtiers[p], hand=tuple(hand))
    state = CourtState(options=options, cards={c.number: c for c in cards}, seats=seats, courtiers=courtiers,
                       deck=tuple(deck), crown=Crown(queen_nation=nation))
    ev: list[Event] = [public("setup", seats=[who(state, p) for p in seats], nation=nation, target=options.target,
                              deck=len(cards), hand_size=options.hand_size)]
    for p in seats:
        state = draw_cotes(state, p, dice, ev)
    for p in seats:
        c = state.courtiers[p]
        ev.append(private([p], "your_character", who=who(state, p), parti=c.parti, sex=c.sex,
                          hand=cards_data(state, c.hand), roi=c.cote_roi, reine=c.cote_reine, nation=nation))
    state = start_round(state, dice, ev, first=True)
    return state, ev
