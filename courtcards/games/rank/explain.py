"""Plain-words reasons why a Rank action is not legal now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtcards.games.rank import actions as A
from courtcards.games.rank.cards import CROWN, CROWN2, DOWN, NAMES, NCODES, NUMBERS, UP, WILD, counts_of

if TYPE_CHECKING:
    from courtcards.games.rank.state import RankState


def explain(state: RankState, seat: int, act: A.RankAction) -> str:
    phase = state.phase
    words = {
        "kings_hand": "the King decides whether to take the King's Hand: 'swap' or 'keep'",
        "benefit": "the King chooses a benefit: 'lead' or 'steal'",
        "give_back": "the King gives one card back to the Beggar: 'give CARD'",
        "exchange": "cards are given back: 'give CARDS'",
    }
    if phase != "play":
        if phase == "benefit" and act.kind == "steal":
            return "the Beggar holds no number card, so the King can only lead (RK-12)"
        if act.kind == "give" and phase in ("give_back", "exchange"):
            need = 1 if phase == "give_back" else state.owed.get(seat, 0)
            if len(act.cards) != need:
                return f"give exactly {need} card{'s' if need != 1 else ''}"
            return _missing(state, seat, act) or "you cannot give those cards"
        return words.get(phase, f"no {act.kind} now")
    if act.kind == "pass":
        return "the leader must play: any single card or set" if not state.pile_count else "you own the pile"
    if act.kind != "play":
        return f"'{act.text}' is not a play; play cards or pass"
    missing = _missing(state, seat, act)
    if missing:
        return missing
    cards = act.cards
    counts = counts_of(cards)
    if any(c in cards for c in (CROWN, CROWN2)):
        return "a Crown is always played alone (RK-6)"
    mods = counts[UP] + counts[DOWN]
    nums = [c for c in cards if c in NUMBERS]
    if mods > 1:
        return "a set takes at most one Rank-Up or Rank-Down (RK-4)"
    if not nums and not counts[WILD]:
        hand_only_mods = state.sizes[seat] == state.hands[seat][UP] + state.hands[seat][DOWN]
        if not hand_only_mods:
            return "a lone Rank-Up or Rank-Down is only allowed when your hand holds nothing else (RK-7)"
        if state.pile_count:
            return "the pile's value must stay within 1-13 (RK-7)"
        return "not legal now"
    if counts[DOWN] and not nums:
        return "a Rank-Down needs at least one number card with it (RK-5)"
    distinct = sorted(set(nums))
    if len(distinct) > 1:
        lift_ok = counts[UP] and len(distinct) == 2 and distinct[1] - distinct[0] == 1 and nums.count(distinct[0]) == 1
        if not lift_ok:
            return ("the number cards must all have one value; with a Rank-Up, "
                    "exactly one card may be one lower (RK-4)")
    k = state.pile_count
    if k and act.count != k:
        return f"the pile needs {k} card{'s' if k != 1 else ''} (number cards and Wilds), you played {act.count}"
    if k:
        if not nums:
            if UP in cards:
                return f"nothing beats a {state.pile_value}: 13 is the highest value (RK-4)"
            return (f"Wilds alone on a {state.pile_value} would be {state.pile_value + 1}, "
                    "but on their own they go no higher than 12; with a Rank-Up they make a 13 (RK-4)")
        return f"a value of {act.base} does not beat the pile's {state.pile_value}"
    return "not legal now"


def _missing(state: RankState, seat: int, act: A.RankAction) -> str | None:
    have = state.hands[seat]
    need = counts_of(act.cards)
    short = [c for c in range(NCODES) if need[c] > have[c]]
    if short:
        c = short[0]
        held = "no" if have[c] == 0 else "only one" if have[c] == 1 else f"only {have[c]}"
        return f"you hold {held} {NAMES[c]}{'' if have[c] == 1 else 's'}, and the play needs {need[c]}"
    return None
