"""Reading positions: every field checked for type and range, every fault a
:class:`PositionError` naming the field.

A game's loader reads its position through :class:`Fields` instead of indexing
the JSON directly, so a corrupted file is refused with the field and the reason
rather than accepted broken or failing later. After loading, the core checks
card conservation and the game's invariants (:func:`check_loaded`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from courtcards.core.errors import CourtcardsError, PositionError

if TYPE_CHECKING:
    from courtcards.core.state import State

T = TypeVar("T")
MAX_LIST = 10_000  # no position has a longer list (two Rank decks are 122 cards)
MAX_INT = 1_000_000  # default bound for counters that have no natural one

_MISSING: Any = object()


def kind_of(value: object) -> str:
    """How an error message names a JSON value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def as_int(value: object, path: str, lo: int | None = 0, hi: int | None = MAX_INT) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(path, f"must be an integer, not {kind_of(value)}")
    if lo is not None and value < lo:
        raise PositionError(path, f"must be at least {lo}, not {value}")
    if hi is not None and value > hi:
        raise PositionError(path, f"must be at most {hi}, not {value}")
    return value


def as_list(value: object, path: str, length: int | None = None, max_len: int = MAX_LIST) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise PositionError(path, f"must be a list, not {kind_of(value)}")
    if length is not None and len(value) != length:
        raise PositionError(path, f"must have {length} entries, not {len(value)}")
    if len(value) > max_len:
        raise PositionError(path, f"has {len(value)} entries, more than {max_len}")
    return list(value)


def as_card(value: object, path: str, parse: Callable[[str], T]) -> T:
    if not isinstance(value, str):
        raise PositionError(path, f"must be a card's text, not {kind_of(value)}")
    try:
        return parse(value)
    except CourtcardsError as exc:
        raise PositionError(path, getattr(exc, "reason", str(exc))) from None


class Fields:
    """One JSON object of a position, read field by field.

    Each reader takes the field's name and an optional ``default`` used when the
    field is absent; a field present with the wrong type or out of range is an
    error even when it has a default.
    """

    def __init__(self, data: object, path: str = "") -> None:
        if not isinstance(data, Mapping):
            raise PositionError(path or "position", f"must be a JSON object, not {kind_of(data)}")
        self.data: Mapping[str, Any] = data
        self.path = path

    def at(self, key: str | int) -> str:
        """The path of a field, for error messages."""
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, default: Any) -> Any:
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise PositionError(self.at(key), "is missing")
        return default

    def integer(self, key: str, lo: int | None = 0, hi: int | None = MAX_INT, default: Any = _MISSING) -> int:
        if key not in self.data and default is not _MISSING:
            return default  # type: ignore[no-any-return]
        return as_int(self._get(key, default), self.at(key), lo, hi)

    def opt_integer(self, key: str, lo: int | None = 0, hi: int | None = MAX_INT) -> int | None:
        """An integer or null (absent reads as null)."""
        value = self.data.get(key)
        return None if value is None else as_int(value, self.at(key), lo, hi)

    def seat(self, key: str, num_players: int, optional: bool = False) -> int | None:
        if optional and self.data.get(key) is None:
            return None
        return as_int(self._get(key, _MISSING), self.at(key), 0, num_players - 1)

    def boolean(self, key: str, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise PositionError(self.at(key), f"must be true or false, not {kind_of(value)}")
        return value

    def text(self, key: str, choices: Collection[str] | None = None, default: Any = _MISSING) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise PositionError(self.at(key), f"must be text, not {kind_of(value)}")
        if choices is not None and value not in choices:
            raise PositionError(self.at(key), f"must be one of {', '.join(sorted(choices))}, not {value!r}")
        return value

    def array(self, key: str, length: int | None = None, default: Any = _MISSING) -> list[Any]:
        return as_list(self._get(key, default), self.at(key), length)

    def ints(
        self, key: str, length: int | None = None, lo: int | None = 0, hi: int | None = MAX_INT, default: Any = _MISSING
    ) -> list[int]:
        path = self.at(key)
        return [as_int(v, f"{path}[{i}]", lo, hi) for i, v in enumerate(self.array(key, length, default))]

    def seats(self, key: str, num_players: int, default: Any = _MISSING, distinct: bool = True) -> list[int]:
        out = self.ints(key, None, 0, num_players - 1, default)
        if distinct and len(set(out)) != len(out):
            raise PositionError(self.at(key), "lists a seat twice")
        return out

    def obj(self, key: str, default: Any = _MISSING) -> Fields:
        return Fields(self._get(key, default), self.at(key))

    def objs(self, key: str, length: int | None = None, default: Any = _MISSING) -> list[Fields]:
        path = self.at(key)
        return [Fields(v, f"{path}[{i}]") for i, v in enumerate(self.array(key, length, default))]

    def cards(self, key: str, parse: Callable[[str], T], default: Any = _MISSING) -> list[T]:
        path = self.at(key)
        return [as_card(v, f"{path}[{i}]", parse) for i, v in enumerate(self.array(key, None, default))]

    def card_lists(
        self, key: str, parse: Callable[[str], T], length: int | None = None, default: Any = _MISSING
    ) -> list[list[T]]:
        path = self.at(key)
        out = []
        for i, pile in enumerate(self.array(key, length, default)):
            out.append([as_card(v, f"{path}[{i}][{j}]", parse) for j, v in enumerate(as_list(pile, f"{path}[{i}]"))])
        return out

    def card(self, key: str, parse: Callable[[str], T], default: Any = _MISSING) -> T:
        if key not in self.data and default is not _MISSING:
            return default  # type: ignore[no-any-return]
        return as_card(self._get(key, default), self.at(key), parse)


S_contra = TypeVar("S_contra", bound="State", contravariant=True)


class LoadPosition(Protocol[S_contra]):
    """The one signature of a game's position loader: ``load_position(state, data, strict)``
    in the game's ``positions`` module (kept out of its compiled rules), which
    ``Game._load_state`` calls on a state built with the core's fields only.

    It fills ``state`` from ``data``, full-state JSON or an explicit position of the
    current ``format_version`` (the game's ``_upgrade_position`` rewrote older ones),
    reading every field through :class:`Fields`, so that a bad one raises PositionError
    naming it. ``strict`` is False only for the conformance suite's resampled copies
    (``State.replace_places``): a game may then accept cards a position could not
    hold; most games make every check either way."""

    def __call__(self, state: S_contra, data: Mapping[str, Any], strict: bool) -> None: ...


def check_conservation(places: Mapping[str, Iterable[str]], deck: Iterable[str]) -> None:
    """Every card of the deck is in exactly one place: a PositionError naming
    the cards that are extra or missing otherwise."""
    have: Counter[str] = Counter()
    for cards in places.values():
        have.update(cards)
    want = Counter(deck)
    extra, missing = have - want, want - have
    if extra or missing:
        parts = []
        if extra:
            parts.append("extra " + " ".join(sorted(extra.elements())))
        if missing:
            parts.append("missing " + " ".join(sorted(missing.elements())))
        raise PositionError("cards", "the cards are not exactly one deck's: " + "; ".join(parts))


def check_loaded(state: State, saved: bool) -> None:
    """After loading: card conservation; for a saved state (one with its
    history) also the game's own checks (:meth:`State.position_errors`) and
    invariants; and then that the position plays: every view, whose decision it
    is and their legal actions, the result. Every fault is a PositionError.

    An explicit position written by hand may leave out the bookkeeping a saved
    state keeps (the log of past hands, ...), so it is not held to the invariants."""
    check_conservation(state.card_places(), state.deck())
    try:
        broken = (state.position_errors() or state.invariants()) if saved else []
        if broken:
            raise PositionError("position", "inconsistent: " + "; ".join(broken))
        for seat in [None, *range(state.num_players)]:
            state.view(seat)
        if state.is_over():
            state.result()
        else:
            movers = state.to_move()
            if not movers:
                raise PositionError("position", "the game is not over but no seat has a decision")
            for seat in movers:
                if not state.legal_actions(seat):
                    raise PositionError("position", f"seat {seat} has a decision but no legal action")
    except CourtcardsError as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError("position", f"inconsistent: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, AssertionError) as exc:
        # a field the loader let through that the rules cannot use
        raise PositionError(
            "position", f"inconsistent: the position does not play ({type(exc).__name__}: {exc})"
        ) from None
