"""What the search bot knows of a game: one frozen :class:`SearchProfile`.

A game declares its profile in its own package (``PROFILE`` in
``courtcards/games/<g>/search.py``, named by the ``search`` entry of its
``GameInfo.profiles``); the ISMCTS bot reads it through the game and uses
:data:`GENERIC_PROFILE` for a game that declares none: random playouts to the
end of the game, the other seats searched too, worlds drawn uniformly from the
view. Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from courtcards.core.rng import Rng
from courtcards.core.state import State

Values = list[float]  # per seat

# refit(world, rng, steps): makes a world drawn from the view fit the other seats' moves seen better (the
# model makes them in it), in place, returning the moves missed before and after
Refit = Callable[[State, Rng, int], tuple[int, int]]
# fitter(world, seat, model, rounds): from a world drawn from the seat's view and what its record gave
# (``rounds``), a refit; None when nothing was seen
Fitter = Callable[[State, int, Any, Any], Refit | None]
# odds(view, sample_world, rng): how likely each bot kind is to be playing the other seats, from the moves
# the view shows; None when it shows none
Odds = Callable[[dict[str, Any], Callable[[dict[str, Any], int], State], Rng], dict[str, float] | None]


@dataclass(frozen=True)
class SearchProfile:
    """A game's knowledge for the search bot, and its default settings (chosen by measured strength per CPU
    second, docs/search.md). The bot's keyword arguments override the settings (rollout ... adapt)."""

    # -- playouts and the tree (the bot's keyword arguments of the same names override these)
    rollout: str = "random"  # the default policy: a bot kind of the game, one of ``policies``, or "random"
    depth: int = 0  # playout moves before ``value`` scores the position (0: to the horizon); needs ``value``
    worlds: int = 0  # sampled worlds searched in turn (0: a fresh one every iteration)
    model: str | None = None  # the bot kind that plays the other seats' moves in the tree (None: they search)
    fit: int = 0  # refit steps per pooled world to make the model's moves in it those seen (0: none); needs ``fitter``
    guide: bool = False  # below the root too: the prior's move first, then progressive widening
    open_choices: bool = False  # other seats' hidden choices are left unmade in the worlds: they choose in the tree
    adapt: bool = False  # the model is the kind the moves seen make likely (``odds``), at odds of ``confident``
    # -- the horizon: where a playout stops early and how it is scored
    value: Callable[[State], Values] | None = None  # per-seat value in [-1, 1] of a state not over (None: to the end)
    marker: Callable[[State], Any] | None = None  # a playout stops when this changes (end of a hand, ...)
    # -- what the other seats were seen to do
    fitter: Fitter | None = None  # makes pooled worlds fit the moves seen (``fit`` steps each)
    fit_model: str = "greedy"  # the bot kind the fitter makes the moves seen with
    record: Callable[[], Any] | None = None  # a record of one seat's views: ``update(view)`` gives the fitter's rounds,
    # ``chose(view, text)`` takes the seat's own move
    odds: Odds | None = None  # the other seats' bot kinds told from the moves seen (``adapt``)
    confident: float = 0.9  # odds a kind needs to replace the default model
    # -- the search guided by the game's network (``ismcts+nn``)
    net_keep: float | None = None  # its network's move stays unless another beats it by this many standard errors
    # of the difference of their mean values (None: the search's own rule, as for the prior of ``ismcts``)
    # -- playout policies that are not players (not in the bot registry, nor the lobby): kind -> factory(seed)
    policies: Mapping[str, Callable[[int], Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "policies", MappingProxyType(dict(self.policies)))


GENERIC_PROFILE = SearchProfile()  # for a game that declares no search profile


def spread(scores: Sequence[float], scale: float) -> Values:
    """Each seat's score against the average of the others, over ``scale``, clipped to [-1, 1]."""
    n = len(scores)
    total = sum(scores)
    return [max(-1.0, min(1.0, (s - (total - s) / (n - 1)) / scale)) for s in scores]


def places(players: Sequence[Mapping[str, Any]]) -> list[float]:
    """For shedding games whose views list players with ``out`` and ``hand_size``: each seat's finishing
    place in the hand in play (0 first), known for seats that are out, guessed from the cards left (fewer
    first, ties shared) for the others."""
    n = len(players)
    keys = [int(p["out"]) if p.get("out") else n + int(p["hand_size"]) for p in players]
    return [sum(1.0 for k in keys if k < key) + 0.5 * (keys.count(key) - 1) for key in keys]
