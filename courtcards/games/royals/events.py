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
    refusals={
        # why an action is refused (State.refusal): each code and its data's fields; a face card as its text
        "not_this_game": {"action": "str"},  # an action of another game
        "wrong_phase": {"phase": "str", "kind": "str"},  # the phase takes other kinds of action
        "not_in_hand": {"cards": "cards"},  # the cards not held
        "not_a_royal": {"cards": "cards"},  # RY-3
        "own_royals": {"seat": "seat"},  # RY-4, RY-5
        "not_a_seat": {"target": "int", "players": "int"},
        "no_royals": {"seat": "seat"},  # RY-4, RY-5
        "no_such_royal": {"seat": "seat", "face": "str"},
        "nothing_to_commit": {},  # RY-5
        "commit_count": {"count": "int", "given": "int", "up_to": "bool"},  # RY-4, RY-5; up_to: the defender's
        "block_too_low": {"attack": "int", "block": "int"},  # RY-4
        "not_open": {"attack": "int", "block": "int"},
        "hit_order": {"face": "str", "faces": "strs"},  # faces: the Royals the next hit may go to
        "wrong_royal": {"face": "str", "given": "str"},  # face: the hit Royal to deal with now (RY-6)
        "wrong_suit": {"face": "str", "cards": "cards"},  # RY-6
        "too_high": {"face": "str", "cards": "cards", "hits": "int", "number": "int", "most": "int"},  # RY-6
    },
)
