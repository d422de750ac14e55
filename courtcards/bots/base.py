"""The bot interface and the registry of bot kinds.

A bot sees exactly what its seat may know: the seat's view (JSON-ready data
from ``State.view``) and the list of legal actions. It never gets the state.

A game's bot kinds are found through the game: the mappings (kind ->
factory(seed)) of the modules its profiles name, imported on first use: ``BOTS``
of its ``bots`` profile (``courtcards/games/<g>/bots.py`` for the built-in games)
and ``STRANGERS`` of its ``strangers`` profile (bots of other styles than greedy,
``courtcards/bots/strangers.py``). Every game also has the generic bots:
``random``, the generic strangers and the search (``ismcts``, ``ismcts:N``), which
reads the game's ``search`` profile or the generic one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from courtcards.core.errors import CourtcardsError, OptionError, UnknownGameError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State


class Bot(Protocol):
    """A bot may set ``needs_view = False`` to get an empty view (it then costs
    nothing to build), or ``needs_log = False`` to get the view with an empty ``log``
    (the log's sentences are the costliest part of a view) where the engine asks it
    for moves (``bot_move``, the search's playouts); bots without the attributes get
    the seat's whole view."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
SpecFactory = Callable[[int, str | None], Bot]  # seed, argument after ':' -> bot

_GENERIC: dict[str, BotFactory] = {}  # kind -> factory: bots for every game (random)
_ADDED: dict[tuple[str, str], BotFactory] = {}  # (game, kind) -> factory: added at run time by register_bot
_SPECS: dict[str, tuple[SpecFactory, str]] = {}
GameSpecFactory = Callable[[str, int, str | None], Bot]  # game, seed, argument after ':' -> bot
_GAME_SPECS: dict[str, tuple[GameSpecFactory, str, Callable[[str], bool]]] = {}


def register_bot(game: str, kind: str, factory: BotFactory) -> None:
    """Add a bot kind at run time: for the game named ``game``, or for every game with ``"*"``.
    A game's own bots are declared in its package (``BOTS`` in its ``bots`` profile), not here."""
    if game == "*":
        _GENERIC[kind] = factory
    else:
        _ADDED[(game, kind)] = factory


def register_bot_spec(kind: str, factory: SpecFactory, forms: str) -> None:
    """A bot for every game that takes an argument: ``kind`` or ``kind:ARG``;
    ``forms`` lists the valid forms for error messages."""
    _SPECS[kind] = (factory, forms)


def register_game_bot(kind: str, factory: GameSpecFactory, forms: str, offered: Callable[[str], bool]) -> None:
    """A bot for every game that is made knowing the game (``kind`` or ``kind:ARG``), such as the ``nn``
    bot, which loads the game's network: ``factory(game, seed, arg)`` raises ValueError with the reason
    where it cannot play that game. ``offered(game)``: whether listings (:func:`bot_kinds`) name it."""
    _GAME_SPECS[kind] = (factory, forms, offered)


# the profiles that declare a game's own bot kinds, and the mapping each one's module holds
BOT_SOURCES: tuple[tuple[str, str], ...] = (("bots", "BOTS"), ("strangers", "STRANGERS"))


def game_bots(game: str) -> dict[str, BotFactory]:
    """The game's own bot kinds: the mappings of its profiles in :data:`BOT_SOURCES` (found through the
    game, imported on first use), and those added for it by :func:`register_bot`; none for a game that
    declares none (or a name no game has). The bots for every game (:func:`bot_kinds`) are not among them."""
    bots: dict[str, BotFactory] = {}
    try:
        found = get_game(game)
    except UnknownGameError:
        name = game
    else:
        name = found.name
        for layer, attribute in BOT_SOURCES:
            bots.update(getattr(found.profile(layer), attribute, None) or {})
    bots.update({kind: factory for (g, kind), factory in _ADDED.items() if g in (game, name)})
    return bots


def _plain_bots(game: str) -> dict[str, BotFactory]:
    return {**_GENERIC, **game_bots(game)}  # the game's own kind first where both have one


def bot_kinds(game: str) -> list[str]:
    _load()
    offered = {kind for kind, (_, _, shown) in _GAME_SPECS.items() if shown(game)}
    return sorted(set(_plain_bots(game)) | set(_SPECS) | offered)


def default_bot_kind(game: str) -> str:
    """The bot seated where none is named: the game's greedy bot, or random for a game without one."""
    return "greedy" if "greedy" in bot_kinds(game) else "random"


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
    if name in _GAME_SPECS:
        game_factory, forms, _ = _GAME_SPECS[name]
        try:
            return game_factory(game, seed, arg if colon else None)
        except ValueError as exc:
            raise OptionError(f"bad bot {kind!r} for {game}: {exc}; valid forms: {forms}") from None
    plain = _plain_bots(game)
    factory_ = plain.get(kind)
    if factory_ is None:
        valid = ", ".join([*sorted(plain), *(f for _, f in _SPECS.values()), *(f for _, f, _ in _GAME_SPECS.values())])
        raise OptionError(f"unknown bot {kind!r} for {game}; valid bots: {valid}")
    return factory_(seed)


def check_bot(game: str, kind: str) -> None:
    """Raise OptionError unless ``kind`` names a bot for ``game``."""
    make_bot(game, kind, 0)


def check_bot_table(game: str, kind: str, num_players: int, options: Mapping[str, Any] | None = None) -> None:
    """Raise OptionError unless ``kind`` names a bot that can play this table: a bot with ``check_table``
    (the ``nn`` bot: is its network made for this player count and these options?) is asked."""
    bot = make_bot(game, kind, 0)
    check = getattr(bot, "check_table", None)
    if check is not None:
        try:
            check(num_players, dict(options or {}))
        except CourtcardsError as exc:
            raise OptionError(f"bad bot {kind!r} for this table: {exc}") from None


def bot_view(bot: Bot, state: State, seat: int) -> dict[str, Any]:
    """What ``bot`` is given of ``seat``'s view: none if it needs none, the view without its log if it
    never reads the log, else the whole view."""
    if not getattr(bot, "needs_view", True):
        return {}
    return state.view(seat) if getattr(bot, "needs_log", True) else state.view_without_log(seat)


def state_move(bot: Any, state: State, seat: int, legal: Sequence[Action]) -> Action:
    """``bot``'s move for ``seat`` among ``legal`` in a state the caller made for itself (a search's sampled
    world, a trainer's rollout): read from the state by bots that can (``choose_state``: the seat's hand and
    public facts only, the same move), else from the seat's view (:func:`bot_view`)."""
    by_state = getattr(bot, "choose_state", None)
    if by_state is not None:
        action: Action = by_state(state, seat, legal)
        return action
    action = bot.choose(bot_view(bot, state, seat), legal)
    return action


def bot_move(bot: Bot, state: State, seat: int) -> Action:
    """Ask ``bot`` for ``seat``'s move, giving it only the seat's view (:func:`bot_view`)."""
    return bot.choose(bot_view(bot, state, seat), state.legal_actions(seat))


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
    import courtcards.bots  # noqa: F401  (registers the search bot spec and the generic strangers)
