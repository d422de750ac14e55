"""King Queens & Paupers rules, from explicit positions (rulings KQ-1..KQ-9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from courtcards.core.errors import IllegalActionError, NotationError, NotYourTurnError, OptionError, PositionError
from courtcards.core.game import get_game
from courtcards.games.kqp.cards import GOLD, KING, QUEEN, counts_of, deck_counts, parse_card
from courtcards.games.kqp.state import KqpState, tax_cards

KQP = get_game("kqp")


def pos(**fields: Any) -> KqpState:
    state = KQP.state_from_json(fields)
    assert isinstance(state, KqpState)
    return state


def texts(state: KqpState, seat: int) -> list[str]:
    return [a.text for a in state.legal_actions(seat)]


def run(state: KqpState, *moves: tuple[int, str]) -> KqpState:
    for seat, text in moves:
        state.apply(seat, text)
    return state


# -- KQ-1 deck ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size", "per_value"), [(4, 115, 8), (5, 129, 9), (6, 143, 10), (9, 143, 10)])
def test_deck_size_and_make_up(players: int, size: int, per_value: int) -> None:
    # KQ-1
    state = KQP.new_game(players, seed=3)
    deck = state.deck()
    assert len(deck) == size
    assert deck.count("3") == deck.count("14") == deck.count("S") == deck.count("G") == per_value
    assert deck.count("Q") == 2 and deck.count("K") == 1


def test_card_order() -> None:
    # KQ-1: 3 < ... < 14 < Silver < Gold < Queen < King
    assert 14 < 15 < GOLD < QUEEN < KING
    assert KQP.parse_cards("3 14 silver 1 gold 2 queen king") == ["3", "14", "S", "S", "G", "G", "Q", "K"]


# -- KQ-2 / KQ-3 positions, order and deal -----------------------------------------------------------
def test_first_positions_are_seeded_random() -> None:
    # KQ-2: the first round's order is random, from the game's seed
    a = [KQP.new_game(6, seed=s).view(None)["positions"] for s in range(6)]
    assert a == [KQP.new_game(6, seed=s).view(None)["positions"] for s in range(6)]
    assert len({tuple(p) for p in a}) > 1


def test_play_order_runs_from_pauper2_to_the_king() -> None:
    # KQ-2: clockwise after Pauper-2 come Pauper-1, Commoners worst to best, Queen, King
    hands = [["3", "4"], ["5", "6"], ["7", "8"], ["9", "10"], ["11", "12"]]
    state = pos(hands=hands, positions=[2, 4, 0, 3, 1])  # King 2, Queen 4, 3rd 0, Pauper-1 3, Pauper-2 1
    view = state.view(None)
    assert view["order"] == [1, 3, 0, 4, 2]
    assert [p["role"] for p in view["players"]] == ["commoner", "pauper-2", "king", "pauper-1", "queen"]
    assert view["turn"] == 1  # Pauper-2 leads (KQ-5)
    run(state, (1, "5"), (3, "9"), (0, "pass"), (4, "11"))
    assert state.to_move() == (2,)
    run(state, (2, "pass"))
    assert state.to_move() == (1,)  # after the King comes Pauper-2 again


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(4, [29, 29, 29, 28]), (6, [24] * 5 + [23]), (7, [21, 21, 21, 20, 20, 20, 20]), (9, [16] * 8 + [15])],
)
def test_deal_gives_the_better_seats_the_extra_cards(players: int, sizes: list[int]) -> None:
    # KQ-3: one at a time counter-clockwise from the King; KQ-4 moves 2 + 1 cards before the give-backs
    state = KQP.new_game(players, seed=11)
    p = state.view(None)["positions"]
    during_tax = [state.sizes[s] for s in p]
    assert during_tax == [sizes[0] + 2, sizes[1] + 1, *sizes[2:-2], sizes[-2] - 1, sizes[-1] - 2]
    king, queen = p[0], p[1]
    run(state, (king, state.legal_actions(king)[0].text), (queen, state.legal_actions(queen)[0].text))
    assert [state.sizes[s] for s in p] == sizes


# -- KQ-4 taxes -----------------------------------------------------------------------------------
def test_tax_takes_the_highest_cards_but_never_queens_or_the_king() -> None:
    # KQ-4
    hand = counts_of([3, 9, 14, GOLD, QUEEN, QUEEN, KING, GOLD])
    assert tax_cards(hand, 2) == [GOLD, GOLD]
    assert tax_cards(counts_of([3, 9, 14, GOLD, QUEEN, KING]), 2) == [14, GOLD]
    assert tax_cards(counts_of([5, QUEEN, QUEEN, KING]), 2) == [5]  # pays what they have
    assert tax_cards(counts_of([QUEEN, KING]), 1) == []


def test_new_round_taxes_follow_the_new_positions() -> None:
    # KQ-4 after KQ-8: seat 1 went out first (King), seat 0 last (Pauper-2)
    state = pos(
        hands=[["3", "3"], [], ["9"], []],
        positions=[3, 2, 1, 0],
        finished=[1, 3],
        turn=2,
        options={"rounds": 2, "target": None},
    )
    run(state, (2, "9"))  # seat 2 goes out third; the round ends
    assert state.view(None)["rounds_log"][0]["finish"] == [1, 3, 2, 0]
    assert state.positions == [1, 3, 2, 0] and state.phase == "tax"
    taxes = state.taxes
    assert [(e["from"], e["to"], len(e["cards"])) for e in taxes] == [(0, 1, 2), (2, 3, 1)]
    for e in taxes:
        paid = KQP.parse_cards(" ".join(e["cards"]))
        assert "Q" not in paid and "K" not in paid
        left = [c for c in range(3, GOLD + 1) if state.hands[e["from"]][c]]
        best_paid = min(parse_card(c) for c in paid)
        assert all(c <= best_paid for c in left)  # nothing better stayed behind
    assert state.to_move() == (1, 3)  # King and Queen give back at once


def tax_position() -> KqpState:
    # King 0 received G G from Pauper-2 (seat 3); Queen 1 received 14 from Pauper-1 (seat 2)
    return pos(
        hands=[["3", "G", "G", "K"], ["5", "Q", "14"], ["4", "6"], ["7"]],
        phase="tax",
        owed={"0": 2, "1": 1},
        taxes=[
            {"from": 3, "to": 0, "cards": ["G", "G"], "why": "tax"},
            {"from": 2, "to": 1, "cards": ["14"], "why": "tax"},
        ],
    )


def test_give_backs_are_any_plain_cards() -> None:
    # KQ-4: the King gives any two cards, the Queen any one, never a Queen or the King
    state = tax_position()
    assert state.to_move() == (0, 1)
    assert texts(state, 0) == ["give 3 G", "give G G"]
    assert texts(state, 1) == ["give 5", "give 14"]
    with pytest.raises(IllegalActionError, match="never given"):
        state.apply(1, "give Q")
    with pytest.raises(IllegalActionError, match="exactly 2"):
        state.apply(0, "give 3")


def test_give_backs_are_secret_until_both_are_in() -> None:
    # KQ-4: a simultaneous choice; only giver and receiver see the cards
    state = tax_position()
    state.apply(0, "give 3 G")
    assert state.to_move() == (1,)
    for s in (None, 1, 2, 3):
        view = state.view(s)
        assert view["pending"]["committed"] == [0] and "mine" not in view["pending"]
        assert "give 3 G" not in json.dumps(view)
    assert state.view(0)["pending"]["mine"] == "give 3 G"
    with pytest.raises(NotYourTurnError):
        state.apply(0, "give G G")
    state.apply(1, "give 5")
    assert state.phase == "play" and state.turn == 3  # Pauper-2 leads the first pile (KQ-5)
    assert state.view(3)["hand"] == ["3", "7", "G"]
    assert state.view(2)["hand"] == ["4", "5", "6"]
    gives = {(e["from"], e["to"]): e for e in state.view(3)["taxes"] if e["why"] == "give"}
    assert gives[(0, 3)]["cards"] == ["3", "G"] and "cards" not in gives[(1, 2)]
    assert "cards" not in next(e for e in state.view(2)["taxes"] if e["from"] == 0 and e["why"] == "give")
    assert all("cards" not in e for e in state.view(None)["taxes"])


def test_payer_with_too_few_cards_still_gets_two_back_from_the_king() -> None:
    # KQ-4: Pauper-2 (seat 3) holds one card other than Queens and the King, so pays only that 9; the King
    # still gives back two cards of his choice, the Queen one ("A payer with too few eligible cards pays what
    # they have" covers the payers only). Phase 'deal': the hands as dealt, the taxes collected on loading.
    state = pos(hands=[["3", "5", "G"], ["4", "Q", "14"], ["6", "7"], ["9", "Q", "K"]], phase="deal")
    assert state.phase == "tax" and state.owed == {0: 2, 1: 1} and state.to_move() == (0, 1)
    assert [(e["from"], e["to"], list(e["cards"]), e["why"]) for e in state.taxes] == [
        (3, 0, ["9"], "tax"),
        (2, 1, ["7"], "tax"),
    ]
    assert state.view(0)["hand"] == ["3", "5", "9", "G"] and state.view(3)["hand"] == ["Q", "K"]
    assert texts(state, 0) == ["give 3 5", "give 3 9", "give 3 G", "give 5 9", "give 5 G", "give 9 G"]
    with pytest.raises(IllegalActionError, match="exactly 2 cards"):
        state.apply(0, "give 3")  # not one card for the one paid
    state.apply(0, "give 3 5")
    state.apply(1, "give 4")
    assert state.phase == "play" and state.turn == 3  # Pauper-2 leads the first pile (KQ-5)
    hands = {s: state.view(s)["hand"] for s in range(4)}
    assert hands == {0: ["9", "G"], 1: ["7", "14", "Q"], 2: ["4", "6"], 3: ["3", "5", "Q", "K"]}
    assert state.sizes == [2, 3, 2, 4]  # the King 3 + 1 - 2, Pauper-2 3 - 1 + 2
    log = [e["text"] for e in state.view(None)["log"]]
    assert log == [
        "Seat 3 (Pauper-2) pays seat 0 (King) 1 card in tax.",
        "Seat 2 (Pauper-1) pays seat 1 (Queen) 1 card in tax.",
        "Seat 0 (King) has chosen a give-back.",
        "Seat 0 (King) gives back to seat 3 (Pauper-2) 2 cards.",
        "Seat 1 (Queen) gives back to seat 2 (Pauper-1) 1 card.",
        "Seat 3 (Pauper-2) leads the first pile.",
    ]


def test_a_king_with_fewer_cards_to_give_gives_what_he_has() -> None:
    # KQ-4: the King gives two cards "if he has them": here only the one he was paid
    state = pos(hands=[["Q", "K"], ["4", "5"], ["6", "7"], ["9", "Q"]], phase="deal")
    assert state.owed == {0: 1, 1: 1} and texts(state, 0) == ["give 9"]
    # nothing paid and nothing to give: no give-back owed, and the log says why
    state = pos(hands=[["Q", "K"], ["4", "5"], ["6", "7"], ["Q"]], phase="deal")
    assert state.owed == {1: 1} and state.to_move() == (1,)
    assert [e["text"] for e in state.view(None)["log"]][:2] == [
        "Seat 3 (Pauper-2) has no card to pay seat 0 (King) in tax.",
        "Seat 0 (King) has no card to give back to seat 3 (Pauper-2).",
    ]


def test_a_deal_position_is_its_own_start_and_plays_on_after_a_save() -> None:
    # phase 'deal' is for positions only: the state is in phase 'tax' once loaded, its start the position
    position = {"hands": [["3", "5", "G"], ["4", "Q", "14"], ["6", "7"], ["9", "Q", "K"]], "phase": "deal"}
    state = pos(**position)
    assert state.start == {**position, "format_version": 3}
    saved = state.to_json()
    assert saved["phase"] == "tax" and saved["owed"] == {"0": 2, "1": 1}
    again = KQP.state_from_json(json.loads(json.dumps(saved)))
    assert again.to_json() == saved
    assert pos(**position).to_json() == saved  # loading the start again collects the same taxes


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"turn": 3}, "turn"),
        ({"owed": {"0": 2}}, "owed"),
        ({"taxes": [{"from": 3, "to": 0, "cards": ["9"], "why": "tax"}]}, "taxes"),
        ({"pile": {"cards": ["6"], "owner": 2}}, "pile"),
        ({"played": [[], [], ["8"], []]}, "played"),
        ({"hands": [["3", "5", "G"], ["4", "Q", "14"], [], ["9", "Q", "K"]]}, "hands[2]"),
    ],
)
def test_a_deal_position_has_nothing_of_the_round_after_the_deal(extra: dict[str, Any], field: str) -> None:
    # KQ-3, KQ-4: before the taxes nothing has been paid, owed or played
    position = {"hands": [["3", "5", "G"], ["4", "Q", "14"], ["6", "7"], ["9", "Q", "K"]], "phase": "deal", **extra}
    with pytest.raises(PositionError) as info:
        KQP.state_from_json(position)
    assert info.value.field == field


# -- KQ-5 plays -----------------------------------------------------------------------------------
def test_leading_any_set_of_one_value() -> None:
    # KQ-5
    state = pos(hands=[["9", "9", "G", "Q", "Q", "K"], ["3"], ["3"], ["3"]], turn=0)
    assert texts(state, 0) == ["9", "9 9", "G", "Q", "Q Q", "K"]
    with pytest.raises(IllegalActionError, match="one value"):
        state.apply(0, "9 G")


def pile(hands: list[list[str]], top: list[str], owner: int, turn: int, **extra: Any) -> KqpState:
    return pos(hands=hands, pile={"cards": top, "owner": owner}, turn=turn, **extra)


def test_following_needs_the_same_count_and_a_higher_value() -> None:
    # KQ-5
    state = pile([["3"], ["8", "8", "8", "9", "9", "S", "S", "Q", "Q", "K"], ["3"], ["3"]], ["8", "8"], 0, 1)
    assert texts(state, 1) == ["9 9", "S S", "Q Q", "K", "pass"]
    with pytest.raises(IllegalActionError, match="8 does not beat"):
        state.apply(1, "8 8")
    with pytest.raises(IllegalActionError, match="needs 2 cards"):
        state.apply(1, "8 8 8")


def test_a_single_queen_tops_any_single_and_only_the_king_tops_a_queen() -> None:
    # KQ-5: positions 0..3, so play goes 3, 2, 1, 0, 3, ...
    state = pile([["Q", "5"], ["Q", "4"], ["3"], ["K", "6"]], ["G"], 2, 1)
    assert texts(state, 1) == ["Q", "pass"]
    state.apply(1, "Q")
    assert texts(state, 0) == ["pass"]  # the other Queen does not top a Queen
    with pytest.raises(IllegalActionError, match="only the King"):
        state.apply(0, "Q")
    state.apply(0, "pass")
    assert texts(state, 3) == ["K", "pass"]
    state.apply(3, "K")
    assert texts(state, 2) == ["pass"]


def test_both_queens_top_a_double_but_not_a_single_or_triple() -> None:
    # KQ-5
    single = pile([["3"], ["Q", "Q", "4"], ["3"], ["3"]], ["5"], 0, 1)
    assert texts(single, 1) == ["Q", "pass"]
    with pytest.raises(IllegalActionError, match="only top a double"):
        single.apply(1, "Q Q")
    triple = pile([["3"], ["Q", "Q", "4"], ["3"], ["3"]], ["5", "5", "5"], 0, 1)
    assert texts(triple, 1) == ["pass"]
    double = pile([["3"], ["Q", "Q", "4"], ["3"], ["3"]], ["G", "G"], 0, 1)
    assert texts(double, 1) == ["Q Q", "pass"]


def test_the_king_tops_any_set_and_is_never_beaten() -> None:
    # KQ-5
    state = pile([["Q", "Q", "5"], ["K", "4"], ["3"], ["3"]], ["7", "7", "7", "7"], 2, 1)
    assert texts(state, 1) == ["K", "pass"]
    state.apply(1, "K")
    assert texts(state, 0) == ["pass"]
    with pytest.raises(IllegalActionError, match="nothing beats the King"):
        state.apply(0, "Q Q")


# -- KQ-6 passing -----------------------------------------------------------------------------------
def test_a_pass_does_not_lock_a_player_out() -> None:
    # KQ-6: positions 0..3 -> play order 3, 2, 1, 0
    hands = [["4", "12"], ["9", "13"], ["6", "10", "14"], ["5", "11"]]
    state = pos(hands=hands)
    discard = state.card_places()["discard"]
    run(state, (3, "5"), (2, "pass"), (1, "9"), (0, "pass"), (3, "pass"))
    assert texts(state, 2) == ["10", "14", "pass"]  # seat 2 passed earlier and may play now
    run(state, (2, "10"), (1, "pass"), (0, "12"), (3, "pass"), (2, "pass"), (1, "pass"))
    # every other holder passed in succession after seat 0's 12: seat 0 leads a new pile
    assert state.turn == 0 and state.pile_count == 0
    assert sorted(state.card_places()["discard"]) == sorted([*discard, "5", "9", "10", "12"])


def test_the_pile_waits_for_every_other_holder_to_pass_in_succession() -> None:
    # KQ-6: a pass followed by a play starts the count again
    state = pos(hands=[["4", "12"], ["9", "13"], ["6", "10", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "pass"), (1, "pass"), (0, "12"), (3, "pass"), (2, "pass"))
    assert state.to_move() == (1,) and state.pile_count == 1
    run(state, (1, "13"), (0, "pass"), (3, "pass"), (2, "pass"))
    assert state.turn == 1 and state.pile_count == 0


def test_when_the_owner_went_out_the_next_holder_to_the_left_leads() -> None:
    # KQ-6: seat 2 goes out with its 14; then seats 1, 0, 3 pass: seat 1 (left of seat 2) leads
    state = pos(hands=[["4", "12"], ["9", "13"], ["14"], ["5", "11"]], turn=2)
    run(state, (2, "14"))
    assert state.finished == [2] and state.to_move() == (1,)
    run(state, (1, "pass"), (0, "pass"), (3, "pass"))
    assert state.turn == 1 and state.pile_count == 0


# -- KQ-7 consecutive mode -------------------------------------------------------------------------------
def test_second_play_one_value_up_starts_consecutive_mode() -> None:
    # KQ-7
    hands = [["7", "7", "8", "8", "9", "9"], ["6", "6", "Q", "Q"], ["5", "5", "8", "8", "K"], ["3", "3", "4"]]
    state = pos(hands=hands, turn=2)
    run(state, (2, "5 5"), (1, "6 6"))
    assert state.consecutive and state.view(None)["pile"]["consecutive"]
    assert texts(state, 0) == ["7 7", "pass"]  # not 8 8 or 9 9
    with pytest.raises(IllegalActionError, match="consecutive mode"):
        state.apply(0, "9 9")
    run(state, (0, "7 7"), (3, "pass"))
    assert texts(state, 2) == ["8 8", "K", "pass"]
    run(state, (2, "8 8"))
    assert texts(state, 1) == ["Q Q", "pass"]  # Queens and the King are always allowed
    run(state, (1, "pass"), (0, "pass"), (3, "pass"))
    assert state.turn == 2 and not state.consecutive  # the mode ends with the pile


def test_consecutive_mode_counts_plays_not_passes() -> None:
    # KQ-7: a pass between the first and second plays does not matter
    state = pos(hands=[["6", "9"], ["7", "12"], ["3", "4"], ["5", "11"]])
    run(state, (3, "5"), (2, "pass"), (1, "pass"), (0, "6"))
    assert state.consecutive
    assert texts(state, 3) == ["pass"]  # 11 is not one up from 6


def test_no_consecutive_mode_unless_the_second_play_is_one_up() -> None:
    # KQ-7: only the second play can start it
    state = pos(hands=[["8", "9"], ["7", "12"], ["6", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "6"))
    assert state.consecutive
    state = pos(hands=[["8", "9"], ["7", "12"], ["6", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "14"))
    assert not state.consecutive
    state = pos(hands=[["13", "9"], ["7", "12"], ["6", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "pass"), (1, "7"), (0, "9"))
    assert not state.consecutive  # the 5 and 7 were the first two plays
    assert texts(state, 3) == ["11", "pass"]


# -- KQ-8 scoring, KQ-9 end ---------------------------------------------------------------------------------
def end_position(scores: list[int], **options: Any) -> KqpState:
    # seats 2 and 0 are out; seat 3 leads its last 5, seat 1 tops it with its last card
    return pos(
        hands=[[], ["9"], [], ["5", "7"]],
        finished=[2, 0],
        turn=3,
        scores=scores,
        rounds_log=[{"round": 1, "finish": [0, 1, 2, 3], "points": [1, 2, 3, 4], "scores": [1, 2, 3, 4]}],
        round=2,
        options=options,
    )


def test_scoring_kth_out_scores_k_and_last_scores_n() -> None:
    # KQ-8
    state = end_position([1, 2, 3, 4], rounds=3, target=None)
    run(state, (3, "5"), (1, "9"))
    log = state.rounds_log[-1]
    assert list(log["finish"]) == [2, 0, 1, 3] and list(log["points"]) == [2, 3, 1, 4]
    assert state.totals == [3, 5, 4, 8] and state.round == 3 and not state.is_over()
    assert state.positions == [2, 0, 1, 3]  # KQ-2: King 2, Queen 0, Pauper-1 1, Pauper-2 3


def test_the_game_ends_when_a_total_reaches_the_target() -> None:
    # KQ-9
    state = end_position([1, 2, 3, 4], target=8)
    run(state, (3, "5"), (1, "9"))
    assert state.is_over() and state.to_move() == ()
    result = state.result()
    assert result is not None and result.winner == 0 and result.scores == (3, 5, 4, 8)
    assert result.ranking == (0, 2, 1, 3)
    not_yet = end_position([1, 2, 3, 4], target=9)
    run(not_yet, (3, "5"), (1, "9"))
    assert not not_yet.is_over() and not_yet.phase == "tax"


def test_the_game_ends_after_the_chosen_number_of_rounds() -> None:
    # KQ-9
    state = end_position([1, 2, 3, 4], rounds=2, target=None)
    run(state, (3, "5"), (1, "9"))
    assert state.is_over()


def test_a_tie_goes_to_the_better_finish_in_the_last_round() -> None:
    # KQ-9: seats 0 and 1 end on 6; seat 0 finished second this round, seat 1 third
    state = end_position([4, 3, 6, 6], rounds=2, target=None)
    run(state, (3, "5"), (1, "9"))
    result = state.result()
    assert result is not None and result.scores == (6, 6, 7, 10)
    assert result.winner == 0 and result.ranking == (0, 1, 2, 3)


def test_target_defaults_follow_the_table_size() -> None:
    # KQ-9
    assert [KQP.new_game(n).options["target"] for n in range(4, 10)] == [15, 20, 20, 25, 25, 25]
    assert KQP.new_game(6).options["rounds"] is None
    assert KQP.new_game(6, {"rounds": "5", "target": "none"}).options == {
        "target": None,
        "rounds": 5,
        "hand_size": None,
    }
    with pytest.raises(OptionError, match="never end"):
        KQP.new_game(6, {"target": None})
    with pytest.raises(OptionError):
        KQP.new_game(3)


# -- notation, errors, positions, records ------------------------------------------------------------------
def test_notation_round_trips() -> None:
    for text in ["9 9 9", "Q Q", "K", "pass", "give 3 4", "S", "G G"]:
        assert KQP.parse_action(text).text == text
    assert KQP.parse_action("gold, gold").text == "G G"
    assert KQP.parse_action("give 4 3").text == "give 3 4"
    assert KQP.parse_action("PASS").text == "pass"
    for bad in ["", "X", "give", "pass 3", "15"]:
        with pytest.raises(NotationError):
            KQP.parse_action(bad)


def test_illegal_actions_leave_the_state_unchanged() -> None:
    state = pile([["3"], ["8", "8", "9"], ["3"], ["3"]], ["8"], 0, 1)
    before = json.dumps(state.to_json(), sort_keys=True)
    for seat, text in [(1, "8"), (1, "9 9"), (2, "3"), (1, "give 8")]:
        with pytest.raises(IllegalActionError):
            state.apply(seat, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_bad_positions_are_refused() -> None:
    with pytest.raises(PositionError, match="'hands': must have 4 entries"):
        KQP.state_from_json({"hands": [["3"]] * 3 + [["3"]] * 0, "num_players": 4})
    with pytest.raises(PositionError, match="more cards"):
        pos(hands=[["K"], ["K"], [], []])
    with pytest.raises(PositionError, match="positions"):
        pos(hands=[["3"]] * 4, positions=[0, 0, 1, 2])
    with pytest.raises(PositionError, match="holds no cards"):
        pos(hands=[["3"], [], ["3"], ["3"]], turn=1)


def test_unlisted_cards_are_in_the_discard() -> None:
    state = pos(hands=[["3"], ["4"], ["5"], ["6"]])
    places = state.card_places()
    assert len(places["discard"]) == 115 - 4
    assert sorted(c for cards in places.values() for c in cards) == sorted(state.deck())
    assert deck_counts(4)[KING] == 1


def test_records_replay() -> None:
    state = KQP.new_game(5, {"rounds": 1, "target": None}, seed=7)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    again = state.record().replay()
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
