"""Information-set Monte Carlo tree search (ISMCTS), for every game.

Single-observer ISMCTS with determinization (Cowling, Powley and Whitehouse,
2012): every iteration samples a world from the bot's **view** with
``Game.sample_world`` (never the true state), then walks one tree whose edges
are actions, choosing among the actions available in that world by UCB with
availability counts. Where several seats decide at once (Rank Royale's picks,
Royals' commitments, KQP's give-backs), each of them selects from its own
statistics at the node without seeing the others' choices (decoupled UCT), and
the child is the joint choice. A playout by a fast default policy runs to the
end of the game or to the end of the current hand or round, where a per-game
evaluation scores it; values are per seat, so every seat in the tree maximises
its own.

Playouts are cheap on purpose: a pool of worlds sampled once per decision and
copied, a per-game default policy (greedy, or greedy-lite that needs no view;
bots with ``choose_state`` read the world's state: the seat's hand and public
facts, greedy's own move) and a depth after which a static evaluation scores
the position. The search stops early when no other root move can catch up with
the most visited one.

Per game (``PLAYOUTS``): the other seats may play a model bot's moves in the
tree instead of searching (``model``), the prior may guide every node
(``guide``), and pooled worlds may be refitted so that greedy makes in them the
moves the other seats were seen to make (``fit``: Rank over the rounds of the
hand the seat's views showed it, KQP over the round's piles, Rank Royale over the
opponent's plays and discards since the start), and the other seats' secret
choices already made may be left open in the worlds (``open_choices``), and the
model may be told from the moves seen (``adapt``: Rank Royale weighs ``mixed``,
``greedy`` and ``random`` by how well each explains the opponent's plays, and
models the opponent as another kind than the default once its odds pass 0.9).

The budget is a number of iterations (reproducible: same seed and budget, same
move) with a cap in seconds of the thread's CPU time (default 1 s).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from courtcards.bots.base import register_bot_spec
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State

Values = list[float]


@dataclass
class _Edge:
    visits: int = 0
    total: float = 0.0
    available: int = 0


@dataclass
class _Node:
    # per deciding seat: action text -> statistics
    stats: dict[int, dict[str, _Edge]] = field(default_factory=dict)
    children: dict[tuple[str, ...], _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class Horizon:
    """Where a playout stops early and how it is scored for one game."""

    marker: Callable[[State], Any]  # a playout stops when this changes (end of a hand, ...)
    value: Callable[[State], Values]  # per-seat value in [-1, 1] of a state that is not over


def _spread(scores: Sequence[float], scale: float) -> Values:
    """Each seat's score against the average of the others, in [-1, 1]."""
    n = len(scores)
    total = sum(scores)
    return [max(-1.0, min(1.0, (s - (total - s) / (n - 1)) / scale)) for s in scores]


def _places(players: Sequence[dict[str, Any]]) -> list[float]:
    """Each seat's finishing place in the hand in play (0 first): known for seats that are out,
    guessed from the cards left (fewer first, ties shared) for the others."""
    n = len(players)
    keys = [int(p["out"]) if p.get("out") else n + int(p["hand_size"]) for p in players]
    return [sum(1.0 for k in keys if k < key) + 0.5 * (keys.count(key) - 1) for key in keys]


def _rank_value(state: State) -> Values:
    # tokens, plus the tokens the hand in play may bring (King 2, Queen 1) guessed from the cards left
    players = state.view(None)["players"]
    opts = state.options
    place = _places(players)
    if opts.get("endless"):
        scores = [float(p["times_king"]) + (place[s] == 0) for s, p in enumerate(players)]
        return _spread(scores, float(opts.get("hands") or 10))
    left = sum(int(p["hand_size"]) for p in players) / (15.0 * len(players))  # early guesses count for less
    scores = [
        float(p["score"]) + (1.0 if p["out"] else 1.0 - left) * max(0.0, 2.0 - place[s])
        for s, p in enumerate(players)
    ]
    return _spread(scores, float(opts.get("tokens_to_win") or 5))


def _kqp_value(state: State) -> Values:
    players = state.view(None)["players"]
    place = _places(players)
    return _spread([-float(p["score"]) - place[s] for s, p in enumerate(players)], float(state.num_players * 2))


def _royals_value(state: State) -> Values:
    points = getattr(state, "points", None)
    target = 20 - state.num_players
    scores = [float(points(s)) if callable(points) else 0.0 for s in range(state.num_players)]
    return _spread(scores, float(target))


HORIZONS: dict[str, Horizon] = {
    "rank": Horizon(lambda s: getattr(s, "hand_number", 0), _rank_value),
    "kqp": Horizon(lambda s: getattr(s, "round", 0), _kqp_value),
    "royals": Horizon(lambda s: len(s.history) // 60, _royals_value),
}


DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class Playout:
    """A game's default playouts, chosen by measured strength per CPU second (docs/search.md)."""

    rollout: str = "greedy"  # the default policy: a bot kind of the game, or "random"
    depth: int = 0  # moves before the static evaluation (0: to the end of the hand, round or game)
    worlds: int = 0  # sampled worlds searched in turn (0: a fresh one every iteration)
    model: str | None = None  # the bot kind that plays the other seats' moves in the tree (None: they search too)
    fit: int = 0  # refit steps per pooled world to make the model's moves in it those seen (0: none)
    guide: bool = False  # below the root too: the prior's move first, then progressive widening
    open_choices: bool = False  # other seats' hidden choices are left unmade in the worlds: they choose in the tree
    adapt: bool = False  # the model is the kind the moves seen make likely (ADAPT), once its odds pass CONFIDENT


# fitter(world, seat, model, rounds): from a world drawn from the seat's view and the rounds seen, a
# refit(world, rng, steps) that makes a drawn world fit the other seats' moves seen better (the model makes
# them in it), in place, returning the moves missed before and after; None when nothing was seen
Refit = Callable[[State, Rng, int], tuple[int, int]]
FITS: dict[str, Callable[[State, int, Any, Any], Refit | None]] = {}
# a record of the moves a seat saw over its views (``update(view)`` gives the ``rounds`` for the fitter)
RECORDS: dict[str, Callable[[], Any]] = {}
# odds(view, sample_world, rng): how likely each bot kind is to be playing the other seats, from the moves
# the view shows; None when it shows none
ADAPT: dict[str, Callable[[dict[str, Any], Callable[[dict[str, Any], int], State], Rng], dict[str, float] | None]] = {}
CONFIDENT = 0.9  # odds a kind needs to replace the default model (a split of the worlds by the odds lost to mixed)


def _load_fits() -> None:
    if not FITS:
        from courtcards.bots.kqp import PlayRecord
        from courtcards.bots.kqp import fitter as kqp_fitter
        from courtcards.bots.rank import RoundRecord, fitter
        from courtcards.bots.royale import fitter as royale_fitter
        from courtcards.bots.royale import odds

        FITS["rank"] = fitter
        RECORDS["rank"] = RoundRecord
        FITS["royale"] = royale_fitter
        ADAPT["royale"] = odds
        FITS["kqp"] = kqp_fitter
        RECORDS["kqp"] = PlayRecord


PLAYOUTS: dict[str, Playout] = {
    "rank": Playout("greedy", 0, 32, model="greedy", fit=100, guide=True),
    # the others play greedy in the tree and the playouts, in worlds refitted to their moves seen this round
    "kqp": Playout("lite", 30, 32, model="greedy", fit=300),
    "royals": Playout("greedy", 20, 32),
    # the opponent plays mixed (an equilibrium of the one-round game) in the tree and the playouts, chooses
    # its card there even when it already has, and holds a hand that fits its plays seen; once its plays
    # make greedy or random nine times in ten the likelier, it is modelled so
    "royale": Playout("greedy", 0, 32, model="mixed", fit=100, open_choices=True, adapt=True),
}


class ISMCTSBot:
    """ISMCTS over worlds sampled from the seat's view."""

    slow = True  # servers run it off their event loop

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float = 1.0,
        exploration: float = 0.7,
        rollout: str | None = None,
        prior: str | None = "greedy",
        widen: float = 0.5,
        cpu_clock: bool = True,
        depth: int | None = None,
        worlds: int | None = None,
        stop_early: bool = True,
        model: str | None = "default",
        fit: int | None = None,
        guide: bool | None = None,
        open_choices: bool | None = None,
        adapt: bool | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("ISMCTS needs at least one iteration")
        # None: the game's default from PLAYOUTS
        self.rollout = rollout  # "random" or a bot kind of the game that plays the playouts ("greedy", "lite")
        self.prior = prior  # a bot kind whose move is tried first at the root and kept on ties
        self.widen = widen  # root candidates: the prior's move plus 1 + widen * sqrt(iterations) others
        # the seconds are wall-clock time, or this thread's CPU time (one core's worth on a busy machine)
        self.clock = time.thread_time if cpu_clock else time.perf_counter
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.depth = depth  # playout moves before the static evaluation scores the position (0: to the horizon)
        self.worlds = worlds  # sample this many worlds and search copies of them in turn (0: a fresh world each time)
        self.stop_early = stop_early  # stop once no other root move can catch up with the most visited one
        self.guide = guide  # below the root too: the prior's move first, then widening (None: the game's)
        self.fit = fit  # refit steps per pooled world to fit the model to the moves seen (None: the game's)
        self.open_choices = open_choices  # other seats' hidden choices unmade in the worlds (None: the game's)
        self._open = bool(open_choices)  # this decision's (set by the search from the game's defaults)
        self.adapt = adapt  # the model's kind told from the moves seen (None: the game's)
        self.last_odds: dict[str, float] | None = None  # the kinds' odds at the last decision (adapt)
        self.model = model  # a bot kind for the other seats' moves in the tree ("default": the game's; None: search)
        self.last_value: float | None = None  # the chosen move's mean value, for hints
        self.last_iterations = 0
        self._records: dict[int, Any] = {}  # per seat: the moves seen in earlier views (RECORDS)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        _load_fits()
        record = None
        if view["game"] in RECORDS and view.get("seat") is not None:  # what this seat saw in earlier views
            record = self._records.setdefault(int(view["seat"]), RECORDS[view["game"]]())
        rounds = record.update(view) if record is not None else None
        action = self._search(view, legal, rounds)
        if record is not None:
            record.chose(view, action.text)
        return action

    def _search(self, view: dict[str, Any], legal: Sequence[Action], rounds: Any) -> Action:
        if len(legal) == 1:
            self.last_value = None
            return legal[0]
        start = self.clock()  # the budget counts everything from here: the model's odds, the prior, the pool
        game = get_game(view["game"])
        seat = int(view["seat"])
        horizon = HORIZONS.get(game.name)
        rng = Rng(self.rng.next64())
        defaults = PLAYOUTS.get(game.name, Playout())
        rollout = defaults.rollout if self.rollout is None else self.rollout
        self._depth = (defaults.depth if self.depth is None else self.depth) or None
        worlds = defaults.worlds if self.worlds is None else self.worlds
        fit = defaults.fit if self.fit is None else self.fit
        self._open = defaults.open_choices if self.open_choices is None else self.open_choices
        self._policy = _game_bot(game.name, rollout, rng.next64())
        model = defaults.model if self.model == "default" else self.model
        self._model = _model_bot(game.name, model, rng.next64())
        self._others = self._model if model != rollout else None  # the others' policy in playouts too
        self._adapt(game, view, model, rollout, defaults, rng)
        self._seat = seat
        prior = _game_bot(game.name, self.prior, rng.next64())
        # below the root, a seat's first move at a node is the prior's in that world, then others widen in
        guide = defaults.guide if self.guide is None else self.guide
        self._guide = prior if guide and prior is not None and hasattr(prior, "choose_state") else None
        order = list(legal)
        for i in range(len(order) - 1, 0, -1):  # seeded shuffle: the order in which candidates enter
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        first = prior.choose(view, legal) if prior is not None else None
        if first is not None:
            order.remove(first)
            order.insert(0, first)
        root = _Node()
        stats = root.stats.setdefault(seat, {})
        pool: list[State] = []
        searching = self.clock()
        deadline = start + self.seconds
        done = 0
        for done in range(1, self.iterations + 1):
            width = 2 + int(self.widen * math.sqrt(done)) if first is not None else len(order)
            self._root_moves = (seat, {a.text for a in order[:width]})
            if done == 1 and fit > 0 and worlds:
                pool = self._fitted_pool(game, view, seat, worlds, fit, rng, start, rounds)
                searching = self.clock()  # the early stop's rate counts the search's time only
            if done <= worlds and len(pool) < done:
                pool.append(game.sample_world(view, rng.next64(), open_choices=self._open))
            world = (pool[(done - 1) % worlds].copy() if worlds
                     else game.sample_world(view, rng.next64(), open_choices=self._open))
            self._iterate(root, world, rng, horizon)
            now = self.clock()
            if now > deadline:
                break
            if self.stop_early and done % 8 == 0:
                rate = done / max(now - searching, 1e-9)
                left = min(self.iterations - done, rate * (deadline - now))
                visits = sorted((e.visits for e in stats.values()), reverse=True)
                if len(visits) > 1 and visits[0] - visits[1] > left:
                    break
        self.last_iterations = done
        by_text = {a.text: a for a in legal}
        best = max(by_text, key=lambda t: (stats[t].visits if t in stats else -1, t))
        if first is not None and first.text in stats and stats[first.text].visits:
            # keep the prior's move unless the search found one clearly better
            mine = stats[first.text]
            top = stats[best]
            if top.total / top.visits - mine.total / mine.visits < self.c / math.sqrt(mine.visits):
                best = first.text
        edge = stats.get(best)
        self.last_value = edge.total / edge.visits if edge and edge.visits else None
        return by_text[best]

    def _adapt(
        self, game: Any, view: dict[str, Any], model: str | None, rollout: str, defaults: Playout, rng: Rng
    ) -> None:
        """With ``adapt``, the other seats' model is the bot kind their moves seen make likely (``ADAPT``),
        when its odds reach ``CONFIDENT``; else it stays the given one."""
        self.last_odds = None
        adapt = defaults.adapt if self.adapt is None else self.adapt
        _load_fits()
        if not (adapt and model and game.name in ADAPT):
            return
        odds = ADAPT[game.name](view, game.sample_world, Rng(rng.next64()))
        self.last_odds = odds
        if odds is None:
            return
        kind = max(odds, key=lambda k: odds[k])
        if kind != model and odds[kind] >= CONFIDENT:
            self._model = _model_bot(game.name, kind, rng.next64())
            self._others = self._model if kind != rollout else None

    def _fitted_pool(
        self, game: Any, view: dict[str, Any], seat: int, worlds: int, fit: int, rng: Rng, start: float,
        rounds: Any = None,
    ) -> list[State]:
        """Worlds drawn from the view, then their hidden cards changed (at most ``fit`` steps each) until
        the model makes in them the other seats' moves seen (Rank: the rounds of this hand the seat saw; KQP:
        the round's piles; Rank Royale: the opponent's plays and discards). At most a quarter of the time;
        the rest of the pool is drawn as usual."""
        _load_fits()
        make = FITS.get(game.name)
        model = _game_bot(game.name, "greedy", rng.next64())
        if make is None or model is None:
            return []
        pool: list[State] = [game.sample_world(view, rng.next64(), open_choices=self._open)]
        refit = make(pool[0], seat, model, rounds)
        if refit is None:
            return pool
        while True:
            refit(pool[-1], Rng(rng.next64()), fit)
            if len(pool) == worlds or self.clock() - start > self.seconds / 4:
                return pool
            pool.append(game.sample_world(view, rng.next64(), open_choices=self._open))

    def _iterate(self, root: _Node, world: State, rng: Rng, horizon: Horizon | None) -> None:
        path: list[tuple[_Node, list[tuple[int, str]]]] = []
        node = root
        while not world.is_over():
            movers = world.to_move()
            chosen: list[tuple[int, str]] = []
            key_extra: list[str] = []
            expanded = False
            actions: list[tuple[int, Action]] = []
            for seat in movers:
                legal = world.legal_actions(seat)
                if self._model is not None and seat != self._seat:
                    # another seat's move by the opponent model, from its view of this world: no statistics
                    act = legal[0] if len(legal) == 1 else _decide(self._model, world, seat, legal)
                    actions.append((seat, act))
                    key_extra.append(act.text)
                    continue
                if node is root and seat == self._root_moves[0]:
                    allowed = self._root_moves[1]
                    legal = [a for a in legal if a.text in allowed] or legal
                stats = node.stats.setdefault(seat, {})
                if self._guide is not None and node is not root and len(legal) > 1:
                    action, new = self._guided(stats, legal, rng, world, seat)
                else:
                    action, new = self._select(stats, legal, rng)
                expanded |= new
                chosen.append((seat, action.text))
                actions.append((seat, action))
            path.append((node, chosen))
            for seat, action in actions:
                world.apply(seat, action)
            key = (*(t for _, t in chosen), *key_extra)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = bool(chosen)  # the model's moves alone walk on to the next searched decision
            node = child
            if expanded:
                break
        values = self._playout(world, rng, horizon)
        for visited, chosen in path:
            for seat, text in chosen:
                edge = visited.stats[seat][text]
                edge.visits += 1
                edge.total += values[seat]

    def _guided(
        self, stats: dict[str, _Edge], legal: Sequence[Action], rng: Rng, world: State, seat: int
    ) -> tuple[Action, bool]:
        """UCB over the moves tried here; a new one only while fewer than ``1 + widen * sqrt(visits)`` were
        tried, the prior's move in this world first."""
        tried = sum(1 for e in stats.values() if e.visits)
        visits = sum(e.visits for e in stats.values())
        if tried < 1 + self.widen * math.sqrt(visits):
            prior: Action = self._guide.choose_state(world, seat, legal)  # type: ignore[union-attr]
            pick: Action | None = prior
            edge = stats.get(prior.text)
            if edge is not None and edge.visits:  # the prior's move was tried: a random untried one
                untried = [a for a in legal if a.text not in stats or not stats[a.text].visits]
                pick = untried[rng.below(len(untried))] if untried else None
            if pick is not None:
                for action in legal:
                    stats.setdefault(action.text, _Edge()).available += 1
                return pick, True
        known = [a for a in legal if a.text in stats and stats[a.text].visits]
        if not known:  # none tried is available in this world
            return self._select(stats, legal, rng)
        return self._select(stats, known, rng)

    def _select(self, stats: dict[str, _Edge], legal: Sequence[Action], rng: Rng) -> tuple[Action, bool]:
        untried = []
        for action in legal:
            edge = stats.get(action.text)
            if edge is None:
                edge = stats[action.text] = _Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append(action)
        if untried:
            return untried[rng.below(len(untried))], True
        best: Action = legal[0]
        best_score = -math.inf
        for action in legal:
            edge = stats[action.text]
            score = edge.total / edge.visits + self.c * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best, best_score = action, score
        return best, False

    def _playout(self, world: State, rng: Rng, horizon: Horizon | None) -> Values:
        mark = horizon.marker(world) if horizon else None
        mine, model = self._policy, self._others
        moves = 0
        while not world.is_over():
            if horizon is not None and (horizon.marker(world) != mark or moves == self._depth):
                return horizon.value(world)
            seat = world.to_move()[0]
            legal = world.legal_actions(seat)
            policy = mine if model is None or seat == self._seat else model  # the others keep to the model
            if policy is not None and len(legal) > 1:
                world.apply(seat, _decide(policy, world, seat, legal))
            else:
                world.apply(seat, legal[rng.below(len(legal))])
            moves += 1
        return world.returns()


def _decide(bot: Any, world: State, seat: int, legal: Sequence[Action]) -> Action:
    """``bot``'s move for ``seat`` in a sampled world: read from the world's state by bots that can
    (``choose_state``: the seat's hand and public facts only, the same move), else from the seat's view."""
    by_state = getattr(bot, "choose_state", None)
    if by_state is not None:
        action: Action = by_state(world, seat, legal)
        return action
    action = bot.choose(world.view(seat) if getattr(bot, "needs_view", True) else {}, legal)
    return action


def win_chance(value: float, num_players: int) -> float:
    """A move's mean value turned into an estimated chance of winning the game.

    A finished game is worth +1 to the winner and -1/(n-1) to every other seat, so a
    mean value v means a win chance p = ((n-1) v + 1) / n. Exact for playouts that
    reach the end of the game; for playouts scored at a horizon (the end of a hand
    or round) it is a rough estimate. Clipped to [0, 1].
    """
    n = max(2, num_players)
    return max(0.0, min(1.0, ((n - 1) * value + 1) / n))


@dataclass(frozen=True)
class Hint:
    action: Action
    chance: float | None  # estimated win chance, None when the move was forced
    iterations: int


HINT_SECONDS = 1.0


def hint(
    view: dict[str, Any], legal: Sequence[Action], seed: int, seconds: float = HINT_SECONDS, iterations: int = 10**9
) -> Hint:
    """The search bot's move for the seat whose ``view`` this is, with its win chance."""
    bot = ISMCTSBot(seed, iterations=iterations, seconds=seconds, cpu_clock=False)  # the player waits: wall time
    action = bot.choose(view, legal)
    chance = None if bot.last_value is None else win_chance(bot.last_value, int(view["num_players"]))
    return Hint(action, chance, bot.last_iterations)


def _model_bot(game: str, kind: str | None, seed: int) -> Any:
    """The bot that plays the other seats in the tree: the game's bot of that kind, or the random bot."""
    if kind == "random":
        from courtcards.bots.base import RandomBot

        return RandomBot(seed)
    return _game_bot(game, kind, seed) if kind else None


def _game_bot(game: str, kind: str | None, seed: int) -> Any:
    """The game's bot of that kind ("lite": its greedy-lite policy), or None for "random", None or a kind
    the game lacks."""
    from courtcards.bots.base import _BOTS, make_bot
    from courtcards.bots.lite import LITE

    if kind == "lite" and game in LITE:
        return LITE[game](seed)
    if kind is None or kind == "random" or (game, kind) not in _BOTS:
        return None
    return make_bot(game, kind, seed)


FORMS = "ismcts (the default budget), ismcts:N (N iterations, N >= 1), ismcts:Xs (X seconds a decision, e.g. 0.5s)"


def make_ismcts(seed: int, arg: str | None) -> ISMCTSBot:
    """``ismcts``, ``ismcts:N`` (iterations) or ``ismcts:Xs`` (seconds, iterations unbounded)."""
    if arg is None:
        return ISMCTSBot(seed)
    text = arg.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds <= 600:
                raise ValueError(f"the time budget must be more than 0 and at most 600 seconds, not {arg!r}")
            return ISMCTSBot(seed, iterations=10**9, seconds=seconds)
        iterations = int(text)
    except ValueError as exc:
        if "budget" in str(exc):
            raise
        raise ValueError(f"{arg!r} is not a number of iterations or of seconds") from None
    if iterations < 1:
        raise ValueError(f"the number of iterations must be at least 1, not {iterations}")
    return ISMCTSBot(seed, iterations=iterations)


register_bot_spec("ismcts", make_ismcts, FORMS)
