"""King Queens & Paupers' events as data (courtcards.core.events): each kind and its data's fields."""

from __future__ import annotations

from courtcards.core.events import EventKinds

_MOVE = {"from": "seat", "to": "seat", "count": "int", "cards": "cards?"}  # cards: to the two seats only

KINDS = EventKinds({
    # seating: the seats from the King counter-clockwise, roles their role names; cards: the most and
    # fewest dealt, more/less the seats dealt each where they differ
    "deal": {"round": "int", "seating": "seats", "roles": "strs", "cards": "ints", "more": "seats?",
             "less": "seats?"},
    "tax": _MOVE,
    "give": _MOVE,
    "no_tax": {"from": "seat", "to": "seat"},
    "no_give_back": {"from": "seat", "to": "seat"},
    "lead": {"seat": "seat"},
    "play": {"seat": "seat", "cards": "cards", "place": "int?", "consecutive": "bool?"},
    "pass": {"seat": "seat"},
    "pile_won": {"seat": "seat", "owner": "seat", "leader": "seat"},
    "last": {"seat": "seat", "points": "int"},
    "round_over": {"round": "int", "finish": "seats", "seats": "seats", "points": "ints", "scores": "ints"},
    "game_over": {"seat": "seat", "points": "int", "tied": "bool"},
})
