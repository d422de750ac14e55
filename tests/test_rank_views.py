"""Rank's view in the shared words, the engine's event log (what each seat is told),
old saved positions, and the rules stated once (refusals from the legality code)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from engine_build import pure_only
from test_rank_hands import BENEFIT, log
from test_rank_rules import G, play, pos

from courtcards.core.errors import PositionError
from courtcards.core.rng import Rng
from courtcards.core.views import RETIRED_WORDS, vocabulary_problems
from courtcards.games.rank import actions as A
from courtcards.games.rank.cards import NCODES, TEXT
from courtcards.games.rank.state import RankState


def texts(state: RankState, seat: int | None = None, since: int = 0) -> list[str]:
    """The log's sentences as ``seat`` sees them, from event ``since`` on."""
    return [e["text"] for e in state.view(seat)["log"] if e["n"] > since]


def last_n(state: RankState) -> int:
    return int(state.events.n)


# -- the shared words ------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"endless": True, "hands": 2}, {"kings_hand": True}])
def test_the_view_speaks_the_shared_words(options: dict[str, Any]) -> None:
    s = G.new_game(4, options, seed=5)
    rng = Rng(3)
    for _ in range(60):
        if s.is_over():
            break
        for seat in [None, *range(4)]:
            v = s.view(seat)
            assert vocabulary_problems(v) == []
            assert not RETIRED_WORDS & {k for p in v["players"] for k in p}
            assert v["round"] == s.hand_number and v["deck_size"] == len(s.draw)
            assert [p["hand_size"] for p in v["players"]] == s.sizes
            # RK-15: in Endless the score is times King, as result().scores ranks by; else tokens
            assert [p["score"] for p in v["players"]] == (s.kings if options.get("endless") else s.tokens)
            assert [p["times_king"] for p in v["players"]] == s.kings
            assert v["hand"] == ([] if seat is None else s.card_places()[f"hand:{seat}"])
        (seat,) = s.to_move()[:1]
        legal = s.legal_actions(seat)
        s.apply(seat, legal[rng.below(len(legal))])


# -- the event log ---------------------------------------------------------------------------


def test_a_play_is_worded_from_the_engines_count_and_value() -> None:
    # RK-4: "8 8 7 U" is three 8s; Wilds alone take one above the pile; RK-5: a Rank-Down any value
    s = pos(["8 8 7 U 2", "W W W 3", "9 9 9 D 4"], turn=0)
    n = last_n(s)
    play(s, "8 8 7 U", "W W W", "9 9 9 D")
    assert texts(s, None, n) == [
        "Seat 0 plays 8 8 7 U (three 8s).",
        "Seat 1 plays W W W (three 9s).",
        "Seat 2 plays 9 9 9 D (three 9s).",
    ]


def test_passes_a_round_won_and_who_leads_next() -> None:
    # RK-8 / RK-9: the owner leads; if the owner is out, the next holder to the owner's left
    s = pos(["5 6", "7 1", "2 3"], turn=0)
    n = last_n(s)
    play(s, "6", "7", "pass", "pass")
    assert texts(s, None, n) == [
        "Seat 0 plays 6 (a 6).",
        "Seat 1 plays 7 (a 7).",
        "Seat 2 passes.",
        "Seat 0 passes.",
        "Seat 1 wins the round and leads.",
    ]
    s = pos(["5 6", "8", "2 3"], turn=0)
    n = last_n(s)
    play(s, "6", "8", "pass", "pass")
    assert texts(s, None, n)[1:] == [
        "Seat 1 plays 8 (an 8) and is out (1st).",
        "Seat 2 passes.",
        "Seat 0 passes.",
        "Seat 1 wins the round; seat 2 leads.",
    ]


def test_a_crown_wins_the_round_at_once() -> None:
    # RK-6
    s = pos(["5 6", "C 1", "2 3"], turn=0)
    n = last_n(s)
    play(s, "6", "C")
    assert texts(s, None, n) == ["Seat 0 plays 6 (a 6).", "Seat 1 plays a Crown and wins the round."]


def test_crown_draw_2_shows_the_drawn_cards_to_the_drawer_only() -> None:
    # RK-6 / RK-16: everyone learns how many cards were drawn; only the drawer which
    s = pos(["5", "C2 4", "9"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0, draw_pile=["3", "11", "1"])
    n = last_n(s)
    play(s, "C2")
    public = "Seat 1 plays a Crown + Draw 2, wins the round and draws 2 cards."
    assert texts(s, None, n) == texts(s, 0, n) == texts(s, 2, n) == [public]
    assert texts(s, 1, n) == ["Seat 1 plays a Crown + Draw 2, wins the round and draws 2 cards: 11 3."]
    saved = G.state_from_json(s.to_json())  # the secret wording is saved with the state
    assert texts(saved, 1, n) == texts(s, 1, n) and texts(saved, 0, n) == [public]


def test_a_lone_rank_up_or_down() -> None:
    # RK-7: it moves the pile by one and its player sits out; led, it is shed and the next player leads
    s = pos(["U", "9 9", "10"], turn=0, pile=["12"], pile_value=12, pile_count=1, owner=2)
    n = last_n(s)
    play(s, "U")
    assert (
        texts(s, None, n)[0] == "Seat 0 plays a lone Rank-Up: the pile is now a 13; seat 0 sits out the "
        "round and is out (1st)."
    )
    s = pos(["D U", "9 9", "10"], turn=0)
    n = last_n(s)
    play(s, "D")
    assert texts(s, None, n) == ["Seat 0 sheds a lone Rank-Down and sits out the round.", "Seat 1 leads."]


def test_the_end_of_a_hand_and_of_the_game() -> None:
    # RK-10: places, characters and tokens; RK-11: the game's end
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[4, 0, 0, 0])
    n = last_n(s)
    play(s, "5")
    assert texts(s, None, n) == [
        "Seat 1 plays 5 (a 5) and is out (3rd).",
        "Hand 1 is over: seat 2 is King (+2 tokens), seat 0 Queen (+1 token), seat 1 Knight, seat 3 Beggar. "
        "Tokens: seat 0 5, seat 1 0, seat 2 2, seat 3 0.",
        "Seat 0 wins the game with 5 Royal Tokens.",
    ]


def test_endless_counts_times_king() -> None:
    # RK-15
    s = pos(
        ["", "5", "", "7 8"],
        turn=1,
        finished=[2, 0],
        options={"endless": True, "hands": 2},
        round=2,
        times_king=[1, 0, 0, 0],
        hands_log=log([0, 1, 2, 3]),
    )
    n = last_n(s)
    play(s, "5")
    assert texts(s, None, n)[1:] == [
        "Hand 2 is over: seat 2 is King, seat 0 Queen, seat 1 Knight, seat 3 Beggar. "
        "Times King: seat 0 1, seat 1 0, seat 2 1, seat 3 0.",
        "Seat 2 wins the game, King in 1 of 2 hands (RK-15).",
    ]


def test_a_new_hand_is_dealt_and_the_king_chooses() -> None:
    # RK-12: after a hand the King chooses lead or steal
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0])
    n = last_n(s)
    play(s, "5")
    assert texts(s, None, n)[2:] == [
        "Hand 2 is dealt: 15 cards each, 38 in the draw pile.",
        "The King (seat 2) chooses: lead, or steal from the Beggar.",
    ]


def test_the_first_hand_names_the_characters() -> None:
    # RK-2: characters at random, 15 each, the King leads
    s = G.new_game(4, seed=2)
    king, queen, beggar = (s.characters.index(r) for r in ("king", "queen", "beggar"))
    assert texts(s) == [
        f"Hand 1: characters dealt at random: seat {king} King, seat {queen} Queen, "
        f"seat {beggar} Beggar; 15 cards each, 38 in the draw pile.",
        f"The King (seat {king}) leads.",
    ]


def test_steal_and_give_back_are_seen_by_king_and_beggar_only() -> None:
    # RK-12 / RK-16: everyone learns that a card moved; only the King and the Beggar which
    s = pos(["3 4", "5 6", "9 2", "7"], **BENEFIT)
    n = last_n(s)
    play(s, "steal", "give 4")
    public = [
        "The King (seat 0) steals a card from the Beggar (seat 2).",
        "Seat 0 gives a card back to seat 2.",
        "The Queen (seat 1) leads.",
    ]
    seen = [
        "The King (seat 0) steals 9 from the Beggar (seat 2).",
        "Seat 0 gives 4 back to seat 2.",
        "The Queen (seat 1) leads.",
    ]
    assert texts(s, None, n) == texts(s, 1, n) == texts(s, 3, n) == public
    assert texts(s, 0, n) == texts(s, 2, n) == seen


def test_the_king_chooses_to_lead() -> None:
    # RK-12
    s = pos(["3 4", "5 6", "9 2", "7"], **BENEFIT)
    n = last_n(s)
    play(s, "lead")
    assert texts(s, None, n) == ["The King (seat 0) chooses to lead."]


def test_classic_president_taxes_are_seen_by_the_two_seats_only() -> None:
    # RK-13: the Beggar's two highest to the King, the second-to-last's highest to the Queen
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], options={"classic_president": True})
    n = last_n(s)
    play(s, "5")
    finish = s.hands_log[-1]["finish"]
    king, queen, second_last, beggar = finish[0], finish[1], finish[-2], finish[-1]
    taxes = [e for e in s.exchanges if e["why"] == "tax"]
    for seat in range(4):
        lines = texts(s, seat, n)
        for e in taxes:
            cards = " ".join(e["cards"])
            words = "a card" if len(e["cards"]) == 1 else f"{len(e['cards'])} cards"
            shown = cards if seat in (e["from"], e["to"]) else words
            assert f"Seat {e['from']} hands {shown} to seat {e['to']} (Classic President)." in lines
    assert {(e["from"], e["to"]) for e in taxes} == {(beggar, king), (second_last, queen)}


def test_a_secret_give_back_is_known_to_be_chosen_not_what() -> None:
    # RK-13 with RK-16: King and Queen give back at once; each sees only its own choice until both have
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], options={"classic_president": True})
    play(s, "5")
    assert s.to_move() == (0, 2)
    choice = s.legal_actions(2)[0]
    s.apply(2, choice)
    public = "Seat 2 has chosen what to give back."
    for seat in (None, 0, 1, 3):
        assert s.view(seat)["log"][-1]["text"] == public
    assert s.view(2)["log"][-1]["text"] == f"Seat 2 chooses to {choice.text} (hidden until both have chosen)."
    s.apply(0, s.legal_actions(0)[0])
    assert s.phase == "play" and all(public != e["text"] for e in s.view(0)["log"][-1:])


def test_the_kings_hand_choice() -> None:
    # RK-14
    s = pos(
        ["3 4", "5 6", "9 2", "7"],
        kings_hand=["1"] * 7,
        options={"kings_hand": True},
        **BENEFIT | {"phase": "kings_hand"},
    )
    n = last_n(s)
    play(s, "swap")
    assert texts(s, None, n)[0] == "The King (seat 0) takes the King's Hand and sets his own aside unseen."


def test_a_sampled_world_keeps_the_seats_log() -> None:
    # the world's view of the seat equals the seat's view, log included (secret wording too)
    s = pos(["5", "C2 4", "9"], turn=1, pile=["8"], pile_value=8, pile_count=1, owner=0, draw_pile=["3", "11", "1"])
    play(s, "C2")
    for seat in range(3):
        world = G.sample_world(s.view(seat), rng=4)
        assert world.view(seat)["log"] == s.view(seat)["log"]


# -- positions -------------------------------------------------------------------------------


def test_a_format_2_save_still_loads() -> None:
    # format_version 2: hand_number, the draw pile bottom card first, the pile in the order put down
    s = pos(
        ["6 6 5", "9 W 1", "3 3 12"],
        turn=2,
        round=2,
        hands_log=log([0, 1, 2]),
        tokens=[2, 1, 0],
        draw_pile=["4", "10", "1"],
    )
    play(s, "3 3", "6 6", "9 W")  # seats 0 and 1 beat it: the pile is 3 3, 6 6, then 9 W
    now = s.to_json()
    assert now["draw_pile"] == ["4", "10", "1"] and now["pile"] == ["W", "9", "6", "6", "3", "3"]  # top first
    old = {
        **now,
        "format_version": 2,
        "hand_number": now["round"],
        "draw_pile": ["1", "10", "4"],
        "pile": ["3", "3", "6", "6", "9", "W"],
    }
    del old["round"]
    assert G.state_from_json(old).to_json() == now
    assert G.state_from_json({**old, "format_version": 1}).to_json() == now
    assert s.view(None)["pile"]["cards"] == now["pile"] and s.card_places()["pile"] == now["pile"]


def test_a_finish_order_naming_a_seat_that_holds_cards_is_refused() -> None:
    # RK-10: 'finished' lists the players who have gone out, in order; one still holding cards is a contradiction
    with pytest.raises(PositionError) as caught:
        G.state_from_json({"hands": [["5"], ["6"], ["7", "8"]], "finished": [1], "turn": 0})
    assert caught.value.field == "finished" and "seat 1" in caught.value.reason
    ok = G.state_from_json({"hands": [["5"], [], ["7", "8"]], "finished": [1], "turn": 0})
    assert ok.view(None)["players"][1]["out"] == 1


def test_a_current_position_that_says_hand_number_is_refused() -> None:
    with pytest.raises(PositionError, match="'hand_number'.*called 'round'"):
        G.state_from_json({"hands": [["5"], ["6"], ["7"]], "hand_number": 2})


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("tokens", [0, -1, 0], r"tokens\[1\]"),
        ("passed", [False, 1, False], r"passed\[1\]"),
        ("draw_pile", ["1", 7], r"draw_pile\[1\]"),
        ("round", "two", "round"),
        ("owner", 5, "owner"),
        ("round_log", [[0, "8 8 x"]], r"round_log\[0\]\[1\]"),
        ("exchanges", [{"from": 0, "cards": ["5"]}], r"exchanges\[0\]\.to"),
        ("owed", {"7": 1}, r"owed\.7"),
        ("characters", ["king", "queen", "jester"], r"characters\[2\]"),
    ],
)
def test_a_bad_field_is_named(field: str, value: Any, path: str) -> None:
    with pytest.raises(PositionError, match=path):
        G.state_from_json({"hands": [["5"], ["6"], ["7"]], field: value})


# -- the rules once: the refusal comes from the legality code --------------------------------


def _formable(counts: list[int]) -> list[A.RankAction]:
    """Every play that can be made from a hand (each sub-multiset of its cards)."""
    codes = [c for c in range(NCODES) if counts[c]]
    out = []
    for picks in itertools.product(*(range(counts[c] + 1) for c in codes)):
        cards = [c for c, k in zip(codes, picks, strict=True) for _ in range(k)]
        if cards:
            out.append(A.RankAction.parse(" ".join(TEXT[c] for c in cards)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_fast_play_generator_lists_exactly_what_the_rules_allow(seed: int) -> None:
    # RK-4 to RK-8: _legal_plays (the fast enumeration) equals every formable play and pass
    # that _why_not (the one statement of the rules, also behind refusal) lets through
    s = G.new_game(3 + seed % 3, seed=seed)
    rng = Rng(seed)
    checked = 0
    while not s.is_over() and checked < 25:
        (seat,) = s.to_move()[:1]
        if s.phase == "play":
            h = s.hands[seat]
            if sum(1 for c in h if c) <= 11:  # keep the sub-multisets few
                allowed = {a for a in [*_formable(h), A.PASS] if s.refusal(seat, a) is None}
                assert allowed == set(s.legal_actions(seat))
                checked += 1
        legal = s.legal_actions(seat)
        s.apply(seat, legal[rng.below(len(legal))])


@pure_only
def test_the_cores_default_words_for_a_secret_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from courtcards.core.state import State

    monkeypatch.setattr(RankState, "_committed", State._committed)  # a game that words none of its own
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], options={"classic_president": True})
    play(s, "5")
    choice = s.legal_actions(0)[0]
    s.apply(0, choice)
    assert s.view(1)["log"][-1] == {
        "n": s.events.n,
        "seat": 0,
        "kind": "commit",
        "data": {"seat": 0},
        "template": "{seat} has chosen (hidden until every seat has chosen)",
        "text": "Seat 0 has chosen (hidden until every seat has chosen)",
    }
    assert s.view(0)["log"][-1]["text"] == f"Seat 0 chooses {choice.text} (hidden until every seat has chosen)"
