"""The event log: what happened, in the engine's own sentences.

Each game words its events once, here in the engine, when they happen ("seat 2
plays 8 8 and takes the round"); the terminal, the browser, replays and text
agents all show these sentences, so no client writes its own. A view carries the
last :data:`LOG_LIMIT` events; each has its number ``n`` since the game began, so
a client that keeps a longer log can append without duplicates.

An event that shows private cards has a public sentence for everyone and, in
``secret``, the fuller sentence each entitled seat sees instead ("seat 0 takes a
card from seat 3" / to seat 0 and 3: "seat 0 takes 12 from seat 3"). Every event
has a public sentence, so the numbering reveals nothing.

:class:`EventLog` is immutable (appending gives a new log that shares the old
one), so copies of a state share it for free. States own one (``State.events``,
appended with ``State.log_event``); it is saved with the state as ``log``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields

LOG_LIMIT = 40
MAX_TEXT = 400


class EventLog:
    __slots__ = ("n", "prev", "seat", "secret", "text")

    prev: EventLog | None
    n: int
    seat: int | None
    text: str
    secret: Mapping[int, str] | None

    def __init__(self, prev: EventLog | None = None, seat: int | None = None, text: str = "",
                 secret: Mapping[int, str] | None = None) -> None:
        self.prev = prev
        self.n = 0 if prev is None else prev.n + 1
        self.seat = seat
        self.text = text
        self.secret = secret

    def add(self, seat: int | None, text: str, secret: Mapping[int, str] | None = None) -> EventLog:
        """A new log with one more event: ``text`` for everyone, ``secret[s]`` instead for seat ``s``."""
        return EventLog(self, seat, text, secret)

    def __len__(self) -> int:
        return self.n

    def last(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[dict[str, Any]]:
        """The last ``k`` events as ``viewer`` sees them (None: a spectator), oldest first."""
        out: list[dict[str, Any]] = []
        node: EventLog | None = self
        while node is not None and node.prev is not None and len(out) < k:
            secret = node.secret
            text = secret.get(viewer, node.text) if secret is not None and viewer is not None else node.text
            out.append({"n": node.n, "seat": node.seat, "text": text})
            node = node.prev
        out.reverse()
        return out

    def texts(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[str]:
        """Just the sentences of :meth:`last`."""
        return [e["text"] for e in self.last(k, viewer)]

    def to_json(self) -> list[dict[str, Any]]:
        """The last LOG_LIMIT events with their secret sentences, for saving with the state."""
        out: list[dict[str, Any]] = []
        node: EventLog | None = self
        while node is not None and node.prev is not None and len(out) < LOG_LIMIT:
            entry: dict[str, Any] = {"n": node.n, "seat": node.seat, "text": node.text}
            if node.secret:
                entry["secret"] = {str(s): t for s, t in sorted(node.secret.items())}
            out.append(entry)
            node = node.prev
        out.reverse()
        return out

    @classmethod
    def from_json(cls, entries: Iterable[Any], path: str = "log", num_players: int = 64) -> EventLog:
        """Read what :meth:`to_json` wrote (PositionError naming the entry if malformed)."""
        log = cls()
        for i, raw in enumerate(entries):
            f = Fields(raw, f"{path}[{i}]")
            n = f.integer("n", 1)
            if log.prev is None:
                log.n = n - 1  # the log kept only the last events: number them on from there
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
            log = log.add(seat, _sentence(f, "text"), secret or None)
        return log


def _sentence(f: Fields, key: str) -> str:
    text = f.text(key)
    if len(text) > MAX_TEXT:
        raise PositionError(f.at(key), f"an event is at most {MAX_TEXT} characters, not {len(text)}")
    return text


EMPTY = EventLog()
