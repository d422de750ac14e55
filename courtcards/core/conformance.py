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

import numpy as np

from courtcards.core.errors import CourtcardsError, IllegalActionError, Refusal
from courtcards.core.events import LOG_LIMIT, EventKinds, event_problems, kinds_of, refusal_problems
from courtcards.core.game import Game
from courtcards.core.options import OptionValue
from courtcards.core.rng import Rng
from courtcards.core.state import State


class ConformanceError(AssertionError):
    pass


def _fail(state: State, what: str) -> ConformanceError:
    return ConformanceError(
        f"{state.game.name} ({state.num_players} players, {state.options}) after {len(state.history)} actions: {what}"
    )


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


def check_ids(state: State, rng: Rng, composite_samples: int = 8) -> None:
    """Every legal action has ids that lead back to it: a one-step action through
    ``action_from_id``, a composite one by walking its steps with ``apply_id`` on a
    copy; no two legal actions share an encoding, and the mask equals the legal ids."""
    codec = state.action_codec()
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        ids = state.legal_action_ids(seat)
        mask = state.legal_action_mask(seat)
        if mask.dtype != np.bool_ or mask.shape != (codec.size,):
            raise _fail(state, f"mask of seat {seat} has dtype {mask.dtype} and shape {mask.shape}")
        if sorted(np.flatnonzero(mask).tolist()) != sorted(ids):
            raise _fail(state, f"mask of seat {seat} differs from its legal ids")
        seen: dict[tuple[int, ...], str] = {}
        composite = []
        for action in legal:
            enc = state.action_ids(action)
            if not enc or not all(0 <= i < codec.size for i in enc):
                raise _fail(state, f"action {action.text!r} encodes as {enc}, outside 0..{codec.size - 1}")
            if enc in seen:
                raise _fail(state, f"actions {seen[enc]!r} and {action.text!r} share the ids {list(enc)}")
            seen[enc] = action.text
            if enc[0] not in ids:
                raise _fail(state, f"action {action.text!r} starts with id {enc[0]}, which is masked out")
            if len(enc) == 1:
                back = state.action_from_id(seat, enc[0])
                if back != action:
                    got = None if back is None else back.text
                    raise _fail(state, f"id {enc[0]} of {action.text!r} maps back to {got!r}")
            else:
                composite.append((action, enc))
        firsts = {enc[0] for enc in seen}
        if firsts != set(ids):
            raise _fail(state, f"legal ids of seat {seat} are not the first steps of its legal actions")
        for enc in seen:
            for other in seen:
                if other != enc and other[: len(enc)] == enc:
                    raise _fail(state, f"encodings are not prefix-free: {list(enc)} starts {list(other)}")
        for action, enc in _sample(composite, composite_samples, rng):
            walk = state.copy()
            for step, i in enumerate(enc):
                if i not in walk.legal_action_ids(seat):
                    raise _fail(state, f"step {step} (id {i}) of {action.text!r} is masked out")
                done = walk.apply_id(seat, i)
                if (done is None) != (step < len(enc) - 1):
                    raise _fail(state, f"walking the ids of {action.text!r} ended at step {step}")
            if done != action:
                raise _fail(state, f"walking the ids of {action.text!r} applied {done!r}")


def _sample(items: list[Any], k: int, rng: Rng) -> list[Any]:
    if len(items) <= k:
        return items
    pool = list(items)
    rng.shuffle(pool)
    return pool[:k]


def _shared_mutables(a: Any, b: Any, path: str, seen: set[int], out: list[str], depth: int = 0) -> None:
    """Paths where ``a`` and ``b`` (two copies) hold the same mutable object."""
    if depth > 12 or id(a) in seen:
        return
    if isinstance(a, (str, bytes, int, float, bool, type(None), frozenset, range)):
        return
    seen.add(id(a))
    if isinstance(a, (list, dict, set, bytearray, np.ndarray)) or hasattr(a, "__dict__") or hasattr(a, "__slots__"):
        mutable = not isinstance(a, tuple)
        if mutable and a is b and not _is_frozen(a):
            out.append(path)
            return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k in b:
                _shared_mutables(a[k], b[k], f"{path}[{k!r}]", seen, out, depth + 1)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _shared_mutables(x, y, f"{path}[{i}]", seen, out, depth + 1)
    elif isinstance(a, set):
        return
    else:
        for name in _fields(a):
            if hasattr(b, name):
                _shared_mutables(getattr(a, name), getattr(b, name), f"{path}.{name}", seen, out, depth + 1)


def _is_frozen(obj: Any) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    if params is not None and params.frozen:
        return True
    # interned value objects (actions) expose no way to change them
    return hasattr(obj, "text") and hasattr(type(obj), "__slots__")


def _fields(obj: Any) -> list[str]:
    names = list(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        names += [n for n in getattr(klass, "__slots__", ()) if isinstance(n, str)]
    return names


def check_copy(state: State, rng: Rng) -> None:
    """A copy equals its original and shares no mutable part with it: a move made
    on one leaves the other unchanged."""
    copy = state.copy()
    before = json.dumps(state.to_json(), sort_keys=True)
    if json.dumps(copy.to_json(), sort_keys=True) != before:
        raise _fail(state, "a copy differs from its original")
    shared: list[str] = []
    for name in _fields(state):
        if name in state.SHARED_ON_COPY:
            continue
        _shared_mutables(getattr(state, name), getattr(copy, name, None), name, set(), shared)
    if shared:
        raise _fail(state, f"a copy shares mutable parts with its original: {', '.join(shared[:5])}")
    movers = copy.to_move()
    if movers:
        seat = movers[0]
        legal = copy.legal_actions(seat)
        copy.apply(seat, legal[rng.below(len(legal))])
        if json.dumps(state.to_json(), sort_keys=True) != before:
            raise _fail(state, "a move on a copy changed the original")


def check_worlds(state: State, rng: Rng, samples: int = 1) -> None:
    """A world sampled from a seat's view gives that seat the same view and the same
    legal ids, conserves the cards, and has its own generator."""
    game = state.game
    for seat in range(state.num_players):
        view = state.view(seat)
        text = json.dumps(view, sort_keys=True)
        for _ in range(samples):
            world = game.sample_world(view, rng.next64())
            if json.dumps(world.view(seat), sort_keys=True) != text:
                raise _fail(state, f"a world sampled from seat {seat}'s view shows that seat another view")
            check_cards(world)
            if world.to_move() != state.to_move():
                raise _fail(state, f"a world sampled from seat {seat}'s view has other seats to move")
            if seat in state.to_move() and world.legal_action_ids(seat) != state.legal_action_ids(seat):
                raise _fail(state, f"a world sampled from seat {seat}'s view gives it other legal ids")
            if world.rng.state == state.rng.state:
                raise _fail(state, f"a world sampled from seat {seat}'s view kept the true generator")


def check_observations(state: State, rng: Rng) -> None:
    """Tensors and strings have the declared shape and depend on the seat's view only:
    dealing the cards the seat cannot see differently changes neither."""
    game = state.game
    shape = game.observation_shape(state.num_players, state.options)
    for seat in range(state.num_players):
        tensor = state.observation_tensor(seat)
        if tensor.dtype != np.float32 or tensor.shape != shape:
            raise _fail(state, f"observation of seat {seat} is {tensor.dtype} {tensor.shape}, declared {shape}")
        if not np.isfinite(tensor).all():
            raise _fail(state, f"observation of seat {seat} is not finite")
        from_view = game.observation_tensor(state.view(seat), state.id_prefix(seat))
        if not np.array_equal(from_view, tensor):
            raise _fail(state, f"observation tensor of seat {seat} read from the state differs from its view's")
        text = state.observation_string(seat)
        other = resample_hidden(state, seat, rng)
        if not np.array_equal(other.observation_tensor(seat), tensor):
            raise _fail(state, f"observation tensor of seat {seat} changes when hidden cards are dealt differently")
        if other.observation_string(seat) != text:
            raise _fail(state, f"observation string of seat {seat} changes when hidden cards are dealt differently")


def check_returns(state: State) -> None:
    """Returns and rewards: one finite number per seat, zero until the end, and at
    the end the winner (if any) gets the most and a zero-sum game sums to zero."""
    returns = state.returns()
    rewards = state.rewards()
    n = state.num_players
    if len(returns) != n or len(rewards) != n or not all(np.isfinite(returns)):
        raise _fail(state, f"returns {returns} / rewards {rewards} are not one finite number per seat")
    if not state.is_over():
        if any(returns) or any(rewards):
            raise _fail(state, f"returns {returns} before the end")
        return
    if rewards != returns:
        raise _fail(state, f"rewards {rewards} of the last step differ from the returns {returns}")
    if getattr(state.game, "zero_sum", True) and abs(sum(returns)) > 1e-9:
        raise _fail(state, f"returns {returns} of a zero-sum game do not add up to zero")
    result = state.result()
    if result is not None and result.winner is not None and returns[result.winner] != max(returns):
        raise _fail(state, f"the winner {result.winner} does not get the highest return: {returns}")


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
    when the cards it cannot see are shuffled among the places it cannot see; its JSON text as a
    server pushes it (``view_json``) reads back as the view."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        before = json.dumps(view, sort_keys=True)
        if json.dumps(json.loads(state.view_json(seat)), sort_keys=True) != before:
            raise _fail(state, f"view_json of seat {seat} does not read back as its view")
        for _ in range(samples):
            other = resample_hidden(state, seat, rng)
            if json.dumps(other.view(seat), sort_keys=True) != before:
                raise _fail(state, f"view of seat {seat} changes when hidden cards are dealt differently")


def check_events(state: State, kinds: EventKinds, seen: int = 0) -> int:
    """The events recorded after event number ``seen`` fit the game's declared kinds (``kinds_of``;
    a game that declares none: the envelope only, each sentence its template filled), as every
    seat and a spectator see them. Returns the number of the last event, to pass as ``seen`` next."""
    log = state.events
    last = len(log)
    if last <= seen:
        return last
    k = min(last - seen, LOG_LIMIT)
    for viewer in [None, *range(state.num_players)]:
        for entry in log.last(k, viewer):
            problems = event_problems(entry, kinds, state.num_players)
            if problems:
                who = "a spectator" if viewer is None else f"seat {viewer}"
                raise _fail(state, f"event {entry.get('n')} as {who} sees it: {'; '.join(problems)}")
    return last


def check_refusals(state: State, rng: Rng, pool: set[Any], probes: int = 24, kinds: EventKinds | None = None) -> None:
    """``state.refusal`` (the game's reasons) agrees with ``legal_actions``:
    None for every legal action, a reason for every other action of the game
    (``pool``: actions seen legal anywhere in this game, sampled). Each reason fits
    the game's declared refusals (``kinds``, by default ``kinds_of(state.game)``: a
    declared code with data of the declared types), and the error ``apply`` raises
    for the first one carries its code and data."""
    if kinds is None:
        kinds = kinds_of(state.game)
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        for action in legal:
            reason = state.refusal(seat, action)
            if reason is not None:
                raise _fail(state, f"legal action {action.text!r} of seat {seat} is refused: {reason}")
        legal_set = set(legal)
        others = [a for a in pool if a not in legal_set]
        for i, action in enumerate(_sample(sorted(others, key=lambda a: a.text), probes, rng)):
            reason = state.refusal(seat, action)
            if not reason:
                raise _fail(state, f"{action.text!r} is not legal for seat {seat} but refusal() gives no reason")
            problems = refusal_problems(reason, kinds, state.num_players)
            if problems:
                raise _fail(state, f"the refusal of {action.text!r} for seat {seat}: {'; '.join(problems)}")
            if i == 0:
                _expect_reason(state, seat, action, reason)


def _expect_reason(state: State, seat: int, action: Any, reason: str) -> None:
    """``apply`` refuses ``action`` with an IllegalActionError carrying ``reason``'s sentence, code and data."""
    code, data = (reason.code, dict(reason.data)) if isinstance(reason, Refusal) else ("illegal", {})
    try:
        state.copy().apply(seat, action)
    except IllegalActionError as exc:
        if (exc.reason, exc.code, exc.data) != (str(reason), code, data):
            raise _fail(
                state,
                f"apply refuses {action.text!r} with {exc.code} {exc.data} {exc.reason!r}, "
                f"its refusal is {code} {data} {str(reason)!r}",
            ) from None
    else:
        raise _fail(state, f"apply accepted {action.text!r}, which refusal() refuses: {reason}")


def check_view_types(state: State) -> None:
    """Every seat's view and the spectator's fit the game's view type exactly
    (courtcards.core.views): no missing field, no extra one, no wrong type."""
    from courtcards.core.views import validate_view

    if state.game.view_type is None:
        return
    for seat in [None, *range(state.num_players)]:
        try:
            validate_view(state.game, state.view(seat))
        except ValueError as exc:  # pydantic's ValidationError
            raise _fail(state, f"the view of seat {seat} does not fit {state.game.view_type.__name__}: {exc}") from None


def check_vocabulary(state: State) -> None:
    """Every view speaks the shared vocabulary (courtcards.core.views): round, turn,
    hand, log and players entries with seat and hand_size, no retired synonyms."""
    from courtcards.core.views import ViewBase, vocabulary_problems

    vt = state.game.view_type
    if vt is not None and not set(ViewBase.__annotations__) <= set(vt.__annotations__):
        raise _fail(state, f"{vt.__name__} does not build on ViewBase")
    for seat in [None, *range(state.num_players)]:
        problems = vocabulary_problems(state.view(seat))
        if problems:
            raise _fail(state, f"the view of seat {seat} departs from the shared words: {'; '.join(problems)}")


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
        _expect_refused(state, before, lambda s=seat, t=text: state.apply(s, t), f"probe {text!r} by seat {seat}")
    # the same through the id layer: out of range, masked out, from a seat with no decision
    id_probes: list[tuple[int, Any]] = []
    if movers:
        seat = movers[0]
        size = state.action_codec().size
        legal_ids = state.legal_action_ids(seat)
        masked = [i for i in range(size) if i not in set(legal_ids)]
        id_probes += [(seat, size), (seat, -1), (seat, "0")]
        if masked:
            id_probes.append((seat, rng.choice(masked)))
        id_probes += [(s, legal_ids[0]) for s in idle[:1]]
    for seat, action_id in id_probes:
        _expect_refused(
            state, before, lambda s=seat, i=action_id: state.apply_id(s, i), f"action id {action_id!r} by seat {seat}"
        )


def _expect_refused(state: State, before: str, attempt: Any, what: str) -> None:
    """``attempt()`` must raise a CourtcardsError and leave the state as ``before`` (its JSON text)."""
    try:
        attempt()
    except CourtcardsError:
        pass
    else:
        raise _fail(state, f"{what} was accepted")
    if json.dumps(state.to_json(), sort_keys=True) != before:
        raise _fail(state, f"refused {what} changed the state")


def random_playout(
    game: Game[Any],
    num_players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    max_actions: int = 200_000,
) -> State:
    """Play uniformly random legal actions to the end (the engine's whole playout,
    :meth:`State.play_random`); raise if it does not end."""
    state: State = game.new_game(num_players, options, seed)
    state.play_random(Rng(seed ^ 0x5EED), max_actions)
    if not state.is_over():
        raise _fail(state, f"no end after {max_actions} actions")
    return state


def check_playout(
    game: Game[Any],
    num_players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    every: int = 1,
    view_every: int = 7,
    max_actions: int = 200_000,
    world_every: int = 13,
) -> State:
    """One random game with every check; heavy checks every ``every`` /
    ``view_every`` / ``world_every`` actions (1 = at every step)."""
    state: State = game.new_game(num_players, options, seed)
    again = game.new_game(num_players, options, seed)
    if state.to_json() != again.to_json():
        raise _fail(state, "the same seed deals differently")
    rng = Rng(seed ^ 0xC0FFEE)
    step = 0
    pool: set[Any] = set()
    kinds = kinds_of(game)
    seen = 0
    while not state.is_over():
        if step >= max_actions:
            raise _fail(state, f"no end after {max_actions} actions")
        check_cards(state)
        seen = check_events(state, kinds, seen)
        if step % every == 0:
            check_actions(state)
            check_json(state)
            check_ids(state, rng)
            check_returns(state)
        if step % view_every == 0:
            check_views(state, rng, samples=1)
            check_view_types(state)
            check_vocabulary(state)
            check_illegal_unchanged(state, rng)
            check_copy(state, rng)
        if step % world_every == 0:
            check_worlds(state, rng)
            check_observations(state, rng)
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        if step % view_every == 0:
            pool.update(legal)
            check_refusals(state, rng, pool, kinds=kinds)
        action = legal[rng.below(len(legal))]
        if step % every == 0:
            check_pending_hidden(state, seat, action, rng)
        state.apply(seat, action)
        step += 1
    check_cards(state)
    check_events(state, kinds, seen)
    check_json(state)
    check_returns(state)
    check_copy(state, rng)
    check_view_types(state)
    check_vocabulary(state)
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
