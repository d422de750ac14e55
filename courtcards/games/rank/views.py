"""The Rank view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/rank.json."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from courtcards.core.views import Transfer, ViewHeader, closed


@closed
class RankPlayer(TypedDict):
    seat: int
    cards: int
    passed: bool
    out: int | None
    character: str
    tokens: int
    times_king: int


@closed
class RankPile(TypedDict):
    owner: int | None
    value: int
    count: int
    top: list[str]
    cards: list[str]


@closed
class RankKingsHand(TypedDict):
    dealt: bool
    waiting: bool
    choice: str | None
    set_aside: NotRequired[list[str]]


@closed
class RankHandsLogEntry(TypedDict):
    hand: int
    finish: list[int]
    king: int
    queen: int
    beggar: int
    tokens: list[int]


@closed
class RankView(ViewHeader):
    hand_number: int
    turn: int | None
    leading: bool
    players: list[RankPlayer]
    pile: RankPile
    round_log: list[list[int | str]]
    last_round: list[list[int | str]]
    draw_pile: int
    discard: list[str]
    kings_hand: RankKingsHand
    exchanges: list[Transfer]
    hands_log: list[RankHandsLogEntry]
    hand: NotRequired[list[str]]
    steal_possible: NotRequired[bool]
