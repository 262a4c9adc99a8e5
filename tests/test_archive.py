"""`pbem archive`: the public record as static HTML whose every link resolves, with no script and nothing from elsewhere."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.archive.bbcode import to_html
from pbem.audit import verification_report
from pbem.cli import main
from pbem.render import bbcode_escape


class Links(HTMLParser):
    """Every href and src of a page, and the tags seen."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [v for k, v in attrs if k in ("href", "src") and v is not None]


def links_of(page: Path) -> Links:
    parser = Links()
    parser.feed(page.read_text("utf-8"))
    return parser


@pytest.mark.parametrize("game", ["intrigue", "pmb", "1626"])
def test_every_href_and_src_resolves_to_a_file_of_the_archive(archives: dict[str, Any], game: str) -> None:
    a = archives[game]
    assert a.pages and (a.folder / "index.html") in a.pages
    reached = set()
    for page in a.pages:
        found = links_of(page)
        assert "script" not in found.tags and "iframe" not in found.tags
        for link in found.links:
            assert not re.match(r"[a-z]+:", link) and not link.startswith("//"), (page.name, link)  # nothing from elsewhere
            target = (page.parent / link.split("#")[0]).resolve()
            assert target.is_file(), (page.name, link)
            assert a.folder.resolve() in target.parents
            reached.add(target)
    # and everything written is reached from some page
    for path in [*a.pages, *a.pictures, *a.charts, a.folder / "style.css"]:
        assert path.resolve() in reached or path.name == "index.html", path


def test_one_page_per_post_and_the_pictures_and_charts_of_each_game(archives: dict[str, Any],
                                                                       recorded_games: dict[str, Any]) -> None:
    for game, a in archives.items():
        d = recorded_games[game]
        records = [r for r in d.store.records(d.game_id) if r.kind != "action"]
        posts = [p for p in a.pages if p.name.startswith("turn-")]
        assert len(posts) == len(records)
        assert len(a.pictures) == (0 if game == "1626" else len(records))
        assert len(a.charts) == {"intrigue": 1, "pmb": 1, "1626": 0}[game]
        index = (a.folder / "index.html").read_text("utf-8")
        for p in posts:
            assert f'href="{p.name}"' in index
        for c in a.charts:
            assert f'src="charts/{c.name}"' in index


def test_the_intrigue_chart_is_each_players_money_after_each_step(archives: dict[str, Any],
                                                                     recorded_games: dict[str, Any]) -> None:
    from pbem import serial
    from pbem.core import PUBLIC

    d = recorded_games["intrigue"]
    rs = d.engine.ruleset(d.game_id)
    svg = ET.parse(archives["intrigue"].charts[0]).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    lines = svg.findall(f"{ns}polyline")
    names = [t.text for t in svg.findall(f"{ns}text")]
    views = [rs.view(serial.loads(rs.state_type, r.state_after), PUBLIC) for r in d.store.records(d.game_id)
             if r.kind != "action"]
    seats = [p["name"] for p in views[-1]["board"]["players"]]
    assert len(lines) == len(seats) and all(s in names for s in seats)
    top = max(p["money"] for v in views for p in v["board"]["players"])
    for line in lines:
        assert len(line.get("points", "").split()) == len(views)  # one point per step
    assert any(t and t.replace("\u202f", " ").replace(" ", "").isdigit() and int(t.replace("\u202f", "")) >= top
               for t in names)  # the axis reaches the richest


def test_the_pmb_chart_counts_the_living(archives: dict[str, Any]) -> None:
    svg = archives["pmb"].charts[0].read_text("utf-8")
    assert "Les vivants" in svg and "En vie" in svg and "<script" not in svg


@pytest.mark.parametrize("game", ["intrigue", "pmb"])
def test_after_the_end_the_verification_is_linked_and_says_what_pbem_verify_says(
        archives: dict[str, Any], recorded_games: dict[str, Any], game: str) -> None:
    d = recorded_games[game]
    a = archives[game]
    assert d.engine.game(d.game_id).seed_revealed
    page = (a.folder / "verification.html").read_text("utf-8")
    lines, ok = verification_report(d.engine.export(d.game_id, include_seed=True), None,
                                    d.engine.settings(d.game_id).language)  # (the game's language, as pbem verify)
    assert ok and a.verified is True
    for line in lines:
        assert line in page
    assert d.engine.game(d.game_id).seed in page and d.engine.game(d.game_id).commitment in page
    assert 'href="verification.html"' in (a.folder / "index.html").read_text("utf-8")


def test_a_running_game_has_no_verification(archives: dict[str, Any]) -> None:
    assert not (archives["1626"].folder / "verification.html").exists()
    assert "verification.html" not in (archives["1626"].folder / "index.html").read_text("utf-8")


class Text(HTMLParser):
    """The text a reader sees on a page (or in a chart): every text node, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


BBCODE_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]")


def plain(text: str) -> str:
    """Runs of white space (French non-breaking spaces, line breaks) as one space: the checks read plain text."""
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ").replace("\u202f", " ")).strip()


def archive_text(a: Any) -> str:
    """Everything the archive shows as text: its pages and charts, tags left out; and its raw HTML and SVG."""
    seen = []
    for path in [*a.pages, *a.charts]:
        parser = Text()
        raw = path.read_text("utf-8")
        parser.feed(raw)
        seen += [" ".join(parser.parts), raw]
    return plain(" \n ".join(seen))


def hidden_texts(d: Any) -> list[tuple[str, str]]:
    """(what, text) of every fact the public record must not hold: the text of every event of every record
    kept from the public (private or MJ-only), and each line of every player's and the MJ's status in the
    final state; less what is public anyway: a public event's text, or the rendering of a step's public
    view (drawn here from the views alone, not read from the forum files the archive is made of)."""
    from pbem import serial
    from pbem.core import MJ, PUBLIC

    r = d.engine.renderer(d.game_id)
    ruleset = d.engine.ruleset(d.game_id)
    tag = d.engine.settings(d.game_id).tag
    records = [rec for rec in d.store.records(d.game_id) if rec.state_after]
    said, out = [], []
    for rec in records:
        state = serial.loads(ruleset.state_type, rec.state_after)
        said.append(r.forum_text(title=rec.title, events=[], view=ruleset.view(state, PUBLIC),
                                 final=ruleset.outcome(state), tag=tag))
        for e in rec.events:
            if e.audience.kind == "public":
                said.append(r.event_text(e))
                said.append(r.event_text(e, r.forum))
            else:
                out.append((f"{rec.kind} {rec.seq} {e.kind} ({e.audience.kind})", plain(r.event_text(e))))
    final = d.engine.state(d.engine.game(d.game_id))
    said.append(r.mail_text("status", view=ruleset.view(final, PUBLIC), player=None, tag=tag).body)
    outcome = ruleset.outcome(final)
    for who in [*ruleset.players(final), MJ]:
        view = ruleset.view(final, who)
        status = r.mail_text("status", view=view, player=who, tag=tag).body
        out += [(f"final status of {who}", plain(line)) for line in status.splitlines()]
        # and that view as a forum post would show it (what a post drawn from the wrong view would say)
        # (a PMB player's view counts the living and the dead instead of listing them: the lists a post needs)
        shown = {"living": [], "dead": [], **view} if isinstance(view, dict) else view
        post = r.forum_text(title="", events=[], view=shown, final=outcome, tag=tag)
        out += [(f"final view of {who} as a post", plain(BBCODE_TAG.sub("", line))) for line in post.splitlines()]
    public = plain(BBCODE_TAG.sub("", " \n ".join(said)))
    return [(what, t) for what, t in out if len(t) >= 12 and t not in public]


@pytest.mark.parametrize("game", ["intrigue", "pmb", "1626", "pourleroi", "courtisans"])
def test_the_archive_holds_no_private_fact(archives: dict[str, Any], demo_games: Any, game: str,
                                           tmp_path: Path) -> None:
    """No address, no seed of a running game, no text of an event kept from the public, no line of a
    player's or the MJ's own view of the final state: only what the forum posts and the public view say."""
    from pbem.archive import build

    d = demo_games.games[game]
    a = archives[game] if game in archives else build(d.engine, d.game_id, tmp_path / game)
    text = archive_text(a)
    assert len(text) > 1000
    for p in d.store.players(d.game_id):
        assert p.address not in text
    for mj in d.engine.settings(d.game_id).mj:
        assert mj not in text
    g = d.engine.game(d.game_id)
    if not g.seed_revealed:
        assert g.seed not in text  # a running game's seed stays the MJ's
    if game == "pmb":  # the roles at set-up, the draw of the squads' order, who killed whom, a role letter
        assert "Rôles :" not in text and "Ordre de passage des escouades" not in text and "responsable :" not in text
        assert "Vous êtes" not in text
    hidden = hidden_texts(d)
    assert len(hidden) > 10, f"{game}: too few hidden facts to check"  # the check reads something
    found = [(what, t) for what, t in hidden if t in text]
    assert not found, found[:5]


# ---------------------------------------------------------------- BBCode made safe


def test_bbcode_is_escaped_first_then_only_pbems_tags_become_html() -> None:
    name = bbcode_escape('Zoé<script>alert("x")</script> [b]gras[/b] [url=javascript:x]a[/url]')
    out = to_html(f"[b]Tour 1[/b]\nMort de {name}.\n\n[table][tr][td]a & b[/td][/tr]\n[tr][td]c[/td][/tr][/table]")
    assert "<script" not in out and "&lt;script&gt;" in out
    assert "<strong>Tour 1</strong>" in out
    assert "<strong>gras" not in out and "[\u200bb]gras[\u200b/b]" in out  # a player's tags stay text
    assert "href=" not in out
    assert '<table class="bb"><tr><td>a &amp; b</td></tr><tr><td>c</td></tr></table>' in out


def test_bbcode_links_only_to_http_addresses() -> None:
    assert to_html("[url=https://forum.example/t?a=1&b=2]forum[/url]") == (
        '<div class="p"><a href="https://forum.example/t?a=1&amp;b=2" rel="nofollow noopener">forum</a></div>')
    assert "<a " not in to_html('[url=javascript:alert(1)]x[/url] [url=https://x" onclick="y]z[/url]')


def test_pbem_archive_command(recorded_games: dict[str, Any], tmp_path: Path) -> None:
    d = recorded_games["intrigue"]
    config = d.root / "config.toml"
    config.write_text(f'''[pbem]
database = "{d.root / 'pbem.sqlite'}"
address = "pourmabelle.lejeu@example.org"
forum_dir = "{d.root / 'forum'}"
[mailbox]
kind = "maildir"
path = "{d.root / 'mail' / 'inbox'}"
[outbox]
kind = "maildir"
path = "{d.root / 'mail' / 'outbox'}"
[games.intrigue]
ruleset = "intrigue"
mj = "mj@example.org"
''', encoding="utf-8")
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["--config", str(config), "archive", "intrigue", str(out)])
    assert result.exit_code == 0, result.output
    assert "18 pages, 16 images et 1 graphique dans" in result.output  # (the CLI speaks French by default)
    assert (out / "index.html").is_file() and (out / "verification.html").is_file()


def test_the_intrigue_axis_reads_in_step_numbers(archives: dict[str, Any]) -> None:
    import re

    svg = ET.parse(archives["intrigue"].charts[0]).getroot()
    texts = [t.text or "" for t in svg.findall("{http://www.w3.org/2000/svg}text")]
    assert not [t for t in texts if re.fullmatch(r"m\d+", t)]  # no round markers in place of step numbers
    assert "départ" in texts and "1" in texts and "2" in texts
    assert any("une manche commence aux étapes" in t for t in texts)  # the rounds, in the caption


def test_every_post_says_when_it_was_published_and_the_index_too(archives: dict[str, Any]) -> None:
    for name in ("pmb", "intrigue"):
        folder = archives[name].folder
        posts = sorted(folder.glob("turn-*.html"))
        assert posts
        for page in posts:
            assert re.search(r'<p class="date">Publié le <time>\w+ (\d+|1er) \w+ 20\d\d à', page.read_text("utf-8")), page
        index = (folder / "index.html").read_text("utf-8")
        assert index.count('<span class="thumb">') == len(posts)  # every entry in a box of the same shape
        assert index.count("<small>") >= len(posts)


def test_the_mj_s_chronicle_heads_its_post_in_the_archive(tmp_path: Path) -> None:
    from mjseat_helpers import T0, Table

    from pbem.archive import build

    t = Table(tmp_path, publish="mj", approval_reminder="6h")
    t.new()
    assert t.due(T0 + timedelta(days=2)) == ["toy1: turn 1 resolved"]
    t.engine.publish("toy1", T0 + timedelta(days=2, hours=1), turn=1,
                     chronicle="Une nuit calme <script> & [b]sourde[/b].")
    done = build(t.engine, "toy1", tmp_path / "archive")
    page = (tmp_path / "archive" / "turn-1.html").read_text("utf-8")
    # first in the post, as on the forum; the MJ's BBCode becomes HTML, anything else is escaped
    article = page.split('<article class="post">', 1)[1]
    assert article.lstrip().startswith('<div class="p">Une nuit calme &lt;script&gt; &amp; <strong>sourde</strong>.</div>')
    assert "<script>" not in page
    assert "chronique du MJ" in (tmp_path / "archive" / "index.html").read_text("utf-8")
    assert done.pages


def test_a_live_archive_is_refreshed_by_the_pass_after_each_published_step(tmp_path: Path) -> None:
    from helpers import toy_config_toml

    from pbem.cli import main

    cfg = tmp_path / "config.toml"
    www = tmp_path / "www" / "toy1"
    cfg.write_text(toy_config_toml(tmp_path, game=f'archive_dir = "{www}"'), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "new", "toy1", "--now", "2026-12-01T10:00")
    for name in ("Arya", "Bran"):
        run("player", "add", "toy1", name, f"{name.lower()}@pbem.test", "--now", "2026-12-01T10:00")
    run("game", "start", "toy1", "--now", "2026-12-01T11:00")
    assert "toy1\u00a0: archives mises à jour" in run("tick", "--now", "2026-12-01T11:05")
    assert sorted(p.name for p in www.glob("turn-*.html")) == ["turn-0.html"] and (www / "index.html").is_file()
    stamp = (www / "index.html").stat().st_mtime_ns
    assert "archives" not in run("tick", "--now", "2026-12-01T12:00")  # nothing new published: left alone
    assert (www / "index.html").stat().st_mtime_ns == stamp
    assert "archives mises à jour" in run("tick", "--now", "2026-12-05T12:00")  # the step's deadline passed
    assert sorted(p.name for p in www.glob("turn-*.html")) == ["turn-0.html", "turn-1.html"]


def test_a_live_archive_takes_in_a_published_correction_and_the_revealed_seed(tmp_path: Path) -> None:
    """A RECTIFICATIF publishes no new step, and neither does the end of the game that reveals the seed: the
    pass still rebuilds the archive, which showed the results replaced and no verification."""
    from helpers import toy_config_toml

    from pbem.cli import main

    cfg = tmp_path / "config.toml"
    www = tmp_path / "www" / "toy1"
    cfg.write_text(toy_config_toml(tmp_path, game=f'archive_dir = "{www}"'), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "new", "toy1", "--now", "2026-12-01T10:00")
    for name in ("Arya", "Bran"):
        run("player", "add", "toy1", name, f"{name.lower()}@pbem.test", "--now", "2026-12-01T10:00")
    run("game", "start", "toy1", "--now", "2026-12-01T11:00")
    run("orders", "set", "toy1", "Arya", "GUESS 4", "--now", "2026-12-01T12:00")
    run("turn", "resolve", "toy1", "--now", "2026-12-01T13:00")
    assert "archives mises à jour" in run("tick", "--now", "2026-12-01T13:05")
    published = (www / "turn-1.html").read_text("utf-8")
    assert "archives" not in run("tick", "--now", "2026-12-01T13:10")  # nothing new: left alone
    run("orders", "set", "toy1", "Bran", "GUESS 9", "--turn", "1")
    assert "RECTIFICATIF" in run("turn", "rerun", "toy1", "1", "--publish", "--now", "2026-12-01T14:00")
    assert "archives mises à jour" in run("tick", "--now", "2026-12-01T14:05")
    corrected = (www / "turn-1.html").read_text("utf-8")
    assert "2026 à 13\u00a0h" in published  # (the toy's post names the target only: the date tells)
    assert "2026 à 14\u00a0h" in corrected
    assert "archives" not in run("tick", "--now", "2026-12-01T14:10")
    assert not (www / "verification.html").exists()
    run("game", "finish", "toy1", "--yes", "--now", "2026-12-01T15:00")
    assert "archives mises à jour" in run("tick", "--now", "2026-12-01T15:05")
    assert (www / "verification.html").is_file()


def test_a_live_archive_that_cannot_be_written_is_said_in_french_in_the_summary_and_the_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from helpers import toy_config_toml

    from pbem.cli import main

    cfg = tmp_path / "config.toml"
    www = tmp_path / "www"
    www.write_text("un fichier, pas un dossier", encoding="utf-8")
    cfg.write_text(toy_config_toml(tmp_path, game=f'archive_dir = "{www}"'), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "new", "toy1", "--now", "2026-12-01T10:00")
    with caplog.at_level("WARNING", logger="pbem"):
        result = runner.invoke(main, ["--config", str(cfg), "tick", "--now", "2026-12-01T10:05"])
    out = result.output
    assert result.exit_code == 1  # (the pass's error: said, and tried again at the next pass)
    said = f"archives de toy1\u00a0: {www} n'est pas un dossier"
    assert said in out, out
    assert any(said in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert not any("archive of" in r.getMessage() for r in caplog.records)
