"""KQP's strangers (its ``strangers`` profile): greedy's judgement with other habits, besides the generic
``noisy`` and ``cautious`` (courtcards/bots/strangers.py). Each is greedy's code with other weights.

- ``aggressive``: breaks any group to follow and spends its Queens and the King early (whenever at most
  six plain sets remain or the pile's owner holds six cards or fewer).
- ``hoarder``: keeps its Queens and the King for last: they weigh twice as much in its hand's cost (what
  it gives back), and it follows with one only when no plain set is left (two at most against a high
  pile), never because the pile's owner is nearly out.
"""

from __future__ import annotations

from collections.abc import Mapping

from courtcards.bots.base import Bot, BotFactory
from courtcards.games.kqp.bots import GreedyKqpBot, Weights

_W = Weights()
AGGRESSIVE = Weights(break_max=99, royal_groups=6, danger_cards=6)
HOARDER = Weights(queen=2 * _W.queen, king=2 * _W.king, royal_groups=0, danger_cards=0)


def _greedy_with(weights: Weights) -> BotFactory:
    def make(seed: int) -> Bot:
        return GreedyKqpBot(seed, weights)

    return make


STRANGERS: Mapping[str, BotFactory] = {"aggressive": _greedy_with(AGGRESSIVE), "hoarder": _greedy_with(HOARDER)}
POOL = ("noisy", "aggressive", "cautious", "hoarder")
