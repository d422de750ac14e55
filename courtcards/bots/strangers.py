"""Strangers: bots that play unlike greedy, to judge a bot against opponents it was not built for.

A bot tuned against greedy (or modelling greedy's code) may only be good against greedy; strength is
reported against greedy and against a game's *stranger pool* too (``bench/bench_strength.py --opponents
pool``). The generic strangers work for every game, plug-ins included. Each reads only its seat's view
and the legal actions, starts from the game's default bot (greedy, or random where the game has none),
and takes its own chances from its own seeded generator, so it is deterministic given its seed:

- ``noisy``: the default bot's move, but at one decision with a choice in four a uniformly random
  legal move instead (a careless greedy).
- ``aggressive``: plays the moves that commit the most cards (an action's ``cards``), never passing
  while it can play; the default bot's move when it is one of those, else one drawn among them.
- ``cautious``: plays the moves that commit the fewest cards, passing whenever it may; the default
  bot's move when it is one of those, else one drawn among them.

A game adds its own strangers, or replaces these with ones that suit its style, in the module its
``strangers`` profile names (``GameInfo.profiles``): ``STRANGERS`` (kind -> factory(seed)) and ``POOL``
(the kinds a bench plays against); a game that declares none has :data:`GENERIC_POOL`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from courtcards.bots.base import Bot, BotFactory, default_bot_kind, make_bot, register_bot
from courtcards.core.errors import UnknownGameError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import Action

GENERIC_POOL: tuple[str, ...] = ("noisy", "aggressive", "cautious")
NOISE = 0.25  # noisy: the share of decisions it plays a random move


def cards_committed(action: Action) -> int:
    """How many cards ``action`` plays, gives or discards: the length of its ``cards`` (0 without one)."""
    cards = getattr(action, "cards", None)
    return len(cards) if isinstance(cards, (tuple, list)) else 0


class _Stranger:
    """The game's default bot (made on first use, from the view's game), with its own generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.base_seed = Rng(seed ^ 0x5DEECE66D).next64()
        self.base: Bot | None = None

    @property
    def needs_log(self) -> bool:
        """As its default bot, once made (the first view it gets is whole)."""
        return self.base is None or bool(getattr(self.base, "needs_log", True))

    def default_move(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if self.base is None:
            game = str(view["game"])
            self.base = make_bot(game, default_bot_kind(game), self.base_seed)
        return self.base.choose(view, legal)

    def among(self, view: dict[str, Any], legal: Sequence[Action], keep: Sequence[Action]) -> Action:
        """The default bot's move if it is in ``keep``, else one of ``keep`` drawn by the generator."""
        mine = self.default_move(view, legal)
        if mine in keep:
            return mine
        return keep[self.rng.below(len(keep))]


class NoisyBot(_Stranger):
    """The default bot's move, or at a share ``noise`` of decisions with a choice a random legal one."""

    def __init__(self, seed: int = 0, noise: float = NOISE) -> None:
        super().__init__(seed)
        self.noise = noise

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        mine = self.default_move(view, legal)  # asked every time: the default bot sees every view
        if len(legal) > 1 and self.rng.below(1_000_000) < self.noise * 1_000_000:
            return legal[self.rng.below(len(legal))]
        return mine


class AggressiveBot(_Stranger):
    """Commits the most cards it can (never passes while it can play)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        most = max(cards_committed(a) for a in legal)
        return self.among(view, legal, [a for a in legal if cards_committed(a) == most])


class CautiousBot(_Stranger):
    """Commits the fewest cards it can (passes whenever it may)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        least = min(cards_committed(a) for a in legal)
        return self.among(view, legal, [a for a in legal if cards_committed(a) == least])


GENERIC: Mapping[str, BotFactory] = {"noisy": NoisyBot, "aggressive": AggressiveBot, "cautious": CautiousBot}

for _kind, _factory in GENERIC.items():
    register_bot("*", _kind, _factory)


def stranger_pool(game: str) -> tuple[str, ...]:
    """The bot kinds ``game``'s strength is judged against besides greedy: ``POOL`` of its ``strangers``
    profile, or :data:`GENERIC_POOL`."""
    try:
        declared = get_game(game).profile("strangers")
    except UnknownGameError:
        declared = None
    pool: Sequence[str] | None = getattr(declared, "POOL", None)
    return tuple(pool) if pool else GENERIC_POOL
