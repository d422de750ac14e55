"""Rank Royale worlds that fit the opponent's plays seen (``Evidence`` and ``refit`` in
courtcards/bots/royale.py), worlds whose other seats' hidden choices are left open, the odds of the bot
kinds the opponent may be (``Habits`` and ``odds``), and the search bot's fairness with them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from courtcards.bots.base import bot_move, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.conformance import resample_hidden
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.royale.actions import RoyaleAction
from courtcards.games.royale.bots import KINDS, Evidence, GreedyBot, Habits, MixedBot, fitter, odds, refit
from courtcards.games.royale.cards import rank, tier
from courtcards.games.royale.state import RoyaleState

ROYALE = get_game("royale")


def mixed_games(seed: int, opponent: str = "mixed") -> Iterator[tuple[RoyaleState, list[int]]]:
    """Positions of games between ``opponent`` bots where seat 0 chooses a card (from round 2 on, seat 1
    not yet committed), each with the order in which seat 1 really drew its cards so far."""
    state = ROYALE.new_game(2, seed=seed)
    bots = [make_bot("royale", opponent, seed + s) for s in (1, 2)]
    order = list(state.hands[1])
    while not state.is_over():
        if state.phase == "play" and state.round > 1 and state.reshuffles[1] == 0:
            yield state, order[:]
        for seat in state.to_move():
            held = set(state.hands[1])
            state.apply(seat, bot_move(bots[seat], state, seat))
            order.extend(c for c in state.hands[1] if c not in held)


@pytest.mark.parametrize("opponent", ["mixed", "greedy"])
def test_the_real_draw_order_explains_every_play_and_discard(opponent: str) -> None:
    # both bots play the highest card of the tier they pick and discard by keep_order: the order in
    # which seat 1 really drew its cards misses none of its rounds; the evidence reads the view only
    positions = discards = 0
    for seed in range(12):
        rng = Rng(seed)
        for state, order in mixed_games(seed, opponent):
            view = state.view(0)
            evidence = Evidence(ROYALE.sample_world(view, rng.next64()), 0)
            again = Evidence(resample_hidden(state, 0, rng), 0)
            assert evidence.ok and evidence.rounds == again.rounds
            assert evidence.misses(order) == 0
            positions += 1
            discards += sum(1 for _, gone, _ in evidence.rounds if gone)
    assert positions > 50 and discards > 10


def test_a_hand_the_model_would_not_have_played_from_is_a_miss() -> None:
    # seat 1 played the highest card of its tier: a guess that gave it a higher card of that tier
    # from the start misses that round; a card played before it was drawn is impossible
    for seed in range(40):
        for state, order in mixed_games(seed):
            evidence = Evidence(state, 0)
            card = evidence.rounds[0][0]
            higher = [c for c in state.decks[1] if tier(c) == tier(card) and rank(c) > rank(card)]
            if not higher or order.index(card) == 0:
                continue
            guess = order[:]
            guess[0 if guess[0] != card else 1] = higher[0]
            assert evidence.misses(guess) >= 1
            late = [c for c in order if c != card] + [card]  # drawn after it was played
            assert evidence.misses(late) == -1
            return
    raise AssertionError("no position found")


def test_refit_keeps_the_view_and_fits_the_plays_seen_better() -> None:
    before = after = perfect_before = perfect_after = worlds = 0
    for seed in range(10):
        rng = Rng(seed)
        for state, _ in mixed_games(seed):
            view = state.view(0)
            world = ROYALE.sample_world(view, rng.next64())
            refitting = fitter(world, 0)
            assert refitting is not None
            first, last = refitting(world, Rng(rng.next64()), 100)
            assert last <= first + 2
            assert json.dumps(world.view(0), sort_keys=True) == json.dumps(view, sort_keys=True)
            assert sorted(world.hands[1] + world.decks[1] + world.piles[1]) == sorted(range(52))
            assert len(world.hands[1]) == len(state.hands[1]) and world.invariants() == []
            before, after = before + first, after + last
            perfect_before += first == 0
            perfect_after += last == 0
            worlds += 1
    assert worlds > 30
    assert after < 0.5 * before and perfect_after > perfect_before


def test_refit_guesses_a_hidden_choice_again_from_the_new_hand() -> None:
    state = next(s for s, _ in mixed_games(4))
    state.apply(1, state.legal_actions(1)[0])  # seat 1 commits first: seat 0 sees only that it has
    view = state.view(0)
    for k in range(20):
        world = ROYALE.sample_world(view, k)
        refit(world, Evidence(world, 0), Rng(k), 100)
        chosen = world.pending[1]
        assert isinstance(chosen, RoyaleAction) and chosen.cards[0] in world.hands[1]


def test_open_choices_leave_the_other_seats_hidden_choice_unmade() -> None:
    state = ROYALE.new_game(2, seed=5)
    state.apply(1, state.legal_actions(1)[2])
    view = state.view(0)
    closed = ROYALE.sample_world(view, 3)
    assert closed.to_move() == (0,) and 1 in closed.pending
    opened = ROYALE.sample_world(view, 3, open_choices=True)
    assert opened.to_move() == (0, 1) and not opened.pending
    assert opened.hands == closed.hands  # the same world otherwise
    seen = opened.view(0)
    assert seen["pending"] == {"committed": []}
    assert seen["to_move"] == [0, 1]
    same = {k: v for k, v in seen.items() if k not in ("pending", "to_move")}
    assert same == {k: v for k, v in view.items() if k not in ("pending", "to_move")}
    # the seat's own choice is kept
    mine = ROYALE.sample_world(state.view(1), 3, open_choices=True)
    assert mine.to_move() == (0,) and mine.pending[1] == state.pending[1]


@pytest.mark.parametrize("first", [0, 1])
def test_search_with_the_fit_and_open_choices_is_fair_and_reproducible(first: int) -> None:
    # the default Royale search (fitted worlds, the opponent's choice left open) decides from the view:
    # the hidden cards dealt otherwise, the same move; whichever seat committed first
    checked = 0
    for seed in range(3):
        for state, _ in mixed_games(seed):
            if state.round < 3:
                continue
            if first == 1:
                state.apply(1, state.legal_actions(1)[0])
            other = resample_hidden(state, 0, Rng(seed))
            assert json.dumps(other.view(0), sort_keys=True) == json.dumps(state.view(0), sort_keys=True)
            a = bot_move(ISMCTSBot(seed=2, iterations=60, seconds=60), state, 0)
            b = bot_move(ISMCTSBot(seed=2, iterations=60, seconds=60), other, 0)
            assert a.text == b.text
            checked += 1
            break
    assert checked == 3


def played(seed: int, opponent: str) -> Iterator[tuple[RoyaleState, list[dict[str, Any]]]]:
    """Positions of games (``mixed`` at seat 0 against ``opponent``) where seat 0 chooses a card, each with
    seat 1's real views at the rounds before (when it chose its card)."""
    state = ROYALE.new_game(2, seed=seed)
    bots = [make_bot("royale", "mixed", seed + 1), make_bot("royale", opponent, seed + 2)]
    views: list[dict[str, Any]] = []
    while not state.is_over():
        if state.phase == "play":
            if state.round > 1:
                yield state, views[:]
            views.append(state.view(1))
        for seat in state.to_move():
            state.apply(seat, bot_move(bots[seat], state, seat))


def test_habits_rebuild_what_the_opponent_saw_at_each_round() -> None:
    # from seat 0's view alone: seat 1's view at every past round but its hand, as its bots read it
    checked = 0
    for seed in range(12):
        for state, views in played(seed, "greedy"):
            habits = Habits(state.view(0))
            if state.reshuffles != [0, 0]:
                assert not habits.ok
                continue
            assert habits.ok and len(habits.contexts) == len(views)
            for context, real in zip(habits.contexts, views, strict=True):
                rebuilt = {**context, "hand": real["hand"]}
                assert GreedyBot().card(rebuilt) == GreedyBot().card(real)
                assert MixedBot().strategy(rebuilt) == MixedBot().strategy(real)
                assert context["players"][0] == {k: real["players"][0][k] for k in ("seat", "hand_size", "discard")}
                checked += 1
    assert checked > 100


def test_habits_read_nothing_from_a_discard_to_make_or_a_first_round() -> None:
    state = ROYALE.new_game(2, seed=3)
    assert odds(state.view(0), ROYALE.sample_world, Rng(1)) is None  # no round played yet
    for seed in range(20):
        for state, _ in played(seed, "greedy"):
            for seat in state.to_move():
                state.apply(seat, bot_move(make_bot("royale", "random", seed), state, seat))
            if state.phase == "discard":
                assert not Habits(state.view(0)).ok
                assert odds(state.view(0), ROYALE.sample_world, Rng(1)) is None
                return
    raise AssertionError("no discard found")


@pytest.mark.parametrize(("opponent", "start", "least"), [("mixed", 4, 0.85), ("greedy", 4, 0.6), ("random", 7, 0.25)])
def test_odds_favour_the_kind_that_plays_the_opponent(opponent: str, start: int, least: float) -> None:
    # mixed and greedy: from round 4 on, the kind really playing seat 1 gets the most weight on average,
    # well over its prior (mixed 0.7, greedy 0.2). Random plays look like the others' for longer: from
    # round 7 on, it gets well over its prior of 0.1, and greedy next to nothing
    found = {k: 0.0 for k in KINDS}
    positions = 0
    for seed in range(12):
        rng = Rng(seed)
        for state, _ in played(seed, opponent):
            if state.round >= start:
                got = odds(state.view(0), ROYALE.sample_world, rng)
                if got is not None:
                    assert abs(sum(got.values()) - 1) < 1e-9
                    for k in KINDS:
                        found[k] += got[k]
                    positions += 1
    assert positions >= 10
    mean = {k: v / positions for k, v in found.items()}
    assert mean[opponent] > least
    if opponent == "random":
        assert mean["greedy"] < 0.05
    else:
        assert max(mean, key=lambda k: mean[k]) == opponent


@pytest.mark.parametrize(
    ("weights", "model"),
    [
        ({"greedy": 0.95, "mixed": 0.05, "random": 0.0}, "GreedyBot"),
        ({"greedy": 0.0, "mixed": 0.05, "random": 0.95}, "RandomBot"),
        ({"greedy": 0.85, "mixed": 0.15, "random": 0.0}, "MixedBot"),  # not sure enough: the default model
        ({"greedy": 0.0, "mixed": 1.0, "random": 0.0}, "MixedBot"),
    ],
)
def test_the_search_models_the_kind_the_odds_make_likely(
    monkeypatch: pytest.MonkeyPatch, weights: dict[str, float], model: str
) -> None:
    from dataclasses import replace

    from courtcards.bots.ismcts import search_profile

    state = next(s for s, _ in played(5, "greedy") if s.round >= 3)
    real_profile = ROYALE.profile
    told = replace(search_profile(ROYALE), odds=lambda view, sample, rng: weights)
    monkeypatch.setattr(ROYALE, "profile", lambda layer: told if layer == "search" else real_profile(layer))
    bot = ISMCTSBot(seed=1, iterations=64, seconds=60, stop_early=False)
    seen: list[str] = []
    real = bot._iterate

    def spy(root: Any, world: Any, rng: Any, ctx: Any) -> None:
        seen.append(type(ctx.model).__name__)
        real(root, world, rng, ctx)

    monkeypatch.setattr(bot, "_iterate", spy)
    bot_move(bot, state, 0)
    assert bot.last_odds == weights
    assert seen == [model] * 64
    plain = ISMCTSBot(seed=1, iterations=8, seconds=60, adapt=False)  # off: no odds asked
    bot_move(plain, state, 0)
    assert plain.last_odds is None


def test_a_random_model_plays_the_others_at_random() -> None:
    from courtcards.bots.base import RandomBot
    from courtcards.bots.ismcts import _model_bot, search_profile

    game = get_game("royale")
    profile = search_profile(game)
    assert isinstance(_model_bot(game, profile, "random", 3), RandomBot)
    assert _model_bot(game, profile, None, 3) is None
    assert isinstance(_model_bot(game, profile, "greedy", 3), GreedyBot)
