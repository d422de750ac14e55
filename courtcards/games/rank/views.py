"""The Rank view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/rank.json."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from courtcards.core.views import PlayerBase, Transfer, ViewBase, closed


@closed
class RankPlayer(PlayerBase):
    score: int  # Royal Tokens; times King in the Endless variant (RK-15), as result().scores
    passed: bool
    out: int | None
    character: str
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
class RankView(ViewBase):
    """``round`` is the hand number; ``log`` the engine's sentences; ``round_log``,
    ``last_round``, ``exchanges`` and ``hands_log`` are structured data for bots
    and samplers (no client words events from them)."""

    leading: bool
    players: list[RankPlayer]
    pile: RankPile
    round_log: list[list[int | str]]
    last_round: list[list[int | str]]
    deck_size: int
    discard: list[str]
    kings_hand: RankKingsHand
    exchanges: list[Transfer]
    hands_log: list[RankHandsLogEntry]
    steal_possible: NotRequired[bool]
