"""Trained networks: the torch-free file format, the nn bot, and `courtcards train` end to end (issue #31)."""

from __future__ import annotations

import csv
import importlib.util
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from courtcards.bots.base import bot_kinds, bot_move, make_bot
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game, registered_games
from courtcards.nn import (
    NetworkError,
    NNBot,
    SelfPlay,
    Trajectories,
    deal_seed,
    load_network,
    save_network,
    shipped_networks,
)
from courtcards.sim import simulate

ROOT = Path(__file__).resolve().parent.parent
# every network a game ships for itself (a variant inheriting another game's networks profile lists that
# game's files, which the nn bot refuses for the variant)
SHIPPED = [
    (g.name, f) for g in registered_games() for f in shipped_networks(g.name) if load_network(f).meta["game"] == g.name
]


def _tiny_network(path: Path, game: str, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> None:
    """A random network in the file format (what `courtcards train` writes, without training)."""
    g = get_game(game)
    resolved = g.resolve_options(players, options or {})
    obs = int(np.prod(g.observation_shape(players, resolved)))
    n = g.num_distinct_actions(players, resolved)
    rng = np.random.default_rng(seed)
    weights = [(rng.normal(size=(obs, 16)), rng.normal(size=16)), (rng.normal(size=(16, n)), rng.normal(size=n))]
    meta = {
        "game": g.name,
        "players": players,
        "options": json.loads(json.dumps(resolved)),
        "action_ids_version": 2,
        "observation_shape": list(g.observation_shape(players, resolved)),
        "num_actions": n,
        "trainer": "test",
        "seed": seed,
    }
    save_network(path, meta, weights)


# -- the file format and its errors -------------------------------------------------------------------------
def test_a_network_file_round_trips_and_computes_what_its_weights_say(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    _tiny_network(path, "royale", 2)
    net = load_network(path)
    assert net.meta["game"] == "royale" and net.meta["players"] == 2 and net.meta["layers"] == 2
    x = np.random.default_rng(1).normal(size=(3, *net.meta["observation_shape"])).astype(np.float32)
    (w0, b0), (w1, b1) = net.weights
    expected = np.maximum(x.reshape(3, -1) @ w0 + b0, 0) @ w1 + b1
    assert np.allclose(net.forward(x), expected, atol=1e-4)
    net.check_fits(get_game("royale"), 2, {})


def test_a_mismatched_network_is_refused_naming_the_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    _tiny_network(path, "rank", 4, {"tokens_to_win": 1})
    net = load_network(path)
    with pytest.raises(NetworkError, match=r"trained for 4 players, not 5"):
        net.check_fits(get_game("rank"), 5, {"tokens_to_win": 1})
    with pytest.raises(NetworkError, match=r"option tokens_to_win is 5 at this table, 1 in training"):
        net.check_fits(get_game("rank"), 4, {})
    with pytest.raises(NetworkError, match=r"trained for the game 'rank', not 'kqp'"):
        net.check_fits(get_game("kqp"), 4, {})
    # the bot: a file for another game is refused when it is seated, another table size when it plays
    with pytest.raises(OptionError, match=r"trained for 'rank', not 'royale'"):
        make_bot("royale", f"nn:{path}")
    bot = make_bot("rank", f"nn:{path}")
    state = get_game("rank").new_game(5, {"tokens_to_win": 1}, seed=3)
    seat = state.to_move()[0]
    with pytest.raises(NetworkError, match=r"does not fit this table: it was trained for 4 players, not 5"):
        bot_move(bot, state, seat)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_bytes(b"not a zip at all"), "not a readable network file"),
        (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "not a readable network file"),
        (lambda p: p.unlink(), "no network file"),
    ],
    ids=["garbage", "truncated", "missing"],
)
def test_a_corrupt_or_missing_file_is_a_clear_error(tmp_path: Path, damage: Any, message: str) -> None:
    path = tmp_path / "net.npz"
    _tiny_network(path, "royale", 2)
    damage(path)
    with pytest.raises(NetworkError, match=message):
        load_network(path)
    with pytest.raises(OptionError, match=message):
        make_bot("royale", f"nn:{path}")


def test_a_file_without_metadata_or_with_wrong_layers_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    np.savez(path, w0=np.zeros((2, 2)))
    with pytest.raises(NetworkError, match="no readable metadata"):
        load_network(path)
    _tiny_network(path, "royale", 2)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            if name != "w1.npy":
                z.writestr(name, data)
    with pytest.raises(NetworkError, match="layer 1 of 2 is missing"):
        load_network(path)


def test_a_game_without_a_shipped_network_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import courtcards.nn as nn_module

    monkeypatch.setattr(nn_module, "shipped_networks", lambda game: [])
    with pytest.raises(OptionError, match=r"ships no trained network for the nn bot .*courtcards train royale"):
        make_bot("royale", "nn")
    assert "nn" not in bot_kinds("royale")


# -- the bot --------------------------------------------------------------------------------------------------
def test_the_nn_bot_plays_the_networks_best_legal_id_from_its_view(tmp_path: Path) -> None:
    """At every single-id decision of random games the bot's move is the legal id of highest value for the
    seat's observation tensor; composite choices complete to legal actions. Rank Royale's card choice is
    simultaneous: each seat decides from its own view."""
    for game, players in (("royale", 2), ("rank", 4), ("royals", 3)):
        path = tmp_path / f"{game}.npz"
        _tiny_network(path, game, players, seed=5)
        net = load_network(path)
        g = get_game(game)
        state = g.new_game(players, seed=11)
        bots = {s: NNBot(game, 0, str(path)) for s in range(players)}
        checked = 0
        for _ in range(300):
            if state.is_over():
                break
            seat = state.to_move()[0]
            move = bot_move(bots[seat], state, seat)
            assert move in state.legal_actions(seat)
            ids = state.action_ids(move)
            if len(ids) == 1 and len(state.legal_actions(seat)) > 1:
                values = net.forward(state.observation_tensor(seat)[None])[0]
                legal = state.legal_action_ids(seat)
                assert ids[0] == max(legal, key=lambda i: (values[i], -i))
                checked += 1
            state.apply(seat, move)
        assert checked > 3, game


def test_nn_is_a_bot_kind_where_a_network_ships() -> None:
    for game, _ in SHIPPED:
        assert "nn" in bot_kinds(game)


# -- every shipped network, loaded without PyTorch ---------------------------------------------------------
TORCH_FREE = """
import sys
sys.modules["torch"] = None  # importing torch now fails: the nn bot must not need it
from courtcards.core.game import registered_games
from courtcards.nn import load_network, shipped_networks
from courtcards.sim import simulate
played = 0
for g in registered_games():
    for f in shipped_networks(g.name):
        net = load_network(f)
        m = net.meta
        if m["game"] != g.name:
            continue  # a variant's inherited profile: another game's network
        n = m["players"]
        result = simulate(g.name, ["nn"] + ["greedy"] * (n - 1), games=1, seed=7, options=m["options"], workers=1)
        assert result.games == 1
        played += 1
print("played", played)
"""


def test_every_shipped_network_loads_and_plays_without_torch() -> None:
    assert SHIPPED, "no network ships with any game"
    done = subprocess.run(
        [sys.executable, "-c", TORCH_FREE], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["played", str(len(SHIPPED))]


@pytest.mark.parametrize(("game", "path"), SHIPPED, ids=[f"{g}-{f.name}" for g, f in SHIPPED])
def test_a_shipped_network_fits_its_game_and_is_small(game: str, path: Any) -> None:
    net = load_network(path)
    g = get_game(game)
    net.check_fits(g, net.meta["players"], net.meta["options"])
    assert net.meta["trainer"] == "dmc" and " train " in net.meta["command"]
    assert len(path.read_bytes()) < 3_000_000


# -- training end to end --------------------------------------------------------------------------------------
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the train extra (torch)")


def _train(tmp_path: Path, *args: str) -> Any:
    from courtcards.cli.main import app

    return CliRunner().invoke(app, ["train", *args], catch_exceptions=False)


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "metrics.csv").open() as f:
        return list(csv.DictReader(f))


@needs_torch
def test_a_tiny_training_runs_end_to_end_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    common = ["royale", "--seed", "3", "--out", str(out), "--batch-games", "4", "--hidden", "32"]
    result = _train(tmp_path, *common, "--games", "40", "--eval-games", "4", "--eval-every", "0")
    assert result.exit_code == 0, result.output
    for name in ("checkpoint.pt", "network.npz", "metrics.csv", "strength.png"):
        assert (out / name).stat().st_size > 0, name
    net = load_network(out / "network.npz")
    assert net.meta["game"] == "royale" and net.meta["trainer"] == "dmc" and net.meta["games"] >= 40
    rows = _rows(out)
    assert rows and all(int(r["eval_games"]) == 4 for r in rows)
    # the trained file plays as a bot, through simulate
    sim = simulate("royale", [f"nn:{out / 'network.npz'}", "greedy"], games=2, seed=1, workers=1)
    assert sim.games == 2
    # an existing run is not overwritten; --resume continues it
    again = _train(tmp_path, *common, "--games", "60", "--eval-games", "4")
    assert again.exit_code == 2 and "--resume" in again.output
    resumed = _train(tmp_path, *common, "--games", "80", "--eval-games", "4", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert load_network(out / "network.npz").meta["games"] >= 80
    assert len(_rows(out)) > len(rows)


@needs_torch
def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    nets = []
    for run in ("a", "b"):
        out = tmp_path / run
        args = ["rank", "-n", "3", "-o", "tokens_to_win=1", "--seed", "9", "--out", str(out), "--games", "12"]
        result = _train(tmp_path, *args, "--batch-games", "3", "--hidden", "16", "--eval-games", "0")
        assert result.exit_code == 0, result.output
        nets.append(load_network(out / "network.npz"))
    for (wa, ba), (wb, bb) in zip(nets[0].weights, nets[1].weights, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    assert nets[0].meta["games"] == nets[1].meta["games"]


@needs_torch
def test_an_interrupted_run_leaves_a_loadable_checkpoint(tmp_path: Path) -> None:
    from courtcards.train import TrainConfig, Trainer

    out = tmp_path / "run"
    trainer = Trainer(TrainConfig("royale", 2, games=10_000, hidden=(16,), batch_games=4, eval_games=0), out)

    def interrupt(t: Trainer, row: Any) -> None:
        if t.games_done >= 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        trainer.run(interrupt)
    assert load_network(out / "network.npz").meta["games"] >= 20
    again = Trainer(TrainConfig("royale", 2, games=30, hidden=(16,), batch_games=4, eval_games=0), out)
    again.resume()
    assert again.games_done >= 20
    again.run()
    assert load_network(out / "network.npz").meta["games"] >= 30
    with pytest.raises(Exception, match="trained with hidden"):
        Trainer(TrainConfig("royale", 2, games=30, hidden=(8,), eval_games=0), out).resume()


@needs_torch
def test_simultaneous_choices_are_made_from_each_seats_own_view(tmp_path: Path) -> None:
    """Self-play records, for every seat deciding at a secret simultaneous choice, the tensor of its view
    taken before any seat's choice is applied."""
    from courtcards.train import TrainConfig, Trainer

    trainer = Trainer(TrainConfig("royale", 2, games=1, hidden=(8,), batch_games=1, eval_games=0), tmp_path)
    games = [trainer._deal()]
    trajectories: Trajectories = [[[], []]]
    simultaneous = 0
    for _ in range(200):
        state = games[0]
        movers = state.to_move()
        before = {s: state.observation_tensor(s).reshape(-1).copy() for s in movers}
        lengths = [len(t) for t in trajectories[0]]
        if trainer.selfplay_step(games, trajectories):
            break
        for s in movers:
            assert len(trajectories[0][s]) == lengths[s] + 1
            assert np.array_equal(trajectories[0][s][-1][0], before[s])
        simultaneous += len(movers) > 1
    assert simultaneous > 0


class _KeptDeals(SelfPlay):
    """SelfPlay that keeps every game it deals, to read the finished ones."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.dealt: list[Any] = []
        super().__init__(*args, **kwargs)

    def deal(self) -> Any:
        state = super().deal()
        self.dealt.append(state)
        return state


def test_a_teacher_plays_the_network_seats_moves_id_by_id() -> None:
    """With --teacher greedy at share 1 and no exploration, self-play is greedy's game, composite moves
    included (Rank Royale's greedy is deterministic), and every id the teacher chose is a sample."""
    game = get_game("royale")
    play = _KeptDeals(
        game, 2, {}, lambda obs: np.zeros((len(obs), 104), np.float32), np.random.default_rng(1), 5,
        epsilon=0.0, teacher="greedy", teacher_share=1.0,
    )  # fmt: skip
    games, trajectories = play.start(1)
    while not play.step(games, trajectories):
        pass
    finished = play.dealt[0]
    state = game.new_game(2, {}, seed=deal_seed(5, 0))
    bots = [make_bot("royale", "greedy", 100 + s) for s in range(2)]
    ids = 0
    composite = 0
    while not state.is_over():
        moves = {s: bot_move(bots[s], state, s) for s in state.to_move()}
        for s, move in moves.items():
            n = len(state.action_ids(move))
            ids, composite = ids + n, composite + (n > 1)
            state.apply(s, move)
    assert composite > 0
    assert finished.history == state.history
    assert len(play.ids) == ids


def test_no_teacher_draws_nothing_more() -> None:
    """Without a teacher (or at share 0) the generator's draws are those of plain self-play."""
    game = get_game("royale")
    rngs = []
    for teacher, share in ((None, 0.0), ("greedy", 0.0)):
        rng = np.random.default_rng(4)
        play = SelfPlay(game, 2, {}, lambda obs: np.ones((len(obs), 104), np.float32), rng, 1, teacher=teacher,
                        teacher_share=share)  # fmt: skip
        games, trajectories = play.start(2)
        for _ in range(30):
            play.step(games, trajectories)
        rngs.append(rng.random())
    assert rngs[0] == rngs[1]


@needs_torch
def test_the_imitation_loss_makes_the_teachers_ids_the_best_valued(tmp_path: Path) -> None:
    """DQfD's margin loss: on taught samples whose returns say nothing (all 0), learning makes each
    teacher's id the argmax; untaught samples get no such push."""
    import torch

    from courtcards.train import TrainConfig, Trainer

    results = {}
    for imitation in (0.0, 1.0):
        torch.manual_seed(0)
        cfg = TrainConfig("royale", 2, games=1, hidden=(64,), batch_size=8, lr=1e-3, eval_games=0,
                          teacher="greedy", teacher_share=1.0, imitation=imitation)  # fmt: skip
        trainer = Trainer(cfg, tmp_path / str(imitation))
        rng = np.random.default_rng(0)
        obs = [rng.normal(size=trainer.obs_size).astype(np.float32) for _ in range(8)]
        teacher_ids = [int(i) for i in rng.integers(trainer.num_actions, size=8)]
        for _ in range(200):
            trainer.pending_obs.extend(obs)
            trainer.pending_ids.extend(teacher_ids)
            trainer.pending_ret.extend([0.0] * 8)
            trainer.pending_seats.extend([0] * 8)
            trainer.pending_taught.extend([np.packbits(np.ones(trainer.num_actions, np.bool_))] * 8)
            trainer.learn()
        results[imitation] = trainer._values(np.stack(obs)).argmax(axis=1).tolist()
    assert results[1.0] == teacher_ids
    assert results[0.0] != teacher_ids


def _greedy_return(state: Any, seat: int, action_id: int, bots: dict[int, Any]) -> float:
    """``seat``'s return after ``action_id`` from a copy of ``state``, the game played on by ``bots`` through
    the seats' views (a composite move completed among the actions its ids begin)."""
    world = state.copy()
    world.apply_id(seat, action_id)
    while not world.is_over():
        p = world.to_move()[0]
        legal = world.legal_actions(p)
        prefix = world.id_prefix(p)
        legal = [a for a in legal if tuple(world.action_ids(a)[: len(prefix)]) == prefix]
        world.apply(p, bots[p].choose(world.view(p), legal))
    return float(world.returns()[seat])


@pytest.mark.parametrize(("game", "players", "options"), [("rank", 4, {"tokens_to_win": 1}), ("royale", 2, {})])
def test_rollout_samples_are_every_legal_ids_return_from_the_true_state(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """With --rollouts 1 a decision gives one sample per legal id, with the return of that id played from
    the true state and the game played on by greedy in every seat (as greedy plays from the seat's view);
    the decision gives no sample of the game's own return. Rank Royale's moves are composite: a rollout
    of a first id completes the move as greedy would among the moves that begin with it."""
    g = get_game(game)
    resolved = g.resolve_options(players, options)
    n = g.num_distinct_actions(players, resolved)
    play = SelfPlay(g, players, resolved, lambda obs: np.zeros((len(obs), n), np.float32), np.random.default_rng(2), 9,
                    epsilon=0.0, rollouts=1.0)  # fmt: skip
    games, trajectories = play.start(1)
    bots = {s: make_bot(game, "greedy", 0) for s in range(players)}
    checked = 0
    while checked < 6:
        before = games[0].copy()
        deciders = before.to_move()
        play.obs, play.ids, play.ret = [], [], []
        kept = [len(steps) for steps in trajectories[0]]
        if play.step(games, trajectories):
            continue
        legal = {s: before.legal_action_ids(s) for s in deciders}
        wanted = [(s, i) for s in deciders if len(legal[s]) > 1 for i in legal[s]]
        assert play.ids == [i for _, i in wanted]
        assert play.ret == [_greedy_return(before, s, i, bots) for s, i in wanted]
        for k, (s, _) in enumerate(wanted):
            assert np.array_equal(play.obs[k], before.observation_tensor(s).reshape(-1))
        for s in deciders:  # a decision rolled out gives no sample of the game's return; one with no choice does
            assert len(trajectories[0][s]) == kept[s] + (len(legal[s]) == 1)
        checked += bool(wanted)


@needs_torch
def test_a_training_with_rollouts_records_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["rank", "--players", "4", "--option", "tokens_to_win=1", "--seed", "3", "--out", str(out)]
    result = _train(tmp_path, *args, "--batch-games", "2", "--hidden", "16", "--games", "6", "--rollouts", "0.5",
                    "--eval-games", "0")  # fmt: skip
    assert result.exit_code == 0, result.output
    meta = load_network(out / "network.npz").meta
    assert meta["rollouts"] == 0.5 and meta["games"] >= 6


@needs_torch
def test_a_training_starts_from_the_init_networks_weights_and_refuses_one_that_does_not_fit(tmp_path: Path) -> None:
    start = tmp_path / "start.npz"
    _tiny_network(start, "royale", 2, seed=5)
    out = tmp_path / "run"
    args = ["royale", "--seed", "3", "--batch-games", "1", "--hidden", "16", "--games", "1", "--eval-games", "0"]
    result = _train(tmp_path, *args, "--out", str(out), "--init", str(start))
    assert result.exit_code == 0, result.output
    trained = load_network(out / "network.npz")  # one game: fewer samples than a learning step, no update
    assert trained.meta["init"] == "start.npz"
    for (w, b), (w0, b0) in zip(trained.weights, load_network(start).weights, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    other = tmp_path / "other.npz"
    _tiny_network(other, "royale", 2, {"max_rounds": 5})
    result = _train(tmp_path, *args, "--out", str(tmp_path / "b"), "--init", str(other))
    assert result.exit_code != 0 and "option max_rounds is None at this table, 5 in training" in result.output
    result = _train(tmp_path, *args[:5], "--hidden", "8", *args[7:], "--out", str(tmp_path / "c"), "--init", str(start))
    assert result.exit_code != 0 and "has hidden layers [16], this run [8]" in result.output
    assert not (tmp_path / "b" / "network.npz").exists()


@needs_torch
def test_a_taught_training_with_reuse_runs_and_records_how(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["royale", "--seed", "3", "--out", str(out), "--batch-games", "4", "--hidden", "16", "--games", "60"]
    taught = ["--teacher", "greedy", "--teacher-share", "0.5", "--imitation", "1", "--reuse", "3", "--replay", "4096"]
    result = _train(tmp_path, *args, *taught, "--eval-games", "0")
    assert result.exit_code == 0, result.output
    meta = load_network(out / "network.npz").meta
    assert (meta["teacher"], meta["teacher_share"], meta["imitation"], meta["reuse"]) == ("greedy", 0.5, 1.0, 3)
    assert meta["games"] >= 60
    import torch

    counters = torch.load(out / "checkpoint.pt", weights_only=False)["counters"]
    assert counters["samples"] >= 1024 and counters["updates"] == 3 * counters["samples"] // 1024


@needs_torch
def test_a_teacher_at_share_zero_teaches_nothing_and_is_not_recorded(tmp_path: Path) -> None:
    from courtcards.train import TrainConfig, Trainer

    for teacher, share in (("greedy", 0.0), (None, 0.5)):
        config = TrainConfig("royale", 2, seed=3, teacher=teacher, teacher_share=share, imitation=1.0, margin=0.2)
        meta = Trainer(config, tmp_path / "run").meta()
        assert (meta["teacher"], meta["teacher_share"], meta["imitation"], meta["margin"]) == (None, 0.0, 0.0, 0.0)


@needs_torch
def test_an_unknown_teacher_is_refused(tmp_path: Path) -> None:
    result = _train(tmp_path, "royale", "--games", "2", "--teacher", "nosuch", "--out", str(tmp_path / "r"))
    assert result.exit_code != 0 and "nosuch" in result.output
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
@needs_torch
@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_every_game_trains(tmp_path: Path, game: str) -> None:
    g = get_game(game)
    out = tmp_path / game
    result = _train(
        tmp_path, game, "-n", str(g.min_players), "--games", "2", "--batch-games", "2", "--hidden", "8",
        "--eval-games", "0", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    load_network(out / "network.npz").check_fits(g, g.min_players, {})
    state = g.new_game(g.min_players, seed=2)
    bot = make_bot(game, f"nn:{out / 'network.npz'}")
    seat = state.to_move()[0]
    assert bot_move(bot, state, seat) in state.legal_actions(seat)


def test_a_table_the_network_was_not_trained_for_is_refused_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    _tiny_network(path, "royale", 2)
    with pytest.raises(OptionError, match=r"option max_rounds is 5 at this table, None in training"):
        simulate("royale", [f"nn:{path}", "greedy"], games=1, options={"max_rounds": 5})
    assert simulate("royale", [f"nn:{path}", "greedy"], games=1).games == 1


def test_the_research_page_examples_of_loading_a_network_run() -> None:
    """docs/research.md: a shipped network driving the engine, a PettingZoo agent and an OpenSpiel state."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    text = (ROOT / "docs" / "research.md").read_text()
    part = text.split("### The network file", 1)[1].split("### Train from scratch", 1)[0]
    blocks = [b.split("```", 1)[0] for b in part.split("```python\n")[1:]]
    assert len(blocks) == 2
    scope: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "research.md", "exec"), scope)
    assert scope["state"].is_terminal() and sorted(scope["state"].returns()) == [-1.0, 1.0]


def test_the_cli_and_the_bots_do_not_import_torch() -> None:
    """Only `courtcards train` needs PyTorch: the other commands and the nn bot start without importing it."""
    code = "import sys, courtcards.cli.main, courtcards.bots; courtcards.bots.make_bot('royale', 'nn'); "
    code += "print('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"


# -- actor processes (--actors) -------------------------------------------------------------------------------
def _ended(pid: int) -> bool:
    """Whether process ``pid`` is gone (or a zombie: ended, not yet reaped by whoever adopted it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _wait_until(check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")


@needs_torch
def test_actors_play_the_games_the_learner_trains_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["royale", "--seed", "4", "--out", str(out), "--batch-games", "4", "--hidden", "16", "--actors", "2"]
    result = _train(tmp_path, *args, "--games", "150", "--eval-games", "2", "--eval-every", "0")
    assert result.exit_code == 0, result.output
    net = load_network(out / "network.npz")
    assert net.meta["actors"] == 2 and net.meta["games"] > 0
    last = _rows(out)[-1]
    assert last["actors"] == "2" and int(last["actor_samples"]) > 0 and int(last["updates"]) > 0
    assert multiprocessing.active_children() == []
    sim = simulate("royale", [f"nn:{out / 'network.npz'}", "greedy"], games=1, seed=1, workers=1)
    assert sim.games == 1


@needs_torch
def test_interrupted_actors_end_with_the_learner_and_resume(tmp_path: Path) -> None:
    from courtcards.train import TrainConfig, Trainer

    out = tmp_path / "run"

    def config(games: int) -> TrainConfig:
        return TrainConfig(
            "royale", 2, seed=6, games=games, hidden=(16,), batch_games=4, batch_size=128, eval_games=0, actors=2
        )

    trainer = Trainer(config(100_000), out)

    def interrupt(t: Trainer, row: Any) -> None:
        if t.updates >= 2 and len(t.actor_deals) == 2 and min(t.actor_deals) > 0:  # both actors sent games
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        trainer.run(interrupt)
    assert len(trainer.actor_pids) == 2 and all(_ended(pid) for pid in trainer.actor_pids)
    assert multiprocessing.active_children() == []
    assert not trainer.actors_imported_torch  # the actors play with the NumPy network
    assert load_network(out / "network.npz").meta["games"] == trainer.games_done > 0
    again = Trainer(config(trainer.games_done + 20), out)
    again.resume()
    assert again.actor_deals == trainer.actor_deals and again.actor_samples == trainer.actor_samples
    again.run()
    assert again.games_done >= trainer.games_done + 20 and again.actor_samples > trainer.actor_samples
    assert all(_ended(pid) for pid in again.actor_pids) and multiprocessing.active_children() == []


_KILLED_RUN = """
import sys
from pathlib import Path
from courtcards.train import TrainConfig, Trainer
config = TrainConfig("royale", 2, seed=7, minutes=5, hidden=(16,), batch_games=4, batch_size=128, eval_games=0,
                     checkpoint_every=0.3, actors=2)
Trainer(config, Path(sys.argv[1])).run()
"""


@pytest.mark.slow
@needs_torch
@needs_proc
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["ctrl-c", "term", "kill"])
def test_a_killed_learner_leaves_a_loadable_checkpoint_and_no_actor(tmp_path: Path, sig: signal.Signals) -> None:
    """SIGTERM and SIGKILL to the learner; Ctrl-C as a terminal sends it, to the whole process group."""
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_RUN, str(out)], cwd=ROOT, stderr=subprocess.PIPE, start_new_session=True
    )
    try:

        def trained() -> bool:
            try:
                return int(load_network(out / "network.npz").meta["games"]) > 0
            except NetworkError:
                return False

        assert _wait_until(lambda: trained() or proc.poll() is not None, 120), "no checkpoint with games"
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        children = _children(proc.pid)
        assert len(children) >= 2  # the actors (and multiprocessing's resource tracker)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        proc.wait(timeout=30)
        assert _wait_until(lambda: all(_ended(pid) for pid in children), 20), "an actor outlived its learner"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    net = load_network(out / "network.npz")
    assert net.meta["games"] > 0 and net.meta["actors"] == 2
    state = torch_load(out / "checkpoint.pt")
    # the deal counters of the actors whose games reached the learner before the last save (one may not have)
    assert state["counters"]["actor_samples"] > 0 and 1 <= len(state["counters"]["actor_deals"]) <= 2


def torch_load(path: Path) -> Any:
    import torch

    return torch.load(path, weights_only=False)
