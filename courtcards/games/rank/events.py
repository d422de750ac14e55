"""Rank's events as data (courtcards.core.events): each kind and its data's fields."""

from __future__ import annotations

from courtcards.core.events import EventKinds

_MOVE = {"from": "seat", "to": "seat", "count": "int", "cards": "cards?"}  # cards: to the two seats only

KINDS = EventKinds({
    "deal": {"hand": "int", "characters": "seats?", "cards": "int", "draw": "int", "kings_hand": "bool"},
    "kings_hand_offer": {"seat": "seat"},
    "kings_hand": {"seat": "seat", "swap": "bool"},
    "benefit": {"seat": "seat"},
    "choose_lead": {"seat": "seat"},
    "steal": _MOVE,
    "tax": _MOVE,
    "give": _MOVE,
    "lead": {"seat": "seat"},
    "new_round": {"seat": "seat"},
    "pass": {"seat": "seat"},
    "play": {"seat": "seat", "cards": "cards", "place": "int?"},
    "lone": {"seat": "seat", "cards": "cards", "out": "bool"},
    "shed": {"seat": "seat", "cards": "cards", "out": "bool"},
    "crown": {"seat": "seat", "cards": "cards", "out": "bool", "drawn": "int?", "drew": "cards?"},
    "round_won": {"seat": "seat", "leader": "seat"},
    "hand_over": {"hand": "int", "finish": "seats", "gained": "ints", "seats": "seats", "scores": "ints",
                  "endless": "bool"},
    "game_won": {"seat": "seat", "kings": "int?", "hands": "int?", "tokens": "int?", "tie": "bool?"},
})
