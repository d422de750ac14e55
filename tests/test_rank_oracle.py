"""The engine's legal plays against an independent reading of RK-4 to RK-8:
every sub-multiset of a random hand is judged by the oracle below and must be
listed by the engine exactly when the oracle accepts it."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from test_rank_rules import G, legal, pos

from courtcards.core.rng import Rng

NUMS = [str(x) for x in range(1, 13)]
POOL = [*NUMS * 3, "W", "W", "U", "U", "D", "D", "C", "C2"]


def oracle_value(cards: list[str], lead: bool, v: int) -> int | None:
    """RK-4: the value of a set, or None if the cards are not a set."""
    nums = sorted(int(c) for c in cards if c in NUMS)
    up, down = cards.count("U"), cards.count("D")
    if up + down > 1 or (not nums and not cards.count("W")):
        return None
    base = 1 if lead else v + 1  # Wilds alone
    if down:
        return nums[0] if nums and nums[0] == nums[-1] else None
    if not nums:  # alone never above 12; a Rank-Up adds one more, so a 13 even on a 12
        return min(base, 12) + 1 if up else (None if base > 12 else base)
    if nums[0] == nums[-1]:
        return nums[0] + up
    if up and nums[-1] - nums[0] == 1 and nums.count(nums[0]) == 1:
        return nums[-1]
    return None


def candidates(hand: list[str]) -> set[str]:
    held = Counter(hand)
    kinds = sorted(held)
    out = set()
    for take in product(*(range(held[c] + 1) for c in kinds)):
        cards = [c for c, t in zip(kinds, take, strict=True) for _ in range(t)]
        if cards:
            out.add(G.parse_action(" ".join(cards)).text)
    return out


def oracle(hand: list[str], v: int, k: int) -> set[str]:
    lead = k == 0
    out: set[str] = set() if lead else {"pass"}
    only_mods = all(c in ("U", "D") for c in hand)
    for text in candidates(hand):
        cards = text.split()
        if any(c in ("C", "C2") for c in cards):
            if len(cards) == 1:  # RK-6
                out.add(text)
            continue
        count = sum(1 for c in cards if c not in ("U", "D"))
        if count == 0:  # RK-7
            if len(cards) == 1 and only_mods and (lead or (cards[0] == "U" and v < 13) or (cards[0] == "D" and v > 1)):
                out.add(text)
            continue
        value = oracle_value(cards, lead, v)
        if value is None:
            continue
        if lead or (count == k and ("D" in cards or value > v)):  # RK-5
            out.add(text)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_legal_plays_match_an_independent_reading(seed: int) -> None:
    # RK-4, RK-5, RK-6, RK-7, RK-8
    rng = Rng(seed)
    for _ in range(60):
        pool = list(POOL)
        rng.shuffle(pool)
        size = 1 + rng.below(8)
        mine = pool[:size]
        if rng.below(6) == 0:
            mine = ["U", "D", "U"][: 1 + rng.below(3)]
        k = rng.below(4)
        v = 1 + rng.below(13) if k else 0
        pile = ["1"] * k
        s = pos(["5", " ".join(mine), "9"], turn=1, pile=pile, pile_value=v, pile_count=k, owner=0 if k else None)
        allowed = oracle(mine, v, k)
        assert legal(s) == allowed, (mine, v, k)
        for text in candidates(mine) - allowed:  # every refusal gives a specific reason
            reason = s.explain_illegal(1, G.parse_action(text))
            assert reason != "not legal now", (mine, v, k, text)
