"""What the `pbem` command prints, in the configured language (French unless ``pbem.language = "en"``).

One catalogue of messages (`MESSAGES`, French and English), dates in the game's time zone said as
the MJ reads them (« mercredi 2 décembre 2026 à 20 h »), and `UserError`, the one-line answer to a
mistake of the user (« Erreur : partie inconnue « pmb9 » … »), never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem import ticktext
from pbem.clock import parse_iso
from pbem.core import Msg
from pbem.msg import PbemError
from pbem.wording import plural

if TYPE_CHECKING:
    from pbem.store import Pruned

MESSAGES: dict[str, Msg] = {
    "registration_open": Msg("{game} : inscriptions ouvertes jusqu'au {until}",
                             "{game}: registration open until {until}"),
    "commitment": Msg("empreinte de la graine (à publier) : sha256 {commitment}",
                      "seed commitment (publish it): sha256 {commitment}"),
    "started": Msg("{game} : partie commencée, étape {turn}, date limite {deadline}",
                   "{game}: started, step {turn}, deadline {deadline}"),
    "confirm_finish": Msg("Terminer {game} maintenant ? Plus rien ne sera résolu", "End {game} now? Nothing more will be resolved"),
    "finished": Msg("{game} : partie terminée ; graine {seed} (publiez-la : chacun peut vérifier chaque jet avec "
                    "pbem verify)", "{game}: finished; seed {seed} (publish it: anyone can check every roll with "
                    "pbem verify)"),
    "status_head": Msg("partie {game} ({ruleset}) : {standing}", "game {game} ({ruleset}): {standing}"),
    "status_deadline": Msg("date limite : {deadline}{early}", "deadline: {deadline}{early}"),
    "status_early": Msg(" (résolution anticipée : {early})", " (early: {early})"),
    "status_commitment": Msg("empreinte de la graine : {commitment}", "seed commitment: {commitment}"),
    "status_players": Msg("joueurs : {players}", "players: {players}"),
    "status_orders": Msg("ordres reçus : {done} sur {asked}", "orders in: {done}/{asked}"),
    "status_waiting": Msg("on attend : {names}", "waiting for: {names}"),
    "status_paused": Msg("en pause {until}{frozen}", "paused {until}{frozen}"),
    "status_frozen": Msg(" : la date limite sera fixée à la reprise", ": the deadline will be set when play resumes"),
    "status_pause_planned": Msg("pause prévue {period}", "pause planned {period}"),
    "status_held": Msg("résultats {of} {turn} en attente de votre approbation (pbem turn publish {game})",
                       "results of {step} {turn} wait for your approval (pbem turn publish {game})"),
    "status_dead": Msg("morts : {names}", "dead: {names}"),
    "standing_running": Msg("en cours, {step} {turn}", "running, {step} {turn}"),
    "standing_finished_at": Msg("terminée {to} {turn}", "finished at {step} {turn}"),
    "list_line": Msg("{game} [{tag}] {title} : {standing}", "{game} [{tag}] {title}: {standing}"),
    "player_playing": Msg("en jeu", "playing"),
    "player_dead": Msg("mort", "dead"),
    "player_dead_f": Msg("morte", "dead"),
    "player_dead_n": Msg("a perdu la vie", "dead"),
    "player_removed": Msg("retiré de la partie", "removed"),
    "player_removed_f": Msg("retirée de la partie", "removed"),
    "player_removed_n": Msg("a quitté la partie", "removed"),
    "phase_registration": Msg("inscriptions", "registration"),
    "phase_running": Msg("en cours", "running"),
    "phase_finished": Msg("terminée", "finished"),
    "list_not_created": Msg("pas créée (pbem game new {game})", "not created (pbem game new {game})"),
    "list_state": Msg("{phase}, étape {turn}", "{phase}, step {turn}"),
    "deadline_now": Msg("{game} : date limite désormais {deadline}", "{game}: deadline now {deadline}"),
    "hours_or_until": Msg("donnez --hours ou --until", "give --hours or --until"),
    "password_mailed": Msg("un mot de passe est créé pour cette place et part par courriel à {address}\u00a0; pbem "
                           "ne l'affiche pas",
                           "a password is made for this seat and goes by mail to {address}; pbem does not show it"),
    "resent": Msg("{game}\u00a0: résultats de {name} renvoyés («\u00a0{subject}\u00a0»)",
                  "{game}: {name}'s results sent again (\"{subject}\")"),
    "queued": Msg("{mails} en file d'envoi (le prochain pbem tick les envoie)\u00a0: {to}",
                  "{mails} queued (the next pbem tick sends them): {to}"),
    "queued_one": Msg("1 courriel en file d'envoi (le prochain pbem tick l'envoie)\u00a0: {to}",
                      "1 mail queued (the next pbem tick sends it): {to}"),
    "nicknamed": Msg("{game} : {name} peut aussi s'appeler {nicknames} dans vos courriels (pbem vous demandera "
                     "de confirmer)", "{game}: {name} may also be called {nicknames} in your mail (pbem asks you to "
                     "confirm)"),
    "nicknames_cleared": Msg("{game} : {name} n'a plus de surnom", "{game}: {name} has no nickname any more"),
    "registered": Msg("{game} : inscription de {name} <{address}> enregistrée", "{game}: {name} <{address}> registered"),
    "removed": Msg("{game} : {name} quitte la partie{detail} ; un courriel l'en avertit",
                   "{game}: {name} removed{detail}; they are told by mail"),
    "removed_at_end": Msg(" à la fin de l'étape {turn} (ses ordres de l'étape comptent)",
                          " at the end of step {turn} (their orders for it count)"),
    "replaced": Msg("{game} : la place de {name} est désormais tenue depuis {address}{detail}",
                    "{game}: {name} now played from {address}{detail}"),
    "replaced_later": Msg(" à partir de l'étape {turn}", " from step {turn}"),
    "resolved": Msg("{game} : étape {turn} résolue", "{game}: step {turn} resolved"),
    "not_resolved": Msg("{game} : étape {turn} non résolue (déjà faite, ou rien à résoudre)",
                        "{game}: step {turn} not resolved (already done, or nothing to resolve)"),
    "rerun_same": Msg("étape {turn} : nouveau calcul identique à ce qui a été publié",
                      "turn {turn}: re-run identical to what was published"),
    "rerun_state": Msg("étape {turn} : mêmes événements, l'état après diffère",
                       "turn {turn}: events identical, state after differs"),
    "rerun_published": Msg("publié en RECTIFICATIF", "published as RECTIFICATIF"),
    "rerun_not_published": Msg("non publié (ajoutez --publish)", "not published (add --publish)"),
    "orders_unchanged": Msg("ordres inchangés", "orders not changed"),

    "game_or_file": Msg("donnez GAME_ID ou --file", "give GAME_ID or --file"),
    "folder_ready": Msg("Dossier de jeu prêt : cd {folder} && pbem doctor (puis lisez LISEZMOI.md)",
                        "Game folder ready: cd {folder} && pbem doctor (then read LISEZMOI.md)"),
    "json_or_csv": Msg("dites le format\u00a0: --json (tout) ou --csv (le tableau du MJ)",
                       "say the format: --json (everything) or --csv (the MJ's spreadsheet)"),
    "csv_alone": Msg("--csv est le tableau du MJ\u00a0: ni --public ni --with-seed avec lui",
                     "--csv is the MJ's spreadsheet: neither --public nor --with-seed with it"),
    "exported_csv": Msg("Tableau de {game} écrit. Il donne les rôles\u00a0: pour le MJ seul, ne le partagez pas.",
                        "{game}'s spreadsheet written. It shows the roles: for the MJ alone, do not share it."),
    "tick_busy": Msg("pbem tick\u00a0: {holder} travaille déjà sur ces données\u00a0; cette passe s'efface",
                     "pbem tick: {holder} is already working on this data; this pass steps aside"),
    "tick_stuck": Msg("pbem tick\u00a0: {holder} tient les données et semble bloqué\u00a0; cette passe s'efface",
                      "pbem tick: {holder} holds the data and looks stuck; this pass steps aside"),
    "calendar_written": Msg("Calendrier écrit\u00a0: {file} ({events})", "Calendar written: {file} ({events})"),
    "units_written": Msg("Unités écrites (chacune dit comment l'installer\u00a0; pbem doctor vérifie qu'elles "
                         "peuvent marcher). Avec cron plutôt, cette ligne dans crontab -e\u00a0:\n{cron}",
                         "Units written (each says how to install it; pbem doctor checks they can work). With cron "
                         "instead, this line in crontab -e:\n{cron}"),
    "overridden": Msg("(* = remplacé dans {folder})", "(* = overridden in {folder})"),
    "no_templates": Msg("(pas de dossier templates/ à côté de config.toml)", "(no templates/ folder beside config.toml)"),
    "template_copied": Msg("{target} : modifiez-le ; pbem doctor vérifie qu'il se compile",
                           "{target}: edit it; pbem doctor checks that it compiles"),
    "paused": Msg("{game} : {news}", "{game}: {news}"),
    "published": Msg("{game} : {news}", "{game}: {news}"),
    "absence": Msg("{game} : {news}", "{game}: {news}"),
    "bad_date": Msg("{option} : {why}", "{option}: {why}"),
    "bad_now": Msg("--now : une date ISO comme 2026-12-01T21:00 est attendue, pas « {value} »",
                   "--now: expected an ISO date-time like 2026-12-01T21:00, got {value!r}"),
    "unknown_game": Msg("partie inconnue « {game} » (parties de config.toml : {games})",
                        "unknown game {game!r} (games in config.toml: {games})"),
    "status_missed": Msg("sans ordres depuis : {names}", "no orders for: {names}"),
    "missed_one": Msg("{name} ({steps}{abandoned})", "{name} ({steps}{abandoned})"),
    "missed_abandoned": Msg(", abandon : plus attendu", ", abandoned: no longer waited for"),
    "left_alone": Msg("{stored} : laissé tel quel : {why}", "{stored}: left as it is: {why}"),
    "archived": Msg("{made} dans {folder} ; ouvrez {index}", "{made} in {folder}; open {index}"),
    "public_with_seed": Msg("--public et --with-seed ne vont pas ensemble\u00a0: l'export public porte la graine "
                            "une fois révélée, et seulement alors",
                            "--public and --with-seed do not go together: the public export carries the seed once "
                            "revealed, and only then"),
    "exported_public": Msg("export public de {game}\u00a0: l'empreinte, la graine révélée et {rolls} ({records})\u00a0; "
                           "ni adresse, ni état, ni ordre, ni événement",
                           "public export of {game}: the commitment, the revealed seed and {rolls} ({records}); no "
                           "address, state, order or event"),
    "archive_replaced": Msg("l'archive écrite là avant ({files}) est remplacée",
                            "the archive written there before ({files}) is replaced"),
    "archive_kept_one": Msg("1 fichier que pbem n'a pas écrit y reste tel quel",
                            "1 file that pbem did not write stays there as it was"),
    "archive_kept": Msg("{n} fichiers que pbem n'a pas écrits y restent tels quels",
                        "{n} files that pbem did not write stay there as they were"),
    "archive_unverified": Msg("la vérification des dés a trouvé des problèmes : voyez verification.html",
                              "the dice verification found problems: see verification.html"),
    "busy": Msg("{what} (pid {pid}, depuis {held}) travaille sur ces données : réessayez dans un instant "
                "(verrou : {lock})",
                "{what} (pid {pid}, running for {held}) is working on this data: try again in a moment (lock: {lock})"),
    "busy_unknown": Msg("une autre passe travaille sur ces données : réessayez dans un instant (verrou : {lock})",
                        "another pass is working on this data: try again in a moment (lock: {lock})"),
    "ok": Msg("ok", "ok"),
    "fail": Msg("ÉCHEC", "FAIL"),
    "caution": Msg("attention", "warning"),
}


PLURALS: dict[str, tuple[Msg, Msg]] = {
    "queued_again": (Msg("{n} courriel remis en file", "{n} mail queued again"),
                     Msg("{n} courriels remis en file", "{n} mails queued again")),
    "mail_again": (Msg("{n} courriel sera traité à nouveau", "{n} mail will be processed again"),
                   Msg("{n} courriels seront traités à nouveau", "{n} mails will be processed again")),
    "problems": (Msg("{n} problème", "{n} problem"), Msg("{n} problèmes", "{n} problems")),
}
"""Messages with a number: the singular for 0 and 1 (« 0 courriel remis en file »), the plural above."""


def pruned_lines(pruned: Pruned, keep_days: int, before: datetime, lang: str, *, dry: bool) -> list[str]:
    """What `pbem gc` says: the cut-off, then one line per fact (mails in, mails sent, bytes)."""
    fr = lang != "en"
    size = f"{pruned.bytes:,}".replace(",", "\u202f" if fr else ",")
    if not fr:
        mood = "would be pruned" if dry else "pruned"
        return [f"Cut-off: {keep_days} days (mail from before {when(before, lang)})",
                f"{pruned.mails} processed inbound mail{'' if pruned.mails == 1 else 's'} {mood} of their bytes",
                f"{pruned.sent} sent mail{'' if pruned.sent == 1 else 's'} {mood} of their body",
                f"{size} byte{'' if pruned.bytes == 1 else 's'} {'would be ' if dry else ''}freed in the database"]

    def emptied(n: int, what_one: str, what_many: str) -> str:
        one = n in (0, 1)
        verb = ("serait vidé" if one else "seraient vidés") if dry else ("vidé" if one else "vidés")
        return f"{n} {what_one if one else what_many} {verb} de {'son' if one else 'leur'} contenu"

    one_byte = pruned.bytes in (0, 1)
    freed = ("serait libéré" if one_byte else "seraient libérés") if dry else ("libéré" if one_byte else "libérés")
    return [f"Seuil\u00a0: {keep_days}\u00a0jours (le courrier d'avant le {when(before, lang)})",
            emptied(pruned.mails, "courriel reçu déjà traité", "courriels reçus déjà traités"),
            emptied(pruned.sent, "courriel envoyé", "courriels envoyés"),
            f"{size} {'octet' if one_byte else 'octets'} {freed} dans la base"]


def file_size_line(before: int, after: int | None, lang: str) -> str:
    """`pbem gc`'s last line: the file compacted (``after``), or why it keeps its size."""
    fr = lang != "en"
    def n(x: int) -> str:
        return f"{x:,}".replace(",", "\u202f" if fr else ",")
    if after is None:
        return ("Le fichier garde sa taille\u00a0: la place libérée servira au courrier à venir "
                "(pbem gc --vacuum la rend au disque)" if fr else
                "The file keeps its size: the space freed holds the mail to come (pbem gc --vacuum gives it back)")
    return (f"Base compactée\u00a0: {n(before)} → {n(after)}\u00a0octets" if fr else
            f"Database compacted: {n(before)} → {n(after)} bytes")


def count(lang: str, key: str, n: int) -> str:
    """A message with a number, agreed with it."""
    one, many = PLURALS[key]
    singular = n in (0, 1) if lang != "en" else n == 1  # (English: « 0 mails »)
    return (one if singular else many).get(lang).format(n=n)


def say(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, with its parameters."""
    return MESSAGES[key].get(lang).format(**params)


def when(dt: datetime | None, lang: str) -> str:
    """A local time for the MJ's terminal, as he reads it: « mercredi 2 décembre 2026 à 20 h »."""
    if dt is None:
        return "-"
    # the renderer (and Jinja under it) is loaded when a date is said, for speed: `pbem tick` says none
    # (issue #24); no circle is dodged, `pbem.render` never imports the CLI
    from pbem.render import date_en, date_fr

    return date_en(dt) if lang == "en" else date_fr(dt)


class UserError(PbemError):
    """A mistake of the user (unknown game, malformed date, bad option value): one line in his language,
    said by `pbem.cli.shell.CommandLine` as every `PbemError` is."""


def msg(key: str, **params: Any) -> Msg:
    """The message ``key`` in both languages, with its parameters."""
    m = MESSAGES[key]
    return Msg(m.fr.format(**params), m.en.format(**params))


def counted(key: str, n: int) -> Msg:
    """A message with a number (`count`) in both languages."""
    return Msg(count("fr", key, n), count("en", key, n))


_STATUS_FR = {"queued": "en file", "sent": "envoyé", "failed": "en échec", "bounced": "revenu"}
"""An outgoing mail's state as `pbem outbox list` shows it in French (``--status`` takes the English word)."""

def said_status(status: str, lang: str) -> str:
    return status if lang == "en" else _STATUS_FR.get(status, status)


_MAIL_STATUS_FR = {"new": "nouveau", "done": "traité", "error": "erreur"}


def said_mail_status(status: str, lang: str) -> str:
    """A stored mail's state as `pbem mail list` shows it (``--status`` takes the English word)."""
    return status if lang == "en" else _MAIL_STATUS_FR.get(status, status)



# the verdicts the store keeps for each mail (`pbem.engine.orders.intake`, English), as `pbem mail list` says them
_VERDICTS_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^ok \((?P<n>\d+) lines, (?P<e>\d+) errors(?P<late>, too late for step (?P<k>\d+))?\)$", "ok ({lines}, {errors}{late})"),
    (r"^duplicate$", "doublon"),
    (r"^no game$", "aucune partie"),
    (r"^game not created$", "partie pas encore créée"),
    (r"^rate-limited, orders kept, no reply$", "trop de courriels\u00a0: ordres gardés, pas de réponse"),
    (r"^refused: (?P<n>\d+) lines \(at most (?P<m>\d+)\)$", "refusé\u00a0: {n}\u00a0lignes (au plus {m})"),
    (r"^stranger: told how to join$", "inconnu\u00a0: informé de comment s'inscrire"),
    (r"^stranger: already told how to join today$", "inconnu\u00a0: déjà informé aujourd'hui"),
    (r"^stranger: rate-limited, no reply$", "inconnu\u00a0: trop de courriels, pas de réponse"),
    (r"^silent: no sender address$", "sans réponse\u00a0: pas d'adresse d'expéditeur"),
    (r"^silent: (?P<why>.*)$", "sans réponse\u00a0: {why}"),
    (r"^no game: plays in (?P<games>.*), asked which$", "aucune partie\u00a0: joue dans {games}, on lui demande laquelle"),
    (r"^not in this game: plays in (?P<games>.*), asked which$",
     "pas dans cette partie\u00a0: joue dans {games}, on lui demande laquelle"),
    (r"^duplicate: the same text as (?P<key>\S+), received (?P<at>\S+); not read again$",
     "doublon\u00a0: le même texte que {key}, reçu le {at}\u00a0; pas relu"),
    (r"^rejected: authentication failed \(password, (?P<f>\d+) wrong\)$",
     "refusé\u00a0: mot de passe faux ({misses} d'affilée)"),
    (r"^rejected: (?P<f>\d+) wrong passwords, not read before (?P<until>\S+)$",
     "refusé\u00a0: {failures} d'affilée, rien n'est lu de cette adresse avant {until}"),
    (r"^rejected: no password set yet$", "refusé\u00a0: pas encore de mot de passe"),
    (r"^rejected: authentication failed \((?P<why>.*)\)$", "refusé\u00a0: authentification en échec ({why})"),
    (r"^error: (?P<why>.*)$", "erreur\u00a0: {why}"),
    (r"^unreadable: (?P<why>.*)$", "illisible\u00a0: {why}"),
))


# why a mail got no answer, or could not be read (`pbem.mail.senders`, `pbem.mail.reading`, the bounce reader):
# each part of a reason said in French; what the remote server or a header wrote is kept as it is
_REASONS_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^own: X-PBEM header$", "le nôtre\u00a0: en-tête X-PBEM"),
    (r"^own: sent from our address$", "le nôtre\u00a0: envoyé de notre adresse"),
    (r"^bounce: empty Return-Path$", "rebond\u00a0: Return-Path vide"),
    (r"^bounce: mail delivery system$", "rebond\u00a0: système de distribution du courrier"),
    (r"^bounce: delivery failure subject$", "rebond\u00a0: objet d'un échec de distribution"),
    (r"^bounce: sent by (?P<x>.*)$", "rebond\u00a0: envoyé par {x}"),
    (r"^bounce: (?P<x>.*)$", "rebond\u00a0: {x}"),
    (r"^auto-reply: vacation subject$", "réponse automatique\u00a0: objet d'absence"),
    (r"^auto-reply: (?P<x>.*)$", "réponse automatique\u00a0: {x}"),
    (r"^list: (?P<x>.*)$", "liste de diffusion\u00a0: {x}"),
    (r"^bulk: marked as spam$", "envoi en nombre\u00a0: marqué comme indésirable"),
    (r"^bulk: sent from (?P<x>.*)$", "envoi en nombre\u00a0: envoyé depuis {x}"),
    (r"^bulk: sent by (?P<x>.*)$", "envoi en nombre\u00a0: envoyé par {x}"),
    (r"^bulk: (?P<x>.*)$", "envoi en nombre\u00a0: {x}"),
    (r"^delivery delayed, not reported$", "distribution retardée, non signalée"),
    (r"^names no mail we sent$", "ne nomme aucun courriel de notre part"),
    (r"^no text part$", "pas de partie texte"),
    (r"^empty message$", "message vide"),
    (r"^no From address$", "pas d'adresse From"),
    (r"^text truncated$", "texte tronqué"),
    (r"^undecodable part: (?P<x>.*)$", "partie indéchiffrable\u00a0: {x}"),
    (r"^unreadable message: (?P<x>.*)$", "message illisible\u00a0: {x}"),
    (r"^charset (?P<x>.*) unusable, decoded as UTF-8/cp1252$", "jeu de caractères {x} inutilisable, lu en UTF-8/cp1252"),
    (r"^too big: headers of more than (?P<n>\d+) bytes, the body not read$",
     "trop gros\u00a0: des en-têtes de plus de {n}\u00a0octets, le corps non lu"),
    (r"^too big: (?P<n>\d+) bytes, the first (?P<m>\d+) read$", "trop gros\u00a0: {n}\u00a0octets, les {m} premiers lus"),
    (r"^too complex: (?P<n>\d+) multipart boundaries \(at most (?P<m>\d+)\), the body not read$",
     "trop complexe\u00a0: {n}\u00a0séparateurs multipart (au plus {m}), le corps non lu"),
    (r"^too complex: (?P<n>\d+) delimiter lines \(at most (?P<m>\d+)\), the body not read$",
     "trop complexe\u00a0: {n}\u00a0lignes de séparation (au plus {m}), le corps non lu"),
))


def _said_reason(why: str) -> str:
    """A reason of ``silent: …`` or ``unreadable: …`` in French, part by part (parts are joined by « ; »).  A
    bounce names the mails that came back (``returned: ID to ADDRESS, …``), then why, in the words of
    `pbem.mail.bounces.Bounce.summary` with the remote server's reply, which is quoted as it is."""
    out = []
    parts = why.split("; ")
    for i, part in enumerate(parts):
        if part.startswith("stranger, "):  # (a stranger's mail, and why it got no answer)
            out.append("inconnu, " + _said_reason(part.removeprefix("stranger, ")))
            continue
        if part.startswith("returned: "):
            back = part.removeprefix("returned: ")
            out.append(("courriels revenus" if ", " in back else "courriel revenu") + "\u00a0: " + back.replace(" to ", " à "))
            out.append(ticktext.said("; ".join(parts[i + 1:]), "fr"))
            break
        for pattern, french in _REASONS_FR:
            m = pattern.match(part)
            if m:
                part = french.format(**m.groupdict())
                break
        out.append(part)
    return "\u00a0; ".join(out)


# a time as the store writes it in a verdict (`pbem.serial.iso`): UTC, to the second or finer
_ISO_TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:[+-]\d\d:\d\d|Z)?")


def said_verdict(verdict: str, lang: str, local: Callable[[datetime], datetime | None] | None = None) -> str:
    """A stored mail's verdict in ``lang`` (a shape not known here is shown as it is), its times in the game's
    zone when ``local`` says them there (as `pbem mail list` shows when each mail came)."""
    said = _said_verdict(verdict, lang)
    return said if local is None else _ISO_TIME.sub(lambda m: _local_time(m.group(), local), said)


def _said_verdict(verdict: str, lang: str) -> str:
    if lang == "en":
        return verdict
    for pattern, french in _VERDICTS_FR:
        m = pattern.match(verdict)
        if m:
            v = m.groupdict()
            v["late"] = f", trop tard pour l'étape {v['k']}" if v.get("late") else ""
            if "why" in v and (verdict.startswith("silent: ") or verdict.startswith("unreadable: ")):
                v["why"] = _said_reason(v["why"])
            return french.format(**v, misses=plural(int(v.get("f") or 0), "échec", lang="fr"),
                                 failures=plural(int(v.get("f") or 0), "mot de passe faux", "mots de passe faux",
                                                      lang="fr"),
                                 lines=plural(int(v.get("n") or 0), "ligne", lang="fr"),
                                 errors=plural(int(v.get("e") or 0), "erreur", lang="fr"))
    return verdict


def _local_time(stamp: str, local: Callable[[datetime], datetime | None]) -> str:
    try:
        moment = local(parse_iso(stamp))  # (a time without its offset is UTC, as the store writes every time)
    except ValueError:  # (not a time after all: shown as it is)
        return stamp
    return stamp if moment is None else f"{moment:%Y-%m-%d %H:%M}"
