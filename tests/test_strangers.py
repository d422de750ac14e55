"""Strangers (courtcards/bots/strangers.py and each game's ``strangers`` profile): bots of other styles
than greedy, named like any bot, legal in every game (the plug-in example too), deterministic for a
seed, and unlike greedy in the way each documents; and the strength bench drives bots as ``simulate``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from bench_modules import load_bench
from plugin_examples import register_examples

from courtcards.bots.base import Bot, bot_kinds, bot_move, game_bots, make_bot
from courtcards.bots.strangers import GENERIC_POOL, cards_committed, stranger_pool
from courtcards.core.game import get_game
from courtcards.core.state import Action, State
from courtcards.sim import play_game, seat_bots

register_examples()

# (players, options) per game: short games
SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "rank": (4, {"tokens_to_win": 1}),
    "kqp": (5, {"rounds": 1, "target": "none"}),
    "royale": (2, {}),
    "royals": (4, {}),
    "fivetricks": (3, {}),
}
GAMES = sorted(SETUPS)


def _kinds(game: str) -> list[str]:
    return sorted({*GENERIC_POOL, *stranger_pool(game)})


def _decisions(game: str, seed: int, kind: str = "greedy") -> Iterator[tuple[State, int, list[Action]]]:
    """Positions with a choice along a game played by ``kind`` in every seat (random where absent)."""
    players, options = SETUPS[game]
    state = get_game(game).new_game(players, options, seed=seed)
    if kind not in bot_kinds(game):
        kind = "random"
    bots = [make_bot(game, kind, seed * 10 + s) for s in range(players)]
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            yield state, seat, legal
        state.apply(seat, bot_move(bots[seat], state, seat))


def _move(game: str, kind: str, state: State, seat: int, seed: int = 5) -> Action:
    return make_bot(game, kind, seed).choose(state.view(seat), state.legal_actions(seat))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_pool_of_named_strangers(game: str) -> None:
    pool = stranger_pool(game)
    assert len(pool) >= 3 and "greedy" not in pool and "random" not in pool
    assert set(pool) <= set(bot_kinds(game))


def test_a_game_declares_its_own_strangers_through_its_profile() -> None:
    assert sorted(game_bots("rank")) == ["aggressive", "cautious", "greedy", "hoarder"]
    assert stranger_pool("rank") == ("noisy", "aggressive", "cautious", "hoarder")
    assert type(make_bot("royale", "hoarder", 1)).__name__ == "HoarderRoyaleBot"
    assert stranger_pool("fivetricks") == GENERIC_POOL  # a plug-in without the profile: the generic pool
    assert type(make_bot("fivetricks", "noisy", 1)).__name__ == "NoisyBot"


@pytest.mark.parametrize("game", GAMES)
def test_strangers_play_legal_moves_from_views_and_repeat_for_a_seed(game: str) -> None:
    players, options = SETUPS[game]
    kinds = _kinds(game)
    for seed in (1, 2):
        table = [kinds[(seed + s) % len(kinds)] for s in range(players)]
        histories = []
        for _ in range(2):
            state = get_game(game).new_game(players, options, seed=seed)
            bots = [make_bot(game, k, 100 * seed + s) for s, k in enumerate(table)]
            while not state.is_over():
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                action = bots[seat].choose(state.view(seat), legal)
                assert action in legal
                state.apply(seat, action)
            histories.append([str(m) for m in state.history])
        assert histories[0] == histories[1]


@pytest.mark.parametrize("game", ["rank", "kqp", "royale", "royals"])
def test_noisy_leaves_greedys_move_at_about_a_quarter_of_choices(game: str) -> None:
    base = "greedy"
    same = other = 0
    for seed in range(3):
        noisy: Bot = make_bot(game, "noisy", seed)
        default = make_bot(game, base, noisy.base_seed)  # type: ignore[attr-defined]  # its default bot
        for state, seat, legal in _decisions(game, seed):
            view = state.view(seat)
            mine, theirs = noisy.choose(view, legal), default.choose(view, legal)
            same += mine == theirs
            other += mine != theirs
    assert 0.05 < other / (same + other) < 0.3


@pytest.mark.parametrize(
    ("game", "kind", "pick"), [("royals", "aggressive", max), ("royals", "cautious", min), ("kqp", "cautious", min)]
)
def test_generic_aggressive_and_cautious_commit_the_most_and_fewest_cards(
    game: str, kind: str, pick: Callable[[list[int]], int]
) -> None:
    unlike_greedy = 0
    for state, seat, legal in _decisions(game, 3):
        counts = [cards_committed(a) for a in legal]
        mine = _move(game, kind, state, seat)
        assert cards_committed(mine) == pick(counts)
        unlike_greedy += mine != _move(game, "greedy", state, seat)
    assert unlike_greedy


def test_generic_strangers_play_the_default_move_where_every_move_commits_as_many_cards() -> None:
    met = 0
    for seed in range(2):
        for state, seat, legal in _decisions("fivetricks", seed):
            if len({cards_committed(a) for a in legal}) == 1:
                met += 1
                default = make_bot("fivetricks", "random", make_bot("fivetricks", "cautious", 5).base_seed)  # type: ignore[attr-defined]
                assert _move("fivetricks", "cautious", state, seat) == default.choose(state.view(seat), legal)
    assert met


def test_rank_aggressive_follows_where_greedy_passes_and_cautious_passes_where_greedy_plays() -> None:
    bolder = shyer = 0
    for seed in range(4):
        for state, seat, _ in _decisions("rank", seed):
            greedy = _move("rank", "greedy", state, seat).text
            if greedy == "pass" and _move("rank", "aggressive", state, seat).text != "pass":
                bolder += 1
            if greedy != "pass" and _move("rank", "cautious", state, seat).text == "pass":
                shyer += 1
            if greedy != "pass" and not state.view(seat)["leading"]:
                assert _move("rank", "aggressive", state, seat).text != "pass"  # never passes where greedy plays
    assert bolder and shyer


def test_rank_hoarder_keeps_specials_greedy_plays() -> None:
    specials = {"C", "C2", "W", "U", "D"}

    def special(text: str) -> bool:
        return any(t in specials for t in text.split())

    kept = 0
    for seed in range(6):
        for state, seat, _ in _decisions("rank", seed):
            hoarder = _move("rank", "hoarder", state, seat).text
            kept += special(_move("rank", "greedy", state, seat).text) and not special(hoarder)
            assert not special(hoarder) or special(_move("rank", "greedy", state, seat).text)
    assert kept


def test_royale_aggressive_plays_its_strongest_card_and_hoarder_a_tiers_weakest() -> None:
    from courtcards.games.royale.bots import keep_order
    from courtcards.games.royale.cards import parse_card, rank, tier

    differ = 0
    for state, seat, _ in _decisions("royale", 4):
        view = state.view(seat)
        if view["phase"] != "play":
            continue
        hand = [parse_card(t) for t in view["hand"]]
        strong = _move("royale", "aggressive", state, seat).text
        assert parse_card(strong) == keep_order(hand)[0]
        weak = parse_card(_move("royale", "hoarder", state, seat).text)
        assert rank(weak) == min(rank(c) for c in hand if tier(c) == tier(weak))
        differ += _move("royale", "greedy", state, seat).text != strong
    assert differ


def _bench() -> Any:
    return load_bench("bench_strength")


@pytest.mark.parametrize(("game", "tested", "opponents"), [("rank", "greedy", "pool"), ("royale", "noisy", "greedy")])
def test_the_bench_plays_the_games_simulate_plays(game: str, tested: str, opponents: str) -> None:
    bench = _bench()
    players, options = SETUPS[game]
    others = bench.opponents_of(game, opponents)
    outcomes = bench.play((game, players, tested, others, 0, 6, 11, options, None))
    seats_seen = set()
    for o in outcomes:
        kinds = bench.table(tested, others, players, o.number)
        assert o.kinds == kinds and kinds[o.seat] == tested
        seats_seen.add(o.seat)
        # `courtcards simulate --bots <lineup> --seed 11`'s game of that index
        state, seated = play_game(game, bench.lineup(tested, others, players, o.number), o.number, 11, options)
        assert seated == kinds
        result = state.result()
        assert result is not None and result.winner == o.winner
    assert seats_seen == set(range(players))


def test_the_bench_makes_each_bot_as_make_bot_does() -> None:
    bots = seat_bots("rank", ("ismcts", "greedy", "hoarder", "ismcts:0.5s"), 3, 9)
    made: list[Callable[..., Any]] = [type(b) for b in bots]
    assert [c.__name__ for c in made] == ["ISMCTSBot", "GreedyRankBot", "GreedyRankBot", "ISMCTSBot"]
    assert (bots[0].iterations, bots[0].seconds) == (1000, 1.0)  # type: ignore[attr-defined]  # the CLI's default
    assert bots[3].seconds == 0.5  # type: ignore[attr-defined]
    assert bots[2].w != bots[1].w  # type: ignore[attr-defined]  # the hoarder's weights
