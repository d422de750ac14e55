"""Royals' cards and their notation (RY-1, RY-3).

A card is its rank then its suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are
A (= 1), 2-10, J (11), Q (12), K (13); suits C, D, H, S. Reading also accepts
lower case, ``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always
gives the canonical form. Every player owns one 52-card deck; a card never
leaves its owner's places (deck, hand, discard pile, Royals, committed cards),
so a card's owner is the seat whose place holds it.

Internally a card is a code 0..51 = suit * 13 + (rank - 1), so sorting codes
sorts by suit (C, D, H, S), then rank.
"""

from __future__ import annotations

from courtcards.core.errors import NotationError

SUITS = "CDHS"
RED_SUITS = (1, 2)  # diamonds, hearts
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK: tuple[int, ...] = tuple(range(52))
TEXT: tuple[str, ...] = tuple(RANK_TEXT[c % 13] + SUITS[c // 13] for c in DECK)

_RANK_ALIASES = {t: i + 1 for i, t in enumerate(RANK_TEXT)}
_RANK_ALIASES.update({"1": 1, "T": 10})
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3})


def rank(code: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return code % 13 + 1


def suit(code: int) -> int:
    return code // 13


def is_face(code: int) -> bool:
    return code % 13 >= 10


def is_number(code: int) -> bool:
    return code % 13 < 10


def is_red(code: int) -> bool:
    return code // 13 in RED_SUITS


def fight_value(code: int) -> int:
    """A number card's value in a fight (Ace 1 .. 10); face cards have none (0)."""
    return 0 if is_face(code) else rank(code)


def is_attack(code: int) -> bool:
    """Red number cards attack, whoever commits them (RY-4)."""
    return is_red(code) and is_number(code)


def is_block(code: int) -> bool:
    """Black number cards block, whoever commits them (RY-4)."""
    return not is_red(code) and is_number(code)


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
    return s * 13 + r - 1


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def texts(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in codes]
