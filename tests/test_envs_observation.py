"""The games' fast observation tensors (``observation.state_tensor``, used by the environments) equal
the view-based definition and, like it, depend on the seat's view only."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from courtcards.core.conformance import resample_hidden
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.envs.table import Table, state_tensor

FAST_GAMES = [g for g in ("rank", "kqp", "royale", "royals")
              if hasattr(importlib.import_module(f"courtcards.games.{g}.observation"), "state_tensor")]


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
    for state in positions(game, seeds=3):
        for seat in range(state.num_players):
            want = g.observation_tensor(state.view(seat), state.id_prefix(seat))
            got = fast(state, seat)
            assert got.dtype == np.float32 and got.shape == want.shape
            assert np.array_equal(got, want), (state, seat, np.flatnonzero(got != want))
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("game", FAST_GAMES)
def test_state_tensor_depends_on_the_view_only(game: str) -> None:
    fast = importlib.import_module(f"courtcards.games.{game}.observation").state_tensor
    rng = Rng(3)
    for state in positions(game, seeds=1, every=7):
        for seat in range(state.num_players):
            other = resample_hidden(state, seat, rng)
            assert np.array_equal(fast(other, seat), fast(state, seat)), (state, seat)


def test_the_envs_use_the_fast_path_of_built_in_games_only() -> None:
    for game in FAST_GAMES:
        assert Table(game)._state_tensor is not None and state_tensor(get_game(game)) is not None

    class MyRank(type(get_game("rank"))):  # type: ignore[misc]
        """A subclass may change the state: it gets the view-based tensor."""

    table = Table(MyRank(), 4)
    assert table._state_tensor is None
    table.reset(1)
    assert np.array_equal(table.observation(2), table.state.observation_tensor(2))
