"""The Five Tricks view as a type (courtcards.core.views): what ``state.view(seat)``
returns. It speaks the shared vocabulary (``round`` is the trick being played, per
player ``score`` is tricks won); the game's own fields are ``set_aside`` (how many
cards were set aside unseen), ``leader``, ``led_suit``, ``trick`` (the cards on the
table with who played them), ``tricks_log`` (every finished trick) and per player
``voids`` (the suits it is known to lack)."""

from __future__ import annotations

from courtcards.core.views import PlayerBase, ViewBase, closed
from typing_extensions import TypedDict


@closed
class FiveTricksPlayer(PlayerBase):
    score: int
    voids: list[str]


@closed
class FiveTricksPlayed(TypedDict):
    seat: int
    card: str


@closed
class FiveTricksTrick(TypedDict):
    trick: int
    leader: int
    cards: list[str]
    winner: int


@closed
class FiveTricksView(ViewBase):
    players: list[FiveTricksPlayer]
    set_aside: int
    leader: int
    led_suit: str | None
    trick: list[FiveTricksPlayed]
    tricks_log: list[FiveTricksTrick]
