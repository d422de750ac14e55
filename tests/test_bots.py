"""The greedy Rank bot: legal, deterministic, sensible decisions, and stronger than random."""

from __future__ import annotations

from typing import Any

import pytest

from courtcards.bots import bot_kinds, bot_move, make_bot
from courtcards.core.game import get_game
from courtcards.core.state import State
from courtcards.games.rank.bots import GreedyRankBot, Weights, average_badness, badness, hand_counts
from courtcards.games.rank.game import RankGame
from courtcards.sim import simulate

RANK = get_game("rank", RankGame)
FIRST_HAND = [{"hand": 1, "finish": [0, 1, 2, 3], "king": 0, "queen": 1, "beggar": 3, "tokens": [2, 1, 0, 0]}]


def position(**fields: Any) -> State:
    return RANK.state_from_json(fields)


def greedy_choice(state: State, seat: int, seed: int = 0) -> str:
    return bot_move(make_bot("rank", "greedy", seed), state, seat).text


def test_greedy_is_registered_for_rank() -> None:
    assert "greedy" in bot_kinds("rank")
    assert isinstance(make_bot("rank", "greedy", 3), GreedyRankBot)


@pytest.mark.parametrize(("players", "options"), RANK.test_configs())
def test_greedy_only_returns_legal_actions(players: int, options: dict[str, Any]) -> None:
    # Seats 0 and 1 are greedy, the rest random; every decision of the random seats is
    # also put to a greedy bot, so greedy is asked in states it would not steer into itself.
    for seed in range(2):
        state = RANK.new_game(players, options, seed=seed)
        greedy = make_bot("rank", "greedy", seed)
        shadow = make_bot("rank", "greedy", seed + 100)
        rand = make_bot("rank", "random", seed)
        phases = set()
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            phases.add(view["phase"])
            if seat < 2:
                act = greedy.choose(view, legal)
                assert act in legal
            else:
                assert shadow.choose(view, legal) in legal
                act = rand.choose(view, legal)
            state.apply(seat, act)
        if state.hand_number > 1 and options.get("classic_president"):
            assert "exchange" in phases or players < 4
        if options.get("kings_hand"):
            assert "kings_hand" in phases


def test_greedy_is_deterministic_given_its_seed() -> None:
    def play(seed: int) -> list[tuple[int, str]]:
        state = RANK.new_game(4, {"tokens_to_win": 3}, seed=11)
        bots = [make_bot("rank", "greedy", seed + s) for s in range(4)]
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, bot_move(bots[seat], state, seat))
        return state.history

    assert play(5) == play(5)


# -- play decisions from explicit positions --------------------------------------------------


def test_goes_out_when_a_play_empties_the_hand() -> None:
    state = position(
        hands=[["3", "3"], ["1", "5", "9"], ["8", "10"], ["4", "11"]],
        pile=["2", "2"],
        pile_value=2,
        pile_count=2,
        owner=3,
        turn=0,
    )
    assert greedy_choice(state, 0) == "3 3"


def test_plays_a_lone_crown_to_go_out_but_not_a_crown_draw_2_that_draws() -> None:
    state = position(
        hands=[["C"], ["5", "9"], ["8", "10"], ["4", "11"]], pile=["12"], pile_value=12, pile_count=1, owner=3, turn=0
    )
    assert greedy_choice(state, 0) == "C"
    # RK-6: Crown + Draw 2 as the last card does not take you out while the draw pile has cards
    state = position(
        hands=[["C2", "2"], ["5", "9"], ["8", "10"], ["4", "11"]],
        pile=["1"],
        pile_value=1,
        pile_count=1,
        owner=3,
        turn=0,
        draw_pile=["7", "6"],
    )
    assert greedy_choice(state, 0) == "2"


def test_leads_the_lowest_awkward_set() -> None:
    state = position(
        hands=[["2", "9", "9", "12", "W"], ["5", "10", "11", "C"], ["6", "12", "12"], ["7", "10", "W"]], turn=0
    )
    assert greedy_choice(state, 0) == "2"


def test_leads_sets_nobody_can_beat_first_when_that_takes_the_bot_out() -> None:
    # Unlisted cards are discarded, so the others hold only a 5, a 6 and a 7: the 9s and the 12 are
    # sure to win their rounds (RK-5, RK-9), and the 2 with the Wild goes last.
    state = position(hands=[["2", "9", "9", "12", "W"], ["5"], ["6"], ["7"]], turn=0)
    assert greedy_choice(state, 0) == "9 9"


def test_follows_with_the_cheapest_beating_set() -> None:
    state = position(
        hands=[["2", "7", "9", "12", "W"], ["5", "8"], ["6", "10"], ["4", "11"]],
        pile=["6"],
        pile_value=6,
        pile_count=1,
        owner=3,
        turn=0,
    )
    assert greedy_choice(state, 0) == "7"


def test_passes_rather_than_spend_a_valuable_card_early() -> None:
    # RK-8: passing is always allowed; breaking the 12s or spending the Wild now would be a waste
    hand = ["1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "12", "12", "W", "U", "D"]
    others = [["6"] * 5 + ["7"] * 5 + ["8"] * 5, ["9"] * 5 + ["10"] * 5 + ["11"] * 5, ["1"] * 5 + ["10"] * 2]
    state = position(hands=[hand, *others], pile=["6"], pile_value=6, pile_count=1, owner=3, turn=0, draw_pile=["2"])
    legal = {a.text for a in state.legal_actions(0)}
    assert {"12", "W", "12 U", "1 D"} <= legal
    assert greedy_choice(state, 0) == "pass"


def test_uses_rank_down_to_dump_a_low_card_when_stuck() -> None:
    # RK-5: a set with a Rank-Down needs only the same count
    hand = ["2", "5", "5", "9", "9", "D", "6", "6", "3", "3", "4", "4"]
    state = position(
        hands=[hand, ["1"] * 5, ["7"] * 5, ["8"] * 5], pile=["11"], pile_value=11, pile_count=1, owner=3, turn=0
    )
    assert greedy_choice(state, 0) == "2 D"


def test_plays_a_crown_when_it_surely_takes_the_bot_out() -> None:
    # Crown wins the round (RK-6); then the 4 4 lead empties the hand
    state = position(
        hands=[["C", "4", "4"], ["5", "9"], ["8", "10"], ["4", "11"]],
        pile=["12"],
        pile_value=12,
        pile_count=1,
        owner=1,
        turn=0,
    )
    assert greedy_choice(state, 0) == "C"


def test_holds_the_crown_when_leading() -> None:
    state = position(hands=[["C", "4", "4"], ["5", "9"], ["8", "10"], ["4", "11"]], turn=0)
    assert greedy_choice(state, 0) == "4 4"


# -- decisions before play ----------------------------------------------------------------------


def benefit_position(king_hand: list[str]) -> State:
    return position(
        hands=[king_hand, ["5", "6"], ["7", "8"], ["1", "12", "12"]],
        phase="benefit",
        round=2,
        hands_log=FIRST_HAND,
        characters=["king", "queen", "knight", "beggar"],
        tokens=[2, 1, 0, 0],
    )


def test_king_steals_when_he_has_junk_to_give_back() -> None:
    # RK-12: the King steals the Beggar's highest number card and gives one back
    assert greedy_choice(benefit_position(["3", "8", "8", "10", "10", "11"]), 0) == "steal"


def test_king_leads_when_he_has_nothing_to_give_back() -> None:
    assert greedy_choice(benefit_position(["8", "8", "10", "10", "11", "11"]), 0) == "lead"


def test_king_gives_back_his_worst_card() -> None:
    state = benefit_position(["3", "8", "8", "10", "10", "11", "W", "C"])
    state.apply(0, "steal")
    assert state.view(0)["phase"] == "give_back"
    assert greedy_choice(state, 0) == "give 3"


def test_classic_president_give_backs_are_the_lowest_lone_cards() -> None:
    # RK-13: the King owes the Beggar two cards
    state = position(
        hands=[["1", "2", "6", "6", "9", "11", "12", "12", "C"], ["5", "6"], ["7", "8"], ["1", "4"]],
        phase="exchange",
        round=2,
        hands_log=FIRST_HAND,
        characters=["king", "queen", "knight", "beggar"],
        exchanges=[{"from": 3, "to": 0, "cards": ["12", "C"], "why": "tax"}],
        owed={"0": 2},
        options={"classic_president": True},
    )
    assert greedy_choice(state, 0) == "give 2 1"


def test_kings_hand_swaps_a_weak_hand_and_keeps_a_strong_one() -> None:
    # RK-14: the King may take the extra hand once
    weak = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "1", "2", "3", "4"]
    strong = ["12", "12", "12", "11", "11", "10", "10", "10", "C", "C", "W", "W", "U", "D", "2"]
    w = Weights()
    assert badness(hand_counts(weak)) > average_badness(w) + w.swap_margin > badness(hand_counts(strong))
    for hand, choice in ((weak, "swap"), (strong, "keep")):
        state = position(
            hands=[hand, ["5"] * 5, ["7"] * 5, ["8"] * 5],
            kings_hand=["9"] * 5,
            phase="kings_hand",
            round=2,
            hands_log=FIRST_HAND,
            characters=["king", "queen", "knight", "beggar"],
            options={"kings_hand": True},
        )
        assert greedy_choice(state, 0) == choice


def test_greedy_beats_random_clearly() -> None:
    # 200 four-player games, seats rotated: an even bot would win about 25%
    result = simulate("rank", ["greedy", "random", "random", "random"], 200, seed=3)
    greedy = result.stats["greedy"]
    assert greedy.games == 200
    assert greedy.win_share >= 0.8
    assert greedy.avg_position < 1.5


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("rank", 4, {"tokens_to_win": 1}), ("kqp", 6, {}), ("royale", 2, {}), ("royals", 4, {})],
)
def test_a_bot_that_never_reads_the_log_chooses_the_same_without_it(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """``needs_log = False`` is a promise: given the view with an empty log (as ``bot_move`` and the search's
    playouts then give it), every such bot chooses what it chooses from the whole view, in every phase of
    random games (two bots of the same seed, asked in turn)."""
    from courtcards.bots.base import bot_view
    from courtcards.core.rng import Rng

    kinds = [k for k in bot_kinds(game) if not k.startswith("ismcts")]
    pairs = {k: (make_bot(game, k, 3), make_bot(game, k, 3)) for k in kinds}
    quiet = set()
    rng = Rng(11)
    for deal in range(3):
        state = get_game(game).new_game(players, options, seed=deal)
        while not state.is_over() and len(state.history) < 200:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            whole = state.view(seat)
            for kind, (a, b) in pairs.items():
                if not getattr(b, "needs_log", True):
                    quiet.add(kind)
                    assert bot_view(b, state, seat)["log"] == [] and whole["log"]
                    assert a.choose(whole, legal) == b.choose(state.view_without_log(seat), legal), kind
                else:
                    a.choose(whole, legal), b.choose(whole, legal)
            state.apply(seat, legal[rng.below(len(legal))])
    assert {"greedy", "nn"} <= quiet
