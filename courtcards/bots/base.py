"""The bot interface and the registry of bot kinds.

A bot sees exactly what its seat may know: the seat's view (JSON-ready data
from ``State.view``) and the list of legal actions. It never gets the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from courtcards.core.errors import OptionError
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State


class Bot(Protocol):
    """A bot may set ``needs_view = False`` to get an empty view (it then costs
    nothing to build); bots without the attribute get the seat's view."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
SpecFactory = Callable[[int, str | None], Bot]  # seed, argument after ':' -> bot

_BOTS: dict[tuple[str, str], BotFactory] = {}
_SPECS: dict[str, tuple[SpecFactory, str]] = {}


def register_bot(game: str, kind: str, factory: BotFactory) -> None:
    _BOTS[(game, kind)] = factory


def register_bot_spec(kind: str, factory: SpecFactory, forms: str) -> None:
    """A bot for every game that takes an argument: ``kind`` or ``kind:ARG``;
    ``forms`` lists the valid forms for error messages."""
    _SPECS[kind] = (factory, forms)


def bot_kinds(game: str) -> list[str]:
    _load()
    return sorted({kind for g, kind in _BOTS if g in (game, "*")} | set(_SPECS))


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    """A bot from its spec: a kind (``greedy``) or a kind with an argument (``ismcts:500``)."""
    _load()
    name, colon, arg = kind.partition(":")
    if name in _SPECS:
        factory, forms = _SPECS[name]
        try:
            return factory(seed, arg if colon else None)
        except ValueError as exc:
            raise OptionError(f"bad bot {kind!r}: {exc}; valid forms: {forms}") from None
    factory_ = _BOTS.get((game, kind)) or _BOTS.get(("*", kind))
    if factory_ is None:
        plain = sorted({k for g, k in _BOTS if g in (game, "*")})
        valid = ", ".join([*plain, *(f for _, f in _SPECS.values())])
        raise OptionError(f"unknown bot {kind!r} for {game}; valid bots: {valid}")
    return factory_(seed)


def check_bot(game: str, kind: str) -> None:
    """Raise OptionError unless ``kind`` names a bot for ``game``."""
    make_bot(game, kind, 0)


def bot_move(bot: Bot, state: State, seat: int) -> Action:
    """Ask ``bot`` for ``seat``'s move, giving it only the seat's view (none if it needs none)."""
    view = state.view(seat) if getattr(bot, "needs_view", True) else {}
    return bot.choose(view, state.legal_actions(seat))


def pick_card(hand: Sequence[int], rng: Rng) -> int:
    """A card of a hand given as counts per card code, each card equally likely (for refitting worlds)."""
    k = rng.below(sum(hand))
    for card, n in enumerate(hand):
        if k < n:
            return card
        k -= n
    raise AssertionError("empty hand")


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


register_bot("*", "random", RandomBot)


def _load() -> None:
    import courtcards.bots  # noqa: F401  (registers the built-in bots)
