"""Gymnasium: one seat of a game against bots, for single-agent learning.

Importing this module registers one env for every registered game, plug-ins included, under the id
its ``GameInfo.gym_id`` declares (:func:`env_ids`; ``courtcards/Rank-v0`` for Rank, for example). A
game registered after the import is served once :func:`register_envs` is called again::

    import gymnasium as gym
    import courtcards.envs.gymnasium  # noqa: F401  (registers the envs)

    env = gym.make("courtcards/Rank-v0", num_players=4, opponents=("greedy",), options={"tokens_to_win": 1})

The agent plays ``seat`` (default 0); the other seats are bots named in ``opponents`` (one kind for
all, or one per other seat in seat order), and each bot gets only its seat's view. Observations are
the seat's observation tensor; ``action_masks()`` (and ``info["action_mask"]``) gives the legal ids,
as sb3-contrib's MaskablePPO expects. The reward is 0 until the end, then ``state.returns()[seat]``.

An illegal id (out of range or masked out) ends the episode at once as a loss: reward -1 (the lowest
return of every game, below an ordinary loss at three seats or more), ``terminated``, and
``info["illegal_action"]`` gives ``{"id": ..., "reason": ...}`` with the engine's reason. Nothing is
played in the agent's place, and the state is left as it was. ``illegal_action="raise"`` raises
``ActionIdError`` instead. An action that is not an integer id at all is a bug in the caller and
raises in both modes. Gymnasium's ``check_env`` (which steps unmasked random actions) passes with the
defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from courtcards.bots.base import Bot, default_bot_kind, make_bot
from courtcards.core.errors import ActionIdError, OptionError
from courtcards.core.game import Game, registered_games
from courtcards.envs.table import EnvError, Table

ILLEGAL_MODES = ("lose", "raise")
ILLEGAL_REWARD = -1.0
RENDER_MODES = ["ansi", "human"]


class CourtcardsEnv(gymnasium.Env[npt.NDArray[np.float32], Any]):
    """One seat against bots (see the module's doc)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] | None = None,
        preset: str | None = None,
        illegal_action: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(game, num_players, options, preset)
        n = self.table.num_players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise OptionError(f"seat must be a seat 0..{n - 1}, not {seat!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise OptionError(f"illegal_action must be one of {ILLEGAL_MODES}, not {illegal_action!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        if opponents is None:  # the game's greedy bot, or random for a game without one
            opponents = default_bot_kind(self.table.game.name)
        kinds = [opponents] if isinstance(opponents, str) else list(opponents)
        others = [s for s in range(n) if s != seat]
        if len(kinds) == 1:
            kinds *= len(others)
        if len(kinds) != len(others):
            raise OptionError(
                f"opponents lists {len(kinds)} bots; give one kind for all or one per other seat ({len(others)})"
            )
        name = self.table.game.name
        for kind in kinds:
            make_bot(name, kind, 0)  # an unknown bot fails here, naming the valid ones
        self.seat = seat
        self.opponents = dict(zip(others, kinds, strict=True))
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=self.table.obs_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self._bots: dict[int, Bot] = {}
        self._done = True

    # -- the episode --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New game; ``options`` is accepted for the API and unused (game options are set at construction)."""
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**63, size=len(self.opponents) + 1)
        self.table.reset(int(seeds[0]))
        name = self.table.game.name
        self._bots = {
            s: make_bot(name, kind, int(b)) for (s, kind), b in zip(self.opponents.items(), seeds[1:], strict=True)
        }
        self._done = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise EnvError("the episode is over: call reset()")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        try:
            self.table.apply(self.seat, action)
        except ActionIdError as exc:
            if self.illegal_action == "raise" or not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = {"id": int(action), "reason": exc.reason}
            return self._obs(), ILLEGAL_REWARD, True, False, info
        self._advance()
        state = self.table.state
        self._done = state.is_over()
        reward = float(state.returns()[self.seat]) if self._done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, self._done, False, self._info()

    def _advance(self) -> None:
        """Let the bots decide until the agent's seat must (or the game ends)."""
        state = self.table.state
        while not state.is_over():
            movers = state.to_move()
            if self.seat in movers:
                return
            for s in movers:
                state.apply(s, self._bots[s].choose(state.view(s), state.legal_actions(s)))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids now (all False once the game is over)."""
        state = self.table.state
        return self.table.mask(self.seat, not self._done and self.seat in state.to_move()).astype(bool)

    def _obs(self) -> npt.NDArray[np.float32]:
        return self.table.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render_text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env_ids() -> dict[str, str]:
    """Every registered game's name -> its Gymnasium id (``GameInfo.gym_id``)."""
    return {game.name: game.info.gym_id for game in registered_games()}


def register_envs() -> list[str]:
    """Register an env for every registered game with Gymnasium (done on import; calling again is
    harmless and adds the games registered since); the ids."""
    ids = []
    for name, env_id in env_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="courtcards.envs.gymnasium:CourtcardsEnv", kwargs={"game": name})
        ids.append(env_id)
    return ids


register_envs()
