"""King Queens & Paupers' action ids (docs/engine/kqp.md).

With ``per`` copies of each of 3..Gold (10 from 6 players, 9 at 5, 8 at 4; KQ-1)
the numbering depends only on the table size:

=======================  =====================================================
``0 .. 14*per-1``        a play of ``c`` cards of value ``v`` (3..Gold):
                         ``(v - 3) * per + (c - 1)``
``14*per``               ``Q``, then ``Q Q``, ``K``, ``pass``
``14*per + 4 ..``        ``give v``: one card of a give-back, ``v`` = 3..Gold
=======================  =====================================================

A give-back (KQ-4) is a sequence of ``give v`` ids, one per card, lowest first:
the Queen's is one id, the King's exactly two (the same id twice for a pair).
Every give-back of one decision has the same length, so the encodings are
prefix-free.
"""

from __future__ import annotations

from collections.abc import Hashable

from courtcards.core.errors import ActionIdError
from courtcards.core.ids import ActionCodec
from courtcards.games.kqp.actions import KqpAction
from courtcards.games.kqp.cards import KING, PLAIN, QUEEN, TEXT, plain_per_value

NPLAIN = len(PLAIN)  # 3..Gold


class KqpCodec(ActionCodec):
    """The numbering for one table size (options do not change it)."""

    def __init__(self, num_players: int) -> None:
        super().__init__()
        self.per = per = plain_per_value(num_players)
        self.queen = NPLAIN * per
        self.queens = self.queen + 1
        self.king = self.queen + 2
        self.pass_id = self.queen + 3
        self.give = self.queen + 4  # + (v - 3)
        self.size = self.give + NPLAIN

    def play_id(self, value: int, count: int) -> int:
        return (value - 3) * self.per + count - 1

    def give_id(self, value: int) -> int:
        return self.give + value - 3

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, KqpAction):
            raise ActionIdError(repr(action), None, "not a King Queens & Paupers action")
        if action.kind == "pass":
            return (self.pass_id,)
        if action.kind == "give":
            if not action.cards or any(c not in PLAIN for c in action.cards):
                raise ActionIdError(action.text, None, "a give-back is 1 or 2 cards of 3..Gold (KQ-4)")
            return tuple(self.give_id(c) for c in action.cards)
        v, c = action.value, action.count
        if v in PLAIN and c <= self.per:
            return (self.play_id(v, c),)
        if v == QUEEN and c <= 2:
            return (self.queen if c == 1 else self.queens,)
        if v == KING and c == 1:
            return (self.king,)
        raise ActionIdError(action.text, None, "no such play at this table size (KQ-1, KQ-5)")

    def describe(self, action_id: int) -> str:
        i = int(action_id)
        if not 0 <= i < self.size:
            raise ActionIdError(action_id, None, f"out of range (ids are 0..{self.size - 1})")
        if i < self.queen:
            v, c = 3 + i // self.per, i % self.per + 1
            return " ".join([TEXT[v]] * c)
        if i >= self.give:
            return f"give {TEXT[3 + i - self.give]} (one card of a give-back)"
        return ("Q", "Q Q", "K", "pass")[i - self.queen]
