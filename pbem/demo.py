"""`pbem demo`: scripted games played by mail through the embedded default, with simulated time.

Every mail goes the real way: written as .eml into a local Maildir inbox, fetched by
`tick`, interpreted, answered into a local Maildir outbox; deadlines fire when the
simulated clock passes them.  Nothing leaves the machine.
"""

from __future__ import annotations

import mailbox
import os
import random
import shutil
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem import config as configmod
from pbem import games
from pbem.daemon import tick
from pbem.engine import Engine
from pbem.msg import Msg, PbemError
from pbem.outbox.compose import counted_kind
from pbem.shipped import DATA
from pbem.store import Store

DEMO_START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)  # Friday 20:00 in Paris
GAME_ADDRESS = "pourmabelle.lejeu@example.org"
MJ_ADDRESS = "mj@example.org"
SEED = "5eed" * 16


DEMO_MARKER = ".pbem-demo"
"""The file a demo leaves in its folder: the next demo may replace that folder, and no other."""


class DemoFolderError(PbemError):
    """The folder a demo would write into holds something a demo did not write."""


class Demo:
    """One demo game in its own folder: config, database, Maildirs, forum files."""

    def __init__(self, root: Path, game_id: str, game: dict[str, Any]):
        root = root.resolve()
        if root.exists() and any(root.iterdir()):
            if not (root / DEMO_MARKER).is_file():  # never delete a folder a demo did not make
                raise DemoFolderError(Msg(
                    f"{root} n'est pas vide et aucune démo n'y a écrit\u00a0: pbem demo n'efface rien qu'il n'a pas "
                    "écrit\u00a0; donnez un autre dossier (--dir)",
                    f"{root} is not empty and no demo wrote there: pbem demo deletes nothing it did not write; "
                    "give another folder (--dir)"))
            shutil.rmtree(root)
        root.mkdir(parents=True, exist_ok=True)
        (root / DEMO_MARKER).write_text("pbem demo: this folder is a demo's, replaced by the next one\n")
        self.root = root
        self.game_id = game_id
        data = {
            "pbem": {"database": "pbem.sqlite", "address": GAME_ADDRESS, "forum_dir": "forum"},
            "mailbox": {"kind": "maildir", "path": "mail/inbox"},
            "outbox": {"kind": "maildir", "path": "mail/outbox"},
            "games": {game_id: {"mj": MJ_ADDRESS, **game}},
        }
        self.config = configmod.parse(data, root)
        self.store = Store(self.config.database)
        self.engine = Engine(self.config, self.store)
        (root / "mail").mkdir(parents=True, exist_ok=True)
        self.inbox = mailbox.Maildir(str(root / "mail" / "inbox"), create=True)
        self.now = DEMO_START
        self.sent = 0
        self.tag = self.config.games[game_id].tag

    def mail(self, sender: str, text: str, subject: str = "ordres", name: str | None = None) -> None:
        m = EmailMessage()
        m["From"] = f"{name} <{sender}>" if name else sender
        m["To"] = GAME_ADDRESS
        m["Subject"] = f"[{self.tag}] {subject}"
        self.sent += 1
        m["Message-ID"] = f"<demo-{self.game_id}-{self.sent}@example.org>"
        m.set_content(text)
        key = self.inbox.add(m.as_bytes())
        # the mailbox received it now, on the simulated clock (a mail counts by when it arrived); a
        # microsecond apart from the one before, so that the Maildir reads them in the order they were sent
        when = int(self.now.timestamp()) * 10**9 + self.sent * 1000
        os.utime(self.root / "mail" / "inbox" / "new" / key, ns=(when, when))

    def tick(self, advance: timedelta = timedelta(minutes=5)) -> None:
        self.now += advance
        tick(self.config, self.store, self.now)

    def until_deadline(self) -> None:
        g = self.engine.game(self.game_id)
        if g.deadline:
            self.now = max(self.now, g.deadline)
        tick(self.config, self.store, self.now)

    def report(self, title: Msg, lang: str = "fr", sample: int = 3) -> list[str]:
        """What the demo did, in ``lang``: where its mail, posts and samples went."""
        fr = lang != "en"
        out_dir = self.root / "mail" / "outbox"
        box = mailbox.Maildir(str(out_dir), create=False)
        kinds: dict[str, list[str]] = {}
        for key in sorted(box.keys()):
            kinds.setdefault(str(box[key]["X-PBEM-Kind"]), []).append(key)
        forum = sorted((self.root / "forum" / self.game_id).glob("*.bbcode"),
                       key=lambda p: int(p.stem.split("-")[1]))
        g = self.engine.game(self.game_id)
        phase = {"registration": "inscriptions", "running": "en cours", "finished": "terminée"}.get(g.phase, g.phase)
        kinds_said = ", ".join(counted_kind(len(v), k, lang) for k, v in sorted(kinds.items()))
        if fr:
            lines = [f"== {title.fr} ==",
                     f"  partie {self.game_id}\u00a0: {phase}, étape {g.turn}\u00a0; {self.sent} courriels joués "
                     f"({self.root / 'mail' / 'inbox'})",
                     f"  envoyés {out_dir}/new\u00a0: {kinds_said}",
                     f"  messages du forum\u00a0: {len(forum)} dans {self.root / 'forum' / self.game_id}"
                     + (f" (dernier\u00a0: {forum[-1].name})" if forum else "")]
        else:
            lines = [f"== {title.en} ==",
                     f"  game {self.game_id}: {g.phase}, step {g.turn}; {self.sent} mails played in "
                     f"({self.root / 'mail' / 'inbox'})",
                     f"  outbox {out_dir}/new: {kinds_said}",
                     f"  forum posts: {len(forum)} in {self.root / 'forum' / self.game_id}"
                     + (f" (last: {forum[-1].name})" if forum else "")]
        for key in kinds.get("private", [])[-sample:]:
            lines.append(("  courriel privé, exemple\u00a0: " if fr else "  sample private mail: ") + str(out_dir / "new" / key))
        outcome = self.engine.ruleset(self.game_id).outcome(self.engine.state(g)) if g.state else None
        if outcome is not None:
            lines.append(f"  fin\u00a0: {outcome.summary.fr}" if fr else f"  outcome: {outcome.summary.en}")
        return lines

    def close(self) -> None:
        self.store.close()


def demo_1626(root: Path, lang: str = "fr") -> list[str]:
    d = Demo(root, "gant", {"ruleset": "1626", "tag": "1626", "registration": "1d",
                            "roster": str(DATA / "1626" / "personnages.toml")})
    d.engine.new_game("gant", d.now, seed=SEED)
    from pbem.games.g1626.sheet import seats_from_toml

    sheets = seats_from_toml((DATA / "1626" / "personnages.toml").read_text("utf-8"))
    players = [s.name for s in sheets]
    for i, name in enumerate(players):
        d.mail(f"joueur{i}@example.org", f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.engine.start_game("gant", d.now)
    d.tick()
    d.mail("joueur0@example.org", "FICHE\nTEST Escrime AG SR 15\nTEST PE SR 12", "tests")
    d.mail(MJ_ADDRESS, f"RECONNU {players[0]}\nPOUR {players[1]} : TEST Vigilance PE SR 17 SECRET", "MJ")
    d.mail("joueur2@example.org", "TEST Eloquance CH SR 14", "test")  # a typo: answered with "did you mean"
    d.tick()
    # TEST is a request: the MJ answers with the SR (or rolls it as asked), from his phone
    d.mail(MJ_ADDRESS, "SR 15 n° 1\nLANCER n° 2", "réponses aux demandes")
    d.tick()
    d.mail("joueur0@example.org", "TEST Eloquence CH SR 14\nFIN\nCordialement", "test reconnu")
    d.tick()
    d.mail(MJ_ADDRESS, "LANCER", "réponse")
    d.tick()
    out = d.report(Msg("1626, le gant et l'épée\u00a0: des tests par courriel", "1626, le gant et l'épée: tests by mail"),
                   lang)
    d.close()
    return out


def play_bot_game(root: Path, game_id: str, game: dict[str, Any], names: list[str],
                  orders_for: Callable[[Any, str, int], list[str]], max_steps: int, late: float = 0.1) -> Demo:
    """A whole game by mail: registration mails, bot order mails each step (some players late), deadlines.

    A step already resolved by the tick that read its orders (``early_delay_minutes = 0``) does not
    wait for the next deadline.  Returns the open `Demo` (the caller closes it) so tests can inspect the database and the Maildirs.
    """
    d = Demo(root, game_id, game)
    d.engine.new_game(game_id, d.now, seed=SEED)
    for i, name in enumerate(names):
        text = "Je souhaite participer à ce jeu" if i % 5 == 0 else f"INSCRIPTION {name}"
        d.mail(f"joueur{i:02d}@example.org", text, "inscription", name=name)
    d.tick()
    d.until_deadline()  # registration closes: the game starts by itself
    address = {p.name: p.address for p in d.store.players(game_id)}
    steps = 0
    while d.engine.game(game_id).phase == "running" and steps < max_steps:
        g = d.engine.game(game_id)
        state = d.engine.state(g)
        prompts = d.engine.ruleset(game_id).prompts(state)
        rng = random.Random(f"{game_id}-{g.turn}")
        for name in sorted({p.player for p in prompts}):
            if rng.random() >= late:  # some players are late: their defaults apply
                lines = orders_for(state, name, rng.randrange(1 << 30))
                d.mail(address[name], "\n".join(lines) + "\n\n-- \nEnvoyé de mon iPhone", f"ordres tour {g.turn}")
        d.tick()
        if d.engine.game(game_id).turn == g.turn:  # not resolved on the last answer (early_delay_minutes = 0)
            d.until_deadline()
        steps += 1
    return d


def _bot_game(root: Path, game_id: str, game: dict[str, Any], names: list[str],
              orders_for: Callable[[Any, str, int], list[str]], title: Msg, max_steps: int,
              lang: str = "fr") -> list[str]:
    d = play_bot_game(root, game_id, game, names, orders_for, max_steps)
    out = d.report(title, lang)
    d.close()
    return out


def demo_pmb(root: Path, lang: str = "fr") -> list[str]:
    random_orders = _bots("pmb")
    names = [f"{first} {last}" for first, last in zip(
        ["Arya", "Bran", "Cersei", "Davos", "Edmure", "Gendry", "Hodor", "Ilyn", "Jaime", "Kevan"] * 4,
        ["Snow", "Rivers", "Sand", "Stone", "Hill", "Flowers", "Waters", "Pyke"] * 5, strict=False)]
    names = list(dict.fromkeys(f"{n} {i // 10 + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)))
    return _bot_game(root, "pmb1", {"ruleset": "pmb", "tag": "PMB", "registration": "3d@21:00",
                                    "deadlines": {"turn": "2d@21:00"}},
                     names[:40], random_orders,
                     Msg("Pour Ma Belle\u00a0: 40 joueurs par courriel", "Pour Ma Belle: 40 players by mail"), 80, lang)


def demo_intrigue(root: Path, lang: str = "fr") -> list[str]:
    random_orders = _bots("intrigue")
    return _bot_game(root, "intrigue", {"ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d",
                                        "deadlines": {"turn": "1d", "short": "12h"}},
                     ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"], random_orders,
                     Msg("Intrigue\u00a0: 5 joueurs par courriel (mode simultané)",
                         "Intrigue: 5 players by mail (simultaneous mode)"), 60, lang)


POURLEROI_GAME: dict[str, Any] = {
    "ruleset": "pourleroi", "tag": "ROI", "registration": "1d", "early_delay_minutes": 0,
    "deadlines": {"turn": "2d", "card": "12h", "centre": "1d", "auction": "1d"}}
"""A game of Pour le Roi (et Moi): short deadlines for the donor's cards, each step resolved on its last answer."""


def demo_pourleroi(root: Path, lang: str = "fr") -> list[str]:
    random_orders = _bots("pourleroi")
    return _bot_game(root, "roi", POURLEROI_GAME, ["Colbert", "Fouquet", "Louvois", "Séguier", "Vauban"],
                     random_orders,
                     Msg("Pour le Roi (et Moi)\u00a0: 5 joueurs par courriel (dons carte par carte, enchères par mandat)",
                         "Pour le Roi (et Moi): 5 players by mail (gifts card by card, proxy auctions)"), 400, lang)


COURTISANS = ["Madame de la Vilenie", "Monsieur de Malveyance", "Madame de Sévigné", "Monsieur de Lauzun"]
COURTISANS_GAME: dict[str, Any] = {"ruleset": "courtisans", "tag": "COURTISANS", "registration": "1d",
                                   "deadlines": {"tour": "2d"}, "early_delay_minutes": 0}
"""Courtisans by mail: one step per player turn, due 2 days after the previous turn was published
(the rule text), resolved as soon as that player's orders are in."""


def demo_courtisans(root: Path, lang: str = "fr") -> list[str]:
    random_orders = _bots("courtisans")
    return _bot_game(root, "courtisans", COURTISANS_GAME, COURTISANS, random_orders,
                     Msg("Courtisans\u00a0: 4 joueurs par courriel (un tour après l'autre)",
                         "Courtisans: 4 players by mail (sequential turns)"), 150, lang)


def _bots(game: str) -> Callable[[Any, str, int], list[str]]:
    """The game's bot (its registry entry's ``bots``)."""
    reference = games.entry(game).bots
    assert reference is not None, f"{game} has no bots"
    bots: Callable[[Any, str, int], list[str]] = games.load(reference)
    return bots


def run_demos(which: str, out_dir: Path, lang: str = "fr") -> Iterator[str]:
    """Run one demo or all of them; yield the report lines, in ``lang``."""
    chosen = games.demos() if which == "all" else [which]
    for name in chosen:
        try:
            demo: Callable[[Path, str], list[str]] = games.load(str(games.entry(name).demo))
            yield from demo(out_dir / name, lang)
        except ImportError as e:
            yield (f"== {name}\u00a0: pas disponible ({e}) ==" if lang != "en" else f"== {name}: not available ({e}) ==")
