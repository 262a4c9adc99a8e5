"""What a pass did, said in the MJ's language: `pbem tick`'s summary and lines, the daemon's log lines.

The engine says what fired as short English lines (``pmb1: turn 3 resolved``: `pbem.engine.schedule.due`,
which the tests and the daemon's error check read); this module says them to the MJ.  A line of a shape
it does not know is shown as it is.  Every pattern is anchored and linear.
"""

from __future__ import annotations

import errno
import logging
import re
from collections.abc import Callable

from pbem.msg import PbemError
from pbem.wording import plural

_NB = "\u00a0"

# the shapes of `schedule.due`'s lines (and the pass's own errors), in French
_FIRED_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^(?P<g>[^:]+): turn (?P<n>\d+) resolved$", "{g}\u00a0: étape {n} résolue"),
    (r"^(?P<g>[^:]+): started$", "{g}\u00a0: partie commencée"),
    (r"^(?P<g>[^:]+): (?P<n>\d+) reminders$", "{g}\u00a0: {reminders}"),
    (r"^(?P<g>[^:]+): (?P<n>\d+) grace notices$", "{g}\u00a0: {graces}"),
    (r"^(?P<g>[^:]+): deadline held for an absent player$", "{g}\u00a0: date limite retenue pour un joueur absent"),
    (r"^(?P<g>[^:]+): registration extended \((?P<why>.*)\)$", "{g}\u00a0: inscriptions prolongées ({why})"),
    (r"^(?P<g>[^:]+): the MJ reminded that turn (?P<n>\d+) waits for approval$",
     "{g}\u00a0: rappel au MJ\u00a0: l'étape {n} attend son approbation"),
    (r"^(?P<g>[^:]+): ERROR (?P<why>.*)$", "{g}\u00a0: ERREUR {why}"),
    (r"^(?P<g>[^:]+): archive refreshed$", "{g}\u00a0: archives mises à jour"),
    (r"^(?P<g>[^:]+): calendar written$", "{g}\u00a0: calendrier mis à jour"),
    (r"^calendar (?P<g>[^:]+): (?P<why>.*)$", "calendrier de {g}\u00a0: {why}"),
    (r"^archive (?P<g>[^:]+): (?P<why>.*)$", "archives de {g}\u00a0: {why}"),
    (r"^resolution failed: (?P<why>.*)$", "résolution en échec\u00a0: {why}"),
    (r"^fetch failed: (?P<why>.*)$", "relève du courrier en échec\u00a0: {why}"),
    (r"^processing mail failed: (?P<why>.*)$", "traitement du courrier en échec\u00a0: {why}"),
    (r"^marking processed mail failed: (?P<why>.*)$",
     "le courrier traité n'a pas pu être marqué comme lu\u00a0: {why}"),
    (r"^(?P<n>\d+) mail\(s\) could not be processed \(pbem mail list --status error\)$",
     "{unprocessed} (pbem mail list --status error)"),
    (r"^firing deadlines failed: (?P<why>.*)$", "dates limites en échec\u00a0: {why}"),
    (r"^forum (?P<g>[^:]+): (?P<why>.*)$", "forum de {g}\u00a0: {why}"),
    (r"^mail failed: (?P<why>.*)$", "courriel en échec\u00a0: {why}"),
    (r"^sending blocked, fix the configuration: (?P<why>.*)$",
     "envoi bloqué, corrigez la configuration\u00a0: {why}"),
    # why the sending stopped, why a mail failed or waits (`pbem.outbox.sending`, `pbem.mail.transport`); the
    # server's own reply (« 550 5.1.1 unknown user ») and the system's error are quoted as they are
    (r"^SMTP server unavailable: (?P<why>.*)$", "serveur SMTP indisponible\u00a0: {why}"),
    (r"^send budget of (?P<s>[\d.]+) s used$", "temps d'envoi de la passe épuisé ({s}\u00a0s)"),
    (r"^not sent within (?P<sn>[\d.]+) (?P<su>days?|hours?)$", "pas envoyé en {span}"),
    (r"^not sent within (?P<sn>[\d.]+) (?P<su>days?|hours?): (?P<why>.*)$", "pas envoyé en {span}\u00a0: {why}"),
    (r"^waiting for the SMTP server to answer again$", "en attente du serveur SMTP"),
    (r"^waiting for the SMTP server: (?P<why>.*)$", "en attente du serveur SMTP\u00a0: {why}"),
    (r"^internal error: (?P<why>.*)$", "erreur interne\u00a0: {why}"),
    (r"^no recipients$", "aucun destinataire"),
    (r"^cannot write to Maildir (?P<p>.+?): (?P<why>.*)$", "impossible d'écrire dans le Maildir {p}\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): no answer within (?P<s>[\d.]+) s$", "{w}\u00a0: pas de réponse en {s}\u00a0s"),
    (r"^(?P<w>SMTP \S+): connection lost while sending: (?P<why>.*)$",
     "{w}\u00a0: connexion perdue pendant l'envoi\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): login refused for (?P<u>\S+): (?P<why>.*)$", "{w}\u00a0: identifiant {u} refusé\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): login failed temporarily: (?P<why>.*)$",
     "{w}\u00a0: connexion refusée pour l'instant\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): credentials unavailable: (?P<why>.*)$", "{w}\u00a0: identifiants indisponibles\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): TLS certificate rejected: (?P<why>.*)$", "{w}\u00a0: certificat TLS refusé\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): recipients refused: (?P<why>.*)$", "{w}\u00a0: destinataires refusés\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+): (?P<what>connect|send|starttls|login): server does not support it: (?P<why>.*)$",
     "{w}, {doing}\u00a0: le serveur ne le permet pas\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+) (?P<what>connect|send) (?P<why>cannot be encoded for SMTP: .*)$",
     "{w}, {doing}\u00a0: courriel impossible à coder pour SMTP\u00a0: {why}"),
    (r"^(?P<w>SMTP \S+) does not offer SMTPUTF8, and its headers are not ASCII: .*$",
     "{w} n'accepte pas SMTPUTF8 et les en-têtes de ce courriel ne sont pas en ASCII\u00a0: il ne peut pas passer "
     "par ce serveur"),
    (r"^(?P<w>SMTP \S+) does not offer SMTPUTF8, and the address (?P<a>\S+) is not ASCII: .*$",
     "{w} n'accepte pas SMTPUTF8 et l'adresse {a} n'est pas en ASCII\u00a0: ce courriel ne peut pas passer par ce "
     "serveur (le joueur doit s'inscrire avec une adresse ASCII)"),
    (r"^(?P<w>SMTP \S+) (?P<what>connect|send): (?P<why>.*)$", "{w}, {doing}\u00a0: {why}"),
    (r"^(?P<reply>\d{3} .*) \((?P<w>SMTP \S+) (?P<what>connect|send)\)$", "{reply} ({w}, {doing})"),
    (r"^IMAP (?P<w>\S+) (?P<what>connect|search|fetch|idle|(?:select|move to) (?:'[^']*'|\"[^\"]*\")) failed: (?P<why>.*)$",
     "IMAP {w}, {doing}\u00a0: {why}"),
    (r"^IMAP login refused for (?P<w>\S+): (?P<why>.*)$", "IMAP {w}\u00a0: identifiant refusé\u00a0: «\u00a0{why}\u00a0»"),
    (r"^IMAP (?P<w>\S+): no credentials: (?P<why>.*)$", "IMAP {w}\u00a0: identifiants indisponibles\u00a0: {why}"),
    (r"^IMAP (?P<w>\S+): TLS certificate rejected: (?P<why>.*)$", "IMAP {w}\u00a0: certificat TLS refusé\u00a0: {why}"),
    (r"^IMAP (?P<w>\S+): cannot open (?P<f>'[^']*'|\"[^\"]*\"): (?P<why>.*)$",
     "IMAP {w}\u00a0: impossible d'ouvrir le dossier {folder}\u00a0: «\u00a0{why}\u00a0»"),
    (r"^IMAP (?P<w>\S+): cannot read the newest mails: (?P<why>.*)$",
     "IMAP {w}\u00a0: impossible de lire les derniers courriels\u00a0: «\u00a0{why}\u00a0»"),
    (r"^UID FETCH failed: (?P<why>.*)$", "la commande UID FETCH a échoué\u00a0: {why}"),
    # the daemon's log lines (`pbem.cli` says every log record through `SaidFormatter`)
    (r"^IMAP (?P<w>\S+): connection lost \((?P<why>.*)\), reconnecting$",
     "IMAP {w}\u00a0: connexion perdue ({why}), reconnexion"),
    (r"^IMAP (?P<w>\S+): unreadable cursor (?P<v>.*), rescanning the folder$",
     "IMAP {w}\u00a0: curseur illisible {v}, le dossier est relu en entier"),
    (r"^IMAP (?P<w>\S+): UIDVALIDITY changed (?P<a>\d+) -> (?P<b>\d+), rescanning the folder from UID 1$",
     "IMAP {w}\u00a0: UIDVALIDITY a changé ({a} → {b}), le dossier est relu depuis l'UID\u00a01"),
    (r"^processing message (?P<k>\S+) failed$", "traitement du courriel {k} en échec"),
    (r"^game (?P<g>\S+): closing the step before a late mail failed$",
     "partie {g}\u00a0: la clôture de l'étape avant un courriel en retard a échoué"),
    (r"^game (?P<g>\S+): firing due work failed$",
     "partie {g}\u00a0: échec des échéances (dates limites, rappels)"),
    (r"^the picture of (?P<g>\S+) \((?P<t>.*)\) could not be drawn; the forum post goes without it$",
     "l'image de {g} ({t}) n'a pas pu être dessinée\u00a0; le message du forum part sans elle"),
    (r"^sending mail (?P<k>\S+) failed$", "envoi du courriel {k} en échec"),
    # why a mail came back (`pbem.mail.bounces.Bounce.summary`): the remote server's own words are quoted
    (r"^(?P<st>\d\.\d{1,3}\.\d{1,3} )?(?P<kind>no such address|mailbox full|undeliverable): (?P<x>.*)$",
     "{st}{bounce}\u00a0; le serveur distant a répondu\u00a0: «\u00a0{x}\u00a0»"),
    (r"^(?P<st>\d\.\d{1,3}\.\d{1,3} )?(?P<kind>no such address|mailbox full|undeliverable)$", "{st}{bounce}"),
    (r"^OSError: \[Errno (?P<eno>\d+)\] (?P<why>.*)$", "{errno} («\u00a0{why}\u00a0»)"),
    (r"^(?P<cls>ConnectionRefusedError|TimeoutError|timeout|gaierror|SSLCertVerificationError|ConnectionResetError"
     r"|SSLError|EOFError|abort|error|OSError): (?P<why>.*)$", "{oserr} («\u00a0{why}\u00a0»)"),
    (r"^(?P<a>[^\s:@]+@[^\s:]+): (?P<why>.*)$", "{a}\u00a0: {why}"),  # (one recipient's failure)
))
_DOING_FR = {"connect": "connexion", "send": "envoi", "starttls": "STARTTLS", "login": "identification",
             "search": "recherche", "fetch": "lecture", "idle": "attente (IDLE)"}
# an OS, socket or TLS error (by its class, as the fetch and send lines name it) in pbem's own French words
_OS_ERRORS_FR = {"ConnectionRefusedError": "connexion refusée", "TimeoutError": "délai dépassé",
                 "timeout": "délai dépassé", "gaierror": "nom d'hôte inconnu",
                 "SSLCertVerificationError": "certificat TLS refusé", "ConnectionResetError": "connexion coupée",
                 "SSLError": "erreur TLS", "EOFError": "connexion fermée par le serveur",
                 "abort": "connexion interrompue par le serveur", "error": "erreur IMAP",
                 "OSError": "erreur du système"}
# the system's errors that a fetch or a send meets, by number (other numbers: « erreur du système »)
_ERRNO_FR = {errno.ECONNREFUSED: "connexion refusée", errno.ETIMEDOUT: "délai dépassé",
             errno.EHOSTUNREACH: "aucune route vers le serveur",
             errno.ENETUNREACH: "réseau injoignable", errno.ECONNRESET: "connexion coupée",
             errno.ECONNABORTED: "connexion interrompue", errno.EPIPE: "connexion fermée par le serveur",
             errno.ENOSPC: "disque plein", errno.EACCES: "permission refusée", errno.EROFS: "disque en lecture seule"}
_BOUNCE_FR = {"no such address": "adresse inconnue", "mailbox full": "boîte pleine",
              "undeliverable": "impossible à distribuer"}


def _doing_fr(what: str) -> str:
    """What the connection was doing, in French: « lecture », « ouverture du dossier 'INBOX' »."""
    if what.startswith("select "):
        return f"ouverture du dossier {_folder(what.removeprefix('select '))}"
    if what.startswith("move to "):
        return f"déplacement vers {_folder(what.removeprefix('move to '))}"
    return _DOING_FR.get(what, what)


def _folder(shown: str) -> str:
    """A folder's name as Python showed it (``'Jeux'``), as French shows a name: « Jeux »."""
    if len(shown) >= 2 and shown[0] == shown[-1] and shown[0] in "'\"":
        shown = shown[1:-1]
    return f"«\u00a0{shown}\u00a0»"


def _span_fr(number: str, unit: str) -> str:
    """« 5 jours », « 1 jour », « 1,5 jour », « 12 heures » (singular below 2, decimals with a comma)."""
    value = float(number)
    noun = ("jour" if unit.startswith("day") else "heure") + ("s" if value >= 2 else "")
    return f"{number.replace('.', ',')} {noun}"


MAX_NESTING = 8
"""How many lines inside a line `said` reads (a server's reply could nest « a@b: » thousands of times)."""


def _count(text: str | None) -> int:
    return int(text) if text and len(text) <= 9 else 0  # (never a 5,000-digit number into int())


def said(line: str, lang: str, depth: int = 0) -> str:
    """One of the pass's lines in ``lang`` (English: as it is)."""
    if lang == "en" or depth > MAX_NESTING:
        return line
    for pattern, french in _FIRED_FR:
        m = pattern.match(line)
        if m:
            values = m.groupdict()
            if values.get("why"):  # (a failed resolution carries the engine's line: said too)
                values["why"] = said(values["why"], lang, depth + 1)
            n = _count(values.get("n"))
            values["st"] = values.get("st") or ""  # (a bounce's status, when the report gives one)
            return french.format(**values, span=_span_fr(values.get("sn") or "0", values.get("su") or "days"),
                                 doing=_doing_fr(values.get("what") or ""), folder=_folder(values.get("f") or ""),
                                 oserr=_OS_ERRORS_FR.get(values.get("cls") or "", ""),
                                 errno=_ERRNO_FR.get(_count(values.get("eno")), "erreur du système"),
                                 bounce=_BOUNCE_FR.get(values.get("kind") or "", ""),
                                 reminders=plural(n, "rappel", lang="fr"),
                                 graces=plural(n, "avis de délai de grâce", "avis de délai de grâce", lang="fr"),
                                 unprocessed=plural(n, "courriel n'a pas pu être traité",
                                                    "courriels n'ont pas pu être traités", lang="fr"))
    return line


def summary(fetched: int, processed: int, sent: tuple[int, int, int, str] | None, fired: list[str],
            errors: list[str], stopped_before: str | None, cleaned: int, lang: str) -> str:
    """« 2 relevés ; 2 traités ; 3 envoyés, 0 à réessayer, 0 en échec » (English: as it always read).
    ``sent``: sent, to retry, failed, why the sending stopped (or None when the pass did not send)."""
    if lang == "en":
        parts = [f"{fetched} fetched", f"{processed} processed"]
        if sent is None:
            parts.append("not sent")
        else:
            parts.append(f"{sent[0]} sent, {sent[1]} to retry, {sent[2]} failed"
                         + (f" (stopped: {sent[3]})" if sent[3] else ""))
        parts += [*fired, *errors]
        if stopped_before:
            parts.append(f"stopped before {stopped_before}")
        if cleaned:
            parts.append(f"{cleaned} half-written outbox {'file' if cleaned == 1 else 'files'} of a killed pass removed")
        return "; ".join(parts)
    parts = [f"{plural(fetched, 'courriel relevé', 'courriels relevés', lang='fr')}",
             f"{plural(processed, 'traité', lang='fr')}"]
    if sent is None:
        parts.append("rien envoyé")
    else:
        parts.append(f"{plural(sent[0], 'envoyé', lang='fr')}, {sent[1]} à réessayer, {sent[2]} en échec"
                     + (f" (arrêt{_NB}: {said(sent[3], lang)})" if sent[3] else ""))
    parts += [said(line, lang) for line in (*fired, *errors)]
    if stopped_before:
        parts.append(f"arrêtée avant{_NB}: {stopped_before}")
    if cleaned:
        parts.append(plural(cleaned, "fichier à moitié écrit", "fichiers à moitié écrits", lang="fr")
                     + " d'une passe tuée retiré" + ("s" if cleaned > 1 else "") + " de l'envoi")
    return f"{_NB}; ".join(parts)


def why(error: Exception, lang: str) -> str:
    """What went wrong: pbem's own error in the configured language, any other as it says it."""
    return error.text(lang) if isinstance(error, PbemError) else str(error)


def warned(log: logging.Logger, line: str, lang: str, *, trace: bool = False) -> str:
    """Log one of the pass's lines (in the English shapes above) in ``lang``, with the traceback when ``trace``
    (a bug); returns the line as it is, for the pass's report."""
    if trace:
        log.exception("%s", said(line, lang))
    else:
        log.warning("%s", said(line, lang))
    return line


class SaidFormatter(logging.Formatter):
    """A log handler's formatter that says each record's message in the configured language (`said`), so the
    daemon's and the library's English log lines reach a French MJ in French.  ``language`` is asked when a
    record is first written (a pass that logs nothing never reads the configuration for it)."""

    def __init__(self, fmt: str, language: Callable[[], str]) -> None:
        super().__init__(fmt)
        self._language = language

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        try:
            record.message = said(record.message, self._language())
        except Exception:  # (a log line is written as it came rather than not at all)
            pass
        return super().formatMessage(record)
