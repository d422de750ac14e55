"""Royals' actions and their notation.

==========================  ==========================================================
``royal QH 7H``             play a Royal: face card, then number card of its suit (RY-3)
``attack 2``                attack seat 2 (RY-4)
``assassinate 2 QH``        attempt to assassinate seat 2's Royal whose face card is QH (RY-5)
``discard hand``            discard the whole hand (RY-2)
``commit 7H KS``            the cards committed to a fight, in card order (RY-4, RY-5)
``commit none``             the defender commits no card (RY-4)
``block 7 with 9``          the defender pairs an attack of value 7 with a block of value 9 (RY-4)
``done``                    the defender pairs no more blocks
``hit QH``                  the defender puts one hit on its Royal QH (RY-4)
``discard QH``              the defender discards its hit Royal QH (RY-6)
``replace QH 3H``           the defender puts 3H under its hit Royal QH instead (RY-6)
==========================  ==========================================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from courtcards.core.actions import Action
from courtcards.core.errors import NotationError
from courtcards.games.royals.cards import TEXT, is_face, is_number, parse_card, parse_card_list, suit

HINT = (
    "actions are: royal QH 7H, attack SEAT, assassinate SEAT QH, discard hand, commit CARDS, commit none, "
    "block A with B, done, hit QH, discard QH, replace QH 3H"
)


class RoyalsKind(StrEnum):
    """What a Royals action does (a StrEnum: ``action.kind == "royal"`` reads too)."""

    ROYAL = "royal"
    ATTACK = "attack"
    ASSASSINATE = "assassinate"
    DISCARD_HAND = "discard_hand"
    COMMIT = "commit"
    BLOCK = "block"
    DONE = "done"
    HIT = "hit"
    DISCARD = "discard"
    REPLACE = "replace"


_KINDS: dict[str, RoyalsKind] = {k.value: k for k in RoyalsKind}  # also by member: a StrEnum hashes as its text
_KINDS.update({k: k for k in RoyalsKind})


class RoyalsAction(Action):
    """A Royals action (the core's :class:`~courtcards.core.actions.Action`: immutable,
    equal when its text is equal, ``repr`` a call that rebuilds it). ``kind`` is a
    :class:`RoyalsKind`; ``seat`` the target seat (attack, assassinate), else -1; ``cards``
    the cards it names, in card order; ``values`` a pairing's (attack, block) values."""

    __slots__ = ("cards", "seat", "values")

    Kind = RoyalsKind
    game: ClassVar[str] = "royals"
    kind: RoyalsKind
    seat: int
    cards: tuple[int, ...]
    values: tuple[int, ...]

    def __init__(self, kind: str, seat: int = -1, cards: tuple[int, ...] = (), values: tuple[int, ...] = ()) -> None:
        # Action._init's fields, set directly: commitments are built by the thousand in fresh processes
        text = _text(kind, seat, cards, values)
        setattr_ = object.__setattr__
        setattr_(self, "kind", _KINDS[kind])
        setattr_(self, "text", text)
        setattr_(self, "_hash", hash(text))
        setattr_(self, "seat", seat)
        setattr_(self, "cards", cards)
        setattr_(self, "values", values)

    @classmethod
    def parse(cls, text: str) -> RoyalsAction:
        return parse_action(text)


def _text(kind: str, seat: int, cards: tuple[int, ...], values: tuple[int, ...]) -> str:
    names = " ".join([TEXT[c] for c in cards])
    if kind == "attack":
        return f"attack {seat}"
    if kind == "assassinate":
        return f"assassinate {seat} {names}"
    if kind == "discard_hand":
        return "discard hand"
    if kind == "commit":
        return f"commit {names}" if cards else "commit none"
    if kind == "block":
        return f"block {values[0]} with {values[1]}"
    if kind == "done":
        return "done"
    return f"{kind} {names}"  # royal, hit, discard, replace


MAX_SEATS = 6  # the most players Royals has

_CACHE: dict[tuple[str, int, tuple[int, ...], tuple[int, ...]], RoyalsAction] = {}


def make(kind: str, seat: int = -1, cards: tuple[int, ...] = (), values: tuple[int, ...] = ()) -> RoyalsAction:
    """The (interned) action; ``cards`` must already be in canonical order."""
    key = (kind, seat, cards, values)
    act = _CACHE.get(key)
    if act is None:
        if len(_CACHE) > 200_000:
            _CACHE.clear()
        act = _CACHE[key] = RoyalsAction(kind, seat, cards, values)
    return act


DONE = make("done")
DISCARD_HAND = make("discard_hand")
COMMIT_NONE = make("commit")

# the actions legal lists are made of, built once (looked up in constant time)
_SAME_SUIT = [[c for c in range(52) if suit(c) == suit(f) and is_number(c)] for f in range(52)]
ROYALS: list[dict[int, RoyalsAction]] = [
    {c: make("royal", cards=(f, c)) for c in _SAME_SUIT[f]} if is_face(f) else {} for f in range(52)
]
REPLACES: list[dict[int, RoyalsAction]] = [
    {c: make("replace", cards=(f, c)) for c in _SAME_SUIT[f]} if is_face(f) else {} for f in range(52)
]
HITS = [make("hit", cards=(f,)) if is_face(f) else DONE for f in range(52)]
DISCARDS = [make("discard", cards=(f,)) if is_face(f) else DONE for f in range(52)]
ATTACKS = [make("attack", s) for s in range(MAX_SEATS)]
ASSASSINATES = [[make("assassinate", s, (f,)) if is_face(f) else DONE for f in range(52)] for s in range(MAX_SEATS)]
BLOCKS = [[make("block", values=(a, b)) if b >= a else DONE for b in range(11)] for a in range(11)]
_COMMITS: dict[tuple[int, ...], RoyalsAction] = {(): COMMIT_NONE}


def commit(cards: tuple[int, ...]) -> RoyalsAction:
    """The (interned) commitment of ``cards``, which must be in card order."""
    act = _COMMITS.get(cards)
    if act is None:
        if len(_COMMITS) > 200_000:
            _COMMITS.clear()
        act = _COMMITS[cards] = RoyalsAction("commit", cards=cards)
    return act


COMMITS_GET = _COMMITS.get
SINGLES = [commit((c,)) for c in range(52)]


def _seat(text: str, word: str) -> int:
    if not word.isdigit():
        raise NotationError(text, f"{word!r} is not a seat number")
    return int(word)


def _value(text: str, word: str) -> int:
    w = word.upper()
    if w == "A":
        return 1
    if not w.isdigit() or not 1 <= int(w) <= 10:
        raise NotationError(text, f"{word!r} is not a card value (1-10, or A)")
    return int(w)


def _face(text: str, word: str) -> int:
    code = parse_card(word)
    if not is_face(code):
        raise NotationError(text, f"a Royal is named by its face card (J, Q or K), not {TEXT[code]}")
    return code


def _number(text: str, word: str) -> int:
    code = parse_card(word)
    if not is_number(code):
        raise NotationError(text, f"{TEXT[code]} is not a number card (A-10)")
    return code


def parse_action(text: str) -> RoyalsAction:
    if not isinstance(text, str):
        raise NotationError(repr(text), "an action must be text")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(text, f"empty action ({HINT})")
    head, rest = words[0].lower(), words[1:]
    n = len(rest)
    if head == "done" and n == 0:
        return DONE
    if head == "attack" and n == 1:
        return make("attack", _seat(text, rest[0]))
    if head == "assassinate" and n == 2:
        return make("assassinate", _seat(text, rest[0]), (_face(text, rest[1]),))
    if head == "discard" and (n == 0 or (n == 1 and rest[0].lower() == "hand")):
        return DISCARD_HAND
    if head in ("discard", "hit") and n == 1:
        return make(head, cards=(_face(text, rest[0]),))
    if head == "replace" and n == 2:
        face, number = _face(text, rest[0]), _number(text, rest[1])
        if suit(face) != suit(number):
            raise NotationError(text, "the new number card must be of the Royal's suit (RY-6)")
        return make("replace", cards=(face, number))
    if head == "royal" and n == 2:
        a, b = parse_card(rest[0]), parse_card(rest[1])
        face, number = (a, b) if is_face(a) else (b, a)
        if not is_face(face) or not is_number(number):
            raise NotationError(text, "a Royal is one face card (J, Q, K) and one number card (A-10) (RY-3)")
        if suit(face) != suit(number):
            raise NotationError(text, "a Royal's face card and number card must be of the same suit (RY-3)")
        return make("royal", cards=(face, number))
    if head == "commit":
        if n == 0 or (n == 1 and rest[0].lower() == "none"):
            return COMMIT_NONE
        cards = parse_card_list(" ".join(rest))
        if len(set(cards)) != len(cards):
            raise NotationError(text, "a card is committed at most once")
        return commit(tuple(sorted(cards)))
    if head == "block" and n == 3 and rest[1].lower() == "with":
        return make("block", values=(_value(text, rest[0]), _value(text, rest[2])))
    raise NotationError(text, f"not a Royals action ({HINT})")
