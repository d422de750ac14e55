"""Why a Royals action is refused: specific reasons for the common mistakes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtcards.games.royals import actions as A
from courtcards.games.royals.cards import TEXT, is_number, rank, suit

if TYPE_CHECKING:
    from courtcards.games.royals.state import RoyalsState

_PHASE_WANTS = {
    "action": "a turn action (royal, attack, assassinate, discard hand)",
    "commit": "the cards to commit ('commit ...')",
    "pair": "a pairing ('block A with B') or 'done'",
    "hits": "where the next hit goes ('hit QH')",
    "losses": "'discard QH' or 'replace QH 3H' for the hit Royal",
}
_KINDS_BY_PHASE = {
    "action": ("royal", "attack", "assassinate", "discard_hand"),
    "commit": ("commit",),
    "pair": ("block", "done"),
    "hits": ("hit",),
    "losses": ("discard", "replace"),
}


def explain(state: RoyalsState, seat: int, act: A.RoyalsAction) -> str:
    phase = state.phase
    if act.kind not in _KINDS_BY_PHASE.get(phase, ()):
        return f"the game wants {_PHASE_WANTS.get(phase, 'no action')} now"
    hand = state.hands[seat]
    missing = [TEXT[c] for c in act.cards if c not in hand]
    if act.kind == "royal" and missing:
        return f"{' and '.join(missing)} not in your hand"
    if act.kind in ("attack", "assassinate"):
        if act.seat == seat:
            return "you cannot attack or assassinate your own Royals (RY-4, RY-5)"
        if not 0 <= act.seat < state.num_players:
            return f"there is no seat {act.seat}"
        if not state.royals[act.seat]:
            return f"seat {act.seat} has no Royal in play (RY-4)"
        if act.kind == "assassinate" and act.cards[0] not in dict(state.royals[act.seat]):
            return f"seat {act.seat} has no Royal {TEXT[act.cards[0]]} in play"
    fight = state.fight
    if act.kind == "commit" and fight is not None:
        if missing:
            return f"{' and '.join(missing)} not in your hand"
        k = fight.need.get(seat, 0)
        if fight.kind == "attack" and seat == fight.defender:
            return f"the defender commits at most {k} card(s) (RY-4)"
        return f"you must commit exactly {k} card(s) (RY-4, RY-5)"
    if act.kind == "block" and fight is not None:
        a, b = act.values
        if b < a:
            return "a block only cancels an attack of equal or lower value (RY-4)"
        return f"no open attack of {a} and block of {b} to pair"
    if act.kind == "hit" and fight is not None:
        if act.cards[0] not in dict(state.royals[fight.defender]):
            return f"you have no Royal {TEXT[act.cards[0]]}"
        return "hits are placed in card order of the face cards (each spread has one notation)"
    if act.kind in ("discard", "replace") and fight is not None:
        face, number, hits = state._current_wound()
        if act.cards[0] != face:
            return f"the hit Royal to deal with now is {TEXT[face]}"
        if act.kind == "replace":
            new = act.cards[1]
            if missing:
                return f"{TEXT[new]} not in your hand"
            if not is_number(new) or suit(new) != suit(face):
                return f"the new card must be a number card of {TEXT[face]}'s suit (RY-6)"
            return f"{TEXT[face]} takes {hits} hit(s) at {rank(number)}: the new card must be at most " \
                   f"{rank(number) - hits} (RY-6)"
    return "not a legal action now"
