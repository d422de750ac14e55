"""Rank's actions and their notation.

=========================  =====================================================
``8 8 7 U``                a play: the cards, numbers high to low, then W U D C C2
``pass``                   pass for the rest of the round
``lead`` / ``steal``       the King's benefit (RK-12)
``give 9`` / ``give 9 3``  cards given back after a steal or exchange (RK-12, RK-13)
``swap`` / ``keep``        the King's Hand choice (RK-14)
=========================  =====================================================
"""

from __future__ import annotations

from courtcards.core.errors import NotationError
from courtcards.games.rank.cards import CROWN, CROWN2, DOWN, NUMBERS, TEXT, UP, WILD, canonical, parse_card_list

WORDS = ("pass", "lead", "steal", "swap", "keep")


class RankAction:
    """A Rank action. ``kind`` is ``play``, ``give`` or one of WORDS; ``cards``
    are card codes in canonical order. Actions are interned: equal actions (equal
    text) are the same object, so they compare and hash by identity."""

    __slots__ = ("base", "cards", "count", "is_crown", "is_lone_modifier", "kind", "text")

    kind: str
    cards: tuple[int, ...]
    text: str
    base: int  # for plays: the set's value fixed by its number cards (0: none, -1: not a set)
    count: int  # a set's count: number cards and Wilds (RK-4)
    is_crown: bool
    is_lone_modifier: bool

    def __new__(cls, kind: str, cards: tuple[int, ...] = ()) -> RankAction:
        key = (kind, cards)
        act = _CACHE.get(key)
        if act is not None:
            return act
        act = _CACHE[key] = object.__new__(cls)
        act.kind = kind
        act.cards = cards
        if kind == "play":
            act.text = " ".join(TEXT[c] for c in cards)
        elif kind == "give":
            act.text = " ".join(["give", *(TEXT[c] for c in cards)])
        else:
            act.text = kind
        play = kind == "play"
        act.base = _base_value(cards) if play else -1
        act.count = sum(1 for c in cards if c <= WILD)
        act.is_crown = play and len(cards) == 1 and cards[0] in (CROWN, CROWN2)
        act.is_lone_modifier = play and len(cards) == 1 and cards[0] in (UP, DOWN)
        return act

    def __reduce__(self) -> tuple[object, tuple[str, tuple[int, ...]]]:
        return make, (self.kind, self.cards)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"RankAction({self.text!r})"


def _base_value(cards: tuple[int, ...]) -> int:
    nums = [c for c in cards if c in NUMBERS]
    if not nums:
        return 0
    if DOWN in cards:
        return nums[0]
    if UP in cards:
        return nums[0] + 1 if nums[0] == nums[-1] else nums[0]
    return nums[0]


_CACHE: dict[tuple[str, tuple[int, ...]], RankAction] = {}


def make(kind: str, cards: tuple[int, ...] = ()) -> RankAction:
    """The (interned) action; ``cards`` must already be canonical."""
    return _CACHE.get((kind, cards)) or RankAction(kind, cards)


PASS = make("pass")
LEAD = make("lead")
STEAL = make("steal")
SWAP = make("swap")
KEEP = make("keep")


def parse_action(text: str) -> RankAction:
    if not isinstance(text, str):
        raise NotationError(repr(text), "an action must be text")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(text, "empty action")
    head = words[0].lower()
    if head in WORDS:
        if len(words) > 1:
            raise NotationError(text, f"'{head}' takes no cards")
        return make(head)
    if head == "give":
        if len(words) == 1:
            raise NotationError(text, "'give' needs the cards to give, for example 'give 3'")
        return make("give", canonical(parse_card_list(" ".join(words[1:]))))
    try:
        cards = parse_card_list(text)
    except NotationError as exc:
        hint = "an action is cards like '8 8 7 U', or one of: pass, lead, steal, give CARDS, swap, keep"
        raise NotationError(text, f"{exc.reason} ({hint})") from None
    return make("play", canonical(cards))
