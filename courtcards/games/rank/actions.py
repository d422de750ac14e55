"""Rank's actions and their notation.

=========================  =====================================================
``8 8 7 U``                a play: the cards, numbers high to low, then W U D C C2
``pass``                   pass for the rest of the round
``lead`` / ``steal``       the King's benefit (RK-12)
``give 9`` / ``give 9 3``  cards given back after a steal or exchange (RK-12, RK-13)
``swap`` / ``keep``        the King's Hand choice (RK-14)
=========================  =====================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from courtcards.core.climbing import ClimbingAction
from courtcards.games.rank.cards import CROWN, CROWN2, DOWN, NUMBERS, TEXT, UP, WILD, canonical, parse_card_list


class RankKind(StrEnum):
    PLAY = "play"
    PASS = "pass"
    GIVE = "give"
    LEAD = "lead"
    STEAL = "steal"
    SWAP = "swap"
    KEEP = "keep"


WORDS = ("pass", "lead", "steal", "swap", "keep")


class RankAction(ClimbingAction):
    """A Rank action: PLAY or GIVE with cards in canonical order, or one of the
    word actions. Interned (core.climbing): equal actions are the same object."""

    __slots__ = ("base", "count", "is_crown", "is_lone_modifier")

    base: int  # for plays: the set's value fixed by its number cards (0: none, -1: not a set)
    count: int  # a set's count: number cards and Wilds (RK-4)
    is_crown: bool
    is_lone_modifier: bool
    Kind = RankKind
    TEXT = TEXT
    HINT = "an action is cards like '8 8 7 U', or one of: pass, lead, steal, give CARDS, swap, keep"

    def _derive(self) -> None:
        cards = self.cards
        play = self.kind is RankKind.PLAY
        set_ = object.__setattr__
        set_(self, "base", _base_value(cards) if play else -1)
        set_(self, "count", sum(1 for c in cards if c <= WILD))
        set_(self, "is_crown", play and len(cards) == 1 and cards[0] in (CROWN, CROWN2))
        set_(self, "is_lone_modifier", play and len(cards) == 1 and cards[0] in (UP, DOWN))

    @classmethod
    def read_cards(cls, text: str) -> list[int]:
        return parse_card_list(text)

    @classmethod
    def canonical(cls, cards: Sequence[int]) -> tuple[int, ...]:
        return canonical(list(cards))


def _base_value(cards: tuple[int, ...]) -> int:
    nums = [c for c in cards if c in NUMBERS]
    if not nums:
        return 0
    if DOWN in cards:
        return nums[0]
    if UP in cards:
        return nums[0] + 1 if nums[0] == nums[-1] else nums[0]
    return nums[0]


def make(kind: str, cards: tuple[int, ...] = ()) -> RankAction:
    """The (interned) action; ``cards`` must already be canonical."""
    return RankAction(RankKind(kind), cards)


PASS = make("pass")
LEAD = make("lead")
STEAL = make("steal")
SWAP = make("swap")
KEEP = make("keep")


def parse_action(text: str) -> RankAction:
    return RankAction.parse(text)
