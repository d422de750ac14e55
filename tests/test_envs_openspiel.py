"""OpenSpiel: every game registered, OpenSpiel's random_sim_test with serialization, ISMCTS on Rank."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from envs_configs import CONFIGS, config_id, needs_engine

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel does not install here")
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from courtcards.core.game import get_game  # noqa: E402
from courtcards.envs import openspiel  # noqa: E402

openspiel.register()


def game_string(game: str, n: int, options: dict[str, Any]) -> str:
    params = [f"players={n}"] + [
        f"{k}={str(v).lower() if isinstance(v, bool) else str(v).replace(',', '/')}" for k, v in options.items()
    ]
    return f"courtcards_{game}({','.join(params)})"


def test_load_game_by_name_with_parameters() -> None:
    game = pyspiel.load_game("courtcards_rank(players=4)")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == get_game("rank").num_distinct_actions(4)
    assert game.observation_tensor_shape() == list(get_game("rank").observation_shape(4))
    royale = pyspiel.load_game("courtcards_royale(discards=3/3/3)")
    assert royale.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert pyspiel.load_game("courtcards_royals").get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("courtcards_rank(colour=1)")
    with pytest.raises(Exception, match="3 to 12 players"):
        pyspiel.load_game("courtcards_rank(players=2)")


def test_integer_options_take_0_for_none() -> None:
    needs_engine("kqp")
    kqp = pyspiel.load_game("courtcards_kqp(players=5,target=0,rounds=2)")
    assert kqp.num_players() == 5 and kqp.options["target"] is None and kqp.options["rounds"] == 2


@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_openspiel_random_sim_test_with_serialization(config: tuple[str, int, dict[str, Any]]) -> None:
    needs_engine(config[0])
    game = pyspiel.load_game(game_string(*config))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_states_follow_the_engine_and_survive_pickling() -> None:
    game = pyspiel.load_game("courtcards_royale(max_rounds=5,deals=65536)")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 65536
    state.apply_action(7)
    engine = get_game("royale").new_game(2, {"max_rounds": 5}, seed=7)
    assert state.is_simultaneous_node()
    assert state.observation_string(0) == engine.observation_string(0)
    assert np.array_equal(np.asarray(state.observation_tensor(1)), engine.observation_tensor(1).ravel())
    a0, a1 = state.legal_actions(0)[0], state.legal_actions(1)[-1]
    state.apply_actions([a0, a1])
    engine.apply_id(0, a0)
    engine.apply_id(1, a1)
    info = state.information_state_string(0)
    first = get_game("royale").new_game(2, {"max_rounds": 5}, seed=7).observation_string(0)
    played = state.action_to_string(0, a0)
    assert info == f"[0] {first}\n[1] you: {played}\n{engine.observation_string(0)}"
    assert str(state) != ""
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    clone = state.clone()
    while not clone.is_terminal():
        if clone.is_simultaneous_node():
            clone.apply_actions([clone.legal_actions(p)[0] for p in range(2)])
        else:
            clone.apply_action(clone.legal_actions()[0])
    assert not state.is_terminal() and sum(clone.returns()) == 0
    with pytest.raises(Exception, match="not legal now"):
        state.apply_actions([0 if 0 not in state.legal_actions(0) else 103, a1])


def test_resampled_worlds_keep_the_players_information() -> None:
    game = pyspiel.load_game("courtcards_rank(players=3,tokens_to_win=1)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():  # the deal, card by card
        state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.observation_string(player) == state.observation_string(player)
    assert world.legal_actions() == state.legal_actions()
    hidden = [p for p in range(3) if p != player]
    assert any(world.observation_string(p) != state.observation_string(p) for p in hidden)


def test_ismcts_plays_rank_through_evaluate_bots() -> None:
    game = pyspiel.load_game("courtcards_rank(players=3,tokens_to_win=1)")
    bots = [openspiel.ismcts_bot(game, max_simulations=8, seed=1)]
    bots += [pyspiel.make_uniform_random_bot(p, 10 + p) for p in (1, 2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-0.5, -0.5, 1.0]
