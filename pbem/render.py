"""Turning events and views into text with Jinja: plain-text mail and BBCode forum posts.

Two environments share the templates: ``mail`` (plain text, no escaping) and ``forum`` (every
``{{ expression }}`` is BBCode-escaped by `finalize`, so a player calling himself ``[url=...]``
prints as text).  Player text is only ever a value given to a template, never a template.

Templates are looked up in the game folder's ``templates/<game id>/`` first (the MJ's overrides for
one game: ``templates/pmb1/common/reminder.fr.j2`` changes the reminder of pmb1 alone), then in its
``templates/`` (the overrides for every game of the folder, one file at a time), then in the package's
(`TEMPLATES`).  An override that does not compile is reported
(`override_problems`, `pbem doctor`) and the last good version of it, or else the packaged one,
is used: a typo in an MJ's edit never stops the mail.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.runtime

from pbem import dicetext
from pbem.core import Event, Msg, StepWord
from pbem.shipped import TEMPLATES  # the packaged templates: common/ and one folder per game
from pbem.wording import StepNoun, agree, de, death_marks, join_list, number, plural

log = logging.getLogger("pbem")

_DAYS_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
_MONTHS_FR = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
              "novembre", "décembre"]
_DAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]


def date_fr(dt: datetime) -> str:
    """``mercredi 15 janvier 2020 à 21 h`` (minutes shown when not zero: ``à 21 h 30``)."""
    day = "1er" if dt.day == 1 else str(dt.day)
    time = f"{dt.hour}\u00a0h" + (f"\u00a0{dt.minute:02d}" if dt.minute else "")
    return f"{_DAYS_FR[dt.weekday()]} {day} {_MONTHS_FR[dt.month - 1]} {dt.year} à {time}"


def date_en(dt: datetime) -> str:
    """``Wednesday 15 January 2020 at 21:00``."""
    return f"{_DAYS_EN[dt.weekday()]} {dt.day} {_MONTHS_EN[dt.month - 1]} {dt.year} at {dt.hour:02d}:{dt.minute:02d}"


_BB_OPEN = re.compile("\\[(?!\u200b)")


def bbcode_escape(value: Any) -> Any:
    """Neutralise BBCode in a value: a zero-width space after each ``[`` stops tag parsing, shows nothing."""
    if isinstance(value, str):
        return _BB_OPEN.sub("[\u200b", value)
    return value


_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|tr|fw|fwd|aw|réf|ref)\s*:\s*)+", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """``Re: <subject>`` without piling up prefixes (``Re: RE : Fwd: x`` -> ``Re: x``)."""
    return "Re: " + _REPLY_PREFIX.sub("", subject or "").strip()


def _msg(value: Any, lang: str) -> Any:
    """A rule's sentence in the reader's language; French gets the templates' non-breaking spaces, since
    these texts are the code's own (card effects, order help), never a player's words."""
    if not isinstance(value, Msg):
        return value
    return french_spaces(value.fr) if lang == "fr" else value.en


def _finalize_plain(value: Any) -> Any:
    return "" if value is None else value


def _finalize_forum(value: Any) -> Any:
    return bbcode_escape("" if value is None else value)


_ENVIRONMENTS: list[jinja2.Environment] = []


_TAGS = re.compile(r"({{.*?}}|{%.*?%}|{#.*?#})", re.DOTALL)
_BEFORE = re.compile(r" ([:;!?»])")


def french_spaces(source: str) -> str:
    """The template's own French text with its non-breaking spaces: before « : ; ! ? » and « » », after « « ».

    Only the text between Jinja tags changes: values put in at rendering (a player's line, a name)
    are left exactly as they are.  A space already non-breaking (typed by hand, as in the templates
    of Courtisans or Pour le Roi) is no plain space, so it is never doubled.
    """
    pieces = _TAGS.split(source)
    for i in range(0, len(pieces), 2):
        pieces[i] = _BEFORE.sub("\u00a0\\1", pieces[i]).replace("« ", "«\u00a0")
    return "".join(pieces)


class FrenchLoader(jinja2.FileSystemLoader):
    """Templates from a folder; the French ones get their non-breaking spaces (`french_spaces`)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        return (french_spaces(source) if template.endswith(".fr.j2") else source), filename, uptodate


class GuardedLoader(FrenchLoader):
    """The MJ's override folder: a template that does not compile is replaced by its last good version.

    With no good version yet, the template counts as absent here, so the packaged one is used.
    Each problem is logged once (per version of the file) and kept for `override_problems`.
    French overrides get their non-breaking spaces as the packaged templates do (`FrenchLoader`).
    """

    def __init__(self, folder: Path):
        super().__init__(str(folder))
        self.folder = folder
        self.problems: dict[str, str] = {}
        self._good: dict[str, tuple[str, str]] = {}
        self.seen: frozenset[str] = frozenset(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                                              if p.is_file())

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        try:
            environment.parse(source, template, filename)
        except jinja2.TemplateSyntaxError as e:
            where = f"{filename}:{e.lineno}: {e.message}"
            if self.problems.get(template) != where:  # (in the language of the environment's readers)
                kept = template in self._good
                log.error("%s", f"template override {where} (the "
                          f"{'last good version' if kept else 'packaged template'} is used meanwhile)"
                          if environment.globals.get("lang") == "en" else
                          f"gabarit remplacé {where} (en attendant, pbem prend "
                          f"{'sa dernière bonne version' if kept else 'le gabarit de pbem'})")
            self.problems[template] = where
            if template not in self._good:
                raise jinja2.TemplateNotFound(template) from None
            good, good_name = self._good[template]
            return good, good_name, uptodate
        self.problems.pop(template, None)
        self._good[template] = (source, filename)
        return source, filename, uptodate


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, with ``view.turn`` on a plain dict looked up as an item at once.

    Jinja tries ``getattr`` first and falls back to the item: on a dict (the rulesets' views,
    the events' data) that costs a raised AttributeError for every ``view.x`` of a template,
    about a third of rendering a status.  A plain dict has no attributes but its class's, so
    for any other name the outcome is the same, only without the exception.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        try:  # (Jinja's own, inlined: a super() call would cost more than the dict case saves on an ack)
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


def _environment(finalize: Any, root: Path, overrides: tuple[Path, ...], kind: str) -> jinja2.Environment:
    packaged = FrenchLoader(str(root))
    loader: jinja2.BaseLoader = (jinja2.ChoiceLoader([*(GuardedLoader(o) for o in overrides), packaged])
                                 if overrides else packaged)
    env = _Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        finalize=finalize,
        auto_reload=False,  # checked once per pass by `refresh_templates`, not at every mail
        # compiled templates kept between processes: a tick compiles none (a PMB turn compiled ~270, a
        # third of its time); one cache per kind of environment (their code differs by ``finalize``),
        # keyed by the template's source, in Jinja's own per-user folder (mode 0700, checked by Jinja)
        bytecode_cache=jinja2.FileSystemBytecodeCache(pattern=f"__pbem_{kind}_%s.cache"),
    )
    install_vocabulary(env)
    _ENVIRONMENTS.append(env)
    return env


def _lang_of(context: jinja2.runtime.Context) -> str:
    """The language of the template being rendered (``<game>/<base>.<lang>.j2``)."""
    return "en" if (context.name or "").endswith(".en.j2") else "fr"


@jinja2.pass_context
def _and_list(context: jinja2.runtime.Context, items: Any, word: str | None = None) -> str:
    return join_list(items, _lang_of(context), word)


@jinja2.pass_context
def _number(context: jinja2.runtime.Context, n: int) -> str:
    return number(n, _lang_of(context))


@jinja2.pass_context
def _plural(context: jinja2.runtime.Context, count: int, one: str, many: str | None = None) -> str:
    return plural(count, one, many, _lang_of(context))


def install_vocabulary(env: jinja2.Environment) -> jinja2.Environment:
    """pbem's template vocabulary in an environment: ``and_list`` (« A, B et C »), ``plural``, ``number``
    (« 3 645 »), ``de`` (« d'Olenna »), ``capfirst``, ``bb``, ``reply_subject``, and ``agree`` (neutral here: a `Renderer`
    gives its game's players' genders).  Tests that render templates with their own environment call it."""
    env.filters["bb"] = bbcode_escape
    env.filters["reply_subject"] = reply_subject
    env.filters["and_list"] = _and_list
    env.filters["plural"] = _plural
    env.filters["number"] = _number
    env.filters["de"] = de
    env.filters["capfirst"] = lambda text: str(text)[:1].upper() + str(text)[1:]
    env.globals["agree"] = lambda name, masculine, feminine, neutral=None: agree(None, masculine, feminine, neutral)
    env.globals["death_marks"] = lambda dead: death_marks([str(n) for n in dead or ()], {}, "fr")  # (neutral: « † »)
    return env


def override_problems(folder: Path, games: Sequence[str] = ()) -> list[str]:
    """Every override in ``folder`` that does not compile, as ``file:line: message`` (for `pbem doctor`);
    ``games`` are the configured game ids, whose ``<game id>/`` folders hold one game's overrides."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)))
    problems = []
    for path in sorted(folder.rglob("*.j2")) if folder.is_dir() else []:
        name = path.relative_to(folder).as_posix()
        try:
            env.parse(path.read_text(encoding="utf-8"), name, str(path))
        except jinja2.TemplateSyntaxError as e:
            problems.append(f"{path}:{e.lineno}: {e.message}")
        except (OSError, UnicodeDecodeError) as e:
            problems.append(f"{path}: {e}")
        first, _, rest = name.partition("/")
        if not (TEMPLATES / name).is_file() and not (first in games and (TEMPLATES / rest).is_file()):
            problems.append(f"{path}: pbem has no template {name} (pbem templates list shows them)")
    for path in sorted(folder.rglob("*.toml")) if folder.is_dir() else []:
        try:
            tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            problems.append(f"{path}: {e}")
    return problems


def packaged_templates() -> list[str]:
    """The names of every packaged template, e.g. ``common/ack.fr.j2`` (what an MJ may override)."""
    return sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*")
                  if p.is_file() and p.suffix in (".j2", ".toml"))


def refresh_templates() -> bool:
    """Pick up templates edited, added or removed since the last call (the daemon calls it once per pass).

    Jinja would otherwise look at the file of a template each time it is used; an MJ who edits a
    template sees the change from the next pass on.  Returns whether anything changed.
    """
    changed = False
    for env in _ENVIRONMENTS:
        cache = env.cache
        if cache is not None and (_overrides_changed(env) or any(not t.is_up_to_date for t in list(cache.values()))):
            cache.clear()
            changed = True
    _exists.cache_clear()
    dicetext.labels.cache_clear()
    return changed


def _overrides_changed(env: jinja2.Environment) -> bool:
    """Was an override added or removed since the last look (an edited one is seen by ``is_up_to_date``)?"""
    loader = env.loader
    if not isinstance(loader, jinja2.ChoiceLoader):
        return False
    changed = False
    for guarded in loader.loaders:
        if isinstance(guarded, GuardedLoader):
            names = frozenset(p.relative_to(guarded.folder).as_posix() for p in guarded.folder.rglob("*")
                              if p.is_file()) if guarded.folder.is_dir() else frozenset()
            changed |= names != guarded.seen
            guarded.seen = names
    return changed


@dataclass(frozen=True)
class Rendered:
    subject: str
    body: str


class Renderer:
    """Renders pbem's texts for one game (its ruleset name and language).

    Every template sees ``step``, the game's step word (`pbem.wording.StepNoun`: ``step.the``,
    ``step.this``, ``step.e``, ``step.name(title)``...).

    ``overrides`` is the folder's ``templates/``; with ``game_id``, its ``templates/<game_id>/`` comes
    first: that game's own overrides, which no other game sees.
    """

    def __init__(self, game: str, lang: str, root: Path = TEMPLATES, overrides: Path | None = None, *,
                 step: StepWord | None = None, game_id: str | None = None):
        self.game = game
        self.lang = lang
        self.root = root
        self.step = StepNoun(step or StepWord(), lang)
        self.overrides = overrides if overrides is not None and overrides.is_dir() else None
        self.game_overrides = game_templates(self.overrides, game_id)
        self._folders = tuple(f for f in (self.game_overrides, self.overrides) if f is not None)
        self.mail, self.forum = _environments(root, self._folders, lang)
        self._messages: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}
        self.genders: Mapping[str, str] = {}
        self.everyone_gendered = False  # did every player of the game give a gender (`death_marks`)?
        # the game's events modules, made with this renderer's `agree` (by environment, for one template version)
        self._modules: dict[int, tuple[Any, Any]] = {}
        # each template's globals in one plain dict (by environment and name, for one template version)
        self._template_globals: dict[tuple[int, str], tuple[jinja2.Template, dict[str, Any]]] = {}
        # texts the engine asks for again and again (a player's ETAT): by key, with the version they show
        self._remembered: dict[Hashable, tuple[object, str]] = {}

    def set_genders(self, genders: Mapping[str, str], everyone: bool | None = None) -> None:
        """The players' genders (name -> "f" / "m"), for `agree` in every text (the same mapping: nothing to do);
        ``everyone``: every player of the game gave one (by default: when some gave one)."""
        everyone = bool(genders) if everyone is None else everyone
        if genders is self.genders and everyone == self.everyone_gendered:
            return
        changed = genders != self.genders or everyone != self.everyone_gendered
        self.genders, self.everyone_gendered = genders, everyone
        if changed:
            self._modules.clear()
            self._messages.clear()
            self._remembered.clear()

    def agree(self, name: str, masculine: str, feminine: str, neutral: str | None = None) -> str:
        """The form that agrees with the player ``name``: « est mort » / « est morte »; without a gender,
        the neutral phrasing (« a perdu la vie »), else the masculine."""
        return agree(self.genders.get(name), masculine, feminine, neutral)

    def _exists(self, name: str) -> bool:
        return _exists(self.root, name) or any(_exists(folder, name) for folder in self._folders)

    def _name(self, env: jinja2.Environment, base: str) -> str:
        """``<game>/<base>.<lang>.j2`` if the game has one, else ``common/<base>.<lang>.j2``."""
        for candidate in (f"{self.game}/{base}.{self.lang}.j2", f"common/{base}.{self.lang}.j2"):
            if self._exists(candidate) and (not self._folders or _loads(env, candidate)):
                return candidate
        raise jinja2.TemplateNotFound(f"{self.game}/{base}.{self.lang}.j2")

    def event_text(self, event: Event, env: jinja2.Environment | None = None) -> str:
        """One event as a paragraph, through the macro named after its kind."""
        env = env or self.mail
        module = self._events_module(env)
        macro = getattr(module, event.kind, None) if module is not None else None
        if macro is None:
            common: Any = env.get_template(f"common/events.{self.lang}.j2").module
            return str(common.unknown_event(dict(event.data), event.kind)).strip()
        return str(macro(dict(event.data))).strip()

    def _events_module(self, env: jinja2.Environment) -> Any:
        name = f"{self.game}/events.{self.lang}.j2"
        if not self._exists(name) or (self._folders and not _loads(env, name)):
            return None
        template = env.get_template(name)
        hit = self._modules.get(id(env))
        if hit is None or hit[0] is not template:  # first use, or the template was edited (refresh_templates)
            hit = self._modules[id(env)] = (template, template.make_module(self._globals()))
        return hit[1]

    def _globals(self) -> dict[str, Any]:
        """What every template and macro of this game sees: the step word, `agree`, the genders."""
        return {"game": self.game, "step": self.step, "agree": self.agree, "genders": self.genders,
                "death_marks": self.death_marks}

    def death_marks(self, dead: Any) -> dict[str, str]:
        """The mark after each dead player's name in one text, the same for all of them (`wording.death_marks`)."""
        # one marker for the whole game: « mort » / « morte » only when every player gave a gender, else « † » for
        # every dead player of every text (a letter joins several texts: never « (†) » beside « (morte) »)
        return death_marks([str(n) for n in dead or ()], self.genders if self.everyone_gendered else {}, self.lang)

    def message(self, key: str, **params: Any) -> str:
        """A short verdict or note from ``common/messages.<lang>.j2`` (the macro named ``key``)."""
        # "done", « Vos ordres pour le tour 2 »...: the same words give the same text (renderers last one
        # pass, and forget their texts when the genders change); only plain values are keys
        if (not all(type(value) in _PLAIN_VALUES for value in params.values())
                or sum(len(value) for value in params.values() if type(value) is str) > _MEMO_TEXT_CHARS):
            return self._message(key, params)  # (a mail's subject, a line: not worth remembering)
        memo = (key, tuple(params.items()))
        text = self._messages.get(memo)
        if text is None:
            if len(self._messages) >= _MEMO_ENTRIES:
                self._messages.clear()
            text = self._messages[memo] = self._message(key, params)
        return text

    def remembered(self, key: Hashable, version: object, make: Callable[[], str]) -> str:
        """``make()``, made once for a key and a version of what it shows, while the genders stay the same.

        For a text that is a function of what ``key`` and ``version`` name, asked for by many mails of
        one pass: a player's ETAT is his view of one stored state (key: the player, version: the state's
        JSON).  One text is kept per key: another version replaces it.
        """
        hit = self._remembered.get(key)
        if hit is None or hit[0] != version:
            hit = self._remembered[key] = (version, make())
        return hit[1]

    def _message(self, key: str, params: dict[str, Any]) -> str:
        module: Any = self.mail.get_template(f"common/messages.{self.lang}.j2").module
        return str(getattr(module, key)({"step": self.step, "agree": self.agree, **params})).strip()

    def has_macro(self, kind: str) -> bool:
        module = self._events_module(self.mail)
        return module is not None and hasattr(module, kind)

    def events_text(self, events: Sequence[Event], env: jinja2.Environment | None = None) -> list[str]:
        return [t for t in (self.event_text(e, env) for e in events) if t.strip()]

    def mail_text(self, base: str, **context: Any) -> Rendered:
        """Render a mail template: its ``subject`` variable (set at top level) and its body."""
        template = self.mail.get_template(self._name(self.mail, base))
        body, exported = self._render(template, self.events_text, context)
        subject = str(exported.get("subject", "")).replace("\r", " ").replace("\n", " ").strip()
        return Rendered(subject, _tidy(body))

    def forum_text(self, **context: Any) -> str:
        """The BBCode forum report."""
        template = self.forum.get_template(self._name(self.forum, "forum"))
        ctx = {**self._globals(), "render_events": lambda evs: self.events_text(evs, self.forum), **context}
        return _tidy(template.render(ctx))

    def _render(self, template: jinja2.Template, render_events: Callable[[Sequence[Event]], list[str]],
                context: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The text of a template and the variables it exports (``subject``), as `Template.make_module` gives them.

        The context is built as Jinja builds it (the template's globals, then ours, then the
        caller's) from the globals copied into a plain dict once per template: Jinja reads them
        through a `ChainMap`, twice a render, which cost about a quarter of rendering an ack.
        """
        key = (id(template.environment), template.name or "")
        hit = self._template_globals.get(key)
        if hit is None or hit[0] is not template:  # first use, or the template was edited (refresh_templates)
            hit = self._template_globals[key] = (template, dict(template.globals))
        known = hit[1]
        ctx = jinja2.runtime.new_context(template.environment, template.name, template.blocks,
                                         {**known, **self._globals(), "render_events": render_events, **context},
                                         shared=True, globals=known)
        body = template.environment.concat(template.root_render_func(ctx))
        return body, ctx.get_exported()


_PLAIN_VALUES = (str, int, float, bool, type(None))
"""Values a `Renderer.message` text is remembered by (immutable, compared by value)."""
_MEMO_TEXT_CHARS = 200
"""A `Renderer.message` whose text values are longer than this in all is not remembered."""
_MEMO_ENTRIES = 4096
"""`Renderer.message` remembers this many texts at most (then starts again)."""


def game_templates(overrides: Path | None, game_id: str | None) -> Path | None:
    """``templates/<game_id>/``, one game's own overrides, when the MJ made that folder."""
    if overrides is None or game_id is None:
        return None
    folder = overrides / game_id
    return folder if folder.is_dir() else None


@lru_cache(maxsize=32)  # (by templates folders and language: a handful; a game without a folder of its own shares)
def _environments(root: Path, folders: tuple[Path, ...], lang: str) -> tuple[jinja2.Environment, jinja2.Environment]:
    """The mail and forum environments for a language, cached so compiled templates are reused; ``folders``
    are the MJ's overrides, the first found wins (a game's own, then the folder's)."""
    envs = (_environment(_finalize_plain, root, folders, "mail"),
            _environment(_finalize_forum, root, folders, "forum"))
    for env in envs:
        env.filters["date"] = date_en if lang == "en" else date_fr
        env.filters["msg"] = lambda v, _lang=lang: _msg(v, _lang)
        # a rule's own French text handed over as a plain string (a card's effect, an order's help)
        env.filters["spaced"] = french_spaces if lang == "fr" else (lambda v: v)
        # dice texts: a game's own dice.<lang>.toml replaces the folder's (either layers over the packaged one)
        env.filters["dice_label"] = (lambda purpose, game, _lang=lang, _root=root, _over=folders:
                                     dice_label(purpose, game, _lang, _root, _dice_folder(_over, game, _lang)))
        env.filters["dice_lines"] = (lambda rolls, game, genders=None, _lang=lang, _root=root, _over=folders:
                                     roll_lines(rolls, game, _lang, _root, _dice_folder(_over, game, _lang), genders))
        env.globals["lang"] = lang
        # (a template imported without context knows no gender: the dagger for all, as `agree` its neutral form)
        env.globals["death_marks"] = lambda dead, _lang=lang: death_marks([str(n) for n in dead or ()], {}, _lang)
    return envs


def _dice_folder(folders: tuple[Path, ...], game: str, lang: str) -> Path | None:
    """The first override folder with the game's dice texts (``<game>/dice.<lang>.toml``)."""
    for folder in folders:
        if _exists(folder, f"{game}/dice.{lang}.toml"):
            return folder
    return None


def _loads(env: jinja2.Environment, name: str) -> bool:
    """Can ``name`` be loaded (an override that never compiled, with no packaged template, cannot)?"""
    try:
        env.get_template(name)
    except jinja2.TemplateNotFound:
        return False
    return True


@lru_cache(maxsize=4096)  # (the packaged and the MJ's template names)
def _exists(root: Path, name: str) -> bool:
    return (root / name).is_file()


def dice_label(purpose: str, game: str, lang: str, root: Path = TEMPLATES, overrides: Path | None = None,
               genders: Mapping[str, str] | None = None) -> str:
    """A roll's purpose in the reader's language (purposes are English keys that seed the dice), agreeing with the
    player it names (``genders``: name -> "f" / "m"): `pbem.dicetext`."""
    return dicetext.dice_label(purpose, game, lang, root, overrides, french_spaces if lang == "fr" else str, genders)


def roll_lines(rolls: Sequence[Any], game: str, lang: str, root: Path = TEMPLATES,
               overrides: Path | None = None, genders: Mapping[str, str] | None = None) -> list[str]:
    """The MJ digest's lines for a step's rolls, each with its purpose and what it drew, in words (`pbem.dicetext`),
    agreeing with the players they name (``genders``)."""
    return dicetext.roll_lines(rolls, game, lang, root, overrides, french_spaces if lang == "fr" else str, genders)


_ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Line breaks for `str.splitlines` besides "\\n"."""


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, one final newline."""
    if not any(c in text for c in _ODD_BREAKS):  # "\n" line ends only (the usual case): string methods only
        text = "\n".join([line.rstrip() for line in text.split("\n")]).strip("\n")
        if "\n\n\n" in text:  # (one pass: replacing "\n\n\n" until none is left took two or three)
            text = _BLANK_RUN.sub("\n\n", text)
        return text + "\n"
    return _tidy_by_lines(text)


_BLANK_RUN = re.compile("\n\n\n+")


def _tidy_by_lines(text: str) -> str:
    """`_tidy` for any text, a line at a time (what its fast path must equal)."""
    lines = [line.rstrip() for line in text.splitlines()]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def mapping_lines(view: Mapping[str, Any], indent: str = "") -> list[str]:
    """A generic readable dump of a view dict, for games without a status template."""
    out: list[str] = []
    for key, value in view.items():
        if isinstance(value, Mapping):
            out.append(f"{indent}{key} :")
            out.extend(mapping_lines(value, indent + "  "))
        elif isinstance(value, (list, tuple)):
            out.append(f"{indent}{key} : " + ", ".join(str(v) for v in value))
        else:
            out.append(f"{indent}{key} : {value}")
    return out
