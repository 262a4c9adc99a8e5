"""``max_message_bytes`` (config.toml, ``[pbem]``) caps what pbem reads of a mail, under the hard limit
`pbem.limits.MAX_READ_BYTES` (issue #19): a mail over it is read up to it, and answered « message trop long ou
illisible » with the configured figure when no text came before it; a value above the hard limit, or not
positive, is refused by the config's reading (and so by `pbem doctor`) with one line that says the bounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_config, toy_config_toml
from mjseat_helpers import PLAYERS, Table

from pbem import config as configmod
from pbem import doctor, limits

BRAN = PLAYERS["Bran"]


def _big(text_first: bool, size: int) -> bytes:
    """A mail of about ``size`` bytes: its order text before a big attachment, or after it."""
    attachment = "QUJD" * (size // 4)
    text = f"--b\nContent-Type: text/plain; charset=utf-8\n\nGUESS {3 if text_first else 4}\n"
    image = f"--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n{attachment}\n"
    body = (text + image if text_first else image + text) + "--b--\n"
    return (f"From: {BRAN}\nTo: jeu@pbem.test\nSubject: [TOY] ordres\nMessage-ID: <big{size}{text_first}@pbem.test>\n"
            f'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n{body}').encode()


def _feed(t: Table, raw: bytes, key: str) -> str:
    t.store.store_raw([(key, raw)], t.now)
    t.engine.process_pending(t.now)
    return next(m.verdict for m in t.store.messages() if m.key == key)


def test_the_cap_is_the_configured_one_under_the_hard_limit(tmp_path: Path) -> None:
    assert make_config(tmp_path).read_bytes == limits.MAX_READ_BYTES
    assert make_config(tmp_path, top={"max_message_bytes": 300_000}).read_bytes == 300_000


def test_a_mail_over_the_configured_cap_is_read_up_to_it_and_answered_with_its_figure(tmp_path: Path) -> None:
    t = Table(tmp_path, top={"max_message_bytes": 300_000})
    assert _feed(t, _big(True, 400_000), "photo") == "ok (1 lines, 0 errors)"  # its text first: read as usual
    verdict = _feed(t, _big(False, 400_000), "late-text")
    assert verdict.startswith("unreadable: too big: ") and "the first 300000 read" in verdict, verdict
    (text,) = [b for to, kind, _s, b in t.new() if to == BRAN and kind == "ack" and "trop long" in b]
    assert "il dépasse 300 Ko et je n'ai trouvé aucun texte dans ses 300 premiers Ko" in text
    t.close()


def test_the_figure_is_said_in_english_and_in_megabytes_when_whole(tmp_path: Path) -> None:
    t = Table(tmp_path, top={"max_message_bytes": 1_000_000}, language="en")
    assert _feed(t, _big(False, 1_100_000), "late-text").startswith("unreadable: too big: ")
    (text,) = [b for to, kind, _s, b in t.new() if to == BRAN and kind == "ack" and "too long" in b]
    assert "it is over 1 MB and I found no text in its first MB" in text
    t.close()


@pytest.mark.parametrize("value", [0, -5, limits.MAX_READ_BYTES + 1])
def test_a_cap_out_of_its_bounds_is_refused_in_one_line(tmp_path: Path, value: int) -> None:
    with pytest.raises(configmod.ConfigError) as e:
        make_config(tmp_path, top={"max_message_bytes": value})
    assert str(e.value) == (f"pbem.max_message_bytes: expected a whole number of bytes from 1 to 10000000 "
                            f"(pbem's hard limit), got {value}")
    path = tmp_path / "config.toml"
    path.write_text(toy_config_toml(tmp_path, top=f"max_message_bytes = {value}"), encoding="utf-8")
    ((what, ok, detail),) = list(doctor.checks(str(path), "fr"))
    assert (what, ok) == ("config", False) and "\n" not in detail
    assert detail.replace("\u202f", " ") == (f"pbem.max_message_bytes : attendu un nombre entier d'octets de 1 à 10 000 000 (la limite de "
                      f"pbem), pas {value}")
