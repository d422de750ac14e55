"""Rank Royale bots, the tier-game solver and the balance report."""

from __future__ import annotations

import pytest

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.game import get_game
from courtcards.games.royale.bots import MixedBot, keep_order, solve_zero_sum
from courtcards.games.royale.cards import parse_card_list, texts
from courtcards.games.royale.game import RoyaleGame

GAME = get_game("royale", RoyaleGame)


def test_solver_rock_paper_scissors_is_uniform() -> None:
    x, v = solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert x == pytest.approx([1 / 3, 1 / 3, 1 / 3]) and v == pytest.approx(0)


def test_solver_mixed_and_pure_cases() -> None:
    x, v = solve_zero_sum([[3, -2], [-1, 4]])
    assert x == pytest.approx([0.5, 0.5]) and v == pytest.approx(1.0)
    x, v = solve_zero_sum([[1, 2], [3, 4]])  # the second row dominates
    assert x == pytest.approx([0, 1]) and v == pytest.approx(3)
    # the 4,3,2 table as a one-round tier game (rows/cols low, middle, high; rank wins ignored)
    x, v = solve_zero_sum([[0, -3, 4], [3, 0, -2], [-4, 2, 0]])
    assert x == pytest.approx([2 / 9, 4 / 9, 3 / 9]) and v == pytest.approx(0)


def test_discards_keep_one_card_of_each_tier() -> None:
    hand = parse_card_list("AS 3S 7S 9S QS")
    assert texts(keep_order(hand)) == ["QS", "9S", "3S", "7S", "AS"]
    hands = [["AS", "3S", "7S", "9S", "QS", "KS"], ["2H", "4H", "5H", "8H", "JH", "KH"]]
    state = GAME.state_from_json({"hands": hands})
    state.apply(0, "KS")
    state.apply(1, "8H")  # High beats Middle: seat 1 discards 2 of 2H 4H 5H JH KH
    for kind in ("greedy", "mixed"):
        action = bot_move(make_bot("royale", kind, 1), state, 1)
        assert action.text == "discard 2H JH"  # keeps KH, 5H, 4H


def test_mixed_strategy_is_a_distribution_over_held_tiers() -> None:
    state = GAME.new_game(2, seed=11)
    cards, x, _ = MixedBot(0).strategy(state.view(0))
    held = set(state.view(0)["hand"])
    assert set(texts(cards)) <= held and sum(x) == pytest.approx(1) and min(x) >= 0


@pytest.mark.parametrize("kind", ["greedy", "mixed"])
def test_bots_play_legal_moves_and_are_deterministic(kind: str) -> None:
    def play(seed: int) -> list[tuple[int, str]]:
        state = GAME.new_game(2, {"max_rounds": 60}, seed=seed)
        bots = [make_bot("royale", kind, seed), make_bot("royale", "random", seed + 1)]
        while not state.is_over():
            for s in state.to_move():
                state.apply(s, bot_move(bots[s], state, s))  # apply() refuses illegal moves
        return state.history

    assert play(5) == play(5)
