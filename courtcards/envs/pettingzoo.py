"""PettingZoo environments for every courtcards game.

``env(game, num_players=..., options=..., render_mode=...)`` is an AEC env: one agent acts at a time;
a secret simultaneous decision is asked of its seats one after the other (a commitment stays hidden
from the others' observations until all have committed, as in the engine). ``parallel_env(...)`` is a
Parallel env: at every step each agent that decides now (``to_move``) gives one id; an agent with no
decision has an all-zero mask and its action is ignored (PettingZoo's convention for turn-based
games). A composite choice (several cards) is several steps, one id each.

Observations are PettingZoo's classic ``{"observation": float32 tensor, "action_mask": int8}``;
rewards are 0 until the end, then ``state.returns()``. An action that is out of range or masked out
raises an error naming it (``ActionIdError``); nothing is ever replaced.

``max_cycles`` (PettingZoo's truncation convention; default None, no limit): after that many cycles
every agent is truncated, with no rewards (the game did not end). A cycle is a Parallel step: one id
from each agent that decides at its start; in the AEC env, those agents' ids one after the other
(an agent that goes on with a composite choice before the others have acted starts no new cycle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from courtcards.core.game import Game
from courtcards.envs.table import EnvError, Table

RENDER_MODES = ["ansi", "human"]


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=table.obs_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(table.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(table.num_actions)


class _Base:
    """Construction, seeding and rendering shared by the AEC and Parallel envs."""

    metadata: dict[str, Any]

    def _setup(
        self,
        game: str | Game[Any],
        num_players: int | None,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        preset: str | None,
        max_cycles: int | None = None,
    ) -> None:
        if max_cycles is not None and (
            not isinstance(max_cycles, int) or isinstance(max_cycles, bool) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
        self.max_cycles = max_cycles
        self._cycles = 0
        self._waiting: set[int] = set()  # AEC: the agents still to act in this cycle
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        self.table = Table(game, num_players, options, preset)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = _spaces(self.table)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {
            "render_modes": RENDER_MODES,
            "name": f"courtcards_{self.table.game.name}_v0",
            "is_parallelizable": True,
        }
        self._np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.table.reset(int(self._np_random.integers(2**63)))
        self._cycles = 0
        self._waiting = set(self.table.state.to_move())

    def _cycle_done(self) -> bool:
        """Count a finished cycle; whether the game is now cut off (``max_cycles``)."""
        self._cycles += 1
        return self.max_cycles is not None and self._cycles >= self.max_cycles

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.table.render_text(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class CourtcardsAEC(_Base, AECEnv):  # type: ignore[misc]
    """One agent acts per step (see the module's doc)."""

    def __init__(
        self,
        game: str | Game[Any],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        preset: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self._setup(game, num_players, options, render_mode, preset, max_cycles)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; ``options`` is accepted for the API and unused (game options are set at construction)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.state.to_move()[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self.agent_seat[agent])

    def step(self, action: Any) -> None:
        if not self.agents:
            raise EnvError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.table.state
        seat = self.agent_seat[agent]
        self.table.apply(seat, action)
        self._waiting.discard(seat)
        cut = not self._waiting and self._cycle_done()
        if not self._waiting and not state.is_over():
            self._waiting = set(state.to_move())
        self._cumulative_rewards[agent] = 0.0
        if state.is_over():  # the only step with rewards: every agent's step before was worth 0
            self.rewards = dict(zip(self.possible_agents, state.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif cut:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[state.to_move()[0]]
        else:
            self.agent_selection = self.possible_agents[state.to_move()[0]]
        if self.render_mode == "human":
            self.render()


class CourtcardsParallel(_Base, ParallelEnv):  # type: ignore[misc]
    """Every deciding agent gives one id per step (see the module's doc)."""

    def __init__(
        self,
        game: str | Game[Any],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        preset: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        self._setup(game, num_players, options, render_mode, preset, max_cycles)
        self.agents: list[str] = []

    def _all_obs(self) -> dict[str, dict[str, Any]]:
        state = self.table.state
        movers = () if state.is_over() else state.to_move()
        return {a: self.table.observe(self.agent_seat[a], self.agent_seat[a] in movers) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New game; ``options`` is accepted for the API and unused (game options are set at construction)."""
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        return self._all_obs(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise EnvError("the game is over and every agent is done: call reset()")
        if not isinstance(actions, Mapping):
            raise EnvError(f"actions must map agents to action ids, not {type(actions).__name__}")
        state = self.table.state
        movers = [self.possible_agents[s] for s in state.to_move()]
        missing = [a for a in movers if actions.get(a) is None]
        if missing:
            raise EnvError(f"{', '.join(missing)} must act now (agents deciding: {', '.join(movers)})")
        for agent in movers:  # check all first: a refused step changes nothing
            action = actions[agent]
            if isinstance(action, np.ndarray) and action.shape == ():
                action = action.item()
            state.action_from_id(self.agent_seat[agent], action)
        for agent in movers:
            self.table.apply(self.agent_seat[agent], actions[agent])
        over = state.is_over()
        cut = self._cycle_done() and not over
        rewards = dict(
            zip(self.possible_agents, state.returns() if over else [0.0] * len(self.possible_agents), strict=True)
        )
        obs = self._all_obs()
        rew = {a: rewards[a] for a in self.agents}
        term = dict.fromkeys(self.agents, over)
        trunc = dict.fromkeys(self.agents, cut)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, term, trunc, infos


def env(
    game: str | Game[Any],
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    preset: str | None = None,
    max_cycles: int | None = None,
) -> CourtcardsAEC:
    """The AEC environment of a game (one agent per seat, ``player_0`` ...)."""
    return CourtcardsAEC(game, num_players, options, render_mode, preset, max_cycles)


def parallel_env(
    game: str | Game[Any],
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    preset: str | None = None,
    max_cycles: int | None = None,
) -> CourtcardsParallel:
    """The Parallel environment of a game (every deciding seat acts at each step)."""
    return CourtcardsParallel(game, num_players, options, render_mode, preset, max_cycles)
