"""The generic terminal renderer: a game that declares no terminal renderer plays in the terminal from its
view and legal moves alone; seats are numbered from 1 for the player; tournaments are a game's capability."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from courtcards.cli.main import app
from courtcards.cli.play import PlaySession, setup_session
from courtcards.core.events import NOTE, fill
from courtcards.core.game import Game, get_game
from courtcards.render import TerminalRenderer, get_renderer
from courtcards.render.seats import event_sentence, seat_refs, seats_numbered_from, sentence

runner = CliRunner()


def without_terminal_profile(monkeypatch: pytest.MonkeyPatch, game: Game[Any]) -> None:
    """``game`` as a plug-in that declares no terminal renderer (its other profiles, the bots among them, stay)."""
    profile = type(game).profile
    monkeypatch.setattr(
        type(game), "profile", lambda self, layer: None if layer == "terminal" else profile(self, layer)
    )


# (game, players, options): small games, one of them a game of secret simultaneous choices
GAMES = [("rank", 4, ["tokens_to_win=1"]), ("kqp", 4, ["rounds=1"]), ("royale", 2, []), ("royals", 3, [])]


@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_without_a_terminal_renderer_plays_to_its_end(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    players: int,
    options: list[str],
) -> None:
    game = get_game(name)
    without_terminal_profile(monkeypatch, game)
    assert get_renderer(name).is_generic
    rng = random.Random(3)
    holder: list[PlaySession] = []
    offered: list[list[str]] = []

    def answer(_prompt: str) -> str:
        legal = holder[0].shown_legal()
        offered.append(legal)
        return "board" if len(offered) == 2 else rng.choice(legal)

    out = Console(file=io.StringIO(), width=200, color_system=None)
    session = setup_session(
        name, players=players, seed=5, options=options, console=out, input_fn=answer, record=tmp_path / "g.json"
    )
    holder.append(session)
    assert type(session.renderer) is TerminalRenderer
    assert session.run() == 0
    assert session.state.is_over()
    text = out.file.getvalue()  # type: ignore[attr-defined]
    # the board: the title and the round word, a row per player (seats from 1, "You" for the player), the hand
    assert re.search(rf"{re.escape(game.title)} · {game.info.round_word} \d+", text)
    assert re.search(r"^\s*▶?\s*You\b", text, re.M) and re.search(rf"\bSeat {players}\b", text)
    assert "Seat 0" not in text and "seat 0" not in text
    assert "Your hand" in text and "Your turn." in text and "Lately:" in text
    # the legal moves: every move offered at the first prompt is listed
    first = text.index("Your moves: ")
    listed = text[first : text.index("\n", first)]
    for move in offered[0][:40]:
        assert move in listed
    # what happened, in the engine's words with seats numbered from 1, then the end
    assert "Game over." in text and "Game record saved" in text


def test_the_command_line_shows_the_generic_board(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    without_terminal_profile(monkeypatch, get_game("royale"))
    res = runner.invoke(
        app, ["play", "royale", "--seed", "2", "--record", str(tmp_path / "g.json")], input="moves\nboard\nquit\n"
    )
    assert res.exit_code == 0, res.output
    assert "Rank Royale · Round 1" in res.output and "You are seat 1. Bots: seat 2 " in res.output
    assert "hand size" in res.output and "Your moves: " in res.output and "You quit the game." in res.output


def test_a_renderer_that_is_not_a_terminal_renderer_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("royale")
    monkeypatch.setattr(type(game), "profile", lambda self, layer: object())
    with pytest.raises(TypeError, match="must be a courtcards.render.TerminalRenderer"):
        get_renderer(game)


# -- seats as a player reads them ----------------------------------------------------------------------------
def test_engine_sentences_number_seats_from_1_and_mark_the_viewer() -> None:
    assert seat_refs(None, "seat 0 passes: seat 2 wins the pile.") == "seat 1 passes: seat 3 wins the pile."
    assert seat_refs(0, "seat 0 passes.") == "seat 1 (you) passes."
    assert (
        seat_refs(3, "The King (seat 0) steals from the Beggar (seat 3).")
        == "The King (seat 1) steals from the Beggar (you)."
    )
    assert (
        seat_refs(0, "seat 0 (King) gives back to seat 3 (Pauper-2) 3 G.")
        == "seat 1 (you, King) gives back to seat 4 (Pauper-2) 3 G."
    )
    assert (
        seat_refs(0, "Seat 2 hands C2 to seat 0 (Classic President).")
        == "Seat 3 hands C2 to seat 1 (you) (Classic President)."
    )
    assert seat_refs(0, "9 cards to seats 2, 0 and 4 (deal)") == "9 cards to seats 3, 1 (you) and 5 (deal)"
    assert seat_refs(1, "(seat 0 and seat 1)") == "(seat 1 and seat 2 (you))"
    assert (
        seat_refs(None, "seat 2 attacks seat 1 (to commit: seat 0 2, seat 1 3)")
        == "seat 3 attacks seat 2 (to commit: seat 1 2, seat 2 3)"
    )
    assert sentence({"seat": 1}, "seat 1 leads.") == "Seat 2 (you) leads."
    with seats_numbered_from(0):  # agents and environments: the engine's numbering
        assert sentence({"seat": 1}, "seat 1 leads.") == "Seat 1 (you) leads."
    assert seat_refs(None, "seat 1 leads.") == "seat 2 leads."


def _event(template: str, data: dict[str, Any], kind: str = "play") -> dict[str, Any]:
    return {"n": 1, "seat": None, "kind": kind, "template": template, "data": data, "text": fill(template, data)}


def test_events_are_named_from_their_data_not_their_prose() -> None:
    king = _event("The King ({to}) steals 7 from the Beggar ({from}).", {"to": 0, "from": 3})
    assert event_sentence({"seat": 3}, king) == "The King (seat 1) steals 7 from the Beggar (you)."
    assert event_sentence({"seat": None}, king) == "The King (seat 1) steals 7 from the Beggar (seat 4)."
    role = _event("{giver} (King) gives back to {taker} (Pauper-2) 3 G.", {"giver": 0, "taker": 3})
    assert event_sentence({"seat": 0}, role) == "Seat 1 (you, King) gives back to seat 4 (Pauper-2) 3 G."
    listed = _event("9 cards to {more.0}, {more.1} and {more.2}.", {"more": [2, 0, 4]})
    assert event_sentence({"seat": 0}, listed) == "9 cards to seat 3, seat 1 (you) and seat 5."
    steps = _event("{steps.0.seat} attacks {steps.1.seat}.", {"steps": [{"seat": 1}, {"seat": 2}]})
    assert event_sentence({"seat": 2}, steps) == "Seat 2 attacks seat 3 (you)."
    # words of the template that look like a seat are not one: only the data's seats are named
    prose = _event("{seat} plays the seat 5 card.", {"seat": 1})
    assert event_sentence({"seat": 1}, prose) == "Seat 2 (you) plays the seat 5 card."
    with seats_numbered_from(0):  # agents and environments: the engine's numbering
        assert event_sentence({"seat": 1}, prose) == "Seat 1 (you) plays the seat 5 card."
    # no template (a log saved before events were data) or a bare note: the sentence is rewritten
    assert event_sentence({"seat": 1}, {"n": 1, "seat": None, "text": "seat 1 leads."}) == "Seat 2 (you) leads."
    assert event_sentence({"seat": 1}, _event("seat 1 leads.", {}, NOTE)) == "Seat 2 (you) leads."


def test_seat_takes_1_to_n_and_the_header_numbers_from_1(tmp_path: Path) -> None:
    session = setup_session(
        "royale",
        seat=1,
        seed=2,
        console=Console(file=io.StringIO(), color_system=None),
        input_fn=lambda _p: "quit",
        record=tmp_path / "g.json",
    )
    assert session.human == 1
    res = runner.invoke(
        app, ["play", "royale", "--seat", "2", "--seed", "2", "--record", str(tmp_path / "h.json")], input="quit\n"
    )
    assert res.exit_code == 0 and "You are seat 2. Bots: seat 1 " in res.output
    for bad in ("0", "3"):
        res = runner.invoke(app, ["play", "royale", "--seat", bad, "--record", str(tmp_path / "x.json")])
        assert res.exit_code == 2 and f"--seat must be a seat 1..2, not {bad}" in res.output


# -- tournaments: a game's capability ---------------------------------------------------------------------------
def test_tournaments_are_offered_by_the_games_that_declare_them(tmp_path: Path) -> None:
    res = runner.invoke(app, ["tournament", "rank"])
    assert res.exit_code == 2
    assert "Rank has no tournaments; games with tournaments: kqp (King Queens & Paupers)" in res.output
    out = tmp_path / "t.json"
    res = runner.invoke(app, ["tournament", "kqp", "--players", "10", "--rounds", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Winner: P" in res.output and out.exists()
    res = runner.invoke(app, ["tournament", "kqp", "--replay", str(out)])
    assert res.exit_code == 0 and "replays" in res.output
    res = runner.invoke(app, ["tournament", "kqp", "--players", "3"])
    assert res.exit_code == 2 and "at least 4 players" in res.output
