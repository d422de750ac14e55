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

What the search knows of a game is the game's search profile (a
:class:`~courtcards.bots.profile.SearchProfile`, ``PROFILE`` in
``courtcards/games/<g>/search.py``, found through the game; a game that
declares none gets the generic profile: random playouts to the end of the
game, the other seats searched too). Per game: the other seats may play a model bot's moves in the
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
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from courtcards.bots.base import RandomBot, game_bots, register_bot_spec, state_move
from courtcards.bots.profile import GENERIC_PROFILE, SearchProfile, Values
from courtcards.core.game import Game, get_game
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State


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


DEFAULT_ITERATIONS = 1000


def search_profile(game: Game[Any]) -> SearchProfile:
    """The game's search profile (its ``search`` profile), or the generic one where it declares none."""
    profile: SearchProfile | None = game.profile("search")
    return GENERIC_PROFILE if profile is None else profile


@dataclass
class _Decision:
    """One decision's settings and players: built at its start, passed down the search."""

    seat: int  # the seat deciding
    settings: SearchProfile  # the game's profile, the bot's overrides applied
    policy: Any  # the seat's playout policy (None: random)
    model: Any  # the bot that plays the other seats' moves in the tree (None: they search)
    others: Any  # the other seats' playout policy where it differs from the seat's (the model), else None
    prior: Any = None  # the bot whose move is tried first at the root (None: none)
    guide: Any = None  # the prior, when it also guides below the root (it reads worlds: ``choose_state``)
    root_moves: set[str] = field(default_factory=set)  # the seat's moves at the root entered so far (widening)

    @property
    def depth(self) -> int | None:
        """Playout moves before the static evaluation (None: to the horizon)."""
        return self.settings.depth or None


class ISMCTSBot:
    """ISMCTS over worlds sampled from the seat's view, for every game: what it knows of a game comes from
    the game's search profile (:class:`SearchProfile`), the generic one where the game declares none."""

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
        # None: the game's setting from its search profile
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
        self.guide = guide  # below the root too: the prior's move first, then widening
        self.fit = fit  # refit steps per pooled world to fit the model to the moves seen
        self.open_choices = open_choices  # other seats' hidden choices unmade in the worlds
        self.adapt = adapt  # the model's kind told from the moves seen
        self.last_odds: dict[str, float] | None = None  # the kinds' odds at the last decision (adapt)
        self.model = model  # a bot kind for the other seats' moves in the tree ("default": the game's; None: search)
        self.last_value: float | None = None  # the chosen move's mean value, for hints
        self.last_iterations = 0
        self._records: dict[int, Any] = {}  # per seat: the moves seen in earlier views (the profile's record)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        game = get_game(view["game"])
        make_record = search_profile(game).record
        record = None
        if make_record is not None and view.get("seat") is not None:  # what this seat saw in earlier views
            record = self._records.setdefault(int(view["seat"]), make_record())
        rounds = record.update(view) if record is not None else None
        action = self._search(game, view, legal, rounds)
        if record is not None:
            record.chose(view, action.text)
        return action

    def settings(self, game: Game[Any]) -> SearchProfile:
        """The game's search profile with this bot's overrides (the keyword arguments given, not None)."""
        given: dict[str, Any] = {
            "rollout": self.rollout,
            "depth": self.depth,
            "worlds": self.worlds,
            "fit": self.fit,
            "guide": self.guide,
            "open_choices": self.open_choices,
            "adapt": self.adapt,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        if self.model != "default":
            changes["model"] = self.model
        profile = search_profile(game)
        return replace(profile, **changes) if changes else profile

    def _context(self, game: Game[Any], view: dict[str, Any], rng: Rng) -> _Decision:
        """This decision's settings and players: the playout policy, the other seats' model (told from the
        moves seen with ``adapt``), the prior."""
        settings = self.settings(game)
        policy = _game_bot(game, settings, settings.rollout, rng.next64())
        model = _model_bot(game, settings, settings.model, rng.next64())
        others = model if settings.model != settings.rollout else None  # the others' policy in playouts too
        ctx = _Decision(int(view["seat"]), settings, policy, model, others)
        self._adapt(game, view, ctx, rng)
        ctx.prior = _game_bot(game, settings, self.prior, rng.next64())
        # below the root, a seat's first move at a node is the prior's in that world, then others widen in
        if settings.guide and ctx.prior is not None and hasattr(ctx.prior, "choose_state"):
            ctx.guide = ctx.prior
        return ctx

    def _search(self, game: Game[Any], view: dict[str, Any], legal: Sequence[Action], rounds: Any) -> Action:
        if len(legal) == 1:
            self.last_value = None
            return legal[0]
        start = self.clock()  # the budget counts everything from here: the model's odds, the prior, the pool
        rng = Rng(self.rng.next64())
        ctx = self._context(game, view, rng)
        seat, settings, prior = ctx.seat, ctx.settings, ctx.prior
        worlds, fit, open_choices = settings.worlds, settings.fit, settings.open_choices
        order = list(legal)
        for i in range(len(order) - 1, 0, -1):  # seeded shuffle: the order in which candidates enter
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        order = self._root_order(view, order, ctx)
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
            ctx.root_moves = {a.text for a in order[:width]}
            if done == 1 and fit > 0 and worlds:
                pool = self._fitted_pool(game, view, ctx, rng, start, rounds)
                searching = self.clock()  # the early stop's rate counts the search's time only
            if done <= worlds and len(pool) < done:
                pool.append(game.sample_world(view, rng.next64(), open_choices=open_choices))
            world = (
                pool[(done - 1) % worlds].copy()
                if worlds
                else game.sample_world(view, rng.next64(), open_choices=open_choices)
            )
            self._iterate(root, world, rng, ctx)
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
        if first is not None:
            mine = stats.get(first.text)
            if mine is not None and mine.visits and not self._clearly_better(stats[best], mine):
                best = first.text  # the prior's move, unless the search found one clearly better
        edge = stats.get(best)
        self.last_value = edge.total / edge.visits if edge and edge.visits else None
        return by_text[best]

    def _clearly_better(self, top: _Edge, mine: _Edge) -> bool:
        """Whether the most visited root move beats the prior's by more than the exploration constant over
        the square root of the prior move's visits (else the prior's move is kept)."""
        return top.total / top.visits - mine.total / mine.visits >= self.c / math.sqrt(mine.visits)

    def _root_order(self, view: dict[str, Any], order: list[Action], ctx: _Decision) -> list[Action]:
        """The order in which the seat's moves enter the root (after the prior's move, which comes first):
        here the seeded shuffle as it is; a bot with a prior over its moves sorts them by it."""
        return order

    def _adapt(self, game: Game[Any], view: dict[str, Any], ctx: _Decision, rng: Rng) -> None:
        """With ``adapt``, the other seats' model is the bot kind their moves seen make likely (the profile's
        ``odds``), when its odds reach the profile's ``confident``; else it stays the given one."""
        self.last_odds = None
        settings = ctx.settings
        if not (settings.adapt and settings.model and settings.odds is not None):
            return
        odds = settings.odds(view, game.sample_world, Rng(rng.next64()))
        self.last_odds = odds
        if odds is None:
            return
        kind = max(odds, key=lambda k: odds[k])
        if kind != settings.model and odds[kind] >= settings.confident:
            ctx.model = _model_bot(game, settings, kind, rng.next64())
            ctx.others = ctx.model if kind != settings.rollout else None

    def _fitted_pool(
        self,
        game: Game[Any],
        view: dict[str, Any],
        ctx: _Decision,
        rng: Rng,
        start: float,
        rounds: Any = None,
    ) -> list[State]:
        """Worlds drawn from the view, then their hidden cards changed (at most ``fit`` steps each, the
        profile's ``fitter``) until the model makes in them the other seats' moves seen (Rank: the rounds of
        this hand the seat saw; KQP: the round's piles; Rank Royale: the opponent's plays and discards). At
        most a quarter of the time; the rest of the pool is drawn as usual."""
        settings = ctx.settings
        make = settings.fitter
        model = _game_bot(game, settings, settings.fit_model, rng.next64())
        if make is None or model is None:
            return []
        open_choices = settings.open_choices
        pool: list[State] = [game.sample_world(view, rng.next64(), open_choices=open_choices)]
        refit = make(pool[0], ctx.seat, model, rounds)
        if refit is None:
            return pool
        while True:
            refit(pool[-1], Rng(rng.next64()), settings.fit)
            if len(pool) == settings.worlds or self.clock() - start > self.seconds / 4:
                return pool
            pool.append(game.sample_world(view, rng.next64(), open_choices=open_choices))

    def _iterate(self, root: _Node, world: State, rng: Rng, ctx: _Decision) -> None:
        path: list[tuple[_Node, list[tuple[int, str]]]] = []
        node = root
        model, me = ctx.model, ctx.seat
        while not world.is_over():
            movers = world.to_move()
            chosen: list[tuple[int, str]] = []
            key_extra: list[str] = []
            expanded = False
            actions: list[tuple[int, Action]] = []
            for seat in movers:
                legal = world.legal_actions(seat)
                if model is not None and seat != me:
                    # another seat's move by the opponent model, from its view of this world: no statistics
                    act = legal[0] if len(legal) == 1 else state_move(model, world, seat, legal)
                    actions.append((seat, act))
                    key_extra.append(act.text)
                    continue
                if node is root and seat == me:
                    allowed = ctx.root_moves
                    legal = [a for a in legal if a.text in allowed] or legal
                stats = node.stats.setdefault(seat, {})
                if ctx.guide is not None and node is not root and len(legal) > 1:
                    action, new = self._guided(stats, legal, rng, world, seat, ctx.guide)
                elif node is root and seat == me:
                    action, new = self._select_root(stats, legal, rng)
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
        values = self._playout(world, rng, ctx)
        for visited, chosen in path:
            for seat, text in chosen:
                edge = visited.stats[seat][text]
                edge.visits += 1
                edge.total += values[seat]

    def _guided(
        self, stats: dict[str, _Edge], legal: Sequence[Action], rng: Rng, world: State, seat: int, guide: Any
    ) -> tuple[Action, bool]:
        """UCB over the moves tried here; a new one only while fewer than ``1 + widen * sqrt(visits)`` were
        tried, the prior's move in this world first."""
        tried = sum(1 for e in stats.values() if e.visits)
        visits = sum(e.visits for e in stats.values())
        if tried < 1 + self.widen * math.sqrt(visits):
            prior: Action = guide.choose_state(world, seat, legal)
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

    def _select_root(self, stats: dict[str, _Edge], legal: Sequence[Action], rng: Rng) -> tuple[Action, bool]:
        """The searching seat's move at the root: UCB as everywhere (a bot with a prior over its moves may
        weigh them by it)."""
        return self._select(stats, legal, rng)

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

    def _playout(self, world: State, rng: Rng, ctx: _Decision) -> Values:
        """A playout by the default policies to the end of the game, or to the profile's horizon (its
        ``marker`` changes, or ``depth`` moves were made) where its ``value`` scores the position."""
        value, marker = ctx.settings.value, ctx.settings.marker
        depth = ctx.depth if value is not None else None
        mark = marker(world) if value is not None and marker is not None else None
        mine, model, me = ctx.policy, ctx.others, ctx.seat
        if mine is None and model is None and (value is None or marker is None):
            # every seat random and no marker to watch: the engine's whole playout, one call (the same moves)
            world.play_random(rng, -1 if depth is None else depth)
            return value(world) if value is not None and not world.is_over() else world.returns()
        moves = 0
        while not world.is_over():
            if value is not None and ((marker is not None and marker(world) != mark) or moves == depth):
                return value(world)
            seat = world.to_move()[0]
            legal = world.legal_actions(seat)
            policy = mine if model is None or seat == me else model  # the others keep to the model
            if policy is not None and len(legal) > 1:
                world.apply(seat, state_move(policy, world, seat, legal))
            else:
                world.apply(seat, legal[rng.below(len(legal))])
            moves += 1
        return world.returns()


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


def _model_bot(game: Game[Any], settings: SearchProfile, kind: str | None, seed: int) -> Any:
    """The bot that plays the other seats in the tree: the game's bot of that kind, or the random bot."""
    if kind == "random":
        return RandomBot(seed)
    return _game_bot(game, settings, kind, seed) if kind else None


def _game_bot(game: Game[Any], settings: SearchProfile, kind: str | None, seed: int) -> Any:
    """The profile's playout policy of that kind (greedy-lite: "lite") or the game's bot of that kind, or
    None for "random", None or a kind the game lacks."""
    if kind is None or kind == "random":
        return None
    factory = settings.policies.get(kind) or game_bots(game.name).get(kind)
    return None if factory is None else factory(seed)


FORMS = "ismcts (the default budget), ismcts:N (N iterations, N >= 1), ismcts:Xs (X seconds a decision, e.g. 0.5s)"


def parse_budget(arg: str | None) -> dict[str, Any]:
    """The budget of ``KIND:ARG``: ``N`` (iterations) or ``Xs`` (seconds, iterations unbounded), as the
    bot's keyword arguments (none for no argument); ValueError naming what is wrong."""
    if arg is None:
        return {}
    text = arg.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds <= 600:
                raise ValueError(f"the time budget must be more than 0 and at most 600 seconds, not {arg!r}")
            return {"iterations": 10**9, "seconds": seconds}
        iterations = int(text)
    except ValueError as exc:
        if "budget" in str(exc):
            raise
        raise ValueError(f"{arg!r} is not a number of iterations or of seconds") from None
    if iterations < 1:
        raise ValueError(f"the number of iterations must be at least 1, not {iterations}")
    return {"iterations": iterations}


def make_ismcts(seed: int, arg: str | None) -> ISMCTSBot:
    """``ismcts``, ``ismcts:N`` (iterations) or ``ismcts:Xs`` (seconds, iterations unbounded)."""
    return ISMCTSBot(seed, **parse_budget(arg))


register_bot_spec("ismcts", make_ismcts, FORMS)
