"""Trained networks at play time, without PyTorch: the file format and the ``nn`` bot.

A network file is a NumPy ``.npz`` archive written by ``courtcards train`` (``courtcards.train``):

- ``meta``: a JSON string (as a 0-d unicode array) with ``format`` (:data:`NETWORK_FORMAT`), ``game``,
  ``players``, ``options`` (every option resolved for that table size), ``action_ids_version``
  (:data:`courtcards.core.ids.ACTION_IDS_VERSION` when it was trained), ``observation_shape``,
  ``num_actions``, ``trainer`` (``"dmc"``), ``seed``, ``layers`` (how many), ``games`` and ``seconds``
  of training, and ``command`` (the command line that trained it);
- ``w0, b0, w1, b1, ...``: the weights of a multi-layer perceptron, ReLU between layers, the last
  layer's outputs one per action id (``num_actions``): the estimated return of choosing that id now.

:func:`load_network` reads and checks a file; :meth:`Network.check_fits` checks it against a table
(game, player count, options, action-id version, observation shape) and raises :class:`NetworkError`
naming every mismatch. Nothing falls back silently: a missing, corrupt or mismatched network is an
error.

Where a game ships networks: the folder its ``networks`` profile names (``GameInfo.profiles``, a
package of ``.npz`` files); :func:`shipped_networks` lists them, and the ``nn`` bot picks the one made
for its table's player count and options.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import signal
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from courtcards.bots.base import Bot, bot_move, default_bot_kind, make_bot, register_game_bot, state_move
from courtcards.core.errors import CourtcardsError, UnknownGameError
from courtcards.core.game import Game, get_game
from courtcards.core.ids import ACTION_IDS_VERSION, choose_by_steps
from courtcards.core.rng import Rng
from courtcards.core.state import Action, State

NETWORK_FORMAT = 1
META_KEYS = ("format", "game", "players", "options", "action_ids_version", "observation_shape", "num_actions")


class NetworkError(CourtcardsError):
    """A network file that is missing, corrupt, or made for another game, table size or options."""


def _json_value(value: Any) -> Any:
    """An option value as JSON keeps it (tuples become lists)."""
    return json.loads(json.dumps(value))


@dataclass
class Network:
    """A multi-layer perceptron read from a network file: ``forward`` gives one value per action id."""

    meta: dict[str, Any]
    weights: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
    path: str = ""

    def forward(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The values of a batch of observations (shape ``(B, *observation_shape)``): ``(B, num_actions)``."""
        x = obs.reshape(obs.shape[0], -1).astype(np.float32, copy=False)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    def describe(self) -> str:
        """The configuration the network was trained for, in words."""
        m = self.meta
        opts = ", ".join(f"{k}={v}" for k, v in sorted(m["options"].items()))
        return f"{m['game']}, {m['players']} players, options {opts or 'none'}"

    def mismatches(self, game: Game[Any], players: int, options: Mapping[str, Any]) -> list[str]:
        """What differs between the network and a table (empty when it fits)."""
        m = self.meta
        if m["game"] != game.name:
            return [f"it was trained for the game {m['game']!r}, not {game.name!r}"]
        found = []
        if m["players"] != players:
            found.append(f"it was trained for {m['players']} players, not {players}")
            return found
        resolved = _json_value(game.resolve_options(players, options))
        # an option the game gained after the training reads as its default (the game the network learned)
        trained = {**_json_value(game.resolve_options(players, {})), **m["options"]}
        for key in sorted(set(resolved) | set(trained)):
            if resolved.get(key, "(absent)") != trained.get(key, "(absent)"):
                found.append(
                    f"option {key} is {resolved.get(key, '(absent)')!r} at this table, "
                    f"{trained.get(key, '(absent)')!r} in training"
                )
        if m["action_ids_version"] != ACTION_IDS_VERSION:
            found.append(f"its action ids are version {m['action_ids_version']}, the engine's are {ACTION_IDS_VERSION}")
        if not found:
            shape = list(game.observation_shape(players, options))
            if list(m["observation_shape"]) != shape:
                found.append(f"its observation shape is {m['observation_shape']}, the game's is {shape}")
            size = game.num_distinct_actions(players, options)
            if m["num_actions"] != size:
                found.append(f"it has {m['num_actions']} action ids, the game has {size}")
        return found

    def check_fits(self, game: Game[Any], players: int, options: Mapping[str, Any]) -> None:
        """Raise :class:`NetworkError` naming every mismatch unless the network is for this table."""
        found = self.mismatches(game, players, options)
        if found:
            where = f" ({self.path})" if self.path else ""
            raise NetworkError(f"network{where} does not fit this table: " + "; ".join(found))


def save_network(
    path: str | os.PathLike[str],
    meta: Mapping[str, Any],
    weights: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]],
    dtype: type[np.floating[Any]] = np.float16,
) -> None:
    """Write a network file atomically (a temporary file in the same folder, then renamed over ``path``):
    a run killed while writing leaves the previous file whole. Weights are stored as ``dtype``."""
    meta = {"format": NETWORK_FORMAT, **meta, "layers": len(weights)}
    missing = [k for k in META_KEYS if k not in meta]
    if missing:
        raise ValueError(f"network metadata lacks {missing}")
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(weights):
        arrays[f"w{i}"] = np.asarray(w).astype(dtype)
        arrays[f"b{i}"] = np.asarray(b).astype(dtype)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_network(path: str | os.PathLike[str] | Any) -> Network:
    """Read a network file (a path or an importlib.resources file); :class:`NetworkError` if it is
    missing, unreadable, not a network file or inconsistent (weights that do not chain)."""
    name = str(path)
    try:
        with path.open("rb") if hasattr(path, "open") and not isinstance(path, str) else open(path, "rb") as f:
            data = np.load(f, allow_pickle=False)
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise NetworkError(f"no network file {name}") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise NetworkError(f"{name} is not a readable network file (corrupt or not .npz): {exc}") from None
    try:
        meta = json.loads(str(arrays["meta"]))
    except (KeyError, ValueError) as exc:
        raise NetworkError(f"{name} is not a network file: no readable metadata ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != NETWORK_FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise NetworkError(f"{name}: network format {found!r}, this courtcards reads format {NETWORK_FORMAT}")
    missing = [k for k in (*META_KEYS, "layers") if k not in meta]
    if missing:
        raise NetworkError(f"{name}: the network's metadata lacks {missing}")
    weights = []
    width = int(np.prod(meta["observation_shape"]))
    for i in range(int(meta["layers"])):
        try:
            w = arrays[f"w{i}"].astype(np.float32)
            b = arrays[f"b{i}"].astype(np.float32)
        except KeyError:
            raise NetworkError(f"{name}: layer {i} of {meta['layers']} is missing") from None
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise NetworkError(f"{name}: layer {i} has shape {w.shape}/{b.shape}, expected {width} inputs")
        width = w.shape[1]
        weights.append((w, b))
    if width != meta["num_actions"]:
        raise NetworkError(f"{name}: the last layer has {width} outputs, the metadata says {meta['num_actions']}")
    for w, b in weights:
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise NetworkError(f"{name}: the weights are not all finite")
    return Network(meta, weights, name)


# -- networks shipped with a game -------------------------------------------------------------------


def shipped_networks(game: str) -> list[Any]:
    """The network files a game ships (its ``networks`` profile: a package of ``.npz`` files), by name."""
    try:
        package = get_game(game).profile("networks")
    except UnknownGameError:
        return []
    if package is None:
        return []
    folder = resources.files(package)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".npz")), key=lambda f: f.name)


_SHIPPED_FOR: dict[tuple[str, str], bool] = {}  # (game, file) -> whether the file was trained for the game


def has_shipped_network(game: str) -> bool:
    """Whether the game ships a network made for it (a variant that inherits another game's ``networks``
    profile does not: those networks are the other game's)."""
    try:
        name = get_game(game).name
    except UnknownGameError:
        return False
    for f in shipped_networks(name):
        key = (name, str(f))
        found = _SHIPPED_FOR.get(key)
        if found is None:
            try:
                with f.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
                    found = json.loads(str(data["meta"])).get("game") == name
            except (OSError, ValueError, KeyError, zipfile.BadZipFile):
                found = False  # a damaged file: the bot names the error when it is seated
            _SHIPPED_FOR[key] = found
        if found:
            return True
    return False


def shipped_network(game: str, players: int, options: Mapping[str, Any]) -> Network:
    """The shipped network for a table; :class:`NetworkError` naming the ones shipped when none fits."""
    found = get_game(game)
    files = shipped_networks(found.name)
    if not files:
        raise NetworkError(f"{found.title} ships no trained network (train one: courtcards train {found.name})")
    nets = [load_network(f) for f in files]
    for net in nets:
        if not net.mismatches(found, players, options):
            return net
    have = "; ".join(n.describe() for n in nets)
    why = "; ".join(f"{Path(n.path).name}: {', '.join(n.mismatches(found, players, options))}" for n in nets)
    raise NetworkError(f"no shipped {found.title} network fits this table (shipped: {have}). Mismatches: {why}")


# -- the bot -------------------------------------------------------------------------------------------


class NNBot:
    """Greedy over a network's values: at each id step of its decision (one id for most actions,
    several for a composite choice), the legal next id with the highest value, computed from the
    observation tensor of its seat's view and its own partial choice. Deterministic; no generator.

    The network is the game's shipped one for the table (``nn``) or a file (``nn:PATH``), loaded and
    checked against the table on the first decision."""

    needs_log = False  # it never reads its view's log

    def __init__(self, game: str, seed: int = 0, path: str | None = None) -> None:
        self.game = get_game(game)
        self.path = path
        self.net: Network | None = None
        self.table: tuple[int, str] | None = None
        if path is not None:
            self.net = load_network(path)
            if self.net.meta["game"] != self.game.name:
                raise NetworkError(f"{path} was trained for {self.net.meta['game']!r}, not {self.game.name!r}")
        elif not shipped_networks(self.game.name):
            raise NetworkError(
                f"{self.game.title} ships no trained network for the nn bot "
                f"(train one with `courtcards train {self.game.name}` and seat nn:PATH)"
            )

    def network(self, view: Mapping[str, Any]) -> Network:
        """The network for the table of ``view`` (its player count and options), loaded and checked once
        per table: :class:`NetworkError` naming the mismatch where none fits."""
        players, options = int(view["num_players"]), dict(view["options"])
        key = (players, json.dumps(options, sort_keys=True, default=str))
        if self.net is None or self.table != key:
            if self.path is None:
                self.net = shipped_network(self.game.name, players, options)
            else:
                assert self.net is not None
                self.net.check_fits(self.game, players, options)
            self.table = key
        return self.net

    def check_table(self, num_players: int, options: Mapping[str, Any]) -> None:
        """Raise :class:`NetworkError` unless a network fits this table (before its first move)."""
        self.network({"num_players": num_players, "options": options})

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        net = self.network(view)
        codec = self.game.action_codec(int(view["num_players"]), view["options"])

        def values(prefix: tuple[int, ...], ids: list[int]) -> list[float]:
            out = net.forward(self.game.observation_tensor(view, prefix)[None])[0]
            return [float(out[i]) for i in ids]

        return choose_by_steps(legal, codec.encode, values)


def _nn_factory(game: str, seed: int, arg: str | None) -> Bot:
    try:
        return NNBot(game, seed, arg or None)
    except NetworkError as exc:
        raise ValueError(str(exc)) from None


register_game_bot("nn", _nn_factory, "nn (the game's shipped network), nn:PATH.npz", has_shipped_network)


# -- batched self-play (the trainer's, in process, and its actor processes') -------------------------------


def deal_seed(key: int, number: int) -> int:
    """The seed of deal ``number`` of a self-play stream keyed by ``key`` (the run's seed, or an actor's key)."""
    return Rng((key * 1_000_003 + number) & ((1 << 63) - 1)).next64()


def actor_key(seed: int, index: int) -> int:
    """The deal key of actor ``index`` of a run seeded ``seed``: its games are its own, derived from both."""
    return int(np.random.SeedSequence([seed & ((1 << 63) - 1), 1 + index]).generate_state(1, np.uint64)[0] >> 1)


# per game, per seat: (observation, chosen id, the legal ids packed by np.packbits if the teacher chose it, else None)
Trajectories = list[list[list[tuple[Any, int, Any]]]]


class SelfPlay:
    """Batched self-play by one value function (DouZero's DMC actor): ``step`` moves every game of a batch
    once, with one call of ``values`` for every deciding seat of every game, epsilon-greedy over the legal
    ids; a finished game's (observation, id, return, seat) samples are appended to ``obs``, ``ids``,
    ``ret`` and ``seats``, and the game is replaced by a new deal.

    Simultaneous secret choices: the seats that decide now (``state.to_move()``, several at a secret
    choice) are collected with their observation tensors and masks *before* any of them is applied, so no
    seat's input can hold another's pending choice; a composite choice is one id per step.

    With ``opponents`` (bot kinds), a share ``opponent_share`` of new games have every seat but one (drawn)
    played by bots drawn from them; only the value function's seats give samples.

    With a ``teacher`` (a bot kind), each decision of the value function's seats is the teacher's move at a
    share ``teacher_share`` of them (a composite move is followed id by id), still with the epsilon
    exploration on top: the samples then estimate the values of the teacher's policy, and acting greedily
    on them improves on it (Monte-Carlo policy iteration started from the teacher). Every draw (exploration,
    opponents, teacher) comes from ``rng``, every deal from ``deal_seed(key, n)``: the same generator state, key and
    values give the same games. Used by :class:`courtcards.train.Trainer` (one process) and by its actor
    processes (:func:`actor_main`, no PyTorch).

    With ``rollouts`` (a share), that share of the value function's decisions with more than one legal id
    give rollout samples instead of the game's return: every legal id is tried on a copy of the true state
    and the game played to its end, the seat's own moves by the rollout bot (``teacher``, else the game's
    default bot) and every other seat by its bot in this game (the rollout bot for the value function's
    seats); each (observation, id, that rollout's return) is a sample. The trainer holds the true state,
    so each id's target has the hidden cards of this deal, not a guess: over many deals the network, which
    sees only the seat's observation, learns each id's expected return given what the seat knows, when
    the game goes on as the rollout bot plays it (its Q-values), and its greedy policy is one step of
    policy improvement on that bot. All ids are tried from the same state and generator, so what differs
    between their returns is the id: far less noise than one game's return for the id played."""

    def __init__(
        self,
        game: Game[Any],
        players: int,
        options: Mapping[str, Any],
        values: Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]],
        rng: np.random.Generator,
        key: int,
        epsilon: float = 0.1,
        opponents: Sequence[str] = (),
        opponent_share: float = 0.5,
        next_deal: int = 0,
        teacher: str | None = None,
        teacher_share: float = 0.0,
        rollouts: float = 0.0,
    ) -> None:
        self.game = game
        self.players = players
        self.options = dict(options)
        self.values = values
        self.rng = rng
        self.key = key
        self.epsilon = epsilon
        self.opponents = tuple(opponents)
        self.opponent_share = opponent_share
        self.next_deal = next_deal
        self.teacher = teacher if teacher_share > 0 else None
        self.teacher_share = teacher_share
        self.rollouts = rollouts
        self.rollout_kind = teacher or default_bot_kind(game.name)
        self.rollout_bots: dict[str, Bot] = {}  # kind -> the bot that plays it in rollouts
        self.slot_bots: list[dict[int, Bot]] = []  # per game being played: the seats bots play
        self.slot_kinds: list[dict[int, str]] = []  # per game being played: the kinds of those bots
        self.last_kinds: dict[int, str] = {}  # the kinds of the bots seat_opponents made last
        self.teacher_bots: dict[tuple[int, int], Bot] = {}  # (game, seat): its teacher, made at its first lesson
        self.taught: dict[tuple[int, int], list[int]] = {}  # (game, seat): the teacher's ids still to play
        self.obs: list[npt.NDArray[np.float32]] = []
        self.ids: list[int] = []
        self.ret: list[float] = []
        self.seats: list[int] = []
        self.taught_masks: list[npt.NDArray[np.uint8] | None] = []  # per sample: its legal ids, packed, if taught

    def deal(self) -> State:
        state: State = self.game.new_game(self.players, self.options, seed=deal_seed(self.key, self.next_deal))
        self.next_deal += 1
        return state

    def seat_opponents(self) -> dict[int, Bot]:
        """The bots of a new game: none (pure self-play), or at a share ``opponent_share`` of games every
        seat but one (drawn) played by bots drawn from ``opponents`` (their kinds: ``last_kinds``)."""
        self.last_kinds = {}
        if not self.opponents or self.rng.random() >= self.opponent_share:
            return {}
        learner = int(self.rng.integers(self.players))
        kinds = self.opponents
        bots: dict[int, Bot] = {}
        for s in range(self.players):
            if s != learner:
                kind = kinds[int(self.rng.integers(len(kinds)))]
                bots[s] = make_bot(self.game.name, kind, int(self.rng.integers(2**31)))
                self.last_kinds[s] = kind
        return bots

    def _rollout_bot(self, kind: str) -> Bot:
        bot = self.rollout_bots.get(kind)
        if bot is None:
            bot = self.rollout_bots[kind] = make_bot(self.game.name, kind, 0)
        return bot

    def rollout_returns(self, state: State, seat: int, ids: Sequence[int], kinds: Mapping[int, str]) -> list[float]:
        """``seat``'s return after each of ``ids`` (legal now), from copies of ``state``: the id chosen,
        the seat's move completed and the game played to its end by the rollout bots (``kinds[s]`` for
        seat ``s``, the rollout bot where none is named)."""
        out: list[float] = []
        for i in ids:
            world = state.copy()
            world.apply_id(seat, i)
            while not world.is_over():
                p = world.to_move()[0]
                self._rollout_move(world, p, self._rollout_bot(kinds.get(p, self.rollout_kind)))
            out.append(float(world.returns()[seat]))
        return out

    @staticmethod
    def _rollout_move(world: State, seat: int, bot: Bot) -> None:
        """``bot``'s move for ``seat``, among the actions that complete the seat's partial id choice."""
        legal: Sequence[Action] = world.legal_actions(seat)
        prefix = world.id_prefix(seat)
        if prefix:
            codec = world.action_codec()
            legal = [a for a in legal if tuple(codec.encode(a)[: len(prefix)]) == prefix]
        world.apply(seat, state_move(bot, world, seat, legal))

    def _teach(self, g: int, state: State, seat: int) -> int | None:
        """The teacher's next id for ``seat`` of game ``g`` when this decision is the teacher's, else None."""
        key = (g, seat)
        pending = self.taught.get(key)
        if pending:  # the rest of a composite move the teacher chose
            return pending.pop(0)
        if self.teacher is None or state.id_prefix(seat) or self.rng.random() >= self.teacher_share:
            return None  # not taught, or the network began this composite move
        teacher = self.teacher_bots.get(key)
        if teacher is None:
            teacher = self.teacher_bots[key] = make_bot(self.game.name, self.teacher, int(self.rng.integers(2**31)))
        ids = list(state.action_ids(bot_move(teacher, state, seat)))
        self.taught[key] = ids[1:]
        return ids[0]

    def start(self, batch: int) -> tuple[list[State], Trajectories]:
        """A batch of new games and their (empty) trajectories, one list of (observation, id) per seat."""
        games = [self.deal() for _ in range(batch)]
        self.slot_bots, self.slot_kinds = [], []
        for _ in range(batch):
            self.slot_bots.append(self.seat_opponents())
            self.slot_kinds.append(self.last_kinds)
        self.teacher_bots, self.taught = {}, {}
        return games, [[[] for _ in range(self.players)] for _ in range(batch)]

    def step(self, games: list[State], trajectories: Trajectories) -> int:
        """One step of every game: every deciding seat chooses one id (one call of ``values`` for all).
        Finished games are scored, their samples appended, and replaced by new deals. Returns games ended."""
        deciders: list[tuple[int, int]] = []
        obs_list: list[npt.NDArray[np.float32]] = []
        masks: list[npt.NDArray[np.bool_]] = []
        bot_moves: list[tuple[int, int, Any]] = []
        for g, state in enumerate(games):
            bots = self.slot_bots[g] if g < len(self.slot_bots) else {}
            for seat in state.to_move():  # every seat's tensor (or bot's move) before any is applied
                if seat in bots:
                    bot_moves.append((g, seat, bot_move(bots[seat], state, seat)))
                    continue
                deciders.append((g, seat))
                obs_list.append(state.observation_tensor(seat).reshape(-1))
                masks.append(state.legal_action_mask(seat))
        chosen_ids: list[int] = []
        taught_now: list[npt.NDArray[np.uint8] | None] = []
        rolled: set[int] = set()  # the deciders whose samples were rollouts
        if deciders:
            mask = np.stack(masks)
            values = self.values(np.stack(obs_list))
            values[~mask] = -np.inf
            chosen = values.argmax(axis=1)
            explore = self.rng.random(len(deciders)) < self.epsilon
            for k, (g, seat) in enumerate(deciders):
                a = int(chosen[k])
                taught = self._teach(g, games[g], seat)
                if taught is not None:
                    a = taught
                if explore[k]:
                    legal = np.flatnonzero(mask[k])
                    a = int(legal[self.rng.integers(len(legal))])
                    self.taught.pop((g, seat), None)
                    taught = None
                chosen_ids.append(a)
                taught_now.append(None if taught is None else np.packbits(mask[k]))
                if self.rollouts > 0 and self.rng.random() < self.rollouts:
                    legal_ids = [int(i) for i in np.flatnonzero(mask[k])]
                    if len(legal_ids) > 1:
                        kinds = self.slot_kinds[g] if g < len(self.slot_kinds) else {}
                        for i, ret in zip(
                            legal_ids, self.rollout_returns(games[g], seat, legal_ids, kinds), strict=True
                        ):
                            self.obs.append(obs_list[k])
                            self.ids.append(i)
                            self.ret.append(ret)
                            self.seats.append(seat)
                            self.taught_masks.append(None)
                        rolled.add(k)
        for g, seat, action in bot_moves:
            games[g].apply(seat, action)
        for k, (g, seat) in enumerate(deciders):
            if k not in rolled:
                trajectories[g][seat].append((obs_list[k], chosen_ids[k], taught_now[k]))
            games[g].apply_id(seat, chosen_ids[k])
        ended = 0
        for g, state in enumerate(games):
            if state.is_over():
                returns = state.returns()
                for seat, steps in enumerate(trajectories[g]):
                    for o, a, t in steps:
                        self.obs.append(o)
                        self.ids.append(a)
                        self.ret.append(returns[seat])
                        self.seats.append(seat)
                        self.taught_masks.append(t)
                games[g] = self.deal()
                if g < len(self.slot_bots):
                    self.slot_bots[g] = self.seat_opponents()
                    self.slot_kinds[g] = self.last_kinds
                for seat in range(self.players):
                    self.teacher_bots.pop((g, seat), None)
                    self.taught.pop((g, seat), None)
                trajectories[g] = [[] for _ in range(self.players)]
                ended += 1
        return ended


# -- actor processes (``courtcards train --actors N``) ------------------------------------------------------


@dataclass
class SharedWeights:
    """The learner's latest weights in shared memory: a flat float32 buffer, a version the learner raises
    at each publication, and a lock held while it is written or copied."""

    buffer: Any  # multiprocessing RawArray('f', size)
    version: Any  # multiprocessing RawValue('q')
    lock: Any  # multiprocessing Lock

    def publish(self, weights: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]) -> None:
        flat = np.concatenate([a.reshape(-1) for wb in weights for a in wb]).astype(np.float32)
        if not self.lock.acquire(timeout=10.0):  # an actor died holding it
            raise CourtcardsError("the actors' weights stayed locked for 10 s (an actor died while reading them?)")
        try:
            np.frombuffer(self.buffer, dtype=np.float32)[:] = flat
            self.version.value += 1
        finally:
            self.lock.release()

    def read(
        self, shapes: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], timeout: float = 1.0
    ) -> tuple[int, list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]] | None:
        """(version, weights) copied out, or None when the lock is not had within ``timeout`` seconds."""
        if not self.lock.acquire(timeout=timeout):
            return None
        try:
            version = int(self.version.value)
            flat = np.frombuffer(self.buffer, dtype=np.float32).copy()
        finally:
            self.lock.release()
        out, at = [], 0
        for ws, bs in shapes:
            nw, nb = int(np.prod(ws)), int(np.prod(bs))
            out.append((flat[at : at + nw].reshape(ws), flat[at + nw : at + nw + nb].reshape(bs)))
            at += nw + nb
        return version, out


def actor_main(index: int, spec: dict[str, Any], weights: SharedWeights, samples: Any, stop: Any) -> None:
    """An actor process: batched self-play (:class:`SelfPlay`) with the NumPy network built from the
    learner's latest weights (re-read whenever their version changes), each finished game's samples sent
    to the learner through the bounded queue ``samples``; it ends when ``stop`` is set or its parent
    process is gone (a killed learner leaves no actor behind). Ctrl-C is the learner's to handle.

    ``spec``: ``game``, ``players``, ``options``, ``seed``, ``epsilon``, ``batch_games``, ``opponents``,
    ``opponent_share``, ``teacher``, ``teacher_share``, ``rollouts``, ``shapes`` (each layer's weight and bias
    shapes) and ``first_deal`` (where this actor's deal counter resumes). Its games come from
    ``actor_key(seed, index)``, its draws from a generator seeded by (seed, index, first_deal)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()

    def parent_alive() -> bool:
        return parent is None or parent.is_alive()

    try:
        _act(index, spec, weights, samples, stop, parent_alive)
    finally:
        if stop.is_set() or not parent_alive():
            # nobody reads any more: exit without flushing what is queued (a message may be cut short). An
            # actor that fails while the learner reads flushes its messages whole, so the learner never
            # waits on half a message, and then sees it ended.
            samples.cancel_join_thread()


def _act(
    index: int, spec: dict[str, Any], weights: SharedWeights, samples: Any, stop: Any, parent_alive: Callable[[], bool]
) -> None:
    got = weights.read(spec["shapes"], timeout=10.0)
    if got is None:
        return
    version, layers = got
    net = Network({}, layers)
    seed = int(spec["seed"])
    play = SelfPlay(
        get_game(spec["game"]),
        int(spec["players"]),
        spec["options"],
        lambda obs: net.forward(obs),
        np.random.default_rng([seed & ((1 << 63) - 1), index, int(spec["first_deal"])]),
        actor_key(seed, index),
        epsilon=float(spec["epsilon"]),
        opponents=spec["opponents"],
        opponent_share=float(spec["opponent_share"]),
        next_deal=int(spec["first_deal"]),
        teacher=spec.get("teacher"),
        teacher_share=float(spec.get("teacher_share", 0.0)),
        rollouts=float(spec.get("rollouts", 0.0)),
    )
    games, trajectories = play.start(int(spec["batch_games"]))
    packed = (play.game.num_distinct_actions(play.players, play.options) + 7) // 8
    ended = 0
    blocked = 0.0  # seconds waiting for room in the queue since the last message
    while not stop.is_set() and parent_alive():
        if weights.version.value != version:
            got = weights.read(spec["shapes"])
            if got is not None:
                version, net.weights = got
        ended += play.step(games, trajectories)
        if not ended:
            continue
        message = {
            "actor": index,
            "pid": os.getpid(),
            "games": ended,
            "next_deal": play.next_deal,
            "version": version,
            "torch": "torch" in sys.modules,
            "blocked": blocked,
            "obs": np.stack(play.obs),
            "ids": np.asarray(play.ids, dtype=np.int64),
            "ret": np.asarray(play.ret, dtype=np.float32),
            # a taught sample's packed legal ids; a row of zeros for one not taught (a legal set is never empty)
            "masks": np.stack([np.zeros(packed, np.uint8) if t is None else t for t in play.taught_masks]),
            "seats": np.asarray(play.seats, dtype=np.int16),
        }
        start = time.perf_counter()
        while not stop.is_set() and parent_alive():
            try:
                samples.put(message, timeout=0.2)
                break
            except queue.Full:
                continue
        blocked = time.perf_counter() - start
        play.obs, play.ids, play.ret, play.seats, play.taught_masks = [], [], [], [], []
        ended = 0
