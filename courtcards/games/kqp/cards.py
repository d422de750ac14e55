"""King Queens & Paupers' cards and their notation (KQ-1).

Cards have no identity beyond their value, so hands are counts indexed by
value: 3-14, then Silver (15), Gold (16), Queen (17) and King (18). The value
is also the card's rank: 3 < ... < 14 < Silver < Gold < Queen < King.
"""

from __future__ import annotations

import numpy as np

from courtcards.core.errors import NotationError
from courtcards.core.rng import Rng

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
    counts = [0] * NCODES
    for c in codes:
        counts[c] += 1
    return counts


def expand(counts: list[int]) -> list[int]:
    """Counts to a list of values, lowest first."""
    out: list[int] = []
    for c in range(3, NCODES):
        out.extend([c] * counts[c])
    return out


def texts(counts: list[int]) -> list[str]:
    return [TEXT[c] for c in expand(counts)]



_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _draws(state: int, start: int, count: int) -> list[int]:
    """SplitMix64 outputs number start+1 .. start+count from ``state`` (uint64 arithmetic wraps)."""
    z = np.uint64(state) + np.arange(start + 1, start + count + 1, dtype=np.uint64) * np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (z ^ (z >> np.uint64(31))).tolist()  # type: ignore[no-any-return]


_SHIFTS = [64 - n.bit_length() for n in range(1 << 12)]


def shuffle(rng: Rng, items: list[int]) -> None:
    """Exactly ``rng.shuffle(items)`` (the same draws, the same order, the same
    final generator state), with the generator's outputs computed in bulk."""
    state = rng.state
    m = len(items)
    shifts = _SHIFTS if m < len(_SHIFTS) else [64 - n.bit_length() for n in range(m + 1)]
    draws: list[int] = []
    at = end = 0
    for i in range(m - 1, 0, -1):
        n = i + 1
        shift = shifts[n]
        while True:
            if at == end:
                draws += _draws(state, at, i + i // 2 + 8)  # enough for the usual rejections
                end = len(draws)
            j = draws[at] >> shift
            at += 1
            if j < n:
                break
        items[i], items[j] = items[j], items[i]
    rng.state = (state + at * _GOLDEN) & _MASK
