"""What the search bot knows of Rank (its ``search`` profile): a hand's horizon and value, greedy
playouts, greedy as the other seats' model in worlds refitted to the rounds of the hand seen."""

from __future__ import annotations

from typing import Any

from courtcards.bots.profile import SearchProfile, Values, places, spread
from courtcards.core.state import State
from courtcards.games.rank.bots import LiteRankBot, RoundRecord, fitter


def value(state: State) -> Values:
    """Tokens, plus the tokens the hand in play may bring (King 2, Queen 1) guessed from the cards left."""
    players = state.view(None)["players"]
    opts = state.options
    place = places(players)
    if opts.get("endless"):
        scores = [float(p["times_king"]) + (place[s] == 0) for s, p in enumerate(players)]
        return spread(scores, float(opts.get("hands") or 10))
    left = sum(int(p["hand_size"]) for p in players) / (15.0 * len(players))  # early guesses count for less
    scores = [
        float(p["score"]) + (1.0 if p["out"] else 1.0 - left) * max(0.0, 2.0 - place[s]) for s, p in enumerate(players)
    ]
    return spread(scores, float(opts.get("tokens_to_win") or 5))


def hand_number(state: State) -> Any:
    """A playout stops at the end of the hand in play."""
    return getattr(state, "hand_number", 0)


PROFILE = SearchProfile(
    rollout="greedy",
    depth=0,
    worlds=32,
    model="greedy",
    fit=100,
    guide=True,
    value=value,
    marker=hand_number,
    fitter=fitter,
    record=RoundRecord,
    policies={"lite": LiteRankBot},
)
