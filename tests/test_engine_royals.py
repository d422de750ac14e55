"""Royals' computation interface: fast copy, action ids, world sampling,
observations and returns, from explicit positions (rulebook 002, RY-1..RY-8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from courtcards.core.errors import ActionIdError, NotYourTurnError
from courtcards.core.game import get_game
from courtcards.games.royals.cards import TEXT, parse_card
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


# -- action ids ----------------------------------------------------------------------------------
def walk(state: RoyalsState, seat: int, ids: tuple[int, ...]) -> Any:
    """Apply an id sequence to a copy; the engine action it completes."""
    copy = state.copy()
    for i in ids[:-1]:
        assert i in copy.legal_action_ids(seat) and copy.apply_id(seat, i) is None
    assert ids[-1] in copy.legal_action_ids(seat)
    return copy.apply_id(seat, ids[-1])


def assert_ids_round_trip(state: RoyalsState) -> None:
    codec = state.action_codec()
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        encoded = [state.action_ids(a) for a in legal]
        assert len(set(encoded)) == len(legal)
        assert state.legal_action_ids(seat) == sorted({ids[0] for ids in encoded})
        mask = state.legal_action_mask(seat)
        assert mask.shape == (codec.size,) and mask.dtype == bool
        assert mask.nonzero()[0].tolist() == state.legal_action_ids(seat)
        for action, ids in zip(legal, encoded, strict=True):
            assert all(codec.describe(i) for i in ids)
            assert walk(state, seat, ids) == action


def test_numbering_size_and_blocks() -> None:
    for n in (3, 4, 5, 6):
        assert G.num_distinct_actions(n) == 374 + 13 * n
    codec = G.action_codec(4)
    assert codec.describe(0) == "royal JC AC" and codec.describe(119) == "royal KS 10S"
    assert codec.describe(120 + 2) == "attack 2" and codec.describe(124 + 2 * 12 + 4) == "assassinate 2 QD"
    state = pos(["QH 7H", "", "", ""])
    assert state.action_ids("royal QH 7H") == (7 * 10 + 6,)
    assert state.action_ids("commit 7H KS") == (codec.COMMIT_CARD + 32, codec.COMMIT_CARD + 51, codec.COMMIT_DONE)
    assert state.action_ids("commit none") == (codec.COMMIT_DONE,)
    assert state.action_ids("block 1 with 1") == (codec.BLOCK,) and codec.describe(codec.DONE) == "done"
    assert state.action_ids("replace KS 9S") == (codec.size - 2,)


def test_every_legal_action_round_trips_through_its_ids_in_every_phase() -> None:
    state = attack_position()
    assert state.phase == "commit" and state.to_move() == (0, 1, 2)
    assert_ids_round_trip(state)  # commitments: several seats, each its own sequence
    state.apply(0, "commit 7H")
    state.apply(2, "commit 5H")
    state.apply(1, "commit 9C")
    assert state.phase == "pair"
    assert_ids_round_trip(state)
    state.apply(1, "block 7 with 9")
    assert state.phase == "losses"  # one hit, one Royal: placed by itself
    assert_ids_round_trip(state)
    assert {a.text for a in state.legal_actions(1)} == {"discard QH", "replace QH 4H"}


def test_hits_are_placed_one_id_at_a_time() -> None:
    state = pos(["7H 8D", "2C", "", ""], royals=[["JC 2C", "JS 3S"], ["QH 8H", "KD 9D"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 7H 8D")
    state.apply(1, "commit none")
    assert state.phase == "hits"
    codec = state.action_codec()
    assert state.legal_action_ids(1) == [codec.HIT + 5, codec.HIT + 7]  # KD, QH in card order
    assert_ids_round_trip(state)


def test_a_commitment_is_chosen_card_by_card_then_done() -> None:
    state = attack_position()
    codec = state.action_codec()
    card = {TEXT[c]: codec.COMMIT_CARD + c for c in range(52)}
    # the attacker commits exactly one card: done only after it
    assert state.legal_action_ids(0) == sorted(card[t] for t in ("7H", "2C", "KS", "3D"))
    assert state.apply_id(0, card["3D"]) is None and state.id_prefix(0) == (card["3D"],)
    assert state.legal_action_ids(0) == [codec.COMMIT_DONE]
    # the defender commits up to one: done alone is "commit none"
    assert state.legal_action_ids(1) == sorted([codec.COMMIT_DONE, card["9C"], card["4H"], card["QD"]])
    # each committing seat keeps its own partial choice
    state.apply_id(2, card["6S"])
    assert state.id_prefix(2) == (card["6S"],) and state.id_prefix(0) == (card["3D"],)
    assert state.apply_id(0, codec.COMMIT_DONE) == G.parse_action("commit 3D")
    assert state.pending[0].text == "commit 3D" and state.id_prefix(0) == ()
    assert state.apply_id(1, codec.COMMIT_DONE) == G.parse_action("commit none")
    assert state.apply_id(2, codec.COMMIT_DONE) == G.parse_action("commit 6S")
    assert state.phase == "pair"  # revealed: an attack of 3 (3D) and a block of 6 (6S)
    assert state.fight is not None and state.fight.attacks == [3] and state.fight.blocks == [6]


def test_a_defender_with_two_royals_may_stop_after_one_card() -> None:
    state = pos(["7H", "9C 2S 4H", "", ""], royals=[[], ["QH 8H", "KD 9D"], [], []])
    state.apply(0, "attack 1")
    codec = state.action_codec()
    c9, c2, c4 = (codec.COMMIT_CARD + parse_card(t) for t in ("9C", "2S", "4H"))
    assert state.legal_action_ids(1) == sorted([codec.COMMIT_DONE, c9, c2, c4])
    assert_ids_round_trip(state)
    state.apply_id(1, c4)  # 4H: only later cards (2S) may follow, or done
    assert state.legal_action_ids(1) == sorted([c2, codec.COMMIT_DONE])


@pytest.mark.parametrize(
    ("seat", "bad", "error", "words"),
    [
        (0, 426, ActionIdError, "out of range"),
        (0, -1, ActionIdError, "out of range"),
        (0, "0", ActionIdError, "integer"),
        (0, 1.0, ActionIdError, "integer"),
        (0, True, ActionIdError, "integer"),
        (0, 120 + 0, ActionIdError, "'attack 0' is not legal"),  # attacking oneself
        (0, 0, ActionIdError, "'royal JC AC' is not legal"),
        (1, 121, NotYourTurnError, "no decision"),
        (9, 121, ActionIdError, "no seat 9"),
    ],
)
def test_bad_ids_are_refused_and_change_nothing(seat: int, bad: Any, error: type, words: str) -> None:
    state = pos(["QH 7H", "", "", ""], royals=[[], ["KD 9D"], [], []])
    before = dump(state)
    with pytest.raises(error, match=words):
        state.apply_id(seat, bad)
    with pytest.raises(error, match=words):
        state.action_from_id(seat, bad)
    assert dump(state) == before


def test_ids_of_actions_that_can_never_be_legal_are_refused() -> None:
    state = pos(["QH 7H", "", "", ""])
    with pytest.raises(ActionIdError, match="no seat 7"):
        state.action_ids("attack 7")
    with pytest.raises(NotYourTurnError, match="no decision"):
        state.legal_action_mask(2)
