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
])
def test_a_verdict_in_french_and_as_stored_in_english(verdict: str, french: str) -> None:
    assert said_verdict(verdict, "fr") == french
    assert said_verdict(verdict, "en") == verdict
