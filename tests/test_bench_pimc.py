"""bench/bench_pimc.py: one step of lookahead on greedy, in worlds drawn from the view."""

from __future__ import annotations

import sys
from typing import Any

from bench_modules import BENCH, load_bench

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.game import get_game


def _bench() -> Any:
    sys.path.insert(0, str(BENCH))  # the script imports bench_strength beside it
    try:
        return load_bench("bench_pimc")
    finally:
        sys.path.remove(str(BENCH))


def test_lookahead_without_worlds_is_greedy_and_with_them_departs_from_it() -> None:
    """No world: every move ties and greedy's is played. With worlds, the move of the best return in them,
    which is not always greedy's."""
    bench = _bench()
    options = {"tokens_to_win": 1}
    state = get_game("rank").new_game(4, options, seed=3)
    greedy = make_bot("rank", "greedy", 0)
    none, some = bench.Lookahead("rank", 0, 0), bench.Lookahead("rank", 0, 4)
    differ = 0
    while not state.is_over():
        seat = state.to_move()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        mine = greedy.choose(view, legal)
        assert none.choose(view, legal) is mine
        differ += some.choose(view, legal) is not mine
        state.apply(seat, bot_move(greedy, state, seat))
    assert differ > 0
