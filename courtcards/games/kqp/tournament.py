"""Elimination tournaments of King Queens & Paupers (KQ-10).

Pure logic: the plan (players, seed, rounds, who goes on) fixes every table's
seating and seed; the caller supplies ``play_table``, which plays one table's
game to the end (with bots, people, ...). The tournament is a record of its
own: every table's GameRecord, and :func:`replay_tournament` checks it.

Stage by stage, the entrants are shuffled (from the seed) into as few tables of
4-9 as possible, sizes as even as possible; each table plays a game of
``rounds`` rounds with no target; the top four by total (ties by the last
round's finish) go on, or with ``advance="roles"`` the last round's King, Queen,
Pauper-1 and Pauper-2. When at most 9 remain, they play the final table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from courtcards.core.errors import OptionError, RecordError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, State

TOURNAMENT_FORMAT = "courtcards/kqp-tournament"
TOURNAMENT_FORMAT_VERSION = 1
ADVANCE = ("top4", "roles")
MAX_TABLE = 9

PlayTable = Callable[[State, list[str]], None]  # plays the game in place; names by seat


@dataclass(frozen=True)
class TournamentPlan:
    players: tuple[str, ...]
    seed: int = 0
    rounds: int = 5
    advance: str = "top4"

    def check(self) -> None:
        if len(self.players) < 4:
            raise OptionError(f"a tournament needs at least 4 players, not {len(self.players)}")
        if len(set(self.players)) != len(self.players):
            raise OptionError("tournament player names must be unique")
        if self.advance not in ADVANCE:
            raise OptionError(f"advance must be one of {', '.join(ADVANCE)}, not {self.advance!r}")
        if not 1 <= self.rounds <= 1000:
            raise OptionError(f"rounds must be 1..1000, not {self.rounds}")

    def to_json(self) -> JSON:
        return {"players": list(self.players), "seed": self.seed, "rounds": self.rounds, "advance": self.advance}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentPlan:
        return cls(tuple(str(p) for p in data["players"]), int(data["seed"]), int(data["rounds"]), str(data["advance"]))


@dataclass
class TableResult:
    stage: int
    table: int
    players: list[str]  # by seat
    record: GameRecord
    advance: list[str]  # who goes on (the final table: nobody)
    standings: list[str]  # the table's ranking, best first
    totals: dict[str, int]

    def to_json(self) -> JSON:
        return {
            "stage": self.stage,
            "table": self.table,
            "players": list(self.players),
            "advance": list(self.advance),
            "standings": list(self.standings),
            "totals": dict(self.totals),
            "record": self.record.to_json(),
        }


@dataclass
class Tournament:
    plan: TournamentPlan
    stages: list[list[TableResult]] = field(default_factory=list)

    @property
    def final(self) -> TableResult | None:
        if self.stages and len(self.stages[-1]) == 1 and not self.stages[-1][0].advance:
            return self.stages[-1][0]
        return None

    @property
    def winner(self) -> str | None:
        final = self.final
        return final.standings[0] if final else None

    def standings(self) -> list[str]:
        """Everyone, best first: the final table's order, then those out at each
        earlier stage (later stages first), each table's order interleaved by place."""
        out: list[str] = []
        for tables in reversed(self.stages):
            out_here = [[p for p in t.standings if p not in t.advance] for t in tables]
            for place in range(max((len(x) for x in out_here), default=0)):
                out += [x[place] for x in out_here if place < len(x)]
        return out

    def to_json(self) -> JSON:
        return {
            "format": TOURNAMENT_FORMAT,
            "format_version": TOURNAMENT_FORMAT_VERSION,
            "game": "kqp",
            "plan": self.plan.to_json(),
            "winner": self.winner,
            "standings": self.standings(),
            "stages": [[t.to_json() for t in tables] for tables in self.stages],
        }


def table_sizes(entrants: int) -> list[int]:
    """As few tables of at most 9 as possible, sizes differing by at most one."""
    tables = -(-entrants // MAX_TABLE)
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def stage_plan(players: int) -> list[list[int]]:
    """The table sizes of every stage (they depend only on the number of players)."""
    stages = []
    while True:
        sizes = table_sizes(players)
        stages.append(sizes)
        if len(sizes) == 1:
            return stages
        players = 4 * len(sizes)


def _mix(seed: int, *parts: int) -> int:
    value = Rng(seed).next64()
    for p in parts:
        value = Rng(value ^ p).next64()
    return value


def seat_tables(plan: TournamentPlan, stage: int, entrants: list[str]) -> list[tuple[list[str], int]]:
    """The players of each table of a stage, by seat, with the table's game seed."""
    order = list(entrants)
    Rng(_mix(plan.seed, stage)).shuffle(order)
    out, pos = [], 0
    for i, size in enumerate(table_sizes(len(order))):
        out.append((order[pos : pos + size], _mix(plan.seed, stage, i + 1)))
        pos += size
    return out


def table_options(plan: TournamentPlan) -> dict[str, Any]:
    return {"target": None, "rounds": plan.rounds}


def _table_result(
    plan: TournamentPlan, stage: int, table: int, names: list[str], state: State, final: bool
) -> TableResult:
    result = state.result()
    if result is None:
        raise RecordError(f"stage {stage} table {table}: the game did not finish")
    standings = [names[s] for s in result.ranking]
    if final:
        advance: list[str] = []
    elif plan.advance == "top4":
        advance = standings[:4]
    else:  # the last round's King, Queen, Pauper-1 and Pauper-2
        finish = result.details["finishes"][-1]
        advance = [names[s] for s in (finish[0], finish[1], finish[-2], finish[-1])]
    totals = {names[s]: int(result.scores[s]) for s in range(len(names))}
    return TableResult(stage, table, list(names), state.record(), advance, standings, totals)


def run_tournament(
    plan: TournamentPlan, play_table: PlayTable, progress: Callable[[TableResult], None] | None = None
) -> Tournament:
    """Play the whole tournament; ``progress`` is told of each finished table."""
    plan.check()
    game = get_game("kqp")
    tour = Tournament(plan)
    entrants = list(plan.players)
    stage = 1
    while True:
        tables = seat_tables(plan, stage, entrants)
        final = len(tables) == 1
        results = []
        for i, (names, seed) in enumerate(tables, 1):
            state = game.new_game(len(names), table_options(plan), seed)
            play_table(state, names)
            res = _table_result(plan, stage, i, names, state, final)
            results.append(res)
            if progress is not None:
                progress(res)
        tour.stages.append(results)
        if final:
            return tour
        entrants = [p for t in results for p in t.advance]
        stage += 1


def replay_tournament(data: Mapping[str, Any]) -> Tournament:
    """Check a saved tournament: every seating and seed follows from the plan,
    every table's record replays, and the right players went on."""
    if data.get("format") != TOURNAMENT_FORMAT:
        raise RecordError(f'not a King Queens & Paupers tournament (expected "format": "{TOURNAMENT_FORMAT}")')
    try:
        plan = TournamentPlan.from_json(data["plan"])
        stages_raw = list(data["stages"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed tournament: {exc!r}") from exc
    records = {(s + 1, t + 1): table for s, tables in enumerate(stages_raw) for t, table in enumerate(tables)}

    def replay_table(state: State, names: list[str]) -> None:
        key = (len(tour_stages) + 1, len(current) + 1)
        raw = records.get(key)
        if raw is None:
            raise RecordError(f"stage {key[0]} table {key[1]} is missing")
        if list(raw["players"]) != names:
            raise RecordError(f"stage {key[0]} table {key[1]}: seating {raw['players']} is not the plan's {names}")
        record = GameRecord.from_json(raw["record"])
        if record.seed != state.seed or record.num_players != state.num_players:
            raise RecordError(f"stage {key[0]} table {key[1]}: the record's seed or size is not the plan's")
        for seat, text in record.actions:
            state.apply(seat, text)

    tour_stages: list[list[TableResult]] = []
    current: list[TableResult] = []

    def collect(res: TableResult) -> None:
        current.append(res)
        if len(current) == len(stages_raw[len(tour_stages)]):
            tour_stages.append(list(current))
            current.clear()

    tour = run_tournament(plan, replay_table, collect)
    for s, tables in enumerate(tour.stages):
        for t, res in enumerate(tables):
            if list(stages_raw[s][t]["advance"]) != res.advance:
                raise RecordError(f"stage {s + 1} table {t + 1}: recorded advancers differ from the replay")
    if len(tour.stages) != len(stages_raw):
        raise RecordError("the tournament has more stages than the plan")
    return tour
