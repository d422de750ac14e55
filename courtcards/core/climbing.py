"""What the climbing games (Rank, King Queens & Paupers) share, written once.

- Hands kept as counts per card code (:func:`counts_of`, :func:`expand`).
- Actions: play a set of cards, pass, give cards back, and a game's own
  one-word actions, with one notation and one parser (:class:`ClimbingAction`).
- Cards passed between two seats (exchanges, taxes), seen by those two only
  (:func:`transfers_view`).
- Card texts of a hand of counts, built quickly (:func:`count_texts`).
- Read-only log entries that copies of a state share (:func:`frozen_record`,
  :func:`thawed_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, Final, TypeVar

from courtcards.core.actions import Action
from courtcards.core.errors import NotationError

C = TypeVar("C", bound="ClimbingAction")


def counts_of(codes: Iterable[int], ncodes: int) -> list[int]:
    counts = [0] * ncodes
    for c in codes:
        counts[c] += 1
    return counts


def expand(counts: Sequence[int], first: int = 0) -> list[int]:
    """Counts to the sorted list of codes, from code ``first`` up."""
    out: list[int] = []
    for c in range(first, len(counts)):
        if counts[c]:
            out.extend([c] * counts[c])
    return out


def count_texts(
    text: Mapping[int, str] | Sequence[str], codes: Iterable[int], most: int = 10
) -> Callable[[Sequence[int]], list[str]]:
    """A function from counts per code to the card texts, codes in the order of
    ``codes``: the same as ``[text[c] for c in expand(counts)]`` (for codes in
    order) with the repeated texts built once, for views."""
    rows = tuple((c, tuple([text[c]] * k for k in range(most + 1))) for c in codes)
    memo: dict[tuple[int, ...], tuple[str, ...]] = {}  # the same counts recur from view to view

    def texts(counts: Sequence[int]) -> list[str]:
        key = tuple(counts)
        got = memo.get(key)
        if got is None:
            out: list[str] = []
            for c, rep in rows:
                k = counts[c]
                if k:
                    out += rep[k] if k <= most else rep[1] * k
            if len(memo) >= _MEMO:
                memo.clear()
            got = memo[key] = tuple(out)
        return list(got)

    return texts


_MEMO: Final = 65536  # count vectors a count_texts function remembers (then it starts again)

Record = Mapping[str, Any]


def frozen_record(entry: Mapping[str, Any]) -> Record:
    """A read-only log entry (lists stored as tuples) that copies of a state share."""
    return MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in entry.items()})


def thawed_record(entry: Record) -> dict[str, Any]:
    """The JSON form of a :func:`frozen_record` entry (tuples as lists), a fresh copy."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in entry.items()}


def transfers_view(transfers: Iterable[Mapping[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Cards passed from one seat to another (``from``, ``to``, ``cards``,
    ``why``) as ``seat`` sees them: everyone sees who gave how many to whom and
    why; only the giver and the taker see the cards (RK-12, RK-16, KQ-4)."""
    out = []
    for e in transfers:
        item: dict[str, Any] = {"from": e["from"], "to": e["to"], "count": len(e["cards"]), "why": e["why"]}
        if seat is not None and seat in (e["from"], e["to"]):
            item["cards"] = list(e["cards"])
        out.append(item)
    return out


class LegalList(list):  # type: ignore[type-arg]
    """A legal list that is also the core's lookup of a listed action object:
    by identity in the short list (climbing actions are interned) instead of a
    hash table built for every list. (Here, not in a game's compiled state module:
    a compiled class cannot inherit from ``list``.)"""

    __slots__ = ()

    def get(self, action: Any, default: Any = None) -> Any:
        return action if action in self else default


class ClimbingAction(Action):
    """An action of a climbing game: ``kind`` PLAY with the cards played, GIVE
    with the cards given, or one of the game's word actions (PASS, ...) with no
    cards. ``cards`` are codes in the game's canonical order. Interned: equal
    actions are the same object.

    A game's subclass sets ``Kind`` (its StrEnum, with members named PLAY, GIVE
    and PASS among others), ``TEXT`` (card texts by code), ``HINT`` (the forms
    of its actions, for errors), and implements :meth:`read_cards` and
    :meth:`canonical`; it may compute derived fields in :meth:`_derive`.
    """

    __slots__ = ("cards",)

    cards: tuple[int, ...]
    __eq__ = object.__eq__  # interned: equal means identical, so identity is the fast test
    __ne__ = object.__ne__
    __hash__ = object.__hash__
    Kind: ClassVar[type[StrEnum]]
    TEXT: ClassVar[Sequence[str] | Mapping[int, str]]  # card text by code
    HINT: ClassVar[str]
    _cache: ClassVar[dict[tuple[str, tuple[int, ...]], Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._cache = {}

    def __new__(cls: type[C], kind: StrEnum, cards: tuple[int, ...] = ()) -> C:
        key = (kind.value, cards)
        act: C | None = cls._cache.get(key)
        if act is not None:
            return act
        act = object.__new__(cls)
        names = " ".join(cls.TEXT[c] for c in cards)
        if kind.name == "PLAY":
            text = names
        elif kind.name == "GIVE":
            text = f"{kind.value} {names}"
        else:
            text = kind.value
        act._init(kind, text, cards=cards)
        act._derive()
        cls._cache[key] = act
        return act

    def _derive(self) -> None:
        """Set derived fields (with ``object.__setattr__``); none by default."""

    @classmethod
    def read_cards(cls, text: str) -> list[int]:
        """Card codes from text; NotationError if a card is not one of the game's."""
        raise NotImplementedError

    @classmethod
    def canonical(cls, cards: Sequence[int]) -> tuple[int, ...]:
        """The cards in the order the notation writes them."""
        raise NotImplementedError

    @classmethod
    def parse(cls: type[C], text: str) -> C:
        if not isinstance(text, str):
            raise NotationError(repr(text), "an action must be text")
        words = text.replace(",", " ").split()
        if not words:
            raise NotationError(text, f"empty action ({cls.HINT})")
        head = words[0].lower()
        kinds: Mapping[str, StrEnum] = {k.value: k for k in cls.Kind}
        kind = kinds.get(head)
        if kind is not None and kind.name == "GIVE":
            if len(words) == 1:
                raise NotationError(text, f"'{head}' needs the cards to give, for example '{head} 3'")
            return cls(kind, cls.canonical(cls.read_cards(" ".join(words[1:]))))
        if kind is not None and kind.name != "PLAY":
            if len(words) > 1:
                raise NotationError(text, f"'{head}' takes no cards")
            return cls(kind)
        try:
            cards = cls.read_cards(text)
        except NotationError as exc:
            raise NotationError(text, f"{exc.reason} ({cls.HINT})") from None
        play: StrEnum = cls.Kind["PLAY"]
        return cls(play, cls.canonical(cards))


def read_card_list(text: str, read: Callable[[str], int]) -> list[int]:
    """Codes of the cards in ``text``, separated by spaces or commas."""
    return [read(t) for t in text.replace(",", " ").split()]
