"""The King Queens & Paupers view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/kqp.json."""

from __future__ import annotations

from typing_extensions import TypedDict

from courtcards.core.views import PlayerBase, Transfer, ViewBase, closed


@closed
class KqpPlayer(PlayerBase):
    score: int
    role: str
    position: int
    passed: bool
    out: int | None
    played: list[str]


@closed
class KqpPile(TypedDict):
    owner: int | None
    value: str | None
    count: int
    top: list[str]
    cards: list[str]
    consecutive: bool
    plays: list[list[int | str]]
    passes: list[int]


@closed
class KqpRoundsLogEntry(TypedDict):
    round: int
    finish: list[int]
    points: list[int]
    scores: list[int]


@closed
class KqpView(ViewBase):
    leading: bool
    positions: list[int]
    order: list[int]
    players: list[KqpPlayer]
    pile: KqpPile
    discard: list[str]
    taxes: list[Transfer]
    owed: dict[str, int]
    finished: list[int]
    rounds_log: list[KqpRoundsLogEntry]
