"""King Queens & Paupers' actions and their notation.

==================  ============================================================
``9 9 9``           a play: the cards, all of one value (``Q``, ``Q Q``, ``K``)
``pass``            pass; the player may still play later on this pile (KQ-6)
``give 3 4``        the King's or Queen's give-back after taxes (KQ-4)
==================  ============================================================

Cards inside an action are listed lowest first; ``S`` is Silver, ``G`` Gold.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from courtcards.core.climbing import ClimbingAction
from courtcards.games.kqp.cards import TEXT, parse_card_list


class KqpKind(StrEnum):
    PLAY = "play"
    PASS = "pass"
    GIVE = "give"


class KqpAction(ClimbingAction):
    """An action. ``kind`` is play, pass or give; ``cards`` are values, lowest
    first. Interned (core.climbing): equal actions are the same object."""

    __slots__ = ("count", "value")

    value: int  # a play of one value: that value; otherwise 0
    count: int
    Kind = KqpKind
    TEXT = TEXT
    HINT = "an action is cards of one value like '9 9 9', 'Q Q' or 'K', or 'pass', or 'give CARDS'"

    def _derive(self) -> None:
        cards = self.cards
        object.__setattr__(self, "count", len(cards))
        one_value = self.kind is KqpKind.PLAY and cards and len(set(cards)) == 1
        object.__setattr__(self, "value", cards[0] if one_value else 0)

    @classmethod
    def read_cards(cls, text: str) -> list[int]:
        return parse_card_list(text)

    @classmethod
    def canonical(cls, cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(cards))


def make(kind: str, cards: tuple[int, ...] = ()) -> KqpAction:
    """The (interned) action; ``cards`` must be sorted lowest first."""
    return KqpAction(KqpKind(kind), tuple(cards))


PASS = make("pass")


def parse_action(text: str) -> KqpAction:
    return KqpAction.parse(text)
