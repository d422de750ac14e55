"""Rank Royale's cards and their notation (RR-1).

A card is rank then suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are A
(= 1), 2-10, J, Q, K; suits C, D, H, S. Reading also accepts lower case,
``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always gives the
canonical form. Internally a card is a code 0..51 = (rank - 1) * 4 + suit, so
sorting codes sorts by rank, then suit.
"""

from __future__ import annotations

from courtcards.core.cards import card_name, parse_rank_suit

DECK = tuple(range(52))

LOW, MIDDLE, HIGH = 0, 1, 2
TIER_NAMES = ("low", "middle", "high")
# Low beats High, Middle beats Low, High beats Middle (RR-1).
BEATS = {LOW: HIGH, MIDDLE: LOW, HIGH: MIDDLE}

TEXT: tuple[str, ...] = tuple(card_name(c // 4 + 1, c % 4) for c in DECK)
CODE: dict[str, int] = {t: c for c, t in enumerate(TEXT)}  # canonical text to code


def rank(code: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return code // 4 + 1


def tier_of_rank(r: int) -> int:
    return LOW if r <= 4 else MIDDLE if r <= 10 else HIGH


def tier(code: int) -> int:
    return tier_of_rank(code // 4 + 1)


def beats(a: int, b: int) -> bool:
    """Does tier ``a`` beat tier ``b``?"""
    return BEATS[a] == b


def card_text(code: int) -> str:
    return TEXT[code]


def parse_card(token: str) -> int:
    r, s = parse_rank_suit(token)
    return (r - 1) * 4 + s


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def texts(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in codes]
