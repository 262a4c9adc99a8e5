"""The AIDE/HELP answer: the orders this player may give now, each line one that pbem accepts as written."""

from __future__ import annotations

from pbem.core import MJ, Msg, OrderHelp
from pbem.games.courtisans.state import CourtState, power_holder


def help_lines(state: CourtState, player: str) -> list[OrderHelp]:
    if player == MJ:
        return [
            OrderHelp("AMENDE <joueur> [montant]", Msg(f"amende pour manquement à l'étiquette "
                                                       f"({state.options.fine} livres par défaut)",
                                                       f"a fine for a breach of etiquette "
                                                       f"({state.options.fine} livres by default)")),
            OrderHelp("AVERTISSEMENT <joueur>", Msg("un rappel à l'ordre", "a call to order")),
            OrderHelp("POUR <joueur> : <ordre>", Msg("donner un ordre pour un joueur", "order for a player")),
        ]
    if player not in state.courtiers or state.over:
        return []
    c = state.courtiers[player]
    if not c.alive:
        return [OrderHelp("PARTI anglais|hollandais|espagnol",
                          Msg("le parti de votre prochain personnage (il entrera à la Cour au début de la "
                              "prochaine manche)", "the party of your next character (who enters Court at the "
                              "start of the next round)"))]
    slot = state.slot
    if slot is None or slot.player != player:
        return []
    lines = []
    if slot.kind == "first" and not state.wars and c.at_court:
        lines.append(OrderHelp("VERSAILLES | CHASSE", Msg("Chambellan : où se tient la Cour pour toute la manche "
                                                          "(sans réponse : Versailles)",
                                                          "Chambellan: where the Court is for the whole round "
                                                          "(default: Versailles)")))
    lines.append(OrderHelp("PIOCHER", Msg("une action : piocher une carte de la pioche générale",
                                          "one action: draw a card from the deck")))
    if c.at_court and state.maison:
        lines.append(OrderHelp("MAISON <carte>", Msg("une action : prendre une carte de la Maison du Roi",
                                                     "one action: take a card from the King's Household")))
    lines.append(OrderHelp("JOUER <carte> SUR <personnage> [ROI|REINE]",
                           Msg("une action : jouer une carte (sur moi, un courtisan, ROI, REINE) ; ROI ou REINE : "
                               "à qui s'adresse une REQUETE (défaut : le Roi)",
                               "one action: play a card (on me, a courtier, ROI, REINE); ROI or REINE: whom a "
                               "REQUEST goes to (default: the King)")))
    lines.append(OrderHelp("DONNER <carte> [<carte>] A <joueur>", Msg("une action : donner 1 ou 2 cartes",
                                                                     "one action: give 1 or 2 cards")))
    if c.at_court:
        lines += [
            OrderHelp("MARIAGE <personnage>", Msg("une action : demander au Roi d'épouser ce personnage",
                                                 "one action: ask the King's leave to marry")),
            OrderHelp("CHARGE <charge> DE <personnage>", Msg("une action : demander au Roi la charge d'un autre",
                                                             "one action: ask the King for another's charge")),
            OrderHelp("BASTILLE <personnage>", Msg("une action : demander au Roi de libérer un embastillé",
                                                   "one action: ask the King to release a prisoner")),
            OrderHelp("EXIL <personnage> [ROI|REINE]", Msg("une action : demander le retour d'un exilé",
                                                           "one action: ask for an exile's return")),
            OrderHelp("RAGOTS <personnage> ROI|REINE", Msg("une action : dire du mal d'un courtisan",
                                                           "one action: speak ill of a courtier")),
            OrderHelp("LOUANGES <personnage> ROI|REINE", Msg("une action : dire du bien d'un courtisan",
                                                             "one action: speak well of a courtier")),
        ]
        if state.crown.widowed and not state.crown.secret_wife:
            lines.append(OrderHelp("PRINCESSE anglaise|hollandaise|espagnole",
                                   Msg("une action : proposer au Roi veuf une princesse étrangère",
                                       "one action: offer the widowed King a foreign princess")))
    lines.append(OrderHelp("PASSER", Msg("une action : ne rien faire", "one action: do nothing")))
    hunt = power_holder(state, "maitre_chasse")
    if hunt and hunt[0] == player and hunt[1] not in state.powers_used and not state.wars:
        lines.append(OrderHelp("POUVOIR VERSAILLES | POUVOIR CHASSE",
                               Msg("Maître de la Chasse, à la fin du tour : déplacer la Cour",
                                   "Master of the Hunt, at the end of the turn: move the Court")))
    chancellor = power_holder(state, "chancelier")
    if chancellor and chancellor[0] == player and chancellor[1] not in state.powers_used:
        lines += [OrderHelp("EMBASTILLER <personnage>", Msg("Chancelier : embastiller un courtisan de cote Roi 0, "
                                                            "-1 ou -2", "Chancellor: jail a courtier whose King "
                                                            "cote is 0, -1 or -2")),
                  OrderHelp("JUGER <personnage>", Msg("Chancelier : juger (et libérer) un embastillé",
                                                      "Chancellor: judge (and release) a prisoner"))]
    lines.append(OrderHelp("DEFAUSSER <carte> [<carte>…]",
                           Msg(f"au-delà de {state.options.hand_limit} cartes en fin de tour, lesquelles défausser "
                               "(sinon, au hasard)", f"above {state.options.hand_limit} cards at the end of the "
                               "turn, which to discard (otherwise at random)")))
    return lines
