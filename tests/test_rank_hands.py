"""Rank rules, part 2: the end of a hand and of the game, the next hand's
benefit, the variants, hidden information and refused actions (RK-10 to RK-16)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from test_rank_rules import G, hand, legal, mover, play, pos

from courtcards.core.errors import GameOverError, IllegalActionError, NotationError, NotYourTurnError, OptionError
from courtcards.games.rank.state import RankState

PRESIDENT_ORDER = ["C", "C2", *[str(x) for x in range(12, 0, -1)]]


def log(finish: list[int], hand_no: int = 1) -> list[dict[str, Any]]:
    return [{"hand": hand_no, "finish": finish, "king": finish[0], "queen": finish[1], "beggar": finish[-1]}]


def sizes(s: RankState) -> list[int]:
    return [p["hand_size"] for p in s.view(None)["players"]]


# -- RK-10 End of a hand ---------------------------------------------------------------------------


def test_end_of_hand_characters_tokens_and_new_deal() -> None:
    # RK-10: first out King, second Queen, last holder Beggar, Knights between; King 2 tokens, Queen 1
    # RK-12: every card is shuffled and 15 dealt to each; the King then chooses a benefit
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[1, 0, 2, 0])
    play(s, "5")
    assert s.characters == ["queen", "knight", "king", "beggar"]
    assert s.tokens == [2, 0, 4, 0]
    assert list(s.hands_log[-1]["finish"]) == [2, 0, 1, 3]
    assert (s.hands_log[-1]["king"], s.hands_log[-1]["queen"], s.hands_log[-1]["beggar"]) == (2, 0, 3)
    assert s.hand_number == 2 and s.phase == "benefit" and s.to_move() == (2,)
    assert sizes(s) == [15] * 4
    places = s.card_places()
    assert len(places["draw_pile"]) == 38 and places["discard"] == [] and places["pile"] == []
    assert Counter(c for cards in places.values() for c in cards) == Counter(s.deck())


def test_end_of_hand_with_three_players() -> None:
    # RK-10: 3 players: King, Queen, Beggar
    s = pos(["4", "", "9"], turn=0, finished=[1])
    play(s, "4")
    assert s.characters == ["queen", "king", "beggar"] and s.tokens == [1, 2, 0]


def test_end_of_hand_with_seven_players_uses_two_decks() -> None:
    # RK-10 / RK-1: 7+ players: King, Queen, Beggar and Knights; the new deal uses 196 cards
    s = pos(["", "", "3", "", "", "", "4"], turn=2, finished=[5, 0, 1, 3, 4])
    play(s, "3")
    assert s.characters == ["queen", "knight", "knight", "knight", "knight", "king", "beggar"]
    assert s.tokens == [1, 0, 0, 0, 0, 2, 0]
    assert sizes(s) == [15] * 7 and len(s.card_places()["draw_pile"]) == 196 - 105


def test_going_out_on_a_pile_does_not_end_the_hand_while_two_hold_cards() -> None:
    # RK-10: the remaining players continue to determine each rank
    s = pos(["5", "6 3", "7 2"], turn=0)
    play(s, "5")
    assert s.finished == [0] and s.phase == "play" and s.hand_number == 1 and mover(s) == 1


# -- RK-11 End of the game ------------------------------------------------------------------------


def test_first_to_five_tokens_wins() -> None:
    # RK-11: after a hand, a player with 5 tokens wins
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[1, 0, 3, 0])
    play(s, "5")
    assert s.is_over() and s.winner == 2
    res = s.result()
    assert res is not None and res.winner == 2 and res.scores == (2, 0, 5, 0)
    assert res.ranking == (2, 0, 1, 3)


def test_two_reaching_five_in_one_hand_better_finish_wins() -> None:
    # RK-11 (FAQ): both reach the target; the higher rank in that hand wins
    s = pos(["", "", "9", "7 8"], turn=2, finished=[1, 0], tokens=[4, 3, 0, 0])
    play(s, "9")
    assert s.tokens == [5, 5, 0, 0] and s.winner == 1
    res = s.result()
    assert res is not None and res.ranking[:2] == (1, 0)


def test_tokens_to_win_option() -> None:
    # RK-11: option tokens_to_win
    def finish(target: int) -> RankState:
        return play(
            pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[0, 0, 1, 0], options={"tokens_to_win": target}),
            "5",
        )

    assert finish(3).winner == 2
    s = finish(4)
    assert not s.is_over() and s.phase == "benefit"
    assert G.new_game(4).options["tokens_to_win"] == 5


def test_no_actions_after_the_game_is_over() -> None:
    # RK-11: the game is over
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[1, 0, 3, 0])
    play(s, "5")
    before = s.to_json()
    assert s.to_move() == () and s.legal_actions(2) == []
    with pytest.raises(GameOverError, match="over"):
        s.apply(2, "lead")
    assert s.to_json() == before


# -- RK-12 Next hand: the King's benefit ----------------------------------------------------------

BENEFIT: dict[str, Any] = {"phase": "benefit", "round": 2, "hands_log": log([0, 1, 3, 2]), "tokens": [2, 1, 0, 0]}


def test_benefit_lead() -> None:
    # RK-12: lead: the King leads the first round
    s = pos(["3 4", "5 6", "9 C", "7"], **BENEFIT)
    assert s.to_move() == (0,) and legal(s) == {"lead", "steal"}
    play(s, "lead")
    assert s.phase == "play" and mover(s) == 0 and s.pile_count == 0 and s.exchanges == []


def test_benefit_steal_takes_the_highest_number_card_never_a_crown() -> None:
    # RK-12: the Beggar's highest number card, never a Crown, Wild or modifier (publisher FAQ);
    # the King gives any one card back; then the Queen leads
    s = pos(["3 4", "5 6", "C C2 W U D 9 9 2", "7"], **BENEFIT)
    play(s, "steal")
    assert hand(s, 0) == "3 4 9" and hand(s, 2) == "2 9 W U D C C2"
    assert s.phase == "give_back" and s.to_move() == (0,)
    assert legal(s) == {"give 3", "give 4", "give 9"}
    play(s, "give 3")
    assert hand(s, 0) == "4 9" and hand(s, 2) == "2 3 9 W U D C C2"
    assert s.phase == "play" and mover(s) == 1 and s.pile_count == 0


def test_king_may_give_back_the_stolen_card_or_a_crown() -> None:
    # RK-12: any one card of his choice
    s = pos(["C 4", "5 6", "12 2", "7"], **BENEFIT)
    play(s, "steal")
    assert legal(s) == {"give 4", "give 12", "give C"}
    play(s, "give C")
    assert hand(s, 2) == "2 C"


def test_only_lead_when_the_beggar_has_no_number_card() -> None:
    # RK-12
    s = pos(["3 4", "5 6", "C W U", "7"], **BENEFIT)
    assert legal(s) == {"lead"}
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="holds no number card"):
        s.apply(0, "steal")
    assert s.to_json() == before


def test_stolen_and_given_cards_are_seen_by_king_and_beggar_only() -> None:
    # RK-12 / RK-16
    s = pos(["3 4", "5 6", "9 2", "7"], **BENEFIT)
    play(s, "steal", "give 4")
    for seat in (0, 2):  # the taker and the giver
        assert [(e["why"], e["cards"]) for e in s.view(seat)["exchanges"]] == [("steal", ["9"]), ("give", ["4"])]
    for other in (1, 3, None):
        ex = s.view(other)["exchanges"]
        assert [(e["from"], e["to"], e["count"]) for e in ex] == [(2, 0, 1), (0, 2, 1)]
        assert all("cards" not in e for e in ex)


def test_benefit_is_only_the_kings_decision() -> None:
    # RK-12
    s = pos(["3 4", "5 6", "9 2", "7"], **BENEFIT)
    before = s.to_json()
    with pytest.raises(NotYourTurnError, match="waiting for seat 0"):
        s.apply(1, "lead")
    with pytest.raises(IllegalActionError, match="chooses a benefit"):
        s.apply(0, "3")
    assert s.to_json() == before


def test_full_cycle_hand_end_then_benefit() -> None:
    # RK-10 -> RK-12: after the hand the new King (first out) chooses
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0])
    play(s, "5")
    beggar = hand(s, 3).split()
    best = max(int(c) for c in beggar if c.isdigit())
    play(s, "steal")
    assert Counter(hand(s, 3).split()) == Counter(beggar) - Counter([str(best)])
    assert s.to_move() == (2,) and s.phase == "give_back"


# -- RK-13 Classic President -------------------------------------------------------------------


def _president_end(players: int, rng: int) -> RankState:
    hands = [""] * players
    hands[1], hands[2] = "5", "7 8"
    finished = [s for s in range(players) if s not in (1, 2)]
    return play(pos(hands, turn=1, finished=finished, rng=rng, options={"classic_president": True}), "5")


@pytest.mark.parametrize("rng", range(8))
def test_president_taxes_are_the_highest_cards(rng: int) -> None:
    # RK-13: Beggar -> King two highest (Crown, Crown + Draw 2, 12 ... 1; never W, U, D);
    # 4+ players: second-to-last -> Queen one highest
    s = _president_end(4, rng * 7919)
    finish = s.hands_log[-1]["finish"]
    king, queen, second_last, beggar = finish[0], finish[1], finish[2], finish[3]
    taxes = [e for e in s.exchanges if e["why"] == "tax"]
    assert [(e["from"], e["to"], len(e["cards"])) for e in taxes] == [(beggar, king, 2), (second_last, queen, 1)]
    for e in taxes:
        pool = Counter(hand(s, e["from"]).split()) + Counter(e["cards"])
        ranked = [c for c in PRESIDENT_ORDER for _ in range(pool[c])]
        assert sorted(e["cards"]) == sorted(ranked[: len(e["cards"])])
    assert s.phase == "exchange" and s.to_move() == tuple(sorted((king, queen)))
    assert sizes(s)[king] == 17 and sizes(s)[beggar] == 13


def test_president_never_takes_wild_or_modifiers() -> None:
    # RK-13: a Beggar with one number card and W U D gives just that card
    s = pos(["3 4", "5 6", "W U D 2", "7 C"], options={"classic_president": True}, round=2, hands_log=log([0, 1, 3, 2]))
    s._president_exchange()
    assert [(e["from"], e["to"], list(e["cards"])) for e in s.exchanges] == [(2, 0, ["2"]), (3, 1, ["C"])]
    assert s.owed == {0: 1, 1: 1}


def test_president_give_backs_are_simultaneous_and_the_king_leads() -> None:
    # RK-13: King gives any two, Queen any one, chosen at once (hidden until both commit); the King leads
    exchanges = [
        {"from": 2, "to": 0, "cards": ["C", "12"], "why": "tax"},
        {"from": 3, "to": 1, "cards": ["11"], "why": "tax"},
    ]
    s = pos(
        ["C 12 3 4", "11 6", "9 2", "7"],
        options={"classic_president": True},
        phase="exchange",
        round=2,
        hands_log=log([0, 1, 3, 2]),
        exchanges=exchanges,
        owed={"0": 2, "1": 1},
    )
    assert s.to_move() == (0, 1)
    assert "give 12 C" in legal(s, 0) and "give 4 3" in legal(s, 0) and "give 3" not in legal(s, 0)
    assert legal(s, 1) == {"give 11", "give 6"}
    s.apply(0, "give 4 3")
    assert s.to_move() == (1,) and hand(s, 0) == "3 4 12 C"  # nothing moves until both commit
    assert s.view(1)["pending"] == {"committed": [0]}
    assert s.view(0)["pending"] == {"committed": [0], "mine": "give 4 3"}
    s.apply(1, "give 11")
    assert hand(s, 2) == "2 3 4 9" and hand(s, 3) == "7 11" and hand(s, 0) == "12 C"
    assert s.phase == "play" and mover(s) == 0


def test_president_three_players_only_king_and_beggar_exchange() -> None:
    # RK-13: the Queen exchange is for 4 or more players
    s = _president_end(3, 12345)
    taxes = [e for e in s.exchanges if e["why"] == "tax"]
    assert len(taxes) == 1 and taxes[0]["to"] == s.characters.index("king")
    king = s.characters.index("king")
    assert s.to_move() == (king,)
    give = sorted(legal(s))[0]
    assert len(give.split()) == 3
    play(s, give)
    assert s.phase == "play" and mover(s) == king and sizes(s) == [15, 15, 15]


# -- RK-14 King's Hand ------------------------------------------------------------------------


def test_kings_hand_is_for_at_most_five_players() -> None:
    # RK-14
    with pytest.raises(OptionError, match="at most 5 players"):
        G.new_game(6, {"kings_hand": True})
    assert G.new_game(5, {"kings_hand": True}).phase == "kings_hand"


def test_kings_hand_swap() -> None:
    # RK-14: an extra 15 face down; the King may take it once; the unused hand is set aside unseen
    s = G.new_game(5, {"kings_hand": True}, seed=4)
    assert isinstance(s, RankState)
    king = s.characters.index("king")
    places = s.card_places()
    extra, own = places["kings_hand"], places[f"hand:{king}"]
    assert len(extra) == 15 and len(places["draw_pile"]) == 98 - 90
    assert s.to_move() == (king,) and legal(s) == {"keep", "swap"}
    assert "kings_hand" in s.hidden_places(king)
    play(s, "swap")
    places = s.card_places()
    assert places[f"hand:{king}"] == extra and places["set_aside"] == own and places["kings_hand"] == []
    assert s.phase == "play" and mover(s) == king  # first hand: the King leads (RK-2)
    assert "set_aside" not in s.hidden_places(king)  # his old hand, already seen
    assert all("set_aside" in s.hidden_places(o) for o in range(5) if o != king)
    assert "swap" not in legal(s)


def test_kings_hand_keep_sets_it_aside_unseen() -> None:
    # RK-14
    s = G.new_game(4, {"kings_hand": True}, seed=9)
    assert isinstance(s, RankState)
    king = s.characters.index("king")
    extra, own = s.card_places()["kings_hand"], s.card_places()[f"hand:{king}"]
    play(s, "keep")
    assert s.card_places()["set_aside"] == extra and s.card_places()[f"hand:{king}"] == own
    assert all("set_aside" in s.hidden_places(o) for o in (None, 0, 1, 2, 3))


def test_kings_hand_comes_before_the_benefit() -> None:
    # RK-14: later hands: swap/keep first, then lead/steal
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], options={"kings_hand": True})
    play(s, "5")
    assert s.phase == "kings_hand" and s.to_move() == (2,)
    play(s, "keep")
    assert s.phase == "benefit" and s.to_move() == (2,)


# -- RK-15 Endless ----------------------------------------------------------------------------


def test_endless_has_no_tokens_and_counts_kings() -> None:
    # RK-15: no tokens; who was King each hand is recorded
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], options={"endless": True, "hands": 3})
    play(s, "5")
    assert s.tokens == [0, 0, 0, 0] and s.kings == [0, 0, 1, 0]
    assert s.hand_number == 2 and not s.is_over() and s.view(None)["players"][2]["times_king"] == 1
    assert s.phase == "benefit"  # the King's benefit still applies


def test_endless_ends_after_the_chosen_hands_most_kings_wins() -> None:
    # RK-15: option `hands`; most times King wins
    s = pos(
        ["", "5", "", "7 8"],
        turn=1,
        finished=[2, 0],
        options={"endless": True, "hands": 3},
        round=3,
        times_king=[2, 0, 0, 0],
        hands_log=log([0, 1, 2, 3]) + log([0, 2, 1, 3], 2),
    )
    play(s, "5")
    assert s.is_over() and s.kings == [2, 0, 1, 0] and s.winner == 0
    res = s.result()
    assert res is not None and res.scores == (2, 0, 1, 0) and res.details["kings"] == [0, 0, 2]


def test_endless_tie_goes_to_the_better_finish_in_the_last_hand() -> None:
    # RK-15 + RK-11 (house decision: a tie in times King is broken as a token tie is)
    s = pos(
        ["", "5", "", "7 8"],
        turn=1,
        finished=[2, 0],
        options={"endless": True, "hands": 2},
        round=2,
        times_king=[1, 0, 0, 0],
        hands_log=log([0, 1, 2, 3]),
    )
    play(s, "5")
    assert s.kings == [1, 0, 1, 0] and s.winner == 2


def test_endless_option_defaults() -> None:
    # RK-15
    s = G.new_game(4, preset="endless")
    assert s.options["endless"] is True and s.options["hands"] == 10


# -- RK-16 Hidden information -----------------------------------------------------------------


def test_view_shows_only_the_seats_own_hand_and_public_facts() -> None:
    # RK-16: private: hands, draw pile; public: sizes, draw size, played cards, passes, characters, tokens
    s = pos(
        ["3 4 5", "6 7", "8 9 10 11", "12"],
        turn=2,
        pile=["2", "2"],
        pile_value=2,
        pile_count=2,
        owner=0,
        passed=[False, True, False, False],
        draw_pile=["1", "1"],
        tokens=[2, 1, 0, 0],
    )
    v = s.view(2)
    assert v["hand"] == ["8", "9", "10", "11"]
    assert [p["hand_size"] for p in v["players"]] == [3, 2, 4, 1]
    assert [p["passed"] for p in v["players"]] == [False, True, False, False]
    assert [p["character"] for p in v["players"]] == ["king", "queen", "beggar", "knight"]
    assert [p["score"] for p in v["players"]] == [2, 1, 0, 0]
    assert v["deck_size"] == 2 and v["pile"]["cards"] == ["2", "2"]
    assert s.view(None)["hand"] == []  # a spectator holds nothing (the shared words)


def test_view_does_not_depend_on_hidden_cards() -> None:
    # RK-16: other hands and the draw pile can be anything of the same sizes
    a = pos(["3 4 5", "6 7", "8 9 10 11"], turn=0, draw_pile=["1", "12"])
    b = pos(["3 4 5", "12 1", "6 7 10 11"], turn=0, draw_pile=["8", "9"])
    for key in ("hands", "draw_pile"):
        assert a.to_json()[key] != b.to_json()[key]
    assert a.view(0) == b.view(0) and a.view(None) == b.view(None)
    assert a.view(1) != b.view(1)


def test_cards_drawn_with_crown_draw_2_are_private() -> None:
    # RK-16
    a = pos(["5", "C2 4", "9"], turn=1, draw_pile=["W", "2", "11", "3"])
    b = pos(["5", "C2 4", "9"], turn=1, draw_pile=["11", "3", "W", "2"])
    play(a, "C2")
    play(b, "C2")
    assert a.view(0) == b.view(0) and a.view(2) == b.view(2) and a.view(None) == b.view(None)
    assert a.view(1)["hand"] == ["2", "4", "W"] and b.view(1)["hand"] == ["3", "4", "11"]
    assert a.view(0)["round_log"] == [] and a.view(0)["discard"] == b.view(0)["discard"]


# -- Refused actions leave the state unchanged ----------------------------------------------------


@pytest.mark.parametrize(
    "seat,move,error,reason",
    [
        (2, "6", NotYourTurnError, "waiting for seat 1"),
        (7, "6", NotYourTurnError, "no seat 7"),
        (1, "foo", NotationError, "not a Rank card"),
        (1, "", NotationError, "empty action"),
        (1, "give", NotationError, "needs the cards"),
        (1, "pass 3", NotationError, "takes no cards"),
        (1, "lead", IllegalActionError, "not a play"),
        (1, "give 6", IllegalActionError, "not a play"),
        (1, "9", IllegalActionError, "you hold no 9s, and the play needs 1"),
        (1, "6 6", IllegalActionError, "you hold only one 6, and the play needs 2"),
        (1, "3", IllegalActionError, "does not beat the pile's 5"),
    ],
)
def test_refused_actions(seat: int, move: str, error: type[Exception], reason: str) -> None:
    # RK-5 and the core protocol: a specific error with a reason; no change
    s = pos(["5", "6 3 W", "9"], turn=1, pile=["5"], pile_value=5, pile_count=1, owner=0)
    before = s.to_json()
    with pytest.raises(error, match=reason):
        s.apply(seat, move)
    assert s.to_json() == before
    assert not s.can_apply(1, move) or seat != 1


@pytest.mark.parametrize(
    "move,reason",
    [("give 3 4", "give exactly 1 card"), ("give 7", "you hold no 7s"), ("pass", "gives one card back")],
)
def test_refused_give_back(move: str, reason: str) -> None:
    # RK-12
    s = pos(["3 4", "5 6", "9 2", "7"], **BENEFIT)
    play(s, "steal")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        s.apply(0, move)
    assert s.to_json() == before


def test_refused_wilds_above_12_explain_the_cap() -> None:
    # RK-4: the reason names the cap, and that a Rank-Up would make a 13
    s = pos(["5", "W W U 3", "9"], turn=1, pile=["12"], pile_value=12, pile_count=1, owner=0)
    with pytest.raises(IllegalActionError, match="no higher than 12; with a Rank-Up they make a 13"):
        s.apply(1, "W")
    s = pos(["5", "W U 3", "9"], turn=1, pile=["12", "U"], pile_value=13, pile_count=1, owner=0)
    with pytest.raises(IllegalActionError, match="13 is the highest value"):
        s.apply(1, "W U")


def test_tokens_are_not_limited_by_the_sixteen_in_the_box() -> None:
    # RK-10 / RK-11 (rulebook: keep track on paper if the 16 tokens run out)
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[4, 4, 4, 4], options={"tokens_to_win": 10})
    play(s, "5")
    assert s.tokens == [5, 4, 6, 4] and sum(s.tokens) == 19 and not s.is_over()


@pytest.mark.parametrize(
    "phase_fields,seat,move,reason",
    [
        (
            {"phase": "kings_hand", "kings_hand": ["1"] * 7, "options": {"kings_hand": True}},
            0,
            "lead",
            "'swap' or 'keep'",
        ),
        (
            {
                "phase": "exchange",
                "options": {"classic_president": True},
                "owed": {"0": 2},
                "exchanges": [{"from": 2, "to": 0, "cards": ["12", "9"], "why": "tax"}],
            },
            0,
            "give 3",
            "exactly 2 cards",
        ),
        (
            {
                "phase": "exchange",
                "options": {"classic_president": True},
                "owed": {"0": 2},
                "exchanges": [{"from": 2, "to": 0, "cards": ["12", "9"], "why": "tax"}],
            },
            0,
            "3 4",
            "give CARDS",
        ),
    ],
)
def test_refused_actions_in_setup_phases(phase_fields: dict[str, Any], seat: int, move: str, reason: str) -> None:
    # RK-13 / RK-14: each phase says what it waits for
    s = pos(["3 4 12 9", "5 6", "2", "7"], round=2, hands_log=log([0, 1, 3, 2]), **phase_fields)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=reason):
        s.apply(seat, move)
    assert s.to_json() == before


def test_a_finished_round_stays_visible_to_every_seat() -> None:
    # RK-16: every card played is public; a Crown ends its round at once (RK-6),
    # so the view keeps the finished round's plays in last_round.
    state = G.state_from_json({"hands": [["5", "1"], ["C", "4"], ["10", "3"]]})
    state.apply(0, "5")
    state.apply(1, "C")
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["round_log"] == []
        assert view["last_round"] == [[0, "5"], [1, "C"]]
