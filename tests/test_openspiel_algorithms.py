"""OpenSpiel's own algorithms on every game (issue 27): pickling and serialization, perfect-recall
information states distinct at every decision (composite steps included), resampling, simultaneous
moves by OpenSpiel's conventions, Python ISMCTS, MCTS on the turn-based conversion, outcome-sampling
MCCFR and rl_environment episodes on the full games, CFR / MCCFR / NashConv on small variants."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from envs_configs import CONFIGS, config_id, needs_engine

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel does not install here")
from open_spiel.python import policy, rl_environment  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    exploitability,
    external_sampling_mccfr,
    mcts,
    outcome_sampling_mccfr,
)

from courtcards.core.game import get_game, registered_games  # noqa: E402
from courtcards.envs import openspiel  # noqa: E402

openspiel.register()

SIM = int(pyspiel.PlayerId.SIMULTANEOUS)


def game_string(game: str, n: int, options: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
    params = [f"players={n}"] + [
        f"{k}={str(v).lower() if isinstance(v, bool) else str(v).replace(',', '/')}"
        for k, v in {**options, **(extra or {})}.items()
    ]
    return f"{openspiel.short_name(game)}({','.join(params)})"


# the built-in configurations, and every other registered game (plug-ins) at its defaults
EVERY = CONFIGS + [(g.name, g.default_players, {}) for g in registered_games() if g.name not in {c[0] for c in CONFIGS}]


def movers(state: Any) -> list[int]:
    if state.is_simultaneous_node():
        return [p for p in range(state.num_players()) if state.legal_actions(p)]
    return [state.current_player()]


def step_randomly(state: Any, rng: np.random.Generator) -> None:
    if state.is_chance_node():
        state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
    elif state.is_simultaneous_node():
        state.apply_actions(
            [
                int(rng.choice(state.legal_actions(p))) if state.legal_actions(p) else 0
                for p in range(state.num_players())
            ]
        )
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def walk(game: Any, seed: int, limit: int = 150) -> Iterator[Any]:
    """One random game (at most ``limit`` steps after the deal): the live state after each step."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal: one chance node per draw (deals=0) or one per deal
        step_randomly(state, rng)
    for _ in range(limit):
        if state.is_terminal():
            return
        if not state.is_chance_node():  # a later draw (a reshuffle): stepped through
            yield state
        step_randomly(state, rng)


@pytest.mark.parametrize("config", EVERY, ids=config_id)
def test_games_and_states_pickle_and_serialize(config: tuple[str, int, dict[str, Any]]) -> None:
    needs_engine(config[0])
    game = pyspiel.load_game(game_string(*config))
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game)
    states = [state.clone() for state in walk(game, 1, limit=40)]
    for state in (states[5], states[-1]):
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.history() == state.history()
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(state2) == str(state)
        for p in range(game.num_players()):
            assert state2.information_state_string(p) == state.information_state_string(p)
            assert copy.legal_actions(p) == state.legal_actions(p)


def test_a_pickled_game_loads_where_register_was_not_called() -> None:
    game = pyspiel.load_game("courtcards_royale(max_rounds=3,turn_based=true)")
    code = "import pickle, sys; g = pickle.loads(sys.stdin.buffer.read()); print(g, g.num_distinct_actions())"
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(game), capture_output=True, check=True)
    assert out.stdout.decode().split() == [str(game), str(game.num_distinct_actions())]


@pytest.mark.parametrize("config", EVERY, ids=config_id)
def test_information_states_are_perfect_recall_and_tell_every_decision_apart(
    config: tuple[str, int, dict[str, Any]],
) -> None:
    needs_engine(config[0])
    game = pyspiel.load_game(game_string(*config))
    seen: dict[str, tuple[int, list[int]]] = {}
    composite = 0
    for seed in (1, 2):
        last: dict[int, str] = {}
        for state in walk(game, seed):
            for p in movers(state):
                info = state.information_state_string(p)
                legal = state.legal_actions(p)
                # one information state: one player, one set of legal actions (what CFR needs)
                assert seen.setdefault(info, (p, legal)) == (p, legal)
                # perfect recall: the player's earlier information state is where this one starts
                if p in last:
                    assert info.startswith(last[p] + "\n"), (last[p][-200:], info[-200:])
                last[p] = info
            engine = state.engine
            composite += any(engine.id_prefix(p) for p in range(game.num_players()))
    if config[0] in ("kqp", "royals") or config[2].get("discards"):
        assert composite > 0  # the walk did reach steps of composite choices
    with pytest.raises(NotImplementedError, match="no information state tensor"):
        next(walk(game, 0)).information_state_tensor(0)
    assert not game.get_type().provides_information_state_tensor


@pytest.mark.parametrize("config", EVERY, ids=config_id)
def test_resampling_keeps_the_information_state_and_the_partial_choice(
    config: tuple[str, int, dict[str, Any]],
) -> None:
    needs_engine(config[0])
    game = pyspiel.load_game(game_string(*config))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(3)
    checked = mid_choice = 0
    for state in walk(game, 3, limit=100):
        for p in movers(state):
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.observation_string(p) == state.observation_string(p)
            assert world.current_player() == state.current_player()
            assert world.legal_actions(p) == state.legal_actions(p)
            assert world.engine.id_prefix(p) == state.engine.id_prefix(p)
            mid_choice += bool(state.engine.id_prefix(p))
            checked += 1
            step_randomly(world, rng)  # the world plays on
    assert checked > 5
    if config[0] in ("kqp", "royals"):
        assert mid_choice > 0


def test_simultaneous_nodes_follow_openspiels_conventions() -> None:
    game = pyspiel.load_game("courtcards_royale(max_rounds=3,deals=16)")
    state = game.new_initial_state()
    state.apply_action(4)
    assert state.current_player() == SIM
    first, second = state.legal_actions(0), state.legal_actions(1)
    assert first and second
    with pytest.raises(ValueError, match=r"apply_actions\(\[\.\.\.\]\)"):
        state.apply_action(first[0])
    with pytest.raises(ValueError, match="one action per player"):
        state.apply_actions([first[0]])
    assert state.history() == [4]
    state.apply_actions([first[0], second[0]])
    assert state.history() == [4, first[0], second[0]]
    # the parameter turn_based asks the same decisions one seat after the other, hidden as in the engine
    turns = pyspiel.load_game("courtcards_royale(max_rounds=3,turn_based=true,deals=16)")
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    seq = turns.new_initial_state()
    seq.apply_action(4)
    assert seq.current_player() == 0 and seq.legal_actions() == first
    before = seq.observation_string(1)
    seq.apply_action(first[0])
    assert seq.current_player() == 1 and seq.legal_actions() == second
    assert seq.observation_string(1).replace("to decide: you and", "") != "" and before != ""
    pyspiel.random_sim_test(turns, num_sims=2, serialize=True, verbose=False)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=2, serialize=False, verbose=False)


def sequential(config: tuple[str, int, dict[str, Any]]) -> Any:
    """The game, turn-based where it has simultaneous nodes (the parameter turn_based)."""
    extra = {"turn_based": True} if openspiel.simultaneous(get_game(config[0])) else {}
    return pyspiel.load_game(game_string(*config, extra))


@pytest.mark.parametrize("keys", ["information", "observation"])
@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_python_ismcts_searches_every_game(config: tuple[str, int, dict[str, Any]], keys: str) -> None:
    needs_engine(config[0])
    game = sequential(config)
    bot = openspiel.ismcts_bot(game, max_simulations=6, seed=2, use_observation_string=keys == "observation")
    decided = 0
    for i, state in enumerate(walk(game, 4, limit=60)):
        if i % 6:
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        decided += 1
    assert decided >= 3


@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_mcts_on_the_turn_based_game(config: tuple[str, int, dict[str, Any]]) -> None:
    needs_engine(config[0])
    game = pyspiel.load_game(game_string(*config))
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    searched = 0
    while not state.is_terminal() and searched < 3:
        step_randomly(state, rng)
        if not state.is_terminal() and not state.is_chance_node() and rng.random() < 0.3:
            assert bot.step(state) in state.legal_actions()
            searched += 1
    assert searched == 3


@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_rl_environment_plays_whole_episodes(config: tuple[str, int, dict[str, Any]]) -> None:
    needs_engine(config[0])
    env = rl_environment.Environment(pyspiel.load_game(game_string(*config)))
    env.seed(1)  # the deal: the constructor takes no seed (a ``seed`` keyword would go to the game)
    rng = np.random.default_rng(1)
    time_step = env.reset()
    steps = 0
    while not time_step.last():
        legal = time_step.observations["legal_actions"]
        if env.is_turn_based:
            player = time_step.observations["current_player"]
            actions = [int(rng.choice(legal[player]))]
        else:
            actions = [int(rng.choice(a)) if a else 0 for a in legal]
        time_step = env.step(actions)
        steps += 1
    returns = env.get_state.returns()
    assert steps > 5 and time_step.rewards == returns and abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_outcome_sampling_mccfr_on_the_full_games(config: tuple[str, int, dict[str, Any]]) -> None:
    needs_engine(config[0])
    game = sequential(config)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(2):
        solver.iteration()
    tables = solver._infostates  # information state -> [regrets, average policy], one entry per legal action
    assert tables
    sizes = {len(regrets) for regrets, _ in tables.values()}
    assert all(0 < size <= game.num_distinct_actions() for size in sizes)


# small variants: Rank Royale decided by the first round where the tiers differ (a loser discards six,
# more than it holds), over a few deals; Royals that ends after one turn (always a draw); Royals' preset
# tiny (three cards a hand, a Royal still in play when its owner's turn begins wins, a draw after 4 turns),
# three players over four deals
DUEL = "courtcards_royale(deals=2,max_rounds=1,discards=6/6/6,turn_based=true)"
DRAWN = "courtcards_royals(deals=2,max_turns=1)"
FIGHT = "courtcards_royals(players=3,hand_limit=3,target=1,max_turns=4,deals=4)"


def test_cfr_plus_solves_a_small_rank_royale() -> None:
    game = pyspiel.load_game(DUEL)
    assert exploitability.nash_conv(game, policy.UniformRandomPolicy(game)) == pytest.approx(0.75)
    solver = cfr.CFRPlusSolver(game)
    conv = []
    for _ in range(6):
        solver.evaluate_and_update_policy()
        conv.append(exploitability.nash_conv(game, solver.average_policy()))
    assert conv[0] == pytest.approx(0.75) and conv[5] == pytest.approx(0.17877153988604488, rel=1e-9)
    plain = cfr.CFRSolver(game)
    for _ in range(6):
        plain.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, plain.average_policy()) < 0.75
    # OpenSpiel's C++ solvers call into the Python game and agree with the Python ones
    native = pyspiel.CFRPlusSolver(game)
    for _ in range(6):
        native.evaluate_and_update_policy()
    assert pyspiel.nash_conv(game, native.average_policy()) == pytest.approx(conv[5], rel=1e-9)
    sampled = pyspiel.ExternalSamplingMCCFRSolver(game, seed=1)
    for _ in range(100):
        sampled.run_iteration()
    assert 0.0 < pyspiel.exploitability(game, sampled.average_policy()) < 0.2


@pytest.mark.parametrize(
    ("name", "least", "fold"),
    [
        # Rank's option hand_size (preset tiny: two cards each, one hand), three players over two deals
        ("courtcards_rank(players=3,tokens_to_win=1,hand_size=2,deals=2)", 0.5, 8),
        # Royals' options hand_limit and target (preset tiny), three players over four deals: the fights over
        # a first Royal (secret commitments: attack, block or bluff) are what is left to solve
        (FIGHT, 0.1, 6),
    ],
    ids=["rank", "royals"],
)
def test_cfr_plus_solves_a_tiny_variant(name: str, least: float, fold: int) -> None:
    """CFR+ cuts the uniform policy's NashConv ``fold``-fold in four iterations, Python and C++ alike
    (plain CFR: below)."""
    game = pyspiel.load_game(name)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    solver, native = cfr.CFRPlusSolver(game), pyspiel.CFRPlusSolver(game)
    for _ in range(4):
        solver.evaluate_and_update_policy()
        native.evaluate_and_update_policy()
    value = exploitability.nash_conv(game, solver.average_policy())
    assert uniform > least and 0.0 < value < uniform / fold
    assert pyspiel.nash_conv(game, native.average_policy()) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("name", [DUEL, DRAWN, FIGHT])
def test_mccfr_and_nash_conv_on_small_variants(name: str) -> None:
    game = pyspiel.load_game(name)
    external = external_sampling_mccfr.ExternalSamplingSolver(game)
    outcome = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(1)
    for _ in range(100):
        external.iteration()
        outcome.iteration()
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    for solver in (external, outcome):
        value = exploitability.nash_conv(game, solver.average_policy())
        # DUEL: the uniform policy's NashConv is 0.75; DRAWN: every policy is an equilibrium
        assert 0.0 < value < 0.5 if name == DUEL else value == 0.0 if name == DRAWN else 0.0 < value < uniform
    if name == DRAWN:
        solver = cfr.CFRSolver(game)
        solver.evaluate_and_update_policy()
        assert exploitability.nash_conv(game, solver.average_policy()) == 0.0
    if name == FIGHT:  # plain CFR: halves it in two iterations
        solver = cfr.CFRSolver(game)
        solver.evaluate_and_update_policy()
        solver.evaluate_and_update_policy()
        assert 0.0 < exploitability.nash_conv(game, solver.average_policy()) < uniform / 2


@pytest.mark.slow
def test_cfr_plus_on_two_rounds_of_rank_royale() -> None:
    game = pyspiel.load_game("courtcards_royale(deals=4,max_rounds=2,discards=6/6/6,turn_based=true)")
    start = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(8):
        solver.evaluate_and_update_policy()
    assert start == pytest.approx(0.9900793650793652)
    assert exploitability.nash_conv(game, solver.average_policy()) == pytest.approx(0.4112011219250209, rel=1e-9)
