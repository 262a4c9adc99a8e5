"""A forger in the MJ's seat: mails ``From:`` the MJ whose trusted Authentication-Results was tampered with.

Each attack is a real shape: the receiving server's own header reflects the envelope the forger
chose (an encoded word, a quoted local part with ``;``, one that closes the SPF comment), a
forged header below an untrusted one, a DMARC ``fail`` beside a DKIM pass of a subdomain.  The
verdict refuses each (`auth_verdict`), and through the real engine none of the MJ's commands in
the mail runs (PROLONGE, RETIRE, REMPLACE, POUR, PAUSE), while the same mail with the genuine
header runs them all (so the checks can fail).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from helpers import MJ_ADDRESS, make_config, make_mail
from mjseat_helpers import PLAYERS, T0, Table, to

from pbem.config import ConfigError
from pbem.engine import Engine
from pbem.mail.reading import read_message
from pbem.mail.senders import auth_verdict
from pbem.store import Store

MJ_DOMAIN = MJ_ADDRESS.rpartition("@")[2]  # pbem.test
GENUINE = (f"mx.google.com; dkim=pass header.i=@{MJ_DOMAIN} header.s=s1 header.b=Ab12Cd34; "
           f"spf=pass (google.com: domain of {MJ_ADDRESS} designates 192.0.2.10 as permitted sender) "
           f"smtp.mailfrom={MJ_ADDRESS}; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from={MJ_DOMAIN}")
_INJECTED = f"dkim=pass header.d={MJ_DOMAIN}"
_ENCODED = "=?utf-8?q?x=29_=3B_dkim=3Dpass_header.d=3D" + MJ_DOMAIN + "_=28?=@evil.example"
_QUOTED_SEMICOLON = f'"x; {_INJECTED} y"@evil.example'
_QUOTED_PAREN = f'"x) ; {_INJECTED} (y"@evil.example'

ATTACKS = {
    # the envelope's local part is an encoded word; decoded, it closes the SPF comment and adds a result
    "encoded-word local part": (
        f"mx.google.com; dkim=none; spf=pass (google.com: domain of {_ENCODED} designates 192.0.2.66 as "
        f"permitted sender) smtp.mailfrom={_ENCODED}",),
    # a quoted local part holding « ; dkim=pass header.d=<the MJ's domain> »
    "quoted local part with ;": (
        f"mx.google.com; dkim=none; spf=pass smtp.mailfrom={_QUOTED_SEMICOLON}",),
    # the same, reflected inside the SPF comment: its « ) » closes the comment for an RFC 5322 reader
    "SPF comment injection": (
        f"mx.google.com; dkim=none; spf=pass (google.com: domain of {_QUOTED_PAREN} designates 192.0.2.66 as "
        f"permitted sender) smtp.mailfrom={_QUOTED_PAREN}",),
    # another server delivered the mail; the trusted header below it came with the forger's mail
    "trusted header below an untrusted one": (
        "mx.relay.example; dkim=none; spf=none smtp.mailfrom=x@evil.example",
        GENUINE),
    # a passing DKIM signature of a subdomain (relaxed alignment) while the server's DMARC says fail
    "DMARC fail beside a DKIM pass of another domain": (
        f"mx.google.com; dkim=pass header.d=lists.{MJ_DOMAIN} header.s=s1; spf=pass "
        f"smtp.mailfrom=bounce@lists.{MJ_DOMAIN}; dmarc=fail (p=REJECT adkim=s aspf=s) header.from={MJ_DOMAIN}",),
}


def raw_mail(text: str, results: tuple[str, ...], sender: str = MJ_ADDRESS, number: int = 1,
             reply_to: str | None = None) -> bytes:
    """The mail as it reaches the mailbox: the receiving server's header(s) on top, as written (not re-encoded).
    ``reply_to``: the Message-ID of one of our mails it answers."""
    top = b"".join(b"Authentication-Results: " + r.encode() + b"\n" for r in results)
    thread = {"In_Reply_To": reply_to, "References": reply_to} if reply_to else {}
    return top + make_mail(sender, text, subject="[TOY] MJ", message_id=f"<attack{number}@evil.example>", **thread)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_verdict_refuses_each_attack(attack: str) -> None:
    mail = read_message(raw_mail("Prolonge de 24h", ATTACKS[attack]))
    assert mail.from_addr == MJ_ADDRESS
    for require in ("dkim", "spf", "dkim_or_spf"):
        verdict = auth_verdict(mail, ("mx.google.com",), require)
        assert not verdict.ok, (attack, require, verdict)
    assert auth_verdict(read_message(raw_mail("x", (GENUINE,))), ("mx.google.com",), "dkim").ok


# every destructive or game-changing command the forger wanted, in one mail
COMMANDS = "\n".join([
    "Prolonge de 24h",
    "Retire Bran",
    "Remplace ser Schlingue par Eve <eve@evil.example>",
    "POUR Arya : GUESS 3",
    "Pause jusqu'à nouvel ordre",
])


def _send(table: Table, results: tuple[str, ...], text: str = COMMANDS, reply_to: str | None = None) -> str:
    table.sent += 1
    raw = raw_mail(text, results, number=table.sent, reply_to=reply_to)
    key = f"attack{table.sent}"
    table.store.store_raw([(key, raw)], table.now)
    return table.engine.process_message(key, raw, table.now)


def _state(table: Table) -> tuple:
    orders = table.store.current_orders("toy1", table.game().turn)
    return (table.deadline(), table.store.player("toy1", "Bran").status,
            table.store.player("toy1", "ser Schlingue").address, "Arya" in orders, len(table.store.pauses("toy1")))


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path, auth="dkim")
    t.new()
    yield t
    t.close()


def test_the_genuine_header_runs_every_command(table: Table) -> None:
    before = _state(table)
    verdict = _send(table, (GENUINE,))
    assert verdict.startswith("ok"), verdict
    # what cannot be taken back (RETIRE, REMPLACE) waits for the OUI with the code our answer gave (issue #19)
    assert _state(table) == (before[0] + timedelta(days=1), "active", before[2], True, 1), _state(table)
    asked = table.last("ack", MJ_ADDRESS)
    code = re.search(r"Code : ([A-Z2-9]{3}-[A-Z2-9]{3})", asked)
    assert code is not None, asked
    verdict = _send(table, (GENUINE,), f"OUI {code.group(1)}", reply_to=table.last_id("ack", MJ_ADDRESS))
    assert verdict.startswith("ok"), verdict
    after = _state(table)
    assert after == (before[0] + timedelta(days=1), "removed", "eve@evil.example", True, 1), after
    assert to(table.new(), "eve@evil.example")  # (the newcomer got the seat's briefing)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_no_forged_command_runs_and_the_forger_learns_nothing(table: Table, attack: str) -> None:
    before = _state(table)
    verdict = _send(table, ATTACKS[attack])
    assert verdict.startswith("rejected: authentication failed"), verdict
    assert _state(table) == before
    mails = table.new()
    assert not to(mails, "eve@evil.example")  # no briefing, no role, no secret to the forger's address
    told = to(mails, MJ_ADDRESS)
    assert told and all(kind == "notice" for _t, kind, _s, _b in mails if _t == MJ_ADDRESS)  # the MJ is told
    assert {t for t, _k, _s, _b in mails} == {MJ_ADDRESS}  # nobody else gets anything


# --- the trusted server is the mailbox's ---


def test_the_mailbox_names_the_server_it_trusts(tmp_path) -> None:
    """With ``mailbox.trusted_authserv``, a header by that server counts, and mx.google.com's no longer does."""
    own = GENUINE.replace("mx.google.com;", "mx.pbem.test;", 1)
    cfg = make_config(tmp_path, extra_game={"auth": "dkim"},
                      mailbox={"kind": "maildir", "path": str(tmp_path / "inbox"), "trusted_authserv": "mx.pbem.test"})
    assert cfg.mailbox.trusted_authserv == ("mx.pbem.test",) and cfg.game("toy1").trusted_authserv == ("mx.pbem.test",)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0, seed="ab" * 32)
    for i, address in enumerate(PLAYERS.values()):
        engine.add_player("toy1", f"Joueur {i}", address, T0)
    engine.start_game("toy1", T0)
    for number, (results, expected) in enumerate([((GENUINE,), "rejected"), ((own,), "ok")], 1):
        raw = raw_mail("Prolonge de 24h", results, number=number)
        store.store_raw([(f"k{number}", raw)], T0)
        assert engine.process_message(f"k{number}", raw, T0).startswith(expected)
    store.close()


def test_a_game_may_still_name_it_in_an_older_config(tmp_path) -> None:
    cfg = make_config(tmp_path, extra_game={"auth": "dkim", "trusted_authserv": ["mx.pbem.test"]})
    assert cfg.mailbox.trusted_authserv == ("mx.google.com",)
    assert cfg.game("toy1").trusted_authserv == ("mx.pbem.test",)
    same = make_config(tmp_path, extra_game={"trusted_authserv": ["MX.pbem.test"]},
                       mailbox={"kind": "maildir", "path": str(tmp_path / "inbox"), "trusted_authserv": ["mx.pbem.test"]})
    assert same.game("toy1").trusted_authserv == ("mx.pbem.test",)


def test_a_game_that_contradicts_the_mailbox_is_a_config_error_saying_the_fix(tmp_path) -> None:
    with pytest.raises(ConfigError) as caught:
        make_config(tmp_path, extra_game={"trusted_authserv": ["mx.google.com"]},
                    mailbox={"kind": "maildir", "path": str(tmp_path / "inbox"), "trusted_authserv": "mx.pbem.test"})
    assert "retirez trusted_authserv de [games.toy1]" in caught.value.text("fr")
    assert "remove trusted_authserv from [games.toy1]" in str(caught.value)


@pytest.mark.parametrize("value", [[], "", "mx google", ["mx.google.com", 3], "mx;evil", 12])
def test_a_wrong_trusted_authserv_is_a_config_error(tmp_path, value) -> None:
    with pytest.raises(ConfigError, match="mailbox.trusted_authserv"):
        make_config(tmp_path, mailbox={"kind": "maildir", "path": str(tmp_path / "inbox"), "trusted_authserv": value})
