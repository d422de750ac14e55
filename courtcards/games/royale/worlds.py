"""Fair world sampling for Rank Royale (docs/engine/royale.md).

From seat s's view every card's place is known except: the order of s's own
deck (its cards are the 52 not in its hand or discard pile; RR-5 shuffles it
unseen, so s does not know the order either), and which of the opponent's
cards not in its discard pile are in its hand and which in its deck. Since the
opponent's last reshuffle its hand was public (its deck was empty), so the
cards it held then and has not played since (``known_cards``) are in its hand;
the rest of its hand is a uniform subset of its other unseen cards, and both
decks are in uniform order. The opponent's committed but hidden card (RR-3) is
resampled uniformly among the cards of its sampled hand; s's own is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import CourtcardsError, ViewError
from courtcards.core.positions import Fields
from courtcards.core.rng import Rng
from courtcards.games.royale import actions as A
from courtcards.games.royale.cards import CODE, DECK, parse_card
from courtcards.games.royale.positions import read_rounds_log
from courtcards.games.royale.state import DISCARD, OVER, PHASES, PLAY, RoyaleState

if TYPE_CHECKING:
    from courtcards.games.royale.game import RoyaleGame


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "view") -> Any:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ViewError(f"malformed Rank Royale view: {where}[{key!r}] is {value!r}")
    return value


def _cards(raw: Any, what: str) -> list[int]:
    if not isinstance(raw, list):
        raise ViewError(f"malformed Rank Royale view: {what} must be a list of cards, not {raw!r}")
    try:
        cards = [CODE[t] if t in CODE else parse_card(str(t)) for t in raw]
    except (CourtcardsError, TypeError) as exc:
        raise ViewError(f"malformed Rank Royale view: {what}: {exc}") from None
    if len(set(cards)) != len(cards):
        raise ViewError(f"malformed Rank Royale view: {what} lists a card twice")
    return cards


_OPTIONS: dict[Any, dict[str, Any]] = {}


def _options(game: RoyaleGame, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The view's options, resolved (cached: worlds are sampled by the thousand)."""
    try:
        key = tuple(sorted(raw.items()))
        found = _OPTIONS.get(key)
    except TypeError:  # an unhashable value: resolve it every time
        return game.resolve_options(2, raw)
    if found is None:
        found = game.resolve_options(2, raw)
        if len(_OPTIONS) < 256:
            _OPTIONS[key] = found
    return dict(found)


def sample_world(game: RoyaleGame, view: Mapping[str, Any], rng: Rng) -> RoyaleState:
    seat = int(view["seat"])
    opp = 1 - seat
    options = _options(game, view["options"])
    world = RoyaleState(game, options, rng.next64())
    players = _get(view, "players", list)
    if len(players) != 2:
        raise ViewError("malformed Rank Royale view: 'players' must have two entries")
    phase = _get(view, "phase", str)
    if phase not in PHASES:
        raise ViewError(f"malformed Rank Royale view: unknown phase {phase!r}")
    sizes = [(_get(p, "hand_size", int, "players"), _get(p, "deck_size", int, "players")) for p in players]
    # the view's piles are top card first, the state's oldest first
    piles = [_cards(p.get("discard"), f"seat {s}'s discard pile")[::-1] for s, p in enumerate(players)]
    known = [sorted(_cards(p.get("known_cards", []), f"seat {s}'s known cards")) for s, p in enumerate(players)]

    hand = sorted(_cards(view.get("hand"), "'hand'"))
    mine = set(hand) | set(piles[seat])
    deck = [c for c in DECK if c not in mine]
    if len(hand) != sizes[seat][0] or len(deck) != sizes[seat][1] or len(hand) + len(piles[seat]) + len(deck) != 52:
        raise ViewError(f"malformed Rank Royale view: seat {seat}'s hand, deck and pile sizes do not add up to 52")

    seen = set(piles[opp]) | set(known[opp])
    pool = [c for c in DECK if c not in seen]
    need = sizes[opp][0] - len(known[opp])
    overlap = len(seen) != len(piles[opp]) + len(known[opp])
    if overlap or not 0 <= need <= len(pool) or len(pool) - need != sizes[opp][1]:
        raise ViewError(f"malformed Rank Royale view: seat {opp}'s hand, deck, pile and known cards do not fit")
    rng.shuffle(deck)
    rng.shuffle(pool)
    # the state's decks keep the top card last
    world.hands[seat], world.decks[seat], world.piles[seat] = hand, deck[::-1], piles[seat]
    world.hands[opp], world.decks[opp], world.piles[opp] = (
        sorted(known[opp] + pool[:need]),
        pool[need:][::-1],
        piles[opp],
    )
    world.known = known

    world.phase, world.round = phase, _get(view, "round", int)
    world.reshuffles = [_get(p, "reshuffles", int, "players") for p in players]
    try:
        world._rounds = read_rounds_log(Fields(view), "rounds_log", required=True)
    except CourtcardsError as exc:
        raise ViewError(f"malformed Rank Royale view: {exc}") from None
    if phase == DISCARD:
        owed = _get(view, "owed", Mapping)
        world.loser, world.owe = _get(owed, "seat", int, "owed"), _get(owed, "count", int, "owed")
        if world.loser not in (0, 1) or not 1 <= world.owe <= len(world.hands[world.loser]):
            raise ViewError(f"malformed Rank Royale view: 'owed' is {owed!r}")
    elif phase == OVER:
        result = _get(view, "result", Mapping)
        world.winner = result.get("winner")
        world.end_reason = _get(result, "details", Mapping, "result").get("reason")
    pending = _get(view, "pending", Mapping)
    committed = _get(pending, "committed", list, "pending")
    if (committed and phase != PLAY) or not set(committed) <= {0, 1}:
        raise ViewError(f"malformed Rank Royale view: 'pending' is {pending!r}")
    for s in sorted(committed):
        if s == seat:
            chosen = _get(pending, "mine", str, "pending")
            card = _cards([chosen], "your committed card")[0]
            if card not in hand:
                raise ViewError(f"malformed Rank Royale view: your committed card {chosen} is not in your hand")
            world.pending[s] = A.play(card)
        else:
            world.pending[s] = A.play(rng.choice(world.hands[s]))
    world.version = _get(view, "version", int)
    return world
