"""The state protocol every game implements.

A decision belongs to one or more seats (:meth:`State.to_move`). When several
seats decide at once (secret simultaneous choices), each commits its action
separately; the state keeps the commitments hidden until the last one arrives
and then resolves them together. Games implement the single-underscore hooks;
the public methods here check seats, legality and turn order for every game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from courtcards.core.errors import GameOverError, IllegalActionError, NotationError, NotYourTurnError

if TYPE_CHECKING:
    from courtcards.core.game import Game
    from courtcards.core.options import OptionValue
    from courtcards.core.record import GameRecord

JSON = dict[str, Any]

STATE_FORMAT = "courtcards/state"
STATE_FORMAT_VERSION = 1


class Action(Protocol):
    """An action: hashable, equal when its canonical text is equal."""

    @property
    def text(self) -> str: ...

    def __hash__(self) -> int: ...


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


class State(ABC):
    """One play of a game, mutable; copy it with :meth:`copy`."""

    game: Game
    num_players: int
    options: dict[str, OptionValue]
    seed: int
    history: list[tuple[int, str]]
    pending: dict[int, Action]
    version: int
    _legal_cache: tuple[int, int, list[Action], dict[Action, Action]] | None

    def _init_base(self, game: Game, num_players: int, options: dict[str, OptionValue], seed: int) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.history = []
        self.pending = {}
        self.version = 0
        self.start: JSON | None = None
        self._legal_cache = None

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

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as JSON-ready data; ``None`` for a spectator."""

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
        return self.game.state_from_json(data, strict=False)

    def invariants(self) -> list[str]:
        """Game-specific consistency problems (tokens adding up, ...); empty if none."""
        return []

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now (override for better reasons)."""
        return "not a legal action now"

    # -- the protocol --------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now; several for a secret simultaneous choice."""
        if self.is_over():
            return ()
        actors = self._actors()
        if self.pending:
            return tuple(s for s in actors if s not in self.pending)
        return actors

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions for ``seat`` (empty if it has no decision now)."""
        if seat not in self.to_move():
            return []
        return list(self._legal_for(seat)[0])

    def _legal_for(self, seat: int) -> tuple[list[Action], dict[Action, Action]]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self.version and cache[1] == seat:
            return cache[2], cache[3]
        legal = self._legal(seat)
        index = {a: a for a in legal}
        self._legal_cache = (self.version, seat, legal, index)
        return legal, index

    def parse_action(self, action: Action | str) -> Action:
        return self.game.parse_action(action) if isinstance(action, str) else action

    def verify(self, seat: int, action: Action | str) -> Action:
        """Return the legal action meant, or raise a specific error; never mutates."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise NotYourTurnError(action, None, f"there is no seat {seat!r} (seats are 0..{self.num_players - 1})")
        if self.is_over():
            raise GameOverError(action, seat, "the game is over")
        act = self.parse_action(action)
        if seat not in self.to_move():
            if seat in self.pending:
                raise NotYourTurnError(act.text, seat, "this seat has already committed its choice")
            movers = ", ".join(str(s) for s in self.to_move())
            raise NotYourTurnError(act.text, seat, f"it is not this seat's decision (waiting for seat {movers})")
        found = self._legal_for(seat)[1].get(act)
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
        (GameOverError) or otherwise illegal (IllegalActionError)."""
        act = self.verify(seat, action)
        actors = self._actors()
        self.history.append((seat, act.text))
        self.version += 1
        if len(actors) == 1:
            self._resolve({seat: act})
            return
        self.pending[seat] = act
        if len(self.pending) == len(actors):
            committed, self.pending = self.pending, {}
            self._resolve(committed)

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
        data.update(self._to_json())
        return data

    def copy(self) -> State:
        return self.game.state_from_json(self.to_json())

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
