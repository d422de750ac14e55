"""Seats as a player reads them: the one place that numbers seats for display and names the
seats of the engine's events.

The engine numbers seats from 0. A player at the terminal reads seats numbered from 1 ("seat 1"
.. "seat N") and their own seat marked "(you)". Agents and environments, whose APIs and notation
number seats from 0, render inside ``seats_numbered_from(0)``. Everything that writes a seat for a
player goes through :func:`seat_number`; everything that shows an event of the log goes through
:func:`event_sentence`, which fills the event's template (courtcards.core.events) with these names
and reads no prose. Only a bare sentence (a log entry saved before events were data, a "note", a
refusal) has its ``seat N`` rewritten in the text, by :func:`seat_refs` (the one fallback).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from courtcards.core.events import NOTE, fill, resolve

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
    """A bare sentence of the engine (an old log entry, a refusal) as the viewer reads it: seats
    renumbered, the viewer's seat marked, the first letter capitalised (:func:`seat_refs`, the fallback
    for text without a template). Plain text (escape it for markup)."""
    me = view.get("seat")
    line = seat_refs(me if isinstance(me, int) else None, text)
    return line[:1].upper() + line[1:]


def seat_word(seat: int, capital: bool) -> str:
    """``seat N`` (``Seat N`` to begin a sentence) numbered for the player: the name :func:`event_sentence` gives."""
    return f"{'Seat' if capital else 'seat'} {seat_number(seat)}"


def mark_viewer(template: str, data: Mapping[str, Any], me: int) -> str:
    """The template with the viewer's own seat (``me``) marked where it is named, as :func:`seat_refs`
    marks a sentence: ``{seat} (you)``; ``(you)`` for ``({seat})``; ``{seat} (you, King)`` for a one-word note
    ``{seat} (King)``, ``{seat} (you) (a longer note)`` for another. Reads the template, not the prose."""
    out: list[str] = []
    at = 0
    while True:
        start = template.find("{", at)
        close = template.find("}", start + 1) if start >= 0 else -1
        if start < 0 or close < 0:
            break
        path = template[start + 1 : close]
        value = resolve(data, path)
        end = close + 1
        if type(value) is not int or value != me:
            out.append(template[at:end])
            at = end
            continue
        if start > 0 and template[start - 1] == "(" and template.startswith(")", end):
            out.append(template[at : start - 1] + "(you)")
            at = end + 1
            continue
        out.append(template[at:end])
        at = end
        note_end = template.find(")", end + 2) if template.startswith(" (", end) else -1
        note = template[end + 2 : note_end] if note_end >= 0 else ""
        if note and "(" not in note and "{" not in note and " " not in note:
            out.append(f" (you, {note})")
            at = note_end + 1
        else:
            out.append(" (you)")
    out.append(template[at:])
    return "".join(out)


def event_sentence(view: Mapping[str, Any], entry: Mapping[str, Any]) -> str:
    """One event of ``view["log"]`` as the viewer reads it: its template filled with the seats
    numbered for the player (:func:`seat_word`), the viewer's own marked "(you)" (:func:`mark_viewer`),
    the first letter capitalised. An entry with no template, or a bare sentence (a "note"), is its
    text through :func:`sentence`. Plain text (escape it for markup)."""
    template, data = entry.get("template"), entry.get("data")
    if not isinstance(template, str) or not isinstance(data, dict) or (entry.get("kind") == NOTE and not data):
        return sentence(view, str(entry.get("text", template or "")))
    me = view.get("seat")
    if type(me) is int:
        template = mark_viewer(template, data, me)
    line = fill(template, data, seat_word)
    return line[:1].upper() + line[1:]
