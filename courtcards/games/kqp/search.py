"""What the search bot knows of King Queens & Paupers (its ``search`` profile): a round's horizon and
value; the others play greedy in the tree and the playouts, in worlds refitted to their moves seen this
round; greedy-lite playouts cut after 30 moves."""

from __future__ import annotations

from typing import Any

from courtcards.bots.profile import SearchProfile, Values, places, spread
from courtcards.core.state import State
from courtcards.games.kqp.bots import LiteKqpBot, PlayRecord, fitter


def value(state: State) -> Values:
    """Fewer points and a better place in the round in play are better."""
    players = state.view(None)["players"]
    place = places(players)
    return spread([-float(p["score"]) - place[s] for s, p in enumerate(players)], float(state.num_players * 2))


def round_number(state: State) -> Any:
    """A playout stops at the end of the round in play."""
    return getattr(state, "round", 0)


PROFILE = SearchProfile(
    rollout="lite",
    depth=30,
    worlds=32,
    model="greedy",
    fit=300,
    value=value,
    marker=round_number,
    fitter=fitter,
    record=PlayRecord,
    policies={"lite": LiteKqpBot},
)
