"""Is this an address pbem can write to?  Checked when a player registers (INSCRIPTION, `pbem player add`).

An address the outgoing server cannot carry would fail at every mail of the game: better to
say so at once, precisely, to the person registering.  pbem accepts the usual
``nom.prenom+tag@domaine.fr``: an ASCII local part (letters, digits and ``!#$%&'*+/=?^_`{|}~-``,
dots between them), a domain of ASCII labels with at least one dot.  Non-ASCII addresses
(``josé@exemple.fr``) are refused: they need SMTPUTF8 at every server on the way, which most
providers still lack.  Quoted local parts and address literals (``x@[192.0.2.1]``) are refused
too: no player needs them, and many servers mishandle them.
"""

from __future__ import annotations

import re
import unicodedata

from pbem.core import Msg

_ATEXT = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\Z")
NBSP = "\u00a0"


def _q(text: str) -> str:
    """« text » with the non-breaking spaces French wants inside the quotation marks."""
    return f"«{NBSP}{text}{NBSP}»"


def _shown(char: str) -> str:
    """A character as a reader can see it (a space or a control character is named)."""
    if char == " ":
        return "space"
    if unicodedata.category(char).startswith("C") or char.isspace():
        return f"U+{ord(char):04X}"
    return char


def address_problem(address: str) -> Msg | None:
    """What is wrong with an address for pbem, in French and English, or None when it is fine.

    Each answer names the fault and says how to fix it.
    """
    problem = _problem(address)
    if problem is None:
        return None
    fr = problem.fr
    for mark in (":", ";", "?", "!"):  # French puts a non-breaking space before these
        fr = fr.replace(f" {mark}", f"{NBSP}{mark}")
    return Msg(fr, problem.en)


def _problem(address: str) -> Msg | None:
    addr = address.strip()
    if not addr:
        return Msg("l'adresse est vide : donnez une adresse comme nom@exemple.fr.",
                   "the address is empty: give one like name@example.org.")
    for char in addr:
        if char.isspace() or unicodedata.category(char).startswith("C"):
            what = _shown(char)
            fr = "une espace" if what == "space" else f"le caractère invisible {what}"
            return Msg(f"l'adresse {_q(addr)} contient {fr} : une adresse s'écrit d'un seul tenant, "
                       "comme nom@exemple.fr.",
                       f"the address {addr!r} contains a {what if what == 'space' else 'hidden character ' + what}: "
                       "an address is written in one piece, like name@example.org.")
    if addr.count("@") == 0:
        return Msg(f"il manque le @ dans {_q(addr)} : une adresse s'écrit nom@domaine, comme nom@exemple.fr.",
                   f"{addr!r} has no @: an address reads name@domain, like name@example.org.")
    if addr.count("@") > 1:
        return Msg(f"{_q(addr)} contient plusieurs @ : une adresse n'en a qu'un, entre le nom et le domaine.",
                   f"{addr!r} has several @: an address has exactly one, between the name and the domain.")
    local, _, domain = addr.partition("@")
    if not local:
        return Msg(f"rien avant le @ dans {_q(addr)} : il manque le nom de la boîte.",
                   f"nothing before the @ in {addr!r}: the mailbox name is missing.")
    if not domain:
        return Msg(f"rien après le @ dans {_q(addr)} : il manque le domaine, comme exemple.fr.",
                   f"nothing after the @ in {addr!r}: the domain is missing, like example.org.")
    for part, fr_part, en_part in ((local, "avant le @", "before the @"), (domain, "dans le domaine", "in the domain")):
        odd = next((c for c in part if not c.isascii()), None)
        if odd is not None:
            return Msg(f"l'adresse {_q(addr)} contient {_q(odd)} {fr_part} : les serveurs de courrier ne savent pas "
                       "tous acheminer une adresse accentuée ; inscrivez-vous depuis une adresse sans accent.",
                       f"{odd!r} {en_part} in {addr!r}: not every mail server can carry an address with accents; "
                       "register from an address without them.")
    if len(local) > 64:
        return Msg(f"la partie avant le @ de {_q(addr)} a {len(local)} caractères, 64 au plus sont permis.",
                   f"the part before the @ in {addr!r} has {len(local)} characters; 64 at most are allowed.")
    if len(addr) > 254:
        return Msg(f"l'adresse a {len(addr)} caractères, 254 au plus sont permis.",
                   f"the address has {len(addr)} characters; 254 at most are allowed.")
    if local.startswith('"') or domain.startswith("["):
        return Msg(f"{_q(addr)} a une forme que pbem n'accepte pas (nom entre guillemets ou adresse IP) : "
                   "inscrivez-vous depuis une adresse ordinaire, comme nom@exemple.fr.",
                   f"{addr!r} has a form pbem does not accept (a quoted name or an IP address): register from "
                   "an ordinary address, like name@example.org.")
    bad = next((c for c in local if c != "." and not _ATEXT.match(c)), None)
    if bad is not None:
        return Msg(f"le caractère {_q(bad)} n'est pas permis avant le @ dans {_q(addr)}.",
                   f"the character {bad!r} is not allowed before the @ in {addr!r}.")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return Msg(f"{_q(addr)} a un point au début, à la fin ou doublé avant le @ : vérifiez l'adresse.",
                   f"{addr!r} has a dot at the start, at the end or doubled before the @: check the address.")
    labels = domain.rstrip(".").split(".")
    if len(labels) < 2:
        return Msg(f"le domaine {_q(domain)} est incomplet : il lui manque son extension (.fr, .com, .org…).",
                   f"the domain {domain!r} is incomplete: it lacks its ending (.fr, .com, .org...).")
    for label in labels:
        if not _LABEL.match(label):
            return Msg(f"le domaine {_q(domain)} est mal formé ({_q(label or '.')}) : lettres, chiffres et tirets "
                       "seulement, un point entre chaque partie.",
                       f"the domain {domain!r} is malformed ({label or '.'!r}): letters, digits and hyphens only, "
                       "a dot between parts.")
    if labels[-1].isdigit():
        return Msg(f"le domaine {_q(domain)} finit par un nombre : ce n'est pas un nom de domaine.",
                   f"the domain {domain!r} ends with a number: that is not a domain name.")
    return None


def _base(address: str) -> str:
    """``local+tag@Domain`` -> ``local@domain``: the mailbox an address reaches."""
    local, _at, domain = address.strip().lower().rpartition("@")
    return f"{local.partition('+')[0]}@{domain}"


def reserved_problem(address: str, game_address: str, mj: tuple[str, ...]) -> Msg | None:
    """Why ``address`` may not be a player's (None: it may): it is the game's own address (or one of its
    ``+tag`` forms: pbem would write to itself), or an MJ's (his mail is read as the MJ's, and a seat given
    to it would mail the MJ's answers to whoever forged it)."""
    base = _base(address)
    if base == _base(game_address):
        return Msg(f"{_q(address)} est l'adresse du jeu lui-même{NBSP}: donnez celle du joueur",
                   f"{address!r} is the game's own address: give the player's")
    if base in {_base(a) for a in mj}:
        return Msg(f"{_q(address)} est l'adresse du MJ{NBSP}: un joueur a besoin d'une adresse à lui",
                   f"{address!r} is the MJ's address: a player needs an address of their own")
    return None
