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


@pytest.mark.parametrize(("errno_text", "french"), [
    ("[Errno 113] No route to host", "aucune route vers le serveur"),
    ("[Errno 101] Network is unreachable", "réseau injoignable"),
    ("[Errno 28] No space left on device", "disque plein"),
    ("[Errno 5] Input/output error", "erreur du système"),  # (a number not in the table: said generally)
])
def test_system_errors_by_number_in_french(errno_text: str, french: str) -> None:
    line = f"fetch failed: IMAP u@h:993 connect failed: OSError: {errno_text}"
    reason = errno_text.split("] ", 1)[1]
    assert said(line, "fr") == (f"relève du courrier en échec{_NB}: IMAP u@h:993, connexion{_NB}: "
                                f"{french} («{_NB}{reason}{_NB}»)")


def test_what_the_imap_connection_was_doing_is_said_in_french() -> None:
    select = said("fetch failed: IMAP u@h:993 select 'Jeux' failed: error: select failed: no such mailbox", "fr")
    assert select == (f"relève du courrier en échec{_NB}: IMAP u@h:993, ouverture du dossier «{_NB}Jeux{_NB}»{_NB}: "
                      f"erreur IMAP («{_NB}select failed: no such mailbox{_NB}»)")
    fetch = said("fetch failed: IMAP u@h:993 fetch failed: error: UID FETCH failed: b'BAD'", "fr")
    assert fetch.endswith(f"lecture{_NB}: erreur IMAP («{_NB}la commande UID FETCH a échoué{_NB}: b'BAD'{_NB}»)")
    moved = said("marking processed mail failed: IMAP u@h:993 move to 'Traités' failed: abort: socket error", "fr")
    assert f"déplacement vers «{_NB}Traités{_NB}»" in moved and "move" not in moved


def test_doctor_lines_of_imap_in_french() -> None:
    opened = said("IMAP u@h:993: cannot open 'Jeux': [NONEXISTENT] Mailbox doesn't exist", "fr")
    assert opened == f"IMAP u@h:993{_NB}: impossible d'ouvrir le dossier «{_NB}Jeux{_NB}»{_NB}: «{_NB}[NONEXISTENT] Mailbox doesn't exist{_NB}»"
    newest = said("IMAP u@h:993: cannot read the newest mails: socket error: EOF", "fr")
    assert newest.startswith(f"IMAP u@h:993{_NB}: impossible de lire les derniers courriels")


def test_a_bounce_summary_in_french_with_the_remote_reply_quoted() -> None:
    assert said("5.1.1 no such address: 550 User unknown; see you", "fr") == (
        f"5.1.1 adresse inconnue{_NB}; le serveur distant a répondu{_NB}: «{_NB}550 User unknown; see you{_NB}»")
    assert said("mailbox full", "fr") == "boîte pleine"
    assert said("undeliverable: timeout", "fr").startswith("impossible à distribuer")


def test_log_records_said_in_the_configured_language() -> None:
    import logging

    from pbem.ticktext import SaidFormatter

    asked: list[str] = []

    def language() -> str:
        asked.append("fr")
        return "fr"

    record = logging.LogRecord("pbem.mail.inbox", logging.INFO, __file__, 1,
                               "IMAP %s: connection lost (%s), reconnecting", ("u@h:993", "EOF"), None)
    assert SaidFormatter("%(message)s", language).format(record) == f"IMAP u@h:993{_NB}: connexion perdue (EOF), reconnexion"
    record = logging.LogRecord("pbem.engine.schedule", logging.ERROR, __file__, 1,
                               "game %s: firing due work failed", ("pmb1",), None)
    assert SaidFormatter("%(message)s", lambda: "en").format(record) == "game pmb1: firing due work failed"
    assert asked == ["fr"]


def test_hostile_nesting_and_numbers_are_said_without_failing() -> None:
    nested = "a@b: " * 1200 + "end"
    assert said(f"mail failed: {nested}", "fr").endswith("end")  # (nesting past MAX_NESTING: kept as it is)
    huge = "fetch failed: IMAP u@h:993 connect failed: OSError: [Errno " + "9" * 5000 + "] boom"
    assert "erreur du système" in said(huge, "fr")


def test_several_mails_that_came_back_are_plural() -> None:
    from pbem.cli.text import said_verdict

    verdict = "silent: bounce: mail delivery system; returned: a-1 to x@y, a-2 to z@y; 5.1.1 no such address"
    assert f"courriels revenus{_NB}: a-1 à x@y, a-2 à z@y" in said_verdict(verdict, "fr")
