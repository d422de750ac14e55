"""The Royals greedy bot: decisions from explicit positions, and a small match against random play."""

from __future__ import annotations

from typing import Any

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.game import get_game
from courtcards.games.royals.bots import best_spread, spread_loss
from courtcards.games.royals.cards import parse_card
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def greedy_move(state: RoyalsState, seat: int) -> str:
    return bot_move(make_bot("royals", "greedy", 1), state, seat).text


def test_plays_its_best_royal() -> None:
    state = pos(["QH 7H 10H KS AS 2D", "", ""], royals=[[], ["QC 3C"], []])
    assert greedy_move(state, 0) == "royal QH 10H"  # RY-3


def test_goes_after_a_player_about_to_win_instead_of_building() -> None:
    # seat 1 has 17 = the 3-player target: it wins when its turn begins unless brought down (RY-2)
    state = pos(["QH 7H 10D 2C", "", ""], royals=[[], ["QC 10C", "KS 7S"], []])
    assert greedy_move(state, 0) == "assassinate 1 QC"


def test_assassinates_the_leaders_royal_not_a_lower_seats_of_the_same_face() -> None:
    # seats 1 and 2 both hold a Queen of Clubs (every seat has its own deck): the leader is seat 2
    state = pos(["QH 7H 10D 2C", "", "", ""], royals=[[], ["QC 3C"], ["QC 10C", "KS 7S"], []])
    assert greedy_move(state, 0) == "assassinate 2 QC"


def test_a_tie_for_the_lead_is_broken_by_the_seed_not_the_seat() -> None:
    state = pos(["10D 2C", "", "", ""], royals=[[], ["QC 5C"], ["QS 5S"], []])  # seats 1 and 2 lead with 5
    moves = [bot_move(make_bot("royals", "greedy", k), state, 0).text for k in range(12)]
    assert set(moves) == {"assassinate 1 QC", "assassinate 2 QS"}  # both, as the seeds fall
    assert moves == [bot_move(make_bot("royals", "greedy", k), state, 0).text for k in range(12)]  # reproducible


def test_defender_commits_its_high_black_cards_not_red_ones() -> None:
    state = pos(["9D 8D 2C", "10S 9C 8H 3H", "", ""], royals=[["QC 5C"], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")
    assert greedy_move(state, 1) == "commit 9C 10S"  # red cards would hit its own Royals (RY-4)


def test_attacker_commits_red_cards() -> None:
    state = pos(["9D 8D 2C KH", "10S", "", ""], royals=[["QC 5C", "JC 4C"], ["QH 7H"], [], []])
    state.apply(0, "attack 1")
    assert greedy_move(state, 0) == "commit 8D 9D"


def test_pairs_to_cancel_the_most_attacks() -> None:
    state = pos(["8D 3D", "9C 4S", "", ""], royals=[["QC 5C", "JC 4C"], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 3D 8D")
    state.apply(1, "commit 9C 4S")
    # 9 could cancel 3 or 8; 4 only 3: 3 with 4, then 8 with 9 cancels both
    assert greedy_move(state, 1) == "block 3 with 4"
    state.apply(1, "block 3 with 4")
    assert state.phase == "pair" and greedy_move(state, 1) == "block 8 with 9"


def test_spreads_hits_to_lose_fewest_points() -> None:
    qh, ks = parse_card("QH"), parse_card("KS")
    royals = [(qh, 7), (ks, 2)]
    hand = [parse_card("6H")]
    # two hits: both on KS (lose 2) beats one each (lose 1 + 2) and both on QH (lose 7, 6H too high)
    assert spread_loss(royals, {ks: 2}, hand) == (2, 1)
    assert best_spread(royals, [], 2, [qh, ks], hand) == {ks: 2}
    state = pos(["8D 9D", "6H", "", ""], royals=[["QC 5C", "JC 4C"], ["QH 7H", "KS 2S"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D 9D")
    state.apply(1, "commit none")
    assert greedy_move(state, 1) == "hit KS"


def test_replaces_with_the_highest_allowed_card() -> None:
    state = pos(["8D", "5H 3H 2S", "", ""], royals=[[], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit none")
    state.apply(1, "hit QH")
    assert greedy_move(state, 1) == "replace QH 5H"  # RY-6: 7 - 1 allows up to 6


def test_greedy_beats_random_play() -> None:
    wins = 0
    games = 24
    for i in range(games):
        state = G.new_game(4, seed=900 + i)
        greedy_seat = i % 4
        bots = [make_bot("royals", "greedy" if s == greedy_seat else "random", 50 + i * 4 + s) for s in range(4)]
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, bot_move(bots[seat], state, seat))
        wins += state.winner == greedy_seat
    assert wins >= games * 3 // 4  # an even match would give a quarter
