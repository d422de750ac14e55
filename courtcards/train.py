"""Self-play training (``courtcards train``): Deep Monte-Carlo on the engine's ids, masks and tensors.

The method is DouZero's Deep Monte-Carlo (DMC), with the engine's fixed action ids as the network's
outputs: a multi-layer perceptron maps a seat's observation tensor (``state.observation_tensor(seat)``:
its view and its partial composite choice, nothing else) to one value per action id, the estimated
final return of choosing that id now. Every seat of every self-play game is played by the same network,
epsilon-greedy over the legal ids (the mask); when a game ends, every (observation, id) a seat chose is
a regression sample with that seat's final return as target (a Monte-Carlo return: no bootstrapping,
no value of the next state), and the squared error of the chosen id's value is minimised.

Why DMC and not PPO: the games' returns come only at the end, episodes are short to moderately long,
the action spaces are large and sparse (Rank: 1,679 ids at 4 players, a handful legal), and the
secret simultaneous choices make the game partially observed for every seat. DMC needs no critic, no
advantage estimate and no importance weights: it regresses each seat's own returns, which is exactly
what a seat's view supports, and DouZero showed it works in climbing games much like Rank and King
Queens & Paupers. Its greedy policy is deterministic, which the ``nn`` bot plays.

Simultaneous secret choices: at every step the seats that must decide now (``state.to_move()``,
several for a secret simultaneous choice) are collected with their observation tensors and masks
*before* any of them is applied, so no seat's observation can contain another's pending choice
(the engine's views hide it anyway); a composite choice (several ids) is one id per step.

Batched self-play: ``batch_games`` games are stepped together; each step makes one network call for
every deciding seat of every game. Games are dealt from seeds drawn from the run's seed, and the
exploration draws come from the same generator, so a run is reproducible on one machine (same
arguments, same device, same PyTorch build: same network and metrics). The self-play is
:class:`courtcards.nn.SelfPlay`, torch-free, shared with the actors below.

Actors (``actors=N``, ``--actors N``; DouZero's actor/learner split): N processes (the "spawn" context)
each run :func:`courtcards.nn.actor_main`: ``batch_games`` games of their own stepped by ``SelfPlay``
with the NumPy network built from the learner's latest weights (shared memory, republished every
``publish_every`` learning steps), finished games' samples sent through one bounded queue. This
process then only learns and evaluates. Actor ``i`` deals from (seed, ``i``, its deal counter, which
checkpoints keep), so its games' seeds are reproducible; the network is not bit for bit, since which
weights play which game depends on timing. Stopping (the end, Ctrl-C, SIGTERM) stops the actors before
the last save; an actor whose learner was killed ends by itself.

Outputs in ``--out``: ``checkpoint.pt`` (model, optimizer, generators and counters; ``--resume``
continues from it), ``network.npz`` (the network in the torch-free format of :mod:`courtcards.nn`,
loadable by the ``nn`` bot as ``nn:PATH``), ``metrics.csv`` (one row per evaluation) and
``strength.png`` (win rate against greedy against training time; needs matplotlib). Both files are
written atomically, so a run interrupted by Ctrl-C or a kill leaves the last ones loadable.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import multiprocessing
import os
import queue
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from courtcards.bots.base import Bot, bot_move, default_bot_kind, make_bot
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import Game, get_game
from courtcards.core.ids import ACTION_IDS_VERSION
from courtcards.core.rng import Rng
from courtcards.core.state import State
from courtcards.nn import (
    Network,
    SelfPlay,
    SharedWeights,
    Trajectories,
    actor_main,
    load_network,
    save_network,
    shipped_network,
)

CHECKPOINT = "checkpoint.pt"
NETWORK = "network.npz"
METRICS = "metrics.csv"
PLOT = "strength.png"
METRIC_FIELDS = (
    "seconds",
    "games",
    "samples",
    "updates",
    "loss",
    "eval_games",
    "eval_wins",
    "win_rate",
    "fair_share",
    "opponent",
    "wall_seconds",
    "actors",
    "actor_samples",
    "learner_waited",
    "actors_waited",
)


@dataclass
class TrainConfig:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)  # resolved for the table size
    seed: int = 0
    minutes: float | None = None  # stop after this much training time (evaluations not counted)
    games: int | None = None  # or after this many self-play games
    device: str = "cpu"
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    batch_games: int = 32  # games stepped together
    batch_size: int = 1024  # samples per gradient step
    epsilon: float = 0.1  # exploration: a uniformly random legal id at this share of steps
    eval_games: int = 40  # games against the default bot per evaluation (0: none)
    eval_every: float = 60.0  # seconds of training between evaluations (0: only at the start and the end)
    checkpoint_every: float = 60.0  # seconds of training between checkpoints
    threads: int = 1  # torch's CPU threads
    opponents: tuple[str, ...] = ()  # bot kinds that fill the other seats of some games (none: pure self-play)
    opponent_share: float = 0.5  # the share of games with them
    teacher: str | None = None  # a bot kind whose moves the network's seats play at teacher_share of decisions
    teacher_share: float = 0.0
    rollouts: float = 0.0  # share of the network's decisions whose samples are rollouts of every legal id
    init: str | None = None  # a network file whose weights the network starts from (same table and layers)
    imitation: float = 0.0  # weight of DQfD's large-margin loss on the teacher's ids (0: none)
    margin: float = 0.2  # its margin
    reuse: int = 1  # gradient steps per fresh batch (1: each sample learned once; more: from the replay)
    replay: int = 65536  # with reuse > 1: the last samples kept to draw the extra batches from
    actors: int = 0  # actor processes playing the self-play games (0: self-play in this process)
    publish_every: int = 4  # with actors: learning steps between publications of the weights to them


class Batch(NamedTuple):
    """Samples to learn: observations, chosen ids, returns, and each taught sample's legal ids (a row of
    False where the teacher did not choose)."""

    obs: npt.NDArray[np.float32]
    ids: npt.NDArray[np.int64]
    ret: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]


class QNet(nn.Module):
    """Observation -> one value per action id (ReLU MLP)."""

    def __init__(self, inputs: int, hidden: Sequence[int], outputs: int) -> None:
        super().__init__()
        sizes = [inputs, *hidden, outputs]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x

    def weights(self) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """(W, b) per layer as NumPy arrays, W of shape (inputs, outputs) (courtcards.nn's layout)."""
        out = []
        for layer in self.layers:
            assert isinstance(layer, nn.Linear)
            out.append(
                (
                    layer.weight.detach().cpu().numpy().T.astype(np.float32),
                    layer.bias.detach().cpu().numpy().astype(np.float32),
                )
            )
        return out


def _write_atomic(path: Path, write: Callable[[Any], Any]) -> None:
    """Write through a temporary file in the same folder, renamed over ``path`` when complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt, so a killed run saves its checkpoint as Ctrl-C does."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


class Trainer:
    """One training run: self-play, regression, evaluation, checkpoints."""

    def __init__(self, config: TrainConfig, out: Path, command: str = "") -> None:
        self.config = config
        self.out = out
        self.command = command
        self.game: Game[Any] = get_game(config.game)
        c = config
        c.options = self.game.resolve_options(c.players, c.options)
        if not c.teacher or c.teacher_share <= 0:  # no teacher: nothing taught, nothing to imitate
            c.teacher, c.teacher_share, c.imitation = None, 0.0, 0.0
        self.obs_shape = tuple(self.game.observation_shape(c.players, c.options))
        self.obs_size = int(np.prod(self.obs_shape))
        self.num_actions = self.game.num_distinct_actions(c.players, c.options)
        if c.device.startswith("cuda") and not torch.cuda.is_available():
            raise CourtcardsError("--device cuda: PyTorch finds no CUDA device here")
        self.device = torch.device(c.device)
        torch.manual_seed(c.seed)
        self.net = QNet(self.obs_size, c.hidden, self.num_actions).to(self.device)
        self.init_name: str | None = None  # the network file the weights started from (--init)
        if c.init:
            self._start_from(c.init)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=c.lr)
        self.rng = np.random.default_rng(c.seed)
        self.games_done = 0
        self.samples = 0
        self.updates = 0
        self.seconds = 0.0  # training time (self-play and learning), evaluations excluded
        self.last_loss = float("nan")
        self.wall_start = time.perf_counter()
        self.wall_before = 0.0  # wall time of the runs this one resumes
        self.metrics: list[dict[str, Any]] = []
        # self-play in this process (deals derived from (seed, deal number)); its finished games' samples
        # are the learner's queue: pending_obs/ids/ret/seats are SelfPlay's lists, consumed by learn()
        self.play = SelfPlay(
            self.game,
            c.players,
            c.options,
            self._values,
            self.rng,
            c.seed,
            epsilon=c.epsilon,
            opponents=c.opponents,
            opponent_share=c.opponent_share,
            teacher=c.teacher,
            teacher_share=c.teacher_share,
            rollouts=c.rollouts,
        )
        self.pending_obs = self.play.obs
        self.pending_ids = self.play.ids
        self.pending_ret = self.play.ret
        self.pending_seats = self.play.seats
        self.pending_taught = self.play.taught_masks
        self.replay: tuple[npt.NDArray[Any], ...] = ()  # with reuse > 1: obs, ids, returns, packed legal ids
        self.replay_next = 0
        self.replay_filled = 0
        self.actor_samples = 0  # samples received from actor processes (--actors)
        self.actor_deals: list[int] = []  # per actor: its deal counter, where a resumed actor goes on
        self.actor_pids: list[int] = []  # the actor processes of the last run
        self.actors_imported_torch = False  # whether an actor reported PyTorch imported (it should not)
        self.learner_waited = 0.0  # seconds the learner waited for actors' samples (this run)
        self.actors_waited = 0.0  # seconds the actors waited for room in the queue, all together (this run)

    def _start_from(self, path: str) -> None:
        """The weights of the network file ``path`` (``--init``), which must be made for this table, with
        these layers."""
        c = self.config
        if path == "shipped":  # NetworkError says so when the game ships none for this table
            start = shipped_network(self.game.name, c.players, c.options)
        else:
            start = load_network(path)  # NetworkError names a missing or corrupt file
            start.check_fits(self.game, c.players, c.options)
        self.init_name = Path(start.path).name if start.path else path
        widths = [w.shape[1] for w, _ in start.weights[:-1]]
        if widths != list(c.hidden):
            raise CourtcardsError(f"--init: {path} has hidden layers {widths}, this run {list(c.hidden)}")
        with torch.no_grad():
            for layer, (w, b) in zip(self.net.layers, start.weights, strict=True):
                assert isinstance(layer, nn.Linear)
                layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32)))
                layer.bias.copy_(torch.from_numpy(np.asarray(b, dtype=np.float32)))

    # -- checkpoints ----------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        c = self.config
        return {
            "game": self.game.name,
            "players": c.players,
            "options": json.loads(json.dumps(c.options)),
            "action_ids_version": ACTION_IDS_VERSION,
            "observation_shape": list(self.obs_shape),
            "num_actions": self.num_actions,
            "trainer": "dmc",
            "seed": c.seed,
            "hidden": list(c.hidden),
            "opponents": list(c.opponents),
            "opponent_share": c.opponent_share if c.opponents else 0.0,
            "teacher": c.teacher,
            "teacher_share": c.teacher_share,
            "rollouts": c.rollouts,
            "init": self.init_name,
            "imitation": c.imitation,
            "margin": c.margin if c.imitation else 0.0,
            "reuse": c.reuse,
            "actors": c.actors,
            "games": self.games_done,
            "seconds": round(self.seconds, 1),
            "wall_seconds": round(self.wall_before + time.perf_counter() - self.wall_start, 1),
            "command": self.command,
        }

    def save(self) -> None:
        """Checkpoint and network file, each written atomically, the checkpoint first: a network file
        found on disk always has a checkpoint at least as far along beside it."""
        self.out.mkdir(parents=True, exist_ok=True)
        meta = self.meta()
        state = {
            "config": asdict(self.config),
            "model": self.net.state_dict(),
            "optimizer": self.opt.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "counters": {
                "games": self.games_done,
                "samples": self.samples,
                "updates": self.updates,
                "seconds": self.seconds,
                "next_deal": self.next_deal,
                "actor_samples": self.actor_samples,
                "actor_deals": list(self.actor_deals),
            },
            "metrics": self.metrics,
            "meta": meta,
        }
        _write_atomic(self.out / CHECKPOINT, lambda f: torch.save(state, f))
        save_network(self.out / NETWORK, meta, self.net.weights())

    def resume(self) -> None:
        path = self.out / CHECKPOINT
        if not path.exists():
            raise CourtcardsError(f"--resume: no checkpoint at {path}")
        try:
            state = torch.load(path, map_location=self.device, weights_only=False)
        except Exception as exc:
            raise CourtcardsError(f"--resume: {path} is not a readable checkpoint: {exc}") from None
        saved = state["meta"]
        here = self.meta()
        for key in ("game", "players", "options", "observation_shape", "num_actions", "hidden"):
            if saved.get(key) != here[key]:
                raise CourtcardsError(
                    f"--resume: the checkpoint in {self.out} was trained with {key} {saved.get(key)!r}, "
                    f"this run has {here[key]!r}"
                )
        self.net.load_state_dict(state["model"])
        self.opt.load_state_dict(state["optimizer"])
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])
        k = state["counters"]
        self.games_done, self.samples, self.updates = k["games"], k["samples"], k["updates"]
        self.seconds, self.next_deal = k["seconds"], k["next_deal"]
        self.actor_samples, self.actor_deals = int(k.get("actor_samples", 0)), list(k.get("actor_deals", []))
        self.wall_before = float(saved.get("wall_seconds", 0.0))
        self.metrics = list(state["metrics"])

    # -- self-play --------------------------------------------------------------------------------------
    # The self-play itself is courtcards.nn.SelfPlay, shared with the actor processes (--actors).
    @property
    def next_deal(self) -> int:
        return self.play.next_deal

    @next_deal.setter
    def next_deal(self, value: int) -> None:
        self.play.next_deal = value

    @property
    def slot_bots(self) -> list[dict[int, Bot]]:
        return self.play.slot_bots

    def _deal(self) -> State:
        return self.play.deal()

    @torch.no_grad()
    def _values(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = torch.from_numpy(obs).to(self.device)
        return self.net(x).float().cpu().numpy()  # type: ignore[no-any-return]

    def selfplay_step(self, games: list[State], trajectories: Trajectories) -> int:
        """One step of every game in this process (:meth:`courtcards.nn.SelfPlay.step`, one network call for
        every deciding seat); finished games' samples are queued for :meth:`learn`. Returns games ended."""
        return self.play.step(games, trajectories)

    def learn(self) -> None:
        """Gradient steps on the queued samples, each learned once as DMC's learner does; with ``reuse``
        K > 1, each fresh step is followed by K - 1 steps on batches drawn from the last ``replay`` samples."""
        bs = self.config.batch_size
        c = self.config
        while len(self.pending_ids) >= bs:
            batch = Batch(
                np.stack(self.pending_obs[:bs]),
                np.asarray(self.pending_ids[:bs], dtype=np.int64),
                np.asarray(self.pending_ret[:bs], dtype=np.float32),
                self._masks(self.pending_taught[:bs]),
            )
            del self.pending_obs[:bs], self.pending_ids[:bs], self.pending_ret[:bs], self.pending_seats[:bs]
            del self.pending_taught[:bs]
            self._gradient_step(batch)
            self.samples += bs
            if c.reuse > 1:
                self._remember(batch)
                for _ in range(c.reuse - 1):
                    pick = self.rng.integers(self.replay_filled, size=bs)
                    obs, ids, ret, packed = (column[pick] for column in self.replay)
                    legal = np.unpackbits(packed, axis=1, count=self.num_actions).astype(np.bool_)
                    self._gradient_step(Batch(obs, ids, ret, legal))

    def _masks(self, packed: Sequence[npt.NDArray[np.uint8] | None]) -> npt.NDArray[np.bool_]:
        """The legal ids of each taught sample as a bool matrix; a row of False for a sample not taught."""
        out = np.zeros((len(packed), self.num_actions), np.bool_)
        for k, row in enumerate(packed):
            if row is not None:
                out[k] = np.unpackbits(row, count=self.num_actions).astype(np.bool_)
        return out

    def _remember(self, batch: Batch) -> None:
        """Keep a learned batch in the replay ring (``replay`` samples, legal ids packed 8 to a byte; not
        checkpointed)."""
        size = max(self.config.replay, len(batch.ids))
        if not self.replay:
            self.replay = (
                np.zeros((size, self.obs_size), np.float32),
                np.zeros(size, np.int64),
                np.zeros(size, np.float32),
                np.zeros((size, (self.num_actions + 7) // 8), np.uint8),
            )
        at = (self.replay_next + np.arange(len(batch.ids))) % size
        kept = (batch.obs, batch.ids, batch.ret, np.packbits(batch.legal, axis=1))
        for buf, new in zip(self.replay, kept, strict=True):
            buf[at] = new
        self.replay_next = int((self.replay_next + len(batch.ids)) % size)
        self.replay_filled = min(size, self.replay_filled + len(batch.ids))

    def _gradient_step(self, batch: Batch) -> None:
        c = self.config
        obs = torch.from_numpy(batch.obs).to(self.device)
        ids = torch.from_numpy(batch.ids).to(self.device)
        ret = torch.from_numpy(batch.ret).to(self.device)
        values = self.net(obs)
        q = values.gather(1, ids[:, None]).squeeze(1)
        loss = torch.mean((q - ret) ** 2)
        rows_np = batch.legal.any(axis=1)  # the samples whose id the teacher chose (their legal ids are True)
        if c.imitation > 0 and bool(rows_np.any()):
            # DQfD's large-margin loss: the teacher's id is worth `margin` more than any other legal id
            rows = torch.from_numpy(rows_np).to(self.device)
            legal = torch.from_numpy(batch.legal[rows_np]).to(self.device)
            margins = torch.full_like(legal, c.margin, dtype=values.dtype).scatter_(1, ids[rows][:, None], 0.0)
            best = (values[rows] + margins).masked_fill(~legal, -torch.inf)
            loss = loss + c.imitation * (best.max(dim=1).values - q[rows]).mean()
        self.opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        nn.utils.clip_grad_norm_(self.net.parameters(), 40.0)
        self.opt.step()
        self.updates += 1
        self.last_loss = float(loss.item())

    # -- evaluation -------------------------------------------------------------------------------------
    def evaluate(self) -> dict[str, Any]:
        """The greedy policy in one seat (rotating) against the game's default bot in the others, on the
        same deals at every evaluation (seeds from the run's seed), driven through seat views."""
        c = self.config
        opponent = default_bot_kind(self.game.name)
        policy = _TorchPolicy(self)
        wins = 0
        for i in range(c.eval_games):
            seed = Rng((c.seed ^ 0x5EED) * 7919 + i).next64()
            state = self.game.new_game(c.players, c.options, seed=seed)
            me = i % c.players
            bots: dict[int, Bot] = {s: make_bot(self.game.name, opponent, seed + s) for s in range(c.players)}
            steps = 0
            while not state.is_over():
                for seat in state.to_move():
                    if seat == me:
                        while seat in state.to_move() and state.apply_id(seat, policy.choose(state, seat)) is None:
                            pass
                    else:
                        state.apply(seat, bot_move(bots[seat], state, seat))
                    steps += 1
                    if state.is_over():
                        break
                if steps > 1_000_000:
                    raise CourtcardsError("evaluation game did not end")
            result = state.result()
            if result is not None and result.winner == me:
                wins += 1
        row = {
            "seconds": round(self.seconds, 1),
            "games": self.games_done,
            "samples": self.samples,
            "updates": self.updates,
            "loss": round(self.last_loss, 5) if self.last_loss == self.last_loss else "",
            "eval_games": c.eval_games,
            "eval_wins": wins,
            "win_rate": round(wins / c.eval_games, 4) if c.eval_games else "",
            "fair_share": round(1 / c.players, 4),
            "opponent": opponent,
            "wall_seconds": round(self.wall_before + time.perf_counter() - self.wall_start, 1),
            "actors": c.actors,
            "actor_samples": self.actor_samples,
            "learner_waited": round(self.learner_waited, 1),
            "actors_waited": round(self.actors_waited, 1),
        }
        self.metrics.append(row)
        return row

    def write_metrics(self) -> None:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=METRIC_FIELDS)
        w.writeheader()
        w.writerows(self.metrics)
        data = buf.getvalue().encode()
        _write_atomic(self.out / METRICS, lambda f: f.write(data))
        plot_metrics(self.metrics, self.out / PLOT, f"{self.game.title}, {self.config.players} players")

    # -- the run ---------------------------------------------------------------------------------------
    def run(self, on_progress: Callable[[Trainer, dict[str, Any] | None], None] | None = None) -> None:
        c = self.config
        torch.set_num_threads(max(1, c.threads))
        games, trajectories = self.play.start(c.batch_games) if not c.actors else ([], [])
        actors: _Actors | None = None
        last_eval = self.seconds if self.metrics else -1e18
        last_ckpt = self.seconds

        def finished() -> bool:
            if c.games is not None and self.games_done >= c.games:
                return True
            return c.minutes is not None and self.seconds >= c.minutes * 60

        with _term_as_interrupt():
            try:
                if c.actors:
                    actors = _Actors(self)
                while not finished():
                    due = self.seconds - last_eval >= c.eval_every if c.eval_every > 0 else last_eval < -1e17
                    if c.eval_games and due:
                        row = self.evaluate()
                        last_eval = self.seconds
                        self.write_metrics()
                        if on_progress:
                            on_progress(self, row)
                    start = time.perf_counter()
                    if actors is None:
                        ended = self.selfplay_step(games, trajectories)
                        self.learn()
                    else:
                        waiting = time.perf_counter()
                        messages = actors.receive(timeout=0.1)
                        self.learner_waited += time.perf_counter() - waiting
                        ended = self.take_samples(messages)
                        self.learn()
                        if self.updates - actors.published >= c.publish_every:
                            actors.publish(self.net.weights(), self.updates)
                    self.seconds += time.perf_counter() - start
                    if ended:
                        self.games_done += ended
                        if on_progress:
                            on_progress(self, None)
                    if self.seconds - last_ckpt >= c.checkpoint_every:
                        self.save()
                        last_ckpt = self.seconds
                if c.eval_games:
                    row = self.evaluate()
                    if on_progress:
                        on_progress(self, row)
            finally:
                if actors is not None:
                    actors.stop()
                self.save()
                if self.metrics:
                    self.write_metrics()

    def take_samples(self, messages: Sequence[Mapping[str, Any]]) -> int:
        """Queue the samples of the actors' messages for :meth:`learn`; returns the games they finished."""
        ended = 0
        for m in messages:
            self.pending_obs.extend(m["obs"])
            self.pending_ids.extend(m["ids"].tolist())
            self.pending_ret.extend(m["ret"].tolist())
            self.pending_seats.extend(m["seats"].tolist())
            self.pending_taught.extend(mask if mask.any() else None for mask in m["masks"])
            self.actor_samples += len(m["ids"])
            i = int(m["actor"])
            self.actor_deals += [0] * (i + 1 - len(self.actor_deals))
            self.actor_deals[i] = int(m["next_deal"])
            self.actors_imported_torch |= bool(m["torch"])
            self.actors_waited += float(m["blocked"])
            ended += int(m["games"])
        return ended


_BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


class _Actors:
    """The actor processes of a run (``--actors N``, the "spawn" context: a fresh interpreter each, no
    PyTorch): each plays ``batch_games`` self-play games with the NumPy network (courtcards.nn.actor_main)
    and sends finished games' samples through one bounded queue; the learner publishes its weights to
    shared memory every ``publish_every`` learning steps. ``stop`` ends them all (terminated, then killed,
    if they do not end in 5 s); an actor whose learner is killed ends by itself."""

    def __init__(self, trainer: Trainer) -> None:
        c = trainer.config
        ctx = multiprocessing.get_context("spawn")
        layers = trainer.net.weights()
        size = sum(w.size + b.size for w, b in layers)
        self.weights = SharedWeights(ctx.RawArray("f", size), ctx.RawValue("q", 0), ctx.Lock())
        self.weights.publish(layers)
        self.published = trainer.updates
        self.samples = ctx.Queue(maxsize=4 * c.actors)
        self.stopping = ctx.Event()
        spec = {
            "game": trainer.game.name,
            "players": c.players,
            "options": c.options,
            "seed": c.seed,
            "epsilon": c.epsilon,
            "batch_games": c.batch_games,
            "opponents": list(c.opponents),
            "opponent_share": c.opponent_share,
            "teacher": c.teacher,
            "teacher_share": c.teacher_share,
            "rollouts": c.rollouts,
            "shapes": [(w.shape, b.shape) for w, b in layers],
        }
        self.procs: list[Any] = []
        # one core an actor: their NumPy (BLAS) runs one thread unless the environment says otherwise
        saved = {k: os.environ.get(k) for k in _BLAS_THREADS}
        try:
            for k in _BLAS_THREADS:
                os.environ.setdefault(k, "1")
            for i in range(c.actors):
                first = trainer.actor_deals[i] if i < len(trainer.actor_deals) else 0
                args = (i, spec | {"first_deal": first}, self.weights, self.samples, self.stopping)
                proc = ctx.Process(target=actor_main, args=args, name=f"courtcards-actor-{i}", daemon=True)
                proc.start()
                self.procs.append(proc)
        except BaseException:
            self.stop()
            raise
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        trainer.actor_pids = [p.pid for p in self.procs]

    def publish(self, layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]], updates: int) -> None:
        self.weights.publish(layers)
        self.published = updates

    def receive(self, timeout: float) -> list[dict[str, Any]]:
        """The messages waiting (at most one per actor and queue slot), waiting up to ``timeout`` s for one."""
        out: list[dict[str, Any]] = []
        try:
            out.append(self.samples.get(timeout=timeout))
            while len(out) < 4 * len(self.procs):
                out.append(self.samples.get_nowait())
        except queue.Empty:
            pass
        for i, proc in enumerate(self.procs):
            if proc.exitcode is not None:
                raise CourtcardsError(f"actor {i} (process {proc.pid}) ended with exit code {proc.exitcode}")
        return out

    def stop(self) -> None:
        """Ask the actors to end (they look at each step, and every 0.2 s while the queue is full, and exit
        without flushing their queued messages, which are not read any more: reading them could block on
        a message an exiting actor cut short); terminate, then kill, those still there after 5 s."""
        self.stopping.set()
        deadline = time.monotonic() + 5.0
        for p in self.procs:
            p.join(max(0.0, deadline - time.monotonic()))
        for p in self.procs:
            if p.is_alive():
                p.terminate()
                p.join(2.0)
            if p.is_alive():
                p.kill()
                p.join()
        self.samples.close()
        self.samples.cancel_join_thread()


class _TorchPolicy:
    """The trainer's greedy policy over a state, from the seat's observation tensor (its view)."""

    def __init__(self, trainer: Trainer) -> None:
        self.trainer = trainer

    def choose(self, state: State, seat: int) -> int:
        obs = state.observation_tensor(seat).reshape(1, -1)
        mask = state.legal_action_mask(seat)
        values = self.trainer._values(obs)[0]
        values[~mask] = -np.inf
        return int(values.argmax())


def plot_metrics(rows: Sequence[Mapping[str, Any]], path: Path, title: str) -> bool:
    """Win rate (with a 95% Wilson interval) against training time; False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError:
        return False
    from courtcards.analysis.stats import wilson

    rows = [r for r in rows if r.get("eval_games")]
    if not rows:
        return False
    xs = [float(r["seconds"]) / 60 for r in rows]
    rates = [float(r["win_rate"]) for r in rows]
    bounds = [wilson(int(r["eval_wins"]), int(r["eval_games"])) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(xs, rates, marker="o", label=f"nn vs {rows[-1]['opponent']}")
    ax.fill_between(xs, [b[0] for b in bounds], [b[1] for b in bounds], alpha=0.2, label="95% interval")
    ax.axhline(float(rows[-1]["fair_share"]), color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    data = buf.getvalue()
    _write_atomic(path, lambda f: f.write(data))
    return True


def network_of(trainer: Trainer) -> Network:
    """The trainer's current network as the torch-free :class:`courtcards.nn.Network` (float32)."""
    return Network(trainer.meta() | {"format": 1, "layers": len(trainer.config.hidden) + 1}, trainer.net.weights())


def main_command() -> str:
    return " ".join(["courtcards", *sys.argv[1:]])
