"""A game registered at run time is served by every environment with no edit outside its package:
Gymnasium, PettingZoo and OpenSpiel read its name, ids, players and dynamics from its GameInfo."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import courtcards.envs.gymnasium as ccgym
from courtcards.core import game as registry
from courtcards.core.game import Game, get_game, register
from courtcards.envs.pettingzoo import env, parallel_env
from courtcards.games.rank.game import RankGame
from courtcards.games.royale.game import RoyaleGame

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class RankCopy(RankGame):
    info = dataclasses.replace(
        RankGame.info,
        name="rank_copy",
        title="Rank Copy",
        gym_id="courtcards/RankCopy-v0",
        openspiel_name="courtcards_rank_copy",
    )


class RoyaleCopy(RoyaleGame):  # a simultaneous game: OpenSpiel's dynamics come from its GameInfo
    info = dataclasses.replace(
        RoyaleGame.info,
        name="royale_copy",
        title="Royale Copy",
        gym_id="courtcards/RoyaleCopy-v0",
        openspiel_name="courtcards_royale_copy",
    )


# (game class, players, options, the OpenSpiel parameters of those options)
COPIES = [
    (RankCopy, 3, {"tokens_to_win": 1}, "players=3,tokens_to_win=1"),
    (RoyaleCopy, 2, {"max_rounds": 20}, "max_rounds=20"),
]


@pytest.fixture(params=COPIES, ids=lambda c: c[0].info.name)
def copy(request: pytest.FixtureRequest) -> Iterator[tuple[Game[Any], int, dict[str, Any], str]]:
    cls, n, options, params = request.param
    name = cls.info.name
    assert name not in registry.game_names()
    game = register(cls())
    try:
        yield game, n, options, params
    finally:  # OpenSpiel cannot forget a game: its name stays registered there, refusing to load
        registry._REGISTRY.pop(name, None)
        gym.registry.pop(game.info.gym_id, None)


def test_the_copy_is_a_registered_game(copy: tuple[Game[Any], int, dict[str, Any], str]) -> None:
    game = copy[0]
    assert get_game(game.name) is game and game.name in registry.game_names()
    built_in = get_game(game.name.removesuffix("_copy"))
    assert built_in is not game and type(game).__mro__[1] is type(built_in)  # a game of its own, beside the built-in
    assert game.new_game(copy[1], copy[2], seed=1).record().game == game.name


def test_gymnasium_serves_a_game_registered_at_run_time(copy: tuple[Game[Any], int, dict[str, Any], str]) -> None:
    game, n, options, _ = copy
    assert game.info.gym_id not in gym.registry
    assert game.info.gym_id in ccgym.register_envs()  # again: adds the games registered since the import
    assert ccgym.env_ids()[game.name] == game.info.gym_id
    env_ = gym.make(game.info.gym_id, num_players=n, options=options, opponents="random")
    assert env_.unwrapped.table.game is game  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box
        check_env(env_.unwrapped, skip_render_check=False)
    _, info = env_.reset(seed=5)
    assert info["action_mask"].shape == (game.num_distinct_actions(n, game.resolve_options(n, options)),)


def test_pettingzoo_serves_a_game_registered_at_run_time(copy: tuple[Game[Any], int, dict[str, Any], str]) -> None:
    game, n, options, _ = copy
    aec = env(game.name, num_players=n, options=options)
    assert aec.table.game is game and aec.metadata["name"] == f"courtcards_{game.name}_v0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec, num_cycles=300)
        parallel_api_test(parallel_env(game.name, num_players=n, options=options), num_cycles=300)


def test_openspiel_serves_a_game_registered_at_run_time(copy: tuple[Game[Any], int, dict[str, Any], str]) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel does not install here")
    from courtcards.envs import openspiel

    game, n, _, params = copy
    assert game.info.openspiel_name in openspiel.register()
    loaded = pyspiel.load_game(f"{game.info.openspiel_name}({params})")
    kind = loaded.get_type()
    assert kind.short_name == game.info.openspiel_name
    assert (kind.min_num_players, kind.max_num_players) == (game.info.min_players, game.info.max_players)
    simultaneous = game.info.dynamics == "simultaneous"
    assert kind.dynamics == (
        pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL
    )
    assert (loaded.min_utility(), loaded.max_utility()) == game.info.utility
    assert loaded.max_game_length() == game.info.max_length
    assert loaded.num_players() == n and loaded.engine is game
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)
