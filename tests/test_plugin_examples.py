"""The proof of issue #26: a game written outside courtcards (examples/plugin-game, ``fivetricks``, which
declares no profile at all) and a rule variant of Rank defined outside the engine (examples/rank-variant,
``rank_knights``, through Rank's hook points) work everywhere a built-in game does, with no edit outside
their folders: terminal play, simulate, analyze, the ladder, the search bot, the conformance suite,
PettingZoo's and Gymnasium's checks and OpenSpiel (the server and the browser: test_server_plugins.py
and tests/browser/test_plugin_browser.py)."""

from __future__ import annotations

import io
import json
import random
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from plugin_examples import register_examples
from rich.console import Console
from typer.testing import CliRunner

import courtcards.envs.gymnasium as ccgym
from courtcards.bots.base import bot_kinds, make_bot
from courtcards.cli.main import app
from courtcards.cli.play import PlaySession, setup_session
from courtcards.core.conformance import check_playout, random_playout
from courtcards.core.game import Game, get_game
from courtcards.envs.pettingzoo import env as pz_env
from courtcards.render import get_renderer

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def examples() -> list[Game[Any]]:
    return register_examples()


def cli(*args: str) -> str:
    res = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    return res.output


def test_found_by_name_with_the_facts_they_declare() -> None:
    five, knights = get_game("fivetricks"), get_game("rank_knights")
    assert (five.title, five.min_players, five.max_players, five.info.round_word) == ("Five Tricks", 2, 4, "Trick")
    assert five.info.profiles == {} and knights.info.profiles == get_game("rank").info.profiles
    assert "fivetricks" in cli("games") and "rank_knights" in cli("games")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_conformance_suite(players: int) -> None:
    check_playout(get_game("fivetricks"), players, {}, seed=players)
    state = random_playout(get_game("fivetricks"), players, {"hand_size": 3}, seed=11)
    assert state.is_over() and state.result() is not None


def test_the_variant_conforms_and_its_knights_gain_tokens() -> None:
    knights = get_game("rank_knights")
    check_playout(knights, 5, {"tokens_to_win": 3}, seed=2)
    state = random_playout(knights, 5, {"tokens_to_win": 3}, seed=4)
    first = state.to_json()["hands_log"][0]
    finish, tokens = first["finish"], first["tokens"]
    assert [tokens[s] for s in finish] == [2, 1, 1, 1, 0]  # King, Queen, two Knights (+1 each), Beggar


def test_played_in_the_terminal_with_the_generic_renderer(tmp_path: Path) -> None:
    assert get_renderer("fivetricks").is_generic and not get_renderer("rank_knights").is_generic
    rng = random.Random(1)
    holder: list[PlaySession] = []
    out = Console(file=io.StringIO(), width=200, color_system=None)
    session = setup_session(
        "fivetricks",
        players=3,
        seed=5,
        options=[],
        console=out,
        input_fn=lambda _prompt: rng.choice(holder[0].shown_legal()),
        record=tmp_path / "g.json",
    )
    holder.append(session)
    assert session.run() == 0 and session.state.is_over()
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Five Tricks · Trick" in text and "Your moves: " in text and "Game over." in text
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["game"] == "fivetricks" and len(saved["actions"]) == 15 and saved["result"]


@pytest.mark.parametrize(
    ("name", "bots"), [("fivetricks", "random,ismcts:40,random"), ("rank_knights", "greedy,greedy,ismcts:20")]
)
def test_simulate(name: str, bots: str) -> None:
    options = ["--option", "tokens_to_win=1"] if name == "rank_knights" else []
    out = cli("simulate", name, "--players", "3", "--bots", bots, "--games", "3", "--workers", "1", *options)
    assert f"{name}, 3 players, 3 games (seed 0)" in out and "3 games, " in out
    assert all(kind in out for kind in bots.split(","))


@pytest.mark.parametrize("name", ["fivetricks", "rank_knights"])
def test_analyze(name: str, tmp_path: Path) -> None:
    options = ["--option", "tokens_to_win=1"] if name == "rank_knights" else []
    report = tmp_path / "r.json"
    cli("analyze", name, "--players", "3", "--games", "12", "--workers", "1", "--json", str(report), *options)
    data = json.loads(report.read_text())
    text = json.dumps(data)
    assert "seat" in text.lower() and ("length" in text.lower() or "actions" in text.lower())


def test_ladder() -> None:
    out = cli(
        "ladder",
        "fivetricks",
        "--bots",
        "random,ismcts:40",
        "--games",
        "6",
        "--players",
        "2",
        "--workers",
        "1",
        "--json",
    )
    ladder = json.loads(out[out.index("{") :])
    assert {"random", "ismcts:40"} <= set(json.dumps(ladder).replace('"', " ").split())


def test_the_search_bot_plays_with_the_generic_profile() -> None:
    assert bot_kinds("fivetricks") == ["aggressive", "cautious", "ismcts", "noisy", "random"]  # with the strangers
    game = get_game("fivetricks")
    state = game.new_game(3, seed=8)
    bot = make_bot("fivetricks", "ismcts:60", seed=1)
    again = make_bot("fivetricks", "ismcts:60", seed=1)
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        choice = bot.choose(state.view(seat), legal)
        assert choice in legal and again.choose(state.view(seat), legal) == choice  # seeded: reproducible
        state.apply(seat, choice)


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pz_env("fivetricks", 3), num_cycles=40)
        api_test(pz_env("rank_knights", 3, {"tokens_to_win": 1}), num_cycles=40)


def test_gymnasium_check_env() -> None:
    ids = ccgym.register_envs()
    assert "courtcards/FiveTricks-v0" in ids and "courtcards/RankKnights-v0" in ids
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym.make("courtcards/FiveTricks-v0", num_players=3).unwrapped)
        check_env(gym.make("courtcards/RankKnights-v0", num_players=3, options={"tokens_to_win": 1}).unwrapped)


def test_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from courtcards.envs import openspiel

    names = openspiel.register()
    assert "courtcards_fivetricks" in names and "courtcards_rank_knights" in names
    game = pyspiel.load_game("courtcards_fivetricks(players=3)")
    assert game.num_players() == 3 and game.get_type().short_name == "courtcards_fivetricks"
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    variant = pyspiel.load_game("courtcards_rank_knights(players=3,tokens_to_win=1)")
    pyspiel.random_sim_test(variant, num_sims=1, serialize=False, verbose=False)
