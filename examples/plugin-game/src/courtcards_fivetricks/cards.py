"""Five Tricks' cards, actions and action ids.

A card is rank then suit: ranks 1-5, suits H D S C (``3H``, ``5S``); reading also
accepts lower case and ``play 3H``. A card's code is ``suit * 5 + rank - 1`` with the
suits in the order H D S C, so sorting codes sorts a hand by suit, then rank.

An action is playing one card; its id is the card's code (20 ids, for every table
size and option).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from enum import StrEnum
from typing import ClassVar

from courtcards.core.actions import Action
from courtcards.core.errors import ActionIdError, NotationError
from courtcards.core.ids import ActionCodec

SUITS = "HDSC"
SUIT_NAMES = ("Hearts", "Diamonds", "Spades", "Clubs")
RANKS = 5
DECK: tuple[int, ...] = tuple(range(len(SUITS) * RANKS))
TEXT: tuple[str, ...] = tuple(f"{c % RANKS + 1}{SUITS[c // RANKS]}" for c in DECK)
CODE: dict[str, int] = {t: c for c, t in enumerate(TEXT)}


def suit(card: int) -> int:
    return card // RANKS


def rank(card: int) -> int:
    return card % RANKS + 1


def texts(cards: Iterable[int]) -> list[str]:
    return [TEXT[c] for c in cards]


def parse_card(token: str) -> int:
    """The code of a card's text; NotationError if it is not a Five Tricks card."""
    if not isinstance(token, str):
        raise NotationError(repr(token), "a card is text, like 3H")
    t = token.strip().upper()
    found = CODE.get(t)
    if found is None:
        raise NotationError(token, "a card is a rank 1-5 and a suit H, D, S or C, like 3H or 5S")
    return found


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


class FiveTricksKind(StrEnum):
    PLAY = "play"


class FiveTricksAction(Action):
    """Play one card (the core's Action: immutable, equal by its text ``3H``;
    ``repr`` is ``FiveTricksAction.parse('3H')``)."""

    __slots__ = ("card",)

    game: ClassVar[str] = "fivetricks"
    kind: FiveTricksKind
    card: int

    def __init__(self, card: int) -> None:
        self._init(FiveTricksKind.PLAY, TEXT[card], card=card)

    @classmethod
    def parse(cls, text: str) -> FiveTricksAction:
        return parse_action(text)


PLAYS: tuple[FiveTricksAction, ...] = tuple(FiveTricksAction(c) for c in DECK)


def parse_action(text: str) -> FiveTricksAction:
    if not isinstance(text, str):
        raise NotationError(repr(text), "an action must be text")
    words = text.split()
    if words and words[0].lower() == "play":
        words = words[1:]
    if len(words) != 1:
        raise NotationError(text, "play exactly one card, like '3H' (or 'play 3H')")
    try:
        return PLAYS[parse_card(words[0])]
    except NotationError as exc:
        raise NotationError(text, exc.reason) from None


class FiveTricksCodec(ActionCodec):
    """Id ``c`` plays the card of code ``c`` (1H 2H .. 5H 1D .. 5C)."""

    def __init__(self) -> None:
        super().__init__()
        self.size = len(DECK)  # set on the instance: the compiled engine's codec keeps it in a slot

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, FiveTricksAction):
            raise ActionIdError(None, None, f"{action!r} is not a Five Tricks action")
        return (action.card,)

    def describe(self, action_id: int) -> str:
        if not 0 <= action_id < self.size:
            raise ActionIdError(action_id, None, f"out of range (ids are 0..{self.size - 1})")
        return f"play {TEXT[action_id]}"
