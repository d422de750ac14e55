"""KQP tournaments (KQ-10) and the greedy bot's choices."""

from __future__ import annotations

import json
from typing import Any

import pytest

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.errors import OptionError, RecordError
from courtcards.core.game import get_game
from courtcards.core.state import State
from courtcards.games.kqp.tournament import (
    TournamentPlan,
    replay_tournament,
    run_tournament,
    stage_plan,
    table_sizes,
)

KQP = get_game("kqp")


def first_legal(state: State, names: list[str]) -> None:
    while not state.is_over():
        for seat in state.to_move():
            state.apply(seat, state.legal_actions(seat)[0])


def test_tables_hold_four_to_nine_and_stages_shrink() -> None:
    # KQ-10
    assert table_sizes(9) == [9] and table_sizes(10) == [5, 5] and table_sizes(20) == [7, 7, 6]
    assert stage_plan(20) == [[7, 7, 6], [6, 6], [8]]
    assert stage_plan(4) == [[4]]
    assert all(4 <= size <= 9 for p in range(4, 200) for stage in stage_plan(p) for size in stage)


def test_top_four_go_on_and_the_final_decides() -> None:
    # KQ-10: 10 players -> two tables of 5 -> a final of 8
    plan = TournamentPlan(tuple(f"p{i}" for i in range(10)), seed=5, rounds=1)
    tour = run_tournament(plan, first_legal)
    assert [len(t) for t in tour.stages] == [2, 1]
    first = tour.stages[0]
    for table in first:
        assert table.advance == table.standings[:4]
        assert table.record.options == {"target": None, "rounds": 1, "hand_size": None}
    final = tour.stages[1][0]
    assert sorted(final.players) == sorted(p for t in first for p in t.advance)
    assert tour.winner == final.standings[0]
    assert sorted(tour.standings()) == sorted(plan.players) and tour.standings()[:8] == final.standings


def test_roles_option_takes_king_queen_and_paupers() -> None:
    # KQ-10 option: the last round's King, Queen, Pauper-1 and Pauper-2 go on
    plan = TournamentPlan(tuple(f"p{i}" for i in range(12)), seed=2, rounds=2, advance="roles")
    tour = run_tournament(plan, first_legal)
    for table in tour.stages[0]:
        assert table.record.result is not None
        finish = table.record.result["details"]["finishes"][-1]
        names = table.players
        assert table.advance == [names[finish[0]], names[finish[1]], names[finish[-2]], names[finish[-1]]]


def test_tournament_record_replays_and_catches_tampering() -> None:
    plan = TournamentPlan(tuple(f"p{i}" for i in range(11)), seed=9, rounds=1)
    data: dict[str, Any] = json.loads(json.dumps(run_tournament(plan, first_legal).to_json()))
    again = replay_tournament(data)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(data, sort_keys=True)
    data["stages"][0][0]["advance"] = list(reversed(data["stages"][0][0]["advance"]))
    with pytest.raises(RecordError, match="advancers"):
        replay_tournament(data)


def test_bad_plans_are_refused() -> None:
    with pytest.raises(OptionError, match="at least 4"):
        run_tournament(TournamentPlan(("a", "b", "c")), first_legal)
    with pytest.raises(OptionError, match="advance"):
        run_tournament(TournamentPlan(tuple("abcdef"), advance="best"), first_legal)


# -- the greedy bot ----------------------------------------------------------------------------------
def greedy(state: State, seat: int) -> str:
    return bot_move(make_bot("kqp", "greedy"), state, seat).text


def test_greedy_gives_back_its_worst_cards() -> None:
    state = KQP.state_from_json(
        {"hands": [["3", "9", "9", "G", "G", "Q"], ["5"], ["4"], ["6"]], "phase": "tax", "owed": {"0": 2}}
    )
    assert greedy(state, 0) == "give 3 9"


def test_greedy_leads_its_lowest_whole_set_and_follows_without_breaking() -> None:
    lead = KQP.state_from_json({"hands": [["3"], ["4"], ["5"], ["4", "4", "7", "9", "9", "12", "13"]]})
    assert greedy(lead, 3) == "4 4"
    follow = KQP.state_from_json(
        {
            "hands": [["3"], ["4"], ["6", "6", "8", "12", "13"], ["5", "7"]],
            "pile": {"cards": ["5"], "owner": 3},
            "turn": 2,
        }
    )
    assert greedy(follow, 2) == "8"


def test_greedy_spends_the_king_to_stop_a_player_going_out() -> None:
    state = KQP.state_from_json(
        {
            "hands": [["3"], ["4"], ["K", "5", "7", "9", "11", "13"], ["6", "6", "8"]],
            "pile": {"cards": ["G", "G"], "owner": 0},
            "turn": 2,
        }
    )
    assert greedy(state, 2) == "K"
