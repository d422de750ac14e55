"""Verdicts: the tests behind them, sentences checked against a rigged game and a fair one, comparisons,
and the second bot mix that tells a bot's bias from the rules'."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from courtcards.analysis.observe import GameFacts
from courtcards.analysis.report import ROLES, SEATS, summarize, to_json
from courtcards.analysis.runner import build_specs, compare_specs, parse_compare, run_facts, run_luck
from courtcards.analysis.stats import (
    binomial_p,
    chi2_sf,
    fleiss_kappa,
    holm,
    newcombe,
    t_p,
    two_proportions_p,
    welch,
)
from courtcards.analysis.verdict import KAPPA, LUCK, add_luck, cross_check, differences, opening, significant
from courtcards.cli.main import app
from courtcards.core.errors import OptionError
from courtcards.core.game import register, unregister
from courtcards.games.rank.game import RankGame
from courtcards.games.rank.hooks import RankHooks
from courtcards.sim import play_game, seat_kinds

RUNNER = CliRunner()


# -- the tests, against SciPy's values ---------------------------------------------------------------
def test_p_values_match_scipy() -> None:
    assert chi2_sf(38.2, 3) == pytest.approx(2.5638934643592016e-08, rel=1e-9)
    assert chi2_sf(1.1, 3) == pytest.approx(0.7770740836143191, rel=1e-9)
    assert chi2_sf(200, 5) == pytest.approx(2.8406228986415534e-41, rel=1e-6)
    assert binomial_p(30, 100, 0.25) == pytest.approx(0.24907145667188746, rel=1e-9)
    assert binomial_p(10, 10, 0.5) == pytest.approx(0.001953125, rel=1e-9)
    assert binomial_p(5200, 20000, 0.25) == pytest.approx(0.0011547467234620228, rel=1e-9)  # exact, at the limit
    assert binomial_p(5200, 20001, 0.25) == pytest.approx(0.0011553012204059301, rel=2e-2)  # normal, beyond it
    assert t_p(2.1, 7) == pytest.approx(0.07387119621292265, rel=1e-9)
    d, lo, hi, p = welch(1, 1, 30, 1.5, 1.2, 40)
    assert d == 0.5 and p == pytest.approx(0.06187427833124811, rel=1e-9) and lo < 0 < hi
    assert two_proportions_p(30, 100, 50, 100) == pytest.approx(0.003892, abs=1e-5)
    d, lo, hi = newcombe(48, 80, 56, 70)  # Newcombe (1998), method 10: 56/70 - 48/80
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


# -- verdicts from known facts -------------------------------------------------------------------------
def _facts(winners: Sequence[int | None], n: int = 4) -> list[GameFacts]:
    """Games with these winners; the starting roles rotate every ``n`` games (apart from the seats)."""
    roles = [f"role {k}" for k in range(n)]
    return [
        GameFacts(w, ("greedy",) * n, tuple(roles[(s + i // n) % n] for s in range(n)), {"actions": 9})
        for i, w in enumerate(winners)
    ]


def test_a_seat_that_wins_half_the_games_is_named_with_its_size() -> None:
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    report = summarize(spec, 0, _facts([0] * 100 + [1, 2, 3] * 33 + [None]))
    first = report.verdict[0]
    assert first.startswith("Significant seat effect (chi-square ")
    assert "seat 0 wins 50.0% [" in first and "against an even 24.9%" in first  # 200 games, one a draw
    assert "seat 1 wins 16.5% [12.0%, 22.3%] against an even 24.9%: -8.4 points [-12.9, -2.6], Holm p = 0.037" in first
    seat0 = report.figure(SEATS, "seat 0")
    assert seat0.test and seat0.p is not None and seat0.p_holm is not None and seat0.p <= seat0.p_holm < 1e-10
    assert any("1 of 200 games (0.5%) had no winner" in s for s in report.verdict)
    assert report.verdict[-1].startswith("Tests at the 5% level") and "Holm" in report.verdict[-1]
    assert [t["section"] for t in report.tests] == [SEATS, ROLES]


def test_even_seats_give_no_significant_difference() -> None:
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    report = summarize(spec, 0, _facts([0, 1, 2, 3] * 50))
    assert report.verdict[0].startswith("No significant seat effect (chi-square 0.0, 3 df, p = 1")
    assert "win shares 25.0% to 25.0%" in report.verdict[0]
    assert all(f.p == pytest.approx(1.0) for f in report.figures if f.section == SEATS)
    assert not any(s.startswith("Significant") for s in opening([report]))


def test_a_second_bot_mix_that_disagrees_is_a_warning() -> None:
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    biased = summarize(spec, 0, _facts([0] * 100 + [1, 2, 3] * 33))
    flat = summarize(spec, 0, _facts([0, 1, 2, 3] * 50))
    cross_check(biased, flat)
    assert biased.warnings[0] == (
        "Warning: the seat effect is significant with greedy bots but not with greedy bots: "
        "it may be the bots' bias, not the rules'."
    )
    assert opening([biased])[0] == biased.warnings[0] and biased.check is flat
    data = json.loads(to_json([biased]))
    assert data["verdict"][0].startswith("Warning") and data["runs"][0]["check"]["games"] == 200
    both = summarize(spec, 0, _facts([0] * 100 + [1, 2, 3] * 33))
    cross_check(both, summarize(spec, 0, _facts([0] * 100 + [1, 2, 3] * 33)))
    assert not both.warnings and "The seat effect appears with both bot mixes" in " ".join(both.verdict)


def test_an_effect_without_a_check_suggests_one() -> None:
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    report = summarize(spec, 0, _facts([0] * 100 + [1, 2, 3] * 33))
    assert opening([report])[-1].startswith("A bot's habits can favour a seat or role too: rerun with --check-bots")


# -- done when: a rigged plug-in variant and a fair game ------------------------------------------------
class SeatZeroHooks(RankHooks):
    """Seat 0 gains a token more at the end of every hand: it must win more."""

    def tokens(self, finish: Sequence[int], num_players: int) -> list[int]:
        gained = super().tokens(finish, num_players)
        gained[0] += 1
        return gained


class RiggedGame(RankGame):
    info = dataclasses.replace(
        RankGame.info,
        name="rigged_test",
        title="Rank, rigged for seat 0",
        gym_id="courtcards/RiggedTest-v0",
        openspiel_name="courtcards_rigged_test",
    )
    hooks: ClassVar[RankHooks] = SeatZeroHooks()


@pytest.fixture
def rigged() -> Iterator[str]:
    register(RiggedGame())
    yield "rigged_test"
    unregister("rigged_test")


def analyze_json(*args: str) -> dict[str, Any]:
    result = RUNNER.invoke(app, ["analyze", *args, "--workers", "1", "--json", "-"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_the_verdict_finds_a_rigged_seat_and_no_effect_in_a_fair_game(rigged: str) -> None:
    biased = analyze_json(rigged, "--games", "60", "-o", "tokens_to_win=3")
    verdict = biased["verdict"]
    assert isinstance(verdict, list)
    assert verdict[0].startswith("Significant seat effect") and "seat 0 wins" in verdict[0]
    assert "seat 0 wins" in verdict[0] and "+" in verdict[0].split("seat 0 wins")[1].split("points")[0]
    fair = analyze_json("rank", "--games", "60", "-o", "tokens_to_win=3")
    verdict = fair["verdict"]
    assert isinstance(verdict, list)
    assert verdict[0].startswith("No significant seat effect")
    assert not any(s.startswith("Significant seat effect") for s in verdict)


def test_compare_flags_what_the_variant_changed(rigged: str) -> None:
    data = analyze_json("rank", "--games", "60", "-o", "tokens_to_win=3", "--compare", rigged)
    assert [r["sweep"] for r in data["runs"]] == [{"run": "rank tokens_to_win=3"}, {"run": f"{rigged} tokens_to_win=3"}]
    (diff,) = data["differences"]
    changed = {f["name"] for f in diff["figures"] if f["changed"]}
    assert "seat 0" in changed  # the rigged seat
    seat0 = next(f for f in diff["figures"] if f["name"] == "seat 0" and f["section"] == SEATS)
    assert seat0["value"] > 0 and seat0["low"] > 0 and seat0["p_holm"] < 0.05
    assert seat0["test"] == "two-proportion z test (Newcombe interval)"
    verdict = data["verdict"]
    assert isinstance(verdict, list)
    assert verdict[0].startswith(f"{rigged} tokens_to_win=3 against rank tokens_to_win=3: ")
    assert "changed significantly (Holm, 5%)" in verdict[0] and "seat 0 (Win share by seat) +" in verdict[0]


def test_a_run_compared_with_itself_changes_nothing() -> None:
    (spec,) = build_specs("royale", ["mixed"], None, {}, None, [])
    facts = run_facts(spec, 30, 1, workers=1)
    a, b = summarize(spec, 1, facts), summarize(spec, 1, facts)
    diffs = differences(a, b)
    assert diffs and all(d.value == 0 and d.p == 1.0 and not d.changed for d in diffs)


def test_compare_texts_are_parsed_and_checked() -> None:
    assert parse_compare("rank") == ("rank", {})
    assert parse_compare("tokens_to_win=5;kings_hand=true") == (None, {"tokens_to_win": "5", "kings_hand": "true"})
    assert parse_compare("royale:discards=4,3,2") == ("royale", {"discards": "4,3,2"})
    (base,) = build_specs("rank", ["greedy"], None, {}, None, [])
    with pytest.raises(OptionError, match="option 'tokens_to_win' does not accept '0'"):
        compare_specs(base, ["tokens_to_win=0"])
    _, three = compare_specs(base, ["players=3"])  # the table size too, as a sweep has it
    assert three.num_players == 3 and three.bots == ("greedy",) * 3 and three.sweep == {"run": "rank players=3"}
    with pytest.raises(OptionError, match="repeats a configuration"):
        compare_specs(base, ["rank"])
    with pytest.raises(OptionError, match="must be GAME, NAME=VALUE"):
        parse_compare("tokens_to_win=")


def test_compare_and_sweep_are_refused_together() -> None:
    result = RUNNER.invoke(app, ["analyze", "rank", "--compare", "tokens_to_win=2", "--sweep", "tokens_to_win=3,4"])
    assert result.exit_code == 2
    assert result.output.strip() == "Error: --compare and --sweep cannot be combined: a sweep compares its combinations"


@pytest.mark.slow
def test_greedy_seat_shares_are_flat_in_a_seat_symmetric_game() -> None:
    """Royals' rules treat every seat alike (the first player is drawn, RY-1), so greedy against greedy must
    show no seat effect. Before greedy aimed at the leader's Royal (not the lowest seat holding the same face)
    and broke ties for the lead by its generator, these games gave seat 0 19.0% and seat 3 33.5%, p = 2.6e-4."""
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    report = summarize(spec, 0, run_facts(spec, 400, 0, workers=1))
    assert significant(report, SEATS) is False
    assert report.tests[0]["p"] == pytest.approx(0.8826, abs=1e-4)
    assert report.verdict[0].startswith("No significant seat effect")


# -- the luck of the deal ----------------------------------------------------------------------------
def test_kappa_is_one_when_the_deal_decides_and_negative_when_the_bots_do() -> None:
    assert fleiss_kappa([[d % 4] * 4 for d in range(20)]) == (1.0, 1.0, 1.0, 0.25)
    kappa, lo, hi, chance = fleiss_kappa([[(d + r) % 4 for r in range(4)] for d in range(20)])
    assert [kappa, lo, hi] == pytest.approx([-1 / 3] * 3) and chance == 0.25  # the floor: -1 / (players - 1)
    assert fleiss_kappa([[0, 0], [0, 0]])[:3] == (0.0, 0.0, 0.0)  # one outcome everywhere: nothing to tell


def test_deals_replayed_with_the_bots_rotated() -> None:
    bots = ["greedy", "random", "random"]
    (spec,) = build_specs("rank", bots, None, {"tokens_to_win": "2"}, None, [])
    replays = run_luck(spec, 6, 3, workers=1)
    assert len(replays) == 6 and all(len(r) == 3 for r in replays)
    # rotation 0 is the run's own game; the others seat the bots further round on the same deal
    assert [r[0] for r in replays] == [f.winner for f in run_facts(spec, 6, 3, workers=1)]
    state, kinds = play_game("rank", bots, 2, 3, {"tokens_to_win": "2"}, rotation=1)
    assert kinds == seat_kinds(bots, 3) and state.record().seed == play_game("rank", bots, 2, 3)[0].record().seed
    report = summarize(spec, 3, run_facts(spec, 6, 3, workers=1))
    add_luck(report, replays)
    kappa = report.figure(LUCK, KAPPA)
    assert kappa.n == 6 and kappa.low is not None and kappa.high is not None
    assert kappa.low <= kappa.value <= kappa.high and kappa.value == pytest.approx(fleiss_kappa(replays)[0])
    luck = [s for s in report.verdict if s.startswith("Luck of the deal: 6 deals")]
    assert len(luck) == 1 and f"kappa {kappa.value:.2f}" in luck[0]
    assert report.verdict[-1].startswith("Tests at")  # the method stays last


def test_luck_is_compared_across_variants() -> None:
    args = ["royale", "--games", "8", "--luck", "8", "--workers", "1", "--compare", "max_rounds=5"]
    result = RUNNER.invoke(app, ["analyze", *args, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert all(any(f["section"] == LUCK for f in r["figures"]) for r in data["runs"])
    (diff,) = data["differences"]
    assert any(f["name"] == KAPPA and f["test"] == "Welch's t test" for f in diff["figures"])


def test_games_without_a_winner_have_nothing_to_test() -> None:
    (spec,) = build_specs("royals", ["greedy"], 4, {}, None, [])
    report = summarize(spec, 0, _facts([None] * 5))
    assert report.verdict == ["None of the 5 games had a winner: no win share to test."] and report.tests == []
    assert all(f.p is None for f in report.figures)


def test_the_terminal_report_opens_with_the_verdict_and_the_check() -> None:
    args = ["analyze", "royals", "--players", "3", "--games", "6", "--workers", "1", "--check-bots", "random"]
    result = RUNNER.invoke(app, args, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[0] == "Verdict" and lines[1].startswith("- ") and "seat effect" in lines[1]
    assert "- No significant seat effect with either bot mix (greedy; random)." in lines
    assert result.output.index("Verdict") < result.output.index("Win share by seat")


def test_the_games_limit_counts_the_check_and_the_replays() -> None:
    args = ["analyze", "royale", "--games", "4", "--check-bots", "random", "--luck", "3", "--max-games", "13"]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip() == (
        "Error: this would play 14 games (2 runs x 4), more than --max-games 13; add --yes to run it"
    )  # 4 + 4 (the check) + 3 deals x 2 seats
