"""King Queens & Paupers' views in the shared words, the engine's event log (rulings
KQ-2..KQ-9 in docs/rulings.md), positions read field by field, and old saves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_kqp_rules import KQP, pos, run, tax_position

from courtcards.core.errors import PositionError, ViewError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.core.views import RETIRED_WORDS, vocabulary_problems
from courtcards.games.kqp.state import KqpState


def log(state: KqpState, seat: int | None = None) -> list[str]:
    return [e["text"] for e in state.view(seat)["log"]]


def play_some(state: KqpState, steps: int) -> KqpState:
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


# -- the shared words ------------------------------------------------------------------------------------
def test_the_view_speaks_the_shared_words() -> None:
    state = play_some(KQP.new_game(5, seed=4), 40)
    for seat in [None, *range(5)]:
        view = state.view(seat)
        assert vocabulary_problems(view) == []
        for p in view["players"]:
            assert not set(p) & RETIRED_WORDS and {"seat", "hand_size", "score"} <= set(p)
        assert "log" not in view["pile"] and isinstance(view["pile"]["plays"], list)
    assert state.view(None)["hand"] == []
    assert state.view(2)["hand"] and len(state.view(2)["hand"]) == state.view(2)["players"][2]["hand_size"]
    assert state.view(None)["players"][3]["score"] == state.totals[3]


def test_piles_and_the_discard_are_top_card_first() -> None:
    # KQ-5, KQ-6: seat 3 leads 5, seat 2 plays 6 (consecutive mode, KQ-7), the rest pass: seat 2 leads anew
    state = pos(hands=[["4", "12"], ["9", "13"], ["6", "10", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "6"))
    pile = state.view(None)["pile"]
    assert pile["cards"] == ["6", "5"] and pile["top"] == ["6"] and pile["count"] == 1 and pile["consecutive"]
    assert pile["plays"] == [[3, "5"], [2, "6"]]
    run(state, (1, "pass"), (0, "pass"), (3, "pass"), (2, "10"))
    view = state.view(None)
    assert view["discard"][:2] == ["6", "5"] and view["pile"]["cards"] == ["10"]
    assert state.to_json()["pile"] == {"cards": ["10"], "owner": 2, "plays": [[2, "10"]], "passes": []}


# -- the event log -----------------------------------------------------------------------------------
def test_plays_passes_and_a_pile_won_are_logged() -> None:
    # KQ-5 plays, KQ-6 passing: the pile ends when every other holder has passed; its owner leads
    state = pos(hands=[["4", "12"], ["9", "13"], ["6", "10", "14"], ["5", "11"]])
    run(state, (3, "5"), (2, "pass"), (1, "9"), (0, "pass"), (3, "pass"), (2, "pass"))
    assert log(state) == [
        "Seat 3 plays 5.",
        "Seat 2 passes.",
        "Seat 1 plays 9.",
        "Seat 0 passes.",
        "Seat 3 passes.",
        "Seat 2 passes: seat 1 wins the pile and leads.",
    ]
    assert [e["seat"] for e in state.view(0)["log"]] == [3, 2, 1, 0, 3, 2]
    assert [e["n"] for e in state.view(0)["log"]] == [1, 2, 3, 4, 5, 6]


def test_consecutive_mode_is_announced() -> None:
    # KQ-7: the second play one value up starts consecutive mode
    hands = [["7", "7", "8", "8"], ["6", "6", "Q", "Q"], ["5", "5", "8", "8", "K"], ["3", "3", "4"]]
    state = run(pos(hands=hands, turn=2), (2, "5 5"), (1, "6 6"))
    assert log(state)[-1] == "Seat 1 plays 6 6; consecutive mode: every play on this pile must be one value up."


def test_a_pile_won_by_a_seat_that_went_out() -> None:
    # KQ-6: seat 2 goes out with its 14 (1st, 1 point: KQ-8); after the passes seat 1, to its left, leads
    state = run(
        pos(hands=[["4", "12"], ["9", "13"], ["14"], ["5", "11"]], turn=2),
        (2, "14"),
        (1, "pass"),
        (0, "pass"),
        (3, "pass"),
    )
    assert log(state) == [
        "Seat 2 plays 14 and goes out 1st: 1 point.",
        "Seat 1 passes.",
        "Seat 0 passes.",
        "Seat 3 passes: seat 2 wins the pile; seat 2 is out, so seat 1 leads.",
    ]


def end_position(**options: Any) -> KqpState:
    # seats 2 and 0 are out; seat 3 leads its last 5, seat 1 tops it with its last card
    return pos(
        hands=[[], ["9"], [], ["5", "7"]],
        finished=[2, 0],
        turn=3,
        scores=[1, 2, 3, 4],
        rounds_log=[{"round": 1, "finish": [0, 1, 2, 3], "points": [1, 2, 3, 4], "scores": [1, 2, 3, 4]}],
        round=2,
        options=options,
    )


def test_going_out_the_round_and_the_game_end_are_logged() -> None:
    # KQ-8: the k-th out scores k, the last n; KQ-9: a total reaching the target ends the game
    state = run(end_position(target=8), (3, "5"), (1, "9"))
    assert log(state) == [
        "Seat 3 plays 5.",
        "Seat 1 plays 9 and goes out 3rd: 3 points.",
        "Seat 3 is left holding cards: last, 4 points.",
        "Round 2 is over: 1st seat 2, 2nd seat 0, 3rd seat 1, 4th seat 3. Scores: seat 0 3, seat 1 5, seat 2 4, "
        "seat 3 8.",
        "The game is over: seat 0 wins with 3 points, the lowest score.",
    ]


def test_a_tied_game_end_says_why() -> None:
    # KQ-9: seats 0 and 1 end on 6; seat 0 finished better in the last round
    state = pos(
        hands=[[], ["9"], [], ["5", "7"]],
        finished=[2, 0],
        turn=3,
        scores=[4, 3, 6, 6],
        round=2,
        rounds_log=[{"round": 1, "finish": [1, 0, 3, 2], "points": [2, 1, 4, 3], "scores": [2, 1, 4, 3]}],
        options={"rounds": 2, "target": None},
    )
    run(state, (3, "5"), (1, "9"))
    assert (
        log(state)[-1] == "The game is over: seat 0 wins with 6 points, the lowest score, tied but ahead in "
        "the last round."
    )


def test_a_new_round_logs_the_seating_the_deal_and_the_taxes_secretly() -> None:
    # KQ-2 seats by the last finish, KQ-3 the deal from the King, KQ-4 taxes seen by the two seats only
    state = pos(
        hands=[[], ["9"], [], ["5", "7"], []],
        finished=[2, 0, 4],
        turn=3,
        num_players=5,
        options={"rounds": 2, "target": None},
    )
    run(state, (3, "5"), (1, "9"))  # finish: 2 0 4 1 3
    public = log(state)
    at = public.index(
        "Round 2: seats by the last round's finish: King seat 2, Queen seat 0, Commoner seat 4, "
        "Pauper-1 seat 1, Pauper-2 seat 3. The cards are dealt one at a time from the King "
        "counter-clockwise: 26 cards each to seat 2, seat 0, seat 4 and seat 1, 25 each to seat 3."
    )
    assert public[at + 1 :] == [
        "Seat 3 (Pauper-2) pays seat 2 (King) 2 cards in tax.",
        "Seat 1 (Pauper-1) pays seat 0 (Queen) 1 card in tax.",
    ]
    paid = {(e["from"], e["to"]): " ".join(e["cards"]) for e in state.taxes}
    for seat in (None, 4, 0, 1):  # the spectator, the Commoner, and the other tax's two seats
        assert log(state, seat)[at + 1] == public[at + 1]
    for seat in (None, 4, 2, 3):
        assert log(state, seat)[at + 2] == public[at + 2]
    for seat in (3, 2):
        assert log(state, seat)[at + 1] == f"Seat 3 (Pauper-2) pays seat 2 (King) {paid[(3, 2)]} in tax."
    for seat in (1, 0):
        assert log(state, seat)[at + 2] == f"Seat 1 (Pauper-1) pays seat 0 (Queen) {paid[(1, 0)]} in tax."
    saved = state.to_json()["events"]
    assert {s: v["text"] for s, v in saved[-1]["secret"].items()} == {"0": log(state, 0)[-1], "1": log(state, 1)[-1]}
    assert saved[-1]["secret"]["0"]["data"] == {"from": 1, "to": 0, "count": 1, "cards": paid[(1, 0)].split()}
    assert saved[-1]["kind"] == "tax" and saved[-1]["data"] == {"from": 1, "to": 0, "count": 1}


def test_give_backs_are_logged_with_their_cards_for_the_two_seats_only() -> None:
    # KQ-4: the King and Queen choose in secret; the cards go to the giver and receiver only
    state = tax_position()
    state.apply(0, "give 3 G")
    assert log(state) == ["Seat 0 (King) has chosen a give-back."]
    assert log(state, 0) == ["Seat 0 (King) has chosen to give back 3 G."]
    for seat in (1, 2, 3):
        assert "3 G" not in json.dumps(state.view(seat))
    state.apply(1, "give 5")
    assert log(state)[1:] == [
        "Seat 0 (King) gives back to seat 3 (Pauper-2) 2 cards.",
        "Seat 1 (Queen) gives back to seat 2 (Pauper-1) 1 card.",
        "Seat 3 (Pauper-2) leads the first pile.",
    ]
    for seat in (0, 3):
        assert log(state, seat)[1] == "Seat 0 (King) gives back to seat 3 (Pauper-2) 3 G."
    for seat in (1, 2):
        assert log(state, seat)[2] == "Seat 1 (Queen) gives back to seat 2 (Pauper-1) 5."
    assert log(state, 2)[1] == log(state)[1] and log(state, 0)[2] == log(state)[2]


def test_the_log_is_saved_and_a_sampled_world_keeps_the_seats_log() -> None:
    state = play_some(KQP.new_game(4, seed=9), 30)
    again = KQP.state_from_json(json.loads(json.dumps(state.to_json())))
    for seat in [None, 0, 1, 2, 3]:
        assert again.view(seat)["log"] == state.view(seat)["log"]
    view = state.view(1)
    world = KQP.sample_world(view, 5)
    assert world.view(1) == view


# -- positions ---------------------------------------------------------------------------------------
HANDS = [["4", "12"], ["9", "13"], ["6", "10", "14"], ["5", "11"]]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"scores": [0, 0, "x", 0]}, "scores[2]"),
        ({"scores": [0, 0, 0]}, "scores"),
        ({"pile": {"cards": ["6", "X"], "owner": 2}}, "pile.cards[1]"),
        ({"pile": {"cards": ["5", "6"], "owner": 2}}, "pile.cards"),
        ({"pile": {"cards": ["6"]}}, "pile.owner"),
        ({"pile": {"cards": ["6"], "owner": 9}}, "pile.owner"),
        ({"pile": {"cards": ["6", "5"], "plays": [[3, "5"], [2, "7"]]}}, "pile.plays"),
        ({"pile": {"cards": ["5"], "plays": [[3, "give 5"]]}}, "pile.plays[0][1]"),
        ({"pile": ["5"]}, "pile"),
        ({"hands": [["4"], ["9"], ["6", 7], ["5"]]}, "hands[2][1]"),
        ({"positions": [0, 1, 1, 2]}, "positions"),
        ({"turn": 4}, "turn"),
        ({"phase": "dealing"}, "phase"),
        ({"round": 0}, "round"),
        ({"finished": ["0"]}, "finished[0]"),
        ({"played": [[], [], ["Z"], []]}, "played[2][0]"),
        (
            {"rounds_log": [{"round": 1, "finish": [0, 1, 2, 3], "points": [1, 2, 3, 4], "scores": [1, 2, 3]}]},
            "rounds_log[0].scores",
        ),
        ({"taxes": [{"from": 3, "to": 0, "cards": ["5"], "why": "gift"}]}, "taxes[0].why"),
        ({"phase": "tax", "owed": {"2": 1}}, "owed.2"),
        ({"phase": "tax", "owed": {"0": 3}}, "owed.0"),
        ({"winner": -1}, "winner"),
        ({"discard": ["3"]}, "discard"),
    ],
)
def test_a_bad_field_is_named(change: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError) as exc:
        KQP.state_from_json({"hands": HANDS, **change})
    assert exc.value.field == field, exc.value


def test_the_pile_needs_no_count_its_cards_say_it() -> None:
    # KQ-5: each play is higher than the one below, so the runs of one value are the plays; the King on a
    # triple keeps the pile's count at 3 (KQ-5), the second play one value up is consecutive mode (KQ-7)
    state = pos(hands=[["3"], ["4"], ["5"], ["6"]], pile={"cards": ["K", "8", "8", "8"], "owner": 1}, turn=2)
    pile = state.view(None)["pile"]
    assert (pile["count"], pile["top"], pile["value"], pile["consecutive"]) == (3, ["K"], "K", False)
    state = pos(hands=[["3", "7", "7"], ["4"], ["5"], ["6"]], pile={"cards": ["6", "6", "5", "5"], "owner": 1}, turn=0)
    assert state.consecutive and [a.text for a in state.legal_actions(0)] == ["7 7", "pass"]


def v2(data: dict[str, Any], consecutive: bool = False) -> dict[str, Any]:
    """A format-3 KQP state written the way format 2 saved it (the layout before issue 11)."""
    out = {k: v for k, v in data.items() if k != "events"}
    out["format_version"] = 2
    pile = out.pop("pile")
    cards = pile["cards"][::-1]
    plays = [t for _, t in pile["plays"] if t != "pass"]
    top = plays[-1].split() if plays else []
    out.update(
        pile=cards,
        top=top,
        pile_count=len(plays[0].split()) if plays else 0,
        owner=pile["owner"],
        first_value=plays[0].split()[0] if plays else None,
        plays=len(plays),
        consecutive=consecutive,
        passes=pile["passes"],
        pile_log=pile["plays"],
    )
    out["totals"] = out.pop("scores")
    out["rounds_log"] = [{("totals" if k == "scores" else k): v for k, v in r.items()} for r in out["rounds_log"]]
    if isinstance(out.get("start"), dict):
        out["start"] = v2({**out["start"], "format_version": 2})
    return out


def test_an_old_saved_state_still_loads() -> None:
    state = play_some(KQP.new_game(5, {"rounds": 3, "target": None}, seed=21), 400)
    assert state.rounds_log and state.pile
    now = state.to_json()
    old = v2(json.loads(json.dumps(now)), state.consecutive)
    assert "pile_count" in old and "totals" in old and isinstance(old["pile"], list)
    loaded = KQP.state_from_json(old)
    again = loaded.to_json()
    assert {k: v for k, v in again.items() if k not in ("events", "format_version")} == {
        k: v for k, v in now.items() if k not in ("events", "format_version")
    }
    assert loaded.view(2)["pile"] == state.view(2)["pile"]
    assert json.dumps(loaded.record().replay().to_json()["hands"]) == json.dumps(now["hands"])


def test_an_old_explicit_position_still_loads() -> None:
    # format 2: the pile bottom card first with its top, pile_count and log; totals
    old = {
        "format_version": 2,
        "hands": [["4", "12"], ["9", "13"], ["10", "14"], ["11"]],
        "turn": 1,
        "pile": ["5", "6"],
        "top": ["6"],
        "pile_count": 1,
        "owner": 2,
        "consecutive": True,
        "plays": 2,
        "pile_log": [[3, "5"], [2, "6"]],
        "totals": [1, 2, 3, 4],
        "round": 2,
        "rounds_log": [{"round": 1, "finish": [0, 1, 2, 3], "points": [1, 2, 3, 4], "totals": [1, 2, 3, 4]}],
    }
    state = KQP.state_from_json(old)
    view = state.view(None)
    assert view["pile"]["cards"] == ["6", "5"] and view["pile"]["consecutive"] and view["pile"]["owner"] == 2
    assert [p["score"] for p in view["players"]] == [1, 2, 3, 4]
    assert view["rounds_log"][0]["scores"] == [1, 2, 3, 4]
    assert [a.text for a in state.legal_actions(1)] == ["pass"]  # consecutive mode: only a 7 (KQ-7)


def test_a_world_refuses_a_malformed_log() -> None:
    state = play_some(KQP.new_game(4, seed=9), 12)
    view = json.loads(json.dumps(state.view(2)))
    view["log"][1]["text"] = 7
    with pytest.raises(ViewError, match=r"log\[1\]\.text"):
        KQP.sample_world(view, 1)
    view = json.loads(json.dumps(state.view(2)))
    view["log"][1]["n"] += 1
    with pytest.raises(ViewError, match="one after another"):
        KQP.sample_world(view, 1)


def test_the_climbing_helpers_kqp_shares_with_rank() -> None:
    from courtcards.core.climbing import count_texts, expand, frozen_record, thawed_record
    from courtcards.games.kqp.cards import TEXT, texts

    counts = [0, 0, 0, 2, 0, 1, *([0] * 9), 3, 10, 2, 1]
    assert texts(counts) == [TEXT[c] for c in expand(counts, 3)]
    small = count_texts(TEXT, range(3, 19), most=2)
    assert small(counts) == texts(counts)  # more copies than its rows: still right
    entry = frozen_record({"from": 3, "to": 0, "cards": ["G", "G"], "why": "tax"})
    with pytest.raises(TypeError):
        entry["why"] = "give"  # type: ignore[index]
    out = thawed_record(entry)
    assert out == {"from": 3, "to": 0, "cards": ["G", "G"], "why": "tax"}
    out["cards"].append("3")
    assert entry["cards"] == ("G", "G")


def test_the_terminal_shows_the_engines_sentences() -> None:
    # KQ-4 as the terminal tells it: the engine's log, the viewer's seat marked, no secret to the others
    from rich.text import Text

    from courtcards.games.kqp.render import describe_event, describe_start

    state = tax_position()
    before = {s: state.view(s) for s in (None, 0, 2)}
    state.apply(0, "give 3 G")
    state.apply(1, "give 5")

    def told(seat: int | None) -> list[str]:
        return [Text.from_markup(line).plain for line in describe_event(before[seat], state.view(seat), 1, "give 5")]

    # seats numbered from 1 for the player (engine seat 0 is "Seat 1")
    assert told(0) == [
        "Seat 1 (you, King) has chosen to give back 3 G.",
        "Seat 1 (you, King) gives back to seat 4 (Pauper-2) 3 G.",
        "Seat 2 (Queen) gives back to seat 3 (Pauper-1) 1 card.",
        "Seat 4 (Pauper-2) leads the first pile.",
    ]
    assert told(2)[:3] == [
        "Seat 1 (King) has chosen a give-back.",
        "Seat 1 (King) gives back to seat 4 (Pauper-2) 2 cards.",
        "Seat 2 (Queen) gives back to seat 3 (you, Pauper-1) 5.",
    ]
    assert "3 G" not in " ".join(told(None))
    fresh = KQP.new_game(4, seed=1)
    assert Text.from_markup(describe_start(fresh.view(2))[0]).plain.startswith("Round 1: seats drawn at random")


FIXTURES = Path(__file__).parent / "fixtures" / "positions"


def test_a_format_2_save_and_record_from_before_still_load_and_play_on() -> None:
    # written by the engine before issue 11 (commit dc60b1b): a state saved mid-pile in round 2, and a
    # record started from that position (record format 1, its start naming no format_version)
    saved = json.loads((FIXTURES / "kqp_v2.json").read_text(encoding="utf-8"))
    assert saved["format_version"] == 2 and saved["pile"] == ["3", "4"] and "pile_count" in saved
    state = KQP.state_from_json(saved)
    pile = state.view(None)["pile"]
    assert pile["cards"] == ["4", "3"] and pile["consecutive"] and pile["plays"] == [[3, "3"], [1, "pass"], [0, "4"]]
    assert [p["score"] for p in state.view(None)["players"]] == saved["totals"]
    assert state.view(None)["rounds_log"][0]["scores"] == saved["rounds_log"][0]["totals"]
    assert state.to_json()["hands"] == saved["hands"] and state.record().replay().to_json()["hands"] == saved["hands"]
    record = GameRecord.load(FIXTURES / "kqp_v2_record.json")
    assert record.start is not None and record.start["format_version"] == 2
    final = record.replay()
    for seat, text in record.actions:
        state.apply(seat, text)
    mine = {k: v for k, v in state.to_json().items() if k not in ("history", "start", "events", "version")}
    assert {k: v for k, v in final.to_json().items() if k not in ("history", "start", "events", "version")} == mine


def test_format_2_names_in_a_format_3_position_are_refused_with_the_reason() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"pile_count": 1}, "pile_count"),
        ({"totals": [0] * 4}, "totals"),
        ({"top": ["5"]}, "top"),
        ({"pile_log": []}, "pile_log"),
        ({"owner": 1}, "owner"),
    ]
    for change, field in cases:
        with pytest.raises(PositionError, match="format_version 2's name") as exc:
            KQP.state_from_json({"hands": HANDS, **change})
        assert exc.value.field == field
    with pytest.raises(PositionError, match="format_version 2") as exc:
        KQP.state_from_json({"hands": HANDS, "pile": ["5"]})
    assert exc.value.field == "pile"
    assert KQP.state_from_json({"hands": HANDS, "pile": ["5"], "owner": 3, "format_version": 2}).owner == 3


@pytest.mark.parametrize("seed", range(6))
def test_the_fast_generators_list_exactly_what_the_rules_allow(seed: int) -> None:
    # KQ-4 to KQ-7: refusal() is the rules' one statement; _gives and _legal must agree with it
    import itertools

    from courtcards.core.rng import Rng
    from courtcards.games.kqp import actions as KA
    from courtcards.games.kqp.cards import NCODES as N

    game = get_game("kqp")
    rng = Rng(seed)
    state = game.new_game(4 + seed % 3, {"rounds": 2, "target": None}, seed=seed)
    checked = 0
    while not state.is_over() and checked < 120:
        for seat in state.to_move():
            h = state.hands[seat]
            held = [v for v in range(N) if h[v]]
            candidates = {KA.PASS}
            for v in held:
                candidates.update(KA.make("play", (v,) * c) for c in range(1, h[v] + 2))
                candidates.update(KA.make("give", (v,) * c) for c in range(1, 3))
            for v, w in itertools.combinations(held, 2):
                candidates.add(KA.make("play", (v, w)))
                candidates.add(KA.make("give", (v, w)))
            legal = set(state.legal_actions(seat))
            allowed = {a for a in candidates if state.refusal(seat, a) is None}
            assert allowed == legal & candidates, (seat, state.phase)
            assert all(state.refusal(seat, a) is None for a in legal)
            checked += 1
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        options = state.legal_actions(seat)
        state.apply(seat, options[rng.below(len(options))])
    assert checked >= 40
