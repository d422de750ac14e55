"""The Royals view as a type (courtcards.core.views): what ``state.view(seat)``
returns, field by field; see docs/notation.md and docs/schemas/views/royals.json.

The shared words (``round``, ``turn``, ``hand``, ``log``, and in each players
entry ``seat``, ``hand_size``, ``deck_size``, ``discard``, ``score``) come from
:class:`~courtcards.core.views.ViewBase` and :class:`~courtcards.core.views.PlayerBase`;
``round`` is the number of the current turn (turns begun, from 1) and ``score``
the points in play."""

from __future__ import annotations

from typing_extensions import TypedDict

from courtcards.core.views import PlayerBase, ViewBase, closed


@closed
class RoyalsRoyal(TypedDict):
    face: str
    number: str
    value: int


@closed
class RoyalsPlayer(PlayerBase):
    deck_size: int
    discard: list[str]  # top card first
    royals: list[RoyalsRoyal]
    score: int
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
class RoyalsView(ViewBase):
    hand_limit: int
    target: int
    first_player: int
    opening: list[list[str]]
    players: list[RoyalsPlayer]
    fight: RoyalsFight | None
    last_fight: RoyalsLastFight | None
