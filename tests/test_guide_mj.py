"""Every example of the MJ's guide (docs/guide-mj.md) is accepted by pbem as written.

```mj blocks: each line is an MJ command (`pbem.engine.desk.mjmail`), a POUR line, or (the 1626 block) an order the
MJ sends to a 1626 game, played here through the real engine; ```joueur blocks: each line a player sends.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from helpers import body, outbox_messages
from mjseat_helpers import PLAYERS, Table, example_views

from pbem.engine.desk import mjmail, reader
from pbem.names import fold

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "guide-mj.md"
NOW = datetime(2025, 2, 1, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))  # the guide's dates are February 2025


def blocks(kind: str) -> list[list[str]]:
    text = GUIDE.read_text(encoding="utf-8")
    return [[line for line in block.splitlines() if line.strip()]
            for block in re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)]


def _read(text: str) -> list[str]:
    """The commands the reader carries out or asks about in a text of the guide, in one of the guide's worlds."""
    views = example_views(paused=fold(text).startswith("reprise"), confirming=fold(text).startswith("oui"))
    return [r.command or "" for view in views for r in reader.read(text, view).readings if r.verdict in ("do", "ask")]


def test_the_guide_has_examples_of_every_command():
    kinds = {k for block in blocks("mj") for k in _read("\n".join(block))}
    kinds |= {k for block in blocks("mj") for line in block for k in _read(line)}
    assert kinds >= {c.kind for c in mjmail.COMMANDS} - {"HELP"}


@pytest.mark.parametrize("line", [line for block in blocks("mj") for line in block
                                  if not line.startswith(("SR ", "LANCER", "POUR Isaac"))])
def test_every_mj_example_is_an_mj_command_as_written(line):
    if line.startswith("POUR "):
        assert re.match(r"^POUR \w+ : \S", line), line
        return
    if line.startswith("Ce soir-là") or line in ("Fin de la chronique", "Fin", "Chronique"):  # a chronicle's block
        return
    assert _read(line), line


def test_the_1626_examples_through_the_engine(tmp_path):
    from pbem.demo import MJ_ADDRESS, SEED, Demo
    from pbem.folder import DATA

    d = Demo(tmp_path / "1626", "gant", {"ruleset": "1626", "tag": "1626", "registration": "1d",
                                         "roster": str(DATA / "1626" / "personnages.toml")})
    d.engine.new_game("gant", d.now, seed=SEED)
    players = {"Armand": "a@x.org", "Isaac": "i@x.org", "Henri": "h@x.org", "Charles": "c@x.org"}
    for name, address in players.items():
        d.mail(address, f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.engine.start_game("gant", d.now)
    (block,) = [b for b in blocks("mj") if b[0].startswith("SR ")]
    # the requests the guide's answers answer: n° 1 alone first, then n° 2 to 4
    d.mail(players["Armand"], "TEST Escrime AG", "test")
    d.tick()
    for line in block:
        if line.startswith("SR 17"):
            d.mail(players["Henri"], "TEST Théologie EDU", "test")  # n° 2
            d.mail(players["Charles"], "TEST Escrime AG", "test")  # n° 3
            d.mail(players["Armand"], "TEST FO SR 12", "test")  # n° 4, with the SR he suggests
            d.tick()
        d.mail(MJ_ADDRESS, line, "MJ")
        d.tick()
        answer = body(outbox_messages(d.store, kind="ack", rcpt=MJ_ADDRESS)[-1])
        assert f"{line}\n    -> OK" in answer, answer
    d.close()


@pytest.mark.parametrize("line", [line for block in blocks("joueur") for line in block])
def test_every_player_example_is_accepted_as_written(tmp_path, line):
    t = Table(tmp_path)
    if line == "ABSENCE ANNULER":
        t.mail(PLAYERS["Bran"], "ABSENCE 3 jours")
    t.mail(PLAYERS["Bran"], line)
    ack = t.last("ack", PLAYERS["Bran"])
    assert f"{line}\n    -> OK" in ack, ack
    t.close()


def test_the_guide_says_what_the_cli_does(tmp_path):
    text = GUIDE.read_text(encoding="utf-8")
    for command in ("pbem game pause", "pbem game resume", "pbem game missing", "pbem turn preview",
                    "pbem turn publish", "pbem player absence"):
        assert command in text
    assert datetime(2025, 2, 8).weekday() == 5 and datetime(2025, 2, 17, tzinfo=UTC).weekday() == 0
