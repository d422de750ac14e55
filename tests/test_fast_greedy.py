"""Greedy read from a (sampled) state: the same table of facts and the same move as greedy from the
seat's view, on many positions of every phase, player count and variant."""

from __future__ import annotations

from typing import Any

import pytest

from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.kqp.bots import GreedyKqpBot
from courtcards.games.kqp.bots import table_of_state as kqp_table_of_state
from courtcards.games.kqp.bots import table_of_view as kqp_table_of_view
from courtcards.games.rank.bots import GreedyRankBot, table_of_state, table_of_view
from courtcards.games.royals.bots import GreedyRoyalsBot, seen_of_state, seen_of_view

RANK = get_game("rank")
RANK_CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {"tokens_to_win": 4}),
    (4, {"tokens_to_win": 4}),
    (4, {"tokens_to_win": 4, "classic_president": True}),
    (5, {"tokens_to_win": 4, "kings_hand": True}),
    (4, {"endless": True, "hands": 3}),
    (6, {"tokens_to_win": 3, "classic_president": True}),
    (8, {"tokens_to_win": 3}),  # two decks
    (12, {"tokens_to_win": 3}),
]


def same_from_state_and_view(
    game: Any, make: Any, of_state: Any, of_view: Any, state: Any, seat: int, rng: Rng, seed: int
) -> dict[str, Any]:
    """The same facts (``of_state``, ``of_view``) and the same move from the state as from the seat's view,
    there and, one time in four where there is a choice, in a world sampled from the view. The view."""
    legal = state.legal_actions(seat)
    view: dict[str, Any] = state.view(seat)
    assert of_state(state, seat) == of_view(view)
    # two bots with the same seed: the same tie-breaks, so the same move on every position
    assert make(seed).choose(view, legal) == make(seed).choose_state(state, seat, legal)
    if len(legal) > 1 and rng.below(4) == 0:
        world = game.sample_world(view, rng.next64())
        wlegal = world.legal_actions(seat)
        assert of_state(world, seat) == of_view(world.view(seat))
        assert make(1).choose(world.view(seat), wlegal) == make(1).choose_state(world, seat, wlegal)
    return view


@pytest.mark.parametrize(("players", "options"), RANK_CONFIGS)
def test_rank_greedy_from_the_state_makes_the_views_move(players: int, options: dict[str, Any]) -> None:
    phases: set[str] = set()
    compared = 0
    for seed in range(3):
        state = RANK.new_game(players, options, seed=seed)
        rng = Rng(seed)
        mover = GreedyRankBot(seed)
        while not state.is_over():
            for other in state.to_move()[1:]:  # seats deciding at once (Classic President give-backs)
                olegal = state.legal_actions(other)
                assert GreedyRankBot(2).choose(state.view(other), olegal) == GreedyRankBot(2).choose_state(
                    state, other, olegal
                )
                phases.add("together")
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            view = same_from_state_and_view(
                RANK, GreedyRankBot, table_of_state, table_of_view, state, seat, rng, compared
            )
            phases.add(str(view["phase"]))
            compared += 1
            # mostly greedy (sensible positions), sometimes random (positions greedy avoids)
            move = legal[rng.below(len(legal))] if rng.below(3) == 0 else mover.choose_state(state, seat, legal)
            state.apply(seat, move)
    assert compared > 100
    assert "play" in phases
    if not options.get("endless"):  # later hands begin with the benefit or the exchange
        assert {"benefit", "give_back"} & phases or "exchange" in phases
    if options.get("classic_president"):
        assert {"exchange", "together"} <= phases
    if options.get("kings_hand"):
        assert "kings_hand" in phases


KQP = get_game("kqp")


@pytest.mark.parametrize("players", [4, 5, 6, 7, 9])
def test_kqp_greedy_from_the_state_makes_the_views_move(players: int) -> None:
    phases: set[str] = set()
    compared = 0
    for seed in range(2):
        state = KQP.new_game(players, {"rounds": 3}, seed=seed)
        rng = Rng(seed)
        mover = GreedyKqpBot(seed)
        while not state.is_over():
            for seat in state.to_move():  # the King's and Queen's taxes are chosen at once
                legal = state.legal_actions(seat)
                view = state.view(seat)
                assert kqp_table_of_state(state, seat) == kqp_table_of_view(view)
                assert GreedyKqpBot(0).choose(view, legal) == GreedyKqpBot(0).choose_state(state, seat, legal)
                if len(legal) > 1 and rng.below(4) == 0:
                    world = KQP.sample_world(view, rng.next64())
                    assert kqp_table_of_state(world, seat) == kqp_table_of_view(world.view(seat))
                phases.add(str(view["phase"]) + ("-lead" if view["leading"] else ""))
                compared += 1
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            move = legal[rng.below(len(legal))] if rng.below(3) == 0 else mover.choose_state(state, seat, legal)
            state.apply(seat, move)
    assert compared > 100
    assert {"tax", "play", "play-lead"} <= phases


ROYALS = get_game("royals")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_royals_greedy_from_the_state_makes_the_views_move(players: int) -> None:
    phases: set[str] = set()
    compared = 0
    for seed in range(4):
        state = ROYALS.new_game(players, {}, seed=seed)
        rng = Rng(seed)
        movers = [GreedyRoyalsBot(seed * 10 + s) for s in range(players)]
        while not state.is_over():
            for seat in state.to_move():  # the commitments of a fight are chosen at once
                view = same_from_state_and_view(
                    ROYALS, GreedyRoyalsBot, seen_of_state, seen_of_view, state, seat, rng, compared
                )
                phases.add(str(view["phase"]))
                compared += 1
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            # mostly greedy (the fights greedy makes), sometimes random (positions greedy avoids)
            move = legal[rng.below(len(legal))] if rng.below(3) == 0 else movers[seat].choose_state(state, seat, legal)
            state.apply(seat, move)
    assert compared > 150
    assert {"action", "commit", "pair", "hits", "losses"} <= phases
