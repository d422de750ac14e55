"""Verdicts: the tests behind a report's opening sentences, and comparisons of two runs.

A report's win shares (by seat, by starting role, by bot) are each tested against
the even share with an exact binomial test, and each family with a chi-square
goodness-of-fit test; Holm's correction covers the seat and role tests together
(the bots' apart: a strength difference is not a balance question). A comparison
tests each figure's difference from a baseline run: rates with a two-proportion
z test and a Newcombe interval, means with Welch's t test, Holm's correction
over the figures compared. Everything is judged at the 5% level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from courtcards.analysis.report import BOTS, ROLES, SEATS, Figure, Report, figure_keys
from courtcards.analysis.runner import COMPARED
from courtcards.analysis.stats import (
    binomial_p,
    chi_square,
    fleiss_kappa,
    holm,
    mean_ci,
    newcombe,
    sd,
    two_proportions_p,
    welch,
    wilson,
)

ALPHA = 0.05
BALANCE = (SEATS, ROLES)  # the families whose effects are the rules' balance
WORDS = {SEATS: ("seat", "seat effect"), ROLES: ("starting role", "starting-role effect"), BOTS: ("bot", "")}
BINOMIAL = "exact binomial against the even share"
CHI_SQUARE = "chi-square goodness of fit against even shares"


def fmt_p(p: float) -> str:
    """``= 0.21``, ``= 2.6e-08``, or ``< 1e-16`` (below what the arithmetic resolves)."""
    return "< 1e-16" if p < 1e-16 else f"= {p:.2g}" if p >= 0.001 else f"= {p:.1e}"


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def _points(v: float) -> str:
    return f"{100 * v:+.1f}"


def even_share(report: Report, f: Figure) -> float:
    """A win share's expected value in a balanced game: the even share of the games that had a winner."""
    decided = (report.games - report.draws) / report.games if report.games else 0.0
    return (f.fair or 0.0) * decided


def judge(report: Report) -> None:
    """Test the report's win shares and write its verdict (``report.verdict``, ``report.tests``)."""
    tested: dict[str, list[int]] = {}
    if report.games == report.draws:  # no winner anywhere: nothing to test
        report.verdict = [f"None of the {report.games} games had a winner: no win share to test."]
        return
    for i, f in enumerate(report.figures):
        if f.section in WORDS and f.fair is not None and f.count is not None:
            report.figures[i] = replace(f, test=BINOMIAL, p=binomial_p(f.count, f.n, even_share(report, f)))
            tested.setdefault(f.section, []).append(i)
    for group in (BALANCE, (BOTS,)):
        idx = [i for s in group for i in tested.get(s, [])]
        for i, adjusted in zip(idx, holm([report.figures[i].p or 1.0 for i in idx]), strict=True):
            report.figures[i] = replace(report.figures[i], p_holm=adjusted)
    tests: list[dict[str, Any]] = []
    for section, idx in tested.items():
        figs = [report.figures[i] for i in idx]
        wins = sum(f.count or 0 for f in figs)
        chances = sum(f.n for f in figs)
        expected = [wins * f.n / chances if chances else 0.0 for f in figs]
        stat, df, p = chi_square([f.count or 0 for f in figs], expected)
        tests.append({"section": section, "test": CHI_SQUARE, "statistic": stat, "df": df, "p": p, "p_holm": p})
    balance = [t for t in tests if t["section"] in BALANCE]
    for t, adjusted in zip(balance, holm([t["p"] for t in balance]), strict=True):
        t["p_holm"] = adjusted
    report.tests = tests
    report.verdict = sentences(report)


def significant(report: Report, section: str) -> bool | None:
    """Whether the family's chi-square test is significant after Holm (None: not tested)."""
    t = next((t for t in report.tests if t["section"] == section), None)
    return None if t is None else bool(t["p_holm"] < ALPHA)


def _effect(report: Report, f: Figure) -> str:
    even = even_share(report, f)
    lo, hi = f.low if f.low is not None else f.value, f.high if f.high is not None else f.value
    return (
        f"{f.name} wins {_pct(f.value)} [{_pct(lo)}, {_pct(hi)}] against an even {_pct(even)}: "
        f"{_points(f.value - even)} points [{_points(lo - even)}, {_points(hi - even)}], "
        f"Holm p {fmt_p(f.p_holm if f.p_holm is not None else 1.0)}"
    )


def sentences(report: Report) -> list[str]:
    """The verdict in plain sentences, the finding first."""
    out: list[str] = []
    n_balance = sum(1 for t in report.tests if t["section"] in BALANCE)
    for t in report.tests:
        section = t["section"]
        word, label = WORDS[section]
        figs = [f for f in report.figures if f.section == section and f.p is not None]
        chi = f"chi-square {t['statistic']:.1f}, {t['df']} df, p {fmt_p(t['p'])}"
        if section in BALANCE and n_balance > 1:
            chi += f", Holm p {fmt_p(t['p_holm'])}"
        sig = t["p_holm"] < ALPHA
        if section == BOTS:
            best = max(figs, key=lambda f: f.value)
            out.append(
                f"The bots differ in strength ({chi}): {_effect(report, best)}."
                if sig
                else f"No significant difference between the bots' win shares ({chi})."
            )
            continue
        if sig:
            strong = [f for f in figs if f.p_holm is not None and f.p_holm < ALPHA]
            parts = [_effect(report, f) for f in strong] or [f"no single {word} differs significantly after Holm"]
            out.append(f"Significant {label} ({chi}): " + "; ".join(parts) + ".")
        else:
            widest = max(figs, key=lambda f: abs(f.value - even_share(report, f)))
            lo, hi = min(f.value for f in figs), max(f.value for f in figs)
            out.append(
                f"No significant {label} ({chi}): win shares {_pct(lo)} to {_pct(hi)}; "
                f"the largest gap: {_effect(report, widest)}."
            )
    if report.draws:
        out.append(f"{report.draws} of {report.games} games ({_pct(report.draws / report.games)}) had no winner.")
    if n_balance:
        families = [WORDS[t["section"]][0] for t in report.tests if t["section"] in BALANCE]
        out.append(
            f"Tests at the 5% level: {BINOMIAL} per {' and per '.join(families)}, "
            f"{CHI_SQUARE} per family; Holm's correction over the {' and '.join(families)} tests; 95% intervals."
        )
    return out


def cross_check(report: Report, other: Report) -> None:
    """Compare the balance verdicts of two bot mixes on the same seeds; warn where they disagree."""
    report.check = other
    method = [s for s in report.verdict if s.startswith("Tests at")]
    report.verdict = [s for s in report.verdict if not s.startswith("Tests at")]
    mine, theirs = "/".join(sorted(set(report.spec.bots))), "/".join(sorted(set(other.spec.bots)))
    for section in BALANCE:
        a, b = significant(report, section), significant(other, section)
        if a is None or b is None:
            continue
        label = WORDS[section][1]
        if a != b:
            found, missing = (mine, theirs) if a else (theirs, mine)
            report.warnings.append(
                f"Warning: the {label} is significant with {found} bots but not with {missing} bots: "
                f"it may be the bots' bias, not the rules'."
            )
        elif a:
            report.verdict.append(f"The {label} appears with both bot mixes ({mine}; {theirs}): likely the rules'.")
        else:
            report.verdict.append(f"No significant {label} with either bot mix ({mine}; {theirs}).")
    report.verdict = [*report.warnings, *report.verdict, *method]


def check_hint(report: Report) -> str | None:
    """A suggestion to rerun with a second bot mix where a balance effect was found and none was run."""
    if report.check is None and any(significant(report, s) for s in BALANCE):
        return (
            "A bot's habits can favour a seat or role too: rerun with --check-bots random "
            "to tell the bots' bias from the rules'."
        )
    return None


# -- the luck of the deal ----------------------------------------------------------------------------
LUCK = "Luck of the deal"
KAPPA = "the deal's hold on the winning seat (chance-corrected agreement, Fleiss' kappa)"
AGREE = "two replays of a deal, bots rotated, have the same winning seat"


def add_luck(report: Report, replays: Sequence[Sequence[int | None]]) -> None:
    """Figures and a sentence from deals replayed with the bots rotated through every seat (``replays``:
    each deal's winning seat per rotation). Kappa 1: the deal alone decides which seat wins, whoever sits
    there; 0: no more than chance; below 0: the winner moves with the bots (skill)."""
    if not replays:
        return
    kappa, lo, hi, chance = fleiss_kappa(replays)
    agree = [sum(c * (c - 1) for c in (list(g).count(o) for o in set(g))) / (len(g) * (len(g) - 1)) for g in replays]
    m, alo, ahi = mean_ci(agree)
    spread = sd(agree)
    report.figures.append(Figure(LUCK, AGREE, "mean", m, alo, ahi, len(agree), sd=spread))
    scale = 1 - chance if chance < 1 else 1.0
    report.figures.append(Figure(LUCK, KAPPA, "mean", kappa, lo, hi, len(agree), sd=spread / scale))
    mixed = len(set(report.spec.bots)) > 1
    if lo > 0.5:
        meaning = "the deal largely decides which seat wins, whoever sits there"
    elif lo > 0:
        meaning = "the deal partly decides which seat wins"
    elif hi < 0:
        meaning = "the winner follows the bots rather than the deal (skill)"
    else:
        meaning = "no sign that the deal alone decides the winner"
    note = "" if mixed else " (every seat has the same bot kind: the replays differ only by the bots' seeds)"
    sentence = (
        f"Luck of the deal: {len(agree)} deals, each replayed with the bots rotated through every seat, "
        f"give the same winning seat {100 * m:.1f}% of the time against {100 * chance:.1f}% by chance: "
        f"kappa {kappa:.2f} [{lo:.2f}, {hi:.2f}]; {meaning}{note}."
    )
    at = next((i for i, s in enumerate(report.verdict) if s.startswith("Tests at")), len(report.verdict))
    report.verdict.insert(at, sentence)


SKILL = "Skill ladder"


def add_skill(report: Report, rungs: Sequence[tuple[str, str]], results: Sequence[Sequence[int | None]]) -> None:
    """Figures and a sentence from the skill ladder: for each step (stronger, weaker), the share of games
    that one stronger bot wins among weaker ones, its seat moving with each game, against the even share
    (exact binomial; Holm over the steps). A share well above even at a step: the rules reward that
    step's skill; near even: they do not (or the step is no stronger)."""
    if not rungs:
        return
    n = report.spec.num_players
    figs: list[Figure] = []
    for (strong, weak), games in zip(rungs, results, strict=True):
        decided = [w for w in games if w is not None]
        wins, played = sum(decided), len(games)
        _, lo, hi = wilson(wins, played)
        even = len(decided) / played / n if played else 0.0
        figs.append(
            Figure(
                SKILL,
                f"one {strong} among {weak}",
                "rate",
                wins / played if played else 0.0,
                lo,
                hi,
                played,
                fair=1 / n,
                test=BINOMIAL,
                p=binomial_p(wins, played, even),
                count=wins,
            )
        )
    figs = [replace(f, p_holm=adjusted) for f, adjusted in zip(figs, holm([f.p or 1.0 for f in figs]), strict=True)]
    report.figures.extend(figs)
    parts = []
    for f in figs:
        sig = (f.p_holm or 1.0) < ALPHA
        word = "above" if f.value > (f.fair or 0.0) else "below"
        parts.append(
            f"{f.name} wins {_pct(f.value)} [{_pct(f.low or 0.0)}, {_pct(f.high or 0.0)}] "
            f"(even {_pct(f.fair or 0.0)}; Holm p {fmt_p(f.p_holm or 1.0)}"
            + (f", significantly {word} even)" if sig else ", not significantly different)")
        )
    sentence = (
        f"Skill ladder ({figs[0].n} games a step, one stronger bot among weaker ones, its seat moving): "
        + "; ".join(parts)
        + ". Steps far above even show how much these rules reward that step of skill."
    )
    at = next((i for i, s in enumerate(report.verdict) if s.startswith("Tests at")), len(report.verdict))
    report.verdict.insert(at, sentence)


# -- comparisons ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """One figure of a run against the same figure of the baseline (``value`` is run minus baseline)."""

    section: str
    name: str
    kind: str
    base: float
    other: float
    value: float
    low: float
    high: float
    test: str
    p: float
    p_holm: float = 1.0

    @property
    def changed(self) -> bool:
        return self.p_holm < ALPHA

    def text(self) -> str:
        k, unit = (100.0, " points") if self.kind == "rate" else (1.0, "")
        return f"{k * self.value:+.2f}{unit} [{k * self.low:+.2f}, {k * self.high:+.2f}], p {fmt_p(self.p)}"


def differences(base: Report, other: Report) -> list[Difference]:
    """Every figure the two runs share (quantiles left out), tested; Holm over them all."""
    out: list[Difference] = []
    for key in figure_keys([base, other]):
        a = next((f for f in base.figures if f.key == key), None)
        b = next((f for f in other.figures if f.key == key), None)
        if a is None or b is None or a.kind != b.kind or a.kind == "quantile":
            continue
        if a.kind == "rate" and a.count is not None and b.count is not None:
            d, lo, hi = newcombe(a.count, a.n, b.count, b.n)
            p = two_proportions_p(a.count, a.n, b.count, b.n)
            test = "two-proportion z test (Newcombe interval)"
        elif a.kind == "mean" and a.sd is not None and b.sd is not None:
            d, lo, hi, p = welch(a.value, a.sd, a.n, b.value, b.sd, b.n)
            test = "Welch's t test"
        else:
            continue
        out.append(Difference(key[0], key[1], a.kind, a.value, b.value, d, lo, hi, test, p))
    adjusted = holm([d.p for d in out])
    return [replace(d, p_holm=q) for d, q in zip(out, adjusted, strict=True)]


def label(report: Report) -> str:
    """How a run differs from the others of a sweep or comparison."""
    sweep = report.spec.sweep
    if list(sweep) == [COMPARED]:
        return sweep[COMPARED]
    return ", ".join(f"{k}={v}" for k, v in sweep.items()) or report.spec.game


def compare_sentences(base: Report, others: Sequence[Report], diffs: Sequence[Sequence[Difference]]) -> list[str]:
    """What changed significantly from the baseline, run by run (Holm within each pair)."""
    out: list[str] = []
    for other, ds in zip(others, diffs, strict=True):
        changed = [d for d in ds if d.changed]
        head = f"{label(other)} against {label(base)}"
        if not changed:
            out.append(f"{head}: no significant difference in any of {len(ds)} figures (Holm, 5%).")
            continue
        parts = [f"{d.name} ({d.section}) {d.text()}" for d in changed]
        out.append(
            f"{head}: {len(changed)} of {len(ds)} figures changed significantly (Holm, 5%): " + "; ".join(parts) + "."
        )
    return out


def all_differences(reports: Sequence[Report]) -> list[list[Difference]]:
    """Each run after the first against the first (the baseline of a sweep or comparison)."""
    return [differences(reports[0], r) for r in reports[1:]]


def opening(reports: Sequence[Report]) -> list[str]:
    """The sentences a report opens with: one run's verdict, or what changed from the baseline and
    each run's balance verdict."""
    if len(reports) == 1:
        hint = check_hint(reports[0])
        return [*reports[0].verdict, *([hint] if hint else [])]
    out = compare_sentences(reports[0], reports[1:], all_differences(reports))
    for r in reports:
        out += [f"{label(r)}: {s}" for s in r.verdict if not s.startswith("Tests at")]
    out += [s for s in reports[0].verdict if s.startswith("Tests at")]
    hint = next((h for r in reports if (h := check_hint(r))), None)
    return [*out, *([hint] if hint else [])]


def differences_json(reports: Sequence[Report]) -> list[dict[str, Any]]:
    return [
        {
            "baseline": label(reports[0]),
            "run": label(r),
            "figures": [{**asdict(d), "changed": d.changed} for d in ds],
        }
        for r, ds in zip(reports[1:], all_differences(reports), strict=True)
    ]
