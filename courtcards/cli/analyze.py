"""``courtcards analyze royale``: a balance report for Rank Royale's discard table.

Plays bot-versus-bot games (seats swapped every other game) and reports the
win rate of each tier chosen, how often each tier wins a round, how games end,
their length in rounds and, with ``--plot``, a PNG histogram of that length.
The PNG is written by a small pure-Python writer (zlib + struct): no plotting
dependency for one bar chart.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from courtcards.bots.base import bot_kinds, bot_move, make_bot
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import get_game

TIERS = ("low", "middle", "high")


@dataclass
class RoyaleReport:
    discards: str
    bots: tuple[str, str]
    games: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    kind_wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    lengths: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=lambda: [0, 0, 0])  # cards played per tier
    round_wins: list[int] = field(default_factory=lambda: [0, 0, 0])  # rounds won by a card of the tier
    tier_wins: list[int] = field(default_factory=lambda: [0, 0, 0])  # ... of which on tier
    ties: list[int] = field(default_factory=lambda: [0, 0, 0])
    finishers: list[int] = field(default_factory=lambda: [0, 0, 0])  # games ended by a tier win of this tier

    def add(self, log: list[dict[str, Any]], winner: int | None, kinds: tuple[str, str]) -> None:
        self.games += 1
        self.lengths.append(len(log))
        if winner is None:
            self.draws += 1
        else:
            self.seat_wins[winner] += 1
            self.kind_wins[kinds[winner]] = self.kind_wins.get(kinds[winner], 0) + 1
        for entry in log:
            tiers = [TIERS.index(t) for t in entry["tiers"]]
            for t in tiers:
                self.played[t] += 1
            if entry["outcome"] == "tie":
                self.ties[tiers[0]] += 2
                continue
            t = tiers[entry["winner"]]
            self.round_wins[t] += 1
            if entry["outcome"] == "tier":
                self.tier_wins[t] += 1
                if entry.get("lost"):
                    self.finishers[t] += 1

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0

    def percentile(self, q: float) -> int:
        s = sorted(self.lengths)
        return s[min(len(s) - 1, int(q * len(s)))] if s else 0


def run_royale(discards: str, games: int, bots: tuple[str, str], seed: int = 0,
               max_rounds: int | None = 1000, progress: Any = None) -> RoyaleReport:
    """Play ``games`` games; game ``i`` seats the bots swapped when ``i`` is odd."""
    game = get_game("royale")
    options: dict[str, Any] = {"discards": discards, "max_rounds": max_rounds}
    game.resolve_options(2, options)
    for kind in bots:
        if kind not in bot_kinds("royale"):
            raise CourtcardsError(f"unknown bot {kind!r}; valid bots: {', '.join(bot_kinds('royale'))}")
    report = RoyaleReport(discards=str(game.resolve_options(2, options)["discards"]), bots=bots)
    for i in range(games):
        kinds = bots if i % 2 == 0 else (bots[1], bots[0])
        state = game.new_game(2, options, seed=seed * 1_000_003 + i)
        players = [make_bot("royale", k, seed=(seed * 1_000_003 + i) * 2 + s) for s, k in enumerate(kinds)]
        while not state.is_over():
            for s in state.to_move():
                state.apply(s, bot_move(players[s], state, s))
        res = state.result()
        report.add(state.view(None)["log"], None if res is None else res.winner, kinds)
        if progress is not None:
            progress(1)
    return report


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def render_report(console: Console, r: RoyaleReport) -> None:
    console.print(f"[bold]Rank Royale[/], discards {r.discards} (low,middle,high), bots {r.bots[0]} v {r.bots[1]}, "
                  f"{r.games} games, seats swapped every other game")
    t = Table(title="By tier chosen (each card played)")
    for col in ("tier", "played", "round won", "of which on tier", "tied", "round lost", "games ended"):
        t.add_column(col, justify="right")
    total_played = sum(r.played)
    for i, name in enumerate(TIERS):
        lost = r.played[i] - r.round_wins[i] - r.ties[i]
        t.add_row(name, _pct(r.played[i], total_played), _pct(r.round_wins[i], r.played[i]),
                  _pct(r.tier_wins[i], r.played[i]), _pct(r.ties[i], r.played[i]), _pct(lost, r.played[i]),
                  _pct(r.finishers[i], r.games))
    console.print(t)
    decisive = sum(r.round_wins)
    console.print("Rounds won, share by tier: " + ", ".join(
        f"{name} {_pct(r.round_wins[i], decisive)}" for i, name in enumerate(TIERS)))
    console.print(f"Game length in rounds: mean {r.mean_length:.2f}, median {r.percentile(0.5)}, "
                  f"90th percentile {r.percentile(0.9)}, max {max(r.lengths, default=0)}")
    console.print(f"Seat 0 won {_pct(r.seat_wins[0], r.games)}, seat 1 {_pct(r.seat_wins[1], r.games)}, "
                  f"draws (round limit) {_pct(r.draws, r.games)}")
    if r.bots[0] != r.bots[1]:
        console.print(", ".join(f"{k} won {_pct(r.kind_wins.get(k, 0), r.games)}" for k in r.bots))


# -- a tiny PNG histogram -------------------------------------------------------------
_DIGITS = ["111101101101111", "010110010010111", "111001111100111", "111001111001111", "101101111001001",
           "111100111001111", "111100111101111", "111001001001001", "111101111101111", "111101111001111"]


def histogram_png(path: Path, lengths: list[int], width: int = 640, height: int = 360) -> None:
    """Bars of game counts by length in rounds, x ticks every 5 rounds (labelled every 10)."""
    if not lengths:
        raise CourtcardsError("no games to plot")
    top = max(lengths)
    counts = [0] * (top + 1)
    for n in lengths:
        counts[n] += 1
    img = [[(255, 255, 255)] * width for _ in range(height)]
    left, bottom, right, upper = 40, height - 30, width - 10, 10
    bar = max(1, (right - left) // (top + 1))
    peak = max(counts)

    def put(x: int, y: int, c: tuple[int, int, int]) -> None:
        if 0 <= x < width and 0 <= y < height:
            img[y][x] = c

    def text(x: int, y: int, s: str) -> None:
        for k, ch in enumerate(s):
            glyph = _DIGITS[int(ch)]
            for i, bit in enumerate(glyph):
                if bit == "1":
                    for dx in range(2):
                        for dy in range(2):
                            put(x + k * 8 + (i % 3) * 2 + dx, y + (i // 3) * 2 + dy, (0, 0, 0))

    for n, c in enumerate(counts):
        h = round((bottom - upper) * c / peak)
        for x in range(left + n * bar, left + (n + 1) * bar - (1 if bar > 2 else 0)):
            for y in range(bottom - h, bottom):
                put(x, y, (70, 110, 190))
    for x in range(left, right):
        put(x, bottom, (0, 0, 0))
    for y in range(upper, bottom):
        put(left - 1, y, (0, 0, 0))
    for n in range(0, top + 1, 5):
        x = left + n * bar + bar // 2
        for y in range(bottom, bottom + (6 if n % 10 == 0 else 3)):
            put(x, y, (0, 0, 0))
        if n % 10 == 0:
            text(x - 4 * len(str(n)), bottom + 9, str(n))
    text(4, upper, str(peak))
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in img)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.write_bytes(png)


# -- the command ------------------------------------------------------------------------
analyze_app = typer.Typer(help="Balance reports for a game's variants.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(analyze_app, name="analyze")


@analyze_app.command("royale")
def analyze_royale(
    discards: Annotated[str, typer.Option("--discards", "-d", help="Discard table low,middle,high (RR-2).")] = "4,3,2",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of games.")] = 20000,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Two bot kinds, comma-separated.")] = "mixed,mixed",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a PNG histogram of game lengths here.")] = None,
) -> None:
    """Rank Royale balance report: win rate by tier chosen, tier wins, game length."""
    console = Console()
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    if len(kinds) == 1:
        kinds *= 2
    try:
        if len(kinds) != 2:
            raise CourtcardsError(f"--bots needs two bot kinds like mixed,greedy, not {bots!r}")
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as bar:
            task = bar.add_task(f"royale {discards}", total=games)
            report = run_royale(discards, games, (kinds[0], kinds[1]), seed=seed,
                                progress=lambda k: bar.advance(task, k))
        render_report(console, report)
        if plot is not None:
            histogram_png(plot, report.lengths)
            console.print(f"Game-length histogram written to {plot}")
    except CourtcardsError as exc:
        console.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
