"""Rules the suite did not pin down before (issue 11): each would let a one-line bug
through. Explicit positions, exact outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from courtcards.core.errors import IllegalActionError
from courtcards.core.game import get_game
from courtcards.games.kqp.state import KqpState
from courtcards.games.royals.state import RoyalsState


def royals_pos(hands: list[str], royals: list[list[str]], **fields: Any) -> RoyalsState:
    state = get_game("royals").state_from_json({"hands": [h.split() for h in hands], "royals": royals, **fields})
    assert isinstance(state, RoyalsState)
    return state


def test_assassination_black_card_of_equal_value_stops_the_attack() -> None:
    # RY-5 with RY-4: a block cancels an attack of equal or lower value
    state = royals_pos(["9D", "9S", "4S"], [[], ["QH 7H"], []])
    state.apply(0, "assassinate 1 QH")
    state.apply(0, "commit 9D")
    state.apply(1, "commit 9S")
    assert state.card_places()["royals:1"] == ["QH", "7H"]  # no hit
    assert state.turn == 1 and state.phase == "action"


def test_assassination_black_card_one_lower_does_not_stop_it() -> None:
    # RY-5: the twin of the test above, one value apart
    state = royals_pos(["9D", "8S", "4S"], [[], ["QH 7H"], []])
    state.apply(0, "assassinate 1 QH")
    state.apply(0, "commit 9D")
    state.apply(1, "commit 8S")
    # one hit on QH 7H; no heart in hand to put under it, so it is discarded (RY-6)
    assert state.card_places()["royals:1"] == []


def test_a_player_with_no_card_in_hand_cannot_assassinate() -> None:
    # RY-5: the assassin commits one card; with none there is no assassination
    state = royals_pos(["", "9H", "4S"], [[], ["QH 7H"], []])
    assert state.turn == 0
    legal = {a.text for a in state.legal_actions(0)}
    assert not any(t.startswith("assassinate") for t in legal)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(0, "assassinate 1 QH")
    assert state.to_json() == before


def kqp_pile(hands: list[list[str]], top: list[str], owner: int, turn: int) -> KqpState:
    state = get_game("kqp").state_from_json({"hands": hands, "pile": {"cards": top, "owner": owner}, "turn": turn})
    assert isinstance(state, KqpState)
    return state


def test_a_pair_of_queens_needs_two_queens() -> None:
    # KQ-5: "both Queens together on any double": one Queen and another card is no pair of Queens
    state = kqp_pile([["3"], ["Q", "4", "4"], ["3"], ["3"]], ["G", "G"], 0, 1)
    assert [a.text for a in state.legal_actions(1)] == ["pass"]
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(1, "Q Q")
    with pytest.raises(IllegalActionError):
        state.apply(1, "Q 4")
    assert state.to_json() == before
