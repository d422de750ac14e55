"""Rank's strangers (its ``strangers`` profile): greedy's judgement with other habits, besides the generic
``noisy`` (courtcards/bots/strangers.py). Each is greedy's code with other weights, so it reads the same
view and breaks ties with its own seeded generator.

- ``aggressive``: follows whenever a play sheds anything (greedy passes rather than spend a good set
  early), and seizes the lead with a Crown + Draw 2 or a Crown at any hand size.
- ``cautious``: passes unless a play lowers its hand's cost clearly, even late; never seizes the lead
  with a Crown but to go out.
- ``hoarder``: keeps its specials (Crowns, Wilds, Up and Down) for last: they weigh three times as much
  in its hand's cost, so it plays them only when nothing else does.
"""

from __future__ import annotations

from collections.abc import Mapping

from courtcards.bots.base import Bot, BotFactory
from courtcards.games.rank.bots import GreedyRankBot, Weights

AGGRESSIVE = Weights(play_early=1.5, play_late=2.0, crown2_min_cards=0, crown_min_cards=0)
CAUTIOUS = Weights(play_early=-0.6, play_late=-0.2, crown2_min_cards=99)
_W = Weights()
HOARDER = Weights(crown=3 * _W.crown, crown2=3 * _W.crown2, wild=3 * _W.wild, up=3 * _W.up, down=3 * _W.down)


def _greedy_with(weights: Weights) -> BotFactory:
    def make(seed: int) -> Bot:
        return GreedyRankBot(seed, weights)

    return make


STRANGERS: Mapping[str, BotFactory] = {
    "aggressive": _greedy_with(AGGRESSIVE),
    "cautious": _greedy_with(CAUTIOUS),
    "hoarder": _greedy_with(HOARDER),
}
POOL = ("noisy", "aggressive", "cautious", "hoarder")
