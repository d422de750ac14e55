"""Exceptions raised by courtcards.

Every error names the input it refused and the reason, so a user (or a client
of the server) can correct it without reading the source.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class CourtcardsError(Exception):
    """Base class of every error raised on purpose by courtcards. Errors pickle (a worker process
    raises them to its parent) with their message and fields, whatever their ``__init__`` takes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


def _rebuilt(cls: type[CourtcardsError], args: tuple[Any, ...], fields: dict[str, Any]) -> CourtcardsError:
    """An unpickled error: its message and fields, its ``__init__`` not called again."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(fields)
    return error


class UnknownGameError(CourtcardsError, KeyError):
    """A game name that is not registered."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown game {name!r}; known games: {', '.join(self.known)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class OptionError(CourtcardsError, ValueError):
    """An unknown option, or a value an option does not accept."""


class NotationError(CourtcardsError, ValueError):
    """Text that is not valid notation for a card or an action."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read {text!r}: {reason}")


class Refusal(str):
    """Why the rules refuse an action: the engine's sentence (this string, unchanged), with a
    ``code`` (a short identifier, e.g. "not_in_hand") and ``data`` (JSON-ready: seats as ints,
    cards as lists of card texts, numbers as ints) a client can word its own way.
    ``State.refusal`` returns one; :class:`IllegalActionError` carries its code and data."""

    __slots__ = ("code", "data")
    code: str
    data: Mapping[str, Any]

    def __new__(cls, code: str, text: str, data: Mapping[str, Any] | None = None) -> Refusal:
        self = super().__new__(cls, text)
        self.code = code
        self.data = {} if data is None else data
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Refusal, (self.code, str(self), dict(self.data))


#: the code of a refusal given as a bare sentence
ILLEGAL = "illegal"


class IllegalActionError(CourtcardsError, ValueError):
    """A well-formed action that the rules do not allow now.

    The state is left exactly as it was. ``code`` and ``data``: the refusal's, when the
    reason is a :class:`Refusal` (else "illegal", or "not_your_turn" and "game_over" for
    the subclasses, with no data).
    """

    default_code = ILLEGAL

    def __init__(self, action: object, seat: int | None, reason: str) -> None:
        self.action = action
        self.seat = seat
        self.reason = str(reason)
        self.code: str = reason.code if isinstance(reason, Refusal) else self.default_code
        self.data: dict[str, Any] = dict(reason.data) if isinstance(reason, Refusal) else {}
        who = "" if seat is None else f" by seat {seat}"
        super().__init__(f"illegal action {str(action)!r}{who}: {reason}")


class NotYourTurnError(IllegalActionError):
    """An action from a seat that has no decision to make now."""

    default_code = "not_your_turn"


class GameOverError(IllegalActionError):
    """An action sent after the game has ended."""

    default_code = "game_over"


class PositionError(CourtcardsError, ValueError):
    """A serialized state or explicit position that is malformed or inconsistent.

    ``PositionError(field, reason)`` names the field (a path such as
    ``players[2].tokens``) and the reason; ``PositionError(reason)`` is for a
    fault of the position as a whole.
    """

    def __init__(self, field_or_reason: str, reason: str | None = None) -> None:
        if reason is None:
            self.field: str | None = None
            self.reason = field_or_reason
            super().__init__(field_or_reason)
        else:
            self.field = field_or_reason
            self.reason = reason
            super().__init__(f"position field {field_or_reason!r}: {reason}")


class RecordError(CourtcardsError, ValueError):
    """A game record that cannot be read or does not replay."""


class ActionIdError(CourtcardsError, ValueError):
    """An action id that is not an integer, out of range, or not legal now.

    The state is left exactly as it was.
    """

    def __init__(self, action_id: object, seat: int | None, reason: str) -> None:
        self.action_id = action_id
        self.seat = seat
        self.reason = reason
        who = "" if seat is None else f" for seat {seat}"
        super().__init__(f"action id {action_id!r}{who}: {reason}")


class ViewError(CourtcardsError, ValueError):
    """A view that is malformed, of another game, or of another seat than asked."""
