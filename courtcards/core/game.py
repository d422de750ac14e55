"""Static game descriptions and the registry that finds them by name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from courtcards.core.errors import OptionError, UnknownGameError
from courtcards.core.options import OptionSet, OptionValue

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

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """A state from :meth:`State.to_json`, or from an explicit position
        in the same format with fields left out (see the game's docs)."""

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
