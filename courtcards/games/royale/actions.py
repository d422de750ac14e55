"""Rank Royale's actions and their notation.

==================  ==========================================================
``7H``              play the Seven of Hearts this round (``play 7H`` also reads)
``discard 3C 9S``   the cards a tier loser discards, in card order (RR-4)
==================  ==========================================================
"""

from __future__ import annotations

from courtcards.core.errors import NotationError
from courtcards.games.royale.cards import TEXT, parse_card, parse_card_list

PLAY, DISCARD = 0, 1  # the kind byte


class RoyaleAction(bytes):
    """An action: its kind byte (0 play, 1 discard) then its card codes (a discard's
    in code order). Bytes, so it is immutable and hashed (once) and compared in C
    (a discard decision lists many); equal actions have equal texts. Not a tuple,
    so it never passes for the (code, message) pairs the server returns."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "play" if self[0] == PLAY else "discard"

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(self[1:])

    @property
    def card(self) -> int:
        return self[1]

    @property
    def text(self) -> str:
        if self[0] == PLAY:
            return TEXT[self[1]]
        return " ".join(["discard", *(TEXT[c] for c in self[1:])])

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"RoyaleAction({self.text!r})"


PLAYS = tuple(RoyaleAction((PLAY, c)) for c in range(52))


def play(card: int) -> RoyaleAction:
    return PLAYS[card]


def discard(cards: list[int] | tuple[int, ...]) -> RoyaleAction:
    return RoyaleAction((DISCARD, *sorted(cards)))


def parse_action(text: str) -> RoyaleAction:
    if not isinstance(text, str):
        raise NotationError(repr(text), "an action must be text")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(text, "empty action (play a card like '7H', or 'discard 3C 9S')")
    head = words[0].lower()
    try:
        if head == "discard":
            if len(words) == 1:
                raise NotationError(text, "'discard' needs the cards to discard, for example 'discard 3C 9S'")
            cards = parse_card_list(" ".join(words[1:]))
            if len(set(cards)) != len(cards):
                raise NotationError(text, "a card is listed twice")
            return discard(cards)
        if head == "play":
            words = words[1:]
        if len(words) != 1:
            raise NotationError(text, "play exactly one card, like '7H' (to discard write 'discard 3C 9S')")
        return play(parse_card(words[0]))
    except NotationError as exc:
        if exc.text == text:
            raise
        raise NotationError(text, f"{exc.reason} (actions: a card like '7H', or 'discard 3C 9S')") from None
