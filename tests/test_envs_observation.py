"""The games' fast observation tensors (``observation.state_tensor``, used by the environments) equal
the view-based definition and, like it, depend on the seat's view only."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest
from envs_configs import CONFIGS, config_id, needs_engine

from courtcards.core.conformance import resample_hidden
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.envs.pettingzoo import env
from courtcards.envs.table import Table

FAST_GAMES = [
    g
    for g in ("rank", "kqp", "royale", "royals")
    if hasattr(importlib.import_module(f"courtcards.games.{g}.observation"), "state_tensor")
]


def positions(game: str, seeds: int, every: int = 1):  # type: ignore[no-untyped-def]
    """States along random id-level games (composite choices half made included), every config."""
    g = get_game(game)
    rng = np.random.default_rng(7)
    for n, options in g.test_configs():
        for seed in range(seeds):
            state = g.new_game(n, options, seed)
            step = 0
            while not state.is_over() and step < 600:
                if step % every == 0:
                    yield state
                seat = state.to_move()[0]
                ids = state.legal_action_ids(seat)
                state.apply_id(seat, ids[int(rng.integers(len(ids)))])
                step += 1
            yield state


@pytest.mark.parametrize("game", FAST_GAMES)
def test_state_tensor_equals_the_view_tensor_everywhere(game: str) -> None:
    fast = importlib.import_module(f"courtcards.games.{game}.observation").state_tensor
    g = get_game(game)
    checked = 0
    for state in positions(game, seeds=1, every=2):
        for seat in range(state.num_players):
            want = g.observation_tensor(state.view(seat), state.id_prefix(seat))
            got = fast(state, seat)
            assert got.dtype == np.float32 and got.shape == want.shape
            assert np.array_equal(got, want), (state, seat, np.flatnonzero(got != want))
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize("game", FAST_GAMES)
def test_state_tensor_depends_on_the_view_only(game: str) -> None:
    fast = importlib.import_module(f"courtcards.games.{game}.observation").state_tensor
    rng = Rng(3)
    for state in positions(game, seeds=1, every=11):
        for seat in range(state.num_players):
            other = resample_hidden(state, seat, rng)
            assert np.array_equal(fast(other, seat), fast(state, seat)), (state, seat)


def test_state_observation_tensor_is_the_games_fast_path() -> None:
    for game in FAST_GAMES:
        g = get_game(game)
        state = g.new_game(g.default_players, seed=1)
        fast = importlib.import_module(f"courtcards.games.{game}.observation").state_tensor
        assert np.array_equal(state.observation_tensor(0), fast(state, 0))
        table = Table(game)
        table.reset(1)
        assert np.array_equal(table.observation(0), table.state.observation_tensor(0))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_observations_are_the_engines_and_fresh(config: tuple[str, int, dict[str, Any]]) -> None:
    game, n, options = config
    needs_engine(game)
    e = env(game, num_players=n, options=options)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    kept: list[tuple[Any, bytes]] = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        state = e.table.state
        seat = e.agent_seat[agent]
        assert np.array_equal(obs["observation"], state.observation_tensor(seat))
        if term or trunc:
            assert not obs["action_mask"].any()
            e.step(None)
            continue
        assert np.array_equal(obs["action_mask"].astype(bool), state.legal_action_mask(seat))
        kept.append((obs["observation"], obs["observation"].tobytes()))
        scribbled = e.observe(agent)
        scribbled["observation"][:] = -1.0  # an agent writing on its arrays changes nothing else
        scribbled["action_mask"][:] = 0
        assert np.array_equal(e.observe(agent)["observation"], obs["observation"])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(kept) > 3
    assert all(a.tobytes() == b for a, b in kept)  # later steps did not overwrite earlier observations
