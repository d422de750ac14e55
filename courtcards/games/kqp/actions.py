"""King Queens & Paupers' actions and their notation.

==================  ============================================================
``9 9 9``           a play: the cards, all of one value (``Q``, ``Q Q``, ``K``)
``pass``            pass; the player may still play later on this pile (KQ-6)
``give 3 4``        the King's or Queen's give-back after taxes (KQ-4)
==================  ============================================================

Cards inside an action are listed lowest first; ``S`` is Silver, ``G`` Gold.
"""

from __future__ import annotations

from courtcards.core.errors import NotationError
from courtcards.games.kqp.cards import TEXT, parse_card_list


class KqpAction:
    """An action. ``kind`` is ``play``, ``pass`` or ``give``; ``cards`` are
    values, lowest first. Actions are interned: one object per kind and cards,
    so equal actions are the same object (and compare and hash by identity)."""

    __slots__ = ("cards", "count", "kind", "text", "value")

    kind: str
    cards: tuple[int, ...]
    text: str
    value: int  # a play of one value: that value; otherwise 0
    count: int

    def __new__(cls, kind: str, cards: tuple[int, ...] = ()) -> KqpAction:
        cards = tuple(cards)
        key = (kind, cards)
        act = _CACHE.get(key)
        if act is None:
            act = _CACHE[key] = object.__new__(cls)
            act.kind = kind
            act.cards = cards
            act.count = len(cards)
            if kind == "play":
                act.text = " ".join(TEXT[c] for c in cards)
            elif kind == "give":
                act.text = " ".join(["give", *(TEXT[c] for c in cards)])
            else:
                act.text = kind
            act.value = cards[0] if kind == "play" and cards and len(set(cards)) == 1 else 0
        return act

    def __reduce__(self) -> tuple[type[KqpAction], tuple[str, tuple[int, ...]]]:
        return KqpAction, (self.kind, self.cards)  # unpickled and copied as the interned object

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"KqpAction({self.text!r})"


_CACHE: dict[tuple[str, tuple[int, ...]], KqpAction] = {}


def make(kind: str, cards: tuple[int, ...] = ()) -> KqpAction:
    """The (interned) action; ``cards`` must be sorted lowest first."""
    return KqpAction(kind, cards)


PASS = make("pass")


def parse_action(text: str) -> KqpAction:
    if not isinstance(text, str):
        raise NotationError(repr(text), "an action must be text")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(text, "empty action")
    head = words[0].lower()
    if head == "pass":
        if len(words) > 1:
            raise NotationError(text, "'pass' takes no cards")
        return PASS
    if head == "give":
        if len(words) == 1:
            raise NotationError(text, "'give' needs the cards to give back, for example 'give 3 4'")
        return make("give", tuple(sorted(parse_card_list(" ".join(words[1:])))))
    try:
        cards = parse_card_list(text)
    except NotationError as exc:
        hint = "an action is cards of one value like '9 9 9', 'Q Q' or 'K', or 'pass', or 'give CARDS'"
        raise NotationError(text, f"{exc.reason} ({hint})") from None
    return make("play", tuple(sorted(cards)))
