"""The Rank Royale view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/royale.json."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from courtcards.core.views import ViewHeader, closed


@closed
class RoyaleDiscardTable(TypedDict):
    low: int
    middle: int
    high: int


@closed
class RoyalePlayer(TypedDict):
    seat: int
    hand_size: int
    deck_size: int
    discard_pile: list[str]
    reshuffles: int
    known_cards: list[str]


@closed
class RoyaleOwed(TypedDict):
    seat: int
    count: int


@closed
class RoyaleLogEntry(TypedDict):
    round: int
    cards: list[str]
    tiers: list[str]
    outcome: str
    winner: int | None
    discard: int
    discarded: list[str]
    lost: NotRequired[bool]


@closed
class RoyaleView(ViewHeader):
    round: int
    discard_table: RoyaleDiscardTable
    players: list[RoyalePlayer]
    owed: RoyaleOwed | None
    log: list[RoyaleLogEntry]
    hand: NotRequired[list[str]]
