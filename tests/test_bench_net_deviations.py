"""bench/bench_net_deviations.py: the teacher overruled by a network above a value margin."""

from __future__ import annotations

import sys

from bench_modules import BENCH, load_bench

from courtcards.bots.base import make_bot
from courtcards.core.game import get_game
from courtcards.nn import NNBot, shipped_networks


def test_overruled_plays_the_teacher_at_a_large_margin_and_the_network_below_any() -> None:
    sys.path.insert(0, str(BENCH))  # the script imports bench_strength beside it
    try:
        bench = load_bench("bench_net_deviations")
    finally:
        sys.path.remove(str(BENCH))
    path = str(shipped_networks("royals")[0])
    teacher, net = make_bot("royals", "greedy", 0), NNBot("royals", 0, path)
    never = bench.Overruled("royals", 0, path, "greedy", 1e9)
    always = bench.Overruled("royals", 0, path, "greedy", -1e9)
    state = get_game("royals").new_game(4, {}, seed=5)
    differ = 0
    for _ in range(120):
        if state.is_over():
            break
        seat = state.to_move()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        taught, mine = teacher.choose(view, legal), net.choose(view, legal)
        assert never.choose(view, legal) is taught
        assert always.choose(view, legal) is mine
        differ += mine is not taught
        state.apply(seat, taught)
    assert differ > 0  # the network and greedy disagreed somewhere: both branches were taken
