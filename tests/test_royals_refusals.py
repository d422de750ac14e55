"""Why a Royals action is refused: the reasons come from the same rules that list the legal actions."""

from __future__ import annotations

from typing import Any

import pytest

from courtcards.core.game import get_game
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def why(state: RoyalsState, seat: int, text: str) -> str | None:
    return state.refusal(seat, G.parse_action(text))


def test_every_legal_action_has_no_reason_and_every_other_one_has_one() -> None:
    state = pos(["QH 7H 2C 9S", "2S 4S", "5H", ""], royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []])
    legal = {a.text for a in state.legal_actions(0)}
    for text in ["royal QH 7H", "attack 1", "attack 2", "assassinate 1 KS", "assassinate 2 JC", "discard hand"]:
        assert text in legal and why(state, 0, text) is None
    assert why(state, 0, "royal QH 2H") == "2H not in your hand"  # RY-3
    assert why(state, 0, "attack 0") == "you cannot attack or assassinate your own Royals (RY-4, RY-5)"
    assert why(state, 0, "attack 3") == "seat 3 has no Royal in play (RY-4, RY-5)"
    assert why(state, 0, "attack 5") == "there is no seat 5"
    assert why(state, 0, "assassinate 1 JC") == "seat 1 has no Royal JC in play"
    assert why(state, 0, "commit 2C") == "the game wants a turn action (royal, attack, assassinate, discard hand) now"


def test_an_empty_hand_cannot_assassinate() -> None:
    state = pos(["", "2S", ""], royals=[[], ["QH 7H"], []])
    assert why(state, 0, "assassinate 1 QH") == "you need a card in hand to commit to an assassination (RY-5)"
    assert why(state, 0, "attack 1") is None  # RY-4: an attacker with no card commits none


def test_commitments_are_refused_with_the_count_asked_for() -> None:
    state = pos(["2D 9D", "2S 4S 5S", "5H 6H", ""], royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []])
    state.apply(0, "attack 1")
    assert why(state, 0, "commit 2D 9D") == "you must commit exactly 1 card (RY-4, RY-5)"
    assert why(state, 0, "commit KD") == "KD not in your hand"
    assert why(state, 1, "commit 2S 4S 5S") == "the defender commits at most 2 cards (RY-4)"
    assert why(state, 1, "commit none") is None and why(state, 1, "commit 2S 5S") is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("block 9 with 6", "a block only cancels an attack of equal or lower value (RY-4)"),
        ("block 5 with 10", "no open attack of 5 and block of 10 to pair"),
        ("block 9 with 10", None),
        ("done", None),
    ],
)
def test_pairings(text: str, reason: str | None) -> None:
    state = pos(
        ["2D", "4S", "5H", ""],
        royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []],
        phase="pair",
        fight={"kind": "attack", "attacker": 0, "defender": 1},
        table=[["9D"], ["10S"], ["6H"], []],
    )
    assert why(state, 1, text) == reason


def test_hits_and_losses() -> None:
    state = pos(
        ["2D", "4S 5H", "", ""],
        royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []],
        phase="hits",
        fight={"kind": "attack", "attacker": 0, "defender": 1, "assigned": ["KS"]},
        table=[["9D"], [], ["6H"], []],
    )
    assert why(state, 1, "hit JC") == "you have no Royal JC"
    assert why(state, 1, "hit QH") == "hits are placed in card order of the face cards (each spread has one notation)"
    assert why(state, 1, "hit KS") is None
    state.apply(1, "hit KS")  # KS takes both hits: 9 must go down to at most 7 (RY-6)
    assert why(state, 1, "discard QH") == "the hit Royal to deal with now is KS"
    assert why(state, 1, "replace KS 8S") == "8S not in your hand"
    assert why(state, 1, "replace KS 4S") is None and why(state, 1, "discard KS") is None
    # two attacks: the attacker's 7D and 3D from seat 2, which joins with its one Royal (RY-4)
    state = pos(
        ["", "4H 6H", "", ""],
        royals=[[], ["QH 7H"], ["JC 2C"], []],
        phase="losses",
        fight={"kind": "attack", "attacker": 0, "defender": 1, "assigned": ["QH", "QH"]},
        table=[["7D"], [], ["3D"], []],
    )
    assert why(state, 1, "replace QH 6H") == "QH takes 2 hits at 7: the new card must be at most 5 (RY-6)"
    assert why(state, 1, "replace QH 4H") is None


def test_actions_are_the_cores_frozen_actions_with_a_repr_that_rebuilds_them() -> None:
    from enum import StrEnum

    from courtcards.core.actions import Action
    from courtcards.games.royals.actions import RoyalsAction, RoyalsKind

    action = G.parse_action("commit ks 7h")
    assert isinstance(action, RoyalsAction) and isinstance(action, Action)
    assert isinstance(action.kind, StrEnum) and action.kind is RoyalsKind.COMMIT
    assert action.kind.value == "commit" and str(action.kind) == "commit"
    assert repr(action) == "RoyalsAction.parse('commit 7H KS')" and eval(repr(action)) == action
    with pytest.raises(AttributeError, match="immutable"):
        action.seat = 2
