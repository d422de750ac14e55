"""Learn to play: the table a game's lesson is played at (issue 28, item 7).

A lesson is a first game against bots, to its end, on a fixed deal: the fewest players the game allows
(two at least), the seed :data:`LESSON_SEED` and the shortest of the game's presets. "Shortest" is
measured, not declared: each preset's lesson deal is played out by seeded random moves a few times and
the preset whose games took the learner the fewest turns wins (ties: the order the game lists its
presets in, "standard" first). So a plug-in game gets a short lesson from its presets with no code.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from courtcards.core.game import Game, get_game

LESSON_SEED = 1  # the same deal for every learner of a game
PLAYOUTS = 5  # random playouts per preset
MAX_ACTIONS = 5000  # a playout longer than this counts as this long


def _learner_turns(g: Game[Any], players: int, preset: str | None, rng_seed: int) -> int:
    state = g.new_game(players, None, seed=LESSON_SEED, preset=preset)
    rng = random.Random(rng_seed)
    turns = 0
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return turns
        seat = state.to_move()[0]
        turns += seat == 0
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return MAX_ACTIONS


def lesson(name: str) -> dict[str, Any]:
    """The lesson's table for the game ``name``: players, preset (None: the defaults), seed, and the
    learner's turns in an average random playout of it (measured once per registered game object)."""
    return dict(_lesson(get_game(name)))


@functools.cache
def _lesson(g: Game[Any]) -> dict[str, Any]:
    players = max(2, g.min_players)
    best: tuple[float, str | None] | None = None
    for preset in [None, *(p for p in g.options.presets if p != "standard")]:
        turns = sum(_learner_turns(g, players, preset, r) for r in range(PLAYOUTS)) / PLAYOUTS
        if best is None or turns < best[0]:
            best = (turns, preset)
    assert best is not None
    return {"players": players, "preset": best[1], "seed": LESSON_SEED, "turns": best[0]}
