"""The bot ladder: reproducible ratings, pairwise rates, and clear errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from courtcards.cli.main import app
from courtcards.core.errors import OptionError
from courtcards.ladder import lineups, run_ladder, wilson


def test_lineups_cycle_or_choose() -> None:
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_wilson_interval_contains_the_rate() -> None:
    lo, hi = wilson(30, 100)
    assert 0.21 < lo < 0.3 < hi < 0.4
    assert wilson(0, 0) == (0.0, 1.0)


def test_greedy_rates_above_random_and_same_with_two_workers() -> None:
    opts = {"tokens_to_win": 1}
    one = run_ladder("rank", ["random", "greedy"], 12, seed=3, options=opts, workers=1)
    two = run_ladder("rank", ["random", "greedy"], 12, seed=3, options=opts, workers=2)
    assert one.to_json() == two.to_json()
    assert one.order() == ["greedy", "random"]
    lo_g, _ = one.interval("greedy")
    _, hi_r = one.interval("random")
    assert lo_g > one.mu["random"] and hi_r < one.mu["greedy"]
    rate = one.pairwise("greedy", "random")
    assert rate is not None and rate[0] > 0.65 and rate[3] == 12 * 4  # 2 x 2 seat pairs a game


def test_more_bots_than_seats_plays_every_combination() -> None:
    lad = run_ladder("royale", ["random", "greedy", "mixed"], 6, seed=1, workers=1)
    assert lad.games == 6
    assert all(lad.seats_played[b] == 4 for b in ("random", "greedy", "mixed"))


@pytest.mark.parametrize(
    ("bots", "message"),
    [(["random"], "at least two"), (["random", "nope"], "unknown bot 'nope'"), (["random", "ismcts:x"], "valid forms")],
)
def test_bad_bots(bots: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        run_ladder("rank", bots, 4)


def test_cli_json_and_errors(tmp_path: object) -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["ladder", "royale", "--bots", "random,mixed", "--games", "4", "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 4 and {r["bot"] for r in data["ratings"]} == {"random", "mixed"}
    bad = runner.invoke(app, ["ladder", "rank", "--bots", "random,ismcts:0", "--games", "2"])
    assert bad.exit_code == 2 and "valid forms" in bad.output and "Traceback" not in bad.output
    missing = runner.invoke(app, ["ladder", "rank", "--games", "2", "--plot", "/no/such/dir/x.png"])
    assert missing.exit_code == 2 and "does not exist" in missing.output
