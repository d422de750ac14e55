"""Helpers for the Rank rules tests: explicit positions and short queries."""

from __future__ import annotations

from typing import Any

from courtcards.core.game import get_game
from courtcards.games.rank.state import RankState

G = get_game("rank")


def pos(hands: list[str], **fields: Any) -> RankState:
    """A position from hands written as card text ("8 8 7 U"; "" for no cards)."""
    data: dict[str, Any] = {"hands": [h.split() for h in hands], **fields}
    state = G.state_from_json(data)
    assert isinstance(state, RankState)
    return state


def mover(state: RankState) -> int:
    (seat,) = state.to_move()
    return seat


def legal(state: RankState, seat: int | None = None) -> set[str]:
    s = mover(state) if seat is None else seat
    return {a.text for a in state.legal_actions(s)}


def hand(state: RankState, seat: int) -> str:
    return " ".join(state.card_places()[f"hand:{seat}"])


def play(state: RankState, *moves: str) -> RankState:
    """Apply moves in turn order (each by whoever is to move)."""
    for m in moves:
        state.apply(mover(state), m)
    return state
