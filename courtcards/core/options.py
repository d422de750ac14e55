"""Game options: named, typed, documented, with defaults and presets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from courtcards.core.errors import OptionError

OptionValue = bool | int | str | None


@dataclass(frozen=True)
class Option:
    """One game option.

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. ``default`` may be a
    function of the number of players (for example a target score that depends
    on the table size); ``optional`` ints also accept ``None`` ("no limit").
    """

    name: str
    kind: str
    default: OptionValue | Callable[[int], OptionValue]
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False

    def default_for(self, num_players: int) -> OptionValue:
        return self.default(num_players) if callable(self.default) else self.default

    def describe_values(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        text = f"an integer in {lo}..{hi}" if lo or hi else "an integer"
        return text + (" or none" if self.optional else "")

    def coerce(self, value: object) -> OptionValue:
        """Check (and, from text, convert) a value; raise OptionError if invalid."""
        bad = OptionError(f"option {self.name!r} does not accept {value!r}: expected {self.describe_values()}")
        if isinstance(value, str):
            text = value.strip().lower()
            if self.kind == "bool":
                if text in ("true", "yes", "on", "1"):
                    return True
                if text in ("false", "no", "off", "0"):
                    return False
                raise bad
            if self.kind == "int":
                if self.optional and text in ("none", "null", ""):
                    return None
                try:
                    value = int(text)
                except ValueError:
                    raise bad from None
            elif self.kind == "choice":
                value = text
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad
            return value
        if self.kind == "int":
            if value is None and self.optional:
                return None
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise bad
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise bad
            return str(value)
        raise AssertionError(f"unknown option kind {self.kind}")


@dataclass(frozen=True)
class OptionSet:
    """The options a game accepts, and its named presets."""

    options: tuple[Option, ...]
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    preset_docs: Mapping[str, str] = field(default_factory=dict)

    def get(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise OptionError(f"unknown option {name!r}; valid options: {', '.join(self.names())}")

    def names(self) -> list[str]:
        return [o.name for o in self.options]

    def resolve(
        self,
        num_players: int,
        given: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> dict[str, OptionValue]:
        """Every option with its value: defaults, then the preset, then ``given``."""
        values: dict[str, OptionValue] = {o.name: o.default_for(num_players) for o in self.options}
        if preset is not None:
            if preset not in self.presets:
                raise OptionError(f"unknown preset {preset!r}; valid presets: {', '.join(sorted(self.presets))}")
            values.update(self.presets[preset])
        for name, value in (given or {}).items():
            key = name.replace("-", "_")
            values[key] = self.get(key).coerce(value)
        return values


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b=true"]`` to ``{"a": "1", "b": "true"}`` (values checked later)."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionError(f"option {pair!r} must be written name=value")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out
