"""Fair world sampling for Five Tricks.

From a seat's view every card's place is known except the other seats' hands and
the cards set aside. A seat that did not follow a led suit is known to lack it, so
no card of that suit may be dealt to it. A world deals the unseen cards uniformly
over every deal that fits: the suits are dealt one after another, each split among
the hidden places (the set-aside cards accept every suit) with probability
proportional to the number of deals that split leaves for the later suits.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from math import factorial
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import CourtcardsError, ViewError
from courtcards.core.rng import Rng

from courtcards_fivetricks.cards import DECK, SUITS, parse_card, suit
from courtcards_fivetricks.state import FiveTricksState, trick_winner

if TYPE_CHECKING:
    from courtcards_fivetricks.game import FiveTricksGame

Caps = tuple[int, ...]
Allowed = tuple[tuple[bool, ...], ...]  # [suit][place]


def _splits(m: int, caps: Caps, allowed: tuple[bool, ...], i: int = 0) -> Iterator[Caps]:
    """Every way to put ``m`` cards into places ``i..`` within their capacities."""
    if i == len(caps):
        if m == 0:
            yield ()
        return
    top = min(m, caps[i]) if allowed[i] else 0
    for k in range(top + 1):
        for rest in _splits(m - k, caps, allowed, i + 1):
            yield (k, *rest)


@lru_cache(maxsize=1 << 16)
def _count(sizes: tuple[int, ...], allowed: Allowed, k: int, caps: Caps) -> int:
    """The number of deals of suits ``k..`` (``sizes[k]`` cards each) into ``caps``."""
    if k == len(sizes):
        return 1 if not any(caps) else 0
    total = 0
    for split in _splits(sizes[k], caps, allowed[k]):
        ways = factorial(sizes[k])
        for x in split:
            ways //= factorial(x)
        total += ways * _count(sizes, allowed, k + 1, tuple(c - x for c, x in zip(caps, split, strict=True)))
    return total


def deal(groups: list[list[int]], caps: Caps, allowed: Allowed, rng: Rng) -> list[list[int]]:
    """The cards of each suit group dealt into the places, uniformly over the deals that fit."""
    sizes = tuple(len(g) for g in groups)
    if _count(sizes, allowed, 0, caps) == 0:
        raise ViewError("malformed Five Tricks view: no deal of the unseen cards fits the known voids")
    places: list[list[int]] = [[] for _ in caps]
    for k, group in enumerate(groups):
        options = []
        for split in _splits(len(group), caps, allowed[k]):
            ways = factorial(len(group))
            for x in split:
                ways //= factorial(x)
            after = tuple(c - x for c, x in zip(caps, split, strict=True))
            weight = ways * _count(sizes, allowed, k + 1, after)
            if weight:
                options.append((weight, split, after))
        pick = rng.below(sum(w for w, _, _ in options))
        chosen = 0
        while pick >= options[chosen][0]:
            pick -= options[chosen][0]
            chosen += 1
        _, split, after = options[chosen]
        cards = list(group)
        rng.shuffle(cards)
        pos = 0
        for place, x in zip(places, split, strict=True):
            place.extend(cards[pos : pos + x])
            pos += x
        caps = after
    return places


def _cards(raw: Any, what: str) -> list[int]:
    if not isinstance(raw, list):
        raise ViewError(f"malformed Five Tricks view: {what} must be a list of cards")
    try:
        return [parse_card(t) for t in raw]
    except CourtcardsError as exc:
        raise ViewError(f"malformed Five Tricks view: {what}: {exc}") from None


def sample_world(game: FiveTricksGame, view: Mapping[str, Any], rng: Rng) -> FiveTricksState:
    me, n = int(view["seat"]), int(view["num_players"])
    world = FiveTricksState(game, n, game.resolve_options(n, view["options"]), rng.next64())
    for i, entry in enumerate(view["tricks_log"]):
        cards = tuple(_cards(entry["cards"], f"trick {i + 1}"))
        leader = int(entry["leader"])
        if len(cards) != n or not 0 <= leader < n or trick_winner(leader, cards, n) != entry["winner"]:
            raise ViewError(f"malformed Five Tricks view: trick {i + 1} is {entry!r}")
        world.done.append((leader, cards, int(entry["winner"])))
    world.leader = int(view["leader"])
    table = view["trick"]
    world.trick = _cards([p["card"] for p in table], "'trick'")
    if [p["seat"] for p in table] != [(world.leader + i) % n for i in range(len(table))] or len(table) >= n:
        raise ViewError("malformed Five Tricks view: the trick's seats do not follow the leader")
    hand = sorted(_cards(view["hand"], "'hand'"))
    seen = set(hand) | set(world.trick) | {c for _, cards, _ in world.done for c in cards}
    unseen = [c for c in DECK if c not in seen]
    others = [s for s in range(n) if s != me]
    caps = (*(int(view["players"][s]["hand_size"]) for s in others), int(view["set_aside"]))
    if len(seen) != len(hand) + len(world.trick) + n * len(world.done) or sum(caps) != len(unseen):
        raise ViewError("malformed Five Tricks view: the hands, the table and the cards set aside do not add up")
    voids = world.voids()
    groups = [[c for c in unseen if suit(c) == k] for k in range(len(SUITS))]
    allowed = tuple((*(k not in voids[s] for s in others), True) for k in range(len(SUITS)))
    dealt = deal(groups, caps, allowed, rng)
    world.hands[me] = hand
    for s, got in zip(others, dealt, strict=False):
        world.hands[s] = sorted(got)
    world.aside = sorted(dealt[-1])
    world.version = int(view["version"])
    return world
