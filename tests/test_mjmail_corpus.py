"""The MJ mail reader against the independent corpus of 400 MJ mails (tests/fixtures/mjmail/corpus.toml, written
without seeing the code) and against a held-out set written before the reader and never tuned on
(heldout.toml): each corpus case asserted as it expects, the held-out set by its share, and both for what
matters most: the reader never carries out a command where the case does not expect exactly that one.

The cases the reader still gets wrong are listed with why (`MISSES`); each is a strict xfail, so a case that
starts to pass says so.  `python tests/mjmail_corpus.py` prints the shares by expect and by command.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from mjmail_corpus import CORPUS, HELDOUT, MISSES, case_outcomes, load, outcomes, report, view_for

from pbem.engine.desk import reader

DATA = load(CORPUS)
HELD = load(HELDOUT)


def test_the_corpus_is_the_independent_one_with_its_424_expectations():
    assert len(DATA["case"]) == 400
    assert len(outcomes(DATA)) == 424
    assert len(HELD["case"]) >= 100


@pytest.mark.parametrize("case", DATA["case"], ids=[c["id"] for c in DATA["case"]])
def test_each_corpus_case(case):
    out = case_outcomes(DATA["world"], case)
    if case["id"] in MISSES:  # a known miss is asked or refused, never carried out; a fixed one leaves the list
        assert not all(o.right for o in out), f"{case['id']} now passes: take it out of MISSES"
        assert not any(o.unsafe for o in out)
        pytest.xfail(MISSES[case["id"]])
    wrong = [o for o in out if not o.right]
    assert not wrong, wrong


@pytest.mark.parametrize("data", [DATA, HELD], ids=["corpus", "heldout"])
def test_nothing_is_ever_carried_out_on_a_guess_or_against_the_expectation(data):
    unsafe = [o for o in outcomes(data) if o.unsafe]
    assert not unsafe, unsafe


def test_the_held_out_set_is_read_about_as_well_as_the_corpus():
    """Written before the reader and not tuned on: its share says whether the reader fits only one corpus."""
    results = outcomes(HELD)
    right = sum(o.right for o in results) / len(results)
    assert right >= 0.9, report(results, "heldout")


def test_a_mail_of_many_lines_is_read_only_up_to_the_cap():
    """A megabyte of short lines costs what `reader.MAX_READ_LINES` lines do (issue #19: linear, capped)."""
    view = view_for(DATA["world"], {})
    text = "\n".join(f"Retire Bran{' stp' * (i % 3)}" for i in range(reader.MAX_READ_LINES + 500))
    read = reader.read(text, view)
    assert len(read.readings) == reader.MAX_READ_LINES
    assert max(r.line for r in read.readings) == reader.MAX_READ_LINES - 1


@pytest.mark.parametrize(("line", "verdict", "player", "candidates"), [
    ("Retire Bert", "ask", "Bertrand", ()),  # the first letters of one name: a guess, asked about
    ("Retire Brie stp, elle ne joue plus", "ask", "Brienne", ()),
    ("retire Mall à la fin du tour", "ask", "Élise de Mallery", ()),  # the first letters of one of its words
    ("Bron sera absent jusqu'au 20", "refuse", None, ("Bran", "Bronn")),  # Bronn's start, one letter from Bran
    ("retire Ol", "refuse", None, ()),  # two letters are too few to guess from
])
def test_a_name_shortened_to_its_first_letters_is_asked_about_never_done(line, verdict, player, candidates):
    view = view_for(DATA["world"], {})
    (r,) = reader.read(line, view).readings
    assert r.verdict == verdict, r
    if player is not None:
        assert r.slots["player"] == player and "player" in r.guessed
    assert tuple(r.candidates) == candidates


@pytest.mark.parametrize(("line", "player", "order"), [
    ("Arya veut tuer Sansa ce tour-ci.", "Arya", "ESCOUADE Sansa"),
    ("fais tuer Sansa à Arya stp", "Arya", "ESCOUADE Sansa"),
    ("fais assassiner Bran par Olenna", "Olenna", "ESCOUADE Bran"),
    ("Arya voudrait éliminer Bran, elle me l'a dit", "Arya", "ESCOUADE Bran"),
    ("Arya wants to kill Sansa", "Arya", "ESCOUADE Sansa"),  # « kill » is an order word too: a wish all the same
])
def test_a_wish_in_the_games_words_is_its_order_asked_never_done(line, player, order):
    """Pour Ma Belle's own verbs of a wish (`Ruleset.wish_words`): the order they mean, echoed for the OUI."""
    view = view_for(DATA["world"], {})
    (r,) = reader.read(line, view).readings
    assert (r.verdict, r.command, r.slots, r.guessed) == ("ask", "FOR", {"player": player, "order": order},
                                                         ("order",)), r


@pytest.mark.parametrize(("line", "candidates"), [
    ("Bronn veut éliminer Jon", ("Jon Snow", "Jon Arryn")),  # whom: two Jons
    ("Arya veut tuer Sansa et Bran veut tuer Olenna", ()),  # two wishes in one sentence: one a line
    ("Arya veut tuer Sansa, Bran aussi", ()),
])
def test_a_wish_that_is_not_clear_is_refused(line, candidates):
    view = view_for(DATA["world"], {})
    (r,) = reader.read(line, view).readings
    assert (r.verdict, r.command, tuple(r.candidates)) == ("refuse", "FOR", candidates), r


def test_two_players_who_wish_the_same_are_two_asks():
    view = view_for(DATA["world"], {})
    rs = reader.read("Arya et Bran veulent tuer Sansa", view).readings
    assert [(r.verdict, r.slots["player"], r.slots["order"]) for r in rs] == [
        ("ask", "Arya", "ESCOUADE Sansa"), ("ask", "Bran", "ESCOUADE Sansa")]


def test_a_game_without_wish_words_reads_no_wish():
    view = replace(view_for(DATA["world"], {}), wish_words={})
    assert all(r.command != "FOR" or r.verdict != "ask" for r in reader.read("Arya veut tuer Sansa", view).readings)


def test_pour_ma_belles_wish_words_are_folded_verbs_of_its_own_orders():
    from pbem.games.pmb import orders as O
    from pbem.games.pmb.ruleset import PmbRuleset
    from pbem.names import fold

    assert PmbRuleset.wish_words["tuer"] == PmbRuleset.wish_words["kill"] == O.ESCOUADE
    assert all(fold(w) == w and k in O.HELP for w, k in PmbRuleset.wish_words.items())
