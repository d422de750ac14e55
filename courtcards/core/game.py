"""Static game descriptions and the registry that finds them by name."""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from courtcards.core.errors import CourtcardsError, OptionError, PositionError, UnknownGameError, ViewError
from courtcards.core.events import EventLog
from courtcards.core.options import OptionSet, OptionValue
from courtcards.core.positions import Fields, as_int, as_list, check_loaded, kind_of
from courtcards.core.rng import Rng
from courtcards.core.state import STATE_FORMAT, STATE_FORMAT_VERSION

if TYPE_CHECKING:
    from courtcards.core.ids import ActionCodec
    from courtcards.core.state import Action, State

SeedLike = int | random.Random | Rng


def as_rng(rng: SeedLike) -> Rng:
    """A generator from an integer seed, a ``random.Random`` or an :class:`Rng`
    (which is advanced, not copied)."""
    if isinstance(rng, Rng):
        return rng
    if isinstance(rng, random.Random):
        return Rng(rng.getrandbits(64))
    if isinstance(rng, int) and not isinstance(rng, bool):
        return Rng(rng)
    raise TypeError(f"rng must be an integer seed, a random.Random or an Rng, not {type(rng).__name__}")


S = TypeVar("S", bound="State")

# The layers that find a game's profile through it (GameInfo.profiles): what each entry names.
PROFILE_LAYERS: Mapping[str, str] = MappingProxyType(
    {
        "bots": "module: BOTS, a mapping of bot kind -> factory(seed) (the greedy bot among them)",
        "search": "a courtcards.bots.profile.SearchProfile for the ISMCTS bot",
        "observer": "callable(record, kinds) -> GameFacts: per-game facts for analyze (courtcards.analysis.observe)",
        "terminal": "a courtcards.render.TerminalRenderer for views and events in words",
        "browser": "path of the browser renderer module (an ES module), relative to the game's package",
        "tournament": "module: a tournament format for `courtcards tournament` (optional; no generic default)",
        "events": "a courtcards.core.events.EventKinds: the kinds of the game's events and their data (schemas)",
        "strangers": "module: STRANGERS (bot kind -> factory(seed)) and POOL, bots of other styles than greedy",
        "networks": "package: the trained networks (.npz, courtcards.nn) the nn bot plays, from `courtcards train`",
    }
)


@dataclass(frozen=True)
class GameInfo:
    """The static facts of a game, declared once in its package; every layer reads them
    (OpenSpiel's GameType and GameInfo). ``profiles`` names, per layer, where the game's
    own piece for that layer lives, as ``"module:attribute"`` (imported only when a layer
    asks, so the rules never import the layers above); a layer with no entry uses its
    generic default (see :data:`PROFILE_LAYERS` and docs/plugins.md)."""

    name: str  # the registry key: lower case, [a-z0-9_]
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: OptionSet
    dynamics: Literal["sequential", "simultaneous"] = "sequential"  # simultaneous: every seat picks at one node
    chance: Literal["seeded", "deterministic"] = "seeded"  # seeded: deals and draws come from the state's generator
    hidden_information: bool = True
    utility: tuple[float, float] = (-1.0, 1.0)  # the range of State.returns()
    zero_sum: bool = True
    max_length: int = 1_000_000  # an upper bound on a game's number of actions (options may end games sooner)
    round_word: str = "Round"  # what a player calls one deal or round ("Hand", "Turn")
    gym_id: str = ""  # default: courtcards/<Title without spaces>-v0
    openspiel_name: str = ""  # default: courtcards_<name>
    brief: str = ""  # the rules in brief, for text agents' prompts
    listing: int = 100  # place in listings (lobby, `courtcards games`): lower first, then by name
    analysis_bot: str = ""  # the bot kind `courtcards analyze` seats by default ("": greedy, else random)
    profiles: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name or not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"a game's name is lower-case letters, digits and _, not {self.name!r}")
        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.name}: players must satisfy 1 <= min <= default <= max")
        if not self.gym_id:
            object.__setattr__(
                self, "gym_id", "courtcards/" + "".join(c for c in self.title.title() if c.isalnum()) + "-v0"
            )
        if not self.openspiel_name:
            object.__setattr__(self, "openspiel_name", f"courtcards_{self.name}")
        object.__setattr__(self, "profiles", MappingProxyType(dict(self.profiles)))


class Game(ABC, Generic[S]):
    """What a game is, apart from any one play of it (OpenSpiel's "game").

    Subclasses declare ``info`` (a :class:`GameInfo`) once and implement the abstract
    methods; ``name``, ``title``, the player counts and ``options`` are read from it.
    A game is registered by an entry point in the ``courtcards.games`` group naming
    its instance (or by :func:`register`).
    """

    info: ClassVar[GameInfo]
    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    options: ClassVar[OptionSet]
    view_type: ClassVar[type | None] = None  # the game's view TypedDict (courtcards.core.views)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if isinstance(info, GameInfo):
            cls.name, cls.title, cls.options = info.name, info.title, info.options
            cls.min_players, cls.max_players, cls.default_players = (
                info.min_players,
                info.max_players,
                info.default_players,
            )

    def profile(self, layer: str) -> Any | None:
        """This game's piece for ``layer`` (see :data:`PROFILE_LAYERS`), imported on first
        use; None where the game declares none (the layer then uses its generic default)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_profiles", {})
        if layer not in cache:
            spec = self.info.profiles.get(layer) if hasattr(self, "info") else None
            if spec is None:
                cache[layer] = None
            elif layer == "browser":
                cache[layer] = spec
            else:
                module, _, attribute = spec.partition(":")
                loaded: Any = importlib.import_module(module)
                cache[layer] = getattr(loaded, attribute) if attribute else loaded
        return cache[layer]

    def resolve_options(
        self,
        num_players: int,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
    ) -> dict[str, OptionValue]:
        """All options with their values for this table size, checked."""
        if not isinstance(num_players, int) or not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {num_players!r}"
            )
        default = not options and preset is None and type(num_players) is int
        if default:  # every new game of a random playout or a self-play batch asks for these
            known: dict[int, dict[str, OptionValue]] = self.__dict__.setdefault("_default_options", {})
            if num_players in known:
                return dict(known[num_players])
        values = self.options.resolve(num_players, options, preset)
        self.check_options(num_players, values)
        if default:
            known[num_players] = dict(values)
        return values

    def check_options(self, num_players: int, values: Mapping[str, OptionValue]) -> None:
        """Reject combinations of options that do not fit together (override)."""

    def new_game(
        self,
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        preset: str | None = None,
    ) -> S:
        """A new game, dealt with the given seed."""
        n = self.default_players if num_players is None else num_players
        return self._new_state(n, self.resolve_options(n, options, preset), seed)

    def test_configs(self) -> list[tuple[int, dict[str, OptionValue]]]:
        """(players, options) pairs the conformance suite plays: every player
        count and every variant. Override to add option combinations."""
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    # -- the computation interface (ids, observations, worlds) -------------------------
    def action_codec(self, num_players: int, options: Mapping[str, Any] | None = None) -> ActionCodec:
        """The fixed numbering of actions for this table size and options (cached)."""
        cache: dict[Any, ActionCodec] = self.__dict__.setdefault("_codecs", {})
        try:
            given = (num_players, tuple(sorted((options or {}).items())))
            codec = cache.get(given)
        except TypeError:  # unhashable or unorderable values: resolve_options says what is wrong
            given, codec = None, None
        if codec is None:
            values = self.resolve_options(num_players, options)
            key = (num_players, tuple(sorted(values.items())))
            codec = cache.get(key)
            if codec is None:
                codec = cache[key] = self._action_codec(num_players, values)
            if given is not None:
                cache[given] = codec
        return codec

    def num_distinct_actions(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """How many action ids exist for this table size and options."""
        return self.action_codec(num_players, options).size

    def _action_codec(self, num_players: int, options: dict[str, OptionValue]) -> ActionCodec:
        raise NotImplementedError(f"{self.title} has no action numbering yet")

    def observation_shape(self, num_players: int, options: Mapping[str, Any] | None = None) -> tuple[int, ...]:
        """The shape of :meth:`State.observation_tensor` for this table size and options."""
        return self._observation_shape(num_players, self.resolve_options(num_players, options))

    def _observation_shape(self, num_players: int, options: dict[str, OptionValue]) -> tuple[int, ...]:
        raise NotImplementedError(f"{self.title} has no observation tensor yet")

    def check_view(self, view: Any, seat: int | None = None) -> Mapping[str, Any]:
        """Raise ViewError unless ``view`` is a seat's view of this game (of ``seat``, if given)."""
        if not isinstance(view, Mapping):
            raise ViewError(f"a view must be a JSON object (dict), not {type(view).__name__}")
        if view.get("game") != self.name:
            raise ViewError(f"not a {self.title} view: its game is {view.get('game')!r}")
        n = view.get("num_players")
        if not isinstance(n, int) or isinstance(n, bool) or not self.min_players <= n <= self.max_players:
            raise ViewError(f"malformed {self.title} view: num_players is {n!r}")
        own = view.get("seat")
        if own is None:
            raise ViewError("a spectator's view has no seat: a seat's view is needed")
        if not isinstance(own, int) or isinstance(own, bool) or not 0 <= own < n:
            raise ViewError(f"malformed {self.title} view: seat is {own!r}")
        if seat is not None and own != seat:
            raise ViewError(f"this is seat {own}'s view, not seat {seat}'s")
        if not isinstance(view.get("options"), Mapping):
            raise ViewError(f"malformed {self.title} view: no options")
        checked: set[Any] = self.__dict__.setdefault("_checked_options", set())
        try:
            key: Any = (n, tuple(sorted(view["options"].items())))
            known = key in checked
        except TypeError:
            key, known = None, False
        if not known:
            try:
                self.resolve_options(n, view["options"])
            except OptionError as exc:
                raise ViewError(f"malformed {self.title} view: {exc}") from None
            if key is not None and len(checked) < 10_000:
                checked.add(key)
        return view

    def observation_tensor(self, view: Mapping[str, Any], prefix: Sequence[int] = ()) -> npt.NDArray[np.float32]:
        """A seat's view (and its partial id choice) as a float32 array; see docs/engine/."""
        view = self.check_view(view)
        out = self._observation_tensor(view, tuple(prefix))
        assert out.dtype == np.float32
        return out

    def state_observation_tensor(self, state: S, seat: int) -> npt.NDArray[np.float32]:
        """``state.observation_tensor(seat)``: by default from the seat's view without its log (a tensor
        never reads the log's sentences); a game may read the same facts straight from the state
        (faster), as long as the result equals the full view's (the conformance suite compares them)."""
        return self.observation_tensor(state._observer(seat, log=False), state.id_prefix(seat))

    def observation_string(self, view: Mapping[str, Any], prefix: Sequence[int] = ()) -> str:
        """A seat's view (and its partial id choice) in words."""
        return self._observation_string(self.check_view(view), tuple(prefix))

    def _observation_tensor(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
        raise NotImplementedError(f"{self.title} has no observation tensor yet")

    def _observation_string(self, view: Mapping[str, Any], prefix: tuple[int, ...]) -> str:
        raise NotImplementedError(f"{self.title} has no observation string yet")

    def sample_world(
        self, view: Mapping[str, Any], rng: SeedLike, *, seat: int | None = None, open_choices: bool = False
    ) -> S:
        """A complete state consistent with everything one seat knows (its view), the
        hidden cards dealt uniformly over the deals that fit, pending secret choices
        of other seats resampled too. The world's own generator is fresh, seeded
        from ``rng``, so its future deals are not the true ones.

        ``open_choices``: the other seats' hidden choices are left unmade instead, so
        that they decide again in the world (for a search, which can then choose them
        by its model of those seats rather than by a uniform guess); the seat's own
        choice is kept. Such a world differs from the view only in who has committed
        (and so who is to move)."""
        view = self.check_view(view, seat)
        generator = as_rng(rng)
        try:
            world = self._sample_world(view, generator)
            if open_choices and world.pending:
                mine = view.get("seat")
                world.pending = {s: a for s, a in world.pending.items() if s == mine}
                world.forget_caches()
            # the events as this seat read them (its own secret sentences): the world shows it the same log
            world.events = EventLog.from_json(view["log"], "log", world.num_players)
            # the world is its record's start, pending choices and all: the record replays to it
            world.start = {k: v for k, v in world.to_json().items() if k not in ("history", "start")}
            return world
        except ViewError:
            raise
        except (CourtcardsError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ViewError(f"malformed {self.title} view: {type(exc).__name__}: {exc}") from None

    def _sample_world(self, view: Mapping[str, Any], rng: Rng) -> S:
        raise NotImplementedError(f"{self.title} has no world sampling yet")

    @abstractmethod
    def _new_state(self, num_players: int, options: dict[str, OptionValue], seed: int) -> S: ...

    def state_from_json(self, data: Mapping[str, Any], *, strict: bool = True) -> S:
        """A state from :meth:`State.to_json`, or from an explicit position in
        the same format with fields left out (see docs/notation.md). ``strict``
        off relaxes a game's per-player consistency checks (for resampled worlds).

        Every field is checked: a malformed or inconsistent position raises
        :class:`PositionError` naming the field and the reason; the cards must be
        exactly the game's deck and the game's invariants must hold."""
        f = Fields(data, "")
        if f.text("game", default=self.name) != self.name:
            raise PositionError("game", f"not a {self.title} position: game is {data.get('game')!r}")
        if f.has("format") and f.text("format") != STATE_FORMAT:
            raise PositionError("format", f"unknown state format {data['format']!r}")
        version = f.integer("format_version", 1, STATE_FORMAT_VERSION, default=STATE_FORMAT_VERSION)
        if version < STATE_FORMAT_VERSION:
            data = self._upgrade_position(dict(data), version)
            f = Fields(data, "")
        n = f.opt_integer("num_players", self.min_players, self.max_players)
        if n is None:
            n = self._players_in_position(data)
        if n is None:
            raise PositionError("num_players", f"a {self.title} position needs 'num_players' (or 'hands')")
        if not self.min_players <= n <= self.max_players:
            raise PositionError(
                "num_players", f"{self.title} is for {self.min_players} to {self.max_players} players, not {n}"
            )
        options = f.data.get("options") or {}
        if not isinstance(options, Mapping):
            raise PositionError("options", f"must be an object, not {kind_of(options)}")
        try:
            resolved = self.resolve_options(n, options)
        except OptionError as exc:
            raise PositionError("options", str(exc)) from None
        seed = f.integer("seed", lo=None, hi=None, default=0)
        try:
            state = self._load_state(n, resolved, seed, data, strict)
        except PositionError:
            raise
        except CourtcardsError as exc:
            raise PositionError("position", str(exc)) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
            # the game's loader should have named the field; never let a raw error out
            raise PositionError("position", f"malformed {self.title} position ({type(exc).__name__}: {exc})") from None
        history = []
        for i, entry in enumerate(f.array("history", default=[])):
            pair = as_list(entry, f"history[{i}]", 2)
            seat = as_int(pair[0], f"history[{i}][0]", 0, n - 1)
            if not isinstance(pair[1], str):
                raise PositionError(f"history[{i}][1]", f"must be an action's text, not {kind_of(pair[1])}")
            history.append((seat, pair[1]))
        state.history = history
        state.version = f.integer("version", default=len(history))
        pending = f.obj("pending", default={})
        # a full state carries where it started; a position is its own start
        if "history" in data:
            start = f.data.get("start")
            if start is not None and not isinstance(start, Mapping):
                raise PositionError("start", f"must be a position or null, not {kind_of(start)}")
            state.start = None if start is None else dict(start)
        else:
            state.start = {k: v for k, v in data.items() if k not in ("history", "version", "pending", "start")}
            state.start["format_version"] = STATE_FORMAT_VERSION  # read (and upgraded) as this format
        for key in pending.data:
            path = pending.at(key)
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise PositionError(path, "is not a seat number") from None
            if not 0 <= seat < n:
                raise PositionError(path, f"seat {seat} is not at this table")
            text = pending.data[key]
            if not isinstance(text, str):
                raise PositionError(path, f"must be an action's text, not {kind_of(text)}")
            try:
                action = self.parse_action(text)
            except CourtcardsError as exc:
                raise PositionError(path, str(exc)) from None
            self._check_pending(state, seat, action, strict)
            state.pending[seat] = action
        # the saved log, then whatever the loader logged (a position that begins a turn as it loads)
        state.events = EventLog.from_json(f.array("events", default=[]), "events", n).then(state.events)
        prefixes = data.get("id_prefixes") or {}
        if prefixes:
            self._load_id_prefixes(state, prefixes)
        if strict:
            # a game begun from a position written by hand is held to what that position was held to
            check_loaded(state, saved="history" in data and state.start is None)
        return state

    def _load_id_prefixes(self, state: State, prefixes: Any) -> None:
        if not isinstance(prefixes, Mapping):
            raise PositionError(f"'id_prefixes' must map seats to lists of ids, not {prefixes!r}")
        size = state.action_codec().size
        for key, ids in prefixes.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                raise PositionError(f"'id_prefixes': {key!r} is not a seat") from None
            if (
                not 0 <= seat < state.num_players
                or not isinstance(ids, list)
                or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in ids)
            ):
                raise PositionError(f"'id_prefixes': seat {key!r} needs a list of ids in 0..{size - 1}, not {ids!r}")
            state.id_prefixes[seat] = tuple(ids)
        for seat in state.id_prefixes:
            try:
                fits = bool(state.legal_action_ids(seat))
            except CourtcardsError as exc:
                raise PositionError(f"'id_prefixes' of seat {seat} does not fit the position: {exc}") from None
            if not fits:
                raise PositionError(f"'id_prefixes' of seat {seat} starts no legal action")

    def _upgrade_position(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """A position saved in an older ``format_version``, rewritten in the
        current one (renamed fields, piles turned top card first)."""
        return data

    def _players_in_position(self, data: Mapping[str, Any]) -> int | None:
        """The table size of a position that does not give ``num_players``."""
        hands = data.get("hands")
        return len(hands) if isinstance(hands, list) else None

    @abstractmethod
    def _load_state(
        self, num_players: int, options: dict[str, OptionValue], seed: int, data: Mapping[str, Any], strict: bool
    ) -> S:
        """A state of this game filled from the game's own fields of ``data``: the built-in
        games make a bare state and call their ``positions.load_position(state, data, strict)``
        (the one signature, :class:`courtcards.core.positions.LoadPosition`)."""

    def _check_pending(self, state: State, seat: int, action: Action, strict: bool) -> None:
        """Raise PositionError if a stored secret choice cannot be ``seat``'s."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action from its notation; raise NotationError if malformed."""

    @abstractmethod
    def parse_cards(self, text: str) -> list[Any]:
        """Read a list of cards from their notation."""


_REGISTRY: dict[str, Game[Any]] = {}
ENTRY_POINT_GROUP = "courtcards.games"
_loaded = False

G = TypeVar("G", bound="Game[Any]")


def register(game: G) -> G:
    """Register a game instance under its name (entry points do this for installed games)."""
    if not isinstance(game, Game):
        raise TypeError(f"register() takes a Game instance, not {type(game).__name__}")
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a registered game (for tests and notebooks that register one of their own)."""
    _load_games()
    _REGISTRY.pop(name, None)


def builtin_games() -> list[Game[Any]]:
    """The registered games that come with courtcards (the packages under ``courtcards.games``)."""
    return [g for g in registered_games() if type(g).__module__.startswith("courtcards.games.")]


@overload
def get_game(name: str) -> Game[Any]: ...
@overload
def get_game(name: str, kind: type[G]) -> G: ...


def get_game(name: str, kind: type[Game[Any]] | None = None) -> Game[Any]:
    """The registered game of that name. ``kind`` types the result (``get_game("rank",
    RankGame)`` is a ``RankGame``) and checks it; without it the result is a ``Game``."""
    _load_games()
    if not isinstance(name, str):
        raise UnknownGameError(repr(name), _REGISTRY)
    try:
        game = _REGISTRY[name.strip().lower()]
    except KeyError:
        raise UnknownGameError(name, _REGISTRY) from None
    if kind is not None and not isinstance(game, kind):
        raise TypeError(f"game {name!r} is a {type(game).__name__}, not a {kind.__name__}")
    return game


def game_names() -> list[str]:
    """The registered games' names, in listing order (``GameInfo.listing``, then name)."""
    return [g.name for g in registered_games()]


def registered_games() -> list[Game[Any]]:
    """Every registered game, in listing order (``GameInfo.listing``, then name)."""
    _load_games()
    return sorted(_REGISTRY.values(), key=lambda g: (g.info.listing if hasattr(g, "info") else 100, g.name))


def _load_games() -> None:
    """Load the games named by the ``courtcards.games`` entry points (the built-ins are
    listed in pyproject.toml like any plug-in's). Run from a source tree that is not
    installed, the built-in packages under ``courtcards.games`` are found by a scan."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    points = metadata.entry_points(group=ENTRY_POINT_GROUP)
    for point in points:
        try:
            game = point.load()
        except Exception as exc:  # a broken plug-in must not take the built-in games down
            import warnings

            warnings.warn(f"courtcards game plug-in {point.name!r} ({point.value}) failed to load: {exc}", stacklevel=2)
            continue
        register(game)
    if not any(p.value.startswith("courtcards.games.") for p in points):
        import pkgutil

        import courtcards.games as builtins

        for module in pkgutil.iter_modules(builtins.__path__):
            if module.ispkg:
                game = getattr(importlib.import_module(f"courtcards.games.{module.name}"), "GAME", None)
                if isinstance(game, Game):
                    register(game)
