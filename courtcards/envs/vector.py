"""Vectorised self-play: N games of one configuration stepped together, every seat the caller's.

For training loops that batch their network calls (DouZero's actors, PPO with many envs): each step
gives one row per game, the seat that decides next in it, its observation tensor and its legal-id
mask, stacked::

    from courtcards.envs.vector import SelfPlayVectorEnv

    envs = SelfPlayVectorEnv("rank", num_envs=64, num_players=4)
    obs, masks, seats = envs.reset(seed=0)          # (64, *obs_shape), (64, num_actions), (64,)
    while training:
        ids = policy(obs, masks)                    # one legal id per row
        obs, masks, seats, returns, done = envs.step(ids)

``returns[i]`` is every seat's return of game ``i`` when that game has just ended (``done[i]``), zeros
otherwise; an ended game is replaced at once by a new deal, whose first row is the one returned
(the ended game's last state is ``envs.finished[i]`` until the next step). At a secret simultaneous
choice the deciding seats come one row (one step) at a time, and each seat's observation is taken
before its own choice and shows no other seat's pending choice: the engine's views do not. A
composite choice (discard these cards, ...) is a sequence of ids, one a step, as everywhere in the
id layer (:mod:`courtcards.core.ids`).

Deals are seeded from ``reset``'s seed: the same seed and the same ids give the same games. An id
that is not legal in its row raises :class:`ActionIdError` naming the row, and no game is changed.
For one seat against bots, Gymnasium's own vector API works on the registered envs:
``gymnasium.make_vec("courtcards/Rank-v0", num_envs=8)`` (the masks are ``info["action_mask"]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import ActionIdError, OptionError
from courtcards.core.game import Game
from courtcards.core.state import State
from courtcards.envs.table import EnvError, Table

Step = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int64],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
]


class SelfPlayVectorEnv:
    """``num_envs`` games of one configuration in self-play (see the module's doc)."""

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int,
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise OptionError(f"num_envs must be a whole number of games, at least 1, not {num_envs!r}")
        self._config = Table(game, num_players, options, preset)  # checks the configuration once
        self.game = self._config.game
        self.num_envs = num_envs
        self.num_players = self._config.num_players
        self.options = self._config.options
        self.num_actions = self._config.num_actions
        self.obs_shape = self._config.obs_shape
        self.states: list[State] = []
        self.deal_seeds: list[int] = []
        self.finished: list[State | None] = [None] * num_envs
        self._rng: np.random.Generator | None = None

    # -- the batch ---------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """New deals for every game (seeded from ``seed``; None: from fresh entropy)."""
        self._rng = np.random.default_rng(seed)
        self.states, self.deal_seeds = [], []
        for _ in range(self.num_envs):
            state, deal = self._deal()
            self.states.append(state)
            self.deal_seeds.append(deal)
        self.finished = [None] * self.num_envs
        obs, masks, seats = self._rows()
        return obs, masks, seats

    def step(self, ids: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Step:
        """Apply one id per row (for the seat that row named); returns the next rows, every seat's
        returns of the games that ended and which ended (they are dealt again at once)."""
        if not self.states:
            raise EnvError("call reset() before step()")
        chosen = np.asarray(ids)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ActionIdError(ids, None, f"step needs {self.num_envs} integer ids, one per game")
        seats = [state.to_move()[0] for state in self.states]
        for i, (state, seat) in enumerate(zip(self.states, seats, strict=True)):
            a = int(chosen[i])
            if not 0 <= a < self.num_actions or not state.legal_action_mask(seat)[a]:
                raise ActionIdError(a, seat, f"game {i}: not legal now (no game was changed)")
        returns = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        self.finished = [None] * self.num_envs
        for i, seat in enumerate(seats):
            state = self.states[i]
            state.apply_id(seat, int(chosen[i]))
            if state.is_over():
                returns[i] = state.returns()
                done[i] = True
                self.finished[i] = state
                self.states[i], self.deal_seeds[i] = self._deal()
        obs, masks, rows = self._rows()
        return obs, masks, rows, returns, done

    # -- helpers ------------------------------------------------------------------------------
    def _deal(self) -> tuple[State, int]:
        assert self._rng is not None
        deal = int(self._rng.integers(2**63))
        return self.game.new_game(self.num_players, self.options, deal), deal

    def _rows(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        obs = np.empty((self.num_envs, *self.obs_shape), dtype=np.float32)
        masks = np.empty((self.num_envs, self.num_actions), dtype=bool)
        seats = np.empty(self.num_envs, dtype=np.int64)
        for i, state in enumerate(self.states):
            seat = state.to_move()[0]
            seats[i] = seat
            obs[i] = state.observation_tensor(seat)
            masks[i] = state.legal_action_mask(seat)
        return obs, masks, seats
