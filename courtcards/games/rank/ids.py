"""Rank's action ids (docs/engine/rank.md has the table).

One layout per number of decks (1 for 3-6 players, 2 for 7-12, RK-1), the
same for every variant: ids of a variant's own decisions are simply never
legal in the others. With ``D`` decks a set holds at most ``A = 7*D`` cards
of one number and ``W = 4*D`` Wilds.

====================  ==============================================================
0                     pass
1, 2                  lead, steal (the King's benefit, RK-12)
3, 4                  keep, swap (King's Hand, RK-14)
5 .. 21               give card 1..12, W, U, D, C, C2 (code - 1 + 5): a card given back
                      (RK-12, RK-13); giving two (Classic President) is two ids, the
                      lower card code first, no ``done``
22, 23                C, C2 alone (RK-6)
24, 25                U alone, D alone (RK-7)
26 ..                 sets (RK-4): block ``b`` of ``A*(W+1)`` ids, inside it
                      ``(a-1)*(W+1) + w`` for ``a`` number cards and ``w`` Wilds;
                      ``b = 3*(x-1) + m`` for ``a`` cards of value ``x`` with modifier
                      ``m`` (0 none, 1 U, 2 D), ``b = 36 + (x-2)`` for ``a`` cards of
                      ``x`` plus one ``x-1`` lifted by a U (x = 2..12)
then                  Wilds alone: ``2*(w-1) + m`` (m 0 none, 1 U), w = 1..W
====================  ==============================================================

Sizes: 1679 ids for one deck, 5964 for two.
"""

from __future__ import annotations

from collections.abc import Hashable

from courtcards.core.errors import ActionIdError
from courtcards.core.ids import ActionCodec
from courtcards.games.rank import actions as A
from courtcards.games.rank.cards import CROWN, CROWN2, DECK_COUNTS, DOWN, TEXT, UP, WILD

PASS, LEAD, STEAL, KEEP, SWAP = 0, 1, 2, 3, 4
GIVE = 5  # + card code - 1
PLAY_CROWN, PLAY_CROWN2, LONE_UP, LONE_DOWN = 22, 23, 24, 25
SETS = 26
LIFT_BLOCKS = 36  # blocks 0..35: value x and modifier m; then one lift block per x = 2..12

_NAMES = ("pass", "lead", "steal", "keep", "swap")
_WORDS = {name: i for i, name in enumerate(_NAMES)}


def set_cards(x: int, a: int, lift: int, w: int, mod: int) -> tuple[int, ...]:
    """The canonical cards of ``a`` x's (plus one x-1 if ``lift``), ``w`` Wilds and
    modifier ``mod`` (0 none, 1 U, 2 D)."""
    return (x,) * a + (x - 1,) * lift + (WILD,) * w + ((), (UP,), (DOWN,))[mod]


class RankCodec(ActionCodec):
    def __init__(self, decks: int) -> None:
        super().__init__()
        self.decks = decks
        self.max_same = DECK_COUNTS[1] * decks
        self.max_wilds = DECK_COUNTS[WILD] * decks
        block = self.max_same * (self.max_wilds + 1)
        self.block = block
        self.wilds_start = SETS + (LIFT_BLOCKS + 11) * block
        self.size = self.wilds_start + 2 * self.max_wilds
        plays: list[tuple[int, ...]] = [(CROWN,), (CROWN2,), (UP,), (DOWN,)]
        for b in range(LIFT_BLOCKS + 11):
            x, m, lift = (b // 3 + 1, b % 3, 0) if b < LIFT_BLOCKS else (b - LIFT_BLOCKS + 2, 1, 1)
            for a in range(1, self.max_same + 1):
                for w in range(self.max_wilds + 1):
                    plays.append(set_cards(x, a, lift, w, m))
        for w in range(1, self.max_wilds + 1):
            plays += [set_cards(0, 0, 0, w, 0), set_cards(0, 0, 0, w, 1)]
        self._play_cards = plays
        self._play_ids = {cards: PLAY_CROWN + i for i, cards in enumerate(plays)}
        assert len(plays) == self.size - PLAY_CROWN

    def play_id(self, cards: tuple[int, ...]) -> int | None:
        """The id of the play of these canonical cards, None if no such set exists."""
        return self._play_ids.get(cards)

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, A.RankAction):
            raise ActionIdError(repr(action), None, "not a Rank action")
        kind = action.kind
        if kind == "play":
            found = self._play_ids.get(action.cards)
            if found is None:
                raise ActionIdError(
                    action.text,
                    None,
                    "no id: this play can never be legal (RK-4 to RK-7, "
                    f"{self.decks} deck{'s' if self.decks > 1 else ''})",
                )
            return (found,)
        if kind == "give":
            if not 1 <= len(action.cards) <= 2:
                raise ActionIdError(action.text, None, "no id: one or two cards are given back (RK-12, RK-13)")
            return tuple(GIVE + c - 1 for c in sorted(action.cards))
        return (_WORDS[kind],)

    def describe(self, action_id: int) -> str:
        if not 0 <= action_id < self.size:
            raise ActionIdError(action_id, None, f"out of range (ids are 0..{self.size - 1})")
        if action_id < GIVE:
            return _NAMES[action_id]
        if action_id < PLAY_CROWN:
            return f"give {TEXT[action_id - GIVE + 1]}"
        return " ".join(TEXT[c] for c in self._play_cards[action_id - PLAY_CROWN])

    def give_card(self, action_id: int) -> int:
        """The card code of a give id (one card of a give-back)."""
        return action_id - GIVE + 1
