"""What the search bot knows of Royals (its ``search`` profile): greedy playouts of 20 moves scored by
the points on the table, every 60 moves a horizon."""

from __future__ import annotations

from typing import Any

from courtcards.bots.profile import SearchProfile, Values, spread
from courtcards.core.state import State


def value(state: State) -> Values:
    """Each seat's points against the others', over the points that win."""
    points = getattr(state, "points", None)
    target = getattr(state, "target", 20 - state.num_players)  # RY-1, or the option target
    scores = [float(points(s)) if callable(points) else 0.0 for s in range(state.num_players)]
    return spread(scores, float(target))


def stretch(state: State) -> Any:
    """A playout stops at the end of a stretch of 60 moves."""
    return len(state.history) // 60


PROFILE = SearchProfile(rollout="greedy", depth=20, worlds=32, value=value, marker=stretch)
