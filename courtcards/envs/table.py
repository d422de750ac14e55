"""What every environment shares: one game configuration and its current state, in ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import CourtcardsError, OptionError
from courtcards.core.game import Game, get_game
from courtcards.core.state import State


class EnvError(CourtcardsError, RuntimeError):
    """An environment used out of order: stepped before reset or after the end, a missing action."""


class Table:
    """A game configuration (checked once) and the state of the current episode."""

    def __init__(
        self,
        game: str | Game[Any],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> None:
        self.game = game if isinstance(game, Game) else get_game(game)
        n = self.game.default_players if num_players is None else num_players
        if not isinstance(n, int) or isinstance(n, bool):
            raise OptionError(f"num_players must be an integer, not {n!r}")
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options must be a mapping of option names to values, not {type(options).__name__}")
        self.num_players = n
        self.options = self.game.resolve_options(n, options, preset)
        self.num_actions = self.game.num_distinct_actions(n, self.options)
        self.obs_shape = self.game.observation_shape(n, self.options)
        self._state: State | None = None

    @property
    def state(self) -> State:
        if self._state is None:
            raise EnvError("call reset() before using the environment")
        return self._state

    def reset(self, seed: int) -> State:
        self._state = self.game.new_game(self.num_players, self.options, seed)
        return self._state

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``state.observation_tensor(seat)`` (by the game's fast path when it has one)."""
        return self.state.observation_tensor(seat)

    def mask(self, seat: int, deciding: bool) -> npt.NDArray[np.int8]:
        """The seat's legal ids as an int8 mask (all zero when it has no decision)."""
        return self._mask(self.state, seat, deciding)

    def observe(self, seat: int, deciding: bool | None = None) -> dict[str, Any]:
        """PettingZoo's classic observation: ``{"observation": tensor, "action_mask": mask}``
        (``deciding``: whether ``seat`` decides now, found out if not given)."""
        state = self.state
        if deciding is None:
            deciding = not state.is_over() and seat in state.to_move()
        return {"observation": state.observation_tensor(seat), "action_mask": self._mask(state, seat, deciding)}

    def _mask(self, state: State, seat: int, deciding: bool) -> npt.NDArray[np.int8]:
        if deciding:
            return state.legal_action_mask(seat).view(np.int8)
        return np.zeros(self.num_actions, dtype=np.int8)

    def apply(self, seat: int, action: Any) -> None:
        """Apply one id for ``seat``: errors name the id and the reason, and change nothing."""
        state = self.state
        if state.is_over():
            raise EnvError(f"the game is over: seat {seat} cannot act (call reset() to start a new one)")
        if action is None:
            raise EnvError(f"seat {seat} must choose an action id; None is only for agents that are done")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        state.apply_id(seat, action)

    def render_text(self, seat: int | None = None) -> str:
        from courtcards.agents.text import situation

        return situation(self.state.view(seat))
