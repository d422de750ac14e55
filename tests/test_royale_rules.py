"""Rank Royale rules from explicit positions (rulings RR-1 to RR-6)."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest

from courtcards.core.errors import IllegalActionError, NotationError, NotYourTurnError, OptionError, PositionError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.games.royale.cards import TEXT, parse_card, rank, tier
from courtcards.games.royale.state import RoyaleState

GAME = get_game("royale")

# Six-card hands with every tier; seat 1's cards never share a rank with seat 0's unless a test wants it.
H0 = ["AS", "3S", "7S", "9S", "QS", "KS"]
H1 = ["2H", "4H", "5H", "8H", "JH", "KH"]


def position(hands: list[list[str]], decks: list[list[str]] | None = None, **extra: Any) -> RoyaleState:
    data: dict[str, Any] = {"game": "royale", "hands": hands, **extra}
    if decks is not None:
        data["decks"] = decks
    state = GAME.state_from_json(data)
    assert isinstance(state, RoyaleState)
    return state


def play(state: RoyaleState, c0: str, c1: str) -> None:
    state.apply(0, c0)
    state.apply(1, c1)


def hand(state: RoyaleState, seat: int) -> list[str]:
    return state.view(seat)["hand"]  # type: ignore[no-any-return]


# -- RR-1: cards and tiers --------------------------------------------------------


def test_notation_round_trips_for_all_52_cards() -> None:
    for code in range(52):
        assert parse_card(TEXT[code]) == code
    aliases = ("as", "1s", "td", "10d", "kc", "Q♥")
    assert [TEXT[parse_card(t)] for t in aliases] == ["AS", "AS", "10D", "10D", "KC", "QH"]


def test_tiers_and_ace_is_one() -> None:  # RR-1
    assert [rank(parse_card(t)) for t in ("AS", "4C", "10H", "JD", "KS")] == [1, 4, 10, 11, 13]
    assert [tier(parse_card(t)) for t in ("AS", "4C", "5C", "10H", "JD", "KS")] == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("text", ["", "X", "11S", "ZS", "7X", "7H 8H", "discard", "discard 3C 3C"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


def test_action_notation() -> None:
    assert GAME.parse_action("play 10h").text == "10H"
    assert GAME.parse_action("discard KS, 3c").text == "discard 3C KS"


# -- RR-4: tier wins, both ways for every pair ---------------------------------------

TIER_PAIRS = [
    ("3S", "KH", 0, 4),  # Low beats High: the loser discards 4 (RR-2 default)
    ("KS", "4H", 1, 4),
    ("7S", "2H", 0, 3),  # Middle beats Low: 3
    ("AS", "5H", 1, 3),
    ("QS", "8H", 0, 2),  # High beats Middle: 2
    ("9S", "JH", 1, 2),
]


@pytest.mark.parametrize(("c0", "c1", "winner", "k"), TIER_PAIRS)
def test_tier_win_loser_chooses_discards(c0: str, c1: str, winner: int, k: int) -> None:  # RR-1, RR-2, RR-4
    state = position([H0, H1])
    play(state, c0, c1)
    loser = 1 - winner
    assert state.phase == "discard"
    assert state.to_move() == (loser,)
    assert state.view(None)["owed"] == {"seat": loser, "count": k}
    assert state.legal_actions(winner) == []
    loser_hand = hand(state, loser)
    assert len(loser_hand) == 5
    legal = state.legal_actions(loser)
    assert len(legal) == len(list(combinations(loser_hand, k)))
    chosen = loser_hand[:k]
    state.apply(loser, "discard " + " ".join(chosen))
    assert state.phase == "play"
    assert len(hand(state, loser)) == 5 - k + 1  # then each draws one (RR-5)
    assert len(hand(state, winner)) == 6
    played = c0 if loser == 0 else c1
    assert state.view(None)["players"][loser]["discard"] == [*reversed(chosen), played]  # top card first
    assert state.rounds_log[-1]["outcome"] == "tier" and state.rounds_log[-1]["discarded"] == chosen


def test_discard_must_be_exact_count_and_held_cards() -> None:  # RR-4
    state = position([H0, H1])
    play(state, "7S", "2H")
    with pytest.raises(IllegalActionError, match="exactly 3"):
        state.apply(1, "discard 4H 5H")
    with pytest.raises(IllegalActionError, match="do not hold"):
        state.apply(1, "discard 4H 5H 7S")
    with pytest.raises(NotYourTurnError):
        state.apply(0, "discard 9S QS KS")
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        state.apply(1, "4H")
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_discard_table_option() -> None:  # RR-2
    state = position([H0, H1], options={"discards": "5,1,2"})
    play(state, "3S", "KH")  # seat 1 holds 5 and owes 5: the whole hand goes, no decision
    assert state.rounds_log[-1]["discard"] == 5 and len(state.rounds_log[-1]["discarded"]) == 5
    assert len(hand(state, 1)) == 1
    state = position([H0, H1], options={"discards": "5 1 2"})
    play(state, "7S", "2H")
    assert state.view(None)["owed"] == {"seat": 1, "count": 1}
    assert state.view(None)["discard_table"] == {"low": 5, "middle": 1, "high": 2}
    assert GAME.new_game(2, {"discards": [3, 3, 3]}).options["discards"] == "3,3,3"
    with pytest.raises(OptionError, match="low,middle,high"):
        GAME.new_game(2, {"discards": "4,3"})
    with pytest.raises(OptionError):
        GAME.new_game(2, {"discards": "7,3,2"})


# -- RR-4: the loss boundary -----------------------------------------------------------


def test_discarding_exactly_the_whole_hand_is_fine() -> None:  # RR-4
    state = position([H0, ["2H", "4H", "5H", "8H"]], decks=[["2S"], ["10C"]])
    play(state, "7S", "2H")  # Middle beats Low: seat 1 holds exactly 3 and owes 3
    assert state.rounds_log[-1]["discarded"] == ["4H", "5H", "8H"]  # no choice left: the whole hand goes
    assert state.phase == "play" and not state.is_over()
    assert hand(state, 1) == ["10C"]  # 0 cards, then the draw (RR-4 note)
    assert state.view(None)["players"][1]["discard"][:4] == ["8H", "5H", "4H", "2H"]  # top card first


def test_one_card_short_loses_at_once() -> None:  # RR-4
    state = position([H0, ["2H", "5H", "8H"]])
    play(state, "7S", "2H")  # holds 2, owes 3
    assert state.is_over()
    res = state.result()
    assert res is not None and res.winner == 0 and res.ranking == (0, 1)
    assert res.details["reason"] == "could_not_discard"
    assert state.rounds_log[-1]["lost"] is True
    assert hand(state, 1) == ["5H", "8H"]  # no discards, no draw
    assert state.to_move() == () and state.legal_actions(1) == []


def test_low_win_with_four_discards_at_boundary() -> None:  # RR-2, RR-4
    ok = position([["KS", "QS", "JS", "10S", "9S"], H1])
    play(ok, "KS", "4H")  # seat 0 keeps 4 and owes 4: fine
    assert not ok.is_over() and len(hand(ok, 0)) == 1
    lost = position([["KS", "QS", "JS", "10S"], H1])
    play(lost, "KS", "4H")  # keeps 3, owes 4
    assert lost.is_over() and lost.winner == 1


# -- RR-4: same tier, ties -------------------------------------------------------------


@pytest.mark.parametrize(
    ("c0", "c1", "winner"),
    [("9S", "5H", 0), ("7S", "8H", 1), ("KS", "JH", 0), ("QS", "KH", 1), ("3S", "2H", 0), ("AS", "4H", 1)],
)
def test_same_tier_higher_rank_draws(c0: str, c1: str, winner: int) -> None:  # RR-1, RR-4
    state = position([H0, H1], decks=[["2D", "3D"], ["6C", "7C"]])
    play(state, c0, c1)
    assert state.rounds_log[-1]["outcome"] == "rank" and state.rounds_log[-1]["winner"] == winner
    assert state.phase == "play"
    assert len(hand(state, winner)) == 7  # 5 + the win draw + the round draw
    assert len(hand(state, 1 - winner)) == 6
    assert state.view(None)["players"][winner]["deck_size"] == 0
    assert state.view(None)["players"][1 - winner]["deck_size"] == 1


def test_same_rank_is_a_tie() -> None:  # RR-4
    state = position([H0, ["KH", "7H", "3H", "AH", "5H", "9H"]], decks=[["2D"], ["6C"]])
    play(state, "KS", "KH")
    assert state.rounds_log[-1]["outcome"] == "tie" and state.rounds_log[-1]["winner"] is None
    assert hand(state, 0) == ["AS", "2D", "3S", "7S", "9S", "QS"]
    assert hand(state, 1) == ["AH", "3H", "5H", "6C", "7H", "9H"]


# -- RR-5: drawing and the reshuffle -------------------------------------------------------


def test_empty_deck_is_rebuilt_from_own_discard_pile() -> None:  # RR-5
    rest0 = [t for t in TEXT if t not in H0]
    rest1 = [t for t in TEXT if t not in H1 and t != "10C"]
    state = position([H0, H1], decks=[[], ["10C"]], discard=[rest0, rest1])
    assert state.view(None)["players"][0]["deck_size"] == 0
    play(state, "9S", "8H")  # rank win for seat 0: it draws twice from an empty deck
    v = state.view(None)
    assert v["players"][0]["reshuffles"] == 1 and v["players"][1]["reshuffles"] == 0
    # seat 0's pile (the 46 cards plus the 9S just played) became its deck; it drew two
    assert v["players"][0]["discard"] == []
    assert v["players"][0]["deck_size"] == 47 - 2
    assert len(hand(state, 0)) == 7
    assert v["players"][1]["deck_size"] == 0 and "10C" in hand(state, 1)
    assert state.invariants() == []
    play(state, "KS", "KH")  # seat 1's deck is empty now: its pile is reshuffled for the next draw
    assert state.view(None)["players"][1]["reshuffles"] == 1
    assert state.view(None)["players"][1]["deck_size"] == 45 + 2 - 1  # 45 + 8H + KH, one drawn
    assert state.invariants() == []


def test_explicit_decks_put_the_rest_in_the_discard_pile() -> None:
    state = position([H0, H1], decks=[["2D"], ["6C"]])
    assert len(state.view(None)["players"][0]["discard"]) == 52 - 6 - 1
    assert state.invariants() == []


# -- RR-6: the round limit ----------------------------------------------------------------


def test_round_limit_ends_in_a_draw() -> None:  # RR-6
    state = position([H0, H1], options={"max_rounds": 2})
    play(state, "KS", "KH")
    assert not state.is_over()
    play(state, "7S", "8H")
    assert state.is_over()
    res = state.result()
    assert (
        res is not None
        and res.winner is None
        and res.details == {"rounds": 2, "reason": "round_limit", "score": "1 for a win, 0 otherwise"}
    )
    assert GAME.new_game(2).options["max_rounds"] is None


# -- RR-3: the secret choice ----------------------------------------------------------------


def test_committed_card_is_invisible_to_the_other_seat_and_spectators() -> None:  # RR-3
    state = position([H0, H1])
    other = position([H0, H1])
    state.apply(0, "QS")
    other.apply(0, "AS")
    assert state.to_move() == (1,)
    assert state.legal_actions(0) == []
    with pytest.raises(NotYourTurnError, match="already committed"):
        state.apply(0, "KS")
    saved = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    for viewer in (1, None):
        for s in (state, saved):
            view = s.view(viewer)
            text = json.dumps(view)
            assert "QS" not in text
            assert view["pending"] == {"committed": [0]}
            assert view["players"][0]["hand_size"] == 6
            assert json.dumps(other.view(viewer), sort_keys=True) == json.dumps(view, sort_keys=True)
    assert state.view(0)["pending"] == {"committed": [0], "mine": "QS"}
    assert saved.view(0)["pending"] == {"committed": [0], "mine": "QS"}
    saved.apply(1, "JH")  # the reveal: both cards together
    assert saved.rounds_log[-1]["cards"] == ["QS", "JH"]
    assert "QS" in json.dumps(saved.view(1))


def test_second_commit_first_is_also_hidden() -> None:  # RR-3
    state = position([H0, H1])
    state.apply(1, "JH")
    assert state.to_move() == (0,)
    assert "JH" not in json.dumps(state.view(0)) and "JH" not in json.dumps(state.view(None))


# -- positions, records -------------------------------------------------------------------------


def test_bad_positions_are_refused() -> None:
    with pytest.raises(PositionError, match="hands"):
        GAME.state_from_json({"game": "royale"})
    with pytest.raises(PositionError, match="listed twice"):
        GAME.state_from_json({"hands": [["AS", "AS"], H1]})
    with pytest.raises(PositionError, match="in no place"):
        GAME.state_from_json({"hands": [H0, H1], "decks": [[], []], "discard": [[], []]})
    with pytest.raises(PositionError, match="pending"):
        GAME.state_from_json({"hands": [H0, H1], "pending": {"0": "2H"}})
    with pytest.raises(PositionError, match="owe"):
        GAME.state_from_json({"hands": [H0, H1], "phase": "discard", "owed": {"seat": 1, "count": 7}})


def test_record_from_a_position_replays() -> None:
    state = position([H0, H1], seed=7)
    play(state, "7S", "2H")
    state.apply(1, "discard 4H 5H 8H")
    play(state, "KS", "JH")
    record = GameRecord.from_json(json.loads(json.dumps(state.record().to_json())))
    assert record.start is not None
    assert record.replay().to_json() == state.to_json()


def test_new_game_deals_six_each_from_own_deck() -> None:
    state = GAME.new_game(2, seed=3)
    v = state.view(None)
    assert [p["hand_size"] for p in v["players"]] == [6, 6]
    assert [p["deck_size"] for p in v["players"]] == [46, 46]
    assert state.to_move() == (0, 1)
    assert state.invariants() == []
    assert GAME.new_game(2, seed=3).to_json() == state.to_json()
