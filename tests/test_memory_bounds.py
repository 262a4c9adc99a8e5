"""Every cache of pbem is bounded, in entries and in what its keys keep (issue #19: 900 mails with a 1 MB
header took the daemon from 41 to 1,257 MiB, kept by caches keyed on whole header values and lines)."""

from __future__ import annotations

import encodings
import gc
import importlib
import inspect
import pkgutil
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpers import make_config

import pbem
from pbem.engine import Engine
from pbem.limits import MAX_KEY_CHARS
from pbem.mail import prose, reading, senders
from pbem.names import fold
from pbem.store import Store

T0 = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)

# The caches that are not `pbem.memo` ones (no key-length bound) and why their keys stay small.
UNBOUNDED_KEYS_OK = {
    "pbem.clock._iso": "datetimes",
    "pbem.clock.parse_iso": "ISO times read from the database",
    "pbem.render._environments": "template folders and a language",
    "pbem.render._exists": "template names",
    "pbem.dicetext.labels": "a template folder, a game, a language and a spacing function",
    "pbem.games.courtisans.plan._reached": "a Courtisans state held by identity (64 at most), a player and the "
                                           "lines of one turn accepted so far (a turn takes three)",
    "pbem.pictures.scene.font": "a size and a weight",
    "pbem.pictures._drawing": "no arguments: one value (the drawing code's digest)",
    "pbem.serial._hints": "dataclasses",
    "pbem.serial._post_load": "dataclasses",
    "pbem.serial._field_hints": "dataclasses",
    "pbem.serial._encoder": "the types of a state's values",
    "pbem.serial._decoder": "the type hints of the state types",
    "pbem.mail.senders._own": "the game's own addresses, from the config",
    "pbem.mail.senders._trusted": "the trusted authserv-ids, from the config",
    "pbem.outbox.compose._date_line": "datetimes",
    "pbem.outbox.compose._trailer": "a game, a turn and a kind",
    "pbem.outbox.compose._from_line": "the game's name and address, from the config",
    "pbem.games.pourleroi.cards.parse_symbols": "the symbols of the packaged card files",
}


def _modules() -> Iterator[Any]:
    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _caches() -> dict[str, Any]:
    """Every cached function of the package (module level, and methods of its classes), by dotted name."""
    found: dict[str, Any] = {}
    for module in _modules():
        for name, value in vars(module).items():
            holders = [(name, value)]
            if inspect.isclass(value) and value.__module__ == module.__name__:
                holders += [(f"{name}.{attr}", v) for attr, v in vars(value).items()]
            for dotted, obj in holders:
                if (callable(obj) and not inspect.isclass(obj) and hasattr(obj, "cache_info")
                        and getattr(obj, "__module__", "") == module.__name__):
                    found[f"{module.__name__}.{dotted}"] = obj
    return found


def test_every_cache_has_a_size_bound_and_a_key_bound() -> None:
    caches = _caches()
    assert "pbem.names.fold" in caches and "pbem.mail.reading._header_addresses" in caches  # (the walk works)
    for name, cache in caches.items():
        if hasattr(cache, "max_key"):  # a pbem.memo cache
            assert 0 < cache.maxsize <= 65536 and 0 < cache.max_key <= MAX_KEY_CHARS, name
        else:
            assert cache.cache_parameters()["maxsize"] is not None, f"{name}: a cache without a size bound"
            assert name in UNBOUNDED_KEYS_OK, f"{name}: a cache keyed on anything (use pbem.memo.memo)"


def test_caches_do_not_keep_long_texts_nor_grow_past_their_size() -> None:
    distinct_long = [f"{i:06d} " + "é" * 5_000 for i in range(200)]
    for fn in (fold, prose._fold, reading._header_addresses, reading.text_codec):
        before = fn.cache_info().currsize
        for text in distinct_long:
            fn(text)
        assert fn.cache_info().currsize == before, fn.__name__
    fold.cache_clear()
    for i in range(fold.maxsize + 500):
        fold(f"mot {i}")
    assert fold.cache_info().currsize == fold.maxsize


def test_bogus_charset_names_do_not_fill_the_codec_registry() -> None:
    before = len(encodings._cache)  # type: ignore[attr-defined]  # (the standard library remembers every name asked)
    subject = " ".join(f"=?x-bogus-{i}?q?a?=" for i in range(300))
    body = "".join(f"--b\nContent-Type: text/plain; charset=\"x-other-{i}\"\n\nx\n" for i in range(150)) + "--b--\n"
    raw = (f"From: a@example.org\nSubject: {subject}\nMIME-Version: 1.0\n"
           f"Content-Type: multipart/alternative; boundary=\"b\"\n\n{body}").encode()
    mail = reading.read_message(raw)
    assert mail.subject and len(encodings._cache) - before <= 2  # type: ignore[attr-defined]


def _mail_with_big_headers(i: int) -> bytes:
    """A player's mail whose To (120 KB), Subject and Authentication-Results (50 KB each) are distinct from
    every other mail's (within the 256 KB of headers read)."""
    big = f"{i:04d}" + "x" * 50_000
    to = ", ".join(f"r{i}.{k}@example.org" for k in range(6_000))
    return (f"From: p1@example.org\nTo: jeu@pbem.test, {to}\nSubject: [TOY] {big}\n"
            f"Authentication-Results: mx.example.org; dkim=pass (a {big})\nMessage-ID: <big-{i}@example.org>\n"
            f"Content-Type: text/plain; charset=utf-8\n\nGUESS 3\n").encode()


def test_a_daemon_reading_many_big_headers_keeps_no_memory_of_them(tmp_path: Path) -> None:
    cfg = make_config(tmp_path, top={"reply_cap_per_hour": 1_000_000})
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0)
    engine.add_player("toy1", "Arya", "p1@example.org", T0)
    engine.add_player("toy1", "Bran", "p2@example.org", T0)
    engine.start_game("toy1", T0)
    mails = [_mail_with_big_headers(i) for i in range(24)]

    def a_pass(batch: list[bytes], n: int) -> None:  # each pass its own engine, as `pbem run` makes them
        store.store_raw([(f"big:{n}:{k}", raw) for k, raw in enumerate(batch)], T0 + timedelta(minutes=n))
        for raw in batch:
            mail = reading.read_message(raw)
            senders.is_automatic(mail, {"jeu@pbem.test"})
        Engine(cfg, store).process_pending(T0 + timedelta(minutes=n))

    a_pass(mails[:4], 0)  # the first pass fills what is filled once (templates, the state, the caches' small keys)
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for n in range(1, 6):
            a_pass(mails[4 * n:4 * n + 4], n)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
        assert store.message_count("new") == 0 and store.message_count() == 24  # every mail was read
    finally:
        tracemalloc.stop()
        store.close()
    assert grown < 3_000_000, f"{grown:,} bytes kept after reading 20 mails of 220 KB of headers each"
