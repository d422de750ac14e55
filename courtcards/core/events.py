"""The event log: what happened, in the engine's own sentences.

Each game words its events once, here in the engine, when they happen ("seat 2
plays 8 8 and takes the round"); the terminal, the browser, replays and text
agents all show these sentences, so no client writes its own. A view carries the
last :data:`LOG_LIMIT` events; each has its number ``n`` since the game began, so
a client that keeps a longer log can append without duplicates.

:class:`EventLog` is immutable (appending gives a new log that shares the old
one), so copies of a state share it for free.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields

LOG_LIMIT = 40


class EventLog:
    __slots__ = ("n", "prev", "seat", "text")

    prev: EventLog | None
    n: int
    seat: int | None
    text: str

    def __init__(self, prev: EventLog | None = None, seat: int | None = None, text: str = "") -> None:
        self.prev = prev
        self.n = 0 if prev is None else prev.n + 1
        self.seat = seat
        self.text = text

    def add(self, seat: int | None, text: str) -> EventLog:
        """A new log with one more event."""
        return EventLog(self, seat, text)

    def __len__(self) -> int:
        return self.n

    def last(self, k: int = LOG_LIMIT) -> list[dict[str, Any]]:
        """The last ``k`` events, oldest first, as view entries."""
        out: list[dict[str, Any]] = []
        node: EventLog | None = self
        while node is not None and node.prev is not None and len(out) < k:
            out.append({"n": node.n, "seat": node.seat, "text": node.text})
            node = node.prev
        out.reverse()
        return out

    def to_json(self) -> list[dict[str, Any]]:
        """The last LOG_LIMIT events, for saving with the state."""
        return self.last()

    @classmethod
    def from_json(cls, entries: Iterable[Any], path: str = "log") -> EventLog:
        """Read what :meth:`to_json` wrote (PositionError naming the entry if malformed)."""
        log = cls()
        for i, raw in enumerate(entries):
            f = Fields(raw, f"{path}[{i}]")
            n = f.integer("n", 1)
            if log.prev is None:
                log.n = n - 1  # the log kept only the last events: number them on from there
            elif n != log.n + 1:
                raise PositionError(f.at("n"), f"events must be numbered one after another, not {log.n} then {n}")
            seat = f.opt_integer("seat", 0, 63)
            log = log.add(seat, f.text("text"))
        return log


EMPTY = EventLog()
