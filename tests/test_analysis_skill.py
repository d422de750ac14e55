"""The skill ladder of `courtcards analyze --skill` (issue #29, item 5): one stronger bot among weaker ones,
its seat moving with each game, tested against the even share."""

from __future__ import annotations

import pytest

from courtcards.analysis.report import Report
from courtcards.analysis.runner import RunSpec, run_skill, skill_rungs
from courtcards.analysis.verdict import SKILL, add_skill
from courtcards.core.errors import OptionError


def _report(spec: RunSpec) -> Report:
    return Report(spec=spec, seed=3, games=0, options={}, verdict=["Tests at the 5% level: ..."])


def test_greedy_among_random_is_far_above_even_in_rank() -> None:
    spec = RunSpec("rank", ("random", "random", "random"), {"tokens_to_win": 1})
    steps = skill_rungs(spec, ["random", "greedy"])
    assert steps == [("greedy", "random")]
    results = [run_skill(spec, step, 30, seed=3, workers=1) for step in steps]
    assert len(results[0]) == 30
    report = _report(spec)
    add_skill(report, steps, results)
    (fig,) = [f for f in report.figures if f.section == SKILL]
    assert fig.name == "one greedy among random"
    assert fig.count == sum(w for w in results[0] if w)
    assert fig.value > 0.6 and fig.fair == pytest.approx(1 / 3)
    assert fig.p_holm is not None and fig.p_holm < 0.05
    assert fig.low is not None and fig.low > 1 / 3
    # the sentence comes before the closing line on the tests
    assert report.verdict[0].startswith("Skill ladder") and "significantly above even" in report.verdict[0]
    assert report.verdict[-1].startswith("Tests at")


def test_the_seat_of_the_stronger_bot_moves_and_the_games_repeat() -> None:
    spec = RunSpec("royale", ("random", "random"))
    a = run_skill(spec, ("greedy", "random"), 12, seed=5, workers=1)
    b = run_skill(spec, ("greedy", "random"), 12, seed=5, workers=2)
    assert a == b  # the same games whoever plays them


def test_a_ladder_needs_two_bots_and_checks_them() -> None:
    spec = RunSpec("rank", ("random",) * 4)
    with pytest.raises(OptionError, match="at least two bots"):
        skill_rungs(spec, ["greedy", "greedy"])
    with pytest.raises(OptionError):
        skill_rungs(spec, ["random", "no-such-bot"])
