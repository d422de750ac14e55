"""What one finished game shows a spectator, as numbers to total over many games.

Everything here is read from the game's record, replayed, and what a spectator
sees: the spectator view (``state.view(None)``) after each action, or the events
each action caused as a spectator reads them (:func:`listen`, far cheaper): no
private information and no reach into a rules engine's internals. :func:`observe` asks the game for its
observer (``game.profile("observer")``, the ``observe`` function of
``courtcards/games/<game>/analysis.py`` for the built-in games, which use the
helpers here); a game that declares none is read by :func:`observe_generic`
from the shared view vocabulary alone (courtcards.core.views).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from courtcards.core.game import Game, get_game
from courtcards.core.record import GameRecord
from courtcards.core.state import State

JSON = dict[str, Any]
Observer = Callable[[GameRecord, tuple[str, ...]], "GameFacts"]

END = "How games end"
ROLE_WORDS = ("role", "character")  # a players entry's field naming the seat's role, where a view has one


@dataclass
class GameFacts:
    """One game, as a spectator saw it.

    ``events`` maps a name to (times it happened, chances it had) in this game;
    ``values`` to numbers averaged over all games (several per game allowed).
    ``clear_at`` is the share of the game (in the game's scoring units: hands,
    rounds, turns) played when the winner took the lead for good; ``comeback``
    says the winner was not leading halfway through (None: too short to say).
    ``roles`` names each seat's role at the start (empty: the game's seats have none).
    """

    winner: int | None
    kinds: tuple[str, ...]
    roles: tuple[str, ...]
    lengths: dict[str, int]
    lead_changes: int = 0
    clear_at: float | None = None
    comeback: bool | None = None
    events: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    values: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def count(self, section: str, name: str, happened: bool | int, chances: int = 1) -> None:
        done, total = self.events.get((section, name), (0, 0))
        self.events[section, name] = (done + int(happened), total + chances)

    def value(self, section: str, name: str, v: float) -> None:
        self.values.setdefault((section, name), []).append(float(v))


Seen = tuple[int, str, JSON]  # (seat, action, the spectator view after it); (-1, "", view) at the start
Heard = tuple[int, str, list[tuple[str, Mapping[str, Any]]]]  # (seat, action, the events it caused: (kind, data))


@dataclass
class LiveRecord(GameRecord):
    """The record of a game being played: ``actions`` grows as an observer reads it
    (:func:`replay_views`, :func:`listen`), each action played when the observer asks for
    what it caused, so a game is read while it is played, without replaying it or keeping
    its views (:func:`observe_live`)."""

    steps: Iterator[State] | None = None  # the game (one state) at its start, then after each action
    state: State | None = None  # the game being played

    def replay(self) -> State:
        """The finished game (played out first, if the observer has not read it to the end)."""
        for _ in self.steps or ():
            pass
        return self.state.copy() if self.state is not None else super().replay()


def spectator_view(state: State) -> JSON:
    """The spectator view without the log, which no observer reads and which is most of a view's cost."""
    state.log_in_views = False
    try:
        return state.view(None)
    finally:
        state.log_in_views = True


def observe_live(kinds: tuple[str, ...], steps: Iterator[State]) -> tuple[State, GameFacts]:
    """Observe a game while it is played (``steps``: :func:`courtcards.sim.play_steps`): the final
    state and the facts, the same as :func:`observe` of its record gives."""
    state = next(steps)
    if state.history:
        raise ValueError("observe_live needs the game from its start")
    record = LiveRecord(
        state.game.name,
        state.num_players,
        dict(state.options),
        state.seed,
        actions=state.history,  # the state's own list: it grows as the game is played
        start=state.start,
        steps=itertools.chain([state], steps),
        state=state,
    )
    facts = observe(record, kinds)
    for _ in steps:  # an observer that stopped reading early: the game is still played out
        pass
    return state, facts


def _states(record: GameRecord) -> Iterator[State]:
    """The game of ``record`` (one state) at its start, then after each action: played as it is
    read for a :class:`LiveRecord`, else replayed from the record."""
    if isinstance(record, LiveRecord) and record.steps is not None:
        for state in record.steps:  # not "yield from": closing this reader must not end the game
            yield state
        return
    state = record.initial_state()
    yield state
    for seat, text in record.actions:
        state.apply(seat, text)
        yield state


def replay_views(record: GameRecord) -> Iterator[Seen]:
    """The spectator view at the start (seat -1) and after each action of the record.
    The views have no log (observers read positions, not sentences)."""
    for state in _states(record):
        seat, text = state.history[-1] if state.history else (-1, "")
        yield seat, text, spectator_view(state)


class Listening:
    """A game read by its events, which cost next to nothing to read (a view after every action costs
    more than many bots' play): iterate for each action's :data:`Heard` (seat, action, the kind and data
    of the events it caused, as a spectator reads them); ``first`` is the spectator view at the start and
    ``start`` the events logged before the first action; :meth:`view` the spectator view now (after the
    action last heard), made only when asked."""

    def __init__(self, record: GameRecord) -> None:
        self._states = _states(record)
        self._state = next(self._states)
        self.first = spectator_view(self._state)
        self.start = self._state.events_since(0)

    def __iter__(self) -> Iterator[Heard]:
        state = self._state
        n = state.event_count
        for state in self._states:
            events = state.events_since(n)
            n = state.event_count
            seat, text = state.history[-1]
            yield seat, text, events

    def view(self) -> JSON:
        return spectator_view(self._state)

    def last(self) -> JSON:
        """The spectator view at the end (what is left of the game heard first)."""
        for _ in self:
            pass
        return self.view()


def listen(record: GameRecord) -> Listening:
    """Read a game by its events (:class:`Listening`), played while read for a :class:`LiveRecord`."""
    return Listening(record)


def drama(
    scores: Sequence[Sequence[float]], winner: int | None, lower_is_better: bool = False
) -> tuple[int, float | None, bool | None]:
    """Lead changes, when the winner led for good (share of checkpoints) and whether it came from behind.

    ``scores`` holds every seat's score at each checkpoint (after each hand,
    round or turn). A seat leads when it alone has the best score; the lead
    changes when a new sole leader differs from the last one. The winner "leads
    for good" from the first checkpoint after which it is never behind.
    """
    sign = -1 if lower_is_better else 1
    changes = 0
    last: int | None = None
    for row in scores:
        best = max(sign * v for v in row)
        top = [s for s, v in enumerate(row) if sign * v == best]
        if len(top) == 1:
            if last is not None and top[0] != last:
                changes += 1
            last = top[0]
    if winner is None or not scores:
        return changes, None, None
    ahead = [sign * row[winner] >= max(sign * v for v in row) for row in scores]
    k = len(ahead)
    first = k - 1
    while first > 0 and ahead[first - 1]:
        first -= 1
    clear_at = (first + 1) / k
    comeback = None if k < 2 else not ahead[math.ceil(k / 2) - 1]
    return changes, clear_at, comeback


def decided_round(entries: Sequence[Sequence[Any]], specials: Callable[[str], list[str]]) -> list[str] | None:
    """The special cards in the play that took a finished round (its last play; None if no play)."""
    plays = [str(t) for _, t in entries if t != "pass"]
    return specials(plays[-1]) if plays else None


# -- any game ------------------------------------------------------------------------------------
def _scores(view: JSON) -> list[float] | None:
    players = view.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, dict) and "score" in p for p in players):
        return None
    return [float(p["score"]) for p in players]


def observe_generic(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    """The facts any game's record and spectator views give (shared vocabulary, courtcards.core.views).

    Lengths: actions, and rounds where the view counts them (``round``, named by the game's
    ``round_word``: hands, rounds, turns). Roles: the seats' ``role`` or ``character`` in the
    first view, where its players have one (else none: the seat shares say it all). Drama:
    the players' ``score`` at each new round and at the end, higher better unless the
    result ranks the lowest first. How games end: draws.
    """
    game = get_game(record.game)
    views = replay_views(record)
    _, _, first = next(views)
    n = int(first.get("num_players", record.num_players))
    players = first.get("players")
    roles: tuple[str, ...] = ()
    for word in ROLE_WORDS:
        if (
            isinstance(players, list)
            and len(players) == n
            and all(isinstance(p, dict) and isinstance(p.get(word), str) for p in players)
        ):
            roles = tuple(str(p[word]) for p in players)
            break
    timeline: list[list[float]] = []  # the scores when each round ends (a new one begins) and at the end
    current = first.get("round")
    last, checked = first, False
    for _, _, view in views:
        checked = view.get("round") != current
        if checked:
            current = view.get("round")
            scores = _scores(view)
            if scores is not None:
                timeline.append(scores)
        last = view
    final_scores = _scores(last)
    if final_scores is not None and not checked:
        timeline.append(final_scores)
    result = last.get("result") or {}
    winner = result.get("winner")
    lengths = {"actions": len(record.actions)}
    if isinstance(last.get("round"), int):
        lengths = {f"{game.info.round_word.lower()}s": int(last["round"]), **lengths}
    facts = GameFacts(winner, kinds, roles, lengths)
    facts.count(END, "draw (no winner)", winner is None)
    ranking = result.get("ranking") or []
    lower = bool(final_scores and len(ranking) > 1 and final_scores[ranking[0]] < final_scores[ranking[-1]])
    facts.lead_changes, facts.clear_at, facts.comeback = drama(timeline, winner, lower_is_better=lower)
    return facts


def observer_of(game: Game[Any]) -> Observer:
    """The game's own observer (its ``observer`` profile), or :func:`observe_generic` if it declares none."""
    found: Observer | None = game.profile("observer")
    return found if found is not None else observe_generic


def observe(record: GameRecord, kinds: tuple[str, ...]) -> GameFacts:
    """The facts of a finished game from its record (``kinds``: the bot kind in each seat)."""
    return observer_of(get_game(record.game))(record, kinds)
