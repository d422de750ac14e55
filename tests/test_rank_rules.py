"""Rank rules, part 1: the deck, the first hand, and play within a hand
(RK-1 to RK-9), each from an explicit position with an exact outcome."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from courtcards.core.errors import IllegalActionError, OptionError
from courtcards.core.game import get_game
from courtcards.games.rank.state import RankState

# -- Helpers (also used by the other test_rank_*.py files) ----------------------------------

G = get_game("rank")


def pos(hands: list[str], **fields: Any) -> RankState:
    """A position from hands written as card text ("8 8 7 U"; "" for no cards)."""
    data: dict[str, Any] = {"hands": [h.split() for h in hands], **fields}
    state = G.state_from_json(data)
    assert isinstance(state, RankState)
    return state


def mover(state: RankState) -> int:
    (seat,) = state.to_move()
    return seat


def legal(state: RankState, seat: int | None = None) -> set[str]:
    s = mover(state) if seat is None else seat
    return {a.text for a in state.legal_actions(s)}


def hand(state: RankState, seat: int) -> str:
    return " ".join(state.card_places()[f"hand:{seat}"])


def play(state: RankState, *moves: str) -> RankState:
    """Apply moves in turn order (each by whoever is to move)."""
    for m in moves:
        state.apply(mover(state), m)
    return state


# -- RK-1 Deck --------------------------------------------------------------------------


def test_one_deck_has_98_cards_of_the_rulebook_mix() -> None:
    # RK-1: seven of each 1-12, 2 Crown, 2 Crown + Draw 2, 3 Rank-Up, 3 Rank-Down, 4 Wild
    for n in (3, 4, 5, 6):
        deck = Counter(G.new_game(n, seed=1).deck())
        assert sum(deck.values()) == 98
        assert {str(x): deck[str(x)] for x in range(1, 13)} == {str(x): 7 for x in range(1, 13)}
        assert (deck["C"], deck["C2"], deck["U"], deck["D"], deck["W"]) == (2, 2, 3, 3, 4)
        assert len(deck) == 17  # no character or token cards among the cards


def test_seven_to_twelve_players_use_two_decks() -> None:
    # RK-1: 7-12 players use two decks (196 cards)
    for n in (7, 9, 12):
        deck = Counter(G.new_game(n, seed=1).deck())
        assert sum(deck.values()) == 196
        assert deck["7"] == 14 and deck["C"] == 4 and deck["W"] == 8


def test_player_counts_outside_3_to_12_are_refused() -> None:
    # RK-1: 3-6 players, 7+ with two decks; the engine stops at 12
    for n in (2, 13):
        with pytest.raises(OptionError, match="3 to 12 players"):
            G.new_game(n)


@pytest.mark.parametrize("n,draw", [(3, 53), (4, 38), (5, 23), (6, 8), (7, 91), (8, 76), (12, 16)])
def test_deal_is_15_each_and_the_rest_is_the_draw_pile(n: int, draw: int) -> None:
    # RK-2 / RK-1: 15 cards each, the rest face down as the draw pile
    s = G.new_game(n, seed=3)
    assert [len(s.card_places()[f"hand:{i}"]) for i in range(n)] == [15] * n
    assert len(s.card_places()["draw_pile"]) == draw
    assert s.view(None)["deck_size"] == draw


def test_only_king_queen_and_beggar_are_named_with_two_decks() -> None:
    # RK-1: with 7+ players only King, Queen and Beggar are tracked; the rest are Knights
    s = G.new_game(9, seed=5)
    assert Counter(s.characters) == Counter({"knight": 6, "king": 1, "queen": 1, "beggar": 1})


# -- RK-2 First hand ----------------------------------------------------------------------


def test_first_hand_king_leads_without_a_benefit() -> None:
    # RK-2: characters dealt at random, the King leads the first round, no benefit
    kings = set()
    for seed in range(12):
        s = G.new_game(4, seed=seed)
        king = s.characters.index("king")
        kings.add(king)
        assert Counter(s.characters) == Counter({"king": 1, "queen": 1, "beggar": 1, "knight": 1})
        assert s.phase == "play" and s.hand_number == 1
        assert s.to_move() == (king,)
        assert s.view(None)["leading"] is True
        acts = legal(s)
        assert not acts & {"lead", "steal", "pass"}
        assert s.tokens == [0, 0, 0, 0]
    assert len(kings) > 1  # the King's seat is random


def test_first_hand_with_classic_president_has_no_exchange() -> None:
    # RK-2 with RK-13: no benefit (and so no exchange) in the first hand
    s = G.new_game(4, {"classic_president": True}, seed=2)
    assert s.phase == "play" and s.exchanges == []
    assert [len(s.card_places()[f"hand:{i}"]) for i in range(4)] == [15] * 4


# -- RK-3 Order -----------------------------------------------------------------------------


def test_play_goes_left_and_skips_empty_hands() -> None:
    # RK-3: seat i then i+1, skipping players with no cards
    s = pos(["5 9", "", "7 8", "6 10"], turn=0, finished=[1])
    play(s, "5")
    assert mover(s) == 2
    play(s, "7")
    assert mover(s) == 3
    play(s, "10")
    assert mover(s) == 0  # wraps around


def test_order_also_skips_passed_players() -> None:
    # RK-3 / RK-8: a passed player is skipped for the rest of the round
    s = pos(["5 9", "3 4", "7 8", "6 10"], turn=0)
    play(s, "5", "pass", "7", "pass", "9")
    assert mover(s) == 2  # seats 1 and 3 passed


# -- RK-4 Sets --------------------------------------------------------------------------------

LEAD_HAND = "3 7 8 8 12 12 12 W U"


@pytest.mark.parametrize(
    "move,value,count",
    [
        ("12 12 12 U", 13, 3),  # a Rank-Up lifts a whole set: three 13s
        ("12 U", 13, 1),
        ("8 8 7 U", 8, 3),  # a Rank-Up lifts one 7 to make three 8s
        ("8 7 U", 8, 2),
        ("8 7 W U", 8, 3),  # and Wilds join the lifted set
        ("8 8 W", 8, 3),  # a Wild takes the set's value
        ("12 12 12 W U", 13, 4),
        ("7 W U", 8, 2),  # Wild + Rank-Up with one number card
        ("W", 1, 1),  # a Wild led alone is a 1
        ("W U", 2, 1),
        ("3", 3, 1),
    ],
)
def test_set_shapes_when_leading(move: str, value: int, count: int) -> None:
    # RK-4: the value comes from the cards; a modifier does not count
    s = pos([LEAD_HAND, "5", "6"], turn=0)
    assert move in legal(s)
    play(s, move)
    assert (s.pile_value, s.pile_count, s.owner) == (value, count, 0)
    assert s.view(None)["pile"]["top"] == move.split()


def test_two_wilds_led_alone_are_two_ones() -> None:
    # RK-4 (000: a Wild led alone is a #1)
    s = pos(["W W 5", "6", "7"], turn=0)
    play(s, "W W")
    assert (s.pile_value, s.pile_count) == (1, 2)


@pytest.mark.parametrize(
    "move,reason",
    [
        ("8 7", "all have one value"),  # two values without a Rank-Up
        ("8 8 7 7 U", "all have one value"),  # a Rank-Up lifts exactly one card
        ("12 3 U", "all have one value"),  # only an x-1 card can be lifted
        ("8 U U", "at most one Rank-Up or Rank-Down"),
        ("8 U D", "at most one Rank-Up or Rank-Down"),
        ("W D", "needs at least one number card"),
    ],
)
def test_malformed_sets_are_refused(move: str, reason: str) -> None:
    # RK-4: at most one modifier; one value, or one x-1 lifted by a Rank-Up
    s = pos(["3 7 7 8 8 12 W U U D", "5", "6"], turn=0)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        s.apply(0, move)
    assert s.to_json() == before


def test_card_order_in_notation_is_canonical_and_value_is_not_declared() -> None:
    # RK-4: the notation lists the cards; `8 8 7 U` is three 8s
    assert str(G.parse_action("U 7 8 8")) == "8 8 7 U"
    assert str(G.parse_action("rank-up 7 wild 8")) == "8 7 W U"
    s = pos(["8 8 7 U", "9", "6"], turn=0)
    play(s, "7 U 8 8")
    assert (s.pile_value, s.pile_count) == (8, 3)


@pytest.mark.parametrize(
    "pile_value,move,value",
    [
        (7, "W", 8),  # a Wild alone is one above the pile
        (11, "W", 12),
        (11, "W U", 13),  # Wild + Rank-Up reaches 13
        (10, "W U", 12),
        (7, "8", 8),
        (7, "7 U", 8),
        (12, "12 U", 13),
    ],
)
def test_following_a_single(pile_value: int, move: str, value: int) -> None:
    # RK-4 / RK-5
    s = pos(["5", "W U 7 8 12", "3"], turn=1, pile=["5"], top=["5"], pile_value=pile_value, pile_count=1, owner=0)
    assert move in legal(s)
    play(s, move)
    assert (s.pile_value, s.pile_count, s.owner) == (value, 1, 1)


def test_wilds_alone_never_go_above_12_but_a_rank_up_makes_13() -> None:
    # RK-4: a Wild on its own is never above 12; "unless played with a Rank-Up card":
    # W U on a single 12 is a 13, and W W U on a pair of 12s is two 13s
    s = pos(["5", "W W U 3", "3"], turn=1, pile=["12"], pile_value=12, pile_count=1, owner=0)
    assert legal(s) == {"W U", "pass"}
    with pytest.raises(IllegalActionError, match="no higher than 12"):
        s.apply(1, "W")
    play(s, "W U")
    assert (s.pile_value, s.pile_count, s.owner) == (13, 1, 1)
    s = pos(["5", "W W U 3", "3"], turn=1, pile=["12", "12"], pile_value=12, pile_count=2, owner=0)
    assert legal(s) == {"W W U", "pass"}
    play(s, "W W U")
    assert (s.pile_value, s.pile_count, s.owner) == (13, 2, 1)


def test_wild_with_rank_up_on_an_11_is_13_and_nothing_plain_follows_13() -> None:
    # RK-4: W U on an 11 is a 13 (the Wild is a 12, lifted); then no set follows a 13 but a Rank-Down set
    s = pos(["5", "W U 3", "12 U W"], turn=1, pile=["11"], pile_value=11, pile_count=1, owner=0)
    play(s, "W U")
    assert s.pile_value == 13
    assert legal(s) == {"pass"}  # seat 2 holds 12, U and W: nothing beats a 13
    with pytest.raises(IllegalActionError, match="13 is the highest"):
        s.apply(2, "W U")


def test_two_wilds_follow_two_twos_as_two_threes() -> None:
    # RK-4 (rulebook example): on two #2s, two Wilds are two #3s, or one Wild and a #3
    s = pos(["5", "W W 3", "9"], turn=1, pile=["2", "2"], pile_value=2, pile_count=2, owner=0)
    assert {"W W", "3 W"} <= legal(s)
    play(s, "W W")
    assert (s.pile_value, s.pile_count) == (3, 2)
    s = pos(["5", "W W 3", "9"], turn=1, pile=["2", "2"], pile_value=2, pile_count=2, owner=0)
    play(s, "3 W")
    assert (s.pile_value, s.pile_count) == (3, 2)


def test_lifted_set_follows_a_triple() -> None:
    # RK-4 (rulebook example): two #8 and a #7 with a Rank-Up are three #8s
    s = pos(["5", "8 8 7 U", "9"], turn=1, pile=["7", "7", "7"], pile_value=7, pile_count=3, owner=0)
    assert legal(s) == {"8 8 7 U", "pass"}
    play(s, "8 8 7 U")
    assert (s.pile_value, s.pile_count, s.owner) == (8, 3, 1)


def test_every_following_play_is_listed_exactly() -> None:
    # RK-4 / RK-5: the complete list for a pile of two 7s
    s = pos(["5", "7 8 9 9 W U D", "9"], turn=1, pile=["7", "7"], pile_value=7, pile_count=2, owner=0)
    assert legal(s) == {
        "pass",
        "8 W",
        "9 9",
        "9 W",  # plain sets above 7
        "7 W U",
        "8 W U",
        "9 9 U",
        "9 W U",  # with a Rank-Up on the whole set
        "8 7 U",
        "9 8 U",  # with one lower card lifted by the Rank-Up
        "7 W D",
        "8 W D",
        "9 9 D",
        "9 W D",  # Rank-Down: same count, any value
    }


# -- RK-5 Beating -------------------------------------------------------------------------------


def test_same_count_and_higher_value_needed() -> None:
    # RK-5 (rulebook example): two #6s are beaten by two 7s or two 10s, not a 12 or three 8s
    s = pos(["5", "7 7 8 8 8 10 10 12", "9"], turn=1, pile=["6", "6"], pile_value=6, pile_count=2, owner=0)
    acts = legal(s)
    assert {"7 7", "8 8", "10 10"} <= acts
    assert not {"12", "8 8 8", "7"} & acts
    with pytest.raises(IllegalActionError, match="needs 2 cards"):
        s.apply(1, "12")
    with pytest.raises(IllegalActionError, match="needs 2 cards"):
        s.apply(1, "8 8 8")
    play(s, "8 8")  # and keeps the third 8
    assert hand(s, 1) == "7 7 8 10 10 12"


def test_equal_value_does_not_beat() -> None:
    # RK-5: a higher value is needed
    s = pos(["5", "7 6", "9"], turn=1, pile=["7"], pile_value=7, pile_count=1, owner=0)
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError, match="a value of 7 does not beat the pile's 7"):
        s.apply(1, "7")


def test_rank_down_sets_the_pile_to_its_value() -> None:
    # RK-5 (rulebook example): on a single 12, a Rank-Down with a #3 makes the pile 3
    s = pos(["5", "3 D 4", "9"], turn=1, pile=["12"], pile_value=12, pile_count=1, owner=0)
    assert legal(s) == {"3 D", "4 D", "pass"}
    play(s, "3 D")
    assert (s.pile_value, s.pile_count, s.owner, mover(s)) == (3, 1, 1, 2)


def test_rank_down_needs_the_pile_count_but_only_one_rank_down() -> None:
    # RK-5: doubles need doubles with one Rank-Down
    s = pos(["5", "3 3 D 4", "9"], turn=1, pile=["10", "10"], pile_value=10, pile_count=2, owner=0)
    assert legal(s) == {"3 3 D", "pass"}
    with pytest.raises(IllegalActionError, match="needs 2 cards"):
        s.apply(1, "3 D")
    play(s, "3 3 D")
    assert (s.pile_value, s.pile_count) == (3, 2)


def test_rank_down_may_also_raise_the_value() -> None:
    # RK-5: a Rank-Down set needs only the same count, at any value
    s = pos(["5", "9 D", "9"], turn=1, pile=["5"], pile_value=5, pile_count=1, owner=0)
    play(s, "9 D")
    assert s.pile_value == 9


def test_rank_down_needs_a_number_card() -> None:
    # RK-5: a Rank-Down set has at least one number card
    s = pos(["5", "W D 4", "9"], turn=1, pile=["12"], pile_value=12, pile_count=1, owner=0)
    assert "W D" not in legal(s)
    with pytest.raises(IllegalActionError, match="needs at least one number card"):
        s.apply(1, "W D")


def test_a_crown_beats_a_multi_card_pile_of_13s() -> None:
    # RK-5 / RK-6: a single Crown beats anything, even three 13s
    s = pos(["5", "C C2 4", "9"], turn=1, pile=["12", "12", "12", "U"], pile_value=13, pile_count=3, owner=0)
    assert legal(s) == {"C", "C2", "pass"}


# -- RK-6 Crowns -----------------------------------------------------------------------------------


def test_crown_wins_the_round_at_once() -> None:
    # RK-6: the pile is cleared and the Crown's player leads; passes are forgotten
    s = pos(
        ["5 6", "C 4", "9 10", "3 3"],
        turn=1,
        pile=["8"],
        pile_value=8,
        pile_count=1,
        owner=0,
        passed=[False, False, False, True],
    )
    before = Counter(s.card_places()["discard"])
    play(s, "C")
    assert (s.pile_count, s.pile_value, s.owner, mover(s)) == (0, 0, -1, 1)
    assert s.passed == [False] * 4
    assert Counter(s.card_places()["discard"]) - before == Counter({"8": 1, "C": 1})
    assert s.card_places()["pile"] == []
    assert "pass" not in legal(s)  # the Crown's player now leads


def test_a_crown_is_played_alone() -> None:
    # RK-6
    s = pos(["C 5 5", "4", "9"], turn=0)
    for move in ("C 5", "C 5 5"):
        with pytest.raises(IllegalActionError, match="Crown is always played alone"):
            s.apply(0, move)
    assert "C" in legal(s)  # a Crown may also lead


def test_crown_draw_2_draws_two_from_the_top() -> None:
    # RK-6: Crown + Draw 2 then draws two cards (draw pile listed top card first)
    s = pos(["5", "C2 4", "9"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0, draw_pile=["3", "11", "1"])
    play(s, "C2")
    assert hand(s, 1) == "3 4 11"
    assert s.card_places()["draw_pile"] == ["1"]
    assert (mover(s), s.pile_count) == (1, 0)


def test_crown_draw_2_draws_fewer_if_fewer_are_left() -> None:
    # RK-6: fewer than two if the draw pile holds fewer
    s = pos(["5", "C2 4", "9"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0, draw_pile=["11"])
    play(s, "C2")
    assert hand(s, 1) == "4 11" and s.card_places()["draw_pile"] == []


def test_crown_draw_2_as_last_card_does_not_take_you_out_while_cards_remain() -> None:
    # RK-6 (publisher FAQ): you must draw and play the new cards to go out
    s = pos(["5", "C2", "9"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0, draw_pile=["11"])
    play(s, "C2")
    assert hand(s, 1) == "11" and s.finished == [] and mover(s) == 1


def test_crown_draw_2_as_last_card_with_empty_draw_pile_takes_you_out() -> None:
    # RK-6 / RK-9: out; the next holder to the left leads
    s = pos(["5", "C2", "9 4", "7"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0)
    play(s, "C2")
    assert s.finished == [1] and mover(s) == 2 and s.pile_count == 0


def test_plain_crown_as_last_card_takes_you_out() -> None:
    # RK-6 / RK-9
    s = pos(["5", "C", "", "7 6"], turn=1, finished=[2], pile=["8"], pile_value=8, pile_count=1, owner=0)
    play(s, "C")
    assert s.finished == [2, 1] and mover(s) == 3


# -- RK-7 Lone Rank-Up / Rank-Down -------------------------------------------------------------------


def test_lone_rank_up_raises_the_pile_and_takes_the_player_out_of_the_round() -> None:
    # RK-7: value +1, count and owner unchanged, player out of the round as if passed
    s = pos(["5", "U D", "9 9 9", "4"], turn=1, pile=["7", "7"], pile_value=7, pile_count=2, owner=0)
    assert legal(s) == {"U", "D", "pass"}
    play(s, "U")
    assert (s.pile_value, s.pile_count, s.owner) == (8, 2, 0)
    assert s.passed[1] and mover(s) == 2 and hand(s, 1) == "D"
    play(s, "pass", "pass")  # seats 2 and 3; seat 1 is not asked again
    assert (mover(s), s.pile_count) == (0, 0)  # the owner leads the next round


def test_lone_rank_down_lowers_the_pile() -> None:
    # RK-7: value -1
    s = pos(["5", "D", "9 9 9", "4"], turn=1, pile=["7"], pile_value=7, pile_count=1, owner=0)
    play(s, "D")
    assert (s.pile_value, s.owner) == (6, 0) and s.finished == [1]  # the last card: out of the hand


def test_lone_modifier_stays_within_1_to_13() -> None:
    # RK-7: a move outside 1-13 is not legal
    s = pos(["5", "U D", "9"], turn=1, pile=["12", "U"], pile_value=13, pile_count=1, owner=0)
    assert legal(s) == {"D", "pass"}
    with pytest.raises(IllegalActionError, match="within 1-13"):
        s.apply(1, "U")
    s = pos(["5", "U D", "9"], turn=1, pile=["W"], pile_value=1, pile_count=1, owner=0)
    assert legal(s) == {"U", "pass"}


def test_lone_modifier_only_when_the_hand_is_all_modifiers() -> None:
    # RK-7 (000: "This will not keep a player in the round if they ... still has other cards")
    s = pos(["5", "U 3", "9"], turn=1, pile=["7"], pile_value=7, pile_count=1, owner=0)
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError, match="hand holds nothing else"):
        s.apply(1, "U")


def test_lone_modifiers_one_per_play() -> None:
    # RK-7: only one per play
    s = pos(["5", "U U D", "9"], turn=1, pile=["7"], pile_value=7, pile_count=1, owner=0)
    with pytest.raises(IllegalActionError, match="at most one"):
        s.apply(1, "U U")


def test_lone_modifier_lead_is_shed_and_the_next_player_leads() -> None:
    # RK-7: leading, the card is shed with no effect; the next holder to the left leads
    s = pos(["U", "4 5", "9", "3"], turn=0)
    assert legal(s) == {"U"}
    play(s, "U")
    assert s.finished == [0] and mover(s) == 1
    assert (s.pile_count, s.pile_value) == (0, 0)
    assert "pass" not in legal(s)  # seat 1 leads


def test_lone_modifier_lead_keeps_the_player_out_of_the_round() -> None:
    # RK-7: as if passed, for the rest of the round
    s = pos(["U D", "4 5", "9 8", "3"], turn=0)
    play(s, "D")
    assert s.passed[0] and mover(s) == 1 and hand(s, 0) == "U"
    play(s, "4", "8", "pass")  # seats 1, 2, 3; seat 0 is skipped
    assert mover(s) == 1
    play(s, "pass")  # seat 1 passes; seat 2 owns the pile and nobody else may play
    assert (mover(s), s.pile_count, s.passed) == (2, 0, [False] * 4)


def test_everyone_shedding_on_a_lead_starts_a_fresh_round() -> None:
    # RK-7 / RK-9: if every holder sheds, a new round starts; the last shedder's left neighbour leads
    s = pos(["U D", "U D", "U D"], turn=0)
    play(s, "U", "U", "U")
    assert mover(s) == 0 and s.passed == [False] * 3 and s.pile_count == 0
    assert legal(s) == {"D"}


# -- RK-8 Passing -----------------------------------------------------------------------------------


def test_passed_player_cannot_return_after_a_rank_down() -> None:
    # RK-8: even after a Rank-Down makes a play possible again
    s = pos(["12", "6 2", "3 D 5"], turn=1, pile=["11"], pile_value=11, pile_count=1, owner=0)
    play(s, "pass", "3 D")
    assert mover(s) == 0  # seat 1 (who could now beat 3 with a 6) is skipped
    play(s, "pass")
    assert (mover(s), s.pile_count) == (2, 0)  # round over: seat 2 leads


def test_leader_cannot_pass() -> None:
    # RK-8
    s = pos(["5", "6", "7"], turn=0)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="leader must play"):
        s.apply(0, "pass")
    assert s.to_json() == before


def test_anyone_else_may_pass_even_when_able_to_beat() -> None:
    # RK-8: passing is always allowed
    s = pos(["5", "12", "7"], turn=1, pile=["5"], pile_value=5, pile_count=1, owner=0)
    assert "pass" in legal(s)


# -- RK-9 End of a round ------------------------------------------------------------------------------


def test_round_ends_when_all_others_pass_and_the_owner_leads() -> None:
    # RK-9
    s = pos(["5 4", "6 3", "7 2", "8 1"], turn=0)
    before = Counter(s.card_places()["discard"])
    play(s, "5", "6", "pass", "pass", "pass")
    assert (mover(s), s.pile_count, s.passed) == (1, 0, [False] * 4)
    assert Counter(s.card_places()["discard"]) - before == Counter({"5": 1, "6": 1})


def test_round_does_not_end_while_a_player_has_not_passed() -> None:
    # RK-9: passes count only once every other holder has passed
    s = pos(["5 4", "6 3", "7 2"], turn=0)
    play(s, "5", "pass")
    assert mover(s) == 2 and s.pile_count == 1


def test_owner_out_next_holder_to_the_left_leads() -> None:
    # RK-9 (publisher FAQ): the owner has gone out: the next holder to the owner's left leads
    s = pos(["5 5", "", "6 3", "8 1"], turn=0, finished=[1], pile=["4", "4"], pile_value=4, pile_count=2, owner=3)
    play(s, "5 5")
    assert s.finished == [1, 0] and mover(s) == 2
    play(s, "pass", "pass")
    assert (mover(s), s.pile_count) == (2, 0)


def test_owner_out_with_everyone_else_passed() -> None:
    # RK-9: the owner went out and everyone else had already passed
    s = pos(
        ["9", "3 3", "4 4", "8 1"],
        turn=0,
        pile=["6"],
        pile_value=6,
        pile_count=1,
        owner=3,
        passed=[False, True, True, False],
    )
    play(s, "9")
    assert s.finished == [0] and mover(s) == 3  # seat 3 must still answer the 9
    play(s, "pass")
    assert (mover(s), s.pile_count) == (1, 0)


def test_a_position_naming_no_seat_to_play_gives_the_turn_to_the_owners_left() -> None:
    # RK-9: the first holder to the left of the pile's owner who has not passed answers the pile
    s = pos(["5", "9 9", "10 3", "4"], pile=["8"], pile_value=8, pile_count=1, owner=1, passed=[False] * 4)
    assert mover(s) == 2
    play(s, "pass", "pass", "pass")  # seats 2, 3 and 0
    assert (mover(s), s.pile_count, s.owner) == (1, 0, -1)  # the owner leads


def test_the_turn_never_passes_to_the_owner_of_the_pile() -> None:
    # RK-9: a written position where seat 0 answers seat 1's 8 though seat 2 has not passed: when seat 0
    # passes, the turn goes on to seat 2, never back to the owner (who could neither pass nor play)
    s = pos(["5", "9 9", "10 3", "4"], turn=0, pile=["8"], pile_value=8, pile_count=1, owner=1)
    play(s, "pass")
    assert mover(s) == 2 and legal(s) == {"10", "pass"}
    play(s, "pass", "pass")  # seats 2 and 3
    assert (mover(s), s.pile_count) == (1, 0)


# -- More rulebook sentences -----------------------------------------------------------------------


def test_leader_may_play_all_seven_of_a_kind_and_more_with_wilds() -> None:
    # RK-5 (FAQ: no limit to the number of cards; all seven may be led)
    s = pos(["8 8 8 8 8 8 8 W", "9", "3"], turn=0)
    assert {"8 8 8 8 8 8 8", "8 8 8 8 8 8 8 W"} <= legal(s)
    play(s, "8 8 8 8 8 8 8 W")
    assert (s.pile_count, s.pile_value) == (8, 8) and s.finished == [0]


def test_a_round_goes_around_the_table_as_often_as_needed() -> None:
    # RK-9: the round continues as many times around the table as necessary
    s = pos(["3 5 7 9 1", "4 6 8 10 2", "1 2"], turn=0)
    play(s, "3", "4", "pass", "5", "6", "7", "8", "9", "10")
    assert (mover(s), s.pile_value, s.owner) == (0, 10, 1)
    assert s.round_log[2] == (2, "pass")


def test_nothing_but_a_crown_or_rank_down_beats_13() -> None:
    # RK-4 / RK-5: 13 is the highest value
    s = pos(["5", "12 12 W U D C 5", "3"], turn=1, pile=["12", "U"], pile_value=13, pile_count=1, owner=0)
    assert legal(s) == {"C", "12 D", "5 D", "pass"}


def test_a_position_survives_json_and_checks_its_invariants() -> None:
    # RK-1 (cards add up) and the engine's own consistency checks
    s = pos(["5 6", "7", "8 9"], turn=1, pile=["4"], pile_value=4, pile_count=1, owner=0)
    assert s.invariants() == []
    assert G.state_from_json(s.to_json()).to_json() == s.to_json()
    s.sizes[1] = 3
    s.passed[1] = True
    assert len(s.invariants()) == 2


def test_lone_modifier_out_of_the_hand_while_the_owner_is_out() -> None:
    # RK-7 / RK-9: seat 2 sheds its last card on seat 0's pile; seat 0 is out, so seat 1 leads next
    s = pos(
        ["", "4 4", "D", "6 6"],
        turn=2,
        finished=[0],
        pile=["9"],
        pile_value=9,
        pile_count=1,
        owner=0,
        passed=[False, True, False, False],
    )
    play(s, "D")
    assert s.finished == [0, 2] and s.pile_value == 8 and mover(s) == 3
    play(s, "pass")
    assert (mover(s), s.pile_count, s.passed) == (1, 0, [False] * 4)
