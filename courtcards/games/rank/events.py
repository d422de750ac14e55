"""Rank's events as data (courtcards.core.events): each kind and its data's fields."""

from __future__ import annotations

from courtcards.core.events import EventKinds

_MOVE = {"from": "seat", "to": "seat", "count": "int", "cards": "cards?"}  # cards: to the two seats only

KINDS = EventKinds(
    {
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
        "hand_over": {
            "hand": "int",
            "finish": "seats",
            "gained": "ints",
            "seats": "seats",
            "scores": "ints",
            "endless": "bool",
        },
        "game_won": {"seat": "seat", "kings": "int?", "hands": "int?", "tokens": "int?", "tie": "bool?"},
    },
    refusals={
        # why an action is refused (State.refusal): each code and its data's fields
        "not_this_game": {"action": "str"},  # an action of another game
        "not_your_decision": {"seat": "seat"},
        "game_over": {},
        "not_now": {"action": "str"},  # an action no phase of the hand takes now
        "swap_or_keep": {},  # RK-14
        "lead_or_steal": {},  # RK-12
        "nothing_to_steal": {"seat": "seat"},  # the Beggar (RK-12)
        "must_give": {"phase": "str", "count": "int"},  # RK-12, RK-13: the cards owed
        "wrong_count": {"count": "int", "given": "int"},  # the count owed, or the pile's count (RK-4)
        "not_in_hand": {"cards": "cards", "held": "int", "needed": "int"},
        "leader_must_play": {},  # RK-8
        "own_pile": {},  # RK-8
        "not_a_play": {"action": "str"},
        "crown_alone": {},  # RK-6
        "one_modifier": {},  # RK-4
        "lone_modifier": {},  # RK-7
        "out_of_range": {"value": "int", "pile": "int"},  # RK-7
        "down_needs_number": {},  # RK-5
        "mixed_values": {},  # RK-4
        "too_low": {"value": "int", "pile": "int"},  # RK-4
        "nothing_beats": {"pile": "int"},  # RK-4
        "wilds_too_high": {"pile": "int", "value": "int"},  # RK-4
    },
)
