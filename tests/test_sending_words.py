"""Why the sending stopped, why a mail failed or waits: said to a French MJ in French (the tick's summary, the
daemon's log, `pbem outbox list`), in English when language = "en"; the server's own reply is quoted as it is."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta

import pytest
from scripted_smtp import ScriptedSmtp

from pbem import ticktext
from pbem.mail.transport import SmtpTransport
from pbem.outbox import Letter, RetryPolicy, queue, send_due
from pbem.outbox.sending import SendReport
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
SENDER = "jeu@pbem.test"
NB = "\u00a0"


@pytest.fixture
def store(tmp_path):
    st = Store(tmp_path / "db.sqlite")
    yield st
    st.close()


def _queue(store: Store, rcpts: list[str]) -> None:
    with store.atomic():
        queue(store, [Letter(f"k{i}", "toy1", 1, "ack", r, f"[TOY] Re: ordres {i}", "Bonjour\n")
                      for i, r in enumerate(rcpts)], sender=SENDER, sender_name="Jeu", now=T0)


def _summary(rep: SendReport, lang: str) -> str:
    errors = [f"mail failed: {f}" for f in rep.failures]
    return ticktext.summary(0, 0, (rep.sent, rep.retrying, rep.failed, rep.stopped), [], errors, None, 0, lang)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_server_that_does_not_answer_is_said_in_french_and_in_english(store):
    _queue(store, ["p01@pbem.test"])
    port = _closed_port()
    tr = SmtpTransport("127.0.0.1", port, security="none", timeout=5, connect_timeout=5)
    rep = send_due(store, tr, sender=SENDER, now=T0)
    assert rep.stopped.startswith("SMTP server unavailable: ")
    fr = _summary(rep, "fr")
    assert f"(arrêt{NB}: serveur SMTP indisponible{NB}: SMTP 127.0.0.1:{port}, connexion{NB}: " in fr, fr
    assert "unavailable" not in fr and " connect:" not in fr
    assert f"SMTP server unavailable: SMTP 127.0.0.1:{port} connect: " in _summary(rep, "en")
    (item,) = store.outbox_items()
    assert ticktext.said(item.last_error, "fr").startswith(f"SMTP 127.0.0.1:{port}, connexion{NB}: ")


def test_the_budget_used_and_a_mail_past_its_horizon(store):
    _queue(store, ["p01@pbem.test", "p02@pbem.test", "p03@pbem.test"])
    ticks = iter(range(1000))

    class Slow:
        def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
            pass

        def close(self) -> None:
            pass

    rep = send_due(store, Slow(), sender=SENDER, now=T0, budget_seconds=10, clock=lambda: 5.0 * next(ticks))
    assert rep.stopped == "send budget of 10 s used"
    assert f"(arrêt{NB}: temps d'envoi de la passe épuisé (10{NB}s))" in _summary(rep, "fr")
    assert "(stopped: send budget of 10 s used)" in _summary(rep, "en")
    with ScriptedSmtp() as server:
        server.set_faults(("connect", "421"))
        tr = SmtpTransport("127.0.0.1", server.port, security="none", timeout=10)
        try:
            policy = RetryPolicy(horizon=timedelta(days=1))
            send_due(store, tr, sender=SENDER, now=T0, retry=policy)
            rep = send_due(store, tr, sender=SENDER, now=T0 + timedelta(days=1, minutes=1), retry=policy)
        finally:
            tr.close()
    assert rep.failed == 2 and rep.failures[-1].startswith("p03@pbem.test: not sent within 1 day")  # (not « 1 days »)
    fr = _summary(rep, "fr")
    assert f"courriel en échec{NB}: p03@pbem.test{NB}: pas envoyé en 1 jour" in fr
    assert "not sent" not in fr
    failed = store.outbox_items("failed")[-1]
    said = ticktext.said(failed.last_error, "fr")
    assert said.startswith(f"pas envoyé en 1 jour{NB}: en attente du serveur SMTP{NB}: 421 ")  # (the server's words)
    assert said.endswith(f"(SMTP 127.0.0.1:{server.port}, connexion)")


def test_one_mail_the_server_cannot_take(store):
    _queue(store, ["josé@exemple.fr"])
    with ScriptedSmtp(smtputf8=False) as server:
        tr = SmtpTransport("127.0.0.1", server.port, security="none", timeout=10)
        try:
            rep = send_due(store, tr, sender=SENDER, now=T0)
        finally:
            tr.close()
    fr = _summary(rep, "fr")
    assert f"josé@exemple.fr{NB}: SMTP 127.0.0.1:{server.port} n'accepte pas SMTPUTF8 et l'adresse josé@exemple.fr " \
           "n'est pas en ASCII" in fr, fr
    assert "does not offer" in _summary(rep, "en")


@pytest.mark.parametrize(("english", "french"), [
    ("waiting for the SMTP server to answer again", "en attente du serveur SMTP"),
    ("SMTP h.test:587: no answer within 30 s", f"SMTP h.test:587{NB}: pas de réponse en 30{NB}s"),
    ("SMTP h.test:587: login refused for jeu: 535 5.7.8 bad credentials",
     f"SMTP h.test:587{NB}: identifiant jeu refusé{NB}: 535 5.7.8 bad credentials"),
    ("SMTP h.test:587: TLS certificate rejected: self-signed", f"SMTP h.test:587{NB}: certificat TLS refusé{NB}: self-signed"),
    ("not sent within 36 hours", "pas envoyé en 36 heures"),
    ("not sent within 1.5 days", "pas envoyé en 1,5 jour"),
    ("internal error: KeyError: 'x'", f"erreur interne{NB}: KeyError: 'x'"),
])
def test_the_shapes_of_the_reasons(english: str, french: str) -> None:
    assert ticktext.said(english, "fr") == french
    assert ticktext.said(english, "en") == english


@pytest.mark.parametrize("language", ["fr", "en"])
def test_doctor_says_why_the_smtp_server_cannot_be_reached(tmp_path, language):
    from helpers import toy_config_toml

    from pbem.doctor import checks

    port = _closed_port()
    text = toy_config_toml(tmp_path, top=f'language = "{language}"').replace(
        '[outbox]\nkind = "maildir"', f'[outbox]\nkind = "smtp"\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"')
    text = "\n".join(line for line in text.splitlines() if not line.startswith("path = ") or "inbox" in line)
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    (line,) = [said for what, ok, said in checks(str(tmp_path / "config.toml"), language) if what == "outbox"]
    if language == "fr":
        assert line.startswith(f"SMTP 127.0.0.1:{port}, connexion{NB}: "), line
    else:
        assert line.startswith(f"SMTP 127.0.0.1:{port} connect: "), line
