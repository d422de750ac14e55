"""Rank Royale's cards and their notation (RR-1).

A card is rank then suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are A
(= 1), 2-10, J, Q, K; suits C, D, H, S. Reading also accepts lower case,
``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always gives the
canonical form. A card is the code of courtcards.core.cards (the one numbering
of the 52 cards: (rank - 1) * 4 + suit), so sorting codes sorts by rank, then suit.
"""

from __future__ import annotations

from courtcards.core import cards as cards52

DECK = cards52.DECK52

LOW, MIDDLE, HIGH = 0, 1, 2
TIER_NAMES = ("low", "middle", "high")
# Low beats High, Middle beats Low, High beats Middle (RR-1).
BEATS = {LOW: HIGH, MIDDLE: LOW, HIGH: MIDDLE}

TEXT = cards52.TEXT
CODE = cards52.CODE  # canonical text to code
rank = cards52.rank_of


def tier_of_rank(r: int) -> int:
    return LOW if r <= 4 else MIDDLE if r <= 10 else HIGH


def tier(code: int) -> int:
    return tier_of_rank(code // 4 + 1)


def beats(a: int, b: int) -> bool:
    """Does tier ``a`` beat tier ``b``?"""
    return BEATS[a] == b


def card_text(code: int) -> str:
    return TEXT[code]


parse_card = cards52.parse_card
parse_card_list = cards52.parse_card_list
texts = cards52.texts
