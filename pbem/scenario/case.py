"""Reading a scenario file (TOML) into a checked `Case`; a malformed file raises one `CaseError` naming the key.

The format is documented in docs/scenarios.md: French keys, a roster like a game's roster file
(`pbem.roster`), optional options and position, then steps (``[[etape]]``) with the orders as
players write them, forced dice and what is expected.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import games
from pbem.core import MJ, PUBLIC, Msg, OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError, Seat
from pbem.msg import PbemError
from pbem.names import fold
from pbem.roster import TABLES, RosterEntry, RosterError, read_roster

NULL = "@nul"
"""TOML has no null: this text stands for None in expected values and state patches (``@null`` too)."""

DEFAULT_SEED = "scenario"

ERROR_KINDS: dict[str, str] = {}
"""Folded label of an order error (French or English) -> the canonical French label."""
for _cls in (OrderSyntaxError, OrderNotAllowedError, OrderAmbiguousError):
    for _label in (_cls.label.fr, _cls.label.en):
        ERROR_KINDS[fold(_label)] = _cls.label.fr

FACT_TESTS: tuple[str, ...] = ("egal", "contient", "ne_contient_pas", "absent", "longueur")


class CaseError(PbemError):
    """A malformed scenario file: which file, which key, what was expected (one line, no traceback)."""

    def __init__(self, path: Path | str, key: str, msg: Msg):
        super().__init__(msg, f"{path}: {key}: {msg.en}")
        self.path = str(path)
        self.key = key

    def line(self, lang: str) -> str:
        sep = ": " if lang == "en" else " : "
        return f"{self.path}{sep}{self.key}{sep}{self.msg.get(lang)}"


# ---------------------------------------------------------------- what a case holds


@dataclass(frozen=True)
class EventExpectation:
    kind: str | None
    data: Mapping[str, Any] | None
    audience: str | tuple[str, ...] | None
    """``"public"``, ``"mj"``, or exactly these players."""
    to: tuple[str, ...]
    """Each of them receives it privately."""
    not_to: tuple[str, ...]
    """None of them may read it."""
    keys: tuple[str, ...]
    count: int | None
    """Exactly this many matching events; None: at least one."""
    where: str


@dataclass(frozen=True)
class ErrorExpectation:
    player: str
    line: str | None
    kind: str | None
    """Canonical French label: ``incompris``, ``refusé`` or ``ambigu``."""
    message: str | None
    where: str


@dataclass(frozen=True)
class NoteExpectation:
    """A line accepted with a note in its ack (« OK : … », `pbem.core.Order.note`)."""

    player: str
    line: str | None
    message: str | None
    where: str


@dataclass(frozen=True)
class FactExpectation:
    path: tuple[str, ...] | str
    viewer: str | None
    """None: the state itself; else whose view (a player, `MJ` or `PUBLIC`)."""
    test: str
    """One of `FACT_TESTS`."""
    value: Any
    where: str


@dataclass(frozen=True)
class PromptExpectation:
    player: str
    kind: str | None
    required: bool | None = None
    """``attendu``: the step waits for this player (True) or asks him without waiting (False)."""


@dataclass(frozen=True)
class OutcomeExpectation:
    finished: bool | None
    winners: tuple[str, ...] | None
    summary: str | None


@dataclass(frozen=True)
class Expectations:
    events: tuple[EventExpectation, ...] = ()
    errors: tuple[ErrorExpectation, ...] = ()
    facts: tuple[FactExpectation, ...] = ()
    rolls: tuple[tuple[str, int], ...] = ()
    prompts: tuple[PromptExpectation, ...] | None = None
    outcome: OutcomeExpectation | None = None
    setup_refused: str | None = None
    notes: tuple[NoteExpectation, ...] = ()

    def count(self) -> int:
        return (len(self.events) + len(self.errors) + len(self.notes) + len(self.facts) + len(self.rolls)
                + (self.prompts is not None) + (self.outcome is not None) + (self.setup_refused is not None))


@dataclass(frozen=True)
class Step:
    number: int
    title: str | None
    orders: tuple[tuple[str, tuple[str, ...]], ...]
    forced: Mapping[str, Any]
    patch: Mapping[str, Any] | None
    resolve: bool
    expect: Expectations
    repeat: int = 1
    """``repeter``: the step is played this many times in a row (the same orders each time); checked after the last."""


@dataclass(frozen=True)
class Case:
    path: Path
    game: str
    title: str | None
    rule: str | None
    origin: str | None
    seed: str
    options: Mapping[str, Any]
    roster: tuple[Seat, ...]
    forced: Mapping[str, Any]
    state: Mapping[str, Any] | None
    """``[etat]``: a patch over the set-up state, or the whole state when there is no roster."""
    state_file: Path | None
    expect: Expectations
    steps: tuple[Step, ...] = field(default_factory=tuple)
    position: Mapping[str, Any] | None = None
    """``[position]``: a game's own description of a position (Pour le Roi: the cards in play), read by its
    ``scenario_setup``."""


# ---------------------------------------------------------------- reading


def _expected(fr: str, en: str) -> Msg:
    return Msg(f"attendu : {fr}", f"expected {en}")


TEXT = _expected("un texte entre guillemets", "a quoted text")
TABLE = _expected("une table", "a table")
BOOL = _expected("true ou false", "true or false")
INT = _expected("un nombre entier", "a whole number")
TEXTS = _expected("un texte ou une liste de textes", "a text or a list of texts")


class _Reader:
    """Typed access to one table of the file, naming keys for errors."""

    def __init__(self, path: Path, data: Any, where: str):
        self.path = path
        self.where = where
        if not isinstance(data, Mapping):
            raise CaseError(path, where or "(fichier)", TABLE)
        self.data: Mapping[str, Any] = data

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def fail(self, name: str, msg: Msg) -> CaseError:
        return CaseError(self.path, self.key(name), msg)

    def allow(self, *names: str) -> None:
        for k in self.data:
            if k not in names:
                allowed = ", ".join(names)
                raise self.fail(k, Msg(f"clé inconnue ; clés permises ici : {allowed}",
                                       f"unknown key; keys allowed here: {allowed}"))

    def text(self, name: str, default: str | None = None, *, required: bool = False) -> str | None:
        if name not in self.data:
            if required:
                raise self.fail(name, Msg("clé obligatoire manquante (" + TEXT.fr + ")",
                                          "required key missing (" + TEXT.en + ")"))
            return default
        value = self.data[name]
        if not isinstance(value, str):
            raise self.fail(name, TEXT)
        return value

    def flag(self, name: str, default: bool | None) -> bool | None:
        if name not in self.data:
            return default
        value = self.data[name]
        if not isinstance(value, bool):
            raise self.fail(name, BOOL)
        return value

    def whole(self, name: str) -> int | None:
        if name not in self.data:
            return None
        value = self.data[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(name, _expected("un nombre entier positif ou nul", "a whole number, 0 or more"))
        return value

    def table(self, name: str) -> _Reader | None:
        if name not in self.data:
            return None
        return _Reader(self.path, self.data[name], self.key(name))

    def tables(self, name: str) -> list[_Reader]:
        if name not in self.data:
            return []
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise self.fail(name, _expected(f"des tables [[{self.key(name)}]]", f"tables [[{self.key(name)}]]"))
        return [_Reader(self.path, v, f"{self.key(name)}[{i}]") for i, v in enumerate(value, 1)]

    def names(self, name: str) -> tuple[str, ...]:
        if name not in self.data:
            return ()
        value = self.data[name]
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(name, TEXTS)
        return tuple(value)


def null(value: Any) -> Any:
    """The value with every ``"@nul"`` replaced by None."""
    if isinstance(value, str) and value in (NULL, "@null"):
        return None
    if isinstance(value, Mapping):
        return {k: null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [null(v) for v in value]
    return value


def viewer(name: str) -> str:
    """A view's owner as the file writes it: a player, ``@mj`` or ``@public``."""
    return {"@mj": MJ, "@public": PUBLIC}.get(name, name)


def _path(r: _Reader, name: str) -> tuple[str, ...] | str:
    value = r.data.get(name)
    if isinstance(value, str) and value:
        return value
    if isinstance(value, list) and value and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return tuple(str(v) for v in value)
    raise r.fail(name, _expected("un chemin (« players.Arya.alive ») ou une liste de clés",
                                 "a path ('players.Arya.alive') or a list of keys"))


def _events(r: _Reader) -> tuple[EventExpectation, ...]:
    out = []
    for e in r.tables("evenement"):
        e.allow("type", "donnees", "audience", "pour", "pas_pour", "cle", "nombre")
        data = e.table("donnees")
        audience: str | tuple[str, ...] | None = None
        if "audience" in e.data:
            raw = e.data["audience"]
            if raw in ("public", "mj"):
                audience = str(raw)
            elif isinstance(raw, list) and all(isinstance(v, str) for v in raw):
                audience = tuple(raw)
            else:
                raise e.fail("audience", _expected("« public », « mj » ou une liste de joueurs",
                                                   "'public', 'mj' or a list of players"))
        out.append(EventExpectation(e.text("type"), null(dict(data.data)) if data else None, audience,
                                    e.names("pour"), e.names("pas_pour"), e.names("cle"), e.whole("nombre"), e.where))
    return tuple(out)


def _errors(r: _Reader) -> tuple[ErrorExpectation, ...]:
    out = []
    for e in r.tables("erreur"):
        e.allow("joueur", "ligne", "type", "message")
        kind = e.text("type")
        if kind is not None:
            if fold(kind) not in ERROR_KINDS:
                raise e.fail("type", _expected("« incompris », « refusé » ou « ambigu »",
                                               "'incompris', 'refusé' or 'ambigu' (or 'not understood', 'not allowed', 'ambiguous')"))
            kind = ERROR_KINDS[fold(kind)]
        player = e.text("joueur", required=True)
        assert player is not None
        out.append(ErrorExpectation(player, e.text("ligne"), kind, e.text("message"), e.where))
    return tuple(out)


def _notes(r: _Reader) -> tuple[NoteExpectation, ...]:
    out = []
    for e in r.tables("note"):
        e.allow("joueur", "ligne", "message")
        player = e.text("joueur", required=True)
        assert player is not None
        out.append(NoteExpectation(player, e.text("ligne"), e.text("message"), e.where))
    return tuple(out)


def _facts(r: _Reader) -> tuple[FactExpectation, ...]:
    out: list[FactExpectation] = []
    state = r.table("etat")
    if state is not None:
        for key, value in state.data.items():
            out.append(FactExpectation(key, None, "egal", null(value), state.key(key)))
    views = r.table("vue")
    if views is not None:
        for who, table in views.data.items():
            v = _Reader(r.path, table, views.key(who))
            for key, value in v.data.items():
                out.append(FactExpectation(key, viewer(who), "egal", null(value), v.key(key)))
    for f in r.tables("fait"):
        f.allow("chemin", "vue", *FACT_TESTS)
        tests = [t for t in FACT_TESTS if t in f.data]
        if len(tests) != 1:
            raise f.fail("chemin", _expected("un seul test parmi " + ", ".join(FACT_TESTS),
                                             "exactly one test among " + ", ".join(FACT_TESTS)))
        test = tests[0]
        if test == "absent":
            f.flag("absent", None)
        if test == "longueur":
            f.whole("longueur")
        seen_by = f.text("vue")
        out.append(FactExpectation(_path(f, "chemin"), viewer(seen_by) if seen_by is not None else None, test,
                                   null(f.data[test]), f.where))
    return tuple(out)


def _prompts(r: _Reader) -> tuple[PromptExpectation, ...] | None:
    if "sollicites" not in r.data:
        return None
    raw = r.data["sollicites"]
    out = []
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, str):
                out.append(PromptExpectation(item, None))
                continue
            if isinstance(item, Mapping) and isinstance(item.get("joueur"), str) and set(item) <= {"joueur", "type", "attendu"}:
                kind, required = item.get("type"), item.get("attendu")
                if (kind is None or isinstance(kind, str)) and (required is None or isinstance(required, bool)):
                    out.append(PromptExpectation(item["joueur"], kind, required))
                    continue
            break
        else:
            return tuple(out)
    raise r.fail("sollicites", _expected("une liste de joueurs, ou de tables { joueur = \"…\", type = \"…\", attendu = true }",
                                         "a list of players, or of tables { joueur = \"…\", type = \"…\", attendu = true }"))


def _outcome(r: _Reader) -> OutcomeExpectation | None:
    t = r.table("issue")
    if t is None:
        return None
    t.allow("fini", "vainqueurs", "resume")
    winners = t.names("vainqueurs") if "vainqueurs" in t.data else None
    return OutcomeExpectation(t.flag("fini", None), winners, t.text("resume"))


def _rolls(r: _Reader) -> tuple[tuple[str, int], ...]:
    t = r.table("jets")
    if t is None:
        return ()
    out = []
    for key in t.data:
        count = t.whole(key)
        assert count is not None
        out.append((key, count))
    return tuple(out)


def _expectations(parent: _Reader, *, setup: bool) -> Expectations:
    r = parent.table("attendu")
    if r is None:
        return Expectations()
    keys = ["evenement", "erreur", "note", "etat", "vue", "fait", "jets", "sollicites", "issue"]
    if setup:
        keys.append("refus_mise_en_place")
    r.allow(*keys)
    return Expectations(_events(r), _errors(r), _facts(r), _rolls(r), _prompts(r), _outcome(r),
                        r.text("refus_mise_en_place") if setup else None, _notes(r))


def _forced(parent: _Reader) -> Mapping[str, Any]:
    t = parent.table("des")
    return dict(t.data) if t is not None else {}


def _orders(r: _Reader) -> tuple[tuple[str, tuple[str, ...]], ...]:
    t = r.table("ordres")
    if t is None:
        return ()
    out = []
    for player, raw in t.data.items():
        if isinstance(raw, str):
            lines = tuple(ln.strip() for ln in raw.splitlines() if ln.strip())
        elif isinstance(raw, list) and all(isinstance(v, str) for v in raw):
            lines = tuple(raw)
        else:
            raise t.fail(player, _expected("une liste de lignes d'ordres (ou un texte de plusieurs lignes)",
                                           "a list of order lines (or a text of several lines)"))
        out.append((viewer(player), lines))
    return tuple(out)


def _steps(top: _Reader) -> tuple[Step, ...]:
    out = []
    for i, s in enumerate(top.tables("etape"), 1):
        s.allow("titre", "etat", "ordres", "des", "resoudre", "repeter", "attendu")
        patch = s.table("etat")
        resolve = s.flag("resoudre", True)
        repeat = s.whole("repeter")
        if repeat is not None and (repeat < 1 or not resolve):
            raise s.fail("repeter", _expected("un nombre entier d'au moins 1, dans une étape résolue",
                                              "a whole number, 1 or more, in a step that is resolved"))
        out.append(Step(i, s.text("titre"), _orders(s), _forced(s), dict(patch.data) if patch else None,
                        bool(resolve), _expectations(s, setup=False), repeat or 1))
    return tuple(out)


TOP_KEYS = ("jeu", "titre", "regle", "origine", "graine", "joueurs_fichier", "options", "des", "etat",
            "etat_fichier", "position", "attendu", "etape", *TABLES)


def _roster(path: Path, top: _Reader, doc: Mapping[str, Any]) -> list[RosterEntry]:
    """The roster file's entries (``joueurs_fichier``), then the file's own: same name replaces, new is added."""
    entries: list[RosterEntry] = []
    name = top.text("joueurs_fichier")
    if name is not None:
        roster_path = path.parent / name
        try:
            with open(roster_path, "rb") as f:
                entries = read_roster(tomllib.load(f))
        except OSError as e:
            raise top.fail("joueurs_fichier", _expected(f"un fichier de joueurs lisible ({roster_path} : {e.strerror})",
                                                        f"a readable roster file ({roster_path}: {e.strerror})")) from None
        except tomllib.TOMLDecodeError as e:
            raise top.fail("joueurs_fichier", Msg(f"{roster_path} : TOML invalide : {e}",
                                                  f"{roster_path}: invalid TOML: {e}")) from None
        except RosterError as e:
            raise CaseError(roster_path, e.key, e.msg) from None
    try:
        own = read_roster(doc)
    except RosterError as e:
        raise CaseError(path, e.key, e.msg) from None
    for entry in own:
        at = next((i for i, x in enumerate(entries) if fold(x.name) == fold(entry.name)), None)
        if at is None:
            entries.append(entry)
        else:
            entries[at] = entry
    return entries


def parse_case(path: Path, doc: Mapping[str, Any]) -> Case:
    """Check a parsed TOML document and build the `Case`."""
    top = _Reader(path, doc, "")
    top.allow(*TOP_KEYS)
    game = top.text("jeu", required=True)
    assert game is not None
    try:
        canonical = games.canonical(game)
    except KeyError:
        known = ", ".join(games.names())
        raise top.fail("jeu", Msg(f"jeu inconnu « {game} » ; jeux connus : {known}",
                                  f"unknown game '{game}'; known games: {known}")) from None
    seed = top.text("graine", DEFAULT_SEED) or DEFAULT_SEED
    if not seed.isascii():
        raise top.fail("graine", _expected("un texte sans accents (ASCII)", "an ASCII text"))
    entries = _roster(path, top, doc)
    options = top.table("options")
    position = top.table("position")
    if position is not None and not entries:
        raise top.fail("position", Msg("une position demande une liste de joueurs ([[joueur]])",
                                       "a position needs a roster ([[joueur]])"))
    state = top.table("etat")
    state_file_name = top.text("etat_fichier")
    state_file = (path.parent / state_file_name) if state_file_name else None
    if state_file is not None and not state_file.is_file():
        raise top.fail("etat_fichier", _expected(f"un fichier JSON existant (introuvable : {state_file})",
                                                 f"an existing JSON file (not found: {state_file})"))
    if entries and state_file is not None:
        raise top.fail("etat_fichier", Msg("une liste de joueurs et un état complet : choisissez l'un ou l'autre",
                                           "a roster and a whole state: give one or the other"))
    if not entries and state is None and state_file is None:
        raise CaseError(path, "joueur", Msg("ni liste de joueurs ([[joueur]]) ni état ([etat] ou etat_fichier)",
                                            "no roster ([[joueur]]) and no state ([etat] or etat_fichier)"))
    return Case(
        path=path, game=canonical, title=top.text("titre"), rule=top.text("regle"), origin=top.text("origine"),
        seed=seed, options=dict(options.data) if options else {}, roster=tuple(e.seat() for e in entries),
        forced=_forced(top), state=dict(state.data) if state else None, state_file=state_file,
        expect=_expectations(top, setup=True), steps=_steps(top),
        position=dict(position.data) if position is not None else None,
    )


def load_case(path: Path | str) -> Case:
    """Read and check one scenario file."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise CaseError(path, "(fichier)", Msg(f"lecture impossible : {e.strerror}", f"cannot read: {e.strerror}")) from None
    except tomllib.TOMLDecodeError as e:
        raise CaseError(path, "(TOML)", Msg(f"TOML invalide : {e}", f"invalid TOML: {e}")) from None
    return parse_case(path, doc)


def load_state_file(case: Case) -> Any:
    """The JSON data of ``etat_fichier`` (a state as the store keeps it, e.g. ``state_after`` of `pbem export`)."""
    assert case.state_file is not None
    try:
        return json.loads(case.state_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CaseError(case.path, "etat_fichier", _expected(f"un état en JSON ({e})", f"a state in JSON ({e})")) from None
