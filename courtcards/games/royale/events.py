"""Rank Royale's events as data (courtcards.core.events): each kind and its data's fields.

Every event names the two seats as ``seats`` (``{seats.0}``, ``{seats.1}`` in its template);
a round's event carries the revealed ``cards`` (seat 0's, seat 1's), and to each seat its own
draws as ``drawn`` (the winner's draw on rank first)."""

from __future__ import annotations

from courtcards.core.events import EventKinds

_ROUND = {
    "seats": "seats",
    "round": "int",
    "cards": "cards",
    "winner": "seat?",
    "loser": "seat?",
    "discard": "int?",
    "held": "int?",
    "discarded": "cards?",
    "drawn": "cards?",
}

KINDS = EventKinds(
    {
        "deal": {"seats": "seats", "count": "int"},
        "round": _ROUND,  # the reveal (RR-3), its outcome (RR-4) and the draws (RR-5)
        "discard": {"seats": "seats", "seat": "seat", "cards": "cards", "drawn": "cards?"},  # the loser's discards
        "round_limit": {"limit": "int"},
    },
    refusals={
        # why an action is refused (State.refusal): each code and its data's fields
        "play_phase": {},  # RR-3: one card from the hand
        "must_discard": {"count": "int"},  # RR-4: the loser on tier discards
        "not_your_decision": {},
        "card_twice": {},
        "not_in_hand": {"cards": "cards", "hand": "cards"},
        "discard_count": {"count": "int", "given": "int"},  # RR-2, RR-4
    },
)
