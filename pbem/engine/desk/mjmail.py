"""The MJ's commands by mail as he reads them in the list of commands: each with its syntax, what it does and one
example (AIDE, and the answer to a mail nothing in which is understood), and the command a misspelt word is
nearest to (« Prolnge de 24h »).

The mail is read by meaning (`pbem.engine.desk.reader`): these syntaxes are one way to write each command
among many, and every example is read as written as that command (a test checks it).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from pbem.core import Msg
from pbem.engine import when
from pbem.limits import MAX_LINE_CHARS


@dataclass(frozen=True)
class Syntax:
    """How a command is written, and an example of it (French and English)."""

    kind: str
    syntax: Msg
    example: Msg
    does: Msg


COMMANDS: tuple[Syntax, ...] = (
    Syntax("EXTEND", Msg("PROLONGE [tour n] de <durée> | jusqu'au <date>", "EXTEND [turn n] by <duration> | until <date>"),
           Msg("Prolonge le tour 3 de 24h", "Extend turn 3 by 24 hours"),
           Msg("repousser la date limite de l'étape en cours (AVANCE pour l'avancer) ; les joueurs sont prévenus",
               "move the open step's deadline later (EARLIER to bring it forward); players are told")),
    Syntax("PAUSE", Msg("PAUSE [du <date> au <date> | jusqu'au <date> | pendant <durée>] [: motif]",
                        "PAUSE [from <date> to <date> | until <date> | for <duration>] [: reason]"),
           Msg("Pause du samedi 8 au dimanche 16 février inclus : vacances", "Pause from 8 to 16 February: holidays"),
           Msg("arrêter l'horloge (sans date : jusqu'à nouvel ordre) ; dates limites et rappels gelés, joueurs prévenus",
               "stop the clock (no date: until further notice); deadlines and reminders frozen, players told")),
    Syntax("RESUME", Msg("REPRISE [le <date>]", "RESUME [on <date>]"), Msg("Reprise", "Resume"),
           Msg("finir la pause (ou l'annuler si elle n'a pas commencé) ; le temps qui restait est rendu",
               "end the pause (or call it off if it has not begun); the time that was left is given back")),
    Syntax("MISSING", Msg("QUI MANQUE", "WHO IS MISSING"), Msg("Qui manque ?", "Who is missing?"),
           Msg("les joueurs dont on attend encore les ordres, et les absents", "the players still awaited, and the absent")),
    Syntax("RESEND", Msg("RENVOIE [les résultats de <joueur> | le compte rendu] du tour n [à <joueur> | à moi]",
                         "RESEND [<player>'s results | the forum post] of turn n [to <player> | to me]"),
           Msg("Renvoie à Arya ses résultats du tour 3", "Resend Arya's results of turn 3 to Arya"),
           Msg("renvoyer les résultats privés d'un joueur, ou le compte rendu du forum, d'une étape",
               "send again a player's private results, or the forum post, of a step")),
    Syntax("CORRECT", Msg("CORRIGE tour n POUR <joueur> : <ordre>", "CORRECT turn n FOR <player>: <order>"),
           Msg("Corrige le tour 3 pour Arya : GUESS 4", "Correct turn 3 for Arya: GUESS 4"),
           Msg("corriger l'ordre d'une étape résolue (puis RECALCULE, ou APPROUVE si elle attend)",
               "correct an order of a resolved step (then RERUN, or APPROVE if it waits)")),
    Syntax("RERUN", Msg("RECALCULE le tour n [et publie]", "RERUN turn n [and publish]"),
           Msg("Recalcule le tour 3 et publie", "Rerun turn 3 and publish"),
           Msg("refaire une étape avec les ordres corrigés ; « et publie » envoie un RECTIFICATIF",
               "compute a step again with the corrected orders; 'and publish' mails a RECTIFICATIF")),
    Syntax("REMOVE", Msg("RETIRE <joueur> [maintenant | à la fin du tour]", "REMOVE <player> [now | at the end of the turn]"),
           Msg("Retire Bran à la fin du tour", "Remove Bran at the end of the turn"),
           Msg("retirer un joueur (à la fin du tour : ses ordres du tour comptent encore)",
               "remove a player (at the end of the turn: their orders for it still count)")),
    Syntax("REPLACE", Msg("REMPLACE <joueur> par <nom> <adresse> [à partir du tour n]",
                          "REPLACE <player> with <name> <address> [from turn n]"),
           Msg("Remplace Bran par Jeanne Dupont <jeanne@example.org>", "Replace Bran with Jane Doe <jane@example.org>"),
           Msg("donner la place d'un joueur à un nouveau venu, qui reçoit tout ce que savait le partant",
               "give a player's seat to a newcomer, who gets everything the departing player knew")),
    Syntax("APPROVE", Msg("APPROUVE [tour n] [puis CHRONIQUE et votre texte]", "APPROVE [turn n] [then CHRONICLE and your text]"),
           Msg("Approuve le tour 3", "Approve turn 3"),
           Msg("publier des résultats tenus pour approbation (option publish = \"mj\")",
               "publish results held for approval (option publish = \"mj\")")),
    Syntax("CHRONICLE", Msg("CHRONIQUE (le texte suit, jusqu'à FIN)", "CHRONICLE (the text follows, until END)"),
           Msg("Chronique : La pluie tombait sur le Donjon Rouge.", "Chronicle: Rain fell on the Red Keep."),
           Msg("avec APPROUVE : un texte libre en tête du compte rendu du forum",
               "with APPROVE: a free text that heads the forum post")),
    Syntax("PREVIEW", Msg("APERÇU", "PREVIEW"), Msg("Aperçu", "Preview"),
           Msg("l'étape en cours résolue pour voir, avec les ordres reçus et les défauts : rien n'est enregistré ni envoyé",
               "the open step resolved to look, with the orders in and the defaults: nothing is stored or sent")),
    Syntax("ABSENCE", Msg("ABSENCE <joueur> du <date> au <date> | ANNULER", "ABSENCE <player> from <date> to <date> | CANCEL"),
           Msg("Absence Bran du 8 au 16 février", "Absence Bran from 8 to 16 February"),
           Msg("déclarer l'absence d'un joueur (il peut aussi l'écrire lui-même)",
               "declare a player's absence (they may also write it themselves)")),
    Syntax("REGISTER", Msg("INSCRIS <nom> <adresse>", "REGISTER <name> <address>"),
           Msg("Inscris Jeanne Dupont <jeanne@example.org>", "Register Jane Doe <jane@example.org>"),
           Msg("inscrire un joueur pendant les inscriptions (ou, en réponse au courriel d'un inconnu que vous faites "
               "suivre : « inscris-le »)", "register a player while registration is open (or, forwarding a "
               "stranger's mail: 'register him')")),
    Syntax("FINISH", Msg("FIN DE PARTIE", "END THE GAME"), Msg("Fin de partie", "End the game"),
           Msg("terminer la partie : plus rien ne se résout, la graine des dés est révélée",
               "end the game: nothing more is resolved, the dice seed is revealed")),
    Syntax("CONFIRM", Msg("OUI (en réponse à notre demande de confirmation)", "YES (answering our confirmation)"),
           Msg("Oui", "Yes"),
           Msg("faire ce que notre réponse a compris et demandé de confirmer (avec son code pour une commande qui "
               "retire, remplace, republie, renvoie des résultats ou termine la partie)",
               "do what our answer understood and asked you to confirm (with its code for a command that removes, "
               "replaces, publishes again, resends results or ends the game)")),
    Syntax("HELP", Msg("AIDE", "HELP"), Msg("Aide", "Help"), Msg("cette liste", "this list")),
)
BY_KIND = {c.kind: c for c in COMMANDS}
BY_READER = {**BY_KIND, "EARLIER": BY_KIND["EXTEND"], "DEADLINE": BY_KIND["EXTEND"]}
"""The syntax shown with a refusal, by the reader's command."""

HEADS = {
    "prolonge": "EXTEND", "prolonger": "EXTEND", "prolongation": "EXTEND", "repousse": "EXTEND", "rallonge": "EXTEND",
    "avance": "EXTEND", "extend": "EXTEND", "pause": "PAUSE", "suspends": "PAUSE", "reprise": "RESUME",
    "reprends": "RESUME", "resume": "RESUME", "manque": "MISSING", "manquants": "MISSING", "retardataires": "MISSING",
    "renvoie": "RESEND", "resend": "RESEND", "corrige": "CORRECT", "correction": "CORRECT", "recalcule": "RERUN",
    "republie": "RERUN", "rerun": "RERUN", "retire": "REMOVE", "remove": "REMOVE", "remplace": "REPLACE",
    "replace": "REPLACE", "approuve": "APPROVE", "approve": "APPROVE", "valide": "APPROVE", "chronique": "CHRONICLE",
    "chronicle": "CHRONICLE", "apercu": "PREVIEW", "preview": "PREVIEW", "absence": "ABSENCE", "inscris": "REGISTER",
    "register": "REGISTER", "aide": "HELP", "help": "HELP",
}
"""The first words of the commands, for a misspelt one."""


def closest(line: str) -> Syntax | None:
    """The MJ command whose word is nearest the line's first word (a typo: « prolnge »), if any is near."""
    tok = when.tokens(line[:MAX_LINE_CHARS])  # (only its first word counts)
    if not tok or len(tok[0]) < 4:
        return None
    near = difflib.get_close_matches(tok[0][:20], list(HEADS), n=1, cutoff=0.75)
    return BY_KIND[HEADS[near[0]]] if near else None
