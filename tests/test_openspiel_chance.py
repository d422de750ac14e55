"""Chance as chance in the OpenSpiel games (issue 27, item 3): with ``deals=0`` (the default) every draw
the engine makes is a chance node with its true outcomes, a seeded game is one path through them, exact
algorithms enumerate deals (Kuhn poker written as a courtcards game solves exactly as OpenSpiel's own),
states pickle and serialize at chance nodes, and resampling without a sampler is seeded."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
from envs_configs import CONFIGS, config_id, needs_engine
from kuhn_game import registered

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel does not install here")
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

from courtcards.core.game import get_game  # noqa: E402
from courtcards.core.rng import Rng  # noqa: E402
from courtcards.envs import openspiel  # noqa: E402

openspiel.register()


def game_string(game: str, n: int, options: dict[str, Any], extra: str = "") -> str:
    params = [f"players={n}"] + [
        f"{k}={str(v).lower() if isinstance(v, bool) else str(v).replace(',', '/')}" for k, v in options.items()
    ]
    return f"{openspiel.short_name(game)}({','.join(params + ([extra] if extra else []))})"


def position(state: Any) -> dict[str, Any]:
    """The engine state's JSON less its generator and seed (a scripted deal is made with seed 0)."""
    return {k: v for k, v in state.to_json().items() if k not in ("rng", "seed")}


# games that draw again after the deal: a second hand, a second round, reshuffled decks
LATER: list[tuple[str, int, dict[str, Any]]] = [
    ("rank", 4, {"classic_president": True, "endless": True, "hands": 2}),
    ("kqp", 4, {"rounds": 2}),
    ("royals", 3, {}),
]


@pytest.mark.parametrize("config", CONFIGS[::2] + LATER, ids=config_id)
def test_a_seeded_game_is_one_path_through_the_chance_nodes(config: tuple[str, int, dict[str, Any]]) -> None:
    """Answering every chance node with what ``Rng(seed)`` draws there gives the engine's game with
    that seed, step by step, later draws (reshuffles, new hands and rounds) included."""
    needs_engine(config[0])
    name, n, options = config
    game = pyspiel.load_game(game_string(*config))
    assert game.get_parameters()["deals"] == 0
    later = 0
    for seed in (5, 11):  # random play with seed 11 lasts long enough in Royals to reshuffle a deck
        engine, draws = get_game(name).new_game(n, options, seed=seed), Rng(seed)
        state, rng = game.new_initial_state(), np.random.default_rng(seed)
        deal = steps = 0
        while not state.is_terminal() and steps < 1500:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len(outcomes) <= game.max_chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(draws.below(len(outcomes)))
                if steps:
                    later += 1
                else:
                    deal += 1
                continue
            assert position(state.engine) == position(engine)
            if state.is_simultaneous_node():
                actions = [int(rng.choice(state.legal_actions(p))) if state.legal_actions(p) else 0 for p in range(n)]
                for seat in engine.to_move():
                    engine.apply_id(seat, actions[seat])
                state.apply_actions(actions)
            else:
                action = int(rng.choice(state.legal_actions()))
                engine.apply_id(state.current_player(), action)
                state.apply_action(action)
            steps += 1
        assert position(state.engine) == position(engine) and state.is_terminal() == engine.is_over()
        assert deal > 2 * n  # the deal is card by card
    if config in LATER:
        assert later > 0


def test_the_deal_is_the_shuffles_draws() -> None:
    """Rank Royale shuffles two 52-card decks: 51 draws each, of 52, 51, ..., 2 outcomes."""
    state = pyspiel.load_game("courtcards_royale").new_initial_state()
    sizes = []
    while state.is_chance_node():
        sizes.append(len(state.chance_outcomes()))
        assert state.engine is None and state.legal_actions() == list(range(sizes[-1]))
        state.apply_action(sizes[-1] - 1)
    assert sizes == list(range(52, 1, -1)) * 2
    assert [len(h) for h in state.engine.hands] == [6, 6]
    with pytest.raises(ValueError, match="not a chance outcome"):
        pyspiel.load_game("courtcards_royale").new_initial_state().apply_action(52)


def test_states_pickle_serialize_and_differ_at_chance_nodes() -> None:
    game = pyspiel.load_game("courtcards_royals(players=3,max_turns=40)")
    state = game.new_initial_state()
    for k in (3, 1, 4):
        state.apply_action(k)
    other = game.new_initial_state()
    for k in (3, 1, 5):
        other.apply_action(k)
    assert state.is_chance_node() and str(state) != str(other)
    copy = pickle.loads(pickle.dumps(state))
    _, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for again in (copy, state2, state.clone()):
        assert str(again) == str(state) and again.history() == state.history()
        assert again.chance_outcomes() == state.chance_outcomes()
    # a later deal (King Queens & Paupers' second round): play until a player's action needs draws
    game = pyspiel.load_game("courtcards_kqp(players=4,rounds=2,target=0)")
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    played = False
    while not (played and state.is_chance_node()):
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            played = True
    engine = position(state.engine)
    copy = pickle.loads(pickle.dumps(state))
    while state.is_chance_node():
        assert position(state.engine) == engine  # the engine waits before the step for its draws
        state.apply_action(0)
        copy.apply_action(0)
    assert str(copy) == str(state) and position(state.engine) != engine


def test_exact_cfr_enumerates_the_deals_of_kuhn_poker_written_as_a_courtcards_game() -> None:
    """Kuhn poker's deal is the engine's shuffle of three cards: chance nodes of 3 and 2 outcomes. CFR,
    CFR+ and NashConv on it give OpenSpiel's own kuhn_poker numbers at every iteration."""
    with registered():
        openspiel.register()
        ours, theirs = pyspiel.load_game("courtcards_kuhn_test"), pyspiel.load_game("kuhn_poker")
        state = ours.new_initial_state()
        assert [len(state.chance_outcomes()), len(state.child(0).chance_outcomes())] == [3, 2]
        assert state.child(0).child(0).current_player() == 0
        states = get_all_states.get_all_states(ours, include_chance_states=True)
        assert sum(s.is_chance_node() for s in states.values()) == 1 + 3  # the deal's nodes
        for solver in (cfr.CFRSolver, cfr.CFRPlusSolver):
            a, b = solver(ours), solver(theirs)
            values = []
            for _ in range(12):
                a.evaluate_and_update_policy()
                b.evaluate_and_update_policy()
                mine = exploitability.nash_conv(ours, a.average_policy())
                assert mine == pytest.approx(exploitability.nash_conv(theirs, b.average_policy()), abs=1e-12)
                values.append(mine)
            assert values[-1] < values[0] / 4
        uniform = exploitability.nash_conv(ours, policy.UniformRandomPolicy(ours))
        assert uniform == pytest.approx(exploitability.nash_conv(theirs, policy.UniformRandomPolicy(theirs)))
        # OpenSpiel's C++ CFR calls into the Python game's chance nodes too
        native, reference = pyspiel.CFRSolver(ours), pyspiel.CFRSolver(theirs)
        for _ in range(12):
            native.evaluate_and_update_policy()
            reference.evaluate_and_update_policy()
        expected = pyspiel.nash_conv(theirs, reference.average_policy())
        assert pyspiel.nash_conv(ours, native.average_policy()) == pytest.approx(expected, abs=1e-12)


def test_resampling_without_a_sampler_is_seeded() -> None:
    """Without a sampler the world comes from the game's generator (``resample_seed``), never from the
    process's global random state."""

    def worlds(seed: int, noise: int) -> list[str]:
        random.seed(noise)
        game = pyspiel.load_game(f"courtcards_rank(players=3,tokens_to_win=1,resample_seed={seed})")
        state = game.new_initial_state()
        draws = Rng(9)
        while state.is_chance_node():
            state.apply_action(draws.below(len(state.chance_outcomes())))
        player = state.current_player()
        out = []
        for _ in range(3):
            world = state.resample_from_infostate(player)
            assert world.information_state_string(player) == state.information_state_string(player)
            out.append(str(world))
        return out

    first = worlds(1, noise=0)
    assert worlds(1, noise=99) == first and len(set(first)) == 3
    assert worlds(2, noise=0) != first
