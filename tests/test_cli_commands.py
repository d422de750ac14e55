"""The terminal's command words never shadow a move, and quit stays reachable (issue #25)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from courtcards.cli.play import COMMAND_OF, COMMAND_WORDS, COMMANDS, PlaySession, setup_session
from courtcards.core.game import game_names, get_game
from courtcards.core.record import GameRecord
from courtcards.render import get_renderer


def console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None)


def typed(text: str) -> str:
    """A line as the prompt compares it with the command words (case does not matter)."""
    return text.strip().lower()


def test_the_command_words_come_from_one_list() -> None:
    assert set(COMMAND_OF) == {w for words in COMMANDS.values() for w in words}
    assert set(COMMAND_WORDS) == set(COMMANDS)
    assert {"quit", "exit"} <= {w for w, c in COMMAND_OF.items() if c == "quit"}


@pytest.mark.parametrize("name", game_names())
def test_no_command_word_is_a_legal_move_of_any_game(name: str) -> None:
    game = get_game(name)
    renderer = get_renderer(game)
    seen: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        for seed in (1, 2, 3):
            state = game.new_game(players, {}, seed)
            rng = random.Random(seed)
            while not state.is_over():
                movers = state.to_move()
                for seat in movers:
                    texts = [a.text for a in state.legal_actions(seat)]
                    view = state.view(seat)
                    seen.update(typed(t) for t in texts + [renderer.move_text(view, t) for t in texts])  # as typed
                seat = movers[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen, name
    assert not seen & set(COMMAND_OF), f"{name}: moves read as commands: {sorted(seen & set(COMMAND_OF))}"


def test_typing_q_plays_the_queen_in_kqp(tmp_path: Path) -> None:
    # `courtcards play kqp --players 4 --seed 16`, then `Q`: a single Queen is legal, so `Q` plays it (not quit)
    holder: list[PlaySession] = []
    lines: list[str] = []

    def answer(_prompt: str) -> str:
        legal = holder[0].human_legal()
        line = "Q" if "Q" in legal and not lines else "quit"
        lines.append(line)
        return line

    session = setup_session("kqp", players=4, seed=16, console=console(), input_fn=answer, record=tmp_path / "g.json")
    holder.append(session)
    assert session.run() == 0
    assert lines == ["Q", "quit"]  # the Queen was legal at the first prompt, and the game went on after it
    record = GameRecord.load(tmp_path / "g.json")
    assert (0, "Q") in [(s, t) for s, t in record.actions]


@pytest.mark.parametrize("word", ["quit", "QUIT", "exit", "Exit"])
def test_quit_words_stop_and_save(tmp_path: Path, word: str) -> None:
    session = setup_session(
        "kqp", players=4, seed=16, console=console(), input_fn=lambda _p: word, record=tmp_path / "g.json"
    )
    assert session.run() == 0
    assert session.saved == tmp_path / "g.json" and not session.state.is_over()


def test_ctrl_c_stops_and_saves(tmp_path: Path) -> None:
    def interrupt(_prompt: str) -> str:
        raise KeyboardInterrupt

    session = setup_session(
        "kqp", players=4, seed=16, console=console(), input_fn=interrupt, record=tmp_path / "g.json"
    )
    assert session.run() == 130
    assert session.saved == tmp_path / "g.json"
