"""Rank Royale's action ids (docs/engine/royale.md), the same for every option.

==========  ===========================================================
0..51       play card ``c`` (code ``c`` = (rank - 1) * 4 + suit, so AC AD AH AS 2C ... KS)
52..103     discard card ``c`` (id 52 + ``c``): one step of a discard
==========  ===========================================================

A discard of k cards is the k ids of its cards in ascending card order. Every
legal discard of one decision has the same length (the count owed, RR-4), so
the sequences are prefix-free without a final ``done`` id: the k-th card
completes the action.
"""

from __future__ import annotations

from collections.abc import Hashable

from courtcards.core.errors import ActionIdError
from courtcards.core.ids import ActionCodec
from courtcards.games.royale.actions import RoyaleAction
from courtcards.games.royale.cards import TEXT

PLAY_BASE = 0
DISCARD_BASE = 52
SIZE = 104


class RoyaleCodec(ActionCodec):
    size = SIZE

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, RoyaleAction):
            raise ActionIdError(None, None, f"{action!r} is not a Rank Royale action")
        if action.kind == "play":
            return (PLAY_BASE + action.cards[0],)
        return tuple(DISCARD_BASE + c for c in action.cards)

    def describe(self, action_id: int) -> str:
        if not 0 <= action_id < SIZE:
            raise ActionIdError(action_id, None, f"out of range (ids are 0..{SIZE - 1})")
        if action_id < DISCARD_BASE:
            return f"play {TEXT[action_id - PLAY_BASE]}"
        return f"discard {TEXT[action_id - DISCARD_BASE]} (one card of a discard, cards in ascending order)"
