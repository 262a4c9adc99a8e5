"""Certain, or ask: the one way an MJ command waits for the MJ's OUI.

A command is asked, not carried out, when something in it was guessed (a pronoun, a loose name, a vague
date, two readings), and when it destroys or sends what cannot be taken back (a player removed or
replaced, a step published again, a player's results sent again, the game ended) and the mail does not
carry the MJ password.  Our answer to his mail says exactly what would be done (« J'ai compris : RETIRE
Bertrand à la fin du tour 4 ») and is itself the confirmation: it goes to the registered MJ address that
wrote (never to a Reply-To), and its Message-ID is stored with the commands.  A reply OUI (« oui,
vas-y », « ok ») carries out exactly those commands, once, if it

* comes from that same MJ address (authenticated as any MJ mail is),
* answers that mail of ours (its Message-ID in In-Reply-To or References),
* comes within `CONFIRM_WITHIN`, while the same step is open,
* and, for a destructive command, carries the one-time code our answer gave (or the MJ password).

Every wrong code a reply to the confirmation offers counts toward `MAX_WRONG_CODES`, whatever form it took
(on the OUI line, beside a command, alone, several in one mail): `counted`.  Only a token with a code's shape
is a code (`offered_codes`), never an ordinary word.

The code is derived from the game's secret seed and the MJ mail's Message-ID (`code_for`): the same mail
read again after a crash gets the same code, and nobody who cannot read the MJ's mailbox can know it.
Once the seed is revealed (the game is over), codes are no longer offered: a destructive command then needs
the MJ password.  A row is marked done in the transaction that carries its commands out.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.engine import when
from pbem.engine.desk.readings import Intent, slots_from_json, slots_to_json
from pbem.engine.phrases import say
from pbem.engine.table import Table
from pbem.mail.reading import IncomingMail
from pbem.msg import Msg
from pbem.outbox import message_id
from pbem.store import ConfirmationRow
from pbem.store.confirmations import ConfirmationStatus

CONFIRM_WITHIN = timedelta(hours=48)
"""How long a confirmation waits for the MJ's OUI."""
MAX_WRONG_CODES = 3
"""Answers with a wrong code after which the commands are dropped."""
DESTRUCTIVE = frozenset({"REMOVE", "REPLACE", "FINISH"})
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # (no I, L, O, 0 or 1: read aloud or typed on a phone)


def destructive(intent: Intent) -> bool:
    """Does it destroy or send what cannot be taken back (issue #19)?  A player removed or replaced, the game
    ended, a step published again, a player's results (or start mail) sent again to a player."""
    c = intent.command
    if c in DESTRUCTIVE:
        return True
    if c == "RERUN":
        return bool(intent.slots.get("publish"))
    if c == "RESEND":
        return intent.slots.get("what") in ("results", "start") and intent.slots.get("to") != "mj"
    return False


@dataclass(frozen=True)
class Asked:
    """A command that waits: the intent, the line it was read from, what it would do (the echo)."""

    intent: Intent
    line: str
    echo: str


def answer_id(table: Table, mail: IncomingMail) -> str:
    """The Message-ID of our answer to an MJ mail (`pbem.engine.orders.mjdesk.ack`): the confirmation."""
    return message_id(table.id, f"ack-{mail.message_id}", mail.from_addr, table.config.address.rsplit("@", 1)[-1])


def code_for(table: Table, mail: IncomingMail) -> str | None:
    """The one-time code of the commands of this MJ mail (None once the seed is revealed)."""
    g = table.row
    if g.seed_revealed:
        return None
    digest = hmac.new(g.seed.encode(), f"pbem-confirm\0{table.id}\0{mail.message_id}".encode(), hashlib.sha256).digest()
    letters = "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:6])
    return f"{letters[:3]}-{letters[3:]}"


def _words(text: str) -> list[str]:
    """The words of a text, signs around them dropped (« HX2-T37, » -> « HX2-T37 »)."""
    return [w.strip(".,;:!?()[]<>«»\"'") for w in text[:20_000].split()]


def _pieces(text: str) -> list[str]:
    """The words of a text, upper case, signs around them dropped."""
    return [w.upper() for w in _words(text)]


_HALF = re.compile(r"[A-Z0-9]{3}")
_WHOLE = re.compile(r"[A-Z0-9]{6}")
_DASHED = re.compile(r"[A-Z0-9]{3}-[A-Z0-9]{3}")


_HOUR = re.compile(r"\d{1,2}H\d?")
"""A half that is an hour of the day as the MJ writes one (« 21h », « 9h3 » of « 9h30 »)."""


def _hours(token: str) -> bool:
    """Two hours, not a code: « 21h-22h », « 21h22h », « 21h 22h » (a time range)."""
    return bool(_HOUR.fullmatch(token[:3]) and _HOUR.fullmatch(token[-3:]))


def _mixed(token: str) -> bool:
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token) and not _hours(token)


def offered_codes(text: str) -> list[str]:
    """The tokens of a text that have a code's shape, as « ABC-DEF » (distinct, in order of appearance).

    Three letters or digits, a hyphen, three more, with a digit in them or in capitals as our mails print it
    (« HX2-T37 », « ZZZ-ZZZ »); run together or split in two only with both a digit and a letter (« hx2t37 »,
    « HX2 T37 »).  Letters outside the code's alphabet count too (« HX0-T37 » is a wrong code, typed).  So
    « sud-est », « BANANE », « ARRETE », « ABC DEF », « tour 3 », « les 250 » or « 21h-22h » are words, not
    codes."""
    words = _words(text)
    found: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        u = w.upper()
        nxt = words[i + 1].upper() if i + 1 < len(words) else ""
        if _DASHED.fullmatch(u) and not _hours(u) and (w == u or any(c.isdigit() for c in u)):
            found.append(u)
        elif _WHOLE.fullmatch(u) and _mixed(u):
            found.append(f"{u[:3]}-{u[3:]}")
        elif _split(u, nxt) and not (u.isalpha() and _split(nxt, words[i + 2].upper() if i + 2 < len(words) else "")):
            found.append(f"{u}-{nxt}")  # (« oui HX2 T37 »: the code is the last two, not « OUI HX2 »)
            i += 1
        i += 1
    return list(dict.fromkeys(found))


def _split(a: str, b: str) -> bool:
    """Two words that are one code split in two (« HX2 T37 »), not a word and a number (« les 250 »)."""
    return bool(_HALF.fullmatch(a) and _HALF.fullmatch(b) and _mixed(a + b)
                and not (a.isalpha() and b.isdigit()) and not (a.isdigit() and b.isalpha()))


def code_in(text: str, code: str) -> bool:
    """Does a mail's text carry the code (any case, « HX2-T37 », « hx2t37 » or « HX2 T37 »)?"""
    want = code.replace("-", "").upper()
    words = _pieces(text)
    return any(w.replace("-", "") == want or w + nxt == want for w, nxt in zip(words, [*words[1:], ""], strict=True))


def without_code(text: str, code: str | None, wrong: tuple[str, ...] = ()) -> str:
    """The text with the code (and the wrong codes offered beside it) taken out: they are no command, and no
    name."""
    for one in ([code] if code else []) + list(wrong):
        want = one.replace("-", "").upper()
        a, b = want[:3], want[3:]
        text = re.sub(rf"(?i)\b{a}[\s\-]?{b}\b", "", text)
    return text


@dataclass(frozen=True)
class Counted:
    """The codes a reply to our confirmation offers, counted against the request it answers."""

    right: bool  # it carries the request's code, and the request is still open after the count
    wrong: tuple[str, ...] = ()  # the code-shaped tokens that are not the code (each counted once)
    tries: int = 0  # wrong answers so far on the request, this mail's included
    dropped: bool = False  # this mail's wrong codes closed the request


def counted(table: Table, row: ConfirmationRow | None, mail: IncomingMail, text: str, now: datetime, *,
            password: bool) -> Counted:
    """Every code a reply offers (on its OUI line, beside a command, alone, several at once), the wrong ones
    counted toward `MAX_WRONG_CODES` now, once each: a code guessed beside a command is a guess all the same.

    Counted only against a request still open, from the address it was sent to (any other answer is refused
    whole by `refusal`), and not when the mail carries the MJ password (the code does not matter then)."""
    if row is None or row.code is None or row.status != "pending" or row.asker != mail.from_addr \
            or now > row.expires_at or table.row.turn != row.turn:
        return Counted(False, tries=row.tries if row is not None else 0)
    right = code_in(text, row.code)
    want = row.code.replace("-", "").upper()
    wrong = tuple(c for c in offered_codes(without_code(text, row.code)) if c.replace("-", "") != want)
    if password or not wrong:
        return Counted(right, tries=row.tries)
    tries = table.store.count_wrong_code(row.id, len(wrong))
    dropped = tries >= MAX_WRONG_CODES
    if dropped:
        close(table, row, "dropped", mail, now)
    return Counted(right and not dropped, wrong, tries, dropped)


def _dropped_msg(tries: int) -> Msg:
    return Msg(f"{tries} essais sans le bon code : la demande est abandonnée, renvoyez la commande",
               f"{tries} tries without the right code: the request is dropped, send the command again")


def _left(tries: int) -> tuple[str, str]:
    left = MAX_WRONG_CODES - tries
    return (f"il vous reste {left} {'essai' if left == 1 else 'essais'}",
            f"{left} {'try' if left == 1 else 'tries'} left")


def wrong_codes_note(found: Counted, *, still_open: bool = True) -> tuple[str, Msg]:
    """The line the answer shows for the wrong codes a mail offered beside its commands (or alone), and its
    refusal: how many tries are left (``still_open``: the mail did not close the request otherwise, by a
    correction or by the right code), or the request dropped."""
    n = len(found.wrong)
    shown = ", ".join(found.wrong) if n <= 3 else f"{', '.join(found.wrong[:3])}, … ({n} codes)"
    if found.dropped:
        return shown, _dropped_msg(found.tries)
    fr_is, en_is = ("ce n'est pas", "this is not") if n == 1 else ("aucun n'est", "none is")
    if not still_open:
        return shown, Msg(f"{fr_is} le code de la demande", f"{en_is} the request's code")
    fr_left, en_left = _left(found.tries)
    return shown, Msg(f"{fr_is} le code de la demande : {fr_left} avant qu'elle soit abandonnée",
                      f"{en_is} the request's code: {en_left} before it is dropped")


def ask(table: Table, mail: IncomingMail, asked: list[Asked], *, code: str | None, now: datetime) -> ConfirmationRow:
    """Store the commands of this mail that wait for the MJ's OUI; our answer to the mail asks for it."""
    g = table.row
    commands = [{"command": a.intent.command, "slots": slots_to_json(a.intent.slots), "line": a.line, "echo": a.echo}
                for a in asked]
    row_id = table.store.add_confirmation(table.id, mail.from_addr, mail.message_id, answer_id(table, mail), g.turn,
                                          commands, code, now, now + CONFIRM_WITHIN)
    table.store.log(table.id, now, "mj", "confirmation asked", {"id": row_id, "commands": [a.echo for a in asked],
                                                                 "code": code is not None})
    row = table.store.confirmation(row_id)
    assert row is not None
    return row


def answered(table: Table, mail: IncomingMail) -> ConfirmationRow | None:
    """The confirmation of ours this mail answers (by its In-Reply-To, then its References), if any."""
    return table.store.confirmation_for(table.id, [mail.in_reply_to, *reversed(mail.references)])


def refusal(table: Table, row: ConfirmationRow, mail: IncomingMail, found: Counted, now: datetime, *,
            password: bool) -> Msg | None:
    """Why this reply cannot carry out the commands it confirms (None: it can).  ``found``: the codes it
    offered, already counted (`counted`); an OUI with no code at all counts here, as one wrong answer."""
    at = _when(table)
    if mail.from_addr != row.asker:
        return Msg(f"cette demande de confirmation a été envoyée à {row.asker} : elle ne se confirme que depuis "
                   "cette adresse", f"this confirmation was sent to {row.asker}: only that address can confirm it")
    if found.dropped:
        return _dropped_msg(found.tries)
    if row.status == "done":
        return Msg(f"déjà fait, le {at(row.done_at)} : rien n'est fait deux fois",
                   f"already done on {at(row.done_at)}: nothing is done twice")
    if row.status in ("dropped", "replaced", "expired"):
        return Msg("cette demande n'attend plus de réponse (abandonnée, corrigée ou expirée) : renvoyez la commande",
                   "this request waits for no answer any more (dropped, corrected or expired): send the command again")
    if now > row.expires_at:
        table.store.close_confirmation(row.id, "expired", now, mail.message_id)
        return Msg(f"la demande a expiré le {at(row.expires_at)} : renvoyez la commande si elle vaut toujours",
                   f"the request expired on {at(row.expires_at)}: send the command again if it still stands")
    g = table.row
    if g.turn != row.turn:
        table.store.close_confirmation(row.id, "expired", now, mail.message_id)
        return Msg("la partie a avancé depuis la demande (une étape a été résolue) : renvoyez la commande si elle vaut "
                   "toujours", "the game moved on since the request (a step was resolved): send the command again")
    if row.code is not None and not password and not found.right:
        tries = found.tries if found.wrong else table.store.count_wrong_code(row.id)
        if tries >= MAX_WRONG_CODES:
            close(table, row, "dropped", mail, now)
            return _dropped_msg(tries)
        fr_left, en_left = _left(tries)
        return Msg("il manque le code de la demande (ou il est faux) : répondez OUI en recopiant le code donné dans "
                   f"notre courriel, ou ajoutez votre ligne MOTDEPASSE ({fr_left})",
                   "the request's code is missing (or wrong): answer YES with the code our mail gave, or add your "
                   f"PASSWORD line ({en_left})")
    return None


def stored(table: Table, row: ConfirmationRow) -> list[tuple[Intent, str, str]]:
    """The commands a confirmation holds: intent, line, echo."""
    tz = table.config.timezone
    return [(Intent(str(c["command"]), slots_from_json(c["slots"], tz)), str(c.get("line", "")),
             str(c.get("echo", ""))) for c in row.commands]


def close(table: Table, row: ConfirmationRow, status: ConfirmationStatus, mail: IncomingMail, now: datetime) -> None:
    table.store.close_confirmation(row.id, status, now, mail.message_id)
    table.store.log(table.id, now, "mj", f"confirmation {status}", {"id": row.id, "by": mail.message_id})


def _when(table: Table) -> Callable[[datetime | None], str]:
    def say(dt: datetime | None) -> str:
        return when.moment_text(dt, table.config.timezone, table.settings.language) if dt else ""
    return say


def listing(table: Table, now: datetime, *, every: bool = False) -> str:
    """The commands waiting for the MJ's OUI (``every``: those done, dropped or expired too), for `pbem game
    confirmations`."""
    at = _when(table)
    rows = []
    for row in table.store.confirmations(table.id, pending=not every):
        status = "expired" if row.status == "pending" and now > row.expires_at else row.status
        rows.append({"id": row.id, "asker": row.asker, "mail": row.mail, "asked": at(row.created_at),
                     "until": at(row.expires_at), "status": status, "done": at(row.done_at), "code": bool(row.code),
                     "commands": [str(c.get("echo", c.get("command"))) for c in row.commands]})
    return say(table.renderer, "confirmations", rows=rows, every=every)
