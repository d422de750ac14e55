"""The engine's whole random playout (State.play_random) plays exactly the game of the step-by-step loop
(to_move, legal_actions, apply of ``legal[rng.below(len(legal))]``), for every registered game and
configuration, the plug-in examples too: the same state (events and generator included), the same
draws from the picking generator, and caches that answer as a fresh state's would."""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from plugin_examples import register_examples

from courtcards.core.actions import Action
from courtcards.core.game import game_names, get_game
from courtcards.core.options import OptionValue
from courtcards.core.rng import ChanceNeeded, Rng
from courtcards.core.state import State, binomial, insert_in_order, nth_combination

register_examples()
CONFIGS = [
    pytest.param(name, n, opts, id=f"{name}-{n}p-" + ("-".join(f"{k}={v}" for k, v in opts.items()) or "default"))
    for name in game_names()
    for n, opts in get_game(name).test_configs()
]


def step(state: State, rng: Rng, limit: int = -1) -> int:
    """The loop of bench_playout.py and of agents: one public call per step."""
    played = 0
    while played != limit and not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        played += 1
    return played


def text(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def answers(state: State) -> Any:
    """What the decision methods answer now (from the caches, where the state has them)."""
    return (
        state.is_over(),
        state.to_move(),
        [[a.text for a in state.legal_actions(s)] for s in range(state.num_players)],
        state.returns(),
    )


def fresh(state: State) -> State:
    again = state.copy()
    again.forget_caches()
    return again


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_whole_playout_is_the_step_loop(name: str, players: int, options: dict[str, OptionValue]) -> None:
    game = get_game(name)
    for seed in (3, 40):
        whole, steps = game.new_game(players, options, seed), game.new_game(players, options, seed)
        a, b = Rng(seed ^ 0x5EED), Rng(seed ^ 0x5EED)
        played = whole.play_random(a)
        assert played == step(steps, b) > 0
        assert whole.is_over() and a.state == b.state
        assert text(whole) == text(steps)
        assert whole.events.to_json() == steps.events.to_json()
        assert answers(whole) == answers(steps) == answers(fresh(whole))
        assert whole.play_random(a) == 0 and a.state == b.state  # over: nothing to play, nothing drawn


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_limits_and_mixed_calls(name: str, players: int, options: dict[str, OptionValue]) -> None:
    """Pieces of whole playouts, with single steps between and with the legal actions listed before (the
    caches of the state then in use), give the step loop's game; after each piece the state answers as a
    fresh one."""
    game = get_game(name)
    seed = 77
    whole, steps = game.new_game(players, options, seed), game.new_game(players, options, seed)
    a, b = Rng(seed), Rng(seed)
    chunks = Rng(5)
    while not steps.is_over():
        limit = chunks.below(9)
        assert whole.play_random(a, limit) == step(steps, b, limit)
        assert text(whole) == text(steps) and a.state == b.state
        assert answers(whole) == answers(fresh(whole))
        step(whole, a, 1)  # listed and applied through the public calls, between the pieces
        step(steps, b, 1)
    assert whole.is_over() and text(whole) == text(steps)


@pytest.mark.parametrize("name", game_names())
def test_observation_logs_follow(name: str) -> None:
    """A state that keeps each seat's observation log (information_state_string) extends it at every
    action of a whole playout too."""
    game = get_game(name)
    players = game.default_players
    whole, steps = game.new_game(players, {}, 9), game.new_game(players, {}, 9)
    for state in (whole, steps):
        state.information_state_string(0)
    a, b = Rng(1), Rng(1)
    assert whole.play_random(a, 25) == step(steps, b, 25)
    assert text(whole) == text(steps)
    assert [whole.information_state_string(s) for s in range(players)] == [
        steps.information_state_string(s) for s in range(players)
    ]


def decisions(name: str, players: int, seeds: range) -> Iterator[tuple[State, int, list[Action]]]:
    """Every decision of the step loop's games of these seeds: (state, seat, its legal actions), the
    state as it is before the action is applied."""
    for seed in seeds:
        state, rng = get_game(name).new_game(players, {}, seed), Rng(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            yield state, seat, legal
            state.apply(seat, legal[rng.below(len(legal))])


def drawn_as_listed(state: State, seat: int, legal: list[Action]) -> None:
    """``_random_action`` draws what listing would: the same action and generator state, from several seeds;
    its one draw is bounded by the number listed (a scripted generator with no outcome names the bound),
    and each outcome of it is the action listed at that index."""
    for k in range(6):
        a, b = Rng(state.version * 10 + k), Rng(state.version * 10 + k)
        assert state._random_action(seat, a).text == legal[b.below(len(legal))].text
        assert a.state == b.state
    scripted = Rng(0)
    scripted.set_script(())
    with pytest.raises(ChanceNeeded) as need:
        state._random_action(seat, scripted)
    assert need.value.n == len(legal)
    for i, action in enumerate(legal):
        scripted.set_script((i,))
        assert state._random_action(seat, scripted).text == action.text


def test_a_rank_royale_choice_is_drawn_without_listing_the_others() -> None:
    """RR-3, RR-4: a play or a tier loser's discard in a whole playout is what ``_legal`` lists at the
    drawn index (RoyaleState._random_action finds it from the draw), for every hand size and count met."""
    from courtcards.games.royale.state import RoyaleState

    seen = set()
    for state, seat, legal in decisions("royale", 2, range(40)):
        assert isinstance(state, RoyaleState)
        seen.add((state.phase, len(state.hands[seat]), state.owe))
        drawn_as_listed(state, seat, legal)
    assert len({key for key in seen if key[0] == "discard"}) >= 4, seen
    assert len({key for key in seen if key[0] == "play"}) >= 4, seen


def test_a_royals_turn_or_commitment_is_drawn_without_listing_the_others() -> None:
    """RY-2 to RY-5: a turn or a commitment in a whole playout is the one ``_legal`` lists at the drawn
    index (RoyalsState._random_action), for the defender's "at most" and for exact counts, and for turns
    with and without Royals to play, targets and a hand to assassinate with."""
    from courtcards.games.royals.state import ACTION, COMMIT, RoyalsState

    seen, turns = set(), set()
    for state, seat, legal in decisions("royals", 4, range(12)):
        assert isinstance(state, RoyalsState)
        if state.phase == COMMIT:
            k, up_to = state._commit_need(seat)
            seen.add((min(k, 2), up_to))
            drawn_as_listed(state, seat, legal)
        elif state.phase == ACTION:
            turns.add((bool(state._royal_plays(seat)), bool(state._targets(seat)), bool(state.hands[seat])))
            drawn_as_listed(state, seat, legal)
    assert {(1, False), (2, False), (1, True), (2, True)} <= seen, seen
    assert {(True, True, True), (False, True, True), (True, False, True)} <= turns, turns


@given(items=st.lists(st.integers(0, 51), max_size=12), size=st.integers(0, 12), data=st.data())
def test_nth_combination_is_the_listed_one(items: list[int], size: int, data: st.DataObject) -> None:
    listed = list(combinations(items, size))
    if listed:
        index = data.draw(st.integers(0, len(listed) - 1))
        assert nth_combination(items, size, index) == listed[index]


@pytest.mark.parametrize("players", [3, 5])
def test_a_rank_play_is_drawn_without_listing_the_others(players: int) -> None:
    """RK-4, RK-5, RK-7: a lead or a follow in a whole playout is the play ``_legal_plays`` lists at the
    drawn index (RankState._random_action counts its blocks or slices), with and without Crowns, Wilds,
    Rank-Ups and Rank-Downs, on piles of every count met."""
    from courtcards.games.rank.cards import CROWN, DOWN, UP, WILD
    from courtcards.games.rank.state import PLAY, RankState

    seen, counts = set(), set()
    for state, seat, legal in decisions("rank", players, range(6)):
        assert isinstance(state, RankState)
        if state.phase == PLAY:
            h = state.hands[seat]
            seen.add((h[CROWN] > 0, h[WILD] > 0, h[UP] > 0, h[DOWN] > 0))
            counts.add(state.pile_count)
            drawn_as_listed(state, seat, legal)
    assert {any(key[k] for key in seen) for k in range(4)} == {True}, seen
    assert (False, False, False, False) in seen, seen
    assert {0, 1, 2, 3} <= counts, counts  # leads, single cards, and follows of several


@given(st.lists(st.integers(0, 51), max_size=14), st.integers(0, 51))
def test_insert_in_order_is_insort(cards: list[int], card: int) -> None:
    # the draws of Royals and Rank Royale put each card in its hand's card order with it
    cards.sort()
    expected = list(cards)
    insort(expected, card)
    insert_in_order(cards, card)
    assert cards == expected


@given(st.integers(0, 60), st.integers(-3, 63))
def test_binomial_is_comb(n: int, k: int) -> None:
    assert binomial(n, k) == (comb(n, k) if k >= 0 else 0)
