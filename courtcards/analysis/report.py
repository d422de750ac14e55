"""Totals of many games' facts: every figure with its 95% confidence interval.

Rates are Wilson intervals over their chances (games, seat-games, rounds...);
means are Student's t intervals over the games (or items) measured. Rates
pooled over rounds within games treat the rounds as independent, which makes
their intervals somewhat narrower than they should be (docs/analysis.md).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.table import Table

from courtcards.analysis.observe import GameFacts
from courtcards.analysis.runner import RunSpec
from courtcards.analysis.stats import mean_ci, quantile, sd, wilson

SEATS, ROLES, BOTS, LENGTH, DRAMA = (
    "Win share by seat",
    "Win share by starting role",
    "Win share by bot",
    "Game length",
    "Decisiveness and drama",
)


@dataclass(frozen=True)
class Figure:
    """One number of a report. ``kind`` is ``rate`` (a share, 0..1), ``mean`` or ``quantile``
    (no interval); ``fair`` is the even-game value of a win share."""

    section: str
    name: str
    kind: str
    value: float
    low: float | None
    high: float | None
    n: int
    fair: float | None = None
    test: str | None = None  # the test behind ``p`` (a win share: against the even share)
    p: float | None = None
    p_holm: float | None = None  # ``p`` after Holm's correction over the report's tests of its kind
    sd: float | None = None  # a mean's standard deviation (for comparisons)
    count: int | None = None  # a rate's successes (value * n, exactly)

    @property
    def key(self) -> tuple[str, str]:
        return self.section, self.name

    def text(self, with_ci: bool = True) -> str:
        def fmt(v: float) -> str:
            return f"{100 * v:.1f}%" if self.kind == "rate" else f"{v:.2f}" if self.kind == "mean" else f"{v:g}"

        if not with_ci or self.low is None or self.high is None:
            return fmt(self.value)
        return f"{fmt(self.value)} [{fmt(self.low)}, {fmt(self.high)}]"


@dataclass
class Report:
    """A run's figures and game-length distributions."""

    spec: RunSpec
    seed: int
    games: int
    options: dict[str, Any]
    figures: list[Figure] = field(default_factory=list)
    lengths: dict[str, list[int]] = field(default_factory=dict)
    draws: int = 0
    verdict: list[str] = field(default_factory=list)  # plain sentences: what the tests found
    tests: list[dict[str, Any]] = field(default_factory=list)  # each family's chi-square test
    warnings: list[str] = field(default_factory=list)
    check: Report | None = None  # the same games with a second bot mix (--check-bots)

    def rate(self, section: str, name: str, done: int, total: int, fair: float | None = None) -> None:
        p, lo, hi = wilson(done, total)
        self.figures.append(Figure(section, name, "rate", p, lo, hi, total, fair, count=done))

    def mean(self, section: str, name: str, values: Sequence[float]) -> None:
        m, lo, hi = mean_ci(values)
        self.figures.append(Figure(section, name, "mean", m, lo, hi, len(values), sd=sd(values)))

    def figure(self, section: str, name: str) -> Figure:
        return next(f for f in self.figures if f.key == (section, name))

    def to_json(self) -> dict[str, Any]:
        out = {
            "verdict": list(self.verdict),
            "warnings": list(self.warnings),
            "tests": list(self.tests),
            "game": self.spec.game,
            "sweep": dict(self.spec.sweep),
            "players": self.spec.num_players,
            "bots": list(self.spec.bots),
            "options": dict(self.options),
            "preset": self.spec.preset,
            "seed": self.seed,
            "games": self.games,
            "draws": self.draws,
            "figures": [asdict(f) for f in self.figures],
            "lengths": {
                name: {str(k): v for k, v in sorted(Counter(vals).items())} for name, vals in self.lengths.items()
            },
        }
        if self.check is not None:
            out["check"] = self.check.to_json()
        return out


ROLE_ORDER = ("king", "queen", "commoner", "knight", "pauper-1", "pauper-2", "beggar")


def _role_order(role: str) -> tuple[int, str]:
    return (ROLE_ORDER.index(role) if role in ROLE_ORDER else len(ROLE_ORDER), role)


def summarize(spec: RunSpec, seed: int, facts: Sequence[GameFacts]) -> Report:
    """Every figure of a run from its games' facts."""
    report = Report(spec, seed, len(facts), spec.resolved_options())
    n = spec.num_players
    games = len(facts)
    report.draws = sum(f.winner is None for f in facts)
    for s in range(n):
        report.rate(SEATS, f"seat {s}", sum(f.winner == s for f in facts), games, 1 / n)
    seat_games: Counter[str] = Counter()
    role_wins: Counter[str] = Counter()
    kind_games: Counter[str] = Counter()
    kind_wins: Counter[str] = Counter()
    for f in facts:
        seat_games.update(f.roles)
        kind_games.update(f.kinds)
        if f.winner is not None and f.roles:  # no roles: a game whose seats have none (the seat shares say it all)
            role_wins[f.roles[f.winner]] += 1
            kind_wins[f.kinds[f.winner]] += 1
    for role in sorted(seat_games, key=_role_order):  # per seat-game: compare with 1 / players
        report.rate(ROLES, role, role_wins[role], seat_games[role], 1 / n)
    if len(kind_games) > 1:
        for kind in sorted(kind_games):
            report.rate(BOTS, f"{kind} (per seat)", kind_wins[kind], kind_games[kind], 1 / n)
    for name in facts[0].lengths if facts else ():
        lengths = [f.lengths[name] for f in facts]
        report.lengths[name] = lengths
        report.mean(LENGTH, f"{name}: mean", lengths)
        for label, q in (("10th percentile", 0.1), ("median", 0.5), ("90th percentile", 0.9)):
            report.figures.append(
                Figure(LENGTH, f"{name}: {label}", "quantile", quantile(lengths, q), None, None, games)
            )
    report.mean(DRAMA, "lead changes per game", [f.lead_changes for f in facts])
    clear = [f.clear_at for f in facts if f.clear_at is not None]
    report.mean(DRAMA, "share of the game played when the winner leads for good", clear)
    comebacks = [f.comeback for f in facts if f.comeback is not None]
    report.rate(DRAMA, "winner was behind halfway (comeback)", sum(comebacks), len(comebacks))
    report.rate(DRAMA, "winner leads for good by halfway", sum(c <= 0.5 for c in clear), len(clear))
    events: dict[tuple[str, str], list[int]] = {}
    for f in facts:
        for key, (done, total) in f.events.items():
            acc = events.setdefault(key, [0, 0])
            acc[0] += done
            acc[1] += total
    for (section, name), (done, total) in events.items():
        report.rate(section, name, done, total)
    values: dict[tuple[str, str], list[float]] = {}
    for f in facts:
        for key, vals in f.values.items():
            values.setdefault(key, []).extend(vals)
    for (section, name), vals in values.items():
        report.mean(section, name, vals)
    order = {s: i for i, s in enumerate(dict.fromkeys(f.section for f in report.figures))}
    report.figures.sort(key=lambda f: order[f.section])  # stable: each section's figures stay in order
    from courtcards.analysis.verdict import judge  # verdict builds on this module

    judge(report)
    return report


# -- output ------------------------------------------------------------------------------------------
def title(report: Report) -> str:
    spec = report.spec
    kinds = sorted(set(spec.bots))
    swept = ", ".join(f"{k}={v}" for k, v in spec.sweep.items())
    return (
        f"{spec.game}, {spec.num_players} players, {'/'.join(kinds)} bots, {report.games} games, "
        f"seed {report.seed}" + (f" ({swept})" if swept else "")
    )


def single_table(report: Report) -> Table:
    """One row per figure under its section's heading; a length's quantiles go with its mean."""
    table = Table(title=title(report), caption=", ".join(f"{k}={v}" for k, v in report.options.items()))
    for col, justify in (
        ("figure", "left"),
        ("value", "right"),
        ("95% CI", "right"),
        ("n", "right"),
        ("even", "right"),
        ("p (Holm)", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    quantiles: dict[str, list[str]] = {}
    for f in report.figures:
        if f.kind == "quantile":
            quantiles.setdefault(f.name.split(":")[0], []).append(f.text())
    last = ""
    for f in report.figures:
        if f.kind == "quantile":
            continue
        if f.section != last:
            table.add_row(f"[bold]{f.section}[/]", end_section=False)
            last = f.section
        name = f.name
        q = quantiles.get(name.split(":")[0]) if f.section == LENGTH else None
        if q:
            name += f" (10%/50%/90%: {'/'.join(q)})"
        ci = "" if f.low is None else f"[{f.text().split('[', 1)[1]}"
        even = "" if f.fair is None else f"{100 * f.fair:.1f}%"
        p = "" if f.p is None else f"{f.p:.2g} ({f.p_holm:.2g})" if f.p_holm is not None else f"{f.p:.2g}"
        table.add_row("  " + name, f.text(False), ci, str(f.n), even, p)
    return table


def sweep_table(reports: Sequence[Report]) -> Table:
    """Figures as rows, one column per combination of the sweep."""
    table = Table(
        title=f"{reports[0].spec.game}: {len(reports)} combinations, {reports[0].games} games each, "
        f"seed {reports[0].seed} (value [95% CI])"
    )
    table.add_column("section")
    table.add_column("figure")
    from courtcards.analysis.verdict import label

    for r in reports:
        table.add_column(label(r), justify="right")
    last = ""
    for key in figure_keys(reports):
        cells = []
        for r in reports:
            f = next((f for f in r.figures if f.key == key), None)
            cells.append("" if f is None else f.text())
        table.add_row("" if key[0] == last else key[0], key[1], *cells)
        last = key[0]
    return table


def differences_table(reports: Sequence[Report]) -> Table:
    """Each figure's difference from the first combination, with its interval and test (* changed, Holm 5%)."""
    from courtcards.analysis.verdict import all_differences, label

    table = Table(
        title=f"Differences from {label(reports[0])} (difference [95% CI], p; * significant after Holm)",
        caption="rates in percentage points; means in their units",
    )
    table.add_column("section")
    table.add_column("figure")
    for r in reports[1:]:
        table.add_column(label(r), justify="right")
    diffs = all_differences(reports)
    last = ""
    for key in figure_keys(reports):
        cells = []
        for ds in diffs:
            d = next((d for d in ds if (d.section, d.name) == key), None)
            cells.append("" if d is None else d.text() + (" *" if d.changed else ""))
        if all(not c for c in cells):
            continue
        table.add_row("" if key[0] == last else key[0], key[1], *cells)
        last = key[0]
    return table


def figure_keys(reports: Sequence[Report]) -> list[tuple[str, str]]:
    """Every (section, figure) of the reports, in first-seen order."""
    return list(dict.fromkeys(f.key for r in reports for f in r.figures))


def to_json(reports: Sequence[Report]) -> str:
    from courtcards.analysis.verdict import differences_json, opening

    spec = reports[0].spec
    out: dict[str, Any] = {"game": spec.game, "verdict": opening(reports), "runs": [r.to_json() for r in reports]}
    if len(reports) > 1:
        out["differences"] = differences_json(reports)
    return json.dumps(out, indent=1)


def to_csv(reports: Sequence[Report]) -> str:
    swept = list(reports[0].spec.sweep)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "game",
            "players",
            "bots",
            "seed",
            "games",
            *swept,
            "section",
            "figure",
            "kind",
            "value",
            "low",
            "high",
            "n",
            "even",
            "test",
            "p",
            "p_holm",
        ]
    )
    for r in reports:
        head = [
            r.spec.game,
            r.spec.num_players,
            ",".join(r.spec.bots),
            r.seed,
            r.games,
            *(r.spec.sweep[k] for k in swept),
        ]
        for f in r.figures:
            w.writerow(
                [
                    *head,
                    f.section,
                    f.name,
                    f.kind,
                    repr(f.value),
                    "" if f.low is None else repr(f.low),
                    "" if f.high is None else repr(f.high),
                    f.n,
                    "" if f.fair is None else repr(f.fair),
                    f.test or "",
                    "" if f.p is None else repr(f.p),
                    "" if f.p_holm is None else repr(f.p_holm),
                ]
            )
    return out.getvalue()
