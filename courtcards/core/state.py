"""The state protocol every game implements.

A decision belongs to one or more seats (:meth:`State.to_move`). When several
seats decide at once (secret simultaneous choices), each commits its action
separately; the state keeps the commitments hidden until the last one arrives
and then resolves them together. Games implement the single-underscore hooks;
the public methods here check seats, legality and turn order for every game.
"""

from __future__ import annotations

import gc
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, cast

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from courtcards.core.actions import Action
from courtcards.core.errors import (
    ActionIdError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    Refusal,
)
from courtcards.core.events import EMPTY as EMPTY_LOG
from courtcards.core.events import LOG_LIMIT, MAX_DEPTH, EventLog, Steps, since

if TYPE_CHECKING:
    from courtcards.core.game import Game
    from courtcards.core.ids import ActionCodec
    from courtcards.core.options import OptionValue
    from courtcards.core.record import GameRecord
    from courtcards.core.rng import Rng

JSON = dict[str, Any]

STATE_FORMAT = "courtcards/state"
_node: Final = tuple.__new__


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


STATE_FORMAT_VERSION = 3  # 2: one position format (piles top card first, shared names); 3: the event log
#: to_move's answer for one seat, made once (for more seats than any game has)
_ONE: Final = tuple((s,) for s in range(1024))
#: the caches when they hold nothing (a version no state has: versions start at 0), so that the hot
#: paths compare versions without testing for None first
_NO_MOVES: Final[tuple[int, tuple[int, ...], tuple[int, ...], bool]] = (-1, (), (), False)
_NO_LEGAL: Final[tuple[int, int, list[Action], Any, bool]] = (-1, -1, [], None, False)

__all__ = ["JSON", "STATE_FORMAT", "STATE_FORMAT_VERSION", "Action", "Result", "State"]  # Action: core.actions'


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``ranking`` lists seats best first; ``scores`` is per seat (tokens,
    points, ...: the game's docs say which and whether higher is better);
    ``winner`` is None for a draw.
    """

    winner: int | None
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "winner": self.winner,
            "ranking": list(self.ranking),
            "scores": list(self.scores),
            "details": dict(self.details),
        }


def binomial(n: int, k: int) -> int:
    """``math.comb(n, k)`` for ``n >= 0``, 0 if ``k`` is out of 0..n: compiled, a C loop where a call to
    ``comb`` goes through the interpreter's calling convention (the counts of a hand's combinations)."""
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    out = 1
    for j in range(k):
        out = out * (n - j) // (j + 1)  # exact: the product of j + 1 consecutive integers over (j + 1)!
    return out


def nth_combination(items: Sequence[Any], size: int, index: int) -> tuple[Any, ...]:
    """``list(itertools.combinations(items, size))[index]``, found without listing the others: for a
    game's :meth:`State._random_action`, which must draw what listing its legal actions would."""
    out = []
    i, n = 0, len(items)
    while size:  # combinations' order: those with items[i] first, then those without it
        with_it = binomial(n - i - 1, size - 1)
        if index < with_it:
            out.append(items[i])
            size -= 1
        else:
            index -= with_it
        i += 1
    return tuple(out)


def insert_in_order(cards: list[int], card: int) -> None:
    """``bisect.insort(cards, card)`` for a short list, searched from its end: the compiled engine calls
    it as a C function, where a call to ``insort`` goes through the interpreter's calling convention."""
    i = len(cards)
    while i > 0 and cards[i - 1] > card:
        i -= 1
    cards.insert(i, card)


# compiled (mypyc), a game's state in a plug-in package (interpreted) must still be able to subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One play of a game, mutable; copy it with :meth:`copy`."""

    game: Game[Any]
    num_players: int
    options: dict[str, OptionValue]
    seed: int
    history: list[tuple[int, str]]
    pending: dict[int, Action]
    version: int
    rng: Rng
    #: each seat's partial choice in the id layer (see :mod:`courtcards.core.ids`)
    id_prefixes: dict[int, tuple[int, ...]]
    #: (version, seat, legal, index with .get or None, whether the seat is the only actor)
    _legal_cache: tuple[int, int, list[Action], Any, bool]
    #: (version, actors, seats still to decide, whether one seat acts): what to_move answers,
    #: from _single_mover or _actors
    _move_cache: tuple[int, tuple[int, ...], tuple[int, ...], bool]
    _ids_cache: tuple[int, int, tuple[int, ...], dict[int, Action | None]] | None
    _infolog: list[list[str]] | None
    #: whether views show the log (False: ``log`` is empty, for readers of positions only,
    #: such as analysis observers: the log is most of a view's cost)
    log_in_views: bool
    #: the event log's last node: an EventLog, or a plain tuple of the same fields that
    #: log_event appended (wrapped as an EventLog when ``events`` is read)
    _log: tuple[Any, ...]

    #: attributes a copy may share with its original: immutable, or caches
    #: that are replaced and never mutated in place
    SHARED_ON_COPY: ClassVar[frozenset[str]] = frozenset(
        {"game", "start", "_log", "_legal_cache", "_move_cache", "_ids_cache", "_codec"}
    )

    def _init_base(self, game: Game[Any], num_players: int, options: dict[str, OptionValue], seed: int) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.history = []
        self.pending = {}
        self.version = 0
        self.start: JSON | None = None
        self.id_prefixes = {}
        self._legal_cache = _NO_LEGAL
        self._move_cache = _NO_MOVES
        self._ids_cache = None
        self._infolog = None
        self.log_in_views = True
        self._codec: ActionCodec | None = None
        self._log = EMPTY_LOG

    # -- hooks a game implements -------------------------------------------------
    @abstractmethod
    def _actors(self) -> tuple[int, ...]:
        """Seats with an open decision (including any that already committed)."""

    @abstractmethod
    def _legal(self, seat: int) -> list[Action]:
        """Legal actions for a seat in ``_actors()``, each text unique."""

    @abstractmethod
    def _resolve(self, actions: dict[int, Action]) -> None:
        """Carry out one legal action per actor (all of them at once)."""

    # the fast path: optional hooks for the common case of one seat deciding alone
    def _single_mover(self) -> int:
        """The one seat that decides now, if the game can tell cheaply that exactly one
        seat does (the game not over, nothing pending); else -1, and the core asks
        :meth:`_actors`. Whatever it answers must agree with ``_actors``: it only spares
        random playouts and search the general bookkeeping. -1 by default. The default
        :meth:`_apply_one` answers with it; a game that answers there itself needs not."""
        return -1

    def _apply_one(self, seat: int, action: Action) -> int:
        """Carry out the legal ``action`` of ``seat``, the only actor (what
        ``_resolve({seat: action})`` does, which is the default; a game may go
        straight to its rules and skip building the dict), and answer what
        :meth:`_single_mover` answers after it: the core then knows who decides
        next without asking (playouts call ``to_move`` after every action)."""
        self._resolve({seat: action})
        return self._single_mover()

    def _committed(self, seat: int, action: Action) -> None:
        """``seat`` made its secret choice and others have still to make theirs: log that it
        has chosen for everyone, and what only for itself. A game may word it its own way;
        the reveal, when the last seat chooses, is the game's own event."""
        self.log_event(
            seat,
            "commit",
            "{seat} has chosen (hidden until every seat has chosen)",
            {"seat": seat},
            {
                seat: (
                    "{seat} chooses " + action.text + " (hidden until every seat has chosen)",
                    {"seat": seat, "action": action.text},
                )
            },
        )

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as JSON-ready data; ``None`` for a spectator."""

    def view_without_log(self, seat: int | None) -> JSON:
        """``seat``'s view with an empty ``log``: the log's sentences are the costliest part of a view, and
        what bots that never read them (``needs_log = False``) and observation tensors are given."""
        keep = self.log_in_views
        self.log_in_views = False
        try:
            return self.view(seat)
        finally:
            self.log_in_views = keep

    def view_json(self, seat: int | None, dumps: Callable[[Any], str] = _compact) -> str:
        """``seat``'s view as JSON text, for a push: the view without its log encoded by ``dumps``, and the
        log from each event's entry encoded once (:meth:`EventLog.last_json`); ``json.loads`` of it
        equals the view."""
        keep = self.log_in_views
        view = self.view_without_log(seat)
        if not keep or view.get("log") != []:  # a view that does not build its log with log_view
            return dumps(view)
        del view["log"]
        head = dumps(view)
        log = self.events.last_json(LOG_LIMIT, seat)
        return f'{head[:-1]},"log":{log}}}' if view else f'{{"log":{log}}}'

    @abstractmethod
    def _to_json(self) -> JSON:
        """The game's own fields of the full state."""

    @abstractmethod
    def card_places(self) -> dict[str, list[str]]:
        """Every card of the game by place, in card notation (for conservation checks)."""

    @abstractmethod
    def deck(self) -> list[str]:
        """Every card the game uses, in card notation."""

    @abstractmethod
    def hidden_places(self, seat: int | None) -> list[str]:
        """Names of the places in :meth:`card_places` whose cards ``seat`` cannot see."""

    def replace_places(self, places: Mapping[str, list[str]]) -> State:
        """A copy with the cards of the named places replaced (same sizes).

        By default a place ``hand:i`` is ``hands[i]`` of the state JSON and any
        other place is the top-level key of its name; override otherwise."""
        data = self.to_json()
        for name, cards in places.items():
            if name.startswith("hand:"):
                data["hands"][int(name[5:])] = list(cards)
            else:
                data[name] = list(cards)
        state: State = self.game.state_from_json(data, strict=False)
        return state

    def invariants(self) -> list[str]:
        """Game-specific consistency problems (tokens adding up, ...); empty if none."""
        return []

    def position_errors(self) -> list[str]:
        """What makes a loaded saved state impossible for this game beyond its
        :meth:`invariants` (a turn that skips a seat, a fight naming a Royal the
        defender lacks, ...); empty if none."""
        return []

    def refusal(self, seat: int, action: Action) -> str | None:
        """Why ``action`` is not legal for ``seat`` (a seat with a decision now),
        or None if it is legal. A game implements this as its one statement of
        the rules for a given action; the conformance suite checks it agrees
        with :meth:`legal_actions` (``check_refusals``)."""
        if action in self._legal_for(seat)[1]:
            return None
        return Refusal("not_legal_now", "not a legal action now")

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now (a :class:`Refusal`: the sentence, a code and data)."""
        return self.refusal(seat, action) or Refusal("not_legal_now", "not a legal action now")

    # -- the protocol --------------------------------------------------------------
    def _move_entry(self) -> tuple[int, tuple[int, ...], tuple[int, ...], bool]:
        """The move cache of this version, made if it is not."""
        cache = self._move_cache
        if cache[0] == self.version:
            return cache
        if self.is_over():
            actors: tuple[int, ...] = ()
            movers: tuple[int, ...] = ()
        else:
            actors = self._actors()
            movers = tuple(s for s in actors if s not in self.pending) if self.pending else actors
        cache = self._move_cache = (self.version, actors, movers, len(actors) == 1)
        return cache

    def _movers(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(actors, seats still to decide), cached per version."""
        cache = self._move_entry()
        return cache[1], cache[2]

    def forget_caches(self) -> None:
        """Drop what the state has cached of its decisions: for code that changes a state's
        fields other than through :meth:`apply` (a sampled world, a search's edit of a copy)."""
        self._move_cache = _NO_MOVES
        self._legal_cache = _NO_LEGAL
        self._ids_cache = None

    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now; several for a secret simultaneous choice."""
        cache = self._move_cache  # after an action of one seat, _apply_one's answer: no call to the game
        if cache[0] == self.version:
            return cache[2]
        return self._move_entry()[2]

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions for ``seat`` (empty if it has no decision now)."""
        cache = self._move_cache
        if cache[0] != self.version:
            cache = self._move_entry()
        if seat not in cache[2]:
            return []
        legal_cache = self._legal_cache  # _legal_list, inline: this is the hot path of playouts
        if legal_cache[0] == self.version and legal_cache[1] == seat:
            return list(legal_cache[2])
        legal = self._legal(seat)
        self._legal_cache = (self.version, seat, legal, None, cache[3])
        return list(legal)

    def _legal_list(self, seat: int) -> list[Action]:
        """The legal actions of a seat that decides now, cached per version."""
        cache = self._legal_cache
        if cache[0] == self.version and cache[1] == seat:
            return cache[2]
        legal = self._legal(seat)
        self._legal_cache = (self.version, seat, legal, None, self._move_entry()[3])
        return legal

    def _legal_for(self, seat: int) -> tuple[list[Action], Any]:  # Any: a dict or a LegalList (.get)
        """The legal list and an index by action (built only when an action must be looked up)."""
        legal = self._legal_list(seat)
        cache = self._legal_cache
        index = cache[3]
        if index is None:
            index = {a: a for a in legal}
            self._legal_cache = (cache[0], seat, legal, index, cache[4])
        return legal, index

    def parse_action(self, action: Action | str) -> Action:
        """An action from its text; an action object is checked to be one of this game's."""
        if isinstance(action, str):
            return self.game.parse_action(action)
        known: set[type] = self.game.__dict__.setdefault("_action_types", set())
        if type(action) in known:
            return action
        text = getattr(action, "text", None)
        if not isinstance(text, str):
            raise NotationError(
                repr(action), f"an action is text or a {self.game.title} action, not {type(action).__name__}"
            )
        if type(action) is not type(self.game.parse_action(text)):
            raise NotationError(text, f"a {type(action).__name__} is not a {self.game.title} action")
        known.add(type(action))
        return action

    def verify(self, seat: int, action: Action | str) -> Action:
        """Return the legal action meant, or raise a specific error; never mutates."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            why = f"there is no seat {seat!r} (seats are 0..{self.num_players - 1})"
            raise NotYourTurnError(action, None, Refusal("no_such_seat", why, {"players": self.num_players}))
        if self.is_over():
            raise GameOverError(action, seat, "the game is over")
        act = self.parse_action(action)
        movers = self._movers()[1]
        if seat not in movers:
            if seat in self.pending:
                raise NotYourTurnError(
                    act.text, seat, Refusal("already_committed", "this seat has already committed its choice")
                )
            waiting = ", ".join(str(s) for s in movers)
            why = f"it is not this seat's decision (waiting for seat {waiting})"
            raise NotYourTurnError(act.text, seat, Refusal("not_your_turn", why, {"waiting": list(movers)}))
        found: Action | None = self._legal_for(seat)[1].get(act)
        if found is None:
            raise IllegalActionError(act.text, seat, self.explain_illegal(seat, act))
        return found

    def can_apply(self, seat: int, action: Action | str) -> bool:
        try:
            self.verify(seat, action)
        except (IllegalActionError, NotationError):
            return False
        return True

    def apply(self, seat: int, action: Action | str) -> None:
        """Apply ``seat``'s action. Raises (leaving the state unchanged) if it is
        malformed (NotationError), out of turn (NotYourTurnError), after the end
        (GameOverError) or otherwise illegal (IllegalActionError).

        An action object that :meth:`legal_actions` just returned for ``seat``
        (no action applied since) is trusted without a second validation; if
        ``seat`` is the only actor (:meth:`_single_mover` says so cheaply), it goes
        straight to the game's :meth:`_apply_one` (the fast path of playouts)."""
        cache = self._legal_cache
        if cache[4] and cache[0] == self.version and cache[1] == seat:
            for a in cache[2]:  # by identity: no game's __eq__ is called ("in" would call a Python __eq__)
                if a is action:  # the fast path: an action just listed for the one seat to decide
                    self.history.append((seat, a.text))
                    self.version += 1
                    if self.id_prefixes:
                        self.id_prefixes.pop(seat, None)
                    solo = self._apply_one(seat, a)
                    if solo >= 0:
                        one = _ONE[solo]
                        self._move_cache = (self.version, one, one, True)
                    else:
                        self._move_cache = _NO_MOVES
                    self._legal_cache = _NO_LEGAL
                    if self._infolog is not None:
                        self._log_observations()
                    return
        # the general path: an action to check, or one of a simultaneous choice
        listed: Action | None = None
        if cache[0] == self.version and cache[1] == seat:
            for a in cache[2]:
                if a is action:
                    listed = a
                    break
        act = listed if listed is not None else self.verify(seat, action)
        actors = self._movers()[0]
        self.history.append((seat, act.text))
        self.version += 1
        if self.id_prefixes:
            self.id_prefixes.pop(seat, None)
        solo = -1
        if len(actors) <= 1:
            solo = self._apply_one(seat, act)
        else:
            self.pending[seat] = act
            if len(self.pending) == len(actors):
                committed, self.pending = self.pending, {}
                self._resolve(committed)
            else:
                self._committed(seat, act)
        # who decides next, if the game said (``solo``, from _apply_one); no other cache of before
        # holds (the game may have looked at its decisions while resolving)
        if solo >= 0:
            one = _ONE[solo]
            self._move_cache = (self.version, one, one, True)
        else:
            self._move_cache = _NO_MOVES
        self._legal_cache = _NO_LEGAL
        if self._infolog is not None:
            self._log_observations()

    # -- whole random playouts ---------------------------------------------------------
    def play_random(self, rng: Rng, limit: int = -1) -> int:
        """Play uniformly random legal actions from here, drawn from ``rng``, to the end of the game
        or until ``limit`` actions were played (negative: no limit); answers how many were played.

        The same game, and ``rng`` left in the same state, as the loop ``seat = to_move()[0]``,
        ``legal = legal_actions(seat)``, ``apply(seat, legal[rng.below(len(legal))])`` while the
        game is not over, but in one call: compiled with the engine (setup.py), the whole loop runs
        in C. Random playouts are the inner loop of search and of conformance checks. A game may
        answer through its own :meth:`_play_random` (which must play that same game).

        Python's cyclic garbage collector is paused for the call: a playout allocates at every
        action and frees nearly all of it by reference counting, so the collector's passes, started
        by the count of allocations, found nothing to free and took 8% of a Royals playout. Any
        cycle a playout left would be collected at the next pass after it."""
        if not gc.isenabled():
            return self._play_random(rng, limit)
        gc.disable()
        try:
            return self._play_random(rng, limit)
        finally:
            gc.enable()

    def _play_random(self, rng: Rng, limit: int) -> int:
        """:meth:`play_random`'s loop: straight from the game's ``_legal`` to its ``_apply_one``
        while one seat decides (``_apply_one`` names the next such seat), and to the commitments of
        a simultaneous choice otherwise, with the bookkeeping of :meth:`apply` (which checks nothing
        more for an action just listed)."""
        played = 0
        if self._infolog is not None:  # the observation logs grow at every action: the public path
            while played != limit and not self.is_over():
                seat = self.to_move()[0]
                legal = self._legal_list(seat)
                self.apply(seat, legal[rng.below(len(legal))])
                played += 1
            return played
        solo = -1  # the seat that alone decides now, when _apply_one said so
        actors = 1
        together: tuple[int, ...] = ()  # the seats of a simultaneous choice under way
        while played != limit:
            seat = solo
            if together:  # the first of them still to decide, as to_move() answers
                pending = self.pending
                for s in together:
                    if s not in pending:
                        seat = s
                        break
            elif seat < 0:
                if self.is_over():
                    break
                entry = self._move_entry()
                seat = entry[2][0]
                actors = len(entry[1])
                if actors > 1:
                    together = entry[1]
            action = self._random_action(seat, rng)
            self.history.append((seat, action.text))
            self.version += 1
            if self.id_prefixes:
                self.id_prefixes.pop(seat, None)
            if actors == 1:
                solo = self._apply_one(seat, action)
            else:  # one of several seats deciding at once: it commits, the last one resolves them all
                solo = -1
                pending = self.pending
                pending[seat] = action
                if len(pending) == actors:
                    self.pending = {}
                    together = ()
                    self._resolve(pending)
                else:
                    self._committed(seat, action)
            if solo < 0:  # no cache of this version holds (the game may have looked while resolving)
                self._move_cache = _NO_MOVES
            played += 1
        if played:  # as apply leaves them
            if solo >= 0:
                one = _ONE[solo]
                self._move_cache = (self.version, one, one, True)
            self._legal_cache = _NO_LEGAL
        return played

    def _random_action(self, seat: int, rng: Rng) -> Action:
        """:meth:`_play_random`'s choice for ``seat``: ``_legal(seat)[rng.below(len(legal))]``. A game
        may answer without listing every legal action (the same action, from the same draws)."""
        legal = self._legal(seat)
        return legal[rng.below(len(legal))]

    # -- the event log ------------------------------------------------------------------
    @property
    def events(self) -> EventLog:
        """The engine's sentences of what happened (courtcards.core.events); immutable."""
        log = self._log
        if type(log) is not EventLog:
            log = self._log = _node(EventLog, log)
        return cast(EventLog, log)

    @events.setter
    def events(self, log: EventLog) -> None:
        self._log = log

    def events_since(self, n: int) -> list[tuple[str, Mapping[str, Any]]]:
        """The kind and data of the events after the ``n``-th (``len(state.events)`` counts them), as a
        spectator reads them: cheap, no sentence is made (courtcards.core.events.since)."""
        return since(self._log, n)

    @property
    def event_count(self) -> int:
        """How many events have been logged (``len(state.events)``, without wrapping the log)."""
        return int(self._log[1])

    def log_event(
        self,
        seat: int | None,
        kind: str,
        template: str | None,
        data: dict[str, Any] | Steps,
        secret: Mapping[int, tuple[str, Mapping[str, Any]]] | None = None,
    ) -> None:
        """Record an event as data (courtcards.core.events): its ``kind`` (declared in the game's
        events module), ``data`` (seats as ints, cards as lists of card texts, numbers as ints) and
        ``template``, the engine's sentence with each seat a placeholder naming its data
        ("{seat} passes."); ``secret[s]``, a (template, data) seat ``s`` sees instead. An event made
        of several steps may give its parts as ``data`` and None as ``template``, each part a
        ``(word, *values)`` (courtcards.core.events.Step): they are worded and joined
        (courtcards.core.events.join_steps) only when the event is read, which a playout never does."""
        log = self._log
        depth: int = log[5]
        # a plain tuple node (EventLog's fields): this runs at nearly every action of every playout
        self._log = (
            (log, log[1] + 1, seat, template, secret, depth + 1, kind, data)
            if depth < MAX_DEPTH
            else self.events.record(seat, kind, template, data, secret)
        )

    def log_view(self, seat: int | None) -> list[JSON]:
        """The ``log`` of ``seat``'s view: the last events as that seat sees them (none if
        ``log_in_views`` is off)."""
        return self.events.last(LOG_LIMIT, seat) if self.log_in_views else []

    # -- action ids -------------------------------------------------------------------
    def action_codec(self) -> ActionCodec:
        """The numbering of this game configuration's actions."""
        codec = self._codec
        if codec is None:
            codec = self._codec = self.game.action_codec(self.num_players, self.options)
        return codec

    def action_ids(self, action: Action | str) -> tuple[int, ...]:
        """The id sequence of an action (one id for most; a composite choice such as
        'discard these cards' is several small steps, see :mod:`courtcards.core.ids`)."""
        return self.action_codec().encode(self.parse_action(action))

    def action_id(self, action: Action | str) -> int:
        """The id of a one-step action."""
        ids = self.action_ids(action)
        if len(ids) != 1:
            text = action if isinstance(action, str) else action.text
            raise ActionIdError(
                text,
                None,
                f"this action is a sequence of {len(ids)} ids {list(ids)}; use action_ids() and apply_id() for each",
            )
        return ids[0]

    def id_prefix(self, seat: int) -> tuple[int, ...]:
        """The ids ``seat`` has chosen so far in a composite decision."""
        return self.id_prefixes.get(seat, ())

    def _id_steps(self, seat: int) -> dict[int, Action | None]:
        """For a seat that decides now: each legal next id, with the engine action
        it completes (None if it only extends the seat's partial choice)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise ActionIdError(None, None, f"there is no seat {seat!r} (seats are 0..{self.num_players - 1})")
        if seat not in self._movers()[1]:
            why = "the game is over" if self.is_over() else "this seat has no decision now"
            raise NotYourTurnError(None, seat, f"no legal action ids: {why}")
        prefix = self.id_prefixes.get(seat, ())
        cache = self._ids_cache
        if cache is not None and cache[0] == self.version and cache[1] == seat and cache[2] == prefix:
            return cache[3]
        codec = self.action_codec()
        known, encode = codec._encoded.get, codec.encode
        depth = len(prefix)
        steps: dict[int, Action | None] = {}
        if not depth:
            for action in self._legal_list(seat):
                ids = known(action) or encode(action)
                steps[ids[0]] = action if len(ids) == 1 else None
        else:
            for action in self._legal_list(seat):
                ids = known(action) or encode(action)
                if ids[:depth] == prefix:
                    steps[ids[depth]] = action if len(ids) == depth + 1 else None
        self._ids_cache = (self.version, seat, prefix, steps)
        return self._ids_cache[3]

    def legal_action_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may choose now, ascending (raises if it has no decision)."""
        return sorted(self._id_steps(seat))

    def legal_action_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """A bool array of ``num_distinct_actions``, True at the legal ids."""
        mask = bytearray(self.action_codec().size)
        for i in self._id_steps(seat):
            mask[i] = 1
        return np.frombuffer(mask, dtype=np.bool_)

    def _check_id(self, seat: int, action_id: object) -> tuple[int, Action | None]:  # object: checked here
        """The id as an int and the engine action it completes (None: one step of several)."""
        steps = self._id_steps(seat)
        if not isinstance(action_id, (int, np.integer)) or isinstance(action_id, bool):
            raise ActionIdError(action_id, seat, f"an action id is an integer, not {type(action_id).__name__}")
        size = self.action_codec().size
        if not 0 <= action_id < size:
            raise ActionIdError(action_id, seat, f"out of range (ids are 0..{size - 1})")
        i = int(action_id)
        if i not in steps:
            what = self.action_codec().describe(i)
            raise ActionIdError(i, seat, f"{what!r} is not legal now (legal ids: {list(steps)})")
        return i, steps[i]

    def action_from_id(self, seat: int, action_id: object) -> Action | None:
        """The engine action that ``action_id`` completes for ``seat`` now, or None
        when the id is one step of a composite choice. Raises if it is not legal."""
        return self._check_id(seat, action_id)[1]

    def apply_id(self, seat: int, action_id: object) -> Action | None:
        """Choose ``action_id`` for ``seat``: applies the engine action it completes
        (and returns it), or records the step of a composite choice (returns None)."""
        i, action = self._check_id(seat, action_id)
        if action is None:
            self.id_prefixes[seat] = (*self.id_prefixes.get(seat, ()), i)
            return None
        self.apply(seat, action)
        return action

    # -- observations, returns -----------------------------------------------------------
    def _observer(self, seat: int, log: bool = True) -> JSON:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise ValueError(f"there is no seat {seat!r} (seats are 0..{self.num_players - 1})")
        return self.view(seat) if log else self.view_without_log(seat)

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's view (and partial id choice) as a float32 array of
        ``game.observation_shape(num_players, options)``."""
        return self.game.state_observation_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        """The seat's view (and partial id choice) in words (OpenSpiel's meaning)."""
        return self.game.observation_string(self._observer(seat), self.id_prefix(seat))

    def information_state_string(self, seat: int) -> str:
        """Perfect recall: every observation string ``seat`` has had since the start,
        one line per step. The first call replays the record; the state (and its
        copies) then extends the log as actions are applied."""
        self._observer(seat)
        if self._infolog is None:
            self._infolog = self._replay_observations()
        return "\n".join(self._infolog[seat])

    def _replay_observations(self) -> list[list[str]]:
        from courtcards.core.record import GameRecord

        record = GameRecord.from_state(self)
        state = record.initial_state()
        logs = [[state.observation_string(s)] for s in range(self.num_players)]
        for seat, text in self.history[len(state.history) :]:
            state.apply(seat, text)
            for s in range(self.num_players):
                logs[s].append(state.observation_string(s))
        return logs

    def _log_observations(self) -> None:
        assert self._infolog is not None
        for s, log in enumerate(self._infolog):
            log.append(self.observation_string(s))

    def returns(self) -> list[float]:
        """One number per seat: 0 until the end; then +1 for the winner and
        -1/(n-1) for every other seat (zero-sum), all 0 for a draw. Games with
        other payoffs override this and document it in docs/engine/."""
        n = self.num_players
        result = self.result() if self.is_over() else None
        if result is None or result.winner is None:
            return [0.0] * n
        return [1.0 if s == result.winner else -1.0 / (n - 1) for s in range(n)]

    def rewards(self) -> list[float]:
        """The reward of the last step per seat: the returns come all at the end."""
        return self.returns() if self.is_over() else [0.0] * self.num_players

    # -- serialization --------------------------------------------------------------
    def to_json(self) -> JSON:
        """The full state (hidden information included), JSON-ready."""
        data: JSON = {
            "format": STATE_FORMAT,
            "format_version": STATE_FORMAT_VERSION,
            "game": self.game.name,
            "num_players": self.num_players,
            "options": dict(self.options),
            "seed": self.seed,
            "version": self.version,
            "history": [[s, t] for s, t in self.history],
            "pending": {str(s): a.text for s, a in sorted(self.pending.items())},
            "start": self.start,
        }
        if self.events.n:
            data["events"] = self.events.to_json()
        if self.id_prefixes:
            data["id_prefixes"] = {str(s): list(p) for s, p in sorted(self.id_prefixes.items())}
        data.update(self._to_json())
        return data

    def copy(self) -> Self:
        """A fully independent copy (no JSON): the core copies its own fields and
        :meth:`_copy_into` the game's. Every field is set by name (no ``__dict__``),
        so the same code runs compiled (docs/engine/README.md, "Compiled engine")."""
        new = self._shell()
        new.game = self.game
        new.num_players = self.num_players
        new.options = dict(self.options)
        new.seed = self.seed
        new.history = list(self.history)
        new.pending = dict(self.pending)
        new.version = self.version
        new.start = self.start
        new.rng = self.rng.copy()
        new.id_prefixes = dict(self.id_prefixes)
        new._legal_cache = self._legal_cache
        new._move_cache = self._move_cache
        new._ids_cache = self._ids_cache
        new._infolog = None if self._infolog is None else [list(log) for log in self._infolog]
        new._codec = self._codec
        new.log_in_views = self.log_in_views
        new._log = self.events  # immutable: shared
        self._copy_into(new)
        return new

    @abstractmethod
    def _shell(self) -> Self:
        """An empty state of this one's class for :meth:`copy` to fill (its constructor
        called with ``shell=True``, which sets nothing)."""

    @abstractmethod
    def _copy_into(self, new: State) -> None:
        """Give ``new`` (which has the core's fields) every field of the game, a copy
        of each mutable one."""

    def record(self) -> GameRecord:
        """The game record so far (replays to this state from its start)."""
        from courtcards.core.record import GameRecord

        return GameRecord.from_state(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} players={self.num_players} v{self.version}>"

    def pending_view(self, seat: int | None) -> JSON:
        """The public part of a simultaneous decision: who has committed, and
        (to its owner only) the seat's own choice."""
        out: JSON = {"committed": sorted(self.pending)}
        if seat is not None and seat in self.pending:
            out["mine"] = self.pending[seat].text
        return out
