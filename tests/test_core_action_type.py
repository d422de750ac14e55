"""One action type (issue #26): every game's actions are ``courtcards.core.actions.Action``s
whose ``repr`` rebuilds them, and the core's fast path gives the same games as the general one."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from courtcards.core import actions as core_actions
from courtcards.core import state as core_state
from courtcards.core.actions import Action
from courtcards.core.game import Game, get_game, registered_games
from courtcards.core.rng import Rng


def _players(game: Game[Any]) -> int:
    return game.info.default_players


def _random_games(name: str, count: int, seed: int) -> list[tuple[Any, list[Action]]]:
    """(state, legal actions) at every decision of ``count`` random games."""
    game = get_game(name)
    pick = Rng(seed)
    out = []
    for i in range(count):
        state = game.new_game(_players(game), {}, seed=seed + i)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            out.append((state, legal))
            state.apply(seat, legal[pick.below(len(legal))])
    return out


def test_one_action_class() -> None:
    assert core_state.Action is core_actions.Action  # the old import path is a re-export


@pytest.mark.parametrize("name", sorted(g.name for g in registered_games()))
def test_every_legal_action_is_an_action_whose_repr_rebuilds_it(name: str) -> None:
    game = get_game(name)
    seen = 0
    for _, legal in _random_games(name, 3, seed=11):
        for action in legal:
            assert isinstance(action, Action)
            # the game's public action class (a private subclass, such as Rank Royale's plays, names it)
            public = next(c for c in type(action).__mro__ if not c.__name__.startswith("_"))
            namespace = {public.__name__: public}
            rebuilt = eval(repr(action), namespace)
            assert rebuilt == action and hash(rebuilt) == hash(action) and rebuilt.text == action.text
            assert repr(action) == f"{public.__name__}.parse({action.text!r})"
            assert game.parse_action(action.text) == action
            assert pickle.loads(pickle.dumps(action)) == action
            seen += 1
    assert seen > 20


def test_royale_actions() -> None:
    from courtcards.games.royale.actions import PLAYS, RoyaleAction, discard, play

    seven = RoyaleAction.parse("7H")
    assert seven is play(seven.card) and seven in PLAYS and repr(seven) == "RoyaleAction.parse('7H')"
    assert seven.kind == "play" and seven.cards == (seven.card,)
    d = RoyaleAction.parse("discard 9S 3C")
    assert d == discard(list(reversed(d.cards))) and d is not discard(d.cards)  # discards are made as listed
    assert d.text == "discard 3C 9S" and d.kind == "discard" and hash(d) == hash(discard(d.cards))
    assert d != RoyaleAction.parse("discard 3C 9D") and d != "discard 3C 9S" and d != d.cards
    assert RoyaleAction.parse("play 7H") is seven and eval(repr(d), {"RoyaleAction": RoyaleAction}) == d
    with pytest.raises(AttributeError):
        d.cards = ()
    with pytest.raises(ValueError):
        RoyaleAction(d.kind, ())


@pytest.mark.parametrize("name", sorted(g.name for g in registered_games()))
def test_fast_path_matches_text_actions(name: str) -> None:
    """The same random game applied as listed objects (the core's fast path) and as text
    (verify, the general path) ends in the same state, event for event."""
    game = get_game(name)
    n = _players(game)
    for seed in (3, 4):
        fast = game.new_game(n, {}, seed=seed)
        slow = game.new_game(n, {}, seed=seed)
        pick = Rng(seed)
        while not fast.is_over():
            assert fast.to_move() == slow.to_move()
            seat = fast.to_move()[0]
            legal = fast.legal_actions(seat)
            assert [a.text for a in legal] == [a.text for a in slow.legal_actions(seat)]
            assert all(fast.legal_actions(s) == [] for s in range(n) if s not in fast.to_move())
            action = legal[pick.below(len(legal))]
            fast.apply(seat, action)
            slow.apply(seat, action.text)
        assert slow.is_over() and fast.to_json() == slow.to_json()


def test_single_mover_hook_agrees_with_actors() -> None:
    """At every decision, a game's _single_mover answers only what _actors would (or -1),
    and Rank and KQP answer it through their play phases."""
    answered = set()
    for name in sorted(g.name for g in registered_games()):
        game = get_game(name)
        pick = Rng(5)
        for seed in (5, 6):
            state = game.new_game(_players(game), {}, seed=seed)
            while not state.is_over():
                one = state._single_mover()
                if one >= 0:
                    assert state._actors() == (one,) and not state.pending
                    answered.add(name)
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[pick.below(len(legal))])
            assert state._single_mover() == -1 or name not in ("rank", "kqp")
    assert {"rank", "kqp"} <= answered


@pytest.mark.parametrize("name", ["rank", "kqp", "royale", "royals"])
def test_one_position_loader_signature(name: str) -> None:
    """Every built-in game loads positions through its positions module with the core's one
    signature, outside the compiled rules, and a bad field is still named."""
    import importlib
    import inspect

    from courtcards.core.errors import PositionError

    module = importlib.import_module(f"courtcards.games.{name}.positions")
    params = inspect.signature(module.load_position).parameters
    assert list(params) == ["state", "data", "strict"] and all(p.default is p.empty for p in params.values())
    game = get_game(name)
    state = game.new_game(game.info.default_players, {}, seed=1)
    assert not hasattr(state, "load_json")
    data = state.to_json()
    assert game.state_from_json(data).to_json() == data
    data["hands"] = [["ZZ"], *data["hands"][1:]]
    with pytest.raises(PositionError, match=r"hands\[0\]"):
        game.state_from_json(data)


def test_royale_one_card_discard_is_not_the_play() -> None:
    from courtcards.games.royale.actions import RoyaleAction, discard, play

    seven = RoyaleAction.parse("7H")
    lone = discard(seven.cards)
    assert lone.kind == "discard" and lone.text == "discard 7H" and seven.kind == "play"
    assert lone != seven and seven != lone and lone == discard(seven.cards) and play(seven.card) is seven
    assert RoyaleAction.parse("discard 7H") == lone and {seven, lone} == {lone, RoyaleAction.parse("7H")}
