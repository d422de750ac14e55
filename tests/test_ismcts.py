"""The search bot: spec forms, determinism, fairness (it sees only the view) and
legality in every game."""

from __future__ import annotations

import json

import pytest

from courtcards.bots.base import bot_kinds, bot_move, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.conformance import resample_hidden
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State

GAMES = {"rank": 4, "kqp": 4, "royale": 2, "royals": 3}


def _midgame(name: str, seed: int = 3, steps: int = 12) -> State:
    """A position a few random actions in where the seat to move has a real choice."""
    game = get_game(name)
    for attempt in range(50):
        state: State = game.new_game(GAMES[name], seed=seed + attempt)
        rng = Rng(seed + attempt)
        for step in range(steps):
            if state.is_over():
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and step > steps // 2:
                return state
            state.apply(seat, legal[rng.below(len(legal))])
        if not state.is_over() and len(state.legal_actions(state.to_move()[0])) > 1:
            return state
    raise AssertionError(f"no {name} position with a choice found")


def test_spec_forms() -> None:
    assert "ismcts" in bot_kinds("rank")
    bot = make_bot("rank", "ismcts:25", 1)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 25
    timed = make_bot("royals", "ismcts:0.5s", 1)
    assert isinstance(timed, ISMCTSBot) and timed.seconds == 0.5
    assert isinstance(make_bot("kqp", "ismcts", 1), ISMCTSBot)


@pytest.mark.parametrize("spec", ["ismcts:0", "ismcts:abc", "ismcts:-3", "ismcts:0s", "ismcts:", "ismcts:1e9s"])
def test_bad_specs_list_the_valid_forms(spec: str) -> None:
    with pytest.raises(OptionError, match=r"valid forms: ismcts \(the default budget\), ismcts:N"):
        make_bot("rank", spec, 0)


def test_unknown_bot_lists_the_search_bot_forms() -> None:
    with pytest.raises(OptionError, match="ismcts:N"):
        make_bot("rank", "alphazero", 0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_seed_and_budget_same_move(name: str) -> None:
    state = _midgame(name)
    seat = state.to_move()[0]
    moves = {bot_move(ISMCTSBot(seed=5, iterations=30, seconds=60), state, seat).text for _ in range(2)}
    assert len(moves) == 1
    assert state.can_apply(seat, moves.pop())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_move_does_not_depend_on_hidden_cards(name: str) -> None:
    # the bot's move is a function of the view: dealing the hidden cards differently
    # (the same view) gives the same move for the same seed
    state = _midgame(name, seed=11)
    seat = state.to_move()[0]
    other = resample_hidden(state, seat, Rng(99))
    assert json.dumps(other.view(seat), sort_keys=True) == json.dumps(state.view(seat), sort_keys=True)
    a = bot_move(ISMCTSBot(seed=2, iterations=30, seconds=60), state, seat)
    b = bot_move(ISMCTSBot(seed=2, iterations=30, seconds=60), other, seat)
    assert a.text == b.text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_plays_legal_moves_to_a_decision(name: str) -> None:
    state = _midgame(name, seed=21, steps=30)
    bot = ISMCTSBot(seed=1, iterations=15, seconds=60)
    for _ in range(5):
        if state.is_over():
            break
        seat = state.to_move()[0]
        move = bot_move(bot, state, seat)
        state.apply(seat, move)


def test_time_budget_is_honoured_on_a_large_lead() -> None:
    # two decks, a lead with many choices: a 0.2 s budget stops the search in time
    import time

    state = get_game("rank").new_game(8, seed=4)
    while state.to_move() and len(state.legal_actions(state.to_move()[0])) < 40:
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_move()[0]
    bot = ISMCTSBot(seed=1, iterations=10**9, seconds=0.2)
    start = time.perf_counter()
    bot_move(bot, state, seat)
    assert time.perf_counter() - start < 10.0  # generous: the point is that it stops
    assert 1 <= bot.last_iterations < 10**9


def test_search_bot_is_named_wherever_bots_are() -> None:
    from typer.testing import CliRunner

    from courtcards.cli.main import app
    from courtcards.sim import check_bots, simulate

    assert check_bots("royale", ["ismcts:3", "mixed"]) == ("royale", ("ismcts:3", "mixed"))
    with pytest.raises(OptionError, match="valid forms"):
        check_bots("royale", ["ismcts:0", "mixed"])
    result = simulate("royale", ["ismcts:2", "random"], 1, seed=1)
    assert result.games == 1
    res = CliRunner().invoke(app, ["simulate", "rank", "--bots", "ismcts:abc", "--games", "1"])
    assert res.exit_code != 0 and "valid forms" in res.output
    res = CliRunner().invoke(app, ["tournament", "kqp", "--bots", "ismcts:0,greedy"])
    assert res.exit_code != 0 and "valid forms" in res.output


def test_early_stop_keeps_the_move_and_saves_iterations() -> None:
    # without a prior the move is the most visited one; the search stops only when no other
    # move can catch up with it, so it makes the same move in fewer iterations
    saved = 0
    for name in ("rank", "kqp"):
        for seed in (3, 5, 8):
            state = _midgame(name, seed=seed)
            seat = state.to_move()[0]
            bots = [ISMCTSBot(seed=4, iterations=400, seconds=60, prior=None, stop_early=s) for s in (True, False)]
            moves = [bot_move(b, state, seat).text for b in bots]
            assert moves[0] == moves[1]
            assert bots[1].last_iterations == 400
            saved += 400 - bots[0].last_iterations
    assert saved > 0


@pytest.mark.parametrize("name", ["rank", "kqp"])
def test_static_evaluation_favours_the_seat_with_fewer_cards(name: str) -> None:
    from courtcards.bots.ismcts import search_profile

    value = search_profile(get_game(name)).value
    assert value is not None
    state = _midgame(name, seed=7, steps=40)
    players = state.view(None)["players"]
    cards = [int(p["hand_size"]) for p in players]
    values = value(state)
    assert all(-1 <= v <= 1 for v in values)
    low, high = cards.index(min(cards)), cards.index(max(cards))
    if min(cards) < max(cards) and not any(p.get("out") for p in players):
        assert values[low] > values[high]


@pytest.mark.parametrize(("depth", "worlds"), [(0, 0), (6, 4)])
def test_truncated_playouts_and_world_pool_are_reproducible_and_fair(depth: int, worlds: int) -> None:
    state = _midgame("kqp", seed=13)
    seat = state.to_move()[0]
    other = resample_hidden(state, seat, Rng(5))
    moves = {
        bot_move(ISMCTSBot(seed=3, iterations=40, seconds=60, depth=depth, worlds=worlds), s, seat).text
        for s in (state, state, other)
    }
    assert len(moves) == 1
