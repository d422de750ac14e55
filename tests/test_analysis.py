"""Designer analytics: intervals, what a spectator's record shows, reports, and the runs behind them."""

from __future__ import annotations

import importlib
import itertools
import math
from typing import Any

import pytest

from courtcards.analysis.observe import END, drama, observe, observe_generic, observe_live, observer_of, replay_views
from courtcards.analysis.report import DRAMA, LENGTH, ROLES, SEATS, summarize, to_csv, to_json
from courtcards.analysis.runner import analyze_batch, batches, build_specs, parse_sweep, run_facts
from courtcards.analysis.stats import mean_ci, quantile, t_quantile_975, wilson
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game, registered_games
from courtcards.games.kqp.analysis import SPECIAL_PILES
from courtcards.games.rank.analysis import KING, SPECIAL_ROUNDS
from courtcards.games.royale.analysis import TIER, TIER_SHARE
from courtcards.games.royals.analysis import ASSASSINATIONS
from courtcards.sim import play_game, play_steps


# -- intervals ---------------------------------------------------------------------------------
def test_wilson_matches_published_values() -> None:
    p, lo, hi = wilson(5, 10)
    assert p == 0.5 and lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    p, lo, hi = wilson(0, 10)  # never 0..0: the interval still admits some chance
    assert (p, lo) == (0.0, 0.0) and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(81, 263)[1:] == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)


def test_t_quantiles_and_mean_interval() -> None:
    for df, t in ((1, 12.706), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962)):
        assert t_quantile_975(df) == pytest.approx(t, abs=2e-3)
    m, _lo, hi = mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and hi - m == pytest.approx(2.776445 * math.sqrt(2.5 / 5))
    assert mean_ci([7]) == (7, 7, 7)
    assert quantile([1, 2, 3, 4], 0.5) == 2.5 and quantile([5, 1, 3], 0.9) == pytest.approx(4.6)


# -- drama -------------------------------------------------------------------------------------
def test_drama_counts_lead_changes_and_when_the_winner_is_clear() -> None:
    # seat 1 leads, then seat 0, then a tie, then seat 1 again for good
    timeline = [[0, 2], [3, 2], [3, 3], [3, 5]]
    changes, clear, comeback = drama(timeline, winner=1)
    assert changes == 2
    assert clear == 3 / 4  # never behind from the third checkpoint (a tie is not behind)
    assert comeback is True  # behind at the halfway checkpoint (the second)
    changes, clear, comeback = drama([[1, 0], [2, 0], [3, 1]], winner=0)
    assert (changes, clear, comeback) == (0, 1 / 3, False)
    # lower is better (KQP points)
    assert drama([[3, 1], [4, 5]], winner=0, lower_is_better=True) == (1, 1.0, True)
    assert drama([[1, 1]], winner=None)[1:] == (None, None)


# -- what the records show -----------------------------------------------------------------------
def _played(
    game: str, n: int, index: int = 0, seed: int = 3, options: dict[str, Any] | None = None, bots: str = "greedy"
) -> tuple[Any, Any]:
    state, kinds = play_game(game, [bots] * n, index, seed, options)
    return state, observe(state.record(), kinds)


@pytest.mark.parametrize("index", range(3))
def test_rank_facts_agree_with_the_record(index: int) -> None:
    state, facts = _played("rank", 4, index, options={"tokens_to_win": 3})
    res = state.result()
    actions = [t for _, t in state.history]
    assert facts.winner == res.winner
    assert sorted(facts.roles) == ["beggar", "king", "knight", "queen"]
    assert facts.lengths["hands"] == res.details["hands"]
    assert facts.lengths["actions"] == len(actions)
    plays = sum(t not in ("lead", "steal", "swap", "keep") and not t.startswith("give") for t in actions)
    assert facts.lengths["turns"] == plays
    rounds = facts.lengths["rounds"]
    crowns, chances = facts.events[SPECIAL_ROUNDS, "round taken by a play with a Crown"]
    assert chances == rounds
    assert crowns == sum(t in ("C", "C2") for t in actions)  # a Crown always takes its round (RK-6)
    kings = res.details["kings"]
    stays, hands = facts.events.get((KING, "King stays King"), (0, 0))
    assert hands == len(kings) - 1 and stays == sum(a == b for a, b in itertools.pairwise(kings))


def test_rank_classic_president_and_kings_hand_are_told_apart() -> None:
    _, facts = _played("rank", 5, options={"tokens_to_win": 4, "classic_president": True, "kings_hand": True})
    names = {name for section, name in facts.events if section == KING}
    assert "King stays King after the Classic President exchange (RK-13)" in names
    assert any("King's Hand" in name for name in names)
    assert not any("steal" in name for name in names)  # no lead-or-steal under Classic President


def test_kqp_facts_agree_with_the_record() -> None:
    state, facts = _played("kqp", 5, options={"rounds": 3})
    res = state.result()
    actions = [t for _, t in state.history]
    assert facts.lengths["rounds"] == res.details["rounds"] == 3
    kings, piles = facts.events[SPECIAL_PILES, "pile taken by a play with a King"]
    assert kings == actions.count("K")  # nothing beats the King (KQ-5)
    assert piles == facts.lengths["piles"] and facts.lengths["turns"] <= len(actions)
    places = [v for (_, name), vals in facts.values.items() for v in vals]
    assert sum(places) == 3 * sum(range(1, 6))  # every finish place once per round


def test_royale_tier_figures_add_up() -> None:
    state, facts = _played("royale", 2, bots="mixed")
    rounds = facts.lengths["rounds"]
    chosen = [facts.events[TIER, f"{t} card chosen (share of cards played)"] for t in ("low", "middle", "high")]
    assert sum(k for k, _ in chosen) == 2 * rounds and all(c == 2 * rounds for _, c in chosen)
    shares = [facts.events[TIER_SHARE, f"{t} card"] for t in ("low", "middle", "high")]
    assert sum(k for k, _ in shares) == shares[0][1]  # every decided round won by exactly one tier
    assert facts.winner == state.result().winner


def test_royals_first_player_and_assassinations() -> None:
    state, facts = _played("royals", 4)
    assert sorted(facts.roles) == ["1st to play", "2nd to play", "3rd to play", "4th to play"]
    assert facts.roles[state.view(None)["first_player"]] == "1st to play"
    done, attempts = facts.events[ASSASSINATIONS, "assassination succeeds (the Royal is discarded)"]
    assert 0 <= done <= attempts == facts.values[ASSASSINATIONS, "assassination attempts per game"][0]
    starts = sum(t.startswith("assassinate") for _, t in state.history)
    assert attempts == starts


# -- a game with no observer of its own ------------------------------------------------------------
GENERIC_RUNS = [
    ("rank", ["greedy"] * 4, {"tokens_to_win": 3}, "hands", True),
    ("kqp", ["greedy"] * 5, {"rounds": 2}, "rounds", True),
    ("royale", ["mixed", "random"], {}, "rounds", False),
    ("royals", ["greedy", "random", "random"], {}, "turns", False),
]


@pytest.mark.parametrize(("game", "bots", "options", "unit", "has_roles"), GENERIC_RUNS)
def test_a_game_without_an_observer_gets_the_generic_report(
    monkeypatch: pytest.MonkeyPatch, game: str, bots: list[str], options: dict[str, Any], unit: str, has_roles: bool
) -> None:
    g = get_game(game)
    own = g.profile("observer")
    assert own is not None and observer_of(g) is own
    declared = type(g).profile
    monkeypatch.setattr(type(g), "profile", lambda self, layer: None if layer == "observer" else declared(self, layer))
    assert observer_of(g) is observe_generic
    spec = build_specs(game, bots, None, options, None, [])[0]
    facts = run_facts(spec, 6, seed=4, workers=1, batch_size=3)
    states = [play_game(game, bots, i, 4, options)[0] for i in range(6)]
    results = [s.result() for s in states]
    assert [f.winner for f in facts] == [r.winner for r in results if r is not None] and None not in results
    assert [f.lengths["actions"] for f in facts] == [len(s.history) for s in states]
    assert [f.lengths[unit] for f in facts] == [s.view(None)["round"] for s in states]
    assert all(f.lengths[unit] >= 1 for f in facts)
    report = summarize(spec, 4, facts)
    seats = [f for f in report.figures if f.section == SEATS]
    assert [f.name for f in seats] == [f"seat {s}" for s in range(len(bots))]
    assert sum(f.value for f in seats) * 6 == pytest.approx(sum(f.winner is not None for f in facts))
    assert {f.name for f in report.figures if f.section == LENGTH} >= {
        f"{unit}: mean",
        "actions: mean",
        "actions: median",
    }
    roles = [f for f in report.figures if f.section == ROLES]
    assert bool(roles) == has_roles  # Rank's characters and KQP's roles are in their views; the others have none
    if has_roles:
        assert sum(f.n for f in roles) == 6 * len(bots)
    assert report.figure(END, "draw (no winner)").n == 6
    assert report.figure(DRAMA, "lead changes per game").n == 6
    own_facts = [own(s.record(), tuple(bots)) for s in states[:2]]
    if game != "royale":  # scores in the views: the same drama as the game's own observer reads
        assert [f.lead_changes for f in facts[:2]] == [f.lead_changes for f in own_facts]


# -- reports and runs ------------------------------------------------------------------------------
def test_report_shares_add_up_and_runs_do_not_depend_on_workers() -> None:
    spec = build_specs("rank", ["greedy", "random", "random"], None, {"tokens_to_win": 1}, None, [])[0]
    one = run_facts(spec, 9, seed=2, workers=1, batch_size=4)
    two = run_facts(spec, 9, seed=2, workers=2, batch_size=2)
    assert one == two
    report = summarize(spec, 2, one)
    seats = [f for f in report.figures if f.section == SEATS]
    assert len(seats) == 3 and sum(f.value for f in seats) == pytest.approx(1.0)
    assert all(
        f.low is not None and f.high is not None and f.low <= f.value <= f.high
        for f in report.figures
        if f.kind != "quantile"
    )
    roles = {f.name: f for f in report.figures if f.section == ROLES}
    assert set(roles) == {"king", "queen", "beggar"} and all(f.n == 9 for f in roles.values())
    assert sum(f.value * f.n for f in roles.values()) == pytest.approx(9)  # one winner a game
    bots = {f.name for f in report.figures if f.section == "Win share by bot"}
    assert bots == {"greedy (per seat)", "random (per seat)"}
    assert report.figure(DRAMA, "lead changes per game").n == 9
    assert "Win share by seat,seat 0,rate" in to_csv([report]) and '"figures"' in to_json([report])


def test_batches_cover_every_game_once() -> None:
    spec = build_specs("royale", ["random"], None, {"max_rounds": 20}, None, [])[0]
    jobs = batches(spec, 7, 1, 3)
    assert [(j[2], j[3]) for j in jobs] == [(0, 3), (3, 6), (6, 7)]
    assert len(analyze_batch(jobs[2])) == 1


def test_sweeps_are_parsed_and_checked() -> None:
    assert parse_sweep("tokens_to_win=3,5,7") == ("tokens_to_win", ["3", "5", "7"])
    assert parse_sweep("discards=4,3,2;3,3,3") == ("discards", ["4,3,2", "3,3,3"])
    specs = build_specs("rank", ["greedy"], None, {}, None, ["tokens_to_win=1,2", "players=3,5"])
    assert [(s.sweep["tokens_to_win"], s.num_players) for s in specs] == [("1", 3), ("1", 5), ("2", 3), ("2", 5)]
    with pytest.raises(OptionError, match="unknown option 'tokens'; valid options: tokens_to_win"):
        build_specs("rank", ["greedy"], None, {}, None, ["tokens=1,2"])
    with pytest.raises(OptionError, match="option 'tokens_to_win' does not accept '0'"):
        build_specs("rank", ["greedy"], None, {}, None, ["tokens_to_win=2,0"])
    with pytest.raises(OptionError, match="for 3 to 12 players, not 13"):
        build_specs("rank", ["greedy"], None, {}, None, ["players=4,13"])
    with pytest.raises(OptionError, match="NAME=V1,V2"):
        parse_sweep("tokens_to_win")


# -- observing while a game is played (analyze's cost) ------------------------------------------------
@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_observing_a_game_while_it_is_played_gives_what_its_replay_gives(game: str) -> None:
    g = get_game(game)
    n = g.info.min_players
    for i in range(3):
        kinds = ("random",) * n
        state, live = observe_live(*play_steps(game, kinds, i, 11))
        again, _ = play_game(game, kinds, i, 11)
        assert state.history == again.history and state.is_over()
        replayed = observe(again.record(), kinds)
        assert live == replayed
        assert live.lengths["actions"] == len(again.history)


def test_an_observer_that_stops_reading_early_still_gets_the_game_played_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def first_only(record: Any, kinds: tuple[str, ...]) -> Any:
        next(replay_views(record))
        return observe_generic(record.replay().record(), kinds)  # the finished game, from the live record

    observe_module = importlib.import_module("courtcards.analysis.observe")  # the package names a function so
    monkeypatch.setattr(observe_module, "observer_of", lambda _game: first_only)
    state, facts = observe_live(*play_steps("royale", ("random", "random"), 0, 3))
    assert state.is_over() and facts.lengths["actions"] == len(state.history) > 0
