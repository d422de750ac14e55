"""Gymnasium single-seat envs: check_env on every game, registration, masks, bots, errors."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from envs_configs import CONFIGS, config_id, needs_engine
from gymnasium.utils.env_checker import check_env

import courtcards.envs.gymnasium as ccgym
from courtcards.core.errors import ActionIdError, OptionError
from courtcards.envs.table import EnvError


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_check_env_passes_with_the_default_options(config: tuple[str, int, dict[str, Any]]) -> None:
    game, n, options = config
    needs_engine(game)
    env = gym.make(ccgym.env_ids()[game], num_players=n, options=options, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box, as the tensors' ranges are per game
        check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("game", sorted(ccgym.env_ids()))
def test_check_env_passes_on_the_env_as_registered(game: str) -> None:
    needs_engine(game)
    env = gym.make(ccgym.env_ids()[game])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    assert env.unwrapped.illegal_action == "lose"  # type: ignore[attr-defined]


def play(env: Any, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, reward, done = 0, 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        assert np.array_equal(mask, info["action_mask"]) and mask.dtype == np.bool_ and mask.any()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        steps += 1
        done = term or trunc
    return float(reward), steps


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_masked_random_play_ends_with_the_seats_return(config: tuple[str, int, dict[str, Any]]) -> None:
    game, n, options = config
    needs_engine(game)
    env = gym.make(ccgym.env_ids()[game], num_players=n, options=options, seat=n - 1, opponents=("greedy",))
    reward, steps = play(env, seed=1)
    state = env.unwrapped.table.state  # type: ignore[attr-defined]
    assert state.is_over() and steps > 0
    assert reward == state.returns()[n - 1]
    assert play(env, seed=1) == (reward, steps)  # seeded: the same game again
    seats = {s for s, _ in state.history}
    assert seats == set(range(n)) or game == "royals"  # the bots played their seats


def test_an_illegal_id_loses_by_default_and_raises_on_request() -> None:
    env = ccgym.CourtcardsEnv("rank", num_players=3, options={"tokens_to_win": 1})
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.table.state.to_json()
    after, reward, term, trunc, info = env.step(np.int64(bad))
    assert (reward, term, trunc) == (-1.0, True, False)
    assert info["illegal_action"]["id"] == bad and "not legal now" in info["illegal_action"]["reason"]
    assert env.table.state.to_json() == before and np.array_equal(after, obs)  # nothing played for the agent
    assert not env.action_masks().any()
    with pytest.raises(EnvError, match="call reset"):
        env.step(0)
    env.reset(seed=0)
    _, reward, term, _, info = env.step(env.action_space.n)  # type: ignore[attr-defined]
    assert (reward, term) == (-1.0, True) and "out of range" in info["illegal_action"]["reason"]

    strict = ccgym.CourtcardsEnv("rank", num_players=3, options={"tokens_to_win": 1}, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ActionIdError, match="not legal now"):
        strict.step(bad)
    assert strict.table.state.to_json() == before
    legal = int(np.flatnonzero(strict.action_masks())[0])
    assert strict.step(legal)[1:3] == (0.0, False)  # the refused step changed nothing


@pytest.mark.parametrize("mode", ccgym.ILLEGAL_MODES)
def test_a_non_integer_action_is_a_bug_and_raises_in_every_mode(mode: str) -> None:
    env = ccgym.CourtcardsEnv("royale", illegal_action=mode)
    env.reset(seed=1)
    for action in ("7", 1.5, True):
        with pytest.raises(ActionIdError, match="integer"):
            env.step(action)
    with pytest.raises(EnvError, match="must choose"):
        env.step(None)
    _, reward, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert reward == 0.0 and "illegal_action" not in info  # the refusals changed nothing


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(OptionError, match="valid bots"):
        ccgym.CourtcardsEnv("rank", opponents=("genius",))
    with pytest.raises(OptionError, match="one per other seat"):
        ccgym.CourtcardsEnv("rank", num_players=4, opponents=("greedy", "random"))
    with pytest.raises(OptionError, match="seat must be"):
        ccgym.CourtcardsEnv("royale", seat=2)
    with pytest.raises(OptionError, match="illegal_action"):
        ccgym.CourtcardsEnv("royale", illegal_action="ignore")
    with pytest.raises(EnvError, match="call reset"):
        ccgym.CourtcardsEnv("royale").step(0)


def test_every_game_is_registered() -> None:
    # the import registered the games known then; register_envs adds those registered since (a test's plug-in)
    assert {"courtcards/Rank-v0", "courtcards/KQP-v0", "courtcards/Royale-v0", "courtcards/Royals-v0"} <= set(
        gym.registry
    )
    ids = ccgym.register_envs()
    assert sorted(ids) == sorted(ccgym.env_ids().values())
    assert set(ids) <= {k for k in gym.registry if k.startswith("courtcards/")}
    env = gym.make("courtcards/Royale-v0", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "Rank Royale" in text
