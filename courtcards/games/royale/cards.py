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


#: each rank's tier name by the rank's text ("A" .. "K"): the table the views give clients (RR-1)
TIER_OF_RANK: dict[str, str] = {t: TIER_NAMES[tier_of_rank(r)] for r, t in enumerate(cards52.RANK_TEXT, 1)}
#: each card's tier name, by code
TIER_TEXT: tuple[str, ...] = tuple(TIER_NAMES[tier(c)] for c in DECK)


def tier_name(card: str) -> str:
    """The tier (``low``, ``middle`` or ``high``) of a card given as text, such as ``7H``."""
    return TIER_TEXT[CODE[card] if card in CODE else parse_card(card)]


parse_card = cards52.parse_card
parse_card_list = cards52.parse_card_list
texts = cards52.texts
