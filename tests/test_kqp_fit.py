"""KQP worlds that fit the moves seen: the engine's ``plays_for``, the view's tax bounds, the record
of the round's piles (``PlayRecord``), ``Evidence`` and ``refit`` in courtcards/bots/kqp.py, and the
search's fairness with them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from courtcards.bots.base import bot_move
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.conformance import resample_hidden
from courtcards.core.errors import ViewError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.kqp.actions import parse_action
from courtcards.games.kqp.bots import Evidence, GreedyKqpBot, PlayRecord, fitter, refit
from courtcards.games.kqp.cards import GOLD
from courtcards.games.kqp.state import KqpState, plays_for
from courtcards.games.kqp.worlds import hand_bounds

KQP = get_game("kqp")


def greedy_round(players: int, seed: int) -> Iterator[tuple[KqpState, PlayRecord]]:
    """Positions of a round of greedy play where seat 0 has a choice in play, with its record so far."""
    state = KQP.new_game(players, {"rounds": 1, "target": None}, seed=seed)
    bots = [GreedyKqpBot(s) for s in range(players)]
    record = PlayRecord()
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if seat == 0 and len(legal) > 1 and state.phase == "play":
            yield state, record.update(state.view(0))
        state.apply(seat, bots[seat].choose_state(state, seat, legal))


def test_plays_for_is_the_engines_legal_list() -> None:
    # the hook lists exactly what the engine lists for the seat holding that hand, leading and following,
    # consecutive mode included (KQ-5, KQ-7)
    checked = consecutive = 0
    for seed in range(6):
        state = KQP.new_game(5, seed=seed)
        rng = Rng(seed)
        while not state.is_over() and state.round == 1:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if state.phase == "play":
                mine = plays_for(list(state.hands[seat]), state.pile_count, state.pile_value, state.consecutive)
                assert [a.text for a in mine] == [a.text for a in legal]
                checked += 1
                consecutive += state.consecutive
            state.apply(seat, legal[rng.below(len(legal))])
    assert checked > 100 and consecutive > 5


@pytest.mark.parametrize("players", [4, 6, 9])
def test_the_real_hands_make_every_move_seen(players: int) -> None:
    # greedy decides from its hand and public facts, and no card comes in during play: with the real
    # hands greedy makes every move the record saw, and the record has the round's plays
    points = 0
    for seed in range(4):
        for state, record in greedy_round(players, seed):
            evidence = Evidence(record, GreedyKqpBot(0))
            for s, seen in evidence.points.items():
                assert s != 0
                assert evidence.misses(s, state.hands[s], state.played[s]) == 0
                points += len(seen)
    assert points > 300


def test_a_hand_greedy_would_have_led_otherwise_is_a_miss() -> None:
    # greedy leads its lowest whole group: a guess giving the leader a lower plain card misses that lead
    for seed in range(20):
        for state, record in greedy_round(6, seed):
            evidence = Evidence(record, GreedyKqpBot(0))
            for s, seen in evidence.points.items():
                lead = next((p for p in seen if p.pile_count == 0 and p.move != "pass"), None)
                led = parse_action(lead.move).value if lead is not None else 0
                if led <= 3 or led > GOLD:
                    continue
                hand = list(state.hands[s])
                low = next((v for v in range(3, led) if not hand[v]), None)
                if low is None or not any(hand):
                    continue
                give = max(range(len(hand)), key=lambda c: hand[c])  # keep the size: one card for another
                hand[give] -= 1
                hand[low] += 1
                assert evidence.misses(s, hand, state.played[s]) >= 1
                return
    raise AssertionError("no lead found")


def test_record_and_evidence_come_from_the_views_only() -> None:
    for seed in range(3):
        for state, record in greedy_round(6, seed):
            other = resample_hidden(state, 0, Rng(seed))
            again = PlayRecord()
            again.round, again.piles = record.round, {k: list(v) for k, v in record.piles.items()}
            assert again.update(other.view(0)).points == record.points
            assert hand_bounds(other.view(0)) == record.bounds


@pytest.mark.parametrize("players", [5, 6])
def test_refit_keeps_the_view_and_the_taxes_and_fits_the_moves_seen_better(players: int) -> None:
    before = after = worlds = 0
    for seed in range(4):
        rng = Rng(seed)
        for state, record in greedy_round(players, seed):
            view = state.view(0)
            world = KQP.sample_world(view, rng.next64())
            refitting = fitter(world, 0, GreedyKqpBot(0), record)
            if refitting is None:
                continue
            first, last = refitting(world, Rng(rng.next64()), 300)
            assert last <= first + 3
            assert json.dumps(world.view(0), sort_keys=True) == json.dumps(view, sort_keys=True)
            assert sorted(world.deck()) == sorted(state.deck()) and world.invariants() == []
            for s, (lo, hi) in record.bounds.items():  # what the taxes showed still holds
                assert all(a <= h <= b for a, h, b in zip(lo, world.hands[s], hi, strict=True))
            before, after = before + first, after + last
            worlds += 1
    assert worlds > 20 and after < 0.5 * before


def test_record_starts_again_for_a_new_game() -> None:
    # a bot reused for a new game: its first round has the same number, but the views' versions go back
    record = PlayRecord()
    for state, _ in greedy_round(6, 0):
        record.update(state.view(0))
    assert record.points
    state, fresh = next((s, r) for s, r in greedy_round(6, 1) if r.points)
    assert record.update(state.view(0)).points == fresh.points


def test_refit_needs_evidence() -> None:
    state = KQP.new_game(6, seed=1)
    assert fitter(state, 0, GreedyKqpBot(0), PlayRecord()) is None  # the taxes: nothing seen in play
    assert fitter(state, 0, GreedyKqpBot(0), None) is None
    _, record = next(greedy_round(6, 1))
    world = KQP.sample_world(next(greedy_round(6, 1))[0].view(0), 1)
    assert refit(world, 0, Evidence(record, GreedyKqpBot(0)), Rng(1), 0)[0] >= 0


def test_search_with_the_fit_is_fair() -> None:
    # the default KQP search (fitted worlds from the seat's record) decides from the views: the hidden
    # cards dealt otherwise, the same move
    checked = 0
    for seed in range(4):
        positions = [state.copy() for state, _ in greedy_round(6, seed)]
        state = positions[len(positions) // 2]
        other = resample_hidden(state, 0, Rng(seed))
        assert json.dumps(other.view(0), sort_keys=True) == json.dumps(state.view(0), sort_keys=True)
        a = ISMCTSBot(seed=2, iterations=40, seconds=60, worlds=8, fit=100, model="greedy")
        b = ISMCTSBot(seed=2, iterations=40, seconds=60, worlds=8, fit=100, model="greedy")
        for earlier in positions[: len(positions) // 2]:  # the same earlier views for both
            a._records.setdefault(0, PlayRecord()).update(earlier.view(0))
            b._records.setdefault(0, PlayRecord()).update(earlier.view(0))
        assert bot_move(a, state, 0).text == bot_move(b, other, 0).text
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("bad", [None, {}, {"game": "rank"}, "taxes", "positions", "played"])
def test_hand_bounds_refuses_a_malformed_view(bad: object) -> None:
    view: object = bad
    if isinstance(bad, str):  # one field of a real view spoiled
        good = KQP.new_game(6, seed=1).view(0)
        spoiled = {**good, bad: [9] if bad == "positions" else None}
        if bad == "played":
            spoiled = {**good, "players": [{**p, "played": ["ZZ"]} for p in good["players"]]}
        view = spoiled
    with pytest.raises(ViewError, match="view"):
        hand_bounds(view)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "hand, count, value", [([0] * 5, 1, 3), ([-1] + [0] * 18, 0, 0), ([0] * 19, 11, 3), ([0] * 19, 1, 99)]
)
def test_plays_for_refuses_a_bad_hand_or_pile(hand: list[int], count: int, value: int) -> None:
    with pytest.raises(ValueError, match="no KQP plays for hand"):
        plays_for(hand, count, value, False)
