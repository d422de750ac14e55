"""King Queens & Paupers' events as data (courtcards.core.events): each kind and its data's fields."""

from __future__ import annotations

from courtcards.core.events import EventKinds

_MOVE = {"from": "seat", "to": "seat", "count": "int", "cards": "cards?"}  # cards: to the two seats only

KINDS = EventKinds(
    {
        # seating: the seats from the King counter-clockwise, roles their role names; cards: the most and
        # fewest dealt, more/less the seats dealt each where they differ
        "deal": {
            "round": "int",
            "seating": "seats",
            "roles": "strs",
            "cards": "ints",
            "more": "seats?",
            "less": "seats?",
        },
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
    },
    refusals={
        # why an action is refused (State.refusal): each code and its data's fields; values as card texts
        "not_your_decision": {"seat": "seat"},
        "must_give": {},  # KQ-4: the King and Queen give back first
        "wrong_count": {"count": "int", "given": "int"},  # the count owed (KQ-4), or the pile's count
        "court_card_in_tax": {"cards": "cards"},  # KQ-4
        "not_in_hand": {"cards": "cards", "held": "int", "needed": "int"},
        "not_taxes": {},  # a give-back outside the taxes
        "leader_must_play": {},  # KQ-5, KQ-6
        "mixed_values": {},  # KQ-5
        "nothing_beats": {"pile": "str"},  # the King (KQ-5)
        "king_beats_queen": {"pile": "str"},  # KQ-5
        "queen_count": {"count": "int", "given": "int"},  # KQ-5, KQ-7
        "not_consecutive": {"pile": "str", "value": "str", "next": "str?"},  # KQ-7; next: none above Gold
        "too_low": {"value": "str", "pile": "str"},
    },
)
