"""Royals' events as data (courtcards.core.events): each kind and its data's fields.

An action's consequences are one event of kind "action" whose ``steps`` are its parts in order
(each with its own ``kind`` from :data:`KINDS`' steps); a placeholder names a step's seat as
``{steps.2.seat}``. A seat told more (its draw, its commitment) sees its step with ``cards``."""

from __future__ import annotations

from courtcards.core.events import EventKinds

KINDS = EventKinds(
    {
        "deal": {"count": "int", "seat": "seat?", "cards": "cards?"},  # seat and cards: to each seat, its own
        "first_player": {"seat": "seat", "shown": "seats", "cards": "cards"},  # the bottom cards shown (RY-1)
        "action": {"steps": "steps"},
    },
    steps={
        "reshuffle": {"seat": "seat", "count": "int"},
        "wins": {"seat": "seat", "points": "int", "target": "int"},
        "turn_limit": {"limit": "int"},
        "draw": {"turn": "int", "seat": "seat", "count": "int", "cards": "cards?"},
        "commit": {"seat": "seat", "cards": "cards?"},
        "royal": {"seat": "seat", "cards": "cards"},
        "discard_hand": {"seat": "seat", "cards": "cards"},
        "attack": {"seat": "seat", "defender": "seat", "committers": "seats", "counts": "ints"},
        "assassinate": {"seat": "seat", "owner": "seat", "face": "str", "committers": "seats", "counts": "ints"},
        "reveal": {"seats": "seats", "tables": "strs", "attacks": "ints", "blocks": "ints"},
        "cancel": {"attack": "int", "block": "int"},
        "pairs_done": {"seat": "seat"},
        "block": {"seat": "seat", "attack": "int", "block": "int"},
        "hits": {"seat": "seat", "hits": "int", "face": "str?"},
        "spread": {"seat": "seat", "faces": "strs", "hits": "ints"},
        "hit": {"seat": "seat", "hit": "int", "hits": "int", "face": "str"},
        "replace": {"seat": "seat", "face": "str", "cards": "cards"},  # cards: the new number, the old
        "discard_royal": {"seat": "seat", "cards": "cards"},
    },
)
