"""One game's handle (`Table`), and what all games share (`House`): the config, the store, the letters going out.

A room of the engine is handed the `Table` of the game it works on, never a game id to look up
again: the table knows the game's settings, ruleset, renderer and subject tag, reads its stored
row, and keeps what is computed from that row.  Rulesets are pure and never mutate a state, so a
decoded state and what follows from it (prompts, who is asked, who is required) are kept for as
long as the stored JSON is unchanged: the mail path reads them several times a mail.  These are
the only per-game caches of the engine; the store keeps its own per-transaction memos.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from pbem import games as registry
from pbem import serial
from pbem.config import Config, GameConfig
from pbem.core import Prompt, Ruleset, StepWord
from pbem.msg import Msg, PbemError
from pbem.names import fold, name_key
from pbem.outbox.batch import Outgoing
from pbem.render import Rendered, Renderer
from pbem.store import GameRow, Phase, PlayerRow, Store
from pbem.wording import StepNoun

MADE_KEPT = 4
"""How many steps' made texts and pictures a table keeps (`Table.keep`)."""


class EngineError(PbemError):
    """Something the MJ (or a player) asked of a game that cannot be done; ``msg`` says why.

    ``key`` names the player-facing wording in ``common/messages.<lang>.j2`` when a player caused it.
    """

    def __init__(self, msg: Msg, key: str | None = None, params: Mapping[str, Any] | None = None):
        super().__init__(msg)
        self.key = key
        self.params = dict(params or {})


@dataclass(frozen=True)
class Known:
    """The game as its players, the forum and the archive may know it.

    While a step's results wait for the MJ's approval (``publish = "mj"``), that is the game as it
    stood before the step: its state and number, still running (even if the step ended the game), no
    deadline, the seed not revealed.  ``held`` is then the number of the step that waits; otherwise
    the game is what is stored and ``held`` is None.
    """

    row: GameRow
    state: Any
    held: int | None = None


@dataclass(frozen=True)
class Coded:
    """A state the table has decoded or encoded: the object, the memo of its frozen records
    (`pbem.serial.Memo`), with which the next state is encoded at the cost of what changed, and its JSON
    data (`pbem.serial.to_data`), by which two states are compared at that cost too (`pbem.statediff`).
    The data is kept only for a state that has frozen records (else None: read again when asked for,
    not held in memory beside a large state that shares nothing)."""

    state: Any
    data: Any
    memo: serial.Memo


class House:
    """The config, the store and the letters going out, shared by every game; one `Table` per game."""

    def __init__(self, config: Config, store: Store):
        self.config = config
        self.store = store
        self.outgoing = Outgoing(config, store)
        # subject tag or game id (lower-case) -> game id, for routing
        self.by_tag = {g.tag.lower(): gid for gid, g in config.games.items()}
        self.by_tag.update({gid.lower(): gid for gid in config.games})
        self._tables: dict[str, Table] = {}
        self.closed_early: list[tuple[str, int]] = []
        """(game, step) closed while the pass read mail (`schedule.close_before`): the pass's report says them."""

    def table(self, game_id: str) -> Table:
        """The handle of one game (made once, then kept with what it knows)."""
        t = self._tables.get(game_id)
        if t is None:
            t = self._tables[game_id] = Table(self, game_id)
        return t

    def local(self, when: datetime | None) -> datetime | None:
        """An instant in the configured time zone (what players and the MJ read)."""
        return when.astimezone(self.config.timezone) if when else None


class Table:
    """One game: its settings, ruleset and renderer, its stored row, and what its current state implies."""

    def __init__(self, house: House, game_id: str):
        self.id = game_id
        self.house = house
        self.config = house.config
        self.store = house.store
        self.outgoing = house.outgoing
        # states by their canonical JSON (the stored one, and the one just made), each with what encoding
        # its successor needs (`Coded`); what a state implies is kept while that state is the same
        self._states: dict[str, Coded] = {}
        self._known: tuple[tuple[int, GameRow], Known] | None = None  # (writes so far, row) -> what is known
        self._prompts: tuple[Any, list[Prompt]] | None = None
        self._players: tuple[Any, tuple[frozenset[str], frozenset[str]]] | None = None
        self._dead: tuple[Any, frozenset[str]] | None = None
        # the roster's facts that the texts use, read again once it changes (`forget_roster`)
        self._out_of_play: frozenset[str] | None = None
        self._genders: dict[str, str] | None = None
        self._everyone_gendered = False
        self._renderer: Renderer | None = None
        # what a step's letters made that its forum files use once they commit (`letters.ForumFiles`, by
        # step record): a few entries, each saying what it was made from, so a stale one is never used
        self.made: dict[tuple[str, int], object] = {}

    # --- what the config says of the game

    @cached_property
    def settings(self) -> GameConfig:
        s = self.config.games.get(self.id)
        return s if s is not None else self.config.game(self.id)  # (the latter names the missing game)

    @cached_property
    def ruleset(self) -> Ruleset[Any]:
        return registry.get(self.settings.ruleset)

    @property
    def lang(self) -> str:
        return self.settings.language

    @cached_property
    def tag(self) -> str:
        """The subject tag of the game, with its brackets: ``[PMB]``."""
        return f"[{self.settings.tag}]"

    @cached_property
    def step_word(self) -> StepWord:
        """What the game calls a step (`pbem.core.StepWord`; « étape » when the ruleset does not say)."""
        return self.ruleset.step_word

    def step_noun(self, lang: str = "fr") -> StepNoun:
        """The game's step word in one language, with its article and agreement (for the MJ's French errors)."""
        return StepNoun(self.step_word, lang)

    @cached_property
    def after_early(self) -> str:
        """Where the deadline after an early resolution counts from: the config's ``after_early``, else the
        game's (`Ruleset.after_early`: ``"length"`` where each step is one player's turn and the rules
        give him so long from the results before his), else ``"calendar"``."""
        chosen = self.settings.after_early or self.ruleset.after_early
        return chosen if chosen in ("calendar", "length") else "calendar"

    @cached_property
    def game_words(self) -> frozenset[str]:
        """The words the game's own orders use that are also common commands' (`pbem.core.Ruleset`):
        a line beginning with one is the game's order."""
        return self.ruleset.game_words

    @cached_property
    def common_pass(self) -> bool:
        """Is PASSER the common command in this game (not one of the game's own orders, as in Courtisans)?"""
        return not self.game_words & {"passer", "pass"}

    @cached_property
    def prompts_public(self) -> bool:
        """May players be told how many are asked?  Not when who is asked can betray a role (PMB)."""
        return self.ruleset.prompts_public

    @property
    def renderer(self) -> Renderer:
        """The game's texts, agreeing with its players' genders."""
        r = self._renderer
        if r is None:
            s = self.settings
            r = self._renderer = Renderer(s.ruleset, s.language, overrides=self.config.templates_dir,
                                          step=self.step_word, game_id=self.id)
        genders = self._genders
        if genders is None:
            genders = self._genders = self.store.genders(self.id)
            self._everyone_gendered = len(genders) >= len(self.store.players(self.id, include_removed=True))
        r.set_genders(genders, self._everyone_gendered)
        return r

    def keep(self, key: tuple[str, int], made: object) -> None:
        """Keep something a step made for later in the same operation (bounded: the last few steps)."""
        if len(self.made) >= MADE_KEPT and key not in self.made:
            self.made.pop(next(iter(self.made)))
        self.made[key] = made

    # --- the stored game and its state

    @property
    def row(self) -> GameRow:
        """The game as stored now."""
        row = self.store.game(self.id)
        if row is None:
            raise EngineError(Msg(f"partie inconnue « {self.id} » (pbem game new {self.id} la crée ; "
                                  "pbem game list donne les parties)",
                                  f"unknown game {self.id!r} (pbem game new {self.id} creates it)"))
        return row

    @property
    def state(self) -> Any:
        """The game's state as stored now (None before it starts), decoded once per stored JSON (`state_of`)."""
        return self.state_of(self.row)

    def known(self) -> Known:
        """What players, the forum and the archive may know of the game now (`Known`): nothing of results held.

        Inside a transaction it is kept until the connection writes anything (a hold or an approval is a
        write): the mail path asks twice a mail, and other processes' commits are not seen meanwhile."""
        g = self.row
        conn = self.store.db.conn
        key = (conn.total_changes, g)
        hit = self._known
        if conn.in_transaction and hit is not None and hit[0][0] == key[0] and hit[0][1] is g:
            return hit[1]
        rows = self.store.held(self.id)
        if not rows:
            known = Known(g, self.state_of(g))
        else:
            held = rows[0]
            rec = self.store.record(self.id, held.seq)
            before = rec.state_before if rec is not None else g.state
            finished_by_it = g.phase == Phase.FINISHED
            shown = replace(g, phase=Phase.RUNNING if finished_by_it else g.phase, turn=held.turn, deadline=None,
                            early_at=None, state=before, seed_revealed=g.seed_revealed and not finished_by_it)
            known = Known(shown, self.decode_json(before), held.turn)
        self._known = (key, known) if conn.in_transaction else None
        return known

    def decode(self, g: GameRow) -> Any:
        """The state of a row, decoded anew."""
        if g.state is None:
            return None
        return serial.loads(self.ruleset.state_type, g.state)

    def decode_json(self, text: str | None) -> Any:
        """A state kept as canonical JSON (a record's), decoded (None stays None)."""
        return serial.loads(self.ruleset.state_type, text) if text is not None else None

    def state_of(self, g: GameRow) -> Any:
        """`decode`, once per stored JSON text (the message path reads it several times a mail)."""
        if g.state is None:
            return None
        return self.coded(g.state).state

    def coded(self, text: str) -> Coded:
        """The state of a canonical JSON text, with its data and memo (decoded once, or as `encode` made it)."""
        hit = self._states.get(text)
        if hit is None:
            data = json.loads(text)
            memo = serial.Memo()
            state = serial.from_data(self.ruleset.state_type, data, memo)
            hit = self._remember(text, Coded(state, data if memo else None, memo))
        return hit

    def data_of(self, text: str) -> Any:
        """The JSON data of a state's text: the table's when it knows the state, else read from the text."""
        hit = self._states.get(text)
        return hit.data if hit is not None and hit.data is not None else json.loads(text)

    def encode(self, state: Any, like: str | None = None) -> str:
        """A new state's canonical JSON (`pbem.serial.dumps`), reusing what it shares with the state of the
        text ``like`` when this table knows it (the state it was made from): the cost is then what changed."""
        coded = self._states.get(like) if like is not None else None
        prev = coded.memo if coded is not None else None
        memo = serial.Memo()
        data = serial.to_data(state, prev, memo)
        text = serial.canonical(data, prev, memo)
        self._remember(text, Coded(state, data if memo else None, memo))
        return text

    def _remember(self, text: str, coded: Coded) -> Coded:
        if len(self._states) >= 2 and text not in self._states:  # the stored state and the one just made
            self._states.pop(next(iter(self._states)))
        self._states[text] = coded
        return coded

    def prompts(self, state: Any) -> list[Prompt]:
        """`Ruleset.prompts` of a state decoded by `state_of` (pure, so computed once per state)."""
        hit = self._prompts
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self.ruleset.prompts(state)
        self._prompts = (state, prompts)
        return prompts

    def prompted(self, state: Any) -> frozenset[str]:
        """The players `prompts` asks to decide (their orders are accepted)."""
        return self._prompted(state)[0]

    def asked(self, state: Any) -> frozenset[str]:
        """The prompted players the game asks and waits for: not removed, not abandoned (`out_of_play`)."""
        out = self.out_of_play()
        prompted = self._prompted(state)[0]
        return prompted - out if out else prompted

    def required(self, state: Any) -> frozenset[str]:
        """The asked players whose orders are required (early resolution waits for them)."""
        out = self.out_of_play()
        required = self._prompted(state)[1]
        return required - out if out else required

    def _prompted(self, state: Any) -> tuple[frozenset[str], frozenset[str]]:
        hit = self._players
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self.prompts(state)
        players = (frozenset(p.player for p in prompts), frozenset(p.player for p in prompts if p.required))
        self._players = (state, players)
        return players

    def dead(self, state: Any) -> frozenset[str]:
        """The players the rules killed in this state (`Ruleset.dead`; none before the start): they play no more."""
        hit = self._dead
        if hit is not None and hit[0] is state:
            return hit[1]
        dead = frozenset(self.ruleset.dead(state)) if state is not None else frozenset()
        self._dead = (state, dead)
        return dead

    # --- the players

    def out_of_play(self) -> frozenset[str]:
        """The players no longer waited for: removed by the MJ, or silent ``nmr_abandon`` steps in a row."""
        hit = self._out_of_play
        if hit is None:
            hit = self._out_of_play = frozenset(self.store.players_out_of_play(self.id, self.settings.nmr_abandon))
        return hit

    def forget_roster(self) -> None:
        """A player was added, removed, replaced, or their missed steps changed: read them again when needed."""
        self._out_of_play = None
        self._genders = None

    def players_told(self) -> list[PlayerRow]:
        """The players the calendar's notices go to (a deadline moved, a pause, a deadline held): every player
        still in the game, neither removed (`Store.players` leaves them out) nor dead (`dead`)."""
        dead = self.dead(self.state)
        players = self.store.players(self.id)
        return [p for p in players if p.name not in dead] if dead else players

    def player_named(self, name: str) -> PlayerRow:
        """The player of that name (case, accents and hyphens aside: « petit doigt »), removed ones included."""
        players = self.store.players(self.id, include_removed=True)
        for p in players:
            if fold(p.name) == fold(name):
                return p
        loose = [p for p in players if name_key(p.name) == name_key(name)]
        if len(loose) == 1:  # (« petit doigt » and « Petit-Doigt » both registered: neither is guessed)
            return loose[0]
        raise EngineError(Msg(f"pas de joueur « {name} » dans {self.id} (pbem player list {self.id} les donne)",
                              f"no player {name!r} in {self.id}"))

    def salutation(self, state: Any, player: str) -> str | None:
        """How a letter to ``player`` opens when the ruleset says so (`Ruleset.salutation`: Courtisans'
        étiquette, « Madame la Duchesse de la Fourberye »); None: the templates greet the player name."""
        return self.ruleset.salutation(state, player) if state is not None else None

    def mail_to(self, template: str, player: str, state: Any, **context: Any) -> Rendered:
        """The text of a mail to one player of the game: ``template`` rendered with the game's tag (unless
        ``context`` names another), the player and how the letter greets them in ``state`` (`salutation`)."""
        salutation = self.salutation(state, player)
        return self.renderer.mail_text(template, **{"tag": self.tag, **context}, player=player, salutation=salutation)

    def local(self, when: datetime | None) -> datetime | None:
        """An instant in the configured time zone (what players and the MJ read)."""
        return when.astimezone(self.config.timezone) if when else None
