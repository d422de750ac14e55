"""Bot-versus-bot simulation for any registered game.

Game ``i`` of a run seats the bot kinds shifted by ``i`` (seat ``s`` gets
``bots[(s - i) % n]``), so over ``n`` consecutive games every kind sits in
every seat once. Game and bot seeds are derived from the run's seed and the
game number, so a run's statistics depend only on its arguments, not on the
number of worker processes. Bots get only views and legal actions (``bot_move``).
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from courtcards.bots.base import Bot, bot_move, check_bot, check_bot_table, make_bot
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State

J = TypeVar("J")
R = TypeVar("R")

MAX_ACTIONS = 1_000_000  # a game longer than this is a bug, not a long game


@dataclass(frozen=True)
class GameOutcome:
    """One finished game: the kind in each seat, the ranking, the winner and the length."""

    kinds: tuple[str, ...]
    ranking: tuple[int, ...]
    winner: int | None
    actions: int
    index: int = -1  # the game's number in its run
    scores: tuple[int, ...] = ()  # per seat, as the game's result has them
    game_seed: int = 0  # the deal's seed (derived from the run's seed and ``index``)

    def places(self) -> list[int]:
        """Each seat's finishing place, 1 = best (a seat left out of the ranking: last)."""
        place = {seat: i + 1 for i, seat in enumerate(self.ranking)}
        return [place.get(s, len(self.kinds)) for s in range(len(self.kinds))]


@dataclass
class KindStats:
    """Totals for one bot kind over a run (a kind may hold several seats per game)."""

    kind: str
    seats: int = 0  # seat-games played
    games: int = 0  # games with at least one seat of this kind
    wins: int = 0  # games won by a seat of this kind
    position_sum: int = 0  # finishing positions (1 = best), summed over seat-games
    length_sum: int = 0  # actions, summed over the games counted in ``games``

    @property
    def win_share(self) -> float:
        """Share of the games this kind took part in that it won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_per_seat(self) -> float:
        """Wins per seat-game: compare with 1 / players for an even match."""
        return self.wins / self.seats if self.seats else 0.0

    @property
    def avg_position(self) -> float:
        return self.position_sum / self.seats if self.seats else 0.0

    @property
    def avg_length(self) -> float:
        return self.length_sum / self.games if self.games else 0.0


@dataclass
class SimResult:
    game: str
    num_players: int
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    games: int = 0
    draws: int = 0
    total_actions: int = 0
    stats: dict[str, KindStats] = field(default_factory=dict)
    outcomes: list[GameOutcome] = field(default_factory=list)  # every game, in order (``rows``)
    preset: str | None = None

    def add(self, out: GameOutcome) -> None:
        self.outcomes.append(out)
        self.games += 1
        self.total_actions += out.actions
        if out.winner is None:
            self.draws += 1
        position = {seat: i + 1 for i, seat in enumerate(out.ranking)}
        for kind in dict.fromkeys(out.kinds):
            st = self.stats.setdefault(kind, KindStats(kind))
            st.games += 1
            st.length_sum += out.actions
            if out.winner is not None and out.kinds[out.winner] == kind:
                st.wins += 1
        for seat, kind in enumerate(out.kinds):
            st = self.stats[kind]
            st.seats += 1
            st.position_sum += position.get(seat, len(out.kinds))

    @property
    def avg_length(self) -> float:
        return self.total_actions / self.games if self.games else 0.0

    def rows(self) -> list[dict[str, Any]]:
        """One row per game, with the field names ``analyze`` uses (docs/schemas/analysis/simulate-rows.json)."""
        return [
            {
                "game": self.game,
                "players": self.num_players,
                "seed": self.seed,
                "index": out.index,
                "game_seed": out.game_seed,
                "preset": self.preset,
                "options": dict(self.options),
                "bots": list(out.kinds),
                "winner": out.winner,
                "places": out.places(),
                "scores": list(out.scores),
                "actions": out.actions,
            }
            for out in self.outcomes
        ]


def derive_seed(seed: int, *parts: int) -> int:
    """A 64-bit seed mixed from ``seed`` and ``parts`` (SplitMix64 steps)."""
    rng = Rng(seed)
    value = rng.next64()
    for p in parts:
        rng = Rng(value ^ (p & ((1 << 64) - 1)))
        value = rng.next64()
    return value


def seat_kinds(bots: Sequence[str], game_index: int) -> tuple[str, ...]:
    n = len(bots)
    return tuple(bots[(s - game_index) % n] for s in range(n))


def new_deal(
    game: str,
    num_players: int,
    game_index: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
) -> State:
    """The deal of game number ``game_index`` of a run."""
    state: State = get_game(game).new_game(num_players, options, derive_seed(seed, game_index, 0), preset)
    return state


def seat_bots(game: str, kinds: Sequence[str], game_index: int, seed: int, rotation: int = 0) -> list[Bot]:
    """The bots of game number ``game_index`` of a run, one per seat (``kinds``: specs, as seated), each
    made from its spec by ``make_bot`` as the CLI and the server make them, with its own derived seed
    (``rotation``: the same deal replayed with the bots shifted, seeded apart)."""
    extra = (rotation,) if rotation else ()
    return [make_bot(game, kind, derive_seed(seed, game_index, 1 + s, *extra)) for s, kind in enumerate(kinds)]


def play_steps(
    game: str,
    bots: Sequence[str],
    game_index: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    rotation: int = 0,
) -> tuple[tuple[str, ...], Iterator[State]]:
    """Game number ``game_index`` of a run, played one action at a time: the kind in each seat, and
    an iterator that yields the state at the start and after each action (the same state object,
    played on: a reader must not change it).

    ``rotation`` replays the same deal with the bots shifted ``rotation`` seats further (and seeded
    apart); rotation 0 is the run's own game."""
    g = get_game(game)
    kinds = seat_kinds(bots, game_index + rotation)
    state = new_deal(g.name, len(bots), game_index, seed, options, preset)
    players = seat_bots(g.name, kinds, game_index, seed, rotation)

    def steps() -> Iterator[State]:
        yield state
        played = 0
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, bot_move(players[seat], state, seat))
            played += 1
            if played > MAX_ACTIONS:
                raise RuntimeError(f"{game} game {game_index} of seed {seed} did not end after {MAX_ACTIONS} actions")
            yield state

    return kinds, steps()


def play_game(
    game: str,
    bots: Sequence[str],
    game_index: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    rotation: int = 0,
) -> tuple[State, tuple[str, ...]]:
    """Play game number ``game_index`` of a run to the end (:func:`play_steps`): the final state and
    the kind in each seat."""
    kinds, steps = play_steps(game, bots, game_index, seed, options, preset, rotation)
    state = next(steps)  # the one state, played on by each step
    for _ in steps:
        pass
    return state, kinds


def play_one(
    game: str,
    bots: Sequence[str],
    game_index: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
) -> GameOutcome:
    """Play game number ``game_index`` of a run to the end."""
    state, kinds = play_game(game, bots, game_index, seed, options, preset)
    res = state.result()
    assert res is not None
    return GameOutcome(
        kinds,
        tuple(res.ranking),
        res.winner,
        len(state.history),
        game_index,
        tuple(res.scores),
        derive_seed(seed, game_index, 0),
    )


_Job = tuple[str, tuple[str, ...], int, int, int, dict[str, Any] | None, str | None]


def _play_chunk(args: _Job) -> list[GameOutcome]:
    game, bots, start, stop, seed, options, preset = args
    return [play_one(game, bots, i, seed, options, preset) for i in range(start, stop)]


def check_bots(game: str, bots: Sequence[str], num_players: int | None = None) -> tuple[str, tuple[str, ...]]:
    """The game's registered name and the bot kinds, checked (OptionError lists the valid kinds)."""
    g = get_game(game)
    kinds = tuple(k.strip() for k in bots)
    n = (len(kinds) if len(kinds) > 1 else g.default_players) if num_players is None else num_players
    if len(kinds) == 1:
        kinds = kinds * n
    if len(kinds) != n:
        raise OptionError(f"{len(kinds)} bots given for {n} players; give one bot kind per seat (or just one)")
    for k in kinds:
        check_bot(g.name, k)
    g.resolve_options(n)  # player count check
    return g.name, kinds


def simulate(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    workers: int = 1,
    chunk: int = 25,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``games`` games and total the results per bot kind.

    ``bots`` names one kind per seat (or one kind for every seat). ``progress``
    is called with the number of games just finished. With ``workers > 1`` the
    games are shared among processes; the result is the same as with one.
    """
    name, kinds = check_bots(game, bots, num_players)
    opts = dict(options or {})
    resolved = get_game(name).resolve_options(len(kinds), opts, preset)  # fail early on bad options
    for kind in dict.fromkeys(kinds):
        check_bot_table(name, kind, len(kinds), resolved)  # a bot that cannot play this table (nn), before any game
    if games < 0:
        raise OptionError(f"the number of games must be at least 0, not {games}")
    result = SimResult(name, len(kinds), dict(resolved), kinds, seed, preset=preset)
    jobs: list[_Job] = [
        (name, kinds, start, min(start + chunk, games), seed, opts or None, preset) for start in range(0, games, chunk)
    ]
    for outcomes in _run(jobs, workers):
        for out in outcomes:
            result.add(out)
        if progress is not None:
            progress(len(outcomes))
    return result


def _run(jobs: list[_Job], workers: int) -> Iterator[list[GameOutcome]]:
    return run_chunks(_play_chunk, jobs, workers)


def run_chunks(fn: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    """``fn(job)`` for each job, in order, on ``workers`` processes (``fn`` must be a module-level function)."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield fn(job)
        return
    # fork where there is one (workers then need no importable __main__); they only play games
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap(fn, jobs)


# -- per-game rows (simulate --json / --csv) ---------------------------------------------------------
ROW_FIELDS = ("game", "players", "seed", "index", "game_seed", "preset")


def rows_json(result: SimResult) -> str:
    """The run and one row per game as JSON (docs/schemas/analysis/simulate-rows.json)."""
    head = {
        "game": result.game,
        "players": result.num_players,
        "bots": list(result.bots),
        "seed": result.seed,
        "games": result.games,
        "preset": result.preset,
        "options": dict(result.options),
    }
    rows = ",\n".join(json.dumps(row) for row in result.rows())  # one line a game
    return json.dumps(head)[:-1] + ', "rows": [\n' + rows + "\n]}\n"


def rows_csv(result: SimResult) -> str:
    """One line per game: the run's fields, each option in a column of its name, then per seat
    ``bot_S``, ``place_S`` (1 = best) and ``score_S``."""
    n = result.num_players
    taken = {*ROW_FIELDS, "bots", "winner", "actions"}
    opts = {(f"option_{k}" if k in taken else k): v for k, v in result.options.items()}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    seats = [f"{word}_{s}" for word in ("bot", "place", "score") for s in range(n)]
    w.writerow([*ROW_FIELDS, *opts, "bots", "winner", "actions", *seats])
    for row in result.rows():
        w.writerow(
            [
                *("" if row[k] is None else row[k] for k in ROW_FIELDS),
                *(json.dumps(v) if isinstance(v, (list, tuple, dict, bool)) else v for v in opts.values()),
                ",".join(row["bots"]),
                "" if row["winner"] is None else row["winner"],
                row["actions"],
                *row["bots"],
                *row["places"],
                *(row["scores"] or [""] * n),
            ]
        )
    return out.getvalue()
