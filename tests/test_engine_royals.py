"""Royals' computation interface: fast copy, action ids, world sampling,
observations and returns, from explicit positions (rulebook 002, RY-1..RY-8)."""

from __future__ import annotations

import json
from typing import Any

from courtcards.core.game import get_game
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    """A position from hands as card text ("QH 7H"; "" for none)."""
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def dump(state: RoyalsState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def attack_position() -> RoyalsState:
    """Seat 0 attacks seat 1 (one Royal each for seats 1 and 2): seats 0, 1, 2 commit at once."""
    state = pos(["7H 2C KS 3D", "9C 4H QD", "5H 6S", ""],
                royals=[[], ["QH 8H"], ["JC 4C"], []], decks=[["AS"], ["AC"], ["AD"], ["AH"]])
    state.apply(0, "attack 1")
    return state


# -- copy ----------------------------------------------------------------------------------------
def test_copy_is_equal_and_independent_in_the_middle_of_a_fight() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    copy = state.copy()
    assert dump(copy) == dump(state)
    before = dump(state)
    copy.apply(0, "commit 7H")
    copy.apply(1, "commit 9C")  # reveal: hands, tables, fight and log all change in the copy
    assert copy.phase == "pair" and dump(state) == before
    assert state.fight is not None and copy.fight is not None and state.fight is not copy.fight
    state.hands[0].append(12)
    state.fight.attacks.append(3)
    assert 12 not in copy.hands[0] and copy.fight.attacks == [5, 7]
