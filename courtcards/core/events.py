"""The event log: what happened, in the engine's own sentences.

Each game words its events once, here in the engine, when they happen ("seat 2
plays 8 8 and takes the round"); the terminal, the browser, replays and text
agents all show these sentences, so no client writes its own. A view carries the
last :data:`LOG_LIMIT` events; each has its number ``n`` since the game began, so
a client that keeps a longer log can append without duplicates.

A state appends plain tuples of the same six fields (cheaper than the subclass)
and wraps its last one as an EventLog when read; every method here reads nodes
by index, so either kind of node may be in a chain.

An event that shows private cards has a public sentence for everyone and, in
``secret``, the fuller sentence each entitled seat sees instead ("seat 0 takes a
card from seat 3" / to seat 0 and 3: "seat 0 takes 12 from seat 3"). Every event
has a public sentence, so the numbering reveals nothing.

:class:`EventLog` is immutable (appending gives a new log that shares the old
one), so copies of a state share it for free. States own one (``State.events``,
appended with ``State.log_event``); it is saved with the state as ``events``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import Any, Final

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields

LOG_LIMIT: Final = 40
MAX_TEXT: Final = 400
MAX_DEPTH: Final = 400  # 10 * LOG_LIMIT: a longer chain is cut back to the last LOG_LIMIT events (nothing shows more)
_new = tuple.__new__


class EventLog(tuple):  # type: ignore[type-arg]
    """One event and the log before it: ``(prev, n, seat, text, secret, depth)``.

    A tuple underneath, so appending is one C-level allocation (``add``); compared,
    hashed and pickled by identity and content as an immutable log should be."""

    __slots__ = ()

    @property
    def prev(self) -> EventLog | None:
        node = self[0]
        return node if node is None or type(node) is EventLog else _new(EventLog, node)  # a state's plain node

    n: int = property(itemgetter(1))  # type: ignore[assignment]
    seat: int | None = property(itemgetter(2))  # type: ignore[assignment]
    text: str = property(itemgetter(3))  # type: ignore[assignment]
    secret: Mapping[int, str] | None = property(itemgetter(4))  # type: ignore[assignment]

    def __new__(cls, prev: EventLog | None = None, seat: int | None = None, text: str = "",
                secret: Mapping[int, str] | None = None) -> EventLog:
        if prev is None:
            return _new(cls, (None, 0, seat, text, secret, 0))
        return prev.add(seat, text, secret)

    @classmethod
    def base(cls, n: int = 0) -> EventLog:
        """An empty log whose next event is number ``n + 1`` (a log that kept only its last events)."""
        return _new(cls, (None, n, None, "", None, 0))

    def add(self, seat: int | None, text: str, secret: Mapping[int, str] | None = None) -> EventLog:
        """A new log with one more event: ``text`` for everyone, ``secret[s]`` instead for seat ``s``."""
        depth = self[5]
        if depth >= MAX_DEPTH:
            return self._cut().add(seat, text, secret)
        return _new(EventLog, (self, self[1] + 1, seat, text, secret, depth + 1))

    def _tail(self) -> tuple[int, list[tuple[int | None, str, Mapping[int, str] | None]]]:
        """The last LOG_LIMIT events, flat: the number before the first and each (seat, text, secret)."""
        nodes = self._nodes(LOG_LIMIT)
        return nodes[0][1] - 1 if nodes else self[1], [(e[2], e[3], e[4]) for e in nodes]

    def _cut(self) -> EventLog:
        return _rebuild(*self._tail())

    def _nodes(self, k: int) -> list[EventLog]:
        """The last ``k`` events, oldest first."""
        out: list[EventLog] = []
        node = self
        while node[0] is not None and len(out) < k:
            out.append(node)
            node = node[0]
        out.reverse()
        return out

    def then(self, later: EventLog) -> EventLog:
        """This log followed by the events of ``later`` (a log begun apart, from EMPTY)."""
        log = self
        for node in later._nodes(later[1]):
            log = log.add(node[2], node[3], node[4])
        return log

    def __len__(self) -> int:
        return int(self[1])

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, self._tail()  # flat, not the chain: a chain of tuples pickles recursively

    def __copy__(self) -> EventLog:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        return self  # immutable

    def __repr__(self) -> str:
        return f"<EventLog of {self[1]} events>"

    def last(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[dict[str, Any]]:
        """The last ``k`` events as ``viewer`` sees them (None: a spectator), oldest first."""
        out: list[dict[str, Any]] = []
        node = self
        while node[0] is not None and len(out) < k:
            secret = node[4]
            text = secret.get(viewer, node[3]) if secret is not None and viewer is not None else node[3]
            out.append({"n": node[1], "seat": node[2], "text": text})
            node = node[0]
        out.reverse()
        return out

    def texts(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[str]:
        """Just the sentences of :meth:`last`."""
        return [e["text"] for e in self.last(k, viewer)]

    def to_json(self) -> list[dict[str, Any]]:
        """The last LOG_LIMIT events with their secret sentences, for saving with the state."""
        out: list[dict[str, Any]] = []
        for node in self._nodes(LOG_LIMIT):
            entry: dict[str, Any] = {"n": node[1], "seat": node[2], "text": node[3]}
            if node[4]:
                entry["secret"] = {str(s): t for s, t in sorted(node[4].items())}
            out.append(entry)
        return out

    @classmethod
    def from_json(cls, entries: Iterable[Any], path: str = "log", num_players: int = 64) -> EventLog:
        """Read what :meth:`to_json` wrote, or a view's ``log`` (a PositionError names a
        malformed entry). Well-formed entries take a quick path: this runs for every
        world a search samples from a view."""
        raw = entries if isinstance(entries, list) else list(entries)
        log = _quick(raw, num_players)
        return log if log is not None else _checked(raw, path, num_players)


def _rebuild(n: int, events: list[tuple[int | None, str, Mapping[int, str] | None]]) -> EventLog:
    log = EventLog.base(n)
    for seat, text, secret in events:
        log = log.add(seat, text, secret)
    return log


def _quick(raw: list[Any], num_players: int) -> EventLog | None:
    """The log from well-formed entries, or None to let ``_checked`` name the fault."""
    if not raw:
        return EMPTY
    first = raw[0]
    if type(first) is not dict or type(first.get("n")) is not int or first["n"] < 1:
        return None
    log = EventLog.base(first["n"] - 1)
    for e in raw:
        if type(e) is not dict or "seat" not in e or len(e) != (4 if "secret" in e else 3):
            return None
        n, seat, text = e.get("n"), e.get("seat"), e.get("text")
        if n != log[1] + 1 or type(text) is not str or len(text) > MAX_TEXT:
            return None
        if seat is not None and (type(seat) is not int or not 0 <= seat < num_players):
            return None
        secret = None
        if len(e) == 4:
            given = e["secret"]
            if type(given) is not dict:
                return None
            secret = {}
            for key, value in given.items():
                if type(key) is not str or not key.isdigit() or int(key) >= num_players:
                    return None
                if type(value) is not str or len(value) > MAX_TEXT:
                    return None
                secret[int(key)] = value
        log = log.add(seat, text, secret or None)
    return log


def _checked(raw: list[Any], path: str, num_players: int) -> EventLog:
    log: EventLog | None = None
    for i, entry in enumerate(raw):
        f = Fields(entry, f"{path}[{i}]")
        n = f.integer("n", 1)
        if log is None:
            log = EventLog.base(n - 1)  # the log kept only the last events: number them on from there
        elif n != log.n + 1:
            raise PositionError(f.at("n"), f"events must be numbered one after another, not {log.n} then {n}")
        seat = f.opt_integer("seat", 0, num_players - 1)
        secret: dict[int, str] | None = None
        if f.has("secret"):
            sf = f.obj("secret")
            secret = {}
            for key in sf.data:
                if not (isinstance(key, str) and key.isdigit() and int(key) < num_players):
                    raise PositionError(sf.at(key), "is not a seat at this table")
                secret[int(key)] = _sentence(sf, key)
        unknown = set(f.data) - {"n", "seat", "text", "secret"}
        if unknown:
            raise PositionError(f.at(sorted(unknown)[0]), "is not a field of an event")
        log = log.add(seat, _sentence(f, "text"), secret or None)
    return log if log is not None else EMPTY


def _sentence(f: Fields, key: str) -> str:
    text = f.text(key)
    if len(text) > MAX_TEXT:
        raise PositionError(f.at(key), f"an event is at most {MAX_TEXT} characters, not {len(text)}")
    return text


EMPTY = EventLog()
