"""Rank notation: every action's text parses back to it; junk gets NotationError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtcards.core.errors import NotationError
from courtcards.core.game import get_game
from courtcards.games.rank.cards import TEXT

GAME = get_game("rank")
CARD_TEXTS = list(TEXT.values())


@given(cards=st.lists(st.sampled_from(CARD_TEXTS), min_size=1, max_size=10))
def test_any_play_round_trips(cards: list[str]) -> None:
    action = GAME.parse_action(" ".join(cards))
    assert GAME.parse_action(action.text) == action
    assert sorted(action.text.split()) == sorted(cards)


@given(cards=st.lists(st.sampled_from(CARD_TEXTS), min_size=1, max_size=4))
def test_any_give_round_trips(cards: list[str]) -> None:
    action = GAME.parse_action("give " + " ".join(cards))
    assert GAME.parse_action(action.text) == action
    assert action.text.startswith("give ")


def test_order_and_case_do_not_matter_and_the_text_is_canonical() -> None:
    a = GAME.parse_action("u 7 8, 8")
    assert a.text == "8 8 7 U"
    assert a == GAME.parse_action("8 8 7 U")
    assert GAME.parse_action("wild crown+2").text == "W C2"
    assert GAME.parse_action("  PASS ").text == "pass"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty action"),
        ("13", "not a Rank card"),
        ("8 8 X", "not a Rank card"),
        ("pass 8", "takes no cards"),
        ("give", "needs the cards"),
    ],
)
def test_malformed_actions_say_why(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        GAME.parse_action(text)


@given(text=st.text(max_size=30))
def test_junk_never_raises_anything_but_notation_error(text: str) -> None:
    try:
        action = GAME.parse_action(text)
    except NotationError:
        return
    assert GAME.parse_action(action.text) == action


def test_cards_parse_to_canonical_text() -> None:
    assert GAME.parse_cards("w 12 c2 d") == ["W", "12", "C2", "D"]
