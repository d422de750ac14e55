"""Royals' views speak the shared words, and the engine words every event once (rulings RY-1 to RY-8)."""

from __future__ import annotations

from typing import Any

from courtcards.core.game import get_game
from courtcards.core.views import RETIRED_WORDS, vocabulary_problems
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def texts(state: RoyalsState, seat: int | None = None) -> list[str]:
    return [e["text"] for e in state.view(seat)["log"]]


def new(state: RoyalsState, before: int, seat: int | None = None) -> list[str]:
    """The sentences logged since the log had ``before`` events (an action makes one event, its
    sentences joined by "; ")."""
    return [part for e in state.view(seat)["log"] if e["n"] > before for part in e["text"].split("; ")]


def test_one_event_per_action() -> None:
    state = G.new_game(4, seed=8)
    for k in range(300):
        if state.is_over():
            break
        n = state.events.n
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[k % len(legal)])
        assert state.events.n == n + 1
        assert state.view(None)["log"][-1]["seat"] == seat  # the event of the seat that acted


def test_the_view_uses_the_shared_words() -> None:
    state = G.new_game(4, seed=5)
    for seat in (None, 0, 3):
        view = state.view(seat)
        assert vocabulary_problems(view) == []
        assert view["round"] == 1 and view["turn"] == state.turn
        for p in view["players"]:
            assert {"seat", "hand_size", "deck_size", "discard", "score"} <= set(p)
            assert not set(p) & RETIRED_WORDS
    assert state.view(None)["hand"] == []  # a spectator holds no cards
    assert state.view(2)["hand"] == [c for c in state.card_places()["hand:2"]]
    assert "turn_number" not in state.view(0) and "log" not in state.to_json()  # the core saves 'events'


def test_the_deal_and_the_first_player_are_logged_each_seat_seeing_its_own_cards() -> None:
    state = G.new_game(3, seed=9)
    public = texts(state)
    assert public[0] == "Each seat shuffles its deck and draws 6 cards"  # RY-1: hand limit 2 x players
    assert public[1].startswith("Bottom cards: seat 0 ") and public[1].endswith(f"seat {state.first_player} goes first")
    assert public[2] == f"Turn 1: seat {state.first_player} draws no card"
    for seat in range(3):
        mine = texts(state, seat)[0]
        assert mine.startswith(public[0] + f"; seat {seat} draws ")
        assert sorted(mine.split("draws ")[-1].split()) == sorted(state.card_places()[f"hand:{seat}"])


def test_a_draw_names_its_cards_to_the_drawer_only() -> None:
    # RY-2: draw up to the hand limit at the start of the turn; the cards drawn are the drawer's secret
    state = pos(["AC 2C", "", ""], decks=[["5C", "4C", "3C", "KD", "9H"], [], []], phase="start")
    assert new(state, 0, 0) == ["Turn 1: seat 0 draws 4 cards: 5C 4C 3C KD"]  # top card first
    assert new(state, 0, None) == new(state, 0, 1) == ["Turn 1: seat 0 draws 4 cards"]
    assert all("5C" not in t for s in (None, 1, 2) for t in texts(state, s))


def test_reshuffling_the_discard_pile_is_logged() -> None:
    state = pos(["AC 2C", "", ""], decks=[["5C"], [], []], phase="start")  # the other 49 cards: discard pile
    assert new(state, 0) == [
        "Seat 0 shuffles its discard pile into a new deck (49 cards)",  # RY-2
        "turn 1: seat 0 draws 4 cards",
    ]


def test_playing_a_royal_and_discarding_a_hand_are_logged() -> None:
    state = pos(["QH 7H 2C", "3S 9D", ""])
    n = state.events.n
    state.apply(0, "royal QH 7H")
    assert new(state, n)[0] == "Seat 0 plays the Royal QH 7H (7 points)"  # RY-3
    n, hand = state.events.n, state.view(1)["hand"]  # seat 1 drew up to 6 as its turn began
    assert len(hand) == 6 and "9D" in hand and "3S" in hand
    state.apply(1, "discard hand")
    assert new(state, n)[0] == f"Seat 1 discards its hand: {' '.join(hand)}"  # RY-2, RY-7 (face up on the pile)


def fight_position() -> RoyalsState:
    return pos(["2D 9D", "2S 4S", "5H 6H", ""], royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []])


def test_an_attack_from_declaration_to_losses() -> None:
    state = fight_position()
    state.apply(0, "attack 1")
    # RY-4: what each seat must (the defender: may) commit is public
    assert texts(state)[-1] == "Seat 0 attacks seat 1 (cards to commit: seat 0 1, seat 1 up to 2, seat 2 1)"
    n = state.events.n
    state.apply(0, "commit 9D")
    state.apply(1, "commit none")
    # RY-4: who has committed is public, never what (not even the defender's count) until the reveal
    hidden = "has committed (hidden until the reveal)"
    for viewer in (None, 2, 3):
        assert new(state, n, viewer) == [f"Seat 0 {hidden}", f"Seat 1 {hidden}"]
    assert new(state, n, 0) == ["Seat 0 commits 9D (hidden until the reveal)", f"Seat 1 {hidden}"]
    assert new(state, n, 1) == [f"Seat 0 {hidden}", "Seat 1 commits no card (hidden until the reveal)"]
    assert state.to_json()["events"][-1]["secret"] == {
        "1": {
            "template": "{seat} commits no card (hidden until the reveal)",
            "data": {"seat": 1, "action": "commit none"},
            "text": "Seat 1 commits no card (hidden until the reveal)",
        }
    }
    n = state.events.n
    state.apply(2, "commit 6H")
    assert new(state, n) == [
        "Seat 2 has committed",  # the last to commit: all is revealed at once
        "revealed: seat 0 9D, seat 1 nothing, seat 2 6H (attacks 6 9, blocks none)",  # RY-4: red attacks
        "seat 1 takes 2 hits",
    ]
    n = state.events.n
    state.apply(1, "hit QH")
    state.apply(1, "hit KS")
    # RY-4: the defender spreads the hits; RY-6: QH has no lower heart to take, so it is discarded
    assert new(state, n) == [
        "Seat 1 puts hit 1 of 2 on QH",
        "Seat 1 spreads the hits: QH 1, KS 1",
        "seat 1 discards its Royal QH 7H",
    ]
    n = state.events.n
    state.apply(1, "replace KS 4S")
    lines = new(state, n)
    assert lines[0] == "Seat 1 puts 4S under its Royal KS in place of 9S (9 to 4 points)"  # RY-6
    assert lines[1] == "turn 2: seat 1 draws 7 cards"


def revealed_attack() -> RoyalsState:
    """Seat 0 attacks seat 1 with 9D, seat 2 joins with 5H, seat 1 holds 10S: revealed, to pair."""
    state = pos(["9D", "10S 3S", "5H", ""], royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 9D")
    state.apply(1, "commit 10S")
    state.apply(2, "commit 5H")
    return state


def test_pairing_blocks_with_attacks_is_logged() -> None:
    state = revealed_attack()
    n = state.events.n
    state.apply(1, "block 9 with 10")  # RY-4: one block per attack, equal or higher
    assert new(state, n) == ["Seat 1 blocks the attack of 9 with the 10", "seat 1 takes 1 hit"]


def test_ending_the_pairing_early_is_logged() -> None:
    state = revealed_attack()
    n = state.events.n
    state.apply(1, "done")
    assert new(state, n)[:2] == ["Seat 1 pairs no more blocks", "seat 1 takes 2 hits"]


def test_an_assassination_stopped_by_an_equal_black_card() -> None:
    state = pos(["7H", "7S", ""], royals=[[], ["QH 9H"], []])
    n = state.events.n
    state.apply(0, "assassinate 1 QH")
    state.apply(0, "commit 7H")
    state.apply(1, "commit 7S")
    assert new(state, n)[:6] == [
        "Seat 0 tries to assassinate seat 1's Royal QH (cards to commit: seat 0 1, seat 1 1)",  # RY-5
        "Seat 0 has committed (hidden until the reveal)",
        "Seat 1 has committed",
        "revealed: seat 0 7H, seat 1 7S (attacks 7, blocks 7)",
        "the block of 7 cancels the attack of 7",  # RY-5: a black card of equal value stops the attack
        "seat 1 takes no hits on its Royal QH",
    ]


def test_a_win_and_a_drawn_game_are_logged() -> None:
    won = pos(["", "", ""], royals=[["KH 10H", "QS 9S"], [], []], phase="start")
    # RY-2: a win is checked as the turn begins
    assert won.is_over() and texts(won)[-1] == "Seat 0 begins its turn with 19 points in play (target 17) and wins"
    drawn = pos(["2C", "", ""], options={"max_turns": 1})
    drawn.apply(0, "discard hand")
    assert drawn.is_over() and texts(drawn)[-1].endswith("; 1 turn played: the game is a draw (turn limit)")  # RY-8


def test_a_secret_never_reaches_another_seat_in_random_play() -> None:
    state = G.new_game(4, seed=21)
    steps = 0
    while not state.is_over() and steps < 400:
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[steps % len(state.legal_actions(seat))])
        steps += 1
        # a seat sees more than the public sentence only of its own draws and commitments
        spectator = {e["n"]: e["text"] for e in state.view(None)["log"]}
        for viewer in range(4):
            for e in state.view(viewer)["log"]:
                if e["text"] != spectator[e["n"]]:
                    text = e["text"].lower()
                    assert f"seat {viewer} draws " in text or f"seat {viewer} commits " in text, e
