"""The MJ's seat writes French as FRENCH.md asks: a non-breaking space before : ; ? ! and inside « », no « (s) »."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.cli.text import MESSAGES, PLURALS
from pbem.engine.desk.mjmail import COMMANDS
from pbem.render import TEMPLATES

SEAT_TEMPLATES = ["desk", "ack_mj", "help_mj", "pause", "seat", "briefing", "approval", "for_you", "resent",
                  "digest_actions"]
BAD = re.compile(r" [:;?!]|« | »|\(s\)|\(e\)")


def _text_outside_tags(source: str) -> str:
    return re.sub(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", " ", source, flags=re.S)


@pytest.mark.parametrize("name", SEAT_TEMPLATES)
def test_the_seats_french_templates(name):
    text = _text_outside_tags((TEMPLATES / "common" / f"{name}.fr.j2").read_text(encoding="utf-8"))
    assert not BAD.findall(text), [line for line in text.splitlines() if BAD.search(line)]


def test_the_seats_french_messages():
    texts = [m.fr for m in MESSAGES.values()] + [m.fr for pair in PLURALS.values() for m in pair]
    texts += [t for c in COMMANDS for t in (c.syntax.fr, c.example.fr, c.does.fr)]
    bad = [t for t in texts if BAD.search(t)]
    assert not bad, bad


def test_no_plain_space_before_a_colon_in_the_seats_french_code_strings():
    root = Path(__file__).resolve().parents[1] / "pbem"
    for module in ("engine/orders/mjdesk.py", "engine/desk/pauses.py", "engine/desk/approval.py",
                   "engine/desk/seats.py", "engine/desk/absences.py", "engine/when.py", "engine/desk/mjmail.py",
                   "cli/text.py", "engine/steps/calendar.py", "engine/steps/handover.py", "engine/steps/publish.py",
                   "engine/table.py"):
        for line in (root / module).read_text(encoding="utf-8").splitlines():
            for literal in re.findall(r'fr=f?"([^"]*)"|Msg\(f?"([^"]*)"', line):
                text = "".join(literal)
                assert not BAD.search(text), (module, text)
