"""What every room of the engine needs: the config and the store, and per game its settings, ruleset,
renderer, stored row and decoded state.

Rulesets are pure and never mutate a state, so a decoded state and what is computed from it
(prompts, who is asked, who is required) are kept for as long as the stored JSON is unchanged:
the mail path reads them several times a mail.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pbem import games as registry
from pbem import serial
from pbem.clock import parse_iso
from pbem.config import Config, GameConfig
from pbem.core import Prompt, Ruleset, StepWord
from pbem.names import fold
from pbem.outbox.batch import Outgoing
from pbem.render import Renderer
from pbem.store import GameRow, PlayerRow, Store
from pbem.wording import StepNoun


class EngineError(Exception):
    """An MJ command that cannot be done; the message says why (in English, for the MJ's terminal).

    ``key`` names the player-facing wording in ``common/messages.<lang>.j2`` when a player caused it;
    ``fr`` is the French of ``text``, for an MJ whose pbem speaks French (`text`).
    """

    def __init__(self, text: str, key: str | None = None, params: Mapping[str, Any] | None = None, *,
                 fr: str | None = None):
        super().__init__(text)
        self.key = key
        self.params = dict(params or {})
        self.fr = fr

    def text(self, lang: str) -> str:
        """The message in ``lang`` (English when no French was given)."""
        return self.fr if lang == "fr" and self.fr else str(self)


class Context:
    """The config, the store, the letters going out, and cached per-game knowledge, shared by the rooms."""

    def __init__(self, config: Config, store: Store):
        self.config = config
        self.store = store
        self.outgoing = Outgoing(config, store)
        # decoded states by game, keyed by the stored JSON they came from (rulesets never mutate a state)
        self._states: dict[str, tuple[str, Any]] = {}
        self._prompts: dict[str, tuple[Any, list[Prompt]]] = {}
        self._prompted: dict[str, tuple[Any, tuple[frozenset[str], frozenset[str]]]] = {}
        self._renderers: dict[str, Renderer] = {}
        self._out_of_play: dict[str, frozenset[str]] = {}
        self._genders: dict[str, dict[str, str]] = {}
        self._game_words: dict[str, frozenset[str]] = {}
        # subject tag or game id (lower-case) -> game id, for routing
        self.by_tag = {g.tag.lower(): gid for gid, g in config.games.items()}
        self.by_tag.update({gid.lower(): gid for gid in config.games})

    def settings(self, game_id: str) -> GameConfig:
        s = self.config.games.get(game_id)
        return s if s is not None else self.config.game(game_id)  # (the latter names the missing game)

    def ruleset(self, game_id: str) -> Ruleset:
        return registry.get(self.settings(game_id).ruleset)

    def renderer(self, game_id: str) -> Renderer:
        s = self.settings(game_id)
        r = self._renderers.get(game_id)
        if r is None or r.game != s.ruleset or r.lang != s.language:
            r = self._renderers[game_id] = Renderer(s.ruleset, s.language, overrides=self.config.templates_dir,
                                                    step=self.step_word(game_id))
        genders = self._genders.get(game_id)
        if genders is None:
            genders = self._genders[game_id] = self.store.genders(game_id)
        r.set_genders(genders)
        return r

    def step_word(self, game_id: str) -> StepWord:
        """What the game calls a step (`pbem.core.StepWord`; « étape » when the ruleset does not say)."""
        word = getattr(self.ruleset(game_id), "step_word", None)
        return word if isinstance(word, StepWord) else StepWord()

    def step_noun(self, game_id: str, lang: str = "fr") -> StepNoun:
        """The game's step word in one language, with its article and agreement (for the MJ's French errors)."""
        return StepNoun(self.step_word(game_id), lang)

    def game(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise EngineError(f"unknown game {game_id!r} (pbem game new {game_id} creates it)",
                              fr=f"partie inconnue « {game_id} » (pbem game new {game_id} la crée ; "
                                 "pbem game list donne les parties)")
        return row

    def state(self, g: GameRow) -> Any:
        if g.state is None:
            return None
        return serial.loads(self.ruleset(g.id).state_type, g.state)

    def state_cached(self, g: GameRow) -> Any:
        """`state`, decoded once per stored JSON text (the message path reads it several times a mail)."""
        if g.state is None:
            return None
        hit = self._states.get(g.id)
        if hit is not None and hit[0] == g.state:
            return hit[1]
        state = self.state(g)
        self._states[g.id] = (g.state, state)
        return state

    def prompts_cached(self, game_id: str, state: Any) -> list[Prompt]:
        """`Ruleset.prompts` of a state already decoded by `state_cached` (pure, so computed once per state)."""
        hit = self._prompts.get(game_id)
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self.ruleset(game_id).prompts(state)
        self._prompts[game_id] = (state, prompts)
        return prompts

    def prompted_cached(self, game_id: str, state: Any) -> frozenset[str]:
        """The players `prompts_cached` asks to decide (their orders are accepted)."""
        return self._players_cached(game_id, state)[0]

    def asked_cached(self, game_id: str, state: Any) -> frozenset[str]:
        """The prompted players the game asks and waits for: not removed, not abandoned (`out_of_play`)."""
        out = self.out_of_play(game_id)
        prompted = self._players_cached(game_id, state)[0]
        return prompted - out if out else prompted

    def required_cached(self, game_id: str, state: Any) -> frozenset[str]:
        """The asked players whose orders are required (early resolution waits for them)."""
        out = self.out_of_play(game_id)
        required = self._players_cached(game_id, state)[1]
        return required - out if out else required

    def out_of_play(self, game_id: str) -> frozenset[str]:
        """The players no longer waited for: removed by the MJ, or silent ``nmr_abandon`` steps in a row."""
        hit = self._out_of_play.get(game_id)
        if hit is None:
            hit = self._out_of_play[game_id] = frozenset(
                self.store.players_out_of_play(game_id, self.settings(game_id).nmr_abandon))
        return hit

    def forget_roster(self, game_id: str) -> None:
        """A player was added, removed, replaced, or their missed steps changed: read them again when needed."""
        self._out_of_play.pop(game_id, None)
        self._genders.pop(game_id, None)

    def after_early(self, game_id: str) -> str:
        """Where the deadline after an early resolution counts from: the config's ``after_early``, else the
        game's (an optional ``after_early`` on the ruleset: ``"length"`` where each step is one player's
        turn and the rules give him so long from the results before his), else ``"calendar"``."""
        chosen = self.settings(game_id).after_early or getattr(self.ruleset(game_id), "after_early", None)
        return chosen if chosen in ("calendar", "length") else "calendar"

    def game_words(self, game_id: str) -> frozenset[str]:
        """The words the game's own orders use that are also common commands' (`pbem.core.Ruleset`):
        a line beginning with one is the game's order.  (Asked of every line of every mail: kept by ruleset.)"""
        name = self.settings(game_id).ruleset
        words = self._game_words.get(name)
        if words is None:
            words = self._game_words[name] = frozenset(getattr(registry.get(name), "game_words", ()))
        return words

    def prompts_public(self, game_id: str) -> bool:
        """May players be told how many are asked?  Not when who is asked can betray a role (PMB)."""
        return bool(getattr(self.ruleset(game_id), "prompts_public", True))

    def _players_cached(self, game_id: str, state: Any) -> tuple[frozenset[str], frozenset[str]]:
        hit = self._prompted.get(game_id)
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self.prompts_cached(game_id, state)
        players = (frozenset(p.player for p in prompts), frozenset(p.player for p in prompts if p.required))
        self._prompted[game_id] = (state, players)
        return players

    def salutation(self, game_id: str, state: Any, player: str) -> str | None:
        """How a letter to ``player`` opens when the ruleset says so (an optional ``salutation(state, player)``:
        Courtisans' étiquette, « Madame la Duchesse de la Fourberye »); None: the templates greet the player name."""
        hook = getattr(self.ruleset(game_id), "salutation", None)
        return hook(state, player) if hook is not None and state is not None else None

    def local(self, when: str | None) -> datetime | None:
        """A stored UTC instant in the configured time zone (what players and the MJ read)."""
        return parse_iso(when).astimezone(self.config.timezone) if when else None

    def tag(self, game_id: str) -> str:
        """The subject tag of a game, with its brackets: ``[PMB]``."""
        return f"[{self.settings(game_id).tag}]"

    def player_named(self, game_id: str, name: str) -> PlayerRow:
        """The player of that name (case and accents aside), removed ones included."""
        for p in self.store.players(game_id, include_removed=True):
            if fold(p.name) == fold(name):
                return p
        raise EngineError(f"no player {name!r} in {game_id}",
                          fr=f"pas de joueur « {name} » dans {game_id} (pbem player list {game_id} les donne)")
