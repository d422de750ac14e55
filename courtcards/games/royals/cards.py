"""Royals' cards and their notation (RY-1, RY-3).

A card is its rank then its suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are
A (= 1), 2-10, J (11), Q (12), K (13); suits C, D, H, S. Reading also accepts
lower case, ``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always
gives the canonical form. Every player owns one 52-card deck; a card never
leaves its owner's places (deck, hand, discard pile, Royals, committed cards),
so a card's owner is the seat whose place holds it.

Internally a card is a code 0..51 = suit * 13 + (rank - 1), so sorting codes
sorts by suit (C, D, H, S), then rank: the rules walk a suit's cards as one range
(RY-3, RY-6). Everything Royals publishes by number (action ids, observation
tensors) uses the one numbering of the 52 cards, ``courtcards.core.cards``, as
Rank Royale does: :data:`CORE` maps a code to it.
"""

from __future__ import annotations

from courtcards.core import cards as cards52
from courtcards.core.cards import card_name, parse_rank_suit

RED_SUITS = (1, 2)  # diamonds, hearts
DECK: tuple[int, ...] = tuple(range(52))
TEXT: tuple[str, ...] = tuple(card_name(c % 13 + 1, c // 13) for c in DECK)
#: each card's code in the one numbering of the 52 cards (courtcards.core.cards)
CORE: tuple[int, ...] = tuple(cards52.code(c % 13 + 1, c // 13) for c in DECK)


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
    r, s = parse_rank_suit(token)
    return s * 13 + r - 1


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def texts(codes: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in codes]


# per card code, for the hot paths: rank, and the value it attacks or blocks with (0: none)
RANKS: tuple[int, ...] = tuple(rank(c) for c in DECK)
ATTACK_VALUES: tuple[int, ...] = tuple(fight_value(c) if is_attack(c) else 0 for c in DECK)
BLOCK_VALUES: tuple[int, ...] = tuple(fight_value(c) if is_block(c) else 0 for c in DECK)
