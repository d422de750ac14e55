"""Running the games of an analysis: option grids, seeded batches, local processes or Ray.

Game ``i`` of a run is :func:`courtcards.sim.play_game` number ``i`` (seats
rotated, seeds derived from the run's seed and ``i``), so the facts of a run
depend only on its arguments: not on the batch size, the number of workers, or
whether Ray ran them. Every combination of a sweep uses the same seed, so the
combinations are compared on the same deals where the options allow it.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from courtcards.analysis.observe import GameFacts, observe_live
from courtcards.bots.base import check_bot_table
from courtcards.core.errors import CourtcardsError, OptionError
from courtcards.core.game import get_game
from courtcards.sim import check_bots, play_game, play_steps, run_chunks

PLAYERS = "players"  # a sweep over the table size uses this pseudo-option


@dataclass(frozen=True)
class RunSpec:
    """One configuration to analyse: the game, the bot kind per seat, the options as given."""

    game: str
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    preset: str | None = None
    sweep: dict[str, str] = field(default_factory=dict)  # the swept values of this combination, as given

    @property
    def num_players(self) -> int:
        return len(self.bots)

    def resolved_options(self) -> dict[str, Any]:
        return dict(get_game(self.game).resolve_options(self.num_players, self.options, self.preset))


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``"tokens_to_win=3,5,7"`` to ``("tokens_to_win", ["3", "5", "7"])``; ``;`` also separates values."""
    if "=" not in text:
        raise OptionError(f"sweep {text!r} must be written NAME=V1,V2,...")
    name, values = text.split("=", 1)
    sep = ";" if ";" in values else ","
    vals = [v.strip() for v in values.split(sep) if v.strip()]
    if not name.strip() or not vals:
        raise OptionError(f"sweep {text!r} must be written NAME=V1,V2,... with at least one value")
    return name.strip().replace("-", "_"), vals


def build_specs(
    game: str,
    bots: Sequence[str],
    num_players: int | None,
    options: Mapping[str, Any],
    preset: str | None,
    sweeps: Sequence[str],
) -> list[RunSpec]:
    """Every combination of the sweeps, each checked (unknown names or values raise OptionError)."""
    g = get_game(game)
    grid: list[tuple[str, list[str]]] = []
    for text in sweeps:
        name, values = parse_sweep(text)
        if any(name == n for n, _ in grid):
            raise OptionError(f"option {name!r} is swept twice")
        if name != PLAYERS:
            g.options.get(name)  # an unknown name lists the valid ones
        grid.append((name, values))
    specs = []
    for combo in itertools.product(*(values for _, values in grid)):
        chosen = dict(zip((n for n, _ in grid), combo, strict=True))
        n = num_players
        if PLAYERS in chosen:
            try:
                n = int(chosen[PLAYERS])
            except ValueError:
                raise OptionError(f"players must be a whole number, not {chosen[PLAYERS]!r}") from None
        name, kinds = check_bots(g.name, bots, n)
        opts = dict(options)
        opts.update({k: v for k, v in chosen.items() if k != PLAYERS})
        spec = RunSpec(name, kinds, opts, preset, chosen)
        spec.resolved_options()  # fail before any game is played
        specs.append(spec)
    return specs


COMPARED = "run"  # a comparison's runs are labelled under this name, as a sweep's under the options swept


def parse_compare(text: str) -> tuple[str | None, dict[str, str]]:
    """``GAME``, ``GAME:NAME=V;NAME=V`` or ``NAME=V;NAME=V`` (``;`` or spaces between pairs) to the game
    (None: the same game) and the options."""
    head, colon, rest = text.partition(":")
    if colon and "=" not in head:
        game, pairs = head.strip(), rest
    elif "=" not in text:
        game, pairs = text.strip(), ""
    else:
        game, pairs = None, text
    options: dict[str, str] = {}
    for pair in re.split(r"[;\s]+", pairs.strip()):
        if not pair:
            continue
        name, eq, value = pair.partition("=")
        if not eq or not name or not value:
            raise OptionError(f"--compare {text!r} must be GAME, NAME=VALUE;NAME=VALUE or GAME:NAME=VALUE;...")
        options[name.replace("-", "_")] = value
    if game is not None and not game:
        raise OptionError(f"--compare {text!r} names no game")
    return game, options


def _describe(game: str, options: Mapping[str, Any]) -> str:
    return " ".join([game, *(f"{k}={v}" for k, v in options.items())])


def compare_specs(base: RunSpec, texts: Sequence[str]) -> list[RunSpec]:
    """The baseline (``base``) and each configuration to compare with it: another game (a plug-in variant)
    with the same bots and players, and the baseline's options with those given added."""
    given = dict(base.options)
    specs = [dataclasses.replace(base, sweep={COMPARED: _describe(base.game, given)})]
    for text in texts:
        game, extra = parse_compare(text)
        n = base.num_players
        if PLAYERS in extra:  # the table size, as a sweep has it
            try:
                n = int(extra.pop(PLAYERS))
            except ValueError:
                raise OptionError(f"players must be a whole number in --compare {text!r}") from None
        kinds_given = base.bots if n == base.num_players or len(set(base.bots)) > 1 else base.bots[:1]
        name, kinds = check_bots(game or base.game, kinds_given, n)
        opts = {**given, **extra}
        shown = {**opts, **({PLAYERS: n} if n != base.num_players else {})}
        spec = RunSpec(name, kinds, opts, base.preset, {COMPARED: _describe(name, shown)})
        spec.resolved_options()  # fail before any game is played
        specs.append(spec)
    labels = [s.sweep[COMPARED] for s in specs]
    if len(set(labels)) < len(labels):
        raise OptionError(f"--compare repeats a configuration: {', '.join(labels)}")
    return specs


def with_bots(spec: RunSpec, bots: Sequence[str]) -> RunSpec:
    """The same configuration with other bots (``--check-bots``)."""
    _, kinds = check_bots(spec.game, bots, spec.num_players)
    return dataclasses.replace(spec, bots=kinds)


# -- batches -------------------------------------------------------------------------------------
_Batch = tuple[str, tuple[str, ...], int, int, int, dict[str, Any], str | None]


def analyze_batch(batch: _Batch) -> list[GameFacts]:
    """Play games ``start..stop`` of a run and observe each (runs in a worker process or Ray task)."""
    game, bots, start, stop, seed, options, preset = batch
    out = []
    for i in range(start, stop):
        # observed while it is played: the game is not replayed, and its views are not kept
        out.append(observe_live(*play_steps(game, bots, i, seed, options or None, preset))[1])
    return out


def luck_batch(batch: _Batch) -> list[list[int | None]]:
    """Deals ``start..stop`` of a run, each replayed with the bots rotated through every seat: the
    winning seat of each replay (None: a draw)."""
    game, bots, start, stop, seed, options, preset = batch
    out = []
    for i in range(start, stop):
        winners = []
        for r in range(len(bots)):
            state, _ = play_game(game, bots, i, seed, options or None, preset, rotation=r)
            res = state.result()
            winners.append(None if res is None else res.winner)
        out.append(winners)
    return out


def run_luck(spec: RunSpec, deals: int, seed: int, workers: int | None = None) -> list[list[int | None]]:
    """The winning seats of ``deals`` deals of ``spec``, each replayed with the bots in every rotation."""
    out: list[list[int | None]] = []
    for part in run_chunks(luck_batch, batches(spec, deals, seed, 5), workers or os.cpu_count() or 1):
        out.extend(part)
    return out


def skill_batch(batch: _Batch) -> list[int | None]:
    """Games ``start..stop`` of a rung of the skill ladder: the first bot of the table (the stronger) holds
    one seat, which moves with the game's index; each game's winner as 1 (the stronger bot), 0 (another
    seat) or None (a draw)."""
    game, bots, start, stop, seed, options, preset = batch
    out: list[int | None] = []
    for i in range(start, stop):
        state, kinds = play_game(game, bots, i, seed, options or None, preset)
        res = state.result()
        out.append(None if res is None or res.winner is None else int(kinds[res.winner] == bots[0]))
    return out


def skill_rungs(spec: RunSpec, bots: Sequence[str]) -> list[tuple[str, str]]:
    """The ladder's steps, (stronger, weaker), from bots listed weakest first; each bot checked for the table."""
    g = get_game(spec.game)
    kinds = list(dict.fromkeys(b.strip() for b in bots if b.strip()))
    if len(kinds) < 2:
        raise OptionError("a skill ladder needs at least two bots, weakest first (for example random,greedy)")
    for kind in kinds:
        check_bot_table(g.name, kind, spec.num_players, spec.resolved_options())
    return [(kinds[i + 1], kinds[i]) for i in range(len(kinds) - 1)]


def run_skill(
    spec: RunSpec,
    rung: tuple[str, str],
    games: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[int | None]:
    """``games`` games of ``spec``'s deals with one ``rung[0]`` among ``rung[1]``s (:func:`skill_batch`)."""
    strong, weak = rung
    table = dataclasses.replace(spec, bots=(strong, *([weak] * (spec.num_players - 1))))
    out: list[int | None] = []
    for part in run_chunks(skill_batch, batches(table, games, seed, 10), workers or os.cpu_count() or 1):
        out.extend(part)
        if progress is not None:
            progress(len(part))
    return out


def batches(spec: RunSpec, games: int, seed: int, size: int) -> list[_Batch]:
    return [
        (spec.game, spec.bots, start, min(start + size, games), seed, dict(spec.options), spec.preset)
        for start in range(0, games, size)
    ]


def run_facts(
    spec: RunSpec,
    games: int,
    seed: int,
    workers: int | None = None,
    ray: str | None = None,
    batch_size: int = 20,
    progress: Callable[[int], None] | None = None,
) -> list[GameFacts]:
    """The facts of ``games`` games of ``spec``, in game order, the same whoever plays them."""
    jobs = batches(spec, games, seed, batch_size)
    runner = (
        run_on_ray(jobs, ray) if ray is not None else run_chunks(analyze_batch, jobs, workers or os.cpu_count() or 1)
    )
    out: list[GameFacts] = []
    for facts in runner:
        out.extend(facts)
        if progress is not None:
            progress(len(facts))
    return out


# -- Ray -------------------------------------------------------------------------------------------
LOCAL = "local"


def _check_reachable(address: str) -> None:
    """A quick TCP probe of ``host:port`` so a wrong address fails in seconds, not Ray's minute of retries."""
    target = address.removeprefix("ray://")
    if address in ("auto", LOCAL) or ":" not in target:
        return
    host, _, port = target.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=3):
            pass
    except (OSError, ValueError) as exc:
        raise CourtcardsError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


def init_ray(address: str, num_cpus: int | None = None) -> Any:
    """Start a local Ray runtime (``local``) or connect to the cluster at ``address``; returns the module."""
    _check_reachable(address)
    if address == LOCAL:
        # read when Ray is imported: a one-machine runtime whose servers listen on loopback only
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError:
        raise CourtcardsError("--ray needs Ray: pip install 'courtcards[scale]'") from None
    if ray.is_initialized():
        return ray
    try:
        if address == LOCAL:
            ray.init(
                address="local",
                num_cpus=num_cpus or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:  # Ray raises many kinds (ConnectionError, RuntimeError, ValueError, ...)
        raise CourtcardsError(f"cannot start or reach Ray at {address!r}: {str(exc).splitlines()[0]}") from None
    return ray


def run_on_ray(jobs: Sequence[_Batch], address: str) -> Iterator[list[GameFacts]]:
    """Each batch as a Ray task; results come back in batch order."""
    ray = init_ray(address)
    task = ray.remote(analyze_batch)
    refs = [task.remote(job) for job in jobs]
    for ref in refs:
        yield ray.get(ref)
