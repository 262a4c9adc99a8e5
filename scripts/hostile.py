"""Every reader of untrusted input, fed pathological input of a given size: what each case costs.

A *reader* is a function of pbem that reads bytes or text a stranger chose: a raw mail, a header,
a body, an HTML part, a player's or the MJ's line, a date, a name.  A *shape* is a kind of input
known to make naive parsers slow: ``<a `` repeated (html.parser rescans an unclosed tag from every
``<``), nested tags, unclosed quotes, ``>`` quote markers, one very long word, a line of spaces,
many RFC 2047 words, deep MIME nesting, a huge header, one line of 1 MB, 100,000 short lines...
Each case is one reader fed one shape at ``--size`` bytes (an order parser: a line as long as the
engine lets through); the input is built before the clock starts.  The engine cases go the whole way: the mail stored, read, routed, interpreted and
answered by `Engine.process_pending`, for a player and for the MJ of each game.

    .venv/bin/python scripts/hostile.py [--size 1000000] [--only read_message,html_to_text] [--list]
        [--progress] [--json]

``--progress`` prints ``start <case>`` before each case and ``done <case> <seconds>`` after it
(`tests/test_hostile_input.py` runs this in a subprocess and gives each case a generous timeout);
`bench/hostile.py` (`make bench`, figure 9) prints each reader's worst case at 100 KB and at 1 MB side by side.
The target (issue #19): no input of at most 1 MB costs more than a second.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import config as configmod  # noqa: E402
from pbem import names as namesmod  # noqa: E402
from pbem.core import MJ, OrderError  # noqa: E402
from pbem.engine import Engine, when, words  # noqa: E402
from pbem.engine.desk import mjmail  # noqa: E402
from pbem.engine.desk import reader as desk_reader  # noqa: E402
from pbem.engine.desk.readings import View  # noqa: E402
from pbem.limits import MAX_LINE_CHARS  # noqa: E402
from pbem.mail import bounces, mime, prose, reading, senders  # noqa: E402
from pbem.store import Store  # noqa: E402

SIZE = 1_000_000
TARGET_SECONDS = 1.0
"""Issue #19: no input of at most 1 MB costs more than a second."""

NOW = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
TZ = ZoneInfo("Europe/Paris")
PLAYERS = ["Arya Stark", "Bran Stark", "Cersei Lannister", "Davos Seaworth", "ser Schlingue"]
GAME_ADDRESS = "jeu@pbem.test"
MJ_ADDRESS = "mj@pbem.test"
_DESK_VIEW = View(NOW, TZ, tuple(PLAYERS), frozenset({"Arya Stark", "Cersei Lannister"}), deadline=NOW,
                  step_hours=48, open_turn=3, last_turn=2, order_words={"escouade": "ESCOUADE"})
"""The MJ's reader's view of a game at its third step."""


# --------------------------------------------------------------------------- shapes: text of about n characters


def _times(unit: str, n: int) -> str:
    return unit * max(1, n // len(unit))


TEXT_SHAPES: dict[str, Callable[[int], str]] = {
    "a-tags": lambda n: _times("<a ", n),
    "nested-tags": lambda n: _times("<div><b>", n),
    "unclosed-quote": lambda n: '<a href="' + "x" * n,
    "unclosed-quotes": lambda n: _times('<a title="x ', n),
    "unclosed-comment": lambda n: _times("<!--", n),
    "open-angles": lambda n: "<" * n,
    "quote-markers": lambda n: _times("> ", n),
    "quoted-lines": lambda n: _times(">>>> x\n", n),
    "long-word": lambda n: "a" * n,
    "digits": lambda n: "9" * n,
    "spaces": lambda n: "x" + " " * n + "x",
    "words": lambda n: _times("Arya ", n),
    "short-lines": lambda n: _times("ab cd ef\n", n),
    "encoded-words": lambda n: _times("=?utf-8?q?", n),
    "encoded-words-closed": lambda n: _times("=?utf-8?q?=C3=A9t=C3=A9?= ", n),
    "charsets": lambda n: "".join(f"=?x-bogus-{i}?q?a?= " for i in range(max(1, n // 22))),
    "at-signs": lambda n: _times("a@", n),
    "addresses": lambda n: "".join(f"p{i}@example.org, " for i in range(max(1, n // 19))),
    "parens": lambda n: "(" * n,
    "brackets": lambda n: _times("[a", n),
    "reply-prefixes": lambda n: "re" + " " * n + "x",
    "password-spaces": lambda n: "password" + " " * n,
    "params": lambda n: _times('; a="\\', n),
    "dashes": lambda n: "-" * n,
    "attribution": lambda n: "Le " + "a " * (n // 2) + "a écrit :",
    "entities": lambda n: _times("&#99999999999;&amp", n),
}


# --------------------------------------------------------------------------- shapes: raw mails of about n bytes


def _mail(body: bytes = b"x\n", *, content_type: str = "text/plain; charset=utf-8", headers: str = "",
          subject: str = "[PMB] ordres", sender: str = "p1@example.org") -> bytes:
    head = (f"From: {sender}\nTo: {GAME_ADDRESS}\nSubject: {subject}\nMessage-ID: <hostile@example.org>\n"
            f"MIME-Version: 1.0\nContent-Type: {content_type}\n{headers}")
    return head.encode("utf-8", "surrogateescape") + b"\n" + body


def _nested(n: int) -> bytes:
    depth = max(1, n // 80)
    opening = "".join(f"--b{i}\nContent-Type: multipart/mixed; boundary=\"b{i + 1}\"\n\n" for i in range(depth))
    closing = "".join(f"--b{i}--\n" for i in reversed(range(depth + 1)))
    return _mail(f"{opening}--b{depth}\nContent-Type: text/plain\n\nESCOUADE\n{closing}".encode(),
                 content_type='multipart/mixed; boundary="b0"')


def _many_parts(n: int) -> bytes:
    part = "--b\nContent-Type: text/html\n\n<p>x</p>\n"
    return _mail((_times(part, n) + "--b--\n").encode(), content_type='multipart/mixed; boundary="b"')


def _many_headers(n: int) -> bytes:
    return _mail(headers=_times("X-A: b\n", n))


def _bare_header_line(n: int) -> bytes:
    return _mail(headers="X" * n + "\n")


def _folded_header(n: int) -> bytes:
    return _mail(headers="X-Long: a\n" + _times(" folded continuation\n", n))


def _many_charsets(n: int) -> bytes:
    part = "--b\nContent-Type: text/plain; charset=\"x-bogus-{i}\"\n\nx\n"
    body = "".join(part.format(i=i) for i in range(max(1, n // 48)))
    return _mail((body + "--b--\n").encode(), content_type='multipart/alternative; boundary="b"')


def _base64_garbage(n: int) -> bytes:
    return _mail(_times("!!!!====@@@@\n", n).encode(), headers="Content-Transfer-Encoding: base64\n")


def _qp_garbage(n: int) -> bytes:
    return _mail(_times("=\n=3D=XX=", n).encode(), headers="Content-Transfer-Encoding: quoted-printable\n")


def _auth_results(n: int) -> bytes:
    return _mail(headers="Authentication-Results: mx.pbem.test; dkim=pass " + _times("(a ", n) + "\n")


def _bounce(n: int) -> bytes:
    body = ("--b\nContent-Type: text/plain\n\n" + _times("aaaaaaaa<", n // 2) + "\n--b\nContent-Type: "
            "message/delivery-status\n\nReporting-MTA: dns; mx\n\nFinal-Recipient: rfc822; a@b.c\nAction: failed\n"
            "Diagnostic-Code: smtp; 550" + _times("\n x", n // 2) + "\n--b--\n")
    return _mail(body.encode(), content_type='multipart/report; report-type=delivery-status; boundary="b"',
                 sender="MAILER-DAEMON@example.org", subject="Undelivered Mail Returned to Sender")


MAIL_SHAPES: dict[str, Callable[[int], bytes]] = {
    "deep-nesting": _nested,
    "many-parts": _many_parts,
    "many-headers": _many_headers,
    "bare-header-line": _bare_header_line,
    "folded-header": _folded_header,
    "many-charsets": _many_charsets,
    "base64-garbage": _base64_garbage,
    "qp-garbage": _qp_garbage,
    "auth-results-comments": _auth_results,
    "bounce-report": _bounce,
}
for _name, _text in TEXT_SHAPES.items():
    MAIL_SHAPES[f"html:{_name}"] = (lambda n, t=_text: _mail(t(n).encode(), content_type="text/html; charset=utf-8"))
    MAIL_SHAPES[f"plain:{_name}"] = (lambda n, t=_text: _mail(t(n).encode()))
    MAIL_SHAPES[f"subject:{_name}"] = (lambda n, t=_text: _mail(subject=t(n).replace("\n", " ")))
    MAIL_SHAPES[f"to:{_name}"] = (lambda n, t=_text: _mail(headers=f"Cc: {t(n)}\n".replace("\n", " ") + "\n"))
    MAIL_SHAPES[f"auth:{_name}"] = (lambda n, t=_text: _mail(
        headers="Authentication-Results: mx.pbem.test; dkim=pass " + t(n).replace("\n", " ") + "\n"))

LINE_SHAPES = [name for name in TEXT_SHAPES if name != "short-lines"]
"""The shapes a reader of one line is fed (a mail's lines are split before a line reader sees them)."""


# --------------------------------------------------------------------------- readers


@dataclass(frozen=True)
class Case:
    reader: str
    shape: str
    prepare: Callable[[int], Callable[[], object]]
    """Builds the input (not timed) and returns the call that reads it (timed)."""

    @property
    def name(self) -> str:
        return f"{self.reader}/{self.shape}"


def _text_case(reader: str, fn: Callable[[str], object], shapes: list[str]) -> Iterator[Case]:
    for shape in shapes:
        def prepare(n: int, shape: str = shape) -> Callable[[], object]:
            text = TEXT_SHAPES[shape](n)
            return lambda: fn(text)
        yield Case(reader, shape, prepare)


def _mail_case(reader: str, fn: Callable[[bytes], object], shapes: list[str]) -> Iterator[Case]:
    for shape in shapes:
        def prepare(n: int, shape: str = shape) -> Callable[[], object]:
            raw = MAIL_SHAPES[shape](n)
            return lambda: fn(raw)
        yield Case(reader, shape, prepare)


def _stdlib_read(raw: bytes) -> object:
    """The standard library's reading of what `reading.within_caps` lets through (as `read_message` does it
    when the fast reader is unsure)."""
    return reading._read(reading.within_caps(raw, []), [], fast=False)


def _automatic(raw: bytes) -> object:
    mail = reading.read_message(raw)
    return senders.is_automatic(mail, {GAME_ADDRESS}), senders.is_bulk(mail)


def _names(text: str) -> object:
    out = []
    for fn in (lambda: namesmod.match_name(text, PLAYERS), lambda: namesmod.take_name(namesmod.words(text), PLAYERS),
               lambda: namesmod.match_keyword(text, {"escouade": "ESCOUADE", "affecter": "AFFECTER"})):
        try:
            out.append(fn())
        except Exception as e:  # noqa: BLE001  (the order errors are the expected answers)
            out.append(type(e).__name__)
    return out


def _mj_line(text: str) -> object:
    """One MJ line after each command's word, read by meaning (the grammar of `mjmail` is gone: issue #21)."""
    out: list[object] = []
    for head in ("", "Prolonge de ", "Pause du ", "Absence Arya du ", "Renvoie ", "Remplace Arya par ",
                 "Corrige le tour 1 pour Arya : ", "Retire "):
        out.append(desk_reader.read(head + text, _DESK_VIEW).readings)
    out.append(mjmail.closest(text))
    return out


def _desk_mail(text: str) -> object:
    """The MJ's mail read by meaning (`pbem.engine.desk.reader`), whole, in a game at its third step."""
    return [desk_reader.read(text, _DESK_VIEW, text[:2000].replace("\n", " ")), desk_reader.common(text, _DESK_VIEW)]


def _dates(text: str) -> object:
    out: list[object] = []
    for fn in (lambda: when.parse_span(text, NOW, TZ), lambda: when.parse_duration(text),
               lambda: when.parse_moment(text, NOW, TZ, datetime.min.time()),
               lambda: when.parse_span("du 8 " + text, NOW, TZ), lambda: when.parse_span("pendant " + text, NOW, TZ)):
        try:
            out.append(fn())
        except when.WhenError as e:
            out.append(e.msg.en[:40])
    return out


def _auth(raw: bytes) -> object:
    return senders.auth_verdict(reading.read_message(raw), ("mx.pbem.test",), "dkim")


def _prose(text: str) -> object:
    return prose.is_chatter(text), prose.looks_like_sentence(text)


def _passwords(text: str) -> object:
    return senders.check_password(text, "secret")[0], senders.given_password(text)


def reader_cases() -> list[Case]:
    """Every reader below the engine, with the shapes that reach it."""
    mails = list(MAIL_SHAPES)
    cases: list[Case] = []
    cases += _mail_case("read_message", reading.read_message, mails)
    cases += _mail_case("mime.parse", mime.parse, mails)
    cases += _mail_case("stdlib-fallback", _stdlib_read, [m for m in mails if not m.startswith(("to:", "subject:"))])
    cases += _mail_case("read_bounce", bounces.read_bounce, mails)
    cases += _mail_case("is_automatic", _automatic, [m for m in mails if m.startswith(("subject:", "to:"))]
                        + ["many-headers", "bounce-report"])
    cases += _mail_case("auth_verdict", _auth, [m for m in mails if m.startswith("auth:")] + ["auth-results-comments"])
    cases += _text_case("html_to_text", reading.html_to_text, list(TEXT_SHAPES))
    cases += _text_case("clean_order_text", reading.clean_order_text, list(TEXT_SHAPES))
    cases += _text_case("decode_header_text", reading.decode_header_text, LINE_SHAPES)
    cases += _text_case("subject_tags", reading.subject_tags, LINE_SHAPES)
    cases += _text_case("addresses", lambda t: reading._addresses([t]), LINE_SHAPES)
    cases += _text_case("passwords", _passwords, list(TEXT_SHAPES))
    cases += _text_case("asks_to_join", lambda t: words.asks_to_join(t, t[:1000]), list(TEXT_SHAPES))
    cases += _text_case("prose", _prose, LINE_SHAPES)
    cases += _text_case("names", _names, LINE_SHAPES)
    cases += _text_case("mjmail", _mj_line, LINE_SHAPES)
    cases += _text_case("desk.reader", _desk_mail, list(TEXT_SHAPES))
    cases += _text_case("when", _dates, LINE_SHAPES)
    return cases


# --------------------------------------------------------------------------- the engine, end to end


GAMES: dict[str, dict[str, Any]] = {
    "pmb": {"ruleset": "pmb", "tag": "PMB", "players": 12},
    "intrigue": {"ruleset": "intrigue", "tag": "INTRIGUE", "players": 5},
    "pourleroi": {"ruleset": "pourleroi", "tag": "ROI", "players": 5},
    "courtisans": {"ruleset": "courtisans", "tag": "COURTISANS", "players": 4},
    "1626": {"ruleset": "1626", "tag": "GANT", "players": 0},
}
ENGINE_SHAPES = ["html:a-tags", "html:unclosed-quotes", "plain:long-word", "plain:spaces", "plain:words",
                 "plain:short-lines", "plain:digits", "plain:quote-markers", "subject:encoded-words-closed",
                 "deep-nesting", "many-headers"]


class Games:
    """One running game of each ruleset in one database, a player of each and its MJ writing."""

    def __init__(self, root: Path):
        from pbem.folder import DATA
        from pbem.games.g1626.sheet import seats_from_toml

        games = {gid: {"ruleset": g["ruleset"], "tag": g["tag"], "mj": MJ_ADDRESS, "registration": "1d",
                       "deadlines": {"turn": "2d", "short": "1d"}} for gid, g in GAMES.items()}
        roster = DATA / "1626" / "personnages.toml"
        games["1626"]["roster"] = str(roster)
        data = {"pbem": {"database": str(root / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(root / "forum"),
                         "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000},
                "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
                "outbox": {"kind": "maildir", "path": str(root / "outbox")}, "games": games}
        self.config = configmod.parse(data, root)
        self.store = Store(self.config.database)
        self.engine = Engine(self.config, self.store)
        self.player: dict[str, str] = {}
        for gid, g in GAMES.items():
            self.engine.new_game(gid, NOW, seed="5eed" * 16)
            names = ([s.name for s in seats_from_toml(roster.read_text("utf-8"))] if gid == "1626"
                     else [f"Joueur {i + 1:02d}" for i in range(g["players"])])
            for i, name in enumerate(names):
                self.engine.add_player(gid, name, f"{gid}-{i}@example.org", NOW)
            self.engine.start_game(gid, NOW + timedelta(minutes=1))
            self.player[gid] = f"{gid}-0@example.org"
        self.count = 0

    def process(self, raw: bytes) -> Callable[[], object]:
        self.count += 1
        key = f"hostile:{self.count}"
        raw = raw.replace(b"<hostile@example.org>", f"<hostile-{self.count}@example.org>".encode(), 1)
        self.store.store_raw([(key, raw)], NOW + timedelta(minutes=2))

        def run() -> object:
            done = self.engine.process_pending(NOW + timedelta(minutes=3))
            assert key in done, f"{key} not processed"
            return self.store.messages()[-1].verdict
        return run

    def close(self) -> None:
        self.store.close()


def order_cases(games: Callable[[], Games]) -> list[Case]:
    """Each game's order parser, fed lines as long as the engine lets through (`MAX_LINE_CHARS`), each
    beginning with one of the game's order words, for a player and for the MJ."""
    cases: list[Case] = []
    for gid in GAMES:
        for shape in LINE_SHAPES:
            def prepare(n: int, gid: str = gid, shape: str = shape) -> Callable[[], object]:
                h = games()
                state = h.engine.state(h.engine.game(gid))
                ruleset = h.engine.ruleset(gid)
                player = ruleset.players(state)[0]
                verbs = {help.syntax.split()[0] for who in (player, MJ) for help in ruleset.help(state, who)}
                tail = TEXT_SHAPES[shape](min(n, MAX_LINE_CHARS))
                lines = [(who, f"{verb} {tail}"[:MAX_LINE_CHARS]) for verb in sorted(verbs) for who in (player, MJ)]

                def call() -> object:
                    out = []
                    for who, line in lines:
                        try:
                            out.append(ruleset.parse_order(state, who, line, [], author=None))
                        except OrderError as e:
                            out.append(type(e).__name__)
                    return out
                return call
            cases.append(Case(f"orders-{gid}", shape, prepare))
    return cases


def engine_cases(games: Callable[[], Games]) -> list[Case]:
    cases: list[Case] = []
    for gid, g in GAMES.items():
        for who in ("player", "mj"):
            for shape in ENGINE_SHAPES:
                def prepare(n: int, gid: str = gid, who: str = who, shape: str = shape,
                            tag: str = g["tag"]) -> Callable[[], object]:
                    h = games()
                    sender = MJ_ADDRESS if who == "mj" else h.player[gid]
                    raw = MAIL_SHAPES[shape](n).replace(b"p1@example.org", sender.encode(), 1)
                    raw = raw.replace(b"[PMB]", f"[{tag}]".encode(), 1) if b"[PMB]" in raw else raw.replace(
                        b"Subject: ", f"Subject: [{tag}] ".encode(), 1)
                    return h.process(raw)
                cases.append(Case(f"engine-{gid}-{who}", shape, prepare))
    return cases


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Result:
    case: Case
    seconds: float
    error: str = ""
    """What the reader raised (a reader of untrusted input answers, it never raises)."""


def run(cases: list[Case], size: int, progress: Callable[[str], None] | None = None) -> list[Result]:
    out = []
    for case in cases:
        call = case.prepare(size)
        if progress:
            progress(f"start {case.name}")
        error = ""
        t0 = time.perf_counter()
        try:
            call()
        except Exception as e:  # noqa: BLE001  (reported: a reader must not raise)
            error = f"{type(e).__name__}: {e}"[:300]
        seconds = time.perf_counter() - t0
        if progress:
            progress(f"done {case.name} {seconds:.4f}" + (f" raised {error}" if error else ""))
        out.append(Result(case, seconds, error))
    return out


def all_cases(tmp: Path) -> tuple[list[Case], Callable[[], None]]:
    """Every case, and what closes the engine's database once they are run."""
    holder: list[Games] = []

    def games() -> Games:
        if not holder:
            holder.append(Games(tmp))
        return holder[0]

    def close() -> None:
        for h in holder:
            h.close()
    return reader_cases() + order_cases(games) + engine_cases(games), close


def worst_by_reader(results: list[Result]) -> dict[str, tuple[str, float]]:
    """Each reader's slowest case: (shape, seconds)."""
    worst: dict[str, tuple[str, float]] = {}
    for r in results:
        if r.case.reader not in worst or r.seconds > worst[r.case.reader][1]:
            worst[r.case.reader] = (r.case.shape, r.seconds)
    return worst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=SIZE)
    ap.add_argument("--only", default="", help="readers (or reader/shape cases), comma-separated")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-hostile-") as tmp:
        cases, close = all_cases(Path(tmp))
        if args.only:
            wanted = set(args.only.split(","))
            cases = [c for c in cases if c.reader in wanted or c.name in wanted]
        if args.list:
            print("\n".join(c.name for c in cases))
            return 0
        try:
            results = run(cases, args.size, (lambda line: print(line, flush=True)) if args.progress else None)
        finally:
            close()
    if args.json:
        print(json.dumps({r.case.name: [r.seconds, r.error] for r in results}))
        return 0
    for reader, (shape, seconds) in worst_by_reader(results).items():
        print(f"{reader:32} worst {seconds * 1000:9.1f} ms  ({shape})")
    bad = [r for r in results if r.seconds > TARGET_SECONDS or r.error]
    print(f"{len(results)} cases at {args.size:,} bytes; {len(bad)} over {TARGET_SECONDS:g} s or raising"
          + "".join(f"\n  {r.case.name}: {r.seconds:.2f} s {r.error}" for r in bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
