"""Seats as a player reads them: the one place that numbers seats for display and rewrites
the seat references of the engine's sentences.

The engine numbers seats from 0 and its log sentences say ``seat N`` with that number. A
player at the terminal reads seats numbered from 1 ("seat 1" .. "seat N") and their own seat
marked "(you)". Agents and environments, whose APIs and notation number seats from 0, render
inside ``seats_numbered_from(0)``. Everything that writes a seat for a player goes through
:func:`seat_number`; everything that shows an engine sentence goes through :func:`sentence`
(when events become structured data this is the one function to replace).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_FIRST: ContextVar[int] = ContextVar("courtcards_first_seat", default=1)

# "seat N", optionally inside parentheses ("(seat N)") or followed by a parenthesised note ("seat N (King)")
_SEAT = re.compile(r"(\()?\b([Ss]eat) (\d+)\b(?:(\))|(?: \(([^()]*)\))?)")
# "seats 2 and 0", "seats 2, 0 and 4"
_SEATS = re.compile(r"\b([Ss]eats) (\d+(?:, \d+)* and \d+)\b")


def seat_number(seat: int) -> int:
    """The number a player reads for engine seat ``seat`` (from 1 at the terminal)."""
    return seat + _FIRST.get()


@contextmanager
def seats_numbered_from(first: int) -> Iterator[None]:
    """Render with seats numbered from ``first`` (0: the engine's numbering, for agents and envs)."""
    token = _FIRST.set(first)
    try:
        yield
    finally:
        _FIRST.reset(token)


def seat_refs(me: int | None, text: str) -> str:
    """An engine sentence with each ``seat N`` renumbered for display and the viewer's own seat
    (``me``) marked: ``seat 3 (you)``, ``seat 3 (you, King)``, ``(you)`` for ``(seat N)``; ``seats 2, 3
    (you) and 5`` for a list."""

    def name(m: re.Match[str]) -> str:
        opened, word, closed, note = m.group(1), m.group(2), m.group(4), m.group(5)
        if note:  # the note may name seats too: "attacks seat 1 (cards to commit: seat 0 2, seat 1 3)"
            note = seat_refs(me, note)
        seat = int(m.group(3))
        mine = me is not None and seat == me
        if opened and closed:
            return "(you)" if mine else f"({word} {seat_number(seat)})"
        out = f"{opened or ''}{word} {seat_number(seat)}"
        if closed:  # "... and seat N)": the parenthesis began before this seat
            return out + (" (you)" if mine else "") + closed
        if mine:  # a one-word note (a role: "seat 3 (King)") joins the mark; a longer one stays apart
            return out + (f" (you, {note})" if note and " " not in note else " (you)" + (f" ({note})" if note else ""))
        return out + (f" ({note})" if note else "")

    def names(m: re.Match[str]) -> str:
        def one(n: re.Match[str]) -> str:
            seat = int(n.group(0))
            return f"{seat_number(seat)} (you)" if seat == me else str(seat_number(seat))

        return f"{m.group(1)} " + re.sub(r"\d+", one, m.group(2))

    return _SEAT.sub(name, _SEATS.sub(names, text))


def sentence(view: Mapping[str, Any], text: str) -> str:
    """One of the engine's sentences (``view["log"]``) as the viewer reads it: seats renumbered,
    the viewer's seat marked, the first letter capitalised. Plain text (escape it for markup)."""
    me = view.get("seat")
    line = seat_refs(me if isinstance(me, int) else None, text)
    return line[:1].upper() + line[1:]
