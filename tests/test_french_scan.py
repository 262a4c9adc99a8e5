"""Every French mail and forum post of the demo games, and of a Pour Ma Belle game of women and men, read for
what FRENCH.md asks (#22): participles agreeing with the recipient's and the subject's gender, elision before a
vowel (« le rôle d'Ygritte »), no parentheses inside parentheses, one death marker per text (never « (†) »
beside « (morte) »).

The scanner reads the texts as players and the forum get them, not the templates: a fault a value brings into a
sentence (a name, a role, a count) is caught too.
"""

from __future__ import annotations

import email
import mailbox
import re
from collections.abc import Iterable, Iterator, Mapping
from email import policy
from pathlib import Path

import pytest
import recorded

from pbem.games.pmb.bots import random_orders
from pbem.wording import FEMININE, MASCULINE

WOMEN = ["Ygritte", "Élise de Mallery", "Olenna Tyrell", "Arya Stark", "Brienne", "Ellaria Sand", "Asha Greyjoy"]
MEN = ["Bronn", "Jorah", "Davos", "Edmure", "Oberyn", "Ilyn Payne"]
UNKNOWN = ["Hodor", "Gendry", "Ash", "Kevan", "Lyanna", "Euron", "Yoren"]
"""The gendered game's players: women, men and players who gave no gender, many names beginning with a vowel."""

# « de Arya », « le rôle de Ygritte » (not « de Hodor »: an h may be aspirated)
_NO_ELISION = re.compile(r"(?<![\w'’-])([Dd]e|[Ll]e|[Ll]a|[Qq]ue|[Jj]e|[Nn]e|[Ss]e) ([AEIOUYÀÂÉÈÊÎÏÔÛ][\w’'-]*)")
_NESTED = re.compile(r"\([^()\n]*\([^()\n]*\)[^()\n]*\)")
_DAGGER = re.compile(r"[(,] ?†\)")
_WORDED = re.compile(r"[(,] ?mortes?\)")
_PARTICIPLE = r"(?:est|a été|sera|était|reste|soit) (?:aussitôt |désormais |bien )?(\w+)"
# « Ensuite : La partie … »: a capital after a colon in the middle of a sentence (not a name, a title, a card)
_CAPITAL = re.compile(r"[a-zéèàùç)»][ \u00a0]: (?:Le|La|Les|Un|Une|Des|Vous|Votre|Vos|Il|Elle|Ils|Elles|Son|Sa|Ses|Ce|Cette|"
                      r"Aucun|Aucune|Rien|Leur|On|Nous|Pas|Sans|Avec|Pour|Au|Aux|Du|Si|Mais|Et) ")
_YOU = re.compile(r"\b[Vv]ous (?:êtes|avez été|serez|étiez) (?:aussitôt |désormais |bien )?(\w+)")


def _masculine(word: str) -> bool:
    return word.endswith(("é", "és")) or word in ("mort", "morts", "pris", "mis", "exilé", "arrêté")


def _feminine(word: str) -> bool:
    return word.endswith(("ée", "ées")) or word in ("morte", "mortes", "prise", "mise")


def faults(text: str, genders: Mapping[str, str], recipient: str | None = None) -> list[str]:
    """What reads wrong in one French text, for a reader of ``recipient``'s gender ("f", "m" or None)."""
    out = [f"no elision: « {m.group(0)} »" for m in _NO_ELISION.finditer(text)]
    out += [f"nested parentheses: « {m.group(0)} »" for m in _NESTED.finditer(text)]
    out += [f"a capital after a colon: « {m.group(0)} »" for m in _CAPITAL.finditer(text)]
    if _DAGGER.search(text) and _WORDED.search(text):
        out.append(f"two death markers: « {_DAGGER.search(text).group(0)} » and « {_WORDED.search(text).group(0)} »")
    for name, gender in genders.items():
        said = re.escape(name)
        for m in re.finditer(rf"(?<![\w-]){said}(?: \([^()\n]*\))? {_PARTICIPLE}", text):
            word = m.group(1)
            if (gender == FEMININE and _masculine(word)) or (gender == MASCULINE and _feminine(word)):
                out.append(f"{name} ({gender}): « {m.group(0)} »")
        for m in re.finditer(rf"(?<![\w-]){said} \((mortes?|mort)\)", text):
            if (m.group(1) == "mort") != (gender == MASCULINE):
                out.append(f"{name} ({gender}): « {m.group(0)} »")
        for m in re.finditer(rf"Affectez-(le|la) à un sergent : AFFECTER {said}\b", text.replace("\u00a0", " ")):
            if (m.group(1) == "la") != (gender == FEMININE):
                out.append(f"{name} ({gender}): « {m.group(0)} »")
    for m in _YOU.finditer(text):
        word = m.group(1)
        if (recipient == FEMININE and _masculine(word)) or (recipient == MASCULINE and _feminine(word)):
            out.append(f"to a reader ({recipient}): « {m.group(0)} »")
    return out


def french_texts(root: Path) -> Iterator[tuple[str, str, str]]:
    """(where, recipient address, text) of every French mail a game sent and of every forum post it wrote."""
    box = mailbox.Maildir(str(root / "mail" / "outbox"), create=False)
    for key in box.keys():
        msg = email.message_from_bytes(box.get_bytes(key), policy=policy.default)
        text = "\n".join(str(part.get_content()) for part in msg.walk() if part.get_content_type() == "text/plain")
        yield f"{root.name}: {msg['Subject']}", str(msg["To"]), f"{msg['Subject']}\n{text}"
    for path in sorted((root / "forum").rglob("*")):
        if path.is_file() and path.suffix != ".png":
            yield f"{root.name}: {path.name}", "", path.read_text(encoding="utf-8")


def scan(root: Path, genders: Mapping[str, str], addresses: Mapping[str, str],
         texts: Iterable[tuple[str, str, str]] | None = None) -> list[str]:
    """The faults of ``texts`` (by default the game's `french_texts`)."""
    found = []
    for where, to, text in french_texts(root) if texts is None else texts:
        reader = genders.get(addresses.get(to.lower(), ""))
        found += [f"{where}: {fault}" for fault in faults(text, genders, reader)]
    return found


# --- the scanner sees the faults it is for


@pytest.mark.parametrize("text", [
    "Vos informateurs vous avertissent : le chef Stark a découvert le rôle de Ygritte.",
    "Le bourreau a obtenu : Ygritte (Maître des Chuchoteurs (Conseil Restreint)).",
    "Donjon Rouge : Ygritte (morte), Hodor (†) et Bronn",
    "Ygritte est affecté à Bronn (sergent Stark).",
    "Nouvel Homme de Main dans votre clan : Ygritte (Homme de Main Stark). Affectez-le à un sergent : "
    "AFFECTER Ygritte <sergent>.",
    "Donjon Rouge : Bronn (morte)",
    "Ensuite : La partie est en pause.",
])
def test_the_scanner_finds_each_fault(text):
    assert faults(text, {"Ygritte": FEMININE, "Bronn": MASCULINE})


def test_the_scanner_finds_a_participle_that_does_not_agree_with_the_reader():
    assert faults("Vous êtes arrêté par la Garde Royale.", {}, FEMININE)
    assert faults("Vous êtes arrêtée par la Garde Royale.", {}, MASCULINE)
    assert not faults("Vous êtes arrêtée par la Garde Royale.", {}, FEMININE)


def test_the_scanner_passes_good_french():
    genders = {"Ygritte": FEMININE, "Bronn": MASCULINE}
    assert not faults("Le chef Stark a découvert le rôle d'Ygritte. Ygritte est affectée à Bronn (sergent Stark). "
                      "Ygritte (Maître des Chuchoteurs du Conseil Restreint). Donjon Rouge : Ygritte (morte) et "
                      "Bronn (mort). Envoyé de mon iPhone. Affectez-la à un sergent : AFFECTER Ygritte <sergent>.",
                      genders)


# --- every text of the demo games


def test_every_french_text_of_the_demo_games_reads_right(demo_games):
    found, read = [], 0
    for d in demo_games.games.values():
        texts = list(french_texts(d.root))  # (each mail parsed once: the count and the scan read the same texts)
        read += len(texts)
        genders = d.store.genders(d.game_id)
        addresses = {p.address.lower(): p.name for p in d.store.players(d.game_id, include_removed=True)}
        found += scan(d.root, genders, addresses, texts)
    assert read > 2000  # (every mail and post of the five games: 2575 today)
    assert not found, "\n".join(found[:40])


@pytest.fixture(scope="module")
def gendered_pmb(tmp_path_factory):
    root = tmp_path_factory.mktemp("gendered")
    roster = root / "roster.toml"
    roster.write_text("".join(f'[[joueur]]\njoueur = "{n}"\ngenre = "{g}"\n\n'
                              for names, g in ((WOMEN, "femme"), (MEN, "homme")) for n in names), encoding="utf-8")
    d = recorded.play_bot_game(root / "game", "pmb1", {"ruleset": "pmb", "tag": "PMB", "registration": "3d@21:00",
                                              "deadlines": {"turn": "2d@21:00"}, "roster": str(roster)},
                               WOMEN + MEN + UNKNOWN, random_orders, 80)
    yield d
    d.close()


def test_every_french_text_of_a_game_of_women_and_men_agrees_with_them(gendered_pmb):
    d = gendered_pmb
    genders = d.store.genders(d.game_id)
    assert {n for n, g in genders.items() if g == FEMININE} == set(WOMEN)  # (the roster gave them)
    assert {n for n, g in genders.items() if g == MASCULINE} == set(MEN)
    assert d.engine.game(d.game_id).phase == "finished"  # (to its end: the last post reveals every role)
    addresses = {p.address.lower(): p.name for p in d.store.players(d.game_id, include_removed=True)}
    texts = list(french_texts(d.root))
    assert len(texts) > 200  # (a whole game: setup, turns, acks, posts)
    found = scan(d.root, genders, addresses)
    assert not found, "\n".join(found[:40])


# --- the cases #22 names, one by one


@pytest.fixture
def pmb_fr():
    from pbem.render import Renderer

    r = Renderer("pmb", "fr")
    r.set_genders({"Ygritte": FEMININE, "Élise de Mallery": FEMININE, "Bronn": MASCULINE})
    return r


def _event(r, kind: str, **data) -> str:
    from pbem.core import Audience, Event

    return r.event_text(Event(kind, Audience.mj(), data)).replace("\u00a0", " ")


def test_a_woman_homme_de_main_is_affectee_and_affect_her(pmb_fr):
    homme = {"player": "Ygritte", "team": "stark"}
    assert "Affectez-la à un sergent : AFFECTER Ygritte <sergent>." in _event(pmb_fr, "new_homme_de_main", homme=homme)
    assert _event(pmb_fr, "hm_assigned_chef", homme=homme, sergent={"player": "Bronn", "team": "stark"}) == \
        "Ygritte (Stark) est affectée à Bronn (Stark)."
    bronn = {"player": "Bronn", "team": "stark"}
    assert "Affectez-le à un sergent" in _event(pmb_fr, "new_homme_de_main", homme=bronn)


@pytest.mark.parametrize(("member", "said"), [("Ygritte", "le rôle d'Ygritte"), ("Élise de Mallery", "le rôle d'Élise"),
                                              ("Bronn", "le rôle de Bronn")])
def test_a_role_is_said_with_elision(pmb_fr, member, said):
    assert said in _event(pmb_fr, "scan_warning", clan="stark", member=member)


def test_a_role_in_parentheses_holds_no_parentheses_of_its_own(pmb_fr):
    text = _event(pmb_fr, "enquete_result", fact={"player": "Bronn", "role": "chuchoteurs"})
    assert text == "Vos informateurs vous apprennent : Bronn (Maître des Chuchoteurs du Conseil Restreint)."


def test_one_death_marker_in_a_post(pmb_fr):
    reveal = [{"player": "Ygritte", "role": "garde", "alive": False}, {"player": "Bronn", "role": "garde", "alive": False}]
    assert "Ygritte (Garde Royal, morte) et Bronn (Garde Royal, mort)" in _event(pmb_fr, "game_over", turn=7,
                                                                                   winner="stark", reveal=reveal)
    reveal.append({"player": "Hodor", "role": "garde", "alive": False})  # no gender: the dagger for everyone
    text = _event(pmb_fr, "game_over", turn=7, winner="stark", reveal=reveal)
    assert "Ygritte (Garde Royal, †), Bronn (Garde Royal, †) et Hodor (Garde Royal, †)" in text


def test_the_board_picture_says_morte_for_a_woman():
    from pbem.pictures import pmb as picture
    from pbem.pictures.scene import Text

    view = {"living": ["Bronn"], "dead": ["Ygritte", "Élise de Mallery"], "donjon": ["Ygritte", "Élise de Mallery"],
            "prisoners": [], "defeated": [], "levels": [], "donjon_influence": {}}
    labels = {i.text for i in picture.draw({**view, "genders": {"Ygritte": FEMININE, "Élise de Mallery": FEMININE}},
                                           [], "Tour 3").items if isinstance(i, Text)}
    assert "Ygritte (morte)" in labels and "Élise de Mallery (morte)" in labels
    labels = {i.text for i in picture.draw(view, [], "Tour 3").items if isinstance(i, Text)}
    assert "Ygritte (†)" in labels  # (no gender known: the post's dagger)
