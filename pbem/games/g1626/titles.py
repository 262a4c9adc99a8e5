"""1626: what mails are titled (subjects that never reveal a secret test) and the AIDE lines."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core import MJ, Msg, Order, OrderHelp, PlayerName, replace
from pbem.games.g1626.orders import ENGLISH, decode, request_of
from pbem.games.g1626.sheet import de
from pbem.games.g1626.state import State


def _en_of(name: str) -> str:
    return f"of {name}"


def _names(state: State, players: Sequence[PlayerName]) -> tuple[str, str]:
    names = [state.characters[p].name for p in dict.fromkeys(players) if p in state.characters]
    if not names:
        return "", ""
    fr = ", ".join(de(n) for n in names[:-1]) + (" et " if len(names) > 1 else "") + de(names[-1])
    en = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    return fr, en


def _concerned(state: State, player: PlayerName, order: Order) -> tuple[PlayerName, int | None, bool]:
    """(the character concerned, the test number if any, whether it is secret)."""
    if order.verb in ("TEST", "DEMANDE"):
        values = decode(order.args)
        return str(values["player"]), state.tests + 1, bool(values.get("secret"))
    if order.verb in ("SR", "LANCER", "REFUSER"):
        values = decode(order.args)
        request = request_of(state, int(values["request"]))
        return request.actor.player, request.number, bool(values.get("secret")) or request.secret
    target = str(order.args[0]) if order.args else player
    return target, None, False


def action_title(state: State, player: PlayerName, order: Order, viewer: PlayerName) -> Msg:
    """The title of one immediate order, for ``viewer``: a secret test is « Test secret n° 4 » to its player.

    ``state`` is the state the order was parsed against (before it took effect).
    """
    who, number, secret = _concerned(state, player, order)
    name = state.characters[who].name if who in state.characters else ""
    if secret and viewer != MJ:
        return Msg(f"Test secret n° {number}", f"Secret test no. {number}")
    tag = " (secret)" if secret else ""
    if order.verb == "DEMANDE":
        return Msg(f"Demande de test n° {number} {de(name)}{tag}", f"Test request no. {number} {_en_of(name)}{tag}")
    if order.verb == "REFUSER":
        return Msg(f"Demande de test n° {number} {de(name)} : refusée", f"Test request no. {number} {_en_of(name)}: refused")
    if number is not None:
        return Msg(f"Test n° {number} {de(name)}{tag}", f"Test no. {number} {_en_of(name)}{tag}")
    words = {"FICHE": ("Fiche", "Sheet"), "TALENT": ("Talent", "Talent"), "DON": ("Dons", "Gifts"), "HISTORIQUE": ("Tests", "Tests"), "BLESSURE": ("Blessure", "Wound"),
             "SOIN": ("Soins", "Care"), "CHANCE": ("Chance inouïe", "Chance inouïe"),
             "PRESTIGE": ("Prestige", "Prestige"), "RECONNU": ("Reconnaissance", "Recognition"),
             "INCONNU": ("Reconnaissance", "Recognition")}
    if order.verb == "DEMANDES":
        return Msg("Demandes de test en attente", "Test requests waiting")
    fr, en = words.get(order.verb, (order.verb.capitalize(), order.verb.capitalize()))
    if not name:
        return Msg(fr, en)
    return Msg(f"{fr} {de(name)}", f"{en} {_en_of(name)}")


def batch_title(state: State, actions: Sequence[tuple[PlayerName, Order]]) -> Msg:
    """« Tests d'Armand de Sillègue et d'Isaac de Porthau »: the MJ's digest of a batch names the characters."""
    concerned = [_concerned(state, player, order)[0] for player, order in actions]
    fr, en = _names(state, concerned)
    tests = any(o.verb in ("TEST", "DEMANDE", "SR", "LANCER") for _, o in actions)
    head_fr, head_en = ("Tests", "Tests") if tests else ("Ordres", "Orders")
    return Msg(f"{head_fr} {fr}".strip(), f"{head_en} of {en}" if en else head_en)


def help_lines(state: State, player: PlayerName, valid_caracs: str) -> list[OrderHelp]:
    asks = state.sr_by == "mj"
    test_fr = ("demande au MJ un test double (caractéristique + talent + d10) ; il répond par le SR"
               if asks else "test double : caractéristique + talent + d10 (ex. TEST Escrime AG SR 15, ou Escrime/AG)")
    test_en = ("asks the MJ for a double test (characteristic + talent + d10), who answers with the SR"
               if asks else "double test: characteristic + talent + d10 (e.g. TEST Escrime AG SR 15, or Escrime/AG)")
    lines = [
        OrderHelp("TEST <talent> <CARAC>" + (" [SR <n>]" if asks else " SR <n>") + " [+m|-m] [SECRET]",
                  Msg(test_fr, test_en)),
        OrderHelp("TEST <CARAC>" + ("" if asks else " SR <n>") + " [+m|-m] [SECRET]",
                  Msg(f"test simple : caractéristique × 2 + d10 ; CARAC parmi {valid_caracs}",
                      f"simple test: characteristic × 2 + d10; CARAC among {valid_caracs}")),
        OrderHelp("TEST <talent> <CARAC> CONTRE <personnage> [<talent> <CARAC>]",
                  Msg("test en opposition : chacun lance, le plus haut total l'emporte",
                      "opposed test: each side rolls, the higher total wins")),
        OrderHelp("TEST Armes de tir PE ... VISÉE / TEST Tactique militaire INT ... DÉJOUER",
                  Msg("+2 des dons Tireur d'élite (après un tour à viser) et Tacticien (contre un enchaînement ou une botte)",
                      "+2 of the gifts Tireur d'élite (after a turn aiming) and Tacticien (against an enchaînement or a botte)")),
        OrderHelp("FICHE" if player != MJ else "FICHE <personnage>",
                  Msg("la fiche du personnage, avec PV, titre et bonus de prestige",
                      "the character sheet, with hit points, title and prestige bonuses")),
        OrderHelp("HISTORIQUE" if player != MJ else "HISTORIQUE [personnage]",
                  Msg("les tests lancés et leurs résultats", "the tests rolled and their results")),
        OrderHelp("DEMANDES", Msg("les demandes de test qui attendent le MJ", "the test requests waiting for the MJ")),
        OrderHelp("CHANCE" if player != MJ else "CHANCE <personnage>",
                  Msg("Chance inouïe : éviter le coup qui vient de vous mettre à 0 PV ou moins"
                      if player != MJ else "Chance inouïe : le personnage évite un coup mortel ou gravissime",
                      "Chance inouïe: avoid the coup that just took you to 0 PV or less"
                      if player != MJ else "Chance inouïe: the character avoids a deadly or grievous coup")),
    ]
    if player == MJ:
        lines += [
            OrderHelp("SR <n> [n° <demande> | personnage] [+m|-m] [SECRET]",
                      Msg("répondre à une demande de test par son SR : le test est lancé",
                          "answer a test request with its SR: the test is rolled")),
            OrderHelp("LANCER [n° <demande>] [CONTRE <PNJ> <score> [2d6|2d6+2]]",
                      Msg("lancer une demande telle quelle (SR proposé, ou opposition)",
                          "roll a request as asked (suggested SR, or opposition)")),
            OrderHelp("REFUSER [n° <demande>] [raison]", Msg("écarter une demande ; le joueur est prévenu",
                                                             "turn a request down; the player is told")),
            OrderHelp("TEST <personnage> <talent> <CARAC> SR <n> [SECRET]",
                      Msg("lancer un test pour un personnage ; SECRET : le résultat ne va qu'au MJ",
                          "roll a test for a character; SECRET: only the MJ sees the result")),
            OrderHelp("TEST <personnage> ... CONTRE <PNJ> <score> [2d6|2d6+2]",
                      Msg("opposition à un PNJ : son score (caractéristique + talent) et ses dés",
                          "opposed to a PNJ: its score (characteristic + talent) and dice")),
            OrderHelp("BLESSURE <personnage> <n> / SOIN <personnage> <n>",
                      Msg("retirer ou rendre des points de vie", "take away or give back hit points")),
            OrderHelp("RECONNU <personnage>", Msg("le personnage est reconnu : ses bonus de prestige s'appliquent",
                                                  "the character is recognised: prestige bonuses apply")),
            OrderHelp("RECONNU <personnage> ENNEMIS", Msg("reconnu par des ennemis : les bonus de prestige deviennent des malus",
                                                          "recognised by enemies: prestige bonuses turn into maluses")),
            OrderHelp("INCONNU <personnage>", Msg("le personnage n'est plus reconnu : plus de bonus de prestige",
                                                  "the character is no longer recognised: no prestige bonus")),
            OrderHelp("TALENT <personnage> <talent> +n|-n|=n", Msg("faire progresser (ou changer) un talent",
                                                                   "improve (or change) a talent")),
            OrderHelp("DON <personnage> +<don> [domaine] / -<don>", Msg("donner ou retirer un don (contraintes vérifiées)",
                                                                        "give or take away a gift (constraints checked)")),
            OrderHelp("PRESTIGE <personnage> +n|-n|=n", Msg("ajuster (ou fixer, =n) le prestige",
                                                            "adjust (or set, =n) the prestige")),
        ]
    return [replace(h, aliases=_aliases(h.syntax)) for h in lines]


def _aliases(syntax: str) -> tuple[str, ...]:
    """The English words of the orders a help line shows (« BLESSURE … / SOIN … » has two)."""
    verbs = [part.split()[0] for part in syntax.split(" / ") if part.split()]
    return tuple(dict.fromkeys(word for verb in verbs for word in ENGLISH.get(verb, ())))
