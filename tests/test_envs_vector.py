"""Vectorised self-play (courtcards.envs.vector) and Gymnasium's own vector API on the registered envs."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from envs_configs import needs_engine

import courtcards.envs.gymnasium as ccgym
from courtcards.core.errors import ActionIdError, OptionError
from courtcards.core.game import get_game, registered_games
from courtcards.envs.table import EnvError
from courtcards.envs.vector import SelfPlayVectorEnv


def random_ids(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_rows_are_the_deciding_seats_tensor_and_mask(game: str) -> None:
    needs_engine(game)
    envs = SelfPlayVectorEnv(game, num_envs=3)
    obs, masks, seats = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    assert obs.shape == (3, *envs.obs_shape) and obs.dtype == np.float32
    assert masks.shape == (3, envs.num_actions) and masks.dtype == np.bool_
    for _ in range(40):
        for i, state in enumerate(envs.states):
            seat = int(seats[i])
            assert seat == state.to_move()[0]
            assert np.array_equal(obs[i], state.observation_tensor(seat))
            assert np.array_equal(masks[i], state.legal_action_mask(seat)) and masks[i].any()
        obs, masks, seats, returns, done = envs.step(random_ids(masks, rng))
        assert returns.shape == (3, envs.num_players) and not returns[~done].any()


def test_finished_games_give_their_returns_and_are_dealt_again() -> None:
    envs = SelfPlayVectorEnv("royale", num_envs=4)
    _, masks, seats = envs.reset(seed=7)
    rng = np.random.default_rng(3)
    played: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    deals = list(envs.deal_seeds)
    ended = 0
    while ended < 6:
        ids = random_ids(masks, rng)
        for i in range(4):
            played[i].append((int(seats[i]), int(ids[i])))
        _obs, masks, seats, returns, done = envs.step(ids)
        for i in map(int, np.flatnonzero(done)):
            # the same deal and ids, played alone, end the same way
            alone = get_game("royale").new_game(2, envs.options, deals[i])
            for seat, a in played[i]:
                alone.apply_id(seat, a)
            assert alone.is_over() and list(returns[i]) == alone.returns()
            last = envs.finished[i]
            assert last is not None and last.history == alone.history
            assert envs.states[i].history == [] and envs.deal_seeds[i] != deals[i]
            played[i], deals[i] = [], envs.deal_seeds[i]
            ended += 1


def test_the_same_seed_and_ids_give_the_same_games() -> None:
    def run(seed: int) -> list[Any]:
        envs = SelfPlayVectorEnv("rank", num_envs=2, num_players=3)
        obs, masks, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(5)
        out = [obs.copy()]
        for _ in range(60):
            obs, masks, *_ = envs.step(random_ids(masks, rng))
            out.append(obs.copy())
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_a_secret_choice_is_not_seen_by_the_next_decider() -> None:
    seen = []
    for k in (0, 1):  # the first decider chooses two different cards, on the same deal
        envs = SelfPlayVectorEnv("royale", num_envs=1)
        _, masks, seats = envs.reset(seed=2)
        assert len(envs.states[0].to_move()) == 2  # both choose a card in secret
        first = int(seats[0])
        obs, masks, seats, _, _ = envs.step(np.flatnonzero(masks[0])[k : k + 1])
        assert int(seats[0]) == 1 - first
        seen.append(obs[0])
    assert np.array_equal(seen[0], seen[1])


def test_an_illegal_id_names_its_row_and_changes_no_game() -> None:
    envs = SelfPlayVectorEnv("royale", num_envs=3)
    _, masks, _ = envs.reset(seed=4)
    ids = random_ids(masks, np.random.default_rng(0))
    ids[1] = int(np.flatnonzero(~masks[1])[0])
    versions = [s.version for s in envs.states]
    with pytest.raises(ActionIdError, match="game 1: not legal now"):
        envs.step(ids)
    assert [s.version for s in envs.states] == versions
    with pytest.raises(ActionIdError, match="one per game"):
        envs.step(ids[:2])
    with pytest.raises(ActionIdError, match="one per game"):
        envs.step(ids.astype(float))
    with pytest.raises(EnvError, match="reset"):
        SelfPlayVectorEnv("royale", num_envs=1).step([0])
    with pytest.raises(OptionError, match="num_envs"):
        SelfPlayVectorEnv("royale", num_envs=0)
    with pytest.raises(OptionError):
        SelfPlayVectorEnv("rank", num_envs=2, num_players=99)


def test_gymnasium_make_vec_stacks_observations_and_masks() -> None:
    envs = gym.make_vec(ccgym.env_ids()["royale"], num_envs=3, vectorization_mode="sync", opponents="random")
    obs, info = envs.reset(seed=3)
    space = envs.single_action_space
    assert isinstance(space, gym.spaces.Discrete) and envs.single_observation_space.shape is not None
    assert obs.shape == (3, *envs.single_observation_space.shape)
    masks = info["action_mask"]
    assert masks.shape == (3, space.n) and masks.any(axis=1).all()
    rng = np.random.default_rng(1)
    finished = 0
    ended = np.zeros(3, dtype=bool)
    for _ in range(200):
        masks = info["action_mask"]
        # Gymnasium's next-step autoreset: a game that just ended has no legal id, and its next action is ignored
        assert np.array_equal(~masks.any(axis=1), ended)
        ids = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks])
        obs, _reward, terminated, _truncated, info = envs.step(ids)
        ended = terminated
        finished += int(terminated.sum())
        assert not any("illegal_action" in k and v.any() for k, v in info.items() if k.startswith("_"))
    assert finished > 0
    envs.close()
