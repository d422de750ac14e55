"""A rating ladder for bots: seat-rotated tables mixing the bots, rated with
openskill's Plackett-Luce model, with pairwise win rates.

Every game is seeded from the run's seed and its index, and results are rated
in game order, so the same command gives the same ladder with any number of
worker processes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from courtcards.bots.base import check_bot_table
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game
from courtcards.sim import GameOutcome, _Job, _run

Z95 = 1.959963984540054


def lineups(bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The tables to play: with no more bots than seats, every rotation of the bot
    list cycled over the seats; with more, every choice of ``seats`` bots."""
    m = len(bots)
    if m <= seats:
        return [tuple(bots[(k + s) % m] for s in range(seats)) for k in range(m)]
    return list(itertools.combinations(bots, seats))


def wilson(wins: float, n: float) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Ladder:
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int = 0
    mu: dict[str, float] = field(default_factory=dict)
    sigma: dict[str, float] = field(default_factory=dict)
    wins: dict[tuple[str, str], int] = field(default_factory=dict)  # (a, b): seats of a placed above seats of b
    first: dict[str, int] = field(default_factory=dict)  # games won per bot
    seats_played: dict[str, int] = field(default_factory=dict)

    def interval(self, bot: str) -> tuple[float, float]:
        return self.mu[bot] - Z95 * self.sigma[bot], self.mu[bot] + Z95 * self.sigma[bot]

    def pairwise(self, a: str, b: str) -> tuple[float, float, float, int] | None:
        """Share of a's meetings with b where a finished above b, its 95% interval, meetings."""
        w, l_ = self.wins.get((a, b), 0), self.wins.get((b, a), 0)
        if not w + l_:
            return None
        lo, hi = wilson(w, w + l_)
        return w / (w + l_), lo, hi, w + l_

    def order(self) -> list[str]:
        return sorted(self.bots, key=lambda b: (-(self.mu[b] - 3 * self.sigma[b]), b))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "ratings": [
                {
                    "bot": b,
                    "mu": self.mu[b],
                    "sigma": self.sigma[b],
                    "ci95": list(self.interval(b)),
                    "wins": self.first.get(b, 0),
                    "seats": self.seats_played.get(b, 0),
                }
                for b in self.order()
            ],
            "pairwise": [
                {"bot": a, "against": b, "rate": p[0], "ci95": [p[1], p[2]], "meetings": p[3]}
                for a in self.bots
                for b in self.bots
                if a != b and (p := self.pairwise(a, b)) is not None
            ],
        }


def run_ladder(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Ladder:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise OptionError("the ladder needs openskill: pip install 'courtcards[analysis]'") from None
    g = get_game(game)
    n = g.default_players if players is None else players
    resolved = g.resolve_options(n, options)
    kinds = tuple(dict.fromkeys(b.strip() for b in bots if b.strip()))
    if len(kinds) < 2:
        raise OptionError("a ladder needs at least two different bots")
    for kind in kinds:
        check_bot_table(g.name, kind, n, resolved)  # a bot that cannot play this table (nn), before any game
    if games < 1:
        raise OptionError(f"the number of games must be at least 1, not {games}")
    tables = lineups(kinds, n)
    # game i is played by table i % len(tables); seats rotate with i inside play_one
    jobs: list[_Job] = [(g.name, tables[i % len(tables)], i, i + 1, seed, options, None) for i in range(games)]
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in kinds}
    ladder = Ladder(g.name, n, kinds, seed)
    for outcomes in _run(jobs, workers):
        for out in outcomes:
            _rate(ladder, model, ratings, out)
        if progress is not None:
            progress(len(outcomes))
    for b in kinds:
        ladder.mu[b], ladder.sigma[b] = ratings[b].mu, ratings[b].sigma
    return ladder


def _rate(ladder: Ladder, model: Any, ratings: dict[str, Any], out: GameOutcome) -> None:
    place = {seat: i for i, seat in enumerate(out.ranking)}
    seats = sorted(place, key=lambda s: place[s])
    teams = [[ratings[out.kinds[s]]] for s in seats]
    new = model.rate(teams, ranks=list(range(len(seats))))
    gathered: dict[str, list[Any]] = {}
    for s, team in zip(seats, new, strict=True):
        gathered.setdefault(out.kinds[s], []).append(team[0])
    for bot, rs in gathered.items():  # a bot with several seats: the mean of its updates
        r = ratings[bot]
        r.mu = sum(x.mu for x in rs) / len(rs)
        r.sigma = sum(x.sigma for x in rs) / len(rs)
    ladder.games += 1
    for s in place:
        kind = out.kinds[s]
        ladder.seats_played[kind] = ladder.seats_played.get(kind, 0) + 1
    if out.winner is not None:
        ladder.first[out.kinds[out.winner]] = ladder.first.get(out.kinds[out.winner], 0) + 1
    for s, t in itertools.permutations(place, 2):
        a, b = out.kinds[s], out.kinds[t]
        if a != b and place[s] < place[t]:
            ladder.wins[(a, b)] = ladder.wins.get((a, b), 0) + 1
