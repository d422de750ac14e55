"""The notation of standard 52-card decks, shared by the games that use them.

A card is rank then suit: ``AS``, ``7H``, ``10D``, ``KC``. Ranks are A (= 1),
2-10, J (11), Q (12), K (13); suits C, D, H, S. Reading also accepts lower
case, ``T`` or ``1`` for 10 and Ace, and the suit symbols; writing always gives
the canonical form.

Every game with a standard deck numbers its cards the same way: a card is a
code 0..51 = (rank - 1) * 4 + suit, so sorting codes sorts by rank, then suit
(C, D, H, S). :data:`TEXT` and :data:`CODE` convert, and the action ids and
observation tensors of those games use these codes.
"""

from __future__ import annotations

from courtcards.core.errors import NotationError

SUITS = "CDHS"
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_RANK_ALIASES = {t: i + 1 for i, t in enumerate(RANK_TEXT)}
_RANK_ALIASES.update({"1": 1, "T": 10})
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3})


def card_name(rank: int, suit: int) -> str:
    """Canonical text of the card of ``rank`` (1-13) and ``suit`` (0-3, in CDHS order)."""
    return RANK_TEXT[rank - 1] + SUITS[suit]


def parse_rank_suit(token: str) -> tuple[int, int]:
    """``(rank, suit)`` of a card's text; NotationError if it is not a card."""
    t = token.strip().upper()
    if len(t) < 2:
        raise NotationError(token, "a card is a rank and a suit, like AS, 7H, 10D or KC")
    r = _RANK_ALIASES.get(t[:-1])
    s = _SUIT_ALIASES.get(t[-1])
    if r is None:
        raise NotationError(token, f"unknown rank {t[:-1]!r} (ranks are A, 2-10, J, Q, K)")
    if s is None:
        raise NotationError(token, f"unknown suit {t[-1]!r} (suits are C, D, H, S)")
    return r, s


DECK52: tuple[int, ...] = tuple(range(52))
TEXT: tuple[str, ...] = tuple(card_name(c // 4 + 1, c % 4) for c in DECK52)
CODE: dict[str, int] = {t: c for c, t in enumerate(TEXT)}


def code(rank: int, suit: int) -> int:
    """The code of the card of ``rank`` (1-13) and ``suit`` (0-3)."""
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return card // 4 + 1


def suit_of(card: int) -> int:
    """0 .. 3 for C, D, H, S."""
    return card % 4


def parse_card(token: str) -> int:
    """The code of a card's text; NotationError if it is not a card."""
    r, s = parse_rank_suit(token)
    return (r - 1) * 4 + s


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]
