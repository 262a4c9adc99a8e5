"""A French MJ never reads English: every command of the CLI, run in a French game folder, and every help
page, are scanned for English words.

The check is a heuristic: a list of words that are English and not French (« the », « fetched »,
« already »…), looked for in what is left once the things that are the same in both languages are set
aside (paths, addresses, hex digests, commands and options as typed, template names, the values an option
takes).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.folder import init_folder

ENGLISH = frozenset("""
the and of is are was not with from this that has have will which been into its their there than
fetched processed sent failed already exists does match gives recorded steps aside holds looks stuck
players reminders resolved started mails written cannot you your did mean show shows missing invalid
such errors warning lines seed roll rolls turn game games player deadline registration approval
retry failed queued nothing should would could must because before after every only when where while
""".split())

_SET_ASIDE = [
    re.compile(r"^Usage\W.*$", re.MULTILINE),  # the usage line: the command as typed
    re.compile(r"^ {2}[a-z][\w-]*(?= {2,}| *$)", re.MULTILINE),  # a group's list of its commands, as typed
    re.compile(r"pbem(?: (?:[a-z][\w.-]*|-[\w-]+(?:[ =][^\s,;)»]+)?|GAME|PARTIE|FOLDER|DOSSIER|\[[^\]]*\]|\.\.\.|…))+"),
    re.compile(r"--?[a-z][\w-]*(?:[ =](?:[a-z]+(?:[|/][a-z]+)*|\[[^\]]*\]))?"),  # options as typed, with a value
    re.compile(r"\[[a-z_|]+\]"),  # click's list of an option's values
    re.compile(r"\S+@\S+"),  # addresses, Message-IDs
    re.compile(r"(?:~|\.{1,2})?/\S*"),  # paths
    re.compile(r"\b[0-9a-f]{16,}\b"),  # digests, seeds
    re.compile(r"\b[\w-]+\.(?:j2|toml|md|ics|csv|json|html|service|timer|sqlite|lock|eml|txt|bbcode|png|svg)\b"),
    re.compile(r"\b[A-Z_]{2,}\b"),  # placeholders and order words (GAME_ID, INSCRIPTION)
    re.compile(r"«[^»]*»"),  # quoted words: the user's or a rule's own
    re.compile(r"`[^`]*`"),
]


def english_words(text: str) -> list[str]:
    for pattern in _SET_ASIDE:
        text = pattern.sub(" ", text)
    return sorted({w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH})


def test_the_detector_finds_english_and_leaves_french_alone():
    assert english_words("0 fetched; 0 processed; 1 sent, 0 to retry, 0 failed") == [
        "failed", "fetched", "processed", "retry", "sent"]
    assert english_words("Error: /x/config.toml exists already: pbem init never overwrites") == [
        "already", "exists"]
    assert english_words("Erreur : le fichier /tmp/the/and.toml existe déjà ; pbem mail list --status error") == []
    assert english_words("5 players by mail") == ["players"]


T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
GAME = """
[games.intr1]
ruleset = "intrigue"
tag = "INT"
title = "Intrigue"
mj = "mj@example.org"
registration = "1d"
"""


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    ctx = click.Context(group)  # (through list_commands: the root loads its commands when asked)
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            found += _commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fr") / "jeu"
    init_folder(root, pbem_command="/opt/pbem/bin/pbem")
    with open(root / "config.toml", "a", encoding="utf-8") as f:
        f.write(GAME)
    inbox = root / "data" / "mail" / "inbox" / "new"
    for sub in ("new", "cur", "tmp"):
        (inbox.parent / sub).mkdir(parents=True, exist_ok=True)  # a player's mail, read by the first tick: `mail list` has a verdict to say
    (inbox / "1.eml").write_bytes(b"From: l@example.org\r\nTo: jeu@example.org\r\nSubject: [INT] etat\r\n"
                                  b"Message-ID: <m1@example.org>\r\n\r\nETAT\r\n")
    return root


def _run(folder: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--config", str(folder / "config.toml"), *args], prog_name="pbem")
    assert "Traceback" not in result.output, result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):  # (a crash: never)
        raise result.exception
    return result.output


def test_every_help_page_is_french(folder):
    for path in _commands(main):
        out = _run(folder, *path, "--help")
        assert english_words(out) == [], (path, english_words(out), out)


def test_every_command_a_french_mj_runs_answers_in_french(folder, tmp_path):
    at = {"now": T0}

    def run(*args: str, later: float = 0) -> str:
        at["now"] += timedelta(hours=later)
        return _run(folder, *args, "--now", at["now"].isoformat()) if "--now" in _NOW_OK.get(args[0], ()) or \
            (len(args) > 1 and (args[0], args[1]) in _NOW_SUB) else _run(folder, *args)

    said: list[tuple[tuple[str, ...], str]] = []
    script: list[tuple[str, ...]] = [
        ("game", "new", "intr1"), ("player", "add", "intr1", "Lorenzo", "l@example.org"),
        ("player", "add", "intr1", "Isabella", "i@example.org"), ("player", "add", "intr1", "Cesare", "c@example.org"),
        ("player", "add", "intr1", "Lucrezia", "u@example.org"), ("player", "add", "intr1", "Lorenzo", "x@example.org"),
        ("game", "start", "intr1"), ("game", "status", "intr1"), ("game", "list"), ("player", "list", "intr1"),
        ("game", "missing", "intr1"), ("orders", "show", "intr1"), ("turn", "preview", "intr1"), ("tick",),
        ("mail", "list"), ("mail", "retry", "--errors"), ("outbox", "list"), ("outbox", "retry", "--failed"),
        ("game", "extend", "intr1", "--hours", "12"), ("game", "pause", "intr1", "--reason", "vacances"),
        ("game", "resume", "intr1"), ("turn", "resolve", "intr1"), ("turn", "show", "intr1", "1"), ("tick",),
        ("export", "intr1", "--csv"), ("export", "intr1", "--json", "--public"), ("export", "intr1"),
        ("verify", "intr1"), ("calendar", "intr1", str(tmp_path / "intr1.ics")),
        ("templates", "list"), ("templates", "copy", "common/ack.fr.j2"), ("templates", "copy", "common/ack.fr.j2"),
        ("templates", "copy", "ack.fr"), ("templates", "copy", "common/reminder.fr.j2", "--game", "intr9"),
        ("doctor",), ("systemd", "--kind", "user"), ("guide", "--list"), ("guide", "diplomatie"),
        ("init", str(folder)), ("game", "status", "intr9"), ("game", "bogus"), ("game", "status"),
        ("player", "add", "intr1"), ("game", "extend", "intr1", "--hours", "x"),
        ("archive", "intr1", str(tmp_path / "archive")), ("game", "finish", "intr1", "--yes"), ("verify", "intr1"),
        ("demo", "intrigue", "--dir", str(tmp_path / "demo")),
    ]
    for args in script:
        out = run(*args, later=1)
        said.append((args, out))
    outputs = dict(said)  # (the script did run: each step did what it says, so its words were seen)
    assert "partie commencée" in outputs[("game", "start", "intr1")]
    assert "étape 1 résolue" in outputs[("turn", "resolve", "intr1")]
    assert outputs[("export", "intr1", "--csv")].startswith("étape,titre,")
    assert "Calendrier écrit" in outputs[("calendar", "intr1", str(tmp_path / "intr1.ics"))]
    assert "envoyé" in outputs[("outbox", "list")] and "traité" in outputs[("tick",)]
    assert "traité" in outputs[("mail", "list")] and "ok (1 ligne, 0 erreur)" in outputs[("mail", "list")]
    assert "déjà pris" in outputs[("player", "add", "intr1", "Lorenzo", "x@example.org")]
    assert "OK" in outputs[("verify", "intr1")]
    assert "5 joueurs par courriel" in outputs[("demo", "intrigue", "--dir", str(tmp_path / "demo"))]
    english = [(args, english_words(out), out) for args, out in said if english_words(out)]
    assert english == [], "\n\n".join(f"pbem {' '.join(a)}: {w}\n{o}" for a, w, o in english)


_NOW_OK = {"tick": ("--now",)}
_NOW_SUB = {("game", "new"), ("game", "start"), ("player", "add"), ("game", "extend"), ("game", "pause"),
            ("game", "resume"), ("turn", "resolve"), ("game", "finish"), ("calendar", "intr1"), ("turn", "preview")}
