"""The shared core: registry, options, randomness, records, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtcards.core import (
    GameOverError,
    GameRecord,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PositionError,
    RecordError,
    Rng,
    UnknownGameError,
    get_game,
)
from courtcards.core.conformance import random_playout
from courtcards.core.options import parse_option_pairs


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known games: .*rank"):
        get_game("chess")


def test_game_names_are_case_insensitive() -> None:
    assert get_game(" Rank ") is get_game("rank")


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(OptionError, match="valid options: tokens_to_win, classic_president"):
        get_game("rank").new_game(4, {"tokens": 3})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tokens_to_win": 0}, "an integer in 1..100"),
        ({"tokens_to_win": "many"}, "an integer"),
        ({"endless": "perhaps"}, "true or false"),
        ({"kings_hand": True}, "at most 5 players"),
    ],
)
def test_bad_option_values_say_what_is_accepted(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        get_game("rank").new_game(6, options)


def test_options_from_text_are_coerced() -> None:
    state = get_game("rank").new_game(4, parse_option_pairs(["tokens_to_win=3", "classic-president=yes"]))
    assert state.options["tokens_to_win"] == 3
    assert state.options["classic_president"] is True


def test_option_pairs_need_an_equals_sign() -> None:
    with pytest.raises(OptionError, match="name=value"):
        parse_option_pairs(["tokens_to_win"])


def test_presets_apply_and_unknown_presets_are_listed() -> None:
    game = get_game("rank")
    assert game.new_game(4, preset="classic-president").options["classic_president"] is True
    assert game.new_game(4, {"tokens_to_win": 2}, preset="quick").options["tokens_to_win"] == 2
    with pytest.raises(OptionError, match="valid presets: .*endless"):
        game.new_game(4, preset="turbo")


def test_player_count_outside_the_range_is_refused() -> None:
    with pytest.raises(OptionError, match="3 to 12 players"):
        get_game("rank").new_game(2)


def test_rng_is_deterministic_and_matches_known_values() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]
    # SplitMix64 reference output for seed 0
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(min_value=1, max_value=1000))
def test_rng_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


def test_rng_shuffle_is_a_permutation_and_not_the_identity() -> None:
    items = list(range(50))
    Rng(7).shuffle(items)
    assert sorted(items) == list(range(50)) and items != list(range(50))


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    game = get_game("rank")
    assert game.new_game(5, seed=3).to_json() == game.new_game(5, seed=3).to_json()
    assert game.new_game(5, seed=3).to_json()["hands"] != game.new_game(5, seed=4).to_json()["hands"]


def test_errors_name_the_action_and_leave_the_state_unchanged() -> None:
    state = get_game("rank").new_game(4, seed=5)
    before = state.to_json()
    seat = state.to_move()[0]
    idle = (seat + 1) % 4
    with pytest.raises(NotYourTurnError, match=f"seat {idle}"):
        state.apply(idle, "pass")
    with pytest.raises(NotationError, match="'banana'"):
        state.apply(seat, "banana")
    with pytest.raises(IllegalActionError, match="'pass'"):
        state.apply(seat, "pass")  # the leader cannot pass
    with pytest.raises(NotYourTurnError, match="no seat 9"):
        state.apply(9, "pass")
    assert state.to_json() == before


def test_actions_after_the_end_are_refused() -> None:
    state = random_playout(get_game("rank"), 3, {"tokens_to_win": 1}, seed=1)
    with pytest.raises(GameOverError, match="game is over"):
        state.apply(0, "pass")


def test_record_saves_loads_and_replays(tmp_path: Path) -> None:
    state = random_playout(get_game("rank"), 4, {"tokens_to_win": 2}, seed=9)
    path = tmp_path / "game.json"
    state.record().save(path)
    record = GameRecord.load(path)
    assert record.result is not None and record.result["winner"] == state.result().winner  # type: ignore[union-attr]
    assert record.replay().to_json() == state.to_json()
    states = record.states()
    assert len(states) == len(record.actions) + 1
    assert states[-1].to_json() == state.to_json()


def test_record_from_a_position_replays_from_that_position() -> None:
    game = get_game("rank")
    start = {"hands": [["5", "5"], ["7"], ["9", "9", "12"]], "turn": 0}
    state = game.state_from_json(start)
    state.apply(0, "5 5")
    record = GameRecord.from_json(json.loads(json.dumps(state.record().to_json())))
    assert record.start is not None
    assert record.replay().to_json() == state.to_json()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        ('{"format": "other"}', "not a courtcards game record"),
        ('{"format": "courtcards/record", "format_version": 1}', "malformed"),
        ('{"format": "courtcards/record", "format_version": 3}', "unsupported record format version 3"),
        (
            '{"format": "courtcards/record", "format_version": 2, "game": "rank", "num_players": 1e999, "options": {},'
            ' "seed": 1, "actions": []}',
            "'num_players' must be an integer, not inf",
        ),
        (
            '{"format": "courtcards/record", "format_version": 2, "game": "rank", "num_players": 4, "options": {},'
            ' "seed": true, "actions": []}',
            "'seed' must be an integer, not True",
        ),
        (
            '{"format": "courtcards/record", "format_version": 2, "game": "rank", "num_players": 4, "options": [],'
            ' "seed": 1, "actions": []}',
            "'options' must be an object",
        ),
        (
            '{"format": "courtcards/record", "format_version": 2, "game": "rank", "num_players": 4, "options": {},'
            ' "seed": 1, "actions": [[1e999, "pass"]]}',
            "'actions' must be a list of \\[seat, action\\] pairs",
        ),
    ],
)
def test_bad_record_files_get_clear_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        GameRecord.load(path)


def test_missing_record_file() -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        GameRecord.load("/nonexistent/game.json")


def test_record_that_does_not_replay_names_the_action() -> None:
    record = GameRecord(game="rank", num_players=4, options={}, seed=1, actions=[(3, "pass")])
    state = get_game("rank").new_game(4, seed=1)
    if state.to_move() == (3,):
        record.actions = [(2, "pass")]
    with pytest.raises(RecordError, match="action 1"):
        record.replay()


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"hands": [["5"], ["X"], ["7"]]}, r"hands\[1\]\[0\].*not a Rank card"),
        ({"hands": [["5"], ["6"]]}, "3 to 12 players"),
        ({"hands": [["C", "C", "C"], ["6"], ["7"]]}, "more cards than the deck"),
        ({"hands": [["5"], ["6"], ["7"]], "turn": 7}, "turn"),
        ({"hands": [["5"], [], ["7"]], "turn": 1}, "holds no cards"),
        ({"hands": [["5"], ["6"], ["7"]], "phase": "dancing"}, "'phase': must be one of .*not 'dancing'"),
    ],
)
def test_bad_positions_get_clear_errors(position: dict[str, object], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        get_game("rank").state_from_json(position)


def test_standard_deck_notation_is_shared_and_round_trips() -> None:
    from courtcards.core.cards import card_name, parse_rank_suit

    names = [card_name(r, s) for r in range(1, 14) for s in range(4)]
    assert len(set(names)) == 52 and "10D" in names and "AS" in names
    assert all(card_name(*parse_rank_suit(n)) == n for n in names)
    assert parse_rank_suit(" t♥ ") == (10, 2) and parse_rank_suit("1c") == (1, 0)
    for token, reason in (("Z", "rank and a suit"), ("11H", "unknown rank"), ("7X", "unknown suit")):
        with pytest.raises(NotationError, match=reason):
            parse_rank_suit(token)


def test_non_text_and_foreign_actions_are_notation_errors() -> None:
    # issue 11: a non-text action or another game's action object gets a specific error
    from courtcards.core.errors import NotationError, UnknownGameError

    state = get_game("rank").new_game(4, seed=1)
    seat = state.to_move()[0]
    before = state.to_json()
    royale_action = get_game("royale").new_game(2).legal_actions(0)[0]
    for bad in (5, None, object(), royale_action):
        with pytest.raises(NotationError):
            state.apply(seat, bad)
    assert state.to_json() == before
    with pytest.raises(UnknownGameError, match="unknown game 'None'"):
        get_game(None)  # type: ignore[call-overload]


@pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2**63 + 5, 2**64 - 1])
def test_batched_shuffle_and_draws_are_exactly_one_draw_at_a_time(seed: int) -> None:
    # every game's deals depend on it: same order and same generator state after
    from courtcards.core.rng import Rng

    for size in (0, 1, 2, 3, 13, 52, 98, 196, 700, 1500, 4096, 4097):  # 1500: more draws than one batch; 4097: all bits
        a, b = list(range(size)), list(range(size))
        r1, r2 = Rng(seed), Rng(seed)
        r1.shuffle_slow(a)
        r2.shuffle(b)
        assert a == b and r1.state == r2.state
    r1, r2 = Rng(seed), Rng(seed)
    draws = r2.draws(2)
    bounds = [1, 2, 3, 52, 2**40, 2**64 - 1] * 60
    assert [draws.below(n) for n in bounds] == [r1.below(n) for n in bounds]
    draws.close()
    assert r1.state == r2.state


def test_the_compiled_shuffle_draws_in_machine_integers_with_splitmix64s_constants() -> None:
    # the compiled build's shuffle (rng._native_shuffle) runs on signed 64-bit integers: its constants are
    # SplitMix64's less 2**64, and it is the one taken exactly when the engine is compiled (CI runs both)
    import courtcards
    from courtcards.core import rng

    assert rng._GAMMA_I64 + 2**64 == rng._GAMMA
    assert (int(rng._M1), int(rng._M2)) == (rng._M1_I64 + 2**64, rng._M2_I64 + 2**64)
    assert (courtcards.engine_build() == "compiled") == rng._NATIVE
    for seed in (0, 2**63 - 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15):
        for size in (2, 52, 5000):
            a, b = list(range(size)), list(range(size))
            r1, r2 = Rng(seed), Rng(seed)
            r1.shuffle_slow(a)
            r2.shuffle(b)
            assert a == b and r1.state == r2.state


@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    bounds=st.lists(st.integers(min_value=1, max_value=2000), min_size=1, max_size=300),
    cut=st.integers(min_value=0, max_value=300),
)
def test_rng_below_draws_exactly_as_one_output_at_a_time(seed: int, bounds: list[int], cut: int) -> None:
    # the batch below() reads from is a cache: results and state equal the one-at-a-time reference,
    # across a copy, a saved and restored state and a shuffle taken mid-batch
    fast, slow = Rng(seed), Rng(seed)
    for i, n in enumerate(bounds):
        if i == cut:
            fast = fast.copy()
            restored = Rng(0)
            restored.state = slow.state
            slow = restored
            items = list(range(n % 40))
            other = items[:]
            fast.shuffle(items)
            slow.shuffle_slow(other)
            assert items == other
        assert fast.below(n) == slow.below_slow(n)
        assert fast.state == slow.state
    assert fast.next64() == slow.next64()


@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    sizes=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=6),
)
def test_a_scripted_rng_replays_a_seeded_rngs_draws(seed: int, sizes: list[int]) -> None:
    # OpenSpiel's chance nodes (courtcards.envs.openspiel): the outcomes a seeded generator's below()
    # gives are a script; a scripted generator given them shuffles and chooses exactly as the seeded one
    from courtcards.core.rng import ChanceNeeded, script_next

    reference, outcomes = Rng(seed), []
    for size in sizes:
        outcomes += [reference.below(i + 1) for i in range(size - 1, 0, -1)]
    outcomes.append(reference.below(7))
    seeded = Rng(seed)
    script_next(tuple(outcomes))
    scripted = Rng(123)  # the next generator made takes the script, whatever its seed
    assert Rng(seed).script_left() == -1  # and only that one
    for size in sizes:
        a, b = list(range(size)), list(range(size))
        seeded.shuffle(a)
        scripted.shuffle(b)
        assert a == b
    copy = scripted.copy()
    assert scripted.choice(tuple("abcdefg")) == seeded.choice(tuple("abcdefg")) and scripted.script_left() == 0
    assert copy.script_left() == 1 and copy.below(7) == outcomes[-1]
    with pytest.raises(ChanceNeeded) as need:
        scripted.shuffle(list(range(5)))
    assert need.value.n == 5
    with pytest.raises(ValueError, match="not a draw"):
        bad = Rng(0)
        bad.set_script((9,))
        bad.below(3)
    with pytest.raises(ValueError, match="bounded draws"):
        copy.next64()
    copy.set_script(None)  # seeded again, from its state
    again = Rng(copy.state)
    assert [copy.below(1000) for _ in range(3)] == [again.below(1000) for _ in range(3)]
    # a generator that has drawn keeps its state through a script and back (its draws go on as before)
    drawn, reference = Rng(seed), Rng(seed)
    assert drawn.below(10) == reference.below(10)
    before = drawn.state
    drawn.set_script((0,))
    assert drawn.state == before and drawn.below(3) == 0
    drawn.set_script(None)
    assert drawn.state == before and drawn.below(1000) == reference.below(1000)
