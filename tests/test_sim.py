"""The simulation runner: seat rotation, reproducible statistics, clear errors."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from courtcards.cli.simulate import register
from courtcards.core.errors import OptionError
from courtcards.sim import GameOutcome, SimResult, play_one, seat_kinds, simulate


def test_seat_kinds_shift_by_the_game_number() -> None:
    bots = ["a", "b", "c", "d"]
    assert seat_kinds(bots, 0) == ("a", "b", "c", "d")
    assert seat_kinds(bots, 1) == ("d", "a", "b", "c")
    assert seat_kinds(bots, 6) == ("c", "d", "a", "b")
    # over n consecutive games every kind sits in every seat once
    for seat in range(4):
        assert sorted(seat_kinds(bots, i)[seat] for i in range(3, 7)) == bots


def test_games_use_the_rotated_seats() -> None:
    out = play_one("rank", ["greedy", "random", "random", "random"], 2, seed=1, options={"tokens_to_win": 2})
    assert out.kinds == ("random", "random", "greedy", "random")
    assert sorted(out.ranking) == [0, 1, 2, 3]
    assert out.winner == out.ranking[0]
    assert out.actions > 0


def test_stats_add_up() -> None:
    result = SimResult("rank", 4, {}, ("x", "y", "y", "y"), 0)
    result.add(GameOutcome(("x", "y", "y", "y"), (0, 2, 1, 3), 0, 100))
    result.add(GameOutcome(("y", "x", "y", "y"), (3, 1, 0, 2), 3, 300))
    x, y = result.stats["x"], result.stats["y"]
    assert (x.games, x.seats, x.wins, x.avg_position, x.avg_length) == (2, 2, 1, 1.5, 200.0)
    assert (y.games, y.seats, y.wins, y.win_share, y.win_rate_per_seat) == (2, 6, 1, 0.5, 1 / 6)
    assert y.avg_position == (3 + 2 + 4 + 1 + 3 + 4) / 6  # positions are 1-based
    assert result.avg_length == 200.0


def test_stats_are_deterministic_for_a_seed() -> None:
    args: dict[str, Any] = {"games": 12, "options": {"tokens_to_win": 2}}
    first = simulate("rank", ["greedy", "random", "random", "random"], seed=4, **args)
    again = simulate("rank", ["greedy", "random", "random", "random"], seed=4, **args)
    parallel = simulate("rank", ["greedy", "random", "random", "random"], seed=4, workers=2, chunk=3, **args)
    other = simulate("rank", ["greedy", "random", "random", "random"], seed=5, **args)
    assert first.stats == again.stats == parallel.stats
    assert first.total_actions == again.total_actions == parallel.total_actions
    assert other.total_actions != first.total_actions
    greedy = first.stats["greedy"]
    assert greedy.games == greedy.seats == 12
    assert first.stats["random"].seats == 36
    assert sum(s.wins for s in first.stats.values()) + first.draws == 12


def test_all_random_positions_average_to_the_middle() -> None:
    result = simulate("rank", ["random"], 6, seed=2, num_players=5, options={"tokens_to_win": 2})
    st = result.stats["random"]
    assert st.seats == 30
    assert st.avg_position == 3.0  # (1 + ... + 5) / 5 per game


def test_runs_any_registered_game() -> None:
    result = simulate("royale", ["random", "random"], 4, seed=1, options={"max_rounds": 30})
    assert result.games == 4
    assert result.stats["random"].seats == 8


def test_bad_bot_kind_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="unknown bot 'cleverest' for rank; valid bots: .*greedy.*random"):
        simulate("rank", ["greedy", "cleverest", "random", "random"], 1)
    with pytest.raises(OptionError, match="3 bots given for 4 players"):
        simulate("rank", ["greedy", "random", "random"], 1, num_players=4)


def test_simulate_command_prints_a_table() -> None:
    app = typer.Typer()

    @app.command()
    def noop() -> None:  # a second command so that "simulate" is a subcommand
        """Nothing."""

    register(app)
    runner = CliRunner()
    ok = runner.invoke(
        app,
        [
            "simulate",
            "rank",
            "--players",
            "4",
            "--bots",
            "greedy,random,random,random",
            "--games",
            "4",
            "--seed",
            "1",
            "--option",
            "tokens_to_win=2",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert "greedy" in ok.output and "win share" in ok.output
    assert "--games 4 --seed 1 --option tokens_to_win=2" in ok.output
    bad = runner.invoke(app, ["simulate", "rank", "--bots", "greedy,nope,random,random", "--games", "2"])
    assert bad.exit_code == 2
    assert "valid bots" in bad.output


PLAYER_COUNTS = [
    ("rank", 3),
    ("rank", 5),
    ("rank", 8),
    ("rank", 12),
    ("kqp", 4),
    ("kqp", 9),
    ("royals", 3),
    ("royals", 6),
]
QUICK_OPTIONS = {"rank": ["--option", "tokens_to_win=1"], "kqp": ["--option", "rounds=1"], "royals": []}


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_simulate_command_plays_any_table_size(game: str, players: int) -> None:
    app = typer.Typer()

    @app.command()
    def noop() -> None:
        """Nothing."""

    register(app)
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            game,
            "--players",
            str(players),
            "--bots",
            "greedy",
            "--games",
            "2",
            "--workers",
            "1",
            *QUICK_OPTIONS[game],
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert f"{players} players, 2 games" in result.output
    assert f"--players {players} --bots {','.join(['greedy'] * players)}" in result.output


def test_simulate_infers_the_table_size_from_the_bots() -> None:
    result = simulate("rank", ["greedy", "random", "random", "random", "random"], 2, options={"tokens_to_win": 1})
    assert result.num_players == 5 and result.stats["random"].seats == 8


class _Recorder:
    def __init__(self, needs_view: bool | None) -> None:
        if needs_view is not None:
            self.needs_view = needs_view
        self.views: list[dict[str, Any]] = []

    def choose(self, view: dict[str, Any], legal: Any) -> Any:
        self.views.append(view)
        return legal[0]


def test_bots_that_need_no_view_get_none() -> None:
    from courtcards.bots.base import RandomBot, bot_move
    from courtcards.core.game import get_game

    state = get_game("rank").new_game(4, seed=1)
    seat = state.to_move()[0]
    blind, old, sighted = _Recorder(False), _Recorder(None), _Recorder(True)
    for bot in (blind, old, sighted):
        bot_move(bot, state, seat)
    assert blind.views == [{}]
    assert old.views == sighted.views == [state.view(seat)]  # bots without the attribute still see the view
    assert RandomBot.needs_view is False
