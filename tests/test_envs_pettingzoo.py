"""PettingZoo AEC and Parallel envs: PettingZoo's own tests on every game, returns, errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from envs_configs import CONFIGS, config_id, needs_engine
from gymnasium import spaces
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from courtcards.core.errors import ActionIdError, OptionError, UnknownGameError
from courtcards.envs.pettingzoo import env, parallel_env
from courtcards.envs.table import EnvError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_and_seed_tests(config: tuple[str, int, dict[str, Any]]) -> None:
    game, n, options = config
    needs_engine(game)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game, num_players=n, options=options), num_cycles=300)
        seed_test(lambda: env(game, num_players=n, options=options), num_cycles=300)
        parallel_api_test(parallel_env(game, num_players=n, options=options), num_cycles=300)
    assert parallel_run(parallel_env(game, num_players=n, options=options), 42) == parallel_run(
        parallel_env(game, num_players=n, options=options), 42
    )


def parallel_run(p: Any, seed: int) -> list[Any]:
    """PettingZoo's parallel_seed_test with masked sampling: every step's actions and results."""
    obs, _ = p.reset(seed=seed)
    for i, agent in enumerate(p.agents):
        p.action_space(agent).seed(seed + i)
    trace: list[Any] = []
    while p.agents:
        acts = {a: p.action_space(a).sample(obs[a]["action_mask"]) for a in p.agents}
        obs, rew, term, trunc, _ = p.step(acts)
        trace.append(
            (
                acts,
                {a: (o["observation"].tobytes(), o["action_mask"].tobytes()) for a, o in obs.items()},
                rew,
                term,
                trunc,
            )
        )
    return trace


def test_pettingzoos_parallel_seed_test_gets_an_error_not_a_substitute() -> None:
    # parallel_seed_test samples actions without the masks: the env refuses the first masked-out one
    with pytest.raises(ActionIdError, match="not legal now"):
        parallel_seed_test(lambda: parallel_env("royals", num_players=3), num_cycles=50)


def play_aec(e: Any, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_whole_game_pays_the_returns_at_the_end(config: tuple[str, int, dict[str, Any]]) -> None:
    game, n, options = config
    needs_engine(game)
    e = env(game, num_players=n, options=options)
    totals = play_aec(e, seed=3)
    state = e.table.state
    assert state.is_over()
    assert totals == dict(zip(e.possible_agents, state.returns(), strict=True))
    assert abs(sum(totals.values())) < 1e-9


def test_simultaneous_decisions_are_one_parallel_step() -> None:
    p = parallel_env("royale")
    obs, _ = p.reset(seed=1)
    assert all(o["action_mask"].any() for o in obs.values())  # both choose a card at once
    acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    before = p.table.state.version
    p.step(acts)
    assert p.table.state.version == before + 2  # both commitments, resolved together


def test_turn_based_steps_in_the_parallel_env_ignore_agents_without_a_decision() -> None:
    p = parallel_env("rank", num_players=3, options={"tokens_to_win": 1})
    obs, _ = p.reset(seed=2)
    movers = [a for a, o in obs.items() if o["action_mask"].any()]
    assert len(movers) == 1
    acts: dict[str, Any] = dict.fromkeys(p.agents, 0)  # what the others send is ignored
    acts[movers[0]] = int(np.flatnonzero(obs[movers[0]]["action_mask"])[0])
    p.step(acts)
    with pytest.raises(EnvError, match="must act now"):
        p.step({})


def test_illegal_actions_raise_and_change_nothing() -> None:
    e = env("rank", num_players=4, options={"tokens_to_win": 1})
    e.reset(seed=5)
    obs = e.observe(e.agent_selection)
    state = e.table.state
    before = state.to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ActionIdError, match="not legal now"):
        e.step(illegal)
    with pytest.raises(ActionIdError, match="out of range"):
        e.step(int(e.action_space(e.agent_selection).n))  # type: ignore[attr-defined]
    with pytest.raises(ActionIdError, match="integer"):
        e.step("pass")
    with pytest.raises(EnvError, match="must choose an action id"):
        e.step(None)
    assert state.to_json() == before
    p = parallel_env("royale")
    pobs, _ = p.reset(seed=1)
    good = int(np.flatnonzero(pobs["player_0"]["action_mask"])[0])
    bad = int(np.flatnonzero(pobs["player_1"]["action_mask"] == 0)[0])
    before = p.table.state.to_json()
    with pytest.raises(ActionIdError):
        p.step({"player_0": good, "player_1": bad})
    assert p.table.state.to_json() == before  # the legal half was not applied either


def test_finished_env_and_bad_construction_are_refused() -> None:
    e = env("royale", options={"max_rounds": 3})
    play_aec(e, seed=0)
    assert e.agents == []
    with pytest.raises(EnvError, match="call reset"):
        e.step(0)
    with pytest.raises(EnvError, match="call reset"):
        env("royale").observe("player_0")
    with pytest.raises(UnknownGameError, match="known games"):
        env("poker")
    with pytest.raises(OptionError, match="3 to 12 players"):
        env("rank", num_players=2)
    with pytest.raises(OptionError, match="tokens"):
        env("rank", options={"tokens": 3})
    with pytest.raises(ValueError, match="render_mode"):
        env("rank", render_mode="rgb_array")


def test_ansi_render_is_the_terminal_board() -> None:
    e = env("royals", num_players=3, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str) and "Royals" in text and "Seat 2" in text
    assert env("royals", num_players=3).render() is None


def test_classic_president_give_backs_are_one_parallel_step() -> None:
    p = parallel_env("rank", num_players=4, options={"classic_president": True, "endless": True, "hands": 2})
    obs, _ = p.reset(seed=0)
    rng = np.random.default_rng(0)
    most = 0
    while p.agents:
        deciding = [a for a in p.agents if obs[a]["action_mask"].any()]
        most = max(most, len(deciding))
        obs, *_ = p.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in deciding})
    assert most == 2  # the King's and the Queen's give-backs, id by id, at the same steps


class _MaskedDiscrete(spaces.Discrete):
    """An agent's action space whose ``sample()`` without a mask draws a legal id (for PettingZoo's
    tests that sample without the masks: the envs refuse masked-out ids)."""

    def __init__(self, n: int, mask: Callable[[], npt.NDArray[np.int8]]) -> None:
        super().__init__(n)
        self._mask = mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        return super().sample(
            mask=self._mask() if mask is None and probability is None else mask, probability=probability
        )


def _masked(e: Any) -> Any:
    def action_space(agent: str) -> spaces.Discrete:
        seat = e.agent_seat[agent]
        return _MaskedDiscrete(e.table.num_actions, lambda: e.table.observe(seat)["action_mask"])

    e.action_space = action_space
    return e


@pytest.mark.parametrize("game", ["royale", "royals"])
def test_pettingzoos_max_cycles_test(game: str) -> None:
    # PettingZoo's test expects every agent to act in every cycle, as in a Parallel env: its AEC half
    # runs on PettingZoo's own AEC conversion of the Parallel env (the native AEC env is checked below)
    mod = SimpleNamespace(
        env=lambda max_cycles: parallel_to_aec(_masked(parallel_env(game, max_cycles=max_cycles))),
        parallel_env=lambda max_cycles: _masked(parallel_env(game, max_cycles=max_cycles)),
    )
    max_cycles_test(mod)


def aec_run(aec: Any, seed: int) -> tuple[list[tuple[str, int]], dict[str, int]]:
    aec.reset(seed=seed)
    played, dead = [], dict.fromkeys(aec.possible_agents, 0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            dead[agent] += 1
            aec.step(None)
            continue
        played.append((agent, int(np.flatnonzero(obs["action_mask"])[-1])))
        aec.step(played[-1][1])
    return played, dead


@pytest.mark.parametrize("game", ["royale", "kqp", "royals"])
def test_max_cycles_cuts_both_envs_at_the_same_position(game: str) -> None:
    needs_engine(game)
    aec = env(game, max_cycles=6)
    played, dead = aec_run(aec, 3)
    assert set(dead.values()) == {1} and not aec.table.state.is_over()
    par = parallel_env(game, max_cycles=6)
    obs, _ = par.reset(seed=3)
    steps: list[dict[str, int]] = []
    while par.agents:
        acts = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items() if o["action_mask"].any()}
        steps.append(acts)
        obs, rewards, terminations, truncations, _ = par.step(acts)
    assert len(steps) == 6 and all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0}
    # the same ids, in the AEC env agent after agent
    assert sorted(played) == sorted((a, i) for acts in steps for a, i in acts.items())
    with pytest.raises(ValueError, match="max_cycles must be a positive integer"):
        env(game, max_cycles=0)
