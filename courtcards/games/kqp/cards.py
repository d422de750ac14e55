"""King Queens & Paupers' cards and their notation (KQ-1).

Cards have no identity beyond their value, so hands are counts indexed by
value: 3-14, then Silver (15), Gold (16), Queen (17) and King (18). The value
is also the card's rank: 3 < ... < 14 < Silver < Gold < Queen < King.
"""

from __future__ import annotations

from courtcards.core import climbing
from courtcards.core.errors import NotationError

SILVER, GOLD, QUEEN, KING = 15, 16, 17, 18
NCODES = 19
PLAIN = range(3, GOLD + 1)  # the ten-of-each cards; the only ones used in taxes (KQ-4)

TEXT: dict[int, str] = {v: str(v) for v in range(3, 15)}
TEXT.update({SILVER: "S", GOLD: "G", QUEEN: "Q", KING: "K"})

NAMES: dict[int, str] = {v: str(v) for v in range(3, 15)}
NAMES.update({SILVER: "Silver", GOLD: "Gold", QUEEN: "Queen", KING: "King"})

_ALIASES: dict[str, int] = {t.lower(): c for c, t in TEXT.items()}
# The rulebook also calls Silver "1" and Gold "2".
_ALIASES.update({"silver": SILVER, "1": SILVER, "gold": GOLD, "2": GOLD, "queen": QUEEN, "king": KING})


def plain_per_value(num_players: int) -> int:
    """Copies of each of 3..Gold in play: 10, less one at 5 players, two at 4 (KQ-1)."""
    return 10 if num_players >= 6 else 9 if num_players == 5 else 8


def deck_counts(num_players: int) -> tuple[int, ...]:
    per = plain_per_value(num_players)
    return tuple(per if c in PLAIN else 2 if c == QUEEN else 1 if c == KING else 0 for c in range(NCODES))


def parse_card(token: str) -> int:
    code = _ALIASES.get(token.strip().lower())
    if code is None:
        raise NotationError(token, "not a King Queens & Paupers card (3-14, S, G, Q or K)")
    return code


def parse_card_list(text: str) -> list[int]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def counts_of(codes: list[int] | tuple[int, ...]) -> list[int]:
    return climbing.counts_of(codes, NCODES)


def expand(counts: list[int]) -> list[int]:
    """Counts to a list of values, lowest first."""
    return climbing.expand(counts, 3)


#: the cards of counts per value as texts, lowest first
texts = climbing.count_texts(TEXT, range(3, NCODES))
