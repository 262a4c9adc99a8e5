"""`pbem mail list` says each stored verdict (English, as the store keeps it) in the MJ's language."""

from __future__ import annotations

import pytest

from pbem.cli.text import said_verdict

NB = "\u00a0"


@pytest.mark.parametrize(("verdict", "french"), [
    ("rejected: authentication failed (password, 1 wrong)", f"refusé{NB}: mot de passe faux (1 échec d'affilée)"),
    ("rejected: authentication failed (password, 3 wrong)", f"refusé{NB}: mot de passe faux (3 échecs d'affilée)"),
    ("rejected: 5 wrong passwords, not read before 2026-12-01T20:00:00+00:00",
     f"refusé{NB}: 5 mots de passe faux d'affilée, rien n'est lu de cette adresse avant 2026-12-01T20:00:00+00:00"),
    ("rejected: no password set yet", f"refusé{NB}: pas encore de mot de passe"),
    ("rejected: authentication failed (dkim=fail)", f"refusé{NB}: authentification en échec (dkim=fail)"),
    ("error: KeyError: 'x'", f"erreur{NB}: KeyError: 'x'"),
    ("silent: no sender address", f"sans réponse{NB}: pas d'adresse d'expéditeur"),
    ("ok (1 lines, 0 errors)", "ok (1 ligne, 0 erreur)"),
    ("no game: plays in pmb1, intrigue1, asked which",
     f"aucune partie{NB}: joue dans pmb1, intrigue1, on lui demande laquelle"),
    ("not in this game: plays in pmb1, asked which", f"pas dans cette partie{NB}: joue dans pmb1, on lui demande laquelle"),
    ("duplicate: the same text as k0042, received 2026-12-01T20:00:00+00:00; not read again",
     f"doublon{NB}: le même texte que k0042, reçu le 2026-12-01T20:00:00+00:00{NB}; pas relu"),
    ("silent: auto-reply: Auto-Submitted auto-replied", f"sans réponse{NB}: réponse automatique{NB}: Auto-Submitted auto-replied"),
    ("silent: auto-reply: vacation subject", f"sans réponse{NB}: réponse automatique{NB}: objet d'absence"),
    ("silent: own: sent from our address", f"sans réponse{NB}: le nôtre{NB}: envoyé de notre adresse"),
    ("silent: list: List-Id", f"sans réponse{NB}: liste de diffusion{NB}: List-Id"),
    ("silent: stranger, bulk: marked as spam", f"sans réponse{NB}: inconnu, envoi en nombre{NB}: marqué comme indésirable"),
    ("silent: bounce: multipart/report; delivery delayed, not reported",
     f"sans réponse{NB}: rebond{NB}: multipart/report{NB}; distribution retardée, non signalée"),
    ("silent: bounce: sent by mailer-daemon; names no mail we sent",
     f"sans réponse{NB}: rebond{NB}: envoyé par mailer-daemon{NB}; ne nomme aucun courriel de notre part"),
    ("unreadable: no text part", f"illisible{NB}: pas de partie texte"),
    ("unreadable: too big: 9900000 bytes, the first 300000 read; no text part",
     f"illisible{NB}: trop gros{NB}: 9900000{NB}octets, les 300000 premiers lus{NB}; pas de partie texte"),
])
def test_a_verdict_in_french_and_as_stored_in_english(verdict: str, french: str) -> None:
    assert said_verdict(verdict, "fr") == french
    assert said_verdict(verdict, "en") == verdict
