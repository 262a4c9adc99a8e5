"""`pbem archive`: a game's public record as a static HTML site, readable offline.

Every page is built from what the forum may show, nothing else: for each published step (and the
setup; never one whose results wait for the MJ's approval) its forum post (`letters.forum_text`, BBCode made safe HTML by `bbcode.to_html`), its
picture (`letters.forum_picture`) and its public view, from which the charts over the game are
drawn (`series`).  Once the game is over and its seed revealed, the archive also carries the
verification that `pbem verify` prints.  No page has a script, and nothing is fetched from
elsewhere: the style sheet, the pictures and the charts are files beside the pages.

The folder is pbem's only if pbem made it: an archive leaves a list of what it wrote there
(`MARKER`), and writing it again removes those files and nothing else.  A folder that holds
anything without that list (the game folder, a home directory) is refused (`folder_problem`).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from pbem.archive import series
from pbem.archive.bbcode import to_html
from pbem.archive.charts import Chart, svg
from pbem.audit import verification_report
from pbem.engine import Engine
from pbem.engine.steps import letters
from pbem.msg import Msg, PbemError
from pbem.pictures.raster import size
from pbem.render import TEMPLATES, date_en, date_fr, game_templates

MARKER = ".pbem-archive"
"""The file an archive leaves in its folder: the first line says what it is, the next ones each name a file it
wrote (relative to the folder).  Only those are ever removed."""
_MARKER_HEAD = "pbem archive: files written by pbem archive (only these are replaced when it runs again)"
EDITION = ".pbem-edition"
"""The file an archive leaves beside its pages: which edition of the game's public record it shows (`edition`),
so a live archive (`pbem.archive.live`) knows when it is out of date."""
PICTURES = ".pbem-pictures"
"""The file an archive leaves beside its pictures: for each, the digest of what it was drawn from
(`letters.forum_picture_digest`) and the SHA-256 of its bytes.  Written again, the archive keeps a picture
whose inputs did not change and whose file is still those bytes, and draws the others (issue #24: a live
archive drew every step's picture again after each step).  Without that file, or with one it cannot read,
every picture is drawn."""
_PICTURES_HEAD = "pbem archive: what each picture was drawn from, and its SHA-256 (one whose inputs changed is drawn again)"


class ArchiveFolderError(PbemError):
    """The folder given to `pbem archive` is not one pbem may write into."""


@dataclass(frozen=True)
class Post:
    """One step of the public record, as the archive shows it."""

    turn: int
    title: str
    page: str
    html: str
    picture: str | None
    picture_size: tuple[int, int] | None
    date: str = ""  # when the step was resolved, in the game's zone (« mercredi 2 décembre 2026 à 21 h »)
    chronicle: str | None = None  # the MJ's chronicle that headed the step's forum post (publish = "mj")


@dataclass
class Archive:
    """What was written: the folder, its pages, pictures and charts."""

    folder: Path
    pages: list[Path] = field(default_factory=list)
    pictures: list[Path] = field(default_factory=list)
    charts: list[Path] = field(default_factory=list)
    verified: bool | None = None
    removed: list[Path] = field(default_factory=list)  # the files of the archive written there before
    kept: int = 0  # files in the folder that pbem did not write, left as they were

    @property
    def written(self) -> list[Path]:
        return [*self.pages, *self.pictures, *self.charts, self.folder / "style.css", self.folder / PICTURES,
                self.folder / EDITION]


def edition(engine: Engine, game_id: str) -> str:
    """Which edition of the public record of ``game_id`` there is now: its published posts, the corrections
    published since (a RECTIFICATIF replaces a step's record and adds no post: the MJ's journal counts them)
    and whether the seed is revealed (the verification page).  The archive is out of date when this changed."""
    store = engine.store  # (counted by the database: a pass reads no record, however long the game, issue #24)
    posts = store.published_posts(game_id)
    corrections = store.journal_count(game_id, "rerun publish")
    row = store.game(game_id)
    revealed = int(bool(row is not None and row.seed_revealed))
    return f"posts {posts}, corrections {corrections}, seed revealed {revealed}\n"


def _own(path: Path) -> Path:
    """``path``, freed of a link someone put there: the archive writes its own files, never through a link into
    another folder (a shared web root may hold files pbem did not write)."""
    if path.is_symlink():
        path.unlink()
    return path


def folder_problem(folder: Path) -> Msg | None:
    """Why pbem may not write an archive into ``folder``, or None: a new or empty folder, or one an archive
    wrote before (its `MARKER`), is fine."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        return Msg(f"{folder} n'est pas un dossier\u00a0: donnez le chemin d'un dossier neuf ou vide",
                   f"{folder} is not a folder: give the path of a new or empty folder")
    if not folder.exists() or not any(folder.iterdir()):
        return None
    if (folder / MARKER).is_file() and (folder / MARKER).read_text("utf-8", errors="replace").startswith(_MARKER_HEAD):
        return None
    return Msg(f"{folder} n'est pas vide et pbem archive n'y a jamais écrit\u00a0: pbem n'efface rien qu'il n'a pas "
               "écrit\u00a0; donnez un dossier neuf ou vide (par exemple archives/<partie>)",
               f"{folder} is not empty and pbem archive never wrote there: pbem deletes nothing it did not write; "
               "give a new or empty folder (archives/<game>, say)")


def _former(folder: Path) -> tuple[list[Path], int]:
    """The files a former archive listed in its `MARKER` and that are still there (never a path that leaves the
    folder, never a link), and how many other files the folder holds: `build` replaces the first ones and
    removes those it does not write again, and leaves the others alone."""
    listed = (folder / MARKER).read_text("utf-8", errors="replace").splitlines()[1:] if (folder / MARKER).exists() else []
    found: dict[str, tuple[bool, bool]] = {}  # path in the folder -> (a file, not a link; a file, or a link to one)
    _walk(folder, "", found)  # (one read of each folder, not a look at each file: a long game has many)
    former = [folder / name for name in dict.fromkeys(listed) if found.get(name, (False, False))[0]]
    ours = {p.relative_to(folder).as_posix() for p in former}
    kept = sum(1 for name, (_, file) in found.items() if file and name not in ours and Path(name).name != MARKER)
    return former, kept


def _walk(folder: Path, prefix: str, found: dict[str, tuple[bool, bool]]) -> None:
    """Every entry under ``folder`` but its folders, by its path (``prefix`` ahead); never into a linked folder,
    so that nothing found leaves it."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _walk(Path(entry.path), f"{prefix}{entry.name}/", found)
            else:
                found[prefix + entry.name] = (entry.is_file(follow_symlinks=False), entry.is_file())


def _put(path: Path, text: str) -> None:
    """Write ``text`` into ``path`` unless it holds it already (a page the new step did not change): a refresh
    of a long game rewrites the few files that changed, not all of them (issue #24)."""
    if not path.is_symlink() and path.is_file():
        try:
            if path.read_text("utf-8") == text:
                return
        except (OSError, UnicodeDecodeError):
            pass
    _own(path).write_text(text, encoding="utf-8")


def _drawn_before(folder: Path) -> dict[str, tuple[str, str]]:
    """What the archive in ``folder`` drew (`PICTURES`): picture -> (inputs digest, SHA-256 of its bytes), for the
    pictures its `MARKER` lists; empty if the file is missing or anything in it is not as pbem writes it."""
    try:
        lines = (folder / PICTURES).read_text("utf-8").splitlines()
        listed = set((folder / MARKER).read_text("utf-8").splitlines()[1:])
    except (OSError, UnicodeDecodeError):
        return {}
    if not lines or lines[0] != _PICTURES_HEAD:
        return {}
    drawn = {}
    for line in lines[1:]:
        match = _DRAWN.fullmatch(line)
        if match is None or match["image"] not in listed:
            return {}  # (a file someone edited: trust none of it)
        drawn[match["image"]] = (match["inputs"], match["sha"])
    return drawn


_DRAWN = re.compile(r"(?P<image>images/turn-\d{1,9}\.png) (?P<inputs>[0-9a-f]{64}) (?P<sha>[0-9a-f]{64})")


def _kept_picture(folder: Path, image: str, inputs: str, before: Mapping[str, tuple[str, str]]) -> bytes | None:
    """The bytes of ``image`` as the former archive drew it from the same ``inputs``, or None (to be drawn): a
    file whose bytes are not those it drew (changed, replaced by a link) is never kept."""
    if before.get(image, ("", ""))[0] != inputs:
        return None
    path = folder / image
    try:
        if path.is_symlink() or not path.is_file():
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == before[image][1] else None


def build(engine: Engine, game_id: str, folder: Path) -> Archive:
    """Write the archive of ``game_id`` into ``folder``: a new or empty folder, or one a former archive wrote
    (its files are replaced; nothing else there is touched).  Any other folder raises `ArchiveFolderError`."""
    table = engine.table(game_id)
    g = table.known().row  # (a step whose results wait for the MJ's approval: not there, nor the end it brought)
    ruleset = table.ruleset
    s = table.settings
    problem = folder_problem(folder)
    if problem is not None:
        raise ArchiveFolderError(problem)
    shown = edition(engine, game_id)  # (before the records are read: a change meanwhile is for the next pass)
    former, kept = _former(folder) if folder.exists() else ([], 0)
    ours = set(former)  # (a picture is kept only from the archive's own files: none through a link elsewhere)
    before = {image: drawn for image, drawn in _drawn_before(folder).items() if folder / image in ours} if former else {}
    for stale in (folder / EDITION, folder / PICTURES):  # (a pass killed from now on: the next one writes it all)
        if stale in former:
            stale.unlink()
    (folder / "images").mkdir(parents=True, exist_ok=True)
    _list(folder, [p for p in former if p.exists()])  # an archive begun: a pass killed now leaves it pbem's
    out = Archive(folder, removed=former, kept=kept)
    drawn: dict[str, tuple[str, str]] = {}
    posts: list[Post] = []
    steps: list[tuple[str, dict[str, Any]]] = []
    outcome = None
    for rec in table.store.records(game_id):
        if rec.kind == "action" or not rec.published:
            continue
        state = table.decode_json(rec.state_after)
        events = rec.events
        outcome = ruleset.outcome(state)
        chronicle = table.store.chronicle(game_id, rec.seq)  # heads the post, as on the forum
        inputs = letters.forum_inputs(table, state, events)  # (one view a step: its post, picture and charts)
        text = letters.forum_text(table, state, events, rec.title, outcome, chronicle, inputs)
        view = inputs[0]
        steps.append(("départ" if rec.kind == "setup" else str(rec.turn), view))
        name = f"turn-{rec.turn}"
        image, png = f"images/{name}.png", None
        digest = letters.forum_picture_digest(table, state, events, rec.title, inputs)
        if digest is not None:
            png = _kept_picture(folder, image, digest, before)
            if png is None:
                picture = letters.forum_picture(table, state, events, rec.title, inputs)
                png = picture.png if picture is not None else None
                if png is not None:
                    _own(folder / image).write_bytes(png)
            if png is not None:
                drawn[image] = (digest, hashlib.sha256(png).hexdigest())
                out.pictures.append(folder / image)
        resolved = table.local(rec.resolved_at)
        posts.append(Post(rec.turn, rec.title, f"{name}.html", to_html(text), image if png is not None else None,
                          size(png) if png is not None else None,
                          (date_en if s.language == "en" else date_fr)(resolved) if resolved else "",
                          chronicle))
    charts = series.charts(s.ruleset, steps)
    if charts:
        (folder / "charts").mkdir(exist_ok=True)
    for chart in charts:
        path = folder / "charts" / f"{chart.slug}.svg"
        _put(path, svg(chart))
        out.charts.append(path)
    verification = None
    if g.seed_revealed:
        lines, ok = verification_report(engine.export(game_id, include_seed=True), None, s.language)
        verification = {"lines": lines, "ok": ok, "seed": g.seed, "commitment": g.commitment}
        out.verified = ok
    env = _environment(table.config.templates_dir, game_id)
    common = {"game": game_id, "title": s.title, "ruleset": ruleset.title, "phase": g.phase,
              "outcome": outcome.summary.fr if outcome is not None else None, "posts": posts,
              "verification": verification}
    _put(folder / "style.css", env.get_template("archive/style.css.j2").render())
    pages: list[tuple[str, str, dict[str, Any]]] = [
        ("index.html", "archive/index.html.j2", {"charts": [_chart_info(c) for c in charts]})]
    pages += [(p.page, "archive/post.html.j2", {"post": p, "previous": posts[i - 1] if i else None,
                                                 "next": posts[i + 1] if i + 1 < len(posts) else None})
              for i, p in enumerate(posts)]
    if verification is not None:
        pages.append(("verification.html", "archive/verification.html.j2", {}))
    for page, template, extra in pages:
        _put(folder / page, env.get_template(template).render(**common, **extra))
        out.pages.append(folder / page)
    written = set(out.written)
    for path in former:  # (the former archive's files this one did not write: a step no longer shown, say)
        if path not in written and not path.is_symlink() and path.is_file():
            path.unlink()
    if (folder / "charts").is_dir() and not out.charts and not any((folder / "charts").iterdir()):
        (folder / "charts").rmdir()
    _own(folder / PICTURES).write_text("\n".join([_PICTURES_HEAD, *(f"{image} {inputs} {sha}" for image, (inputs, sha)
                                                                    in drawn.items())]) + "\n", encoding="utf-8")
    _own(folder / EDITION).write_text(shown, encoding="utf-8")
    _list(folder, out.written)
    return out


def _list(folder: Path, written: list[Path]) -> None:
    _own(folder / MARKER).write_text("\n".join([_MARKER_HEAD, *(p.relative_to(folder).as_posix() for p in written)])
                                 + "\n", encoding="utf-8")


def _chart_info(chart: Chart) -> dict[str, str]:
    return {"src": f"charts/{chart.slug}.svg", "title": chart.title}


def _environment(overrides: Path | None, game_id: str) -> jinja2.Environment:
    """HTML templates, escaped by default; the MJ's ``templates/<game id>/archive/`` then ``templates/archive/``
    overrides come first."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(TEMPLATES))]
    if overrides is not None and overrides.is_dir():
        loaders.insert(0, jinja2.FileSystemLoader(str(overrides)))
        own = game_templates(overrides, game_id)
        if own is not None:
            loaders.insert(0, jinja2.FileSystemLoader(str(own)))
    return jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
