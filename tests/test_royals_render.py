"""The Royals terminal renderer shows one seat's view and never another seat's secrets."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console

from courtcards.core.game import get_game
from courtcards.games.royals import render as R
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def text_of(fn: Callable[..., None], *args: object) -> str:
    console = Console(record=True, width=160)
    fn(console, *args)
    return console.export_text()


def fight_position() -> RoyalsState:
    state = G.state_from_json({
        "hands": [["2D", "9D"], ["2S", "4S"], ["5H", "6H"], []],
        "royals": [[], ["QH 7H", "KS 9S"], ["JC 2C"], []],
    })
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
    assert lines == ["Seat 0 has committed (hidden until the reveal)"]  # RY-4: the engine's public sentence
    assert "9D" not in text_of(R.render_view, after)
    own = R.describe_event(state.view(0) | {"log": before["log"]}, state.view(0), 0, "commit 9D")
    assert own == ["Seat 0 (you) commits 9D (hidden until the reveal)"]  # the committer's secret wording
    assert "You chose: commit 9D" in text_of(R.render_view, state.view(0))


def test_reveal_and_end_are_described() -> None:
    state = fight_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 9D")
    state.apply(1, "commit none")
    before = state.view(None)
    state.apply(2, "commit 6H")
    lines = R.describe_event(before, state.view(None), 2, "commit 6H")
    assert lines == ["Seat 2 has committed; revealed: seat 0 9D, seat 1 nothing, seat 2 6H (attacks 6 9, blocks none); "
                     "seat 1 takes 2 hits"]
    assert any("takes 2 hits" in line for line in lines)


def test_new_log_lines_survive_a_truncated_log() -> None:
    def view(*ns: int) -> dict[str, object]:
        return {"seat": 1, "log": [{"n": n, "seat": None, "text": f"seat {n % 3} did {n}"} for n in ns]}

    assert R.describe_event(view(1, 2, 3), view(2, 3, 4), 0, "done") == ["Seat 1 (you) did 4"]
    assert R.describe_event(view(), view(1), 0, "done") == ["Seat 1 (you) did 1"]
    assert R.describe_start(view(5, 6)) == ["Seat 2 did 5", "Seat 0 did 6"]
