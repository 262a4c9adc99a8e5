"""The corpus of MJ mails (tests/fixtures/mjmail) run through the MJ mail reader, case by case, in the corpus's
world: what each case expects, what the reader made of it, and whether they agree.

`run_case` reads one case; `outcomes` every case of a file, one `Outcome` per expectation; `report` the shares
(understood, asked, refused, prose, wrong) by expect and by command, as `python tests/mjmail_corpus.py`
prints them.
"""

from __future__ import annotations

import sys
import tomllib
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pbem.engine.desk import reader
from pbem.engine.desk.readings import Intent, MailReading, Reading, Request, Thread, View
from pbem.games.pmb.ruleset import PmbRuleset

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "mjmail"
CORPUS = FIXTURES / "corpus.toml"
HELDOUT = FIXTURES / "heldout.toml"
PARIS = ZoneInfo("Europe/Paris")
PMB_WORDS = {"escouade": "ESCOUADE", "squad": "ESCOUADE", "attack": "ESCOUADE", "passer": "PASSER",
             "pass": "PASSER"}
PMB_WISHES = {w: k for w, k in PmbRuleset.wish_words.items() if k in PMB_WORDS.values()}
"""Pour Ma Belle's own verbs of a wish (`Ruleset.wish_words`), for the orders the corpus's world knows."""
MISSES: dict[str, str] = {}
"""The corpus cases the reader still gets wrong, and why (each asked or refused, never carried out)."""
G1626_WORDS = {"test": "TEST", "jet": "TEST", "roll": "TEST", "check": "TEST"}


def load(path: Path = CORPUS) -> dict[str, Any]:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    if "world" not in data:
        with open(CORPUS, "rb") as f:
            data["world"] = tomllib.load(f)["world"]
    return data


def _instant(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=PARIS)


def _value(text: Any) -> Any:
    if isinstance(text, str) and len(text) == 10 and text[4] == "-" and text[7] == "-":
        return date.fromisoformat(text)
    if isinstance(text, str) and len(text) == 16 and text[4] == "-" and text[10] == " ":
        return _instant(text)
    return text


def view_for(world: Mapping[str, Any], case: Mapping[str, Any]) -> View:
    """The reader's view of the case's game, in the corpus's world (with the case's own state)."""
    now = _instant(world["now"])
    state = case.get("state", {})
    thread = _thread(case)
    if case.get("game") == "g1626":
        g = world["games"]["g1626"]
        requests = tuple(Request(r["number"], r["player"], r["test"]) for r in g["pending_tests"])
        return View(now, PARIS, tuple(g["roster"]), frozenset({"Mathilde"}), requests=requests,
                    order_words=G1626_WORDS, thread=thread, lang=case.get("lang", "fr"))
    g = world["games"]["pmb1"]
    absent = frozenset({state["absent"]}) if "absent" in state else frozenset()
    nicknames = {name: tuple(given) for name, given in g.get("nicknames", {}).items()}
    return View(now, PARIS, tuple(g["roster"]), frozenset(g["women"]), nicknames=nicknames, deadline=_instant(g["deadline"]),
                step_hours=48, open_turn=g["open_step"], last_turn=max(g["resolved_steps"]),
                held=state.get("held"), paused="paused_since" in state, pause_planned="pause_start" in state,
                absent=absent, order_words=PMB_WORDS, wish_words=PMB_WISHES, lang=case.get("lang", "fr"), thread=thread)


def _thread(case: Mapping[str, Any]) -> Thread | None:
    reply = case.get("reply_to")
    if not reply:
        return None
    kind, _, what = reply.partition(":")
    if kind == "digest":
        return Thread("digest", turn=int(what))
    if kind == "notice":
        numbers = tuple(int(x) for x in _numbers_after(case.get("quoted", ""), "n° "))
        return Thread("notice", players=(what,), requests=numbers)
    if kind == "stranger":
        name, _, addr = what.rpartition("<")
        return Thread("stranger", stranger=(name.strip(), addr.strip(" >")))
    if kind == "confirmation":
        p = case["pending"]
        return Thread("confirmation", pending=(Intent(p["command"], {k: _value(v) for k, v in p["slots"].items()}),))
    raise ValueError(reply)


def _numbers_after(text: str, mark: str) -> list[str]:
    out = []
    at = text.find(mark)
    while at >= 0:
        digits = ""
        for c in text[at + len(mark):]:
            if not c.isdigit():
                break
            digits += c
        if digits:
            out.append(digits)
        at = text.find(mark, at + 1)
    return list(dict.fromkeys(out))


def subject_for(case: Mapping[str, Any]) -> str:
    if "subject" in case:
        return str(case["subject"])
    tag = "[1626]" if case.get("game") == "g1626" else "[PMB]"
    return f"Re: {tag} …" if case.get("reply_to") else f"{tag} …"


def run_case(world: Mapping[str, Any], case: Mapping[str, Any]) -> MailReading:
    return reader.read(case["body"], view_for(world, case), subject_for(case))


# --- comparing -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One expectation of a case, and what the reader did with it."""

    case: str
    expect: str
    command: str | None
    got: str  # the reader's verdict: do, ask, refuse, none
    got_command: str | None
    right: bool
    why: str = ""

    @property
    def unsafe(self) -> bool:
        """The reader would act (do) where the case does not expect that exact command carried out."""
        return self.got == "do" and not self.right and self.got_command not in ("MISSING", "HELP", "PREVIEW")


def _fold(x: Any) -> str:
    text = unicodedata.normalize("NFKD", str(x))
    return "".join(c for c in text if not unicodedata.combining(c)).casefold().strip()


def _show(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.astimezone(PARIS).strftime("%Y-%m-%d %H:%M")
    if isinstance(v, date):
        return v.isoformat()
    return v


def _slots_agree(expected: Mapping[str, Any], got: Mapping[str, Any], exp: Mapping[str, Any]) -> str:
    """"" if the reading's slots are the expected ones, else what differs."""
    for key, want in expected.items():
        have = got.get(key)
        if key in ("reason", "text"):
            if not have:
                return f"{key}: missing"
            continue
        if key == "order":
            if _fold(have) != _fold(want):
                return f"order: {have!r} != {want!r}"
            continue
        if _show(have) != want and not (isinstance(want, (int, float)) and have == want):
            return f"{key}: {_show(have)!r} != {want!r}"
    for key in got:
        if key not in expected and key not in ("reason",) and not (key == "text" and "text_contains" in exp):
            return f"{key}: not expected ({_show(got[key])!r})"
    for mark, key in (("reason_contains", "reason"), ("text_contains", "text")):
        if mark in exp and _fold(exp[mark]) not in _fold(got.get(key, "")):
            return f"{key} {got.get(key)!r} lacks {exp[mark]!r}"
    return ""


def _verdicts(mail: MailReading) -> list[tuple[str, Reading | None]]:
    """What the reader made of a mail, as a list of (verdict, reading) in the mail's order."""
    out: list[tuple[int, str, Reading | None]] = [(r.line, r.verdict, r) for r in mail.readings]
    out += [(i, "refuse", None) for i, kind in mail.lines.items() if kind in ("request", "typo")]
    return [(v, r) for _i, v, r in sorted(out, key=lambda x: x[0])]


def _compare(cid: str, exp: Mapping[str, Any], got: tuple[str, Reading | None] | None) -> Outcome:
    expect = exp["expect"]
    command = exp.get("command")
    if got is None:
        return Outcome(cid, expect, command, "none", None, expect == "none", "" if expect == "none" else "nothing read")
    verdict, r = got
    got_command = r.command if r is not None else None
    if expect == "none":
        return Outcome(cid, expect, command, verdict, got_command, False, "read a command in prose")
    if verdict != expect:
        detail = r.why.fr if r is not None and r.why is not None else ""
        return Outcome(cid, expect, command, verdict, got_command, False,
                       f"{verdict} {got_command} {r.slots if r else ''} {detail}")
    if command is not None and got_command != command and not (expect == "refuse" and got_command is None
                                                               and "candidates" not in exp):
        return Outcome(cid, expect, command, verdict, got_command, False, f"command {got_command}")
    if expect in ("do", "ask"):
        assert r is not None
        diff = _slots_agree({k: v for k, v in exp.get("slots", {}).items()}, r.slots, exp)
        if diff:
            return Outcome(cid, expect, command, verdict, got_command, False, diff)
    if expect == "refuse" and r is not None:
        if "candidates" in exp and sorted(r.candidates) != sorted(exp["candidates"]):
            return Outcome(cid, expect, command, verdict, got_command, False, f"candidates {r.candidates}")
        if "test_candidates" in exp and sorted(r.test_candidates) != sorted(exp["test_candidates"]):
            return Outcome(cid, expect, command, verdict, got_command, False, f"tests {r.test_candidates}")
        if "missing" in exp and sorted(r.missing) != sorted(exp["missing"]):
            return Outcome(cid, expect, command, verdict, got_command, False, f"missing {r.missing}")
    return Outcome(cid, expect, command, verdict, got_command, True)


def outcomes(data: Mapping[str, Any]) -> list[Outcome]:
    out: list[Outcome] = []
    world = data["world"]
    for case in data["case"]:
        out.extend(case_outcomes(world, case))
    return out


def case_outcomes(world: Mapping[str, Any], case: Mapping[str, Any]) -> list[Outcome]:
    mail = run_case(world, case)
    got = _verdicts(mail)
    expected: Sequence[Mapping[str, Any]] = case.get("commands") or [case]
    if len(expected) == 1 and expected[0]["expect"] == "none":
        return [_compare(case["id"], expected[0], got[0] if got else None)]
    out = []
    for n, exp in enumerate(expected):
        out.append(_compare(case["id"], exp, got[n] if n < len(got) else None))
    if len(got) > len(expected) and all(o.right for o in out):
        extra = got[len(expected)]
        out[-1] = Outcome(case["id"], out[-1].expect, out[-1].command, extra[0],
                          extra[1].command if extra[1] else None, False, f"one more: {extra[0]}")
    return out


def report(results: Sequence[Outcome], title: str) -> str:
    n = len(results)
    lines = [f"{title}: {n} expectations"]
    got = Counter(o.got for o in results)
    right = sum(o.right for o in results)
    lines.append(f"  the reader: understood (do) {got['do']} ({got['do'] / n:.0%}), asked {got['ask']} "
                 f"({got['ask'] / n:.0%}), refused {got['refuse']} ({got['refuse'] / n:.0%}), prose {got['none']} "
                 f"({got['none'] / n:.0%})")
    lines.append(f"  agreeing with the expectation: {right} ({right / n:.0%}); wrong {n - right} "
                 f"({(n - right) / n:.0%}); acting where it should not (unsafe): {sum(o.unsafe for o in results)}")
    lines.append("  by expect:   right / total  (the reader's verdicts)")
    for expect in ("do", "ask", "refuse", "none"):
        group = [o for o in results if o.expect == expect]
        if group:
            c = Counter(o.got for o in group)
            lines.append(f"    {expect:7} {sum(o.right for o in group):4} / {len(group):<4} "
                         + ", ".join(f"{k} {c[k]}" for k in ("do", "ask", "refuse", "none") if c[k]))
    lines.append("  by command:  right / total")
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in results:
        by[o.command or "(none)"].append(o)
    for command in sorted(by):
        group = by[command]
        lines.append(f"    {command:12} {sum(o.right for o in group):4} / {len(group)}")
    return "\n".join(lines)


if __name__ == "__main__":
    verbose = "-v" in sys.argv
    for path in (CORPUS, HELDOUT):
        res = outcomes(load(path))
        print(report(res, path.name))
        if verbose and path == CORPUS:  # (the held-out set is never looked at case by case: it is not tuned on)
            for o in res:
                if not o.right:
                    print(f"    WRONG {o.case}: expected {o.expect} {o.command}; {o.why}")
        print()
