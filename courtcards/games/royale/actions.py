"""Rank Royale's actions and their notation.

==================  ==========================================================
``7H``              play the Seven of Hearts this round (``play 7H`` also reads)
``discard 3C 9S``   the cards a tier loser discards, in card order (RR-4)
==================  ==========================================================
"""

from __future__ import annotations

from courtcards.core.errors import NotationError
from courtcards.games.royale.cards import TEXT, parse_card, parse_card_list


class RoyaleAction:
    """``kind`` is ``play`` (one card) or ``discard`` (cards in code order)."""

    __slots__ = ("_hash", "cards", "kind", "text")

    kind: str
    cards: tuple[int, ...]
    text: str

    def __init__(self, kind: str, cards: tuple[int, ...]) -> None:
        self.kind = kind
        self.cards = cards
        words = [TEXT[c] for c in cards]
        self.text = " ".join(words) if kind == "play" else " ".join(["discard", *words])
        self._hash = hash(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoyaleAction) and other.text == self.text

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"RoyaleAction({self.text!r})"

    @property
    def card(self) -> int:
        return self.cards[0]


def play(card: int) -> RoyaleAction:
    return RoyaleAction("play", (card,))


def discard(cards: list[int] | tuple[int, ...]) -> RoyaleAction:
    return RoyaleAction("discard", tuple(sorted(cards)))


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
