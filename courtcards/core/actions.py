"""The one base class of every game's actions.

An action is a small immutable value with a canonical text (its notation),
compared and hashed by that text, with a ``kind`` from the game's own
:class:`enum.StrEnum` (so ``action.kind == "pass"`` still reads). Its ``repr``
is a call that rebuilds it, like python-chess's ``Move.from_uci('e2e4')``::

    >>> RankAction.parse("8 8 7 U")
    RankAction.parse('8 8 7 U')

A game's subclass adds its own fields in ``__slots__``, sets every field once
in its constructor with :meth:`Action._init` (afterwards assignment raises), and
implements :meth:`parse` (text to action, NotationError if malformed).
Games usually intern their actions, so equal actions are often the same object.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, TypeVar

A = TypeVar("A", bound="Action")


class Action:
    __slots__ = ("_hash", "kind", "text")

    kind: StrEnum
    text: str
    _hash: int
    game: ClassVar[str] = ""  # the game's registered name

    def _init(self, kind: StrEnum, text: str, **fields: Any) -> None:
        """Set the fields of a new action (the only way to set them)."""
        setattr_ = object.__setattr__
        setattr_(self, "kind", kind)
        setattr_(self, "text", text)
        setattr_(self, "_hash", hash(text))
        for name, value in fields.items():
            setattr_(self, name, value)

    @classmethod
    def parse(cls: type[A], text: str) -> A:
        """The action written ``text`` (NotationError if it is not one)."""
        raise NotImplementedError

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.text == self.text)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.text!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return type(self).parse, (self.text,)

    def __copy__(self: A) -> A:
        return self

    def __deepcopy__(self: A, memo: dict[int, Any]) -> A:
        return self
