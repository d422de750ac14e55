"""Rank Royale's strangers (its ``strangers`` profile), besides the generic ``noisy``
(courtcards/bots/strangers.py). Neither predicts the opponent's tier: they play by their own hand.
Discards are greedy's (the cards it least wants to keep).

- ``aggressive``: plays its strongest card, the first it would keep (High, then Middle, then Low, best
  rank first), to take rounds now.
- ``hoarder``: keeps its strongest cards for last: picks one of the tiers it holds at random (its own
  seeded generator) and plays the weakest card of that tier.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from courtcards.bots.base import BotFactory
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.games.royale.bots import GreedyBot, _card_action, keep_order
from courtcards.games.royale.cards import parse_card, rank, tier


class AggressiveRoyaleBot:
    """Plays its strongest card; discards as greedy."""

    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0) -> None:
        self.greedy = GreedyBot(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if view["phase"] != "play":
            return self.greedy.choose(view, legal)
        order = keep_order([parse_card(t) for t in view["hand"]])
        return _card_action(legal, order[0]) if order else legal[0]


class HoarderRoyaleBot:
    """Plays the weakest card of a tier drawn among those it holds; discards as greedy."""

    needs_log = False  # it never reads its view's log

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.greedy = GreedyBot(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if view["phase"] != "play":
            return self.greedy.choose(view, legal)
        hand = [parse_card(t) for t in view["hand"]]
        if not hand:
            return legal[0]
        tiers = sorted({tier(c) for c in hand})
        t = tiers[self.rng.below(len(tiers))]
        return _card_action(legal, min((c for c in hand if tier(c) == t), key=rank))


STRANGERS: Mapping[str, BotFactory] = {"aggressive": AggressiveRoyaleBot, "hoarder": HoarderRoyaleBot}
POOL = ("noisy", "aggressive", "hoarder")
