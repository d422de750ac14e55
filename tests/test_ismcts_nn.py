"""``ismcts+nn``: the search guided by the game's shipped network (issue #31, item 3)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from courtcards.bots.base import bot_kinds, bot_move, check_bot_table, make_bot
from courtcards.bots.ismcts import _Edge, search_profile
from courtcards.bots.ismcts_nn import ISMCTSNNBot, NetPolicy
from courtcards.core.errors import OptionError
from courtcards.core.game import get_game, registered_games
from courtcards.core.rng import Rng
from courtcards.core.state import Action
from courtcards.nn import NNBot, load_network, shipped_networks
from courtcards.sim import simulate

# every network a game ships for itself, with its table (players, options)
SHIPPED = [
    (g.name, net.meta["players"], net.meta["options"])
    for g in registered_games()
    for net in (load_network(f) for f in shipped_networks(g.name))
    if net.meta["game"] == g.name
]
SLOW = {"kqp"}  # six seats, many decisions: a game takes over 10 s even at a tiny budget


def _play(game: str, players: int, options: dict[str, Any], seed: int, budget: int) -> list[tuple[int, str]]:
    """A whole game, ``ismcts+nn:budget`` in seat 0 and greedy elsewhere; the moves made (each legal)."""
    state = get_game(game).new_game(players, seed=seed, options=options)
    bots = {s: make_bot(game, f"ismcts+nn:{budget}" if s == 0 else "greedy", seed + s) for s in range(players)}
    moves: list[tuple[int, str]] = []
    while not state.is_over():
        for seat in state.to_move():
            move = bot_move(bots[seat], state, seat)
            assert move in state.legal_actions(seat), (game, seat, move.text)
            state.apply(seat, move)
            moves.append((seat, move.text))
    return moves


def _params(slow: bool = False) -> list[Any]:
    """Every shipped network's table; with ``slow``, marked slow for the games in :data:`SLOW`."""
    return [
        pytest.param(g, n, o, id=f"{g}-{n}p", marks=[pytest.mark.slow] if slow and g in SLOW else [])
        for g, n, o in SHIPPED
    ]


def test_every_game_with_a_network_offers_ismcts_nn() -> None:
    assert SHIPPED, "no game ships a network"
    for game, _, _ in SHIPPED:
        assert "ismcts+nn" in bot_kinds(game)


@pytest.mark.parametrize(("game", "players", "options"), _params(slow=True))
def test_it_plays_legal_moves_to_the_end_reproducibly(game: str, players: int, options: dict[str, Any]) -> None:
    first = _play(game, players, options, seed=5, budget=6)
    assert sum(1 for seat, _ in first if seat == 0) >= 2  # it played (a Rank Royale game may be short)
    assert _play(game, players, options, seed=5, budget=6) == first  # same seed, same moves


@pytest.mark.parametrize(("game", "players", "options"), _params())
def test_the_playout_policy_is_the_networks_move_from_the_worlds_own_observation(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """In a world (a State), the playout policy makes the move the nn bot makes from that seat's view."""
    g = get_game(game)
    state = g.new_game(players, seed=3, options=options)
    nn = NNBot(game)
    policy = NetPolicy(g, nn.network(state.view(0)))
    rng = Rng(9)
    checked = 0
    for _ in range(60):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        move = policy.choose_state(state, seat, legal)
        assert move == nn.choose(state.view(seat), legal)
        checked += len(legal) > 1
        state.apply(seat, legal[rng.below(len(legal))])  # random moves: varied positions
    assert checked > 3


@pytest.mark.parametrize(("game", "players", "options"), _params())
def test_the_root_moves_enter_in_the_order_of_the_networks_values(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """The prior over the searcher's moves: best first by the network's value of their first id."""
    g = get_game(game)
    state = g.new_game(players, seed=2, options=options)
    nn = NNBot(game)
    rng = Rng(4)
    checked = 0
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        net = nn.network(view)
        order = NetPolicy(g, net).order(view, legal)
        assert sorted(order, key=lambda a: a.text) == sorted(legal, key=lambda a: a.text)
        values = net.forward(g.observation_tensor(view, ())[None])[0]
        firsts = [float(values[state.action_ids(a)[0]]) for a in order]
        assert all(x >= y - 1e-4 for x, y in pairwise(firsts))
        checked += len(legal) > 2
        state.apply(seat, legal[rng.below(len(legal))])
    assert checked > 2


def test_the_budget_is_named_as_for_ismcts() -> None:
    game = SHIPPED[0][0]
    bot = make_bot(game, "ismcts+nn:50")
    assert isinstance(bot, ISMCTSNNBot) and bot.iterations == 50 and bot.seconds == 1.0
    bot = make_bot(game, "ismcts+nn:0.25s")
    assert isinstance(bot, ISMCTSNNBot) and bot.seconds == 0.25
    assert isinstance(make_bot(game, "ismcts+nn"), ISMCTSNNBot)
    for bad in ("ismcts+nn:0", "ismcts+nn:lots", "ismcts+nn:0s"):
        with pytest.raises(OptionError, match=r"bad bot .*ismcts\+nn"):
            make_bot(game, bad)


def test_a_table_its_network_does_not_fit_is_refused_before_play() -> None:
    with pytest.raises(OptionError, match=r"bad bot 'ismcts\+nn' for this table: .*option max_rounds is 5"):
        check_bot_table("royale", "ismcts+nn", 2, {"max_rounds": 5})
    with pytest.raises(OptionError, match=r"ismcts\+nn.*option max_rounds is 5 at this table, None in training"):
        simulate("royale", ["ismcts+nn:2", "greedy"], games=1, options={"max_rounds": 5})
    with pytest.raises(OptionError, match=r"no shipped .* network fits this table.*trained for 4 players, not 3"):
        check_bot_table("royals", "ismcts+nn:5", 3)
    assert simulate("royale", ["ismcts+nn:2", "greedy"], games=1, seed=2).games == 1


def test_a_game_without_a_shipped_network_refuses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import courtcards.nn as nn_module

    monkeypatch.setattr(nn_module, "shipped_networks", lambda game: [])
    with pytest.raises(OptionError, match=r"bad bot 'ismcts\+nn:10' for royale: .*ships no trained network"):
        make_bot("royale", "ismcts+nn:10")
    assert "ismcts+nn" not in bot_kinds("royale")


def test_puct_at_the_root_weighs_the_moves_by_the_networks_prior() -> None:
    """Unvisited, the move of highest prior is tried first; a move whose playouts lose gives way to the next."""
    game = SHIPPED[0][0]
    bot = make_bot(game, "ismcts+nn:10")
    assert isinstance(bot, ISMCTSNNBot) and bot.puct == 1.0
    state = get_game(game).new_game(SHIPPED[0][1], seed=1, options=SHIPPED[0][2])
    seat = state.to_move()[0]
    legal: list[Action] = state.legal_actions(seat)
    assert len(legal) >= 3
    bot._prior = {legal[0].text: 0.1, legal[1].text: 0.7, legal[2].text: 0.2}
    stats: dict[str, _Edge] = {}
    move, new = bot._select_root(stats, legal, Rng(1))
    assert move == legal[1] and new
    assert all(stats[a.text].available == 1 for a in legal)
    stats[legal[1].text] = _Edge(visits=5, total=-5.0, available=5)  # it lost every playout
    move, new = bot._select_root(stats, legal, Rng(1))
    assert move == legal[2] and new  # the next by prior, not yet tried
    without = ISMCTSNNBot(game, 0, puct=None, iterations=10)
    assert without.widen == 0.5  # no PUCT: UCB with progressive widening, as ismcts


def test_the_networks_move_is_kept_unless_another_is_better_by_keep_standard_errors() -> None:
    game = SHIPPED[0][0]
    mine = _Edge(visits=100, total=0.0)  # the network's move: mean 0
    top = _Edge(visits=100, total=20.0)  # mean 0.2; the standard error of the difference is sqrt(2/100) = 0.141
    assert ISMCTSNNBot(game, 0, keep=1.0)._clearly_better(top, mine)  # 0.2 >= 0.141
    assert not ISMCTSNNBot(game, 0, keep=2.0)._clearly_better(top, mine)  # 0.2 < 0.283
    assert ISMCTSNNBot(game, 0, keep=2.0)._clearly_better(_Edge(visits=100, total=30.0), mine)  # 0.3 >= 0.283
    # keep=None: the search's own rule, the exploration constant (0.7) over the root of the visits, 0.07
    assert ISMCTSNNBot(game, 0, keep=None)._clearly_better(_Edge(visits=100, total=8.0), mine)
    assert not ISMCTSNNBot(game, 0, keep=None)._clearly_better(_Edge(visits=100, total=6.0), mine)


@pytest.mark.parametrize(("game", "players", "options"), SHIPPED)
def test_by_default_the_games_search_profile_says_how_firmly_the_networks_move_is_kept(
    game: str, players: int, options: dict[str, Any]
) -> None:
    bot = make_bot(game, "ismcts+nn:4")
    assert isinstance(bot, ISMCTSNNBot) and bot.keep == "profile"
    state = get_game(game).new_game(players, seed=3, options=options)
    bot._context(get_game(game), state.view(state.to_move()[0]), Rng(1))  # a decision's settings
    assert bot._keep == search_profile(get_game(game)).net_keep


def test_the_ladder_refuses_it_for_a_table_its_network_does_not_fit_before_any_game() -> None:
    from courtcards.ladder import run_ladder

    for kind in ("nn", "ismcts+nn:2"):
        with pytest.raises(OptionError, match=r"for this table: .*option max_rounds is 5 at this table"):
            run_ladder("royale", ["greedy", kind], games=1, options={"max_rounds": 5})
