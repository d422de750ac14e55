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
_set = set_field = object.__setattr__  # an action's fields are set once, when it is made
_new = new_action = object.__new__


class RoyaleAction(Action):
    """An action: ``kind`` play or discard, and its ``cards`` (codes; a discard's in
    code order). The 52 plays are made once (:data:`PLAYS`, :func:`play`); a discard
    decision lists many discards, made as they are listed (no table of every discard
    ever made), so a discard is cheap to make: its ``cards`` only, ``kind`` and
    ``text`` worked out when asked. Actions compare by kind and cards; equal actions
    have equal texts. Build one with :func:`play`, :func:`discard` or :meth:`parse`."""

    __slots__ = ("cards",)

    cards: tuple[int, ...]

    def __new__(cls, kind: RoyaleKind, cards: tuple[int, ...]) -> RoyaleAction:
        """The action of ``kind`` with ``cards`` (a discard's already in code order);
        :func:`play` and :func:`discard` are the usual ways."""
        if kind is PLAY:
            if len(cards) != 1:
                raise ValueError(f"a Rank Royale play is one card, not {cards!r}")
            return PLAYS[cards[0]]
        if kind is not DISCARD or not cards:
            raise ValueError(f"a Rank Royale action is a play or a discard of cards, not {kind!r} {cards!r}")
        return discard_sorted(cards)

    @property  # a play is one of PLAYS, every other action a discard
    def kind(self) -> RoyaleKind:  # type: ignore[override]
        return PLAY if PLAYS[self.cards[0]] is self else DISCARD

    @property  # worked out when asked (Action's is set when made)
    def text(self) -> str:  # type: ignore[override]
        cards = self.cards
        if PLAYS[cards[0]] is self:
            return TEXT[cards[0]]
        return " ".join(["discard", *[TEXT[c] for c in cards]])

    @property
    def card(self) -> int:
        """A play's card (a discard's lowest)."""
        return self.cards[0]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RoyaleAction) or other.cards != self.cards:
            return False
        play = PLAYS[self.cards[0]]  # a play equals only itself: two equal discards remain
        return play is not self and play is not other

    def __hash__(self) -> int:
        return hash(self.cards)

    @classmethod
    def parse(cls, text: str) -> RoyaleAction:
        return parse_action(text)


class _Worded(RoyaleAction):
    """An action whose ``kind`` and ``text`` are set when it is made and read from their slots (Action's,
    below), not worked out by a Python call: a random playout reads every action's text. The 52 plays,
    and the discard a random playout draws (``RoyaleState._random_action``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"RoyaleAction.parse({self.text!r})"


for _name in ("kind", "text"):  # Action's slots, back in front of RoyaleAction's properties
    setattr(_Worded, _name, Action.__dict__[_name])
WORDED = _Worded


def _made(card: int) -> RoyaleAction:
    act: RoyaleAction = _new(_Worded)
    _set(act, "cards", (card,))
    _set(act, "kind", PLAY)
    _set(act, "text", TEXT[card])
    return act


PLAYS: tuple[RoyaleAction, ...] = tuple(_made(c) for c in range(52))


def play(card: int) -> RoyaleAction:
    return PLAYS[card]


def discard(cards: list[int] | tuple[int, ...]) -> RoyaleAction:
    return discard_sorted(tuple(sorted(cards)))


def discard_sorted(cards: tuple[int, ...]) -> RoyaleAction:
    """The discard of ``cards``, already in code order (a legal list's combinations of a hand)."""
    act: RoyaleAction = _new(RoyaleAction)
    _set(act, "cards", cards)
    return act


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
