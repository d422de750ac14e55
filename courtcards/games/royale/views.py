"""The Rank Royale view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/royale.json.

It speaks the shared vocabulary (``ViewBase``, ``PlayerBase``): ``round``, ``turn``
(always null: both players decide at once, RR-3), ``hand`` (empty for a spectator),
``log`` (the engine's events) and per player ``discard`` (top card first). The
game's own fields: ``discard_table`` (RR-2), ``tiers`` (each rank's tier, RR-1, so
clients need no table of their own), ``owed``, ``rounds_log`` (one entry per
revealed round) and per player ``reshuffles`` and ``known_cards``.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from courtcards.core.views import PlayerBase, ViewBase, closed


@closed
class RoyaleDiscardTable(TypedDict):
    low: int
    middle: int
    high: int


@closed
class RoyalePlayer(PlayerBase):
    deck_size: int
    discard: list[str]
    reshuffles: int
    known_cards: list[str]


@closed
class RoyaleOwed(TypedDict):
    seat: int
    count: int


@closed
class RoyaleRound(TypedDict):
    round: int
    cards: list[str]
    tiers: list[str]
    outcome: str
    winner: int | None
    discard: int
    discarded: list[str]
    lost: NotRequired[bool]


@closed
class RoyaleView(ViewBase):
    discard_table: RoyaleDiscardTable
    tiers: dict[str, str]
    players: list[RoyalePlayer]
    owed: RoyaleOwed | None
    rounds_log: list[RoyaleRound]
