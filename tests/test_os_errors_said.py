"""Issue #22: IMAP and OS/TLS error texts of a pass are said in French (English configuration: as they are)."""

import pytest

from pbem.ticktext import said

_NB = "\u00a0"


@pytest.mark.parametrize(("cls", "french"), [
    ("ConnectionRefusedError", "connexion refusée"), ("TimeoutError", "délai dépassé"), ("timeout", "délai dépassé"),
    ("gaierror", "nom d'hôte inconnu"), ("SSLCertVerificationError", "certificat TLS refusé"),
    ("ConnectionResetError", "connexion coupée"), ("SSLError", "erreur TLS"),
])
def test_os_error_classes_in_french(cls: str, french: str) -> None:
    line = f"fetch failed: IMAP u@imap.example.org:993 connect failed: {cls}: raw text"
    assert said(line, "fr") == (f"relève du courrier en échec{_NB}: IMAP u@imap.example.org:993, connexion{_NB}: "
                                f"{french} («{_NB}raw text{_NB}»)")
    assert said(line, "en") == line


def test_imap_login_refused_in_french() -> None:
    line = "fetch failed: IMAP login refused for u@h:993: [AUTHENTICATIONFAILED] Authentication failed."
    assert "failed" not in said(line, "fr").replace("AUTHENTICATIONFAILED] Authentication failed", "")
    assert said(line, "fr").endswith(f"identifiant refusé{_NB}: «{_NB}[AUTHENTICATIONFAILED] Authentication failed.{_NB}»")
