"""Issue #22: the times inside a stored mail's verdict are shown in the game's zone, and a bounce's verdict in French."""

from datetime import datetime
from zoneinfo import ZoneInfo

from pbem.cli.text import said_verdict

_NB = "\u00a0"
PARIS = ZoneInfo("Europe/Paris")


def in_paris(t: datetime) -> datetime:
    return t.astimezone(PARIS)


def test_a_duplicate_says_when_the_first_came_in_the_games_zone() -> None:
    verdict = "duplicate: the same text as imap-1-7, received 2026-12-02T17:05:09+00:00; not read again"
    assert said_verdict(verdict, "fr", in_paris) == (
        f"doublon{_NB}: le même texte que imap-1-7, reçu le 2026-12-02 18:05{_NB}; pas relu")
    assert said_verdict(verdict, "en", in_paris) == (
        "duplicate: the same text as imap-1-7, received 2026-12-02 18:05; not read again")
    assert "2026-12-02T17:05:09" in said_verdict(verdict, "fr")  # (no zone given: as stored)


def test_a_password_lock_says_until_when_in_the_games_zone() -> None:
    verdict = "rejected: 10 wrong passwords, not read before 2026-07-01T10:00:00.250000+00:00"
    assert said_verdict(verdict, "fr", in_paris) == (
        f"refusé{_NB}: 10 mots de passe faux d'affilée, rien n'est lu de cette adresse avant 2026-07-01 12:00")


def test_a_bounce_verdict_names_the_mail_that_came_back_in_french() -> None:
    verdict = ("silent: bounce: mail delivery system; returned: start-toy1-Arya to arya@example.org; "
               "5.2.2 mailbox full: Quota exceeded; try later")
    said = said_verdict(verdict, "fr")
    assert said == (f"sans réponse{_NB}: rebond{_NB}: système de distribution du courrier{_NB}; courriel revenu{_NB}: "
                    f"start-toy1-Arya à arya@example.org{_NB}; 5.2.2 boîte pleine{_NB}; le serveur distant a "
                    f"répondu{_NB}: «{_NB}Quota exceeded; try later{_NB}»")


def test_a_time_without_its_offset_is_utc_whatever_the_machine_s_zone(monkeypatch) -> None:
    import time

    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        verdict = "duplicate: the same text as k, received 2026-12-02T17:05:09; not read again"
        assert "reçu le 2026-12-02 18:05" in said_verdict(verdict, "fr", in_paris)
    finally:
        monkeypatch.undo()
        time.tzset()
