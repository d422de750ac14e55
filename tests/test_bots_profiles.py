"""Bots found through the game: a game's bots and search profile come from its own package, and a game
that declares neither (a plug-in with nothing for this layer) still has random and the search, which then
plays with the generic profile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from courtcards.bots.base import RandomBot, bot_kinds, bot_move, game_bots, make_bot, register_bot
from courtcards.bots.ismcts import ISMCTSBot, search_profile
from courtcards.bots.profile import GENERIC_PROFILE, SearchProfile
from courtcards.core.errors import OptionError
from courtcards.core.game import Game, get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State

SETUPS = {"rank": (4, {"tokens_to_win": 2}), "royale": (2, {})}


def _position(name: str, seed: int) -> State:
    """A position a few random moves in where the seat to move has a choice."""
    players, options = SETUPS[name]
    state: State = get_game(name).new_game(players, options, seed=seed)
    rng = Rng(seed)
    for _ in range(6):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    while len(state.legal_actions(state.to_move()[0])) < 2:
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


@pytest.fixture
def undeclared(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Games declare no profile for the layers put in the yielded set."""
    layers: set[str] = set()
    real = Game.profile

    def profile(self: Game[Any], layer: str) -> Any:
        return None if layer in layers else real(self, layer)

    monkeypatch.setattr(Game, "profile", profile)
    yield layers


def test_each_game_finds_its_bots_in_its_package() -> None:
    module = get_game("royale").profile("bots")
    assert module is not None and module.__name__ == "courtcards.games.royale.bots"
    assert sorted(game_bots("royale")) == ["aggressive", "greedy", "hoarder", "mixed"]  # with its strangers
    assert sorted(game_bots("royals")) == ["greedy"]  # it declares no strangers: the generic ones are every game's
    assert sorted(game_bots("rank")) == ["aggressive", "cautious", "greedy", "hoarder"]
    assert sorted(game_bots("kqp")) == ["aggressive", "greedy", "hoarder"]
    generic = ["aggressive", "cautious", "ismcts", "noisy", "random"]
    # nn and ismcts+nn: it ships a network
    assert bot_kinds("royale") == sorted({*generic, "greedy", "mixed", "hoarder", "nn", "ismcts+nn"})
    assert type(make_bot("kqp", "greedy", 1)).__name__ == "GreedyKqpBot"


def test_a_bot_added_at_run_time_is_offered_for_its_game_only() -> None:
    register_bot("royals", "test_lazy", RandomBot)
    try:
        assert "test_lazy" in bot_kinds("royals") and "test_lazy" not in bot_kinds("rank")
        assert isinstance(make_bot("royals", "test_lazy", 2), RandomBot)
        with pytest.raises(OptionError, match="unknown bot 'test_lazy' for rank"):
            make_bot("rank", "test_lazy")
    finally:
        from courtcards.bots import base

        del base._ADDED[("royals", "test_lazy")]


def test_a_game_without_bots_still_has_random_and_the_search(undeclared: set[str]) -> None:
    undeclared.update(("bots", "strangers", "networks"))
    assert game_bots("rank") == {}
    assert bot_kinds("rank") == ["aggressive", "cautious", "ismcts", "noisy", "random"]
    with pytest.raises(
        OptionError, match="unknown bot 'greedy' for rank; valid bots: aggressive, cautious, noisy, random, ismcts"
    ):
        make_bot("rank", "greedy")
    assert isinstance(make_bot("rank", "random", 1), RandomBot)
    assert isinstance(make_bot("rank", "ismcts:20", 1), ISMCTSBot)


@pytest.mark.parametrize("name", sorted(SETUPS))
@pytest.mark.parametrize("bots", [False, True])
def test_a_game_without_a_search_profile_is_searched_with_the_generic_one(
    undeclared: set[str], monkeypatch: pytest.MonkeyPatch, name: str, bots: bool
) -> None:
    undeclared.add("search")
    if bots:  # no bots either: no prior, no playout policy
        undeclared.add("bots")
    game = get_game(name)
    assert search_profile(game) is GENERIC_PROFILE
    state = _position(name, seed=5)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    contexts: list[Any] = []
    ends: list[bool] = []
    real = ISMCTSBot._playout

    def playout(self: ISMCTSBot, world: State, rng: Rng, ctx: Any) -> list[float]:
        contexts.append(ctx)
        values = real(self, world, rng, ctx)
        ends.append(world.is_over())
        return values

    monkeypatch.setattr(ISMCTSBot, "_playout", playout)
    moves = []
    for _ in range(2):
        bot = ISMCTSBot(seed=3, iterations=40, seconds=1e9, stop_early=False)
        moves.append(bot_move(bot, state, seat))
        assert bot.last_iterations == 40 and bot.last_value is not None and -1 <= bot.last_value <= 1
    assert moves[0] in legal and moves[0] == moves[1]  # seeded: the same move
    # the generic profile: random playouts to the end of the game, the others searched, no pool, no prior
    # without the game's bots (the greedy prior otherwise)
    ctx = contexts[0]
    assert ctx.settings is GENERIC_PROFILE and ctx.policy is None and ctx.model is None and ctx.others is None
    assert (ctx.prior is None) == bots
    assert len(contexts) == 80 and all(ends)


def test_the_keyword_arguments_override_the_generic_profile(undeclared: set[str]) -> None:
    undeclared.add("search")
    game = get_game("rank")
    bot = ISMCTSBot(seed=1, iterations=30, seconds=1e9, rollout="greedy", model="greedy", worlds=4, depth=5)
    settings = bot.settings(game)
    assert (settings.rollout, settings.model, settings.worlds, settings.depth) == ("greedy", "greedy", 4, 5)
    assert settings.fitter is None and settings.value is None
    ctx = bot._context(game, _position("rank", 2).view(0), Rng(1))
    assert type(ctx.policy).__name__ == type(ctx.model).__name__ == "GreedyRankBot"
    state = _position("rank", 2)
    seat = state.to_move()[0]
    assert bot_move(bot, state, seat) in state.legal_actions(seat)


# today's settings of each game's search, moved from the search module's tables into the games
SETTINGS = {
    "rank": ("greedy", 0, 32, "greedy", 100, True, False, False),
    "kqp": ("lite", 30, 32, "greedy", 300, False, False, False),
    "royals": ("greedy", 20, 32, None, 0, False, False, False),
    "royale": ("greedy", 0, 32, "mixed", 100, False, True, True),
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_each_game_declares_its_search_profile(name: str) -> None:
    profile = search_profile(get_game(name))
    assert isinstance(profile, SearchProfile) and profile is not GENERIC_PROFILE
    fields = ("rollout", "depth", "worlds", "model", "fit", "guide", "open_choices", "adapt")
    assert tuple(getattr(profile, f) for f in fields) == SETTINGS[name]
    assert (profile.value is None) == (name == "royale")  # Rank Royale's playouts run to the end of the game
    assert (profile.fitter is None) == (name == "royals")
    assert (profile.record is not None) == (name in ("rank", "kqp"))
    assert (profile.odds is not None) == (name == "royale")
    assert sorted(profile.policies) == (["lite"] if name in ("rank", "kqp") else [])
    assert "lite" not in bot_kinds(name)  # a playout policy, not a player
