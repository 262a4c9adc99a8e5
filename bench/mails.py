"""The order mails the bench feeds pbem: a running 40-player game and mails as players send them
(greetings, signatures, quoted replies, HTML alternatives, a receiving provider's headers).  Shared by
the ingest, IMAP, hosting and ack-latency figures."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from html import escape
from pathlib import Path

from bench.names import player_names
from pbem import config as configmod
from pbem.engine import Engine
from pbem.store import Store

GAME_ADDRESS = "jeu@pbem.test"
MJ_ADDRESS = "mj@pbem.test"
SEED = "be7c" * 16
START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def pmb_available() -> bool:
    try:
        import pbem.games.pmb  # noqa: F401
        from pbem.games import get

        get("pmb")
        return True
    except Exception:
        return False


AUTH = "dkim"
"""The README's recommended sender check: every order mail carries the Authentication-Results its provider adds."""


def game_config(root: Path, ruleset: str, synchronous: str = "normal") -> configmod.Config:
    tag = "PMB" if ruleset == "pmb" else "1626"
    data = {
        "pbem": {"database": str(root / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000, "synchronous": synchronous},
        "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
        "outbox": {"kind": "maildir", "path": str(root / "outbox")},
        "games": {"jeu1": {"ruleset": ruleset, "tag": tag, "title": "Pour Ma Belle", "mj": MJ_ADDRESS,
                           "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00"}, "auth": AUTH,
                           "trusted_authserv": ["mx.google.com"]}},
    }
    return configmod.parse(data, root)


def provider_headers(sender: str, i: int) -> list[tuple[str, str]]:
    """What Gmail's receiving side adds above a message: Received lines, ARC and its Authentication-Results."""
    domain = sender.rpartition("@")[2]
    sig = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 7 + k * 13) % 64]
                  for k in range(300))
    return [
        ("Received", f"by 2002:a05:6402:{i % 9999:x} with SMTP id x{i}csp123456; Fri, 4 Dec 2026 12:{i % 60:02d}:01 "
                     "-0800 (PST)"),
        ("ARC-Authentication-Results", f"i=1; mx.google.com; dkim=pass header.i=@{domain} header.s=s1 "
                                       f"header.b=Ab{i % 1000:03d}xyz; spf=pass (google.com: domain of {sender} "
                                       f"designates 192.0.2.{i % 250 + 1} as permitted sender) smtp.mailfrom={sender}; "
                                       f"dmarc=pass (p=NONE sp=NONE dis=NONE) header.from={domain}"),
        ("Authentication-Results", f"mx.google.com; dkim=pass header.i=@{domain} header.s=s1 header.b=Ab{i % 1000:03d}xyz;"
                                   f" spf=pass (google.com: domain of {sender} designates 192.0.2.{i % 250 + 1} as "
                                   f"permitted sender) smtp.mailfrom={sender}; dmarc=pass (p=NONE sp=NONE dis=NONE) "
                                   f"header.from={domain}"),
        ("Received-SPF", f"pass (google.com: domain of {sender} designates 192.0.2.{i % 250 + 1} as permitted sender) "
                         f"client-ip=192.0.2.{i % 250 + 1};"),
        ("DKIM-Signature", f"v=1; a=rsa-sha256; c=relaxed/relaxed; d={domain}; s=s1; t=1796400000; "
                           f"h=to:subject:message-id:date:from:mime-version:from:to:cc:subject:date:message-id:"
                           f"reply-to; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b={sig}"),
    ]


def new_game(root: Path, ruleset: str, synchronous: str = "normal") -> tuple[configmod.Config, Store, Engine,
                                                                               dict[str, str]]:
    """A running 40-player game (turn 1 open); returns the player -> address map."""
    cfg = game_config(root, ruleset, synchronous)
    store = Store(cfg.database, synchronous=synchronous)
    eng = Engine(cfg, store)
    eng.new_game("jeu1", START, seed=SEED)
    names = player_names(40)
    for i, name in enumerate(names):
        eng.add_player("jeu1", name, f"p{i + 1:02d}@pbem.test", START)
    eng.start_game("jeu1", START + timedelta(minutes=1))
    return cfg, store, eng, {n: f"p{i + 1:02d}@pbem.test" for i, n in enumerate(names)}


def order_lines(eng: Engine, player: str, rng: random.Random) -> list[str]:
    from pbem.games.pmb.bots import random_orders

    g = eng.game("jeu1")
    state = eng.state(g)
    lines: list[str] = []
    for _ in range(6):
        lines += [ln for ln in random_orders(state, player, rng.randrange(1 << 30)) if ln not in lines]
        if len(lines) >= 5:
            break
    want = rng.randint(1, 5)
    lines = lines[:want]
    while len(lines) < want:  # a player with little to order asks for help or status, or mistypes
        lines.append(rng.choice(["ETAT", "ORDRES", "ESCOUADE personne", "AIDE"]))
    return lines


QUOTE = """Le ven. 4 déc. 2026 à 20:05, Pour Ma Belle <jeu@pbem.test> a écrit :
> [PMB] Tour 1 : vos ordres sont attendus
>
> Bonjour {name},
> les ordres du tour 1 sont attendus avant vendredi 11 décembre 2026 à 21 h.
> Vous êtes au Donjon Rouge. Ne dites rien à personne.
> --
> Pour Ma Belle, le MJ automatique
"""
SIGS = ["-- \n{name}\nEnvoyé de mon iPhone", "Cordialement,\n{first}", "-- \n{name}\nhttps://forum.example.org",
        "Envoyé de mon iPhone", "Bonne soirée à tous !\n{first}"]


def make_order_mails(eng: Engine, addresses: dict[str, str], n: int) -> list[bytes]:
    rng = random.Random(2026)
    names = list(addresses)
    return [order_mail(rng, i, names[i % len(names)], addresses[names[i % len(names)]],
                       order_lines(eng, names[i % len(names)], rng), "PMB") for i in range(n)]


def order_mail(rng: random.Random, i: int, name: str, address: str, lines: list[str], tag: str) -> bytes:
    """An order mail as players send them: greetings, signatures, quoted replies, an HTML alternative from
    webmail and phones, and the headers the receiving provider adds (Authentication-Results included)."""
    first = name.split()[0]
    body = "\n".join(lines)
    if rng.random() < 0.5:
        body = rng.choice(["", "", "Bonjour,\n\n"]) + body
    if rng.random() < 0.4:
        body += "\nFIN"
    body += "\n\n" + rng.choice(SIGS).format(name=name, first=first)
    reply = rng.random() < 0.5
    if reply:
        body += "\n\n" + QUOTE.format(name=name)
    m = EmailMessage()
    for header, value in provider_headers(address, i):
        m[header] = value
    m["From"] = f"{name} <{address}>"
    m["To"] = f"Pour Ma Belle <{GAME_ADDRESS}>"
    m["Subject"] = f"Re: [{tag}] Tour 1 : vos ordres" if reply else rng.choice(
        [f"[{tag}] ordres", f"[{tag}] mes ordres du tour 1", f"[{tag}] Ordres — tour 1"])
    m["Date"] = f"Fri, 04 Dec 2026 21:{i // 60 % 60:02d}:{i % 60:02d} +0100"
    m["Message-ID"] = f"<bench-{i}-{rng.randrange(1 << 40):x}@mail.example.org>"
    if reply:
        m["In-Reply-To"] = "<pbem.0123456789abcdef@pbem.test>"
        m["References"] = "<pbem.0123456789abcdef@pbem.test>"
    m["X-Mailer"] = rng.choice(["Apple Mail (2.3731)", "Microsoft Outlook 16.0", "Thunderbird 115.5"])
    m.set_content(body, charset="utf-8", cte="quoted-printable" if i % 2 else "8bit")
    if rng.random() < 0.6:  # webmail and phone clients (Gmail, Outlook, Apple) add an HTML alternative
        html = "".join(f"<div dir=\"ltr\">{escape(line) or '<br>'}</div>\n" for line in body.split("\n"))
        m.add_alternative(f"<html><head><meta charset=\"utf-8\"></head><body>{html}</body></html>\n",
                          subtype="html", charset="utf-8", cte="quoted-printable")
    return m.as_bytes()


