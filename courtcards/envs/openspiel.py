"""Every courtcards game as an OpenSpiel game (``pip install 'courtcards[openspiel]'``).

    import pyspiel
    from courtcards.envs import openspiel
    openspiel.register()
    game = pyspiel.load_game("courtcards_rank(players=4,tokens_to_win=1)")

Games: every registered game, plug-ins included, under the name its ``GameInfo.openspiel_name``
declares (``courtcards_<name>``: ``courtcards_rank`` for Rank, for example); a game registered later
is added by calling :func:`register` again. Its players, dynamics, utility range and longest game
are read from its ``GameInfo``.

Parameters: ``players`` (-1: the game's default) and every game option under its own name: booleans
as booleans; integers with -1 for the game's default for the table size and 0 for "none" where the
option accepts none; other options as text ("default" for the default; Rank Royale's discards as
``3/3/3``). A simultaneous game also takes ``turn_based`` (below).

Chance (``deals``, default 0): the engine's own randomness, draw by draw. Every draw a game makes
is ``Rng.below(n)`` (a shuffle is Fisher-Yates: ``below(i + 1)`` for i from the top down), so each
draw is a chance node with ``n`` equally likely outcomes: the deal is one chance node per card
placed by the shuffle, and a later reshuffle (or any other draw) is chance nodes after the action
that causes it. The engine replays the step with the outcomes so far as its generator's script
(``Rng.set_script``) until the step needs no more, so the game is exactly the engine's, and a
seeded game is one path through the chance nodes: the outcomes ``Rng(seed).below(n)`` draws at
them give the engine's game with that seed. No player observes an outcome, only what the engine
shows. With ``deals=N`` (N > 0) the game is restricted to N deals instead: one chance node at the
start with N equally likely outcomes, outcome ``k`` the engine's game with seed ``k``, and every
later draw from that seed's generator (no further chance nodes): small exact trees for CFR.

``resample_from_infostate`` deals the hidden cards again from the player's view
(``game.sample_world``), seeded from the sampler's draw (or, without a sampler, from the game's own
generator, seeded by ``resample_seed``), so the future draws are resampled too (with ``deals=0`` they
are chance nodes again); the player's partial composite choice is kept, and so is its information
state string.

Dynamics: a game whose ``GameInfo.dynamics`` is ``"simultaneous"`` is SIMULTANEOUS: where several
seats decide at once they choose at one node (Rank Royale's cards; its discards are ordinary
one-player nodes): ``legal_actions(player)`` per player, ``apply_actions`` with one id per player;
a lone ``apply_action`` there raises. With ``turn_based=true`` it is SEQUENTIAL instead, as the
other games are: their secret simultaneous decisions (Rank and KQP give-backs, Royals commitments,
and then Rank Royale's cards) are asked one seat after the other, and a choice stays hidden from
the others until all have chosen, exactly as in the engine. A composite choice (several cards) is
several actions of the same player, as in the engine's id layer.

Observations: the observation tensor and string are the engine's, from the seat's view (with its
partial composite choice). The information state string is perfect recall: one numbered entry per
step the player takes part in: after the deal and after every completed engine action its
observation string; after each of its own ids (a step of a composite choice included) ``you:``, the
id's description and its observation string (see docs/research.md). There is no information state
tensor: the game type says so and ``information_state_tensor`` raises. Returns are the engine's, at
the end, in the game's ``GameInfo.utility`` range (zero-sum where ``GameInfo.zero_sum``, else
general-sum). Games pickle (by their engine game's name and parameters) and states pickle and
serialize (the engine state as JSON).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pyspiel

from courtcards.core.game import Game, get_game, registered_games
from courtcards.core.options import OptionValue
from courtcards.core.rng import ChanceNeeded, Rng, script_next
from courtcards.core.state import State

DEFAULT_DEALS = 0  # chance as the engine's draws


def short_name(game: str) -> str:
    """The OpenSpiel name of a registered game (its ``GameInfo.openspiel_name``)."""
    return get_game(game).info.openspiel_name


def simultaneous(game: Game[Any]) -> bool:
    return game.info.dynamics == "simultaneous"


def _parameter_spec(game: Game[Any]) -> dict[str, Any]:
    spec: dict[str, Any] = {"players": -1, "deals": DEFAULT_DEALS, "resample_seed": 0}
    if simultaneous(game):
        spec["turn_based"] = False
    for opt in game.options.options:
        if opt.kind == "bool":
            spec[opt.name] = bool(opt.default_for(game.default_players))
        elif opt.kind == "int":
            spec[opt.name] = -1
        else:
            spec[opt.name] = "default"
    return spec


def _engine_options(game: Game[Any], params: Mapping[str, Any]) -> dict[str, OptionValue]:
    """The options given in ``params`` (those left at their sentinel are the game's defaults)."""
    given: dict[str, OptionValue] = {}
    for opt in game.options.options:
        value = params.get(opt.name)
        if opt.kind == "bool":
            if value != opt.default_for(game.default_players):
                given[opt.name] = value
        elif opt.kind == "int":
            if value == 0 and opt.optional:
                given[opt.name] = None
            elif value != -1:
                given[opt.name] = value
        elif value != "default":
            given[opt.name] = str(value).replace("/", ",")
    return given


def _game_type(game: Game[Any], turn_based: bool = False) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=game.info.openspiel_name,
        long_name=f"courtcards {game.title}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous(game) and not turn_based
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if game.info.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.info.max_players,
        min_num_players=game.info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game),
    )


class CourtcardsGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over one courtcards game configuration."""

    game_name: ClassVar[str]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = params or {}
        engine = get_game(self.game_name)
        players = int(params.get("players", -1))
        n = engine.default_players if players == -1 else players
        deals = int(params.get("deals", DEFAULT_DEALS))
        if deals < 0:
            raise ValueError(f"deals must be 0 (the engine's draws as chance nodes) or a number of deals, not {deals}")
        self.engine = engine
        self.num_seats = n
        self.options = engine.resolve_options(n, _engine_options(engine, params))
        self.deals = deals
        # resample_from_infostate without a sampler draws from this (seeded) generator
        self.resample_rng = Rng(int(params.get("resample_seed", 0)))
        self.simultaneous = simultaneous(engine) and not bool(params.get("turn_based", False))
        self.obs_shape = engine.observation_shape(n, self.options)
        super().__init__(
            _game_type(engine, turn_based=simultaneous(engine) and not self.simultaneous),
            pyspiel.GameInfo(
                num_distinct_actions=engine.num_distinct_actions(n, self.options),
                max_chance_outcomes=deals or _most_outcomes(engine, n, self.options),
                num_players=n,
                min_utility=engine.info.utility[0],
                max_utility=engine.info.utility[1],
                utility_sum=0.0 if engine.info.zero_sum else None,
                max_game_length=engine.info.max_length,
            ),
            dict(params),
        )

    def new_initial_state(self) -> CourtcardsState:
        return CourtcardsState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its engine game's name and parameters: loads where register() was not called
        return (_load_game, (self.game_name, dict(self.get_parameters())))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        return _Observer(self, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


def _most_outcomes(engine: Game[Any], n: int, options: Mapping[str, OptionValue]) -> int:
    """An upper bound on a chance node's outcomes with ``deals=0``: the games shuffle their cards (a
    draw in [0, cards)) and draw seats."""
    cards = sum(len(place) for place in engine.new_game(n, dict(options), seed=0).card_places().values())
    return max(cards, n, 2)


def _deal(engine: Game[Any], n: int, options: Mapping[str, OptionValue], outcomes: tuple[int, ...]) -> State:
    """The engine's new game with its generator's draws scripted (ChanceNeeded if it needs more)."""
    script_next(outcomes)
    try:
        state: State = engine.new_game(n, dict(options), seed=0)
    finally:
        script_next(None)
    if state.rng.script_left() != 0:
        raise RuntimeError(f"{engine.title}'s new game did not draw from its own generator as scripted")
    return state


def _load_game(name: str, params: Mapping[str, Any]) -> CourtcardsGame:
    return _creator(get_game(name))(params)


class _Engine:
    """The engine state inside an OpenSpiel state: copied with ``State.copy``, pickled as JSON (a
    generator answering from a script, ``deals=0``, is scripted again when loaded)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.copy())

    def __getstate__(self) -> tuple[str, str, bool]:
        return self.state.game.name, json.dumps(self.state.to_json()), self.state.rng.script_left() >= 0

    def __setstate__(self, data: tuple[str, str, bool]) -> None:
        self.state = get_game(data[0]).state_from_json(json.loads(data[1]))
        if data[2]:
            self.state.rng.set_script(())


# one step: the (seat, id) pairs applied together; the deal is ((-1, k),) (k: the seed with deals=N)
Moves = tuple[tuple[int, int], ...]


class CourtcardsState(pyspiel.State):  # type: ignore[misc]
    """Chance nodes for the deal (and, with ``deals=0``, for every later draw); then the engine's
    state, in action ids."""

    def __init__(self, game: CourtcardsGame) -> None:
        super().__init__(game)
        self._config = (game.engine.name, game.num_seats, game.options, game.deals, game.simultaneous)
        self._engine: _Engine | None = None
        # the steps so far, each its moves and the chance outcomes drawn in it, kept until a player's
        # information state is asked for; then each player's log, kept up to date
        self._steps: list[tuple[Moves, tuple[int, ...]]] = []
        self._log: list[list[str]] | None = None
        # deals=0: the step waiting for chance outcomes (its moves, the outcomes so far, and how many
        # outcomes the next draw has); the engine state is the one before the step
        self._pending: tuple[Moves, tuple[int, ...], int] | None = None
        if not game.deals:
            self._try(((-1, 0),), ())

    @property
    def engine(self) -> State | None:
        """The engine state (before the step that waits for chance outcomes, at a chance node)."""
        return None if self._engine is None else self._engine.state

    def current_player(self) -> int:
        state = self.engine
        if state is None or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        movers = state.to_move()
        if len(movers) > 1 and self._config[4]:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return movers[0]

    def _legal_actions(self, player: int) -> list[int]:
        state = self.engine
        if state is None or self._pending is not None or state.is_over() or player not in state.to_move():
            return []
        return state.legal_action_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self._pending
        n = self._config[3] if pending is None else pending[2]
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        state, pending = self.engine, self._pending
        if pending is not None:
            if not 0 <= action < pending[2]:
                raise ValueError(f"{action} is not a chance outcome here (0..{pending[2] - 1})")
            self._try(pending[0], (*pending[1], int(action)))
            return
        if state is None:
            deals = self._config[3]
            if not 0 <= action < deals:
                raise ValueError(f"deal {action} is not a chance outcome (0..{deals - 1})")
            self._try(((-1, int(action)),), ())
            return
        if self.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            raise ValueError(
                f"seats {list(state.to_move())} decide at once here: give one action per player with "
                "apply_actions([...]) (legal_actions(player) lists each player's), not apply_action"
            )
        self._try(((state.to_move()[0], int(action)),), ())

    def _apply_actions(self, actions: list[int]) -> None:
        state = self.engine
        assert state is not None
        n = self._config[1]
        if len(actions) != n:
            raise ValueError(f"apply_actions takes one action per player ({n}), not {len(actions)}")
        movers = state.to_move()
        for seat in movers:  # all are checked before any is applied
            state.action_from_id(seat, int(actions[seat]))
        self._try(tuple((seat, int(actions[seat])) for seat in movers), ())

    def _try(self, moves: Moves, outcomes: tuple[int, ...]) -> None:
        """Play one step with ``outcomes`` as its draws (``deals=0``); a step that needs another draw
        leaves this state a chance node for it, and the engine state as it was."""
        try:
            self._play(moves, outcomes)
        except ChanceNeeded as need:
            self._pending = (moves, outcomes, need.n)
        else:
            self._pending = None

    def _play(self, moves: Moves, outcomes: tuple[int, ...]) -> None:
        """Apply one step (the deal, one id, or one id per mover) and note it in the logs. With
        ``deals=0`` the step is played on a copy whose generator answers from ``outcomes`` (the state
        is unchanged if it needs more: ChanceNeeded)."""
        name, n, options, deals, _ = self._config
        if moves[0][0] < 0:
            engine = get_game(name)
            state = _deal(engine, n, options, outcomes) if not deals else engine.new_game(n, options, seed=moves[0][1])
            completed = True
        else:
            live = self.engine
            assert live is not None
            state = live
            if not deals:
                state = live.copy()
                state.rng.set_script(outcomes)
            completed = False
            for seat, action in moves:
                completed = state.apply_id(seat, action) is not None or completed
            if not deals and state.rng.script_left() != 0:
                raise RuntimeError("the engine drew fewer times than when the step was first played")
        if state is not self.engine:
            self._engine = _Engine(state)
        if self._log is None:
            self._steps.append((moves, outcomes))
        else:
            self._note(moves, completed)

    def _note(self, moves: Moves, completed: bool) -> None:
        """Each player's log entry for one step: the acting seat's id (even a step of a composite
        choice, which only it sees) and its observation; the others' observations, once an engine
        action is complete (the engine logs every seat then)."""
        state = self.engine
        assert state is not None and self._log is not None
        mine = {seat: action for seat, action in moves if seat >= 0}
        codec = state.action_codec()
        for p, log in enumerate(self._log):
            if p in mine:
                log.append(f"[{len(log)}] you: {codec.describe(mine[p])}\n{state.observation_string(p)}")
            elif completed:
                log.append(f"[{len(log)}] {state.observation_string(p)}")

    def _info_log(self) -> list[list[str]]:
        if self._log is None:
            replay = CourtcardsState(self.get_game())
            replay._engine, replay._steps, replay._pending = None, [], None
            replay._log = [[] for _ in range(self._config[1])]
            for moves, outcomes in self._steps:
                replay._play(moves, outcomes)
            self._log, self._steps = replay._log, []
        return self._log

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self._config[3] else f"draw {action}"
        name, n, options, _, _ = self._config
        return get_game(name).action_codec(n, options).describe(int(action))

    def is_terminal(self) -> bool:
        state = self.engine
        return state is not None and self._pending is None and state.is_over()

    def returns(self) -> list[float]:
        state = self.engine
        return [0.0] * self._config[1] if state is None or self._pending is not None else state.returns()

    def rewards(self) -> list[float]:
        state = self.engine
        return [0.0] * self._config[1] if state is None or self._pending is not None else state.rewards()

    def info_string(self, player: int) -> str:
        """The player's information state: one numbered entry per step it took part in (see the
        module's docstring)."""
        if self.engine is None:
            return ""
        return "\n".join(self._info_log()[player])

    def resample_from_infostate(self, player: int, sampler: Any = None) -> CourtcardsState:
        """A state the player cannot tell from this one: the hidden cards dealt again from its view
        (and the others' hidden choices made again), its partial composite choice kept, its
        information state string the same. The world's seed is the sampler's draw (a float in [0, 1),
        as OpenSpiel's samplers give), or without one a draw of the game's seeded generator
        (``resample_seed``): never the process's global random state."""
        state = self.engine
        if state is None:
            return self.clone()  # type: ignore[no-any-return]
        if self._pending is not None:
            raise ValueError("resample_from_infostate at a player's node, not while chance draws for a step")
        game: CourtcardsGame = self.get_game()
        seed = int(float(sampler()) * (1 << 53)) if callable(sampler) else game.resample_rng.next64()
        world = state.game.sample_world(state.view(player), seed, seat=player)
        if not self._config[3]:
            world.rng.set_script(())  # its later draws are chance nodes again
        for action in state.id_prefix(player):
            world.apply_id(player, action)
        log = self._info_log()
        new: CourtcardsState = game.new_initial_state()
        new._engine, new._pending = _Engine(world), None
        new._log = [
            list(log[p]) if p == player else [f"[0] {world.observation_string(p)}"] for p in range(self._config[1])
        ]
        return new

    def __str__(self) -> str:
        state, pending = self.engine, self._pending
        text = "(before the deal)" if state is None else json.dumps(state.to_json(), sort_keys=True)
        if pending is not None:  # distinct for every path through the draws (get_all_states keys on it)
            text += f"\n(drawing for {list(pending[0])}: {list(pending[1])} so far)"
        return text


class _Observer:
    """OpenSpiel's Python observer: the engine's tensor and strings for one player."""

    def __init__(self, game: CourtcardsGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not perfect_recall:
            self.tensor = np.zeros(int(np.prod(game.obs_shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(game.obs_shape)}

    def set_from(self, state: CourtcardsState, player: int) -> None:
        if self.tensor is None:
            raise NotImplementedError(
                "courtcards games provide no information state tensor (provides_information_state_tensor "
                "is false): use information_state_string, or observation_tensor (docs/research.md)"
            )
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = engine.observation_tensor(player).ravel()

    def string_from(self, state: CourtcardsState, player: int) -> str:
        if self.perfect_recall:
            return state.info_string(player)
        engine = state.engine
        return "" if engine is None else engine.observation_string(player)


# one class per game, made when it is registered: OpenSpiel keeps the creator, and a class (unlike a
# closure) survives interpreter exit; this keeps them alive
_CREATORS: dict[str, type[CourtcardsGame]] = {}


def _creator(game: Game[Any]) -> type[CourtcardsGame]:
    creator = _CREATORS.get(game.name)
    if creator is None:
        title = "".join(w.title() for w in game.name.split("_"))
        creator = _CREATORS[game.name] = type(f"Courtcards{title}Game", (CourtcardsGame,), {"game_name": game.name})
    return creator


def register() -> list[str]:
    """Register every registered game with OpenSpiel (again is harmless, and adds the games
    registered since); their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    names = []
    for game in registered_games():
        short = game.info.openspiel_name
        if short not in known:
            pyspiel.register_game(_game_type(game), _creator(game))
        names.append(short)
    return names


def ismcts_bot(
    game: pyspiel.Game,
    max_simulations: int = 100,
    seed: int = 0,
    uct_c: float = 2.0,
    use_observation_string: bool = True,
    **kwargs: Any,
) -> pyspiel.Bot:
    """OpenSpiel's Python ISMCTS bot (random rollouts) ready for ``evaluate_bots``.

    OpenSpiel's C++ ISMCTS cannot resample a Python game's states, and its Python ISMCTS bot lacks
    ``restart_at``, which ``evaluate_bots`` calls; each search starts afresh anyway, so here it only
    resets. Nodes are keyed by observation strings by default: perfect-recall keys
    (``use_observation_string=False``) work too, but then every step of every rollout also logs
    each player's observation string, several times slower."""
    from open_spiel.python.algorithms import ismcts, mcts

    class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: pyspiel.State) -> None:
            self.reset()

        def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
            pass

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return Bot(
        game,
        evaluator,
        uct_c,
        max_simulations,
        random_state=np.random.RandomState(seed + 1),
        use_observation_string=use_observation_string,
        **kwargs,
    )
