"""The Royals view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/royals.json."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from courtcards.core.views import ViewHeader, closed


@closed
class RoyalsRoyal(TypedDict):
    face: str
    number: str
    value: int


@closed
class RoyalsPlayer(TypedDict):
    seat: int
    hand: int
    deck: int
    discard: list[str]
    royals: list[RoyalsRoyal]
    points: int
    table: list[str]
    new_deck: list[str] | None


@closed
class RoyalsNeed(TypedDict):
    count: int
    up_to: bool


class RoyalsFightBase(TypedDict):
    kind: str
    attacker: int
    defender: int
    target: str | None
    revealed: bool
    attacks: list[int]
    blocks: list[int]
    pairs: list[list[int]]
    hits: int
    assigned: list[str]
    resolved: int


@closed
class RoyalsFight(RoyalsFightBase):
    need: dict[str, RoyalsNeed]
    open_attacks: list[int]
    open_blocks: list[int]
    wounds: list[list[int | str]]


@closed
class RoyalsLastFight(RoyalsFightBase):
    need: dict[str, int]
    table: list[list[str]]


@closed
class RoyalsView(ViewHeader):
    turn: int
    turn_number: int
    hand_limit: int
    target: int
    first_player: int
    opening: list[list[str]]
    players: list[RoyalsPlayer]
    fight: RoyalsFight | None
    last_fight: RoyalsLastFight | None
    log: list[str]
    hand: NotRequired[list[str]]
