"""Search guided by learning: the ``ismcts+nn`` bot (issue #31).

The same ISMCTS as ``ismcts`` (:mod:`courtcards.bots.ismcts`, the game's search profile: its worlds,
horizon, value and refitting), with the game's shipped network (:mod:`courtcards.nn`, NumPy only) in
place of the hand-written bots the search plays with:

- **playouts**: every seat of a sampled world plays the network's greedy move (the highest value among
  its legal ids), computed from the world's own observation tensor and legal ids for the seat to move
  (``State.observation_tensor``; legitimate inside a world drawn from the bot's view, which is all the
  search ever holds), instead of greedy's or greedy-lite's continuations;
- **a prior over its own moves**: at the root, PUCT (AlphaZero's selection: mean value plus
  ``puct * prior * sqrt(N) / (1 + n)``) with the softmax of the network's values of its moves (temperature
  0.1) as the prior, in place of UCB with progressive widening; the network's move is also the one kept
  unless the search finds one clearly better (the search's rule, or ``keep`` standard errors of the
  difference of the two mean values: the game's search profile's ``net_keep`` by default), and where the
  profile guides below the root (``guide``) the network's move in that world is tried first there;
- **the other seats search** in the tree (decoupled, as in ``ismcts`` without a model), even where the
  game's profile has them play a model bot's moves (greedy's, mixed's): no bot's code is assumed for them.
  Modelling them as the network instead (``others="net"``) lost to greedy in Rank Royale: 11 of 40 deals
  at 100 iterations where searching won 22 of the same 40, and PUCT 22 where UCB with widening won 17
  (``docs/research.md``).

What stays as in ``ismcts``: the worlds (drawn from the view, refitted by the profile's fitter to the
moves seen where the profile asks: its fitter explains them by greedy's moves), the horizon and its value,
the budget (``ismcts+nn:N`` iterations, ``ismcts+nn:Xs`` seconds; a cap of 1 s of CPU a decision). Where
no shipped network fits the table (game, player count, options) the bot is refused as ``nn`` is, before
play (``check_table``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from courtcards.bots.base import Bot, register_game_bot
from courtcards.bots.ismcts import ISMCTSBot, _Decision, _Edge, parse_budget
from courtcards.core.game import Game
from courtcards.core.ids import choose_by_steps
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State

if TYPE_CHECKING:
    from courtcards.nn import Network

# courtcards.nn is imported where it is used: it imports the bot registry, whose package imports this module


class NetPolicy:
    """A network's greedy move, from a seat's view (``choose``) or from a sampled world for the seat to
    move in it (``choose_state``): at each id step of the decision, the legal next id of highest value.
    Only the last layer's columns of the legal ids are computed. Deterministic."""

    def __init__(self, game: Game[Any], net: Network) -> None:
        self.game = game
        self.net = net
        *self.hidden, (self.w_last, self.b_last) = net.weights

    def values(self, obs: npt.NDArray[np.float32], ids: Sequence[int]) -> list[float]:
        """The network's values of ``ids`` for one observation."""
        x = obs.reshape(1, -1).astype(np.float32, copy=False)
        for w, b in self.hidden:
            x = x @ w + b
            np.maximum(x, 0.0, out=x)
        index = np.fromiter(ids, dtype=np.intp, count=len(ids))
        out: list[float] = (x[0] @ self.w_last[:, index] + self.b_last[index]).tolist()
        return out

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        codec = self.game.action_codec(int(view["num_players"]), view["options"])
        return choose_by_steps(
            legal, codec.encode, lambda prefix, ids: self.values(self.game.observation_tensor(view, prefix), ids)
        )

    def choose_state(self, world: State, seat: int, legal: Sequence[Action]) -> Action:
        """The move for ``seat`` in a sampled world, from the world's observation of that seat."""
        if len(legal) == 1:
            return legal[0]

        def observe(prefix: tuple[int, ...]) -> npt.NDArray[np.float32]:
            if not prefix and not world.id_prefix(seat):
                return world.observation_tensor(seat)
            return self.game.observation_tensor(world.view_without_log(seat), (*world.id_prefix(seat), *prefix))

        return choose_by_steps(
            legal, world.action_codec().encode, lambda prefix, ids: self.values(observe(prefix), ids)
        )

    def first_values(self, view: dict[str, Any], moves: Sequence[Action]) -> list[float]:
        """The network's value of each move's first id, from ``view``."""
        codec = self.game.action_codec(int(view["num_players"]), view["options"])
        firsts = [codec.encode(a)[0] for a in moves]
        return self.values(self.game.observation_tensor(view, ()), firsts)

    def order(self, view: dict[str, Any], moves: Sequence[Action]) -> list[Action]:
        """``moves`` by the network's value of their first id from ``view``, best first (stable)."""
        values = self.first_values(view, moves)
        ranked = sorted(range(len(moves)), key=lambda i: -values[i])
        return [moves[i] for i in ranked]


class ISMCTSNNBot(ISMCTSBot):
    """ISMCTS with the game's shipped network as playout policy for every seat and as the prior over its own
    moves at the root (PUCT), the other seats searching (module docstring)."""

    def __init__(
        self,
        game: str,
        seed: int = 0,
        puct: float | None = 1.0,
        temperature: float = 0.1,
        others: str = "search",
        keep: float | str | None = "profile",
        **kwargs: Any,
    ) -> None:
        from courtcards.nn import NNBot

        self.net_bot = NNBot(game, seed)  # NetworkError where the game ships no network
        super().__init__(seed, **kwargs)
        self.puct = puct  # PUCT's constant at the root (None: UCB with progressive widening, as ismcts)
        self.temperature = temperature  # the prior: softmax of the network's values over this temperature
        self.others = others  # "net": the other seats play the network's moves in the tree (where the profile
        # has a model); "search": they search
        # the network's move stays unless another's mean value beats it by ``keep`` standard errors of the
        # difference of the two means (payoffs within [-1, 1]); None: the search's rule (ismcts); "profile":
        # the game's search profile says (``net_keep``)
        self.keep = keep
        self._keep: float | None = None if keep == "profile" or keep is None else float(keep)
        if puct is not None:
            self.widen = 1e9  # PUCT weighs every move by its prior: no widening
        self._policy: NetPolicy | None = None
        self._prior: dict[str, float] = {}

    def check_table(self, num_players: int, options: dict[str, Any]) -> None:
        """Raise :class:`~courtcards.nn.NetworkError` unless a shipped network fits this table."""
        self.net_bot.check_table(num_players, options)

    def _net_policy(self, game: Game[Any], view: dict[str, Any]) -> NetPolicy:
        net = self.net_bot.network(view)
        if self._policy is None or self._policy.net is not net:
            self._policy = NetPolicy(game, net)
        return self._policy

    def _context(self, game: Game[Any], view: dict[str, Any], rng: Any) -> _Decision:
        settings = self.settings(game)
        if self.keep == "profile":
            self._keep = settings.net_keep
        policy = self._net_policy(game, view)
        self.last_odds = None
        # the others play the network's moves, not a bot's code
        model = policy if settings.model and self.others == "net" else None
        ctx = _Decision(int(view["seat"]), settings, policy, model, None, prior=policy)
        if settings.guide:
            ctx.guide = policy
        return ctx

    def _root_order(self, view: dict[str, Any], order: list[Action], ctx: _Decision) -> list[Action]:
        policy: NetPolicy = ctx.prior
        values = policy.first_values(view, order)
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        self._prior = {a.text: w / total for a, w in zip(order, weights, strict=True)}
        ranked = sorted(range(len(order)), key=lambda i: -values[i])
        return [order[i] for i in ranked]

    def _clearly_better(self, top: _Edge, mine: _Edge) -> bool:
        if self._keep is None:
            return super()._clearly_better(top, mine)
        difference = top.total / top.visits - mine.total / mine.visits
        return difference >= self._keep * math.sqrt(1 / top.visits + 1 / mine.visits)

    def _select_root(self, stats: dict[str, _Edge], legal: Sequence[Action], rng: Rng) -> tuple[Action, bool]:
        """PUCT (AlphaZero's selection) with the network's prior: mean value plus
        ``puct * prior * sqrt(visits) / (1 + visits of the move)``; an unvisited move counts 0."""
        if self.puct is None:
            return self._select(stats, legal, rng)
        visits = 0
        for action in legal:
            edge = stats.get(action.text)
            if edge is None:
                edge = stats[action.text] = _Edge()
            edge.available += 1
            visits += edge.visits
        scale = self.puct * math.sqrt(visits + 1)
        best: Action = legal[0]
        best_score = -math.inf
        for action in legal:
            edge = stats[action.text]
            mean = edge.total / edge.visits if edge.visits else 0.0
            score = mean + scale * self._prior.get(action.text, 0.0) / (1 + edge.visits)
            if score > best_score:
                best, best_score = action, score
        return best, stats[best.text].visits == 0


FORMS = (
    "ismcts+nn (the search with the game's shipped network, the default budget), ismcts+nn:N (N iterations), "
    "ismcts+nn:Xs (X seconds a decision)"
)


def make_ismcts_nn(game: str, seed: int, arg: str | None) -> Bot:
    """``ismcts+nn``, ``ismcts+nn:N`` or ``ismcts+nn:Xs``; ValueError where it cannot play the game."""
    from courtcards.nn import NetworkError

    budget = parse_budget(arg)
    try:
        return ISMCTSNNBot(game, seed, **budget)
    except NetworkError as exc:
        raise ValueError(str(exc)) from None


def _offered(game: str) -> bool:
    """Listed for a game that ships a network made for it (as ``nn``)."""
    from courtcards.nn import has_shipped_network

    return has_shipped_network(game)


register_game_bot("ismcts+nn", make_ismcts_nn, FORMS, _offered)
