"""Royals' action ids (docs/engine/royals.md).

For ``n`` players there are ``374 + 13 n`` ids, in blocks (the *face index*
of a face card is ``3 * suit + (0 J, 1 Q, 2 K)``, in card order C D H S):

=====================  =========  ==========================================
block                  size       id inside the block
=====================  =========  ==========================================
``royal F N``          120        face index * 10 + rank of N - 1
``attack S``           n          S
``assassinate S F``    12 n       S * 12 + face index
``discard hand``       1
commit: card ``C``     52         card code, the core numbering ((rank - 1) * 4 + suit)
commit: done           1
``block A with B``     55         pairs 1 <= A <= B <= 10, by A then B
``done``               1          (pairing)
``hit F``              12         face index
``discard F``          12         face index
``replace F N``        120        face index * 10 + rank of N - 1
=====================  =========  ==========================================

A commitment is a sequence: each committed card in ascending code order (the one
numbering of the 52 cards, ``courtcards.core.cards``, as in Rank Royale's ids), then
commit-done (``commit none`` is commit-done alone). Every other action is one id.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache

from courtcards.core import cards as cards52
from courtcards.core.errors import ActionIdError
from courtcards.core.ids import ActionCodec
from courtcards.games.royals.actions import RoyalsAction
from courtcards.games.royals.cards import CORE, TEXT, rank, suit

FACES = tuple(s * 13 + r for s in range(4) for r in (10, 11, 12))
BLOCK_PAIRS = tuple((a, b) for a in range(1, 11) for b in range(a, 11))
_PAIR_INDEX = {p: i for i, p in enumerate(BLOCK_PAIRS)}


def face_index(face: int) -> int:
    return 3 * suit(face) + face % 13 - 10


def _number_card(face: int, value: int) -> int:
    return suit(face) * 13 + value - 1


class RoyalsCodec(ActionCodec):
    """The numbering for ``num_players`` seats (the options do not change it)."""

    def __init__(self, num_players: int) -> None:
        super().__init__()
        n = self.num_players = num_players
        self.ROYAL = 0
        self.ATTACK = self.ROYAL + 120
        self.ASSASSINATE = self.ATTACK + n
        self.DISCARD_HAND = self.ASSASSINATE + 12 * n
        self.COMMIT_CARD = self.DISCARD_HAND + 1
        self.COMMIT_DONE = self.COMMIT_CARD + 52
        self.BLOCK = self.COMMIT_DONE + 1
        self.DONE = self.BLOCK + len(BLOCK_PAIRS)
        self.HIT = self.DONE + 1
        self.DISCARD = self.HIT + 12
        self.REPLACE = self.DISCARD + 12
        self.size = self.REPLACE + 120

    def _seat(self, action: RoyalsAction) -> int:
        if not 0 <= action.seat < self.num_players:
            raise ActionIdError(
                action.text,
                None,
                f"there is no seat {action.seat} at a table of {self.num_players}, so this action has no id",
            )
        return action.seat

    def _encode(self, action: Hashable) -> tuple[int, ...]:
        if not isinstance(action, RoyalsAction):
            raise ActionIdError(action, None, "not a Royals action")
        kind, cards = action.kind, action.cards
        if kind == "commit":
            first = self.COMMIT_CARD
            return (*sorted(first + CORE[c] for c in cards), self.COMMIT_DONE)
        if kind == "royal":
            return (self.ROYAL + face_index(cards[0]) * 10 + rank(cards[1]) - 1,)
        if kind == "attack":
            return (self.ATTACK + self._seat(action),)
        if kind == "assassinate":
            return (self.ASSASSINATE + self._seat(action) * 12 + face_index(cards[0]),)
        if kind == "discard_hand":
            return (self.DISCARD_HAND,)
        if kind == "block":
            return (self.BLOCK + _PAIR_INDEX[(action.values[0], action.values[1])],)
        if kind == "done":
            return (self.DONE,)
        if kind == "hit":
            return (self.HIT + face_index(cards[0]),)
        if kind == "discard":
            return (self.DISCARD + face_index(cards[0]),)
        if kind == "replace":
            return (self.REPLACE + face_index(cards[0]) * 10 + rank(cards[1]) - 1,)
        raise ActionIdError(action.text, None, f"unknown kind of action {kind!r}")

    def describe(self, action_id: int) -> str:
        i = action_id
        if not 0 <= i < self.size:
            raise ActionIdError(i, None, f"out of range (ids are 0..{self.size - 1})")
        if i < self.ATTACK:
            face = FACES[i // 10]
            return f"royal {TEXT[face]} {TEXT[_number_card(face, i % 10 + 1)]}"
        if i < self.ASSASSINATE:
            return f"attack {i - self.ATTACK}"
        if i < self.DISCARD_HAND:
            seat, f = divmod(i - self.ASSASSINATE, 12)
            return f"assassinate {seat} {TEXT[FACES[f]]}"
        if i == self.DISCARD_HAND:
            return "discard hand"
        if i < self.COMMIT_DONE:
            return f"commit: card {cards52.TEXT[i - self.COMMIT_CARD]}"
        if i == self.COMMIT_DONE:
            return "commit: done"
        if i < self.DONE:
            a, b = BLOCK_PAIRS[i - self.BLOCK]
            return f"block {a} with {b}"
        if i == self.DONE:
            return "done"
        if i < self.DISCARD:
            return f"hit {TEXT[FACES[i - self.HIT]]}"
        if i < self.REPLACE:
            return f"discard {TEXT[FACES[i - self.DISCARD]]}"
        face = FACES[(i - self.REPLACE) // 10]
        return f"replace {TEXT[face]} {TEXT[_number_card(face, (i - self.REPLACE) % 10 + 1)]}"


@cache
def codec(num_players: int) -> RoyalsCodec:
    """The (shared) numbering for a table size."""
    return RoyalsCodec(num_players)
