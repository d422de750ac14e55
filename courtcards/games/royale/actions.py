"""Rank Royale's actions and their notation.

==================  ==========================================================
``7H``              play the Seven of Hearts this round (``play 7H`` also reads)
``discard 3C 9S``   the cards a tier loser discards, in card order (RR-4)
==================  ==========================================================
"""

from __future__ import annotations

from enum import StrEnum

from courtcards.core.actions import Action
from courtcards.core.errors import NotationError
from courtcards.games.royale.cards import TEXT, parse_card, parse_card_list


class RoyaleKind(StrEnum):
    PLAY = "play"
    DISCARD = "discard"


PLAY, DISCARD = RoyaleKind.PLAY, RoyaleKind.DISCARD
_set = object.__setattr__
_new = object.__new__


class RoyaleAction(Action):
    """An action: ``kind`` play or discard, and its ``cards`` (codes; a discard's in
    code order). The 52 plays are made once (:func:`play`); a discard decision lists
    many discards, made as they are listed (no table of every discard ever made), so
    they are cheap to make: ``text`` is worked out when asked, and actions compare by
    kind and cards. Equal actions have equal texts. Build one with :func:`play`,
    :func:`discard` or :meth:`parse`."""

    __slots__ = ("cards",)

    kind: RoyaleKind
    cards: tuple[int, ...]

    def __new__(cls, kind: RoyaleKind, cards: tuple[int, ...]) -> RoyaleAction:
        """The action of ``kind`` with ``cards`` (a discard's already in code order);
        :func:`play` and :func:`discard` are the usual ways."""
        if kind is PLAY:
            if len(cards) != 1:
                raise ValueError(f"a Rank Royale play is one card, not {cards!r}")
            if PLAYS:
                return PLAYS[cards[0]]
        elif not cards:
            raise ValueError("a Rank Royale discard needs cards")
        return _make(cls, kind, cards)

    @property  # worked out when asked (Action's is set when made)
    def text(self) -> str:  # type: ignore[override]
        cards = self.cards
        if self.kind is PLAY:
            return TEXT[cards[0]]
        return " ".join(["discard", *[TEXT[c] for c in cards]])

    @property
    def card(self) -> int:
        """A play's card (a discard's lowest)."""
        return self.cards[0]

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, RoyaleAction) and type(other) is type(self)
                                 and other.cards == self.cards and other.kind is self.kind)

    def __hash__(self) -> int:
        return hash(self.cards)

    @classmethod
    def parse(cls, text: str) -> RoyaleAction:
        return parse_action(text)


def _make(cls: type[RoyaleAction], kind: RoyaleKind, cards: tuple[int, ...]) -> RoyaleAction:
    act: RoyaleAction = _new(cls)
    _set(act, "kind", kind)
    _set(act, "cards", cards)
    return act


PLAYS: tuple[RoyaleAction, ...] = ()
PLAYS = tuple(RoyaleAction(PLAY, (c,)) for c in range(52))


def play(card: int) -> RoyaleAction:
    return PLAYS[card]


def discard(cards: list[int] | tuple[int, ...]) -> RoyaleAction:
    return _make(RoyaleAction, DISCARD, tuple(sorted(cards)))


def discard_sorted(cards: tuple[int, ...]) -> RoyaleAction:
    """The discard of ``cards``, already in code order (a legal list's combinations of a hand)."""
    return _make(RoyaleAction, DISCARD, cards)


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
