"""Checks every game must pass, run by tests/test_conformance.py on every
registered game, player count and variant (see ``Game.test_configs``).

Each check raises :class:`ConformanceError` naming the game, the step and
what went wrong; :func:`check_playout` runs them all along one random game.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from courtcards.core.errors import CourtcardsError
from courtcards.core.game import Game
from courtcards.core.options import OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import State


class ConformanceError(AssertionError):
    pass


def _fail(state: State, what: str) -> ConformanceError:
    return ConformanceError(f"{state.game.name} ({state.num_players} players, {state.options}) "
                            f"after {len(state.history)} actions: {what}")


def check_cards(state: State) -> None:
    """Every card is in exactly one place, and the places add up to the deck."""
    places = state.card_places()
    held: Counter[str] = Counter()
    for cards in places.values():
        held.update(cards)
    deck = Counter(state.deck())
    if held != deck:
        extra = held - deck
        lost = deck - held
        raise _fail(state, f"cards not conserved: extra {dict(extra)}, missing {dict(lost)}")
    problems = state.invariants()
    if problems:
        raise _fail(state, "; ".join(problems))


def check_actions(state: State) -> None:
    """Legal actions have unique texts that parse back to the same action."""
    game = state.game
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        if not legal:
            raise _fail(state, f"seat {seat} must decide but has no legal action")
        texts = [a.text for a in legal]
        if len(set(texts)) != len(texts):
            dupes = [t for t, c in Counter(texts).items() if c > 1]
            raise _fail(state, f"duplicate action texts for seat {seat}: {dupes}")
        for action in legal:
            parsed = game.parse_action(action.text)
            if parsed != action or parsed.text != action.text:
                raise _fail(state, f"action {action.text!r} parses back as {parsed.text!r}")
            if not state.can_apply(seat, action.text):
                raise _fail(state, f"listed action {action.text!r} is refused when given as text")


def check_json(state: State) -> None:
    """The state survives JSON text exactly, and so does every view."""
    data = state.to_json()
    text = json.dumps(data, sort_keys=True)
    again = state.game.state_from_json(json.loads(text))
    if json.dumps(again.to_json(), sort_keys=True) != text:
        raise _fail(state, "state does not round-trip through JSON")
    for seat in [None, *range(state.num_players)]:
        if json.dumps(again.view(seat), sort_keys=True) != json.dumps(state.view(seat), sort_keys=True):
            raise _fail(state, f"view of seat {seat} differs after a JSON round-trip")
    for seat in state.to_move():
        if [a.text for a in again.legal_actions(seat)] != [a.text for a in state.legal_actions(seat)]:
            raise _fail(state, f"legal actions of seat {seat} differ after a JSON round-trip")


def resample_hidden(state: State, seat: int | None, rng: Rng) -> State:
    """A copy in which the cards ``seat`` cannot see are dealt differently
    among the places it cannot see, each place keeping its size."""
    places = state.card_places()
    hidden = state.hidden_places(seat)
    pool = [card for name in hidden for card in places[name]]
    rng.shuffle(pool)
    new: dict[str, list[str]] = {}
    pos = 0
    for name in hidden:
        size = len(places[name])
        new[name] = pool[pos : pos + size]
        pos += size
    return state.replace_places(new)


def check_views(state: State, rng: Rng, samples: int = 2) -> None:
    """A seat's view is JSON-ready, shows its own decision, and does not change
    when the cards it cannot see are shuffled among the places it cannot see."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        before = json.dumps(view, sort_keys=True)
        for _ in range(samples):
            other = resample_hidden(state, seat, rng)
            if json.dumps(other.view(seat), sort_keys=True) != before:
                raise _fail(state, f"view of seat {seat} changes when hidden cards are dealt differently")


def check_pending_hidden(state: State, seat: int, chosen: Any, rng: Rng) -> None:
    """Before ``seat`` commits ``chosen`` in a simultaneous decision that others
    have not finished, committing any other legal choice must look the same to
    every other seat and to spectators."""
    if len(state.to_move()) < 2:
        return
    others = [a for a in state.legal_actions(seat) if a != chosen]
    if not others:
        return
    alt = rng.choice(others)
    a, b = state.copy(), state.copy()
    a.apply(seat, chosen)
    b.apply(seat, alt)
    for viewer in [None, *range(state.num_players)]:
        if viewer == seat:
            continue
        if json.dumps(a.view(viewer), sort_keys=True) != json.dumps(b.view(viewer), sort_keys=True):
            raise _fail(state, f"seat {viewer} can tell seat {seat}'s secret choice before the reveal")


def check_illegal_unchanged(state: State, rng: Rng) -> None:
    """A refused action (out of turn, or not legal) leaves the state unchanged."""
    before = json.dumps(state.to_json(), sort_keys=True)
    movers = state.to_move()
    idle = [s for s in range(state.num_players) if s not in movers]
    probes: list[tuple[int, str]] = []
    if movers:
        seat = movers[0]
        real = rng.choice(state.legal_actions(seat)).text
        # a well-formed action the mover could play, from a seat with no decision now
        probes += [(s, text) for s in idle[:1] for text in (real, "pass")]
        probes.append((seat, "no-such-action ???"))
    for seat, text in probes:
        try:
            state.apply(seat, text)
        except CourtcardsError:
            pass
        else:
            raise _fail(state, f"probe {text!r} by seat {seat} was accepted")
        if json.dumps(state.to_json(), sort_keys=True) != before:
            raise _fail(state, f"refused action {text!r} by seat {seat} changed the state")


def random_playout(
    game: Game,
    num_players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    max_actions: int = 200_000,
) -> State:
    """Play uniformly random legal actions to the end; raise if it does not end."""
    state = game.new_game(num_players, options, seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(max_actions):
        if state.is_over():
            return state
        seat = min(state.to_move())
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    raise _fail(state, f"no end after {max_actions} actions")


def check_playout(
    game: Game,
    num_players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    every: int = 1,
    view_every: int = 7,
    max_actions: int = 200_000,
) -> State:
    """One random game with every check; heavy checks every ``every`` /
    ``view_every`` actions (1 = at every step)."""
    state = game.new_game(num_players, options, seed)
    again = game.new_game(num_players, options, seed)
    if state.to_json() != again.to_json():
        raise _fail(state, "the same seed deals differently")
    rng = Rng(seed ^ 0xC0FFEE)
    step = 0
    while not state.is_over():
        if step >= max_actions:
            raise _fail(state, f"no end after {max_actions} actions")
        check_cards(state)
        if step % every == 0:
            check_actions(state)
            check_json(state)
        if step % view_every == 0:
            check_views(state, rng, samples=1)
            check_illegal_unchanged(state, rng)
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        if step % every == 0:
            check_pending_hidden(state, seat, action, rng)
        state.apply(seat, action)
        step += 1
    check_cards(state)
    check_json(state)
    if state.to_move() or any(state.legal_actions(s) for s in range(num_players)):
        raise _fail(state, "a finished game still offers actions")
    result = state.result()
    if result is None or sorted(result.ranking) != list(range(num_players)) or len(result.scores) != num_players:
        raise _fail(state, f"a finished game needs a full result, got {result}")
    record = state.record()
    loaded = type(record).from_json(json.loads(json.dumps(record.to_json())))
    replayed = loaded.replay()
    if json.dumps(replayed.to_json(), sort_keys=True) != json.dumps(state.to_json(), sort_keys=True):
        raise _fail(state, "the record does not replay to the same final state")
    return state
