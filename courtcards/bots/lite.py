"""Greedy-lite policies: fast default policies for the search bot's playouts.

They look at the legal actions only (``needs_view = False``: no view is built,
no card text is parsed). The legal plays reveal the hand's groups: the biggest
plain play of a value is the whole group. Leading, a lite bot sheds its lowest
whole group; following, the lowest whole group that beats the pile, else it
passes; it keeps Crowns (Rank) and Queens and the King (KQP) for when nothing
else is left, and gives away its lowest cards. Weaker than greedy, several
times cheaper a move.

A game's lite policy is a subclass naming its plain values (``plain``), declared
in the game's package and offered to the search by its profile (``policies``
of its ``SearchProfile``), not as a bot kind players can pick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from courtcards.core.state import Action


def _lowest_whole(plays: Sequence[Any], plain: Any) -> Any | None:
    """The play of the whole lowest plain group: all cards of one plain value, the most of them."""
    best = None
    for a in plays:
        cards = a.cards
        v = cards[0] if cards else -1
        if v not in plain or cards[-1] != v:
            continue
        if best is None or v < best.cards[0] or (v == best.cards[0] and len(cards) > len(best.cards)):
            best = a
    return best


class LiteBot:
    """Greedy-lite over the legal actions of a shedding game (actions with ``kind`` "play", "pass",
    "give", "keep", "lead" and sorted ``cards``); ``plain``: the card codes of the plain values, the
    others (court cards) being kept for last."""

    needs_view = False
    plain: Any = ()

    def __init__(self, seed: int = 0) -> None:
        del seed  # no ties are broken at random: the first of equals wins

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        pick: Action = legal[0] if len(legal) == 1 else self._pick(list(legal))
        return pick

    def _pick(self, acts: list[Any]) -> Any:
        kinds = {a.kind: a for a in acts}
        plays = [a for a in acts if a.kind == "play"]
        if plays:
            whole = _lowest_whole(plays, self.plain)
            if whole is not None:
                return whole
            if "pass" in kinds:
                return kinds["pass"]
            return min(plays, key=lambda a: (len(a.cards), a.cards))
        gives = [a for a in acts if a.kind == "give"]
        if gives:
            return min(gives, key=lambda a: a.cards)
        for word in ("keep", "lead"):
            if word in kinds:
                return kinds[word]
        return acts[0]
