"""Errors cross process boundaries (the server's search workers, analyze's process pool): each pickles
with its message and fields, whatever its ``__init__`` takes."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from courtcards.core.errors import (
    ActionIdError,
    CourtcardsError,
    GameOverError,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    Refusal,
    UnknownGameError,
)
from courtcards.core.game import get_game

ERRORS = [
    UnknownGameError("nosuch", ["b", "a"]),
    NotationError("Zz", "not a card"),
    OptionError("unknown option 'x'"),
    IllegalActionError("9 9", 2, Refusal("not_in_hand", "seat 2 holds one 9", {"cards": ["9"], "held": 1})),
    GameOverError("pass", 0, "the game is over"),
    PositionError("hands[0]", "not a list"),
    PositionError("the deck is short"),
    ActionIdError(99999, 1, "out of range"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_errors_pickle_with_their_message_and_fields(error: CourtcardsError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error) and back.args == error.args
    assert vars(back) == vars(error)


def _unknown_game() -> None:
    get_game("no-such-game")


def test_an_error_raised_in_a_worker_process_reaches_the_parent_as_itself() -> None:
    with ProcessPoolExecutor(1) as pool, pytest.raises(UnknownGameError, match="unknown game 'no-such-game'") as info:
        pool.submit(_unknown_game).result()
    assert info.value.name == "no-such-game" and info.value.known
