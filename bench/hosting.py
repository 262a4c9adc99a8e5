"""Figure 7, a hosting day: 100 games of three rulesets, 4,000 players in one database, one pass ingesting
8,000 order mails and resolving every due step, beside the same games each alone in a database of its own."""

from __future__ import annotations

import random
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench import ingest
from bench.harness import Options, Report, timed
from bench.mails import AUTH, GAME_ADDRESS, MJ_ADDRESS, SEED, START, order_mail, pmb_available
from bench.names import player_names
from pbem import config as configmod
from pbem.engine import Engine
from pbem.store import Store

HOSTING_MIX = (("pmb", 50, 68), ("intrigue", 40, 5), ("1626", 10, 40))
"""(ruleset, games, players each): 100 games, 3,400 + 200 + 400 = 4,000 players."""
QUICK_MIX = (("pmb", 2, 12), ("intrigue", 2, 5), ("1626", 1, 6))
"""``--quick``: five small games."""
ALONE_GAMES = 5
"""How many games of each kind are measured alone (each in its own database) for the comparison."""


def hosting_config(root: Path, games: list[tuple[str, str]]) -> configmod.Config:
    data = {
        "pbem": {"database": str(root / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000},
        "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
        "outbox": {"kind": "maildir", "path": str(root / "outbox")},
        "games": {gid: {"ruleset": rs, "tag": gid.upper(), "title": gid, "mj": MJ_ADDRESS,
                        "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00", "short": "1d@21:00"},
                        "auth": AUTH, "trusted_authserv": ["mx.google.com"]} for gid, rs in games},
    }
    return configmod.parse(data, root)


_STATES: dict[tuple[int, str], Any] = {}


def hosting_lines(eng: Engine, gid: str, ruleset: str, player: str, rng: random.Random) -> list[str]:
    key = (id(eng), gid)  # (cleared by each build_hosting)
    if key not in _STATES:
        _STATES[key] = eng.state(eng.game(gid))
    state = _STATES[key]
    if ruleset == "pmb":
        from pbem.games.pmb.bots import random_orders as pmb_orders

        lines = pmb_orders(state, player, rng.randrange(1 << 30))[:4]
    elif ruleset == "intrigue":
        from pbem.games.intrigue.bots import random_orders as intrigue_orders

        lines = intrigue_orders(state, player, rng.randrange(1 << 30))
    else:  # 1626: an immediate test (rolled on receipt), or the sheet
        lines = [rng.choice(["TEST Escrime AG SR 15", "TEST Equitation DEX SR 12", "FICHE"])]
    return lines or ["ETAT"]


def build_hosting(root: Path, spec: list[tuple[str, str, int]], mails_per_player: int,
                  rng: random.Random) -> tuple[Store, Engine, list[bytes], dict[str, int]]:
    """Games ``(id, ruleset, players)`` started in one database, and their order mails (per game count too)."""
    _STATES.clear()
    cfg = hosting_config(root, [(gid, rs) for gid, rs, _n in spec])
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    mails: list[bytes] = []
    per_game: dict[str, int] = {}
    names = player_names(max(n for _g, _r, n in spec))
    sheet = {"caracteristiques": {"FO": 6, "EN": 6, "AG": 7, "DEX": 5, "PE": 5, "INT": 5, "EDU": 6, "CH": 6,
                                  "APP": 5, "BR": 7}, "talents": {"Escrime": 8, "Equitation": 5}}
    for gid, rs, n in spec:
        eng.new_game(gid, START, seed=SEED)
        with store.atomic():
            for i in range(n):
                eng.add_player(gid, names[i], f"{gid}.p{i + 1:03d}@pbem.test", START,
                               data=sheet if rs == "1626" else None)
        eng.start_game(gid, START + timedelta(minutes=1))
    for gid, rs, n in spec:
        for _k in range(mails_per_player):
            for i in range(n):
                lines = hosting_lines(eng, gid, rs, names[i], rng)
                mails.append(order_mail(rng, len(mails), names[i], f"{gid}.p{i + 1:03d}@pbem.test", lines,
                                        gid.upper()))
                per_game[rs] = per_game.get(rs, 0) + 1
    return store, eng, mails, per_game


def hosting_pass(store: Store, eng: Engine, mails: list[bytes]) -> tuple[float, float, int]:
    """(ingest seconds, resolution seconds, steps resolved) of one pass after every deadline."""
    now = START + timedelta(days=5)  # past every game's first deadline; the mail arrived before them
    store.store_raw([(f"h:{i}", m) for i, m in enumerate(mails)], START + timedelta(hours=2))

    def ingest() -> None:
        while eng.process_pending(now):
            pass

    t_ingest = timed(ingest)
    before = store.db.execute("select count(*) from records where kind = 'step'").fetchone()[0]
    t_resolve = timed(lambda: eng.due(now))
    steps = store.db.execute("select count(*) from records where kind = 'step'").fetchone()[0] - before
    assert store.message_count("new") == 0
    return t_ingest, t_resolve, int(steps)

def run(opts: Options, report: Report) -> None:
    if not pmb_available():
        report.row("7 hosting day", "pbem.games.pmb", "not importable", "", None)
        return
    mix = QUICK_MIX if opts.quick else HOSTING_MIX
    alone_games = 1 if opts.quick else ALONE_GAMES
    spec = [(f"{rs[:3]}{k:02d}", rs, n) for rs, count, n in mix for k in range(count)]
    players = sum(n for _g, _r, n in spec)
    report.say(f"\n[7] a hosting day: {len(spec)} games ({', '.join(f'{c} {rs}' for rs, c, _n in mix)}), "
        f"{players} players in one database, auth = \"{AUTH}\"")
    rng = random.Random(12)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-host-") as tmp:
        t0 = time.perf_counter()
        store, eng, mails, per_kind = build_hosting(Path(tmp) / "day", spec, 2, rng)
        report.say(f"    set-up: {time.perf_counter() - t0:.0f} s; {len(mails)} order mails ({per_kind})")
        t_ingest, t_resolve, steps = hosting_pass(store, eng, mails)
        store.close()
        # the same games, each alone in a database of its own (same size, same 2 mails a player)
        alone_mail: dict[str, float] = {}
        alone_step: dict[str, float] = {}
        for rs, _count, n in mix:
            t_mail = t_step = 0.0
            n_mail = n_step = 0
            for j in range(alone_games):
                st, e, ms, _k = build_hosting(Path(tmp) / f"alone-{rs}-{j}", [(f"{rs[:3]}{j:02d}", rs, n)], 2,
                                              random.Random(12 + j))
                ti, tr, k = hosting_pass(st, e, ms)
                st.close()
                t_mail, n_mail, t_step, n_step = t_mail + ti, n_mail + len(ms), t_step + tr, n_step + k
            alone_mail[rs] = t_mail / n_mail
            if n_step:
                alone_step[rs] = t_step / n_step
    per_mail = t_ingest / len(mails)
    ref_mail = sum(alone_mail[rs] * c for rs, c in per_kind.items()) / len(mails)
    resolving = {rs: count for rs, count, _n in mix if rs in alone_step}
    ref_step = sum(alone_step[rs] * c for rs, c in resolving.items()) / max(1, sum(resolving.values()))
    per_step = t_resolve / max(1, steps)
    report.say(f"    one pass: ingest {t_ingest:.1f} s ({per_mail * 1000:.2f} ms/mail), {steps} steps resolved in "
        f"{t_resolve:.1f} s ({per_step * 1000:.0f} ms each; 1626 has no deadlines: its tests are immediate)")
    report.say(f"    each kind alone: ingest {', '.join(f'{rs} {v * 1000:.2f}' for rs, v in alone_mail.items())} ms/mail; "
        f"resolution {', '.join(f'{rs} {v * 1000:.0f}' for rs, v in alone_step.items())} ms")
    report.row("7 hosting day", f"ingest of {len(mails)} mails, {len(spec)} games", f"{per_mail * 1000:.2f} ms/mail")
    report.row("7 hosting day", "ratio per mail / the same games alone", f"{per_mail / ref_mail:.2f}", "<= 1.3",
        per_mail / ref_mail <= 1.3)
    if "per_mail" in ingest.ONE_GAME:
        report.row("7 hosting day", "ratio per mail / one-game ingest [1]", f"{per_mail / ingest.ONE_GAME['per_mail']:.2f}",
            "informational (other mix)", None)
    report.row("7 hosting day", f"{steps} resolutions in one pass", f"{per_step * 1000:.0f} ms each")
    report.row("7 hosting day", "ratio per resolution / alone", f"{per_step / ref_step:.2f}", "informational", None)


