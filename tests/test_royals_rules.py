"""Royals rules from explicit positions (rulebook 002, rulings RY-1..RY-8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from courtcards.core.errors import IllegalActionError, NotationError, NotYourTurnError, OptionError, PositionError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.games.royals.cards import DECK, TEXT, rank
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    """A position from hands as card text ("QH 7H"; "" for none); Royals as
    ["QH 7H", ...] per seat."""
    data: dict[str, Any] = {"hands": [h.split() for h in hands], **fields}
    state = G.state_from_json(data)
    assert isinstance(state, RoyalsState)
    return state


def legal(state: RoyalsState, seat: int) -> set[str]:
    return {a.text for a in state.legal_actions(seat)}


def place(state: RoyalsState, name: str) -> list[str]:
    return state.card_places()[name]


def royals(state: RoyalsState, seat: int) -> list[str]:
    cards = place(state, f"royals:{seat}")
    return [f"{cards[i]} {cards[i + 1]}" for i in range(0, len(cards), 2)]


# -- RY-1 setup ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_hand_limit_target_and_own_decks(n: int) -> None:
    state = G.new_game(n, seed=11)
    assert isinstance(state, RoyalsState)
    view = state.view(None)
    assert view["hand_limit"] == 2 * n and view["target"] == 20 - n  # RY-1
    assert [p["hand_size"] for p in view["players"]] == [2 * n] * n
    assert [p["deck_size"] for p in view["players"]] == [52 - 2 * n] * n
    assert state.invariants() == []  # every seat holds exactly its own 52 cards
    assert state.to_move() == (state.first_player,) and state.turn == state.first_player


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_first_player_has_highest_bottom_card_ties_look_one_card_up(n: int) -> None:
    levels_seen = set()
    for seed in range(40):
        state = G.new_game(n, seed=seed)
        assert isinstance(state, RoyalsState)
        tied = list(range(n))
        for level in range(len(state.opening)):  # RY-1: ranks Ace 1 .. King 13
            best = max(rank(state.decks[s][level]) for s in tied)
            tied = [s for s in tied if rank(state.decks[s][level]) == best]
            shown = state.opening[level]
            assert all(shown[s] == TEXT[state.decks[s][level]] for s in range(n) if shown[s])
        levels_seen.add(len(state.opening))
        assert tied == [state.first_player]
    assert 2 in levels_seen  # some seed needed the tie rule


def test_first_player_tie_broken_by_next_card_up() -> None:
    state = pos(["", "", ""], decks=[["9C", "2C", "KC"], ["AD", "5D", "KD"], ["10H", "QH"]])
    assert state._choose_first() == 1  # RY-1: K K Q, then 2 against 5 between the tied seats
    assert state.opening == [["KC", "KD", "QH"], ["2C", "5D", ""]]


# -- RY-2 turn, drawing, winning -------------------------------------------------------------
def test_turn_begins_by_drawing_up_to_the_limit() -> None:
    state = pos(["AC 2C", "", ""], decks=[["8C", "7C", "6C", "5C", "4C", "3C"], [], []], phase="start")
    assert place(state, "hand:0") == ["AC", "2C", "5C", "6C", "7C", "8C"]  # top of the deck is the end
    assert place(state, "deck:0") == ["3C", "4C"]
    assert state.to_move() == (0,) and state.phase == "action"


def test_empty_deck_is_replaced_by_own_shuffled_discard_pile() -> None:
    state = pos(["AC 2C", "", ""], decks=[["5C", "4C", "3C"], [], []], phase="start")
    # RY-2: 3 cards drawn, then the other 47 of seat 0's cards (its discard pile) become its deck
    hand = place(state, "hand:0")
    assert len(hand) == 6 and hand[:5] == ["AC", "2C", "3C", "4C", "5C"]
    assert len(place(state, "deck:0")) == 46 and place(state, "discard:0") == []
    assert len(place(state, "discard:1")) == 52  # other seats' piles untouched
    assert any("shuffles its discard pile" in line for line in state.events.texts())
    assert state.invariants() == []


def test_discarding_the_hand_is_always_legal_and_leaves_no_cards_until_next_turn() -> None:
    state = pos(["AC 2C KD", "3S", "4S"], royals=[[], ["QH 7H"], []])
    assert "discard hand" in legal(state, 0)
    state.apply(0, "discard hand")  # RY-2 (d)
    assert place(state, "hand:0") == [] and place(state, "discard:0")[-3:] == ["AC", "2C", "KD"]
    assert state.turn == 1 and len(place(state, "hand:1")) == 6  # seat 1 draws up to 2 x 3
    assert place(state, "hand:0") == []


def test_win_at_the_start_of_ones_turn_not_when_reaching_the_target() -> None:
    # 4 players: target 16 (RY-1); seat 0 reaches 16 on its turn but only wins when its next turn begins
    state = pos(["KH 10H 2C", "3C", "4C", "5C"], royals=[["QS 6S"], [], [], []])
    state.apply(0, "royal KH 10H")
    assert not state.is_over() and state.view(None)["players"][0]["score"] == 16
    for seat in (1, 2, 3):
        state.apply(seat, "discard hand")
    assert state.is_over()  # RY-2
    res = state.result()
    assert res is not None and res.winner == 0 and res.scores == (16, 0, 0, 0) and res.ranking[0] == 0


def test_beginning_a_turn_below_the_target_does_not_win() -> None:
    state = pos(["", "", "", ""], royals=[["KH 9H", "QS 6S"], [], [], ["KD 10D", "KC 9C"]], phase="start")
    assert not state.is_over() and state.turn == 0  # 15 < 16
    state = pos(["", "", "", ""], royals=[[], [], [], ["KD 10D", "KC 6C"]], phase="start", turn=3)
    assert state.is_over() and state.winner == 3


def test_max_turns_ends_in_a_draw() -> None:
    state = G.new_game(3, {"max_turns": 2}, seed=5)  # RY-8
    first = state.to_move()[0]
    state.apply(first, "discard hand")
    state.apply(state.to_move()[0], "discard hand")
    assert state.is_over()
    res = state.result()
    assert res is not None and res.winner is None and sorted(res.ranking) == [0, 1, 2]


def test_no_turn_limit_by_default() -> None:
    assert G.new_game(3, seed=1).options["max_turns"] is None  # RY-8


# -- options hand_limit and target: smaller games (preset tiny) -------------------------------
def _play_first_legal(state: RoyalsState, steps: int) -> None:
    """Play ``steps`` decisions, each seat that moves taking its legal action number ``step`` (modulo)."""
    for step in range(steps):
        if state.is_over():
            return
        for seat in state.to_move():
            actions = state.legal_actions(seat)
            state.apply(seat, actions[step % len(actions)])


@pytest.mark.parametrize("n", [3, 6])
def test_hand_limit_and_target_default_to_the_rulebook(n: int) -> None:
    state = G.new_game(n, seed=9)
    assert state.options["hand_limit"] == 2 * n and state.options["target"] == 20 - n  # RY-1
    same = G.new_game(n, {"hand_limit": 2 * n, "target": 20 - n}, seed=9)
    _play_first_legal(state, 150)
    _play_first_legal(same, 150)
    assert state.to_json() == same.to_json()  # the rulebook's values: the same game, step for step
    assert G.new_game(n, preset="standard", seed=9).options == G.new_game(n, seed=9).options


def test_hand_limit_option_deals_and_draws_up_to_it() -> None:
    state = G.new_game(3, {"hand_limit": 3}, seed=4)
    view = state.view(None)
    assert view["hand_limit"] == 3 and view["target"] == 17
    assert [p["hand_size"] for p in view["players"]] == [3, 3, 3]
    assert [p["deck_size"] for p in view["players"]] == [49, 49, 49]
    assert state.invariants() == []
    tiny = {"hand_limit": 3}
    state = pos(["AC", "", ""], decks=[["8C", "7C", "6C", "5C"], [], []], phase="start", options=tiny)
    assert place(state, "hand:0") == ["AC", "7C", "8C"]  # up to 3, from the top (listed first)
    assert place(state, "deck:0") == ["5C", "6C"]
    state.apply(0, "discard hand")
    assert len(place(state, "hand:1")) == 3  # seat 1 draws up to 3 as well


def test_hand_limit_is_at_most_the_rulebooks() -> None:
    with pytest.raises(OptionError, match="hand_limit"):
        G.new_game(3, {"hand_limit": 7})  # 2 x 3 players is 6
    assert G.new_game(6, {"hand_limit": 12}).hand_limit == 12
    with pytest.raises(OptionError):
        G.new_game(3, {"hand_limit": 1})  # a Royal takes two cards
    with pytest.raises(OptionError):
        G.new_game(3, {"target": 0})


def test_target_option_sets_the_points_that_win() -> None:
    royals_in_play = [["QH 2H"], [], []]
    state = pos(["", "", ""], royals=royals_in_play, phase="start", options={"target": 2})
    assert state.is_over() and state.winner == 0  # RY-2 with a target of 2
    res = state.result()
    assert res is not None and res.scores == (2, 0, 0)
    state = pos(["", "", ""], royals=royals_in_play, phase="start", options={"target": 3})
    assert not state.is_over() and state.turn == 0 and state.view(0)["target"] == 3


TINY: dict[str, Any] = {"hand_limit": 3, "target": 1, "max_turns": 4}


def test_tiny_preset() -> None:
    assert G.resolve_options(3, None, "tiny") == {**TINY}
    state = G.new_game(3, preset="tiny", seed=2)
    assert [len(place(state, f"hand:{s}")) for s in range(3)] == [3, 3, 3]


def _tiny_fight(defence: str) -> RoyalsState:
    """Preset tiny, 3 players: seat 0 plays a Royal worth 5 and keeps 9S; seat 1 attacks it with 8H."""
    state = pos(
        ["KH 5H 9S", "8H 2C QD", "3D 4D JC"],
        decks=[["AS", "2S"], ["AC", "3C"], ["AH", "2H"]],
        options=TINY,
        turns=1,
    )
    state.apply(0, "royal KH 5H")
    assert state.turn == 1 and not state.is_over()
    state.apply(1, "attack 0")
    # RY-4: the attacker commits one card (no Royals), the defender up to one, seat 2 none
    assert set(state.to_move()) == {0, 1}
    assert legal(state, 0) == {"commit none", "commit 9S"}
    state.apply(1, "commit 8H")
    state.apply(0, defence)
    return state


def test_tiny_fight_blocked_royal_wins_a_round_later() -> None:
    state = _tiny_fight("commit 9S")
    assert legal(state, 0) == {"block 8 with 9", "done"}  # RY-4: the defender pairs
    state.apply(0, "block 8 with 9")
    assert royals(state, 0) == ["KH 5H"] and state.turn == 2
    state.apply(2, "discard hand")
    assert state.is_over() and state.winner == 0  # begins turn 4 with 5 points, target 1
    res = state.result()
    assert res is not None and res.scores == (5, 0, 0) and res.ranking == (0, 1, 2)


def test_tiny_fight_unblocked_royal_is_lost_and_the_turn_limit_draws() -> None:
    state = _tiny_fight("commit none")
    # RY-4, RY-6: one hit on a Royal worth 5 with no lower heart in hand: discarded
    assert royals(state, 0) == [] and place(state, "discard:0")[-2:] == ["KH", "5H"]
    assert state.turn == 2
    state.apply(2, "discard hand")  # turn 3
    assert not state.is_over() and state.turn == 0
    state.apply(0, "discard hand")  # turn 4: no Royal in play anywhere
    assert state.is_over()
    res = state.result()
    assert res is not None and res.winner is None  # RY-8: a draw after 4 turns


# -- RY-3 playing a Royal ---------------------------------------------------------------------
def test_a_royal_is_a_face_card_and_a_number_card_of_its_suit() -> None:
    state = pos(["QH 7H 10H KS AS JD", "", ""])
    plays = {t for t in legal(state, 0) if t.startswith("royal")}
    assert plays == {"royal QH 7H", "royal QH 10H", "royal KS AS"}  # RY-3: JD has no diamond number card
    state.apply(0, "royal QH 10H")
    assert royals(state, 0) == ["QH 10H"] and state.view(None)["players"][0]["score"] == 10
    assert place(state, "hand:0") == ["JD", "7H", "AS", "KS"]  # hand order: suit C D H S, then rank


def test_ace_is_worth_one_point() -> None:
    state = pos(["KS AS", "", ""])
    state.apply(0, "royal KS AS")
    assert state.view(None)["players"][0]["score"] == 1  # RY-3


def test_royal_from_cards_not_in_hand_is_refused_with_reason() -> None:
    state = pos(["QH 7H", "", ""])
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="10H not in your hand"):
        state.apply(0, "royal QH 10H")
    assert json.dumps(state.to_json(), sort_keys=True) == before


# -- RY-4 attack: who may be attacked, commitments ------------------------------------------------
def test_attack_only_another_player_with_royals() -> None:
    state = pos(["2D", "3S", "4S"], royals=[["QC 5C"], ["QH 7H"], []])
    assert {t for t in legal(state, 0) if t.startswith("attack")} == {"attack 1"}  # RY-4
    with pytest.raises(IllegalActionError, match="no Royal in play"):
        state.apply(0, "attack 2")
    with pytest.raises(IllegalActionError, match="own Royals"):
        state.apply(0, "attack 0")


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_attack_commitment_counts_for_every_table_size(n: int) -> None:
    # seat 0 (no Royal) attacks seat 1 (2 Royals); seat 2 has 2 Royals; any other seat has none
    hands = ["2D 3D 4D 5D 6D", "2S 4S 5S", "5H 6H 8H"] + ["9H 9D"] * (n - 3)
    rs: list[list[str]] = [[], ["QH 7H", "KS 9S"], ["JC 2C", "QC 4C"]] + [[]] * (n - 3)
    state = pos(hands, royals=rs)
    state.apply(0, "attack 1")
    assert state.to_move() == (0, 1, 2)  # RY-4: seats committing 0 cards do not decide
    need = state.view(None)["fight"]["need"]
    assert need == {
        "0": {"count": 1, "up_to": False},  # attacker without Royals: one card
        "1": {"count": 2, "up_to": True},  # defender: 0 up to its 2 Royals
        "2": {"count": 2, "up_to": False},  # everyone else: one per Royal
    }
    assert legal(state, 0) == {f"commit {c}" for c in ["2D", "3D", "4D", "5D", "6D"]}
    assert legal(state, 1) == {
        "commit none",
        "commit 2S",
        "commit 4S",
        "commit 5S",
        "commit 2S 4S",
        "commit 2S 5S",
        "commit 4S 5S",
    }
    assert legal(state, 2) == {"commit 5H 6H", "commit 5H 8H", "commit 6H 8H"}


def test_attacker_commits_one_card_per_royal() -> None:
    state = pos(["2D 3D 4D 5D", "2S", "", ""], royals=[["QC 5C", "KC 6C", "JC 7C"], ["QH 7H"], [], []])
    state.apply(0, "attack 1")
    assert {len(t.split()) - 1 for t in legal(state, 0)} == {3}  # RY-4


def test_commitments_are_capped_by_hand_size() -> None:
    # third seat has 3 Royals but 1 card; the defender has an empty hand
    three = ["QD 2D", "KD 3D", "JD 4D"]
    state = pos(["2D 3D", "", "9C", ""], royals=[["QC 5C", "KC 6C", "JC 7C"], ["QH 7H"], three, []])
    state.apply(0, "attack 1")
    assert state.to_move() == (0, 2)  # RY-4: the defender holds no card, so decides nothing
    assert legal(state, 0) == {"commit 2D 3D"}
    assert legal(state, 2) == {"commit 9C"}


def test_commitments_are_secret_but_counts_public_until_everyone_committed() -> None:
    state = pos(["2D 3D KD", "2S 4S", "5H 6H", "7C"], royals=[[], ["QH 7H", "KS 9S"], ["JC 2C"], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 3D")
    for viewer in (None, 1, 2, 3):
        text = json.dumps(state.view(viewer))
        assert "commit 3D" not in text and state.view(viewer)["pending"]["committed"] == [0]
        assert state.view(viewer)["players"][0]["table"] == []
    assert state.view(0)["pending"]["mine"] == "commit 3D"
    # the defender's chosen count is not visible before the reveal either
    a, b = state.copy(), state.copy()
    a.apply(1, "commit none")
    b.apply(1, "commit 2S 4S")
    for viewer in (None, 0, 2, 3):
        assert json.dumps(a.view(viewer), sort_keys=True) == json.dumps(b.view(viewer), sort_keys=True)
    with pytest.raises(NotYourTurnError, match="already committed"):
        state.apply(0, "commit 2D")


# -- RY-4 reveal, colours, bluffs, pairing, hits ------------------------------------------------
def attack_position() -> RoyalsState:
    """4 players: seat 0 (no Royal) attacks seat 1 (QH 7H, KS 9S); seat 2 (one Royal) must commit one card."""
    return pos(
        ["8D KD 2C", "9C 2S 6H 3H", "5H 10C QD", "4C"],
        royals=[[], ["QH 7H", "KS 9S"], ["JD 2D"], []],
    )


def test_third_players_red_card_helps_the_attack() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit 9C 2S")
    state.apply(2, "commit 5H")  # RY-4: red attacks whoever plays it
    fight = state.view(None)["fight"]
    assert fight["attacks"] == [5, 8] and fight["blocks"] == [2, 9]
    assert state.phase == "pair" and state.to_move() == (1,)
    assert legal(state, 1) == {"block 5 with 9", "block 8 with 9", "done"}  # a 2 cancels neither


def test_third_players_black_card_helps_the_defence() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit none")
    state.apply(2, "commit 10C")  # RY-4: black blocks whoever plays it
    assert legal(state, 1) == {"block 8 with 10", "done"}
    state.apply(1, "block 8 with 10")
    assert state.turn == 1 and royals(state, 1) == ["QH 7H", "KS 9S"]  # no hit: the turn passed on


def test_face_cards_are_bluffs_with_no_value() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit KD")
    state.apply(1, "commit none")
    state.apply(2, "commit QD")
    fight = state.last_fight
    assert fight is not None and fight.attacks == [] and fight.blocks == [] and fight.hits == 0  # RY-4: no value
    assert state.turn == 1 and place(state, "discard:0")[-1] == "KD" and place(state, "discard:2")[-1] == "QD"


def test_defender_pairs_as_it_sees_fit_and_unblocked_attacks_are_hits() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit 9C 2S")
    state.apply(2, "commit 5H")
    state.apply(1, "block 8 with 9")  # then 5 against 2: no pairing can cancel it, so pairing ends
    fight = state.fight
    assert fight is not None and fight.pairs == [(8, 9)] and fight.hits == 1
    assert state.phase == "hits" and legal(state, 1) == {"hit QH", "hit KS"}


def test_defender_may_stop_pairing_early() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit 9C 2S")
    state.apply(2, "commit 5H")
    state.apply(1, "done")
    assert state.fight is not None and state.fight.hits == 2


def test_a_block_cancels_an_attack_of_equal_value() -> None:
    state = pos(["7D", "7S 2C", "", ""], royals=[[], ["QH 7H"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 7D")
    state.apply(1, "commit 7S")
    assert legal(state, 1) == {"block 7 with 7", "done"}
    with pytest.raises(IllegalActionError, match="equal or lower"):
        state.apply(1, "block 7 with 2")


def test_hits_are_spread_by_the_defender_in_card_order() -> None:
    state = pos(["8D 9D", "2C", "", ""], royals=[["QC 5C"], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")  # attacker with 1 Royal commits 1 card
    state.apply(0, "commit 8D")
    state.apply(1, "commit none")
    assert state.phase == "hits"
    # one hit, on QH or KS; no heart or spade in hand to put under either, so the hit Royal goes
    state.apply(1, "hit KS")
    assert royals(state, 1) == ["QH 7H"] and place(state, "discard:1")[-2:] == ["KS", "9S"]


def test_after_a_hit_on_a_later_royal_earlier_ones_are_not_offered() -> None:
    state = pos(["8D 9D", "2S", "", ""], royals=[["QC 5C", "KC 6C"], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D 9D")
    state.apply(1, "commit none")
    assert legal(state, 1) == {"hit QH", "hit KS"}
    state.apply(1, "hit QH")
    assert legal(state, 1) == {"hit QH", "hit KS"}  # QH again, or KS
    state.apply(1, "hit QH")  # both on QH (7 -> 5 or lower, no heart in hand): discarded
    assert royals(state, 1) == ["KS 9S"]


# -- RY-6 losses: discard or substitute ----------------------------------------------------------
def test_substitute_of_the_same_suit_at_most_value_minus_hits() -> None:
    state = pos(["8D 6D", "5H 6H 3H 4D 2S", "", ""], royals=[["QC 5C", "KC 6C"], ["QH 7H"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 6D 8D")
    state.apply(1, "commit none")
    assert state.phase == "losses"
    # RY-6: 7 with 2 hits ends at 5 or lower, and only hearts may go under QH
    assert legal(state, 1) == {"discard QH", "replace QH 5H", "replace QH 3H"}
    state.apply(1, "replace QH 5H")
    assert royals(state, 1) == ["QH 5H"] and "5H" not in place(state, "hand:1")
    assert place(state, "discard:1") == ["7H"]  # RY-7: the old number card to its owner's discard pile
    assert place(state, "discard:0") == ["6D", "8D"]  # committed cards to the committer's pile
    assert state.turn == 1 and state.phase == "action"


def test_hit_royal_without_a_low_enough_card_is_discarded() -> None:
    state = pos(["8D", "6H 2S", "", ""], royals=[[], ["QH 7H", "KS 9S"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit none")
    state.apply(1, "hit QH")  # 6H would leave QH at 6 = 7 - 1: allowed
    assert legal(state, 1) == {"discard QH", "replace QH 6H"}
    state.apply(1, "discard QH")
    assert royals(state, 1) == ["KS 9S"] and place(state, "discard:1") == ["QH", "7H"]  # RY-6, RY-7


def test_more_hits_than_points_discard_the_royal_at_once() -> None:
    state = pos(["3D 4D 5D", "AH", "", ""], royals=[["QC 5C", "KC 6C", "JC 7C"], ["QH 2H"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 3D 4D 5D")
    state.apply(1, "commit none")
    assert royals(state, 1) == [] and state.turn == 1  # 2 - 3 < 1: nothing can go under it


# -- RY-5 assassination ----------------------------------------------------------------------------
def test_assassinate_only_other_players_royals() -> None:
    state = pos(["2D", "3S", "4S"], royals=[["QC 5C"], ["QH 7H", "KS 9S"], []])
    assert {t for t in legal(state, 0) if t.startswith("assassinate")} == {"assassinate 1 QH", "assassinate 1 KS"}
    with pytest.raises(IllegalActionError, match="own Royals"):
        state.apply(0, "assassinate 0 QC")


def test_assassination_commits_one_card_each() -> None:
    state = pos(["2D KC", "3S 9H", "4S"], royals=[[], ["QH 7H"], ["QS 2S"]])
    state.apply(0, "assassinate 1 QH")
    assert state.to_move() == (0, 1)  # RY-5: seat 2 takes no part
    assert legal(state, 0) == {"commit 2D", "commit KC"} and legal(state, 1) == {"commit 3S", "commit 9H"}


def test_owner_can_wound_its_own_royal() -> None:
    state = pos(["2D KC", "3H 9H", "4S"], royals=[[], ["QH 7H"], []])
    state.apply(0, "assassinate 1 QH")
    state.apply(0, "commit KC")  # a bluff
    state.apply(1, "commit 9H")  # RY-5: red attacks even from the owner
    assert state.phase == "losses" and legal(state, 1) == {"discard QH", "replace QH 3H"}
    state.apply(1, "replace QH 3H")
    assert royals(state, 1) == ["QH 3H"]
    assert place(state, "discard:1") == ["7H", "9H"] and place(state, "discard:0") == ["KC"]


def test_assassins_black_card_blocks_the_owners_red_card() -> None:
    state = pos(["10S", "9H", "4S"], royals=[[], ["QH 7H"], []])
    state.apply(0, "assassinate 1 QH")
    state.apply(0, "commit 10S")
    state.apply(1, "commit 9H")
    assert royals(state, 1) == ["QH 7H"] and state.turn == 1  # RY-5: 10 blocks 9


def test_assassins_red_card_beats_a_lower_black_card() -> None:
    state = pos(["10D", "9S", "4S"], royals=[[], ["QH 7H", "KH 5H"], []])
    state.apply(0, "assassinate 1 KH")
    state.apply(0, "commit 10D")
    state.apply(1, "commit 9S")
    assert royals(state, 1) == ["QH 7H"]  # one hit on KH, no heart in hand: discarded
    assert place(state, "discard:1") == ["KH", "5H", "9S"]


def test_owner_with_no_cards_does_not_commit() -> None:
    state = pos(["10D", "", "4S"], royals=[[], ["QH 7H"], []])
    state.apply(0, "assassinate 1 QH")
    assert state.to_move() == (0,)
    state.apply(0, "commit 10D")
    assert royals(state, 1) == []


# -- RY-7 where every card goes ---------------------------------------------------------------
def test_every_card_of_a_fight_goes_to_its_owners_discard_pile() -> None:
    state = attack_position()
    state.apply(0, "attack 1")
    state.apply(0, "commit 8D")
    state.apply(1, "commit 9C 2S")
    state.apply(2, "commit 5H")
    state.apply(1, "block 8 with 9")
    state.apply(1, "hit QH")  # one hit on QH 7H: 6H or 3H may replace it
    state.apply(1, "replace QH 6H")
    assert place(state, "discard:0") == ["8D"]
    assert sorted(place(state, "discard:1")) == sorted(["9C", "2S", "7H"])
    assert place(state, "discard:2") == ["5H"]
    assert all(place(state, f"table:{s}") == [] for s in range(4))
    assert royals(state, 1) == ["QH 6H", "KS 9S"]
    assert state.invariants() == []


# -- views, positions, notation ------------------------------------------------------------------
def test_views_hide_hands_and_decks_but_show_discards_and_royals() -> None:
    state = G.new_game(4, seed=3)
    assert isinstance(state, RoyalsState)
    me = state.view(0)
    assert me["hand"] == place(state, "hand:0") and state.view(None)["hand"] == []
    other = state.view(1)["players"][0]
    assert other["hand_size"] == 8 and other["deck_size"] == 44 and "hand" not in other  # sizes only
    assert set(state.hidden_places(1)) == {f"deck:{s}" for s in range(4)} | {"hand:0", "hand:2", "hand:3"}


def test_position_with_fields_left_out_fills_each_seats_deck() -> None:
    state = pos(["QH 7H", "", ""], royals=[[], ["KS 9S"], []])
    assert len(place(state, "deck:0")) == 50 and len(place(state, "deck:1")) == 50
    assert state.invariants() == []
    again = G.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()


def test_positions_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(PositionError, match="more than once"):
        pos(["QH 7H", "", ""], royals=[["QH 5H"], [], []])
    with pytest.raises(PositionError, match="same suit|of its suit"):
        pos(["", "", ""], royals=[["QH 5S"], [], []])
    with pytest.raises(PositionError, match="above the limit"):
        pos(["AC 2C 3C 4C 5C 6C 7C", "", ""])
    with pytest.raises(PositionError, match="do not add up"):
        pos(["", "", ""], decks=[["AC"], [], []], discards=[[], [], []])


@pytest.mark.parametrize(
    "text",
    [
        "royal QH 7H",
        "attack 2",
        "assassinate 2 QH",
        "discard hand",
        "commit 7H KS",
        "commit none",
        "block 7 with 9",
        "done",
        "hit QH",
        "discard QH",
        "replace QH 3H",
        "commit 10D AC",
    ],
)
def test_notation_round_trips(text: str) -> None:
    act = G.parse_action(text)
    assert G.parse_action(act.text) == act


def test_notation_is_canonical() -> None:
    assert G.parse_action("royal 7h qh").text == "royal QH 7H"
    assert G.parse_action("commit KS 7H AC").text == "commit AC 7H KS"  # card order: suit C D H S, then rank
    assert G.parse_action("commit").text == "commit none"
    assert G.parse_action("discard").text == "discard hand"
    assert G.parse_action("block A with 10").text == "block 1 with 10"
    assert G.parse_cards("th 1s q♥") == ["10H", "AS", "QH"]
    assert [TEXT[c] for c in DECK[:3]] == ["AC", "2C", "3C"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("royal QH 7S", "same suit"),
        ("royal 7H 8H", "one face card"),
        ("attack x", "not a seat"),
        ("assassinate 1 7H", "face card"),
        ("replace QH 3S", "Royal's suit"),
        ("commit 7H 7H", "at most once"),
        ("block 11 with 3", "card value"),
        ("fly", "not a Royals action"),
        ("hit ZZ", "unknown rank"),
    ],
)
def test_malformed_notation_names_the_reason(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        G.parse_action(text)


def test_record_from_an_explicit_position_replays() -> None:
    state = pos(["AC 2C", "QH 7H", "", ""], royals=[[], ["KS 9S"], [], []], phase="start", seed=4)
    state.apply(0, "attack 1")
    state.apply(0, state.legal_actions(0)[0])
    while state.to_move() == (1,) and state.phase != "action":
        state.apply(1, state.legal_actions(1)[0])
    record = json.loads(json.dumps(state.record().to_json()))
    again = GameRecord.from_json(record).replay()
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
