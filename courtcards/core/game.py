"""Static game descriptions and the registry that finds them by name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from courtcards.core.errors import OptionError, PositionError, UnknownGameError
from courtcards.core.options import OptionSet, OptionValue
from courtcards.core.state import STATE_FORMAT

if TYPE_CHECKING:
    from courtcards.core.state import Action, State


class Game(ABC):
    """What a game is, apart from any one play of it (OpenSpiel's "game").

    Subclasses set the class attributes and implement the four abstract
    methods; one instance per game is registered with :func:`register`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    options: ClassVar[OptionSet]

    def resolve_options(
        self,
        num_players: int,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> dict[str, OptionValue]:
        """All options with their values for this table size, checked."""
        if not isinstance(num_players, int) or not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {num_players!r}"
            )
        values = self.options.resolve(num_players, options, preset)
        self.check_options(num_players, values)
        return values

    def check_options(self, num_players: int, values: Mapping[str, OptionValue]) -> None:  # noqa: B027
        """Reject combinations of options that do not fit together (override)."""

    def new_game(
        self,
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        preset: str | None = None,
    ) -> State:
        """A new game, dealt with the given seed."""
        n = self.default_players if num_players is None else num_players
        return self._new_state(n, self.resolve_options(n, options, preset), seed)

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        """(players, options) pairs the conformance suite plays: every player
        count and every variant. Override to add option combinations."""
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    @abstractmethod
    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> State: ...

    def state_from_json(self, data: Mapping[str, Any], *, strict: bool = True) -> State:
        """A state from :meth:`State.to_json`, or from an explicit position in
        the same format with fields left out (see the game's docs). ``strict``
        off relaxes a game's per-player consistency checks (for resampled worlds)."""
        if not isinstance(data, Mapping):
            raise PositionError(f"a {self.title} state must be a JSON object")
        if data.get("game", self.name) != self.name:
            raise PositionError(f"not a {self.title} state: game is {data.get('game')!r}")
        if "format" in data and data["format"] != STATE_FORMAT:
            raise PositionError(f"unknown state format {data['format']!r}")
        n = data.get("num_players")
        if n is None:
            n = self._players_in_position(data)
        if not isinstance(n, int) or isinstance(n, bool):
            raise PositionError(f"a {self.title} position needs 'num_players' (or 'hands')")
        try:
            options = self.resolve_options(n, data.get("options") or {})
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError(f"'seed' must be an integer, not {seed!r}")
        state = self._load_state(n, options, seed, data, strict)
        try:
            state.history = [(int(s), str(t)) for s, t in data.get("history", [])]
            state.version = int(data.get("version", len(state.history)))
            pending = {int(s): str(t) for s, t in dict(data.get("pending") or {}).items()}
        except (TypeError, ValueError) as exc:
            raise PositionError(f"malformed history, version or pending: {exc}") from None
        # a full state carries where it started; a position is its own start
        state.start = data.get("start") if "history" in data else {
            k: v for k, v in data.items() if k not in ("history", "version", "pending", "start")
        }
        for seat, text in pending.items():
            action = self.parse_action(text)
            self._check_pending(state, seat, action, strict)
            state.pending[seat] = action
        return state

    def _players_in_position(self, data: Mapping[str, Any]) -> int | None:
        """The table size of a position that does not give ``num_players``."""
        hands = data.get("hands")
        return len(hands) if isinstance(hands, list) else None

    @abstractmethod
    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> State:
        """A state of this game filled from the game's own fields of ``data``."""

    def _check_pending(self, state: State, seat: int, action: Action, strict: bool) -> None:  # noqa: B027
        """Raise PositionError if a stored secret choice cannot be ``seat``'s."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action from its notation; raise NotationError if malformed."""

    @abstractmethod
    def parse_cards(self, text: str) -> list[Any]:
        """Read a list of cards from their notation."""


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    _load_builtin_games()
    try:
        return _REGISTRY[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(name, _REGISTRY) from None


def game_names() -> list[str]:
    _load_builtin_games()
    return sorted(_REGISTRY)


def _load_builtin_games() -> None:
    import courtcards.games  # noqa: F401  (registers the built-in games)
