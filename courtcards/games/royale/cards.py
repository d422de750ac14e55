"""Rank Royale's cards and their notation (RR-1).

A card is rank then suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are A
(= 1), 2-10, J, Q, K; suits C, D, H, S. Reading also accepts lower case,
``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always gives the
canonical form. Internally a card is a code 0..51 = (rank - 1) * 4 + suit, so
sorting codes sorts by rank, then suit.
"""

from __future__ import annotations

from courtcards.core.errors import NotationError

SUITS = "CDHS"
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(range(52))

LOW, MIDDLE, HIGH = 0, 1, 2
TIER_NAMES = ("low", "middle", "high")
# Low beats High, Middle beats Low, High beats Middle (RR-1).
BEATS = {LOW: HIGH, MIDDLE: LOW, HIGH: MIDDLE}

_RANK_ALIASES = {t: i + 1 for i, t in enumerate(RANK_TEXT)}
_RANK_ALIASES.update({"1": 1, "T": 10})
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3})

TEXT: tuple[str, ...] = tuple(RANK_TEXT[c // 4] + SUITS[c % 4] for c in DECK)


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
    t = token.strip().upper()
    if len(t) < 2:
        raise NotationError(token, "a card is a rank and a suit, like AS, 7H, 10D or KC")
    r = _RANK_ALIASES.get(t[:-1])
    s = _SUIT_ALIASES.get(t[-1])
    if r is None:
        raise NotationError(token, f"unknown rank {t[:-1]!r} (ranks are A, 2-10, J, Q, K)")
    if s is None:
        raise NotationError(token, f"unknown suit {t[-1]!r} (suits are C, D, H, S)")
    return (r - 1) * 4 + s


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def texts(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in codes]
