"""Rank's cards and their notation.

Cards have no identity beyond their type, so hands are kept as counts indexed
by card code: 1-12 are the number cards, then Wild, Rank-Up, Rank-Down, Crown
and Crown + Draw 2.
"""

from __future__ import annotations

from typing import Final

from courtcards.core import climbing
from courtcards.core.errors import NotationError

# Final: the compiled engine inlines them (docs/engine/README.md, "Compiled engine")
WILD: Final = 13
UP: Final = 14
DOWN: Final = 15
CROWN: Final = 16
CROWN2: Final = 17
NCODES: Final = 18
NUMBERS = range(1, 13)
MODIFIERS = (UP, DOWN)

TEXT: dict[int, str] = {n: str(n) for n in NUMBERS}
TEXT.update({WILD: "W", UP: "U", DOWN: "D", CROWN: "C", CROWN2: "C2"})

CODES: dict[str, int] = {t: c for c, t in TEXT.items()}

NAMES: dict[int, str] = {n: str(n) for n in NUMBERS}
NAMES.update({WILD: "Wild", UP: "Rank-Up", DOWN: "Rank-Down", CROWN: "Crown", CROWN2: "Crown + Draw 2"})

_ALIASES: dict[str, int] = {t.lower(): c for c, t in TEXT.items()}
_ALIASES.update(
    {
        "wild": WILD,
        "up": UP,
        "rank-up": UP,
        "rankup": UP,
        "down": DOWN,
        "rank-down": DOWN,
        "rankdown": DOWN,
        "crown": CROWN,
        "crown+2": CROWN2,
        "crown+draw2": CROWN2,
        "crown+draw-2": CROWN2,
    }
)

# One deck (RK-1): seven of each number, 2 Crown, 2 Crown + Draw 2, 3 Rank-Up, 3 Rank-Down, 4 Wild.
DECK_COUNTS: tuple[int, ...] = tuple(
    7 if c in NUMBERS else {WILD: 4, UP: 3, DOWN: 3, CROWN: 2, CROWN2: 2}.get(c, 0) for c in range(NCODES)
)
DECK_SIZE = sum(DECK_COUNTS)  # 98

# Canonical order inside an action: number cards high to low, then W, U, D, C, C2.
ACTION_ORDER: dict[int, int] = {c: (12 - c if c in NUMBERS else c - 1) for c in range(1, NCODES)}


def card_text(code: int) -> str:
    return TEXT[code]


def parse_card(token: str) -> int:
    code = CODES.get(token)  # the canonical text, fast
    if code is not None:
        return code
    code = _ALIASES.get(token.strip().lower())
    if code is None:
        raise NotationError(token, "not a Rank card (1-12, W, U, D, C or C2)")
    return code


def parse_card_list(text: str) -> list[int]:
    tokens = text.replace(",", " ").split()
    return [parse_card(t) for t in tokens]


def counts_of(codes: list[int] | tuple[int, ...]) -> list[int]:
    return climbing.counts_of(codes, NCODES)


def expand(counts: list[int]) -> list[int]:
    """Counts to a sorted list of codes (hand order: 1..12, W, U, D, C, C2)."""
    return climbing.expand(counts, 1)


texts = climbing.count_texts(TEXT, range(1, NCODES))


def canonical(codes: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(codes, key=ACTION_ORDER.__getitem__))
