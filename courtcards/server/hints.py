"""Hints: the search bot's move for a human seat, computed from that seat's view only.

``POST /api/tables/{table_id}/hint`` with the seat's token answers the move the
search bot (ISMCTS) would play and its estimated win chance. When the seat has
only one legal move the answer is that move, at once, with ``forced`` true and no
win chance (``win_chance`` null): there is nothing to search. It works only at
tables with the ``hints`` setting (on by default when a bot has a seat, off in
games between people) and only for the seat to move. The search runs in a
worker process (``--compute-workers``; a thread with 0) with a bounded budget, at
most ``--max-hints`` at once per server process and ``--max-hints-per-address`` of
one client address (429 ``busy`` / ``too_many_hints`` beyond), so the event loop
keeps serving the tables and one client cannot take every search.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from courtcards.bots.ismcts import hint
from courtcards.server.guards import ServerConfig
from courtcards.server.quotas import Concurrent
from courtcards.server.schemas import HintResponse
from courtcards.server.tables import ApiError, Lobby

HINT_SECONDS = 1.0  # wall-clock cap of one hint's search

router = APIRouter(tags=["tables"])


class HintRequest(BaseModel):
    token: str = Field(description="The seat's token from POST /api/tables/{id}/join.")


def _slots(request: Request) -> Concurrent:
    state = request.app.state
    if getattr(state, "hint_slots", None) is None:
        cfg: ServerConfig = state.config
        state.hint_slots = Concurrent(cfg.max_hints, cfg.max_hints_per_address, "too_many_hints", "hint", "hints")
    slots: Concurrent = state.hint_slots
    return slots


@router.post("/api/tables/{table_id}/hint", response_model=HintResponse)
async def table_hint(table_id: str, body: HintRequest, request: Request) -> dict[str, Any]:
    """The search bot's suggestion for the token's seat, from that seat's view."""
    lobby: Lobby = request.app.state.lobby
    table = await lobby.get(table_id)
    seat = table.seat_for_token(body.token)
    if seat is None:
        raise ApiError(403, "bad_token", "this token does not belong to a seat at this table")
    if not table.settings.hints:
        raise ApiError(403, "hints_off", "hints are off at this table (games between people have none)")
    async with table.lock:
        if seat not in table.to_move():
            raise ApiError(409, "not_your_turn", f"seat {seat} has no decision to make now")
        legal = table.state.legal_actions(seat)
        if len(legal) == 1:  # a forced move: no search, no win chance
            return {
                "seat": seat,
                "version": table.state.version,
                "action": legal[0].text,
                "win_chance": None,
                "forced": True,
                "iterations": 0,
            }
    address = request.client.host if request.client is not None else "unknown"
    with _slots(request).slot(address):  # 429 too_many_hints (this address) or busy (the server)
        async with table.lock:
            if seat not in table.to_move():
                raise ApiError(409, "not_your_turn", f"seat {seat} has no decision to make now")
            view = table.state.view(seat)
            legal = table.state.legal_actions(seat)
            version = table.state.version
            seed = (table.state.seed * 1_000_003 + version * 31 + seat) % (1 << 63)
        compute = lobby.compute
        if compute is not None:  # a worker process: the search takes no time from this one's tables
            if compute.full:
                raise ApiError(429, "busy", "the server's search workers are all busy; ask again in a second")
            texts = [a.text for a in legal]
            action, chance, iterations = await compute.hint(table.game.name, view, texts, seed, HINT_SECONDS)
        else:
            advice = await asyncio.to_thread(hint, view, legal, seed, HINT_SECONDS)
            action, chance, iterations = advice.action.text, advice.chance, advice.iterations
    return {
        "seat": seat,
        "version": version,
        "action": action,
        "win_chance": chance,
        "forced": len(legal) == 1,
        "iterations": iterations,
    }
