"""The Royals terminal renderer shows one seat's view and never another seat's secrets."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from courtcards.cli.play import setup_session
from courtcards.core.game import get_game
from courtcards.games.royals import render as R
from courtcards.games.royals.state import RoyalsState
from courtcards.render import seats_numbered_from

G = get_game("royals")


def text_of(fn: Callable[..., None], *args: object) -> str:
    console = Console(record=True, width=160)
    fn(console, *args)
    return console.export_text()


def fight_position() -> RoyalsState:
    state = G.state_from_json(
        {
            "hands": [["2D", "9D"], ["2S", "4S"], ["5H", "6H"], []],
            "royals": [[], ["QH 7H", "KS 9S"], ["JC 2C"], []],
        }
    )
    assert isinstance(state, RoyalsState)
    return state


def test_board_shows_own_hand_and_public_royals_only() -> None:
    state = fight_position()
    out = text_of(R.render_view, state.view(0))
    assert "Your hand: 2D 9D" in out and "QH/7H" in out and "JC/2C" in out
    assert "5H" not in out and "4S" not in out  # seats 1 and 2 hold these


def test_commitments_stay_hidden_until_the_reveal() -> None:
    state = fight_position()
    state.apply(0, "attack 1")
    before = state.view(2)
    state.apply(0, "commit 9D")
    after = state.view(2)
    lines = R.describe_event(before, after, 0, "commit 9D")
    assert lines == ["Seat 1 has committed (hidden until the reveal)"]  # RY-4: the engine's sentence, seats from 1
    assert "9D" not in text_of(R.render_view, after)
    own = R.describe_event(state.view(0) | {"log": before["log"]}, state.view(0), 0, "commit 9D")
    assert own == ["Seat 1 (you) commits 9D (hidden until the reveal)"]  # the committer's secret wording
    assert "You chose: commit 9D" in text_of(R.render_view, state.view(0))


def test_reveal_and_end_are_described() -> None:
    state = fight_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 9D")
    state.apply(1, "commit none")
    before = state.view(None)
    state.apply(2, "commit 6H")
    lines = R.describe_event(before, state.view(None), 2, "commit 6H")
    assert lines == [
        "Seat 3 has committed; revealed: seat 1 9D, seat 2 nothing, seat 3 6H (attacks 6 9, blocks none); "
        "seat 2 takes 2 hits"
    ]
    assert any("takes 2 hits" in line for line in lines)


def test_new_log_lines_survive_a_truncated_log() -> None:
    def view(*ns: int) -> dict[str, object]:
        return {"seat": 1, "log": [{"n": n, "seat": None, "text": f"seat {n % 3} did {n}"} for n in ns]}

    assert R.describe_event(view(1, 2, 3), view(2, 3, 4), 0, "done") == ["Seat 2 (you) did 4"]
    assert R.describe_event(view(), view(1), 0, "done") == ["Seat 2 (you) did 1"]
    assert R.describe_start(view(5, 6)) == ["Seat 3 did 5", "Seat 1 did 6"]


def test_a_seat_in_a_move_is_read_and_typed_numbered_from_1(tmp_path: Path) -> None:
    # "attack 1" attacks engine seat 1, which the board calls seat 2: the player reads and types "attack 2"
    state = fight_position()
    view = state.view(0)
    legal = [a.text for a in state.legal_actions(0)]
    assert "attack 1" in legal and R.RENDERER.move_text(view, "attack 1") == "attack 2"
    assert R.RENDERER.move_text(view, "assassinate 1 QH") == "assassinate 2 QH"
    assert R.RENDERER.read_move(view, "ATTACK 2") == "ATTACK 1"
    assert R.RENDERER.read_move(view, "commit 9D") == "commit 9D"
    with seats_numbered_from(0):
        assert R.RENDERER.move_text(view, "attack 1") == "attack 1"
    shown = Console(file=io.StringIO(), width=160, color_system=None)
    R.RENDERER.moves(shown, view, legal)
    assert "attack 2" in shown.file.getvalue() and "attack 0" not in shown.file.getvalue()  # type: ignore[attr-defined]
    # at the terminal: typing "attack 2" attacks the seat the board calls seat 2
    typed: list[str] = []
    session = setup_session(
        "royals",
        players=4,
        seed=1,
        console=Console(file=io.StringIO(), color_system=None),
        input_fn=lambda _p: typed.pop(0) if typed else "quit",
        record=tmp_path / "g.json",
    )
    session.state = state
    session._view = state.view(0)
    assert "attack 2" in session.shown_legal() and "attack 1" not in session.shown_legal()
    typed.append("attack 2")
    assert session._human_turn()
    assert state.history[-1] == (0, "attack 1")
