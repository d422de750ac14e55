"""Fair world sampling for Rank: a complete state from one seat's view.

The cards the seat cannot see (other hands, the draw pile, the King's Hand or
the hand set aside, RK-14/RK-16) are dealt uniformly at random over the deals
that fit what the seat knows, by rejection: shuffle the hidden cards into the
hidden places (each keeping its size) until the deal meets every constraint.
The constraints are bounds on how many cards of a kind one seat holds:

* a card the seat gave to X (give-back, tax, steal, RK-12/RK-13) is still in X's
  hand, unless X gave it back or may have played it this hand;
* a seat that took the "highest" cards (steal: highest number card; Classic
  President tax: highest in the order C, C2, 12..1) knows the giver held nothing
  higher, apart from what it gave back since and what the giver may have drawn
  with Crown + Draw 2 (two per C2 played this hand);
* the King deciding on the benefit knows whether the Beggar holds a number card.

Exchange cards the seat did not see are taken from the receiver's sampled hand
where possible (they show only in other seats' views of the world). Other seats'
secret give-backs already committed are drawn uniformly from their legal choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import ViewError
from courtcards.core.rng import Rng
from courtcards.core.state import JSON
from courtcards.games.rank.actions import parse_action
from courtcards.games.rank.cards import (
    CODES,
    CROWN,
    CROWN2,
    DECK_COUNTS,
    NCODES,
    NUMBERS,
    TEXT,
    canonical,
    counts_of,
    parse_card,
)
from courtcards.games.rank.state import EXCHANGE, KING, KINGS_HAND, OVER, PLAY

if TYPE_CHECKING:
    from courtcards.games.rank.game import RankGame
    from courtcards.games.rank.state import RankState

MAX_TRIES = 200_000
_PRESIDENT_RANK = {c: i for i, c in enumerate((CROWN, CROWN2, *range(12, 0, -1)))}  # lower is higher

# (seat, card codes, at least, at most): a bound on how many of those cards the seat holds
Bound = tuple[int, frozenset[int], int, int]


def _codes(texts: Any) -> list[int]:
    return [CODES.get(t) or parse_card(str(t)) for t in texts]


def sample_world(game: RankGame, view: Mapping[str, Any], rng: Rng) -> RankState:
    n: int = view["num_players"]
    seat: int = view["seat"]
    players = view["players"]
    if len(players) != n:
        raise ViewError(f"malformed Rank view: {len(players)} players listed for {n} seats")
    phase = view["phase"]
    sizes = [int(p["hand_size"]) for p in players]
    characters = [str(p["character"]) for p in players]
    decks = 2 if n >= 7 else 1
    own = _codes(view["hand"])
    pile = _codes(view["pile"]["cards"])
    discard = _codes(view["discard"])
    kh = view["kings_hand"]
    known_aside = _codes(kh["set_aside"]) if "set_aside" in kh else None

    pool = [DECK_COUNTS[c] * decks for c in range(NCODES)]
    for c in (*own, *pile, *discard, *(known_aside or ())):
        pool[c] -= 1
    if any(x < 0 for x in pool) or len(own) != sizes[seat]:
        raise ViewError("malformed Rank view: its cards do not fit in the deck")
    hidden = [c for c in range(NCODES) for _ in range(pool[c])]
    others = [s for s in range(n) if s != seat]
    draw_size = int(view["deck_size"])
    rest = len(hidden) - sum(sizes[s] for s in others) - draw_size
    if rest < 0 or (rest and known_aside is not None):
        raise ViewError("malformed Rank view: more cards in hands and draw pile than the deck holds")

    bounds = _bounds(view, seat, characters, counts_of(pile + discard))
    world_rng = Rng(rng.next64())
    for _ in range(MAX_TRIES):
        rng.shuffle(hidden)
        hands: dict[int, list[int]] = {}
        pos = 0
        for s in others:
            hands[s] = hidden[pos : pos + sizes[s]]
            pos += sizes[s]
        if all(_fits(hands, b) for b in bounds):
            break
    else:
        raise ViewError(f"no deal of the hidden cards fits this view in {MAX_TRIES} tries")
    hands[seat] = own
    draw = hidden[pos : pos + draw_size]
    remainder = hidden[pos + draw_size :]

    data: dict[str, Any] = {
        "game": game.name,
        "num_players": n,
        "options": dict(view["options"]),
        "seed": world_rng.state,
        "version": view["version"],
        "phase": phase,
        "round": view["round"],
        "hands": [[TEXT[c] for c in hands[s]] for s in range(n)],
        "draw_pile": [TEXT[c] for c in reversed(draw)],  # top card first (the same deal as before format 3)
        "pile": view["pile"]["cards"],
        "top": view["pile"]["top"],
        "pile_value": view["pile"]["value"],
        "pile_count": view["pile"]["count"],
        "owner": view["pile"]["owner"],
        "discard": view["discard"],
        "kings_hand": [TEXT[c] for c in remainder] if phase == KINGS_HAND else [],
        "set_aside": view["kings_hand"].get("set_aside")
        or ([] if phase == KINGS_HAND else [TEXT[c] for c in remainder]),
        "kings_hand_choice": kh["choice"],
        "passed": [bool(p["passed"]) for p in players],
        "turn": view["turn"] if view["turn"] is not None else 0,
        "finished": _finished(view, phase),
        "characters": characters,
        "tokens": [0 if view["options"]["endless"] else int(p["score"]) for p in players],  # RK-15: no tokens
        "times_king": [int(p["times_king"]) for p in players],
        "hands_log": view["hands_log"],
        "exchanges": _exchanges(view, hands, hidden, rng),
        "owed": {str(e["to"]): e["count"] for e in view["exchanges"] if e["why"] == "tax" and e["count"]}
        if phase == EXCHANGE
        else {},
        "round_log": view["round_log"],
        "last_round": view["last_round"],
        "winner": (view["result"] or {}).get("winner"),
    }
    world = game.state_from_json(data, strict=False)
    world.rng = world_rng
    pending = view["pending"]
    for s in pending["committed"]:
        if s == seat:
            world.pending[s] = world.game.parse_action(pending["mine"])
        else:  # another seat's secret give-back: any of its legal choices
            legal = world._legal(s)
            world.pending[s] = legal[rng.below(len(legal))]
    return world


def _finished(view: Mapping[str, Any], phase: str) -> list[int]:
    if phase == OVER:
        return list(view["hands_log"][-1]["finish"]) if view["hands_log"] else []
    out = [(p["out"], p["seat"]) for p in view["players"] if p["out"] is not None]
    return [s for _, s in sorted(out)]


def _exchanges(view: Mapping[str, Any], hands: dict[int, list[int]], hidden: list[int], rng: Rng) -> list[JSON]:
    out = []
    for e in view["exchanges"]:
        cards = e.get("cards")
        if cards is None:  # not seen by this seat: cards of the receiver's sampled hand, else any hidden ones
            held = list(hands[e["to"]])
            rng.shuffle(held)
            chosen = held[: e["count"]]
            chosen += [hidden[rng.below(len(hidden))] for _ in range(e["count"] - len(chosen))]
            cards = [TEXT[c] for c in canonical(chosen)]
        out.append({"from": e["from"], "to": e["to"], "cards": list(cards), "why": e["why"]})
    return out


def _bounds(view: Mapping[str, Any], seat: int, characters: list[str], played: list[int]) -> list[Bound]:
    """What the seat knows about other hands, as bounds (see the module doc); ``played``
    counts the cards played this hand (RK-16: public)."""
    by_seat: dict[int, list[int]] = {}
    if view["phase"] == PLAY:
        for s, text in view["round_log"]:  # plays of this round, attributed
            if text != "pass":
                by_seat.setdefault(int(s), []).extend(parse_action(text).cards)
    gave: dict[int, list[int]] = {}  # cards the seat gave to each other seat
    back: dict[int, list[int]] = {}  # cards given back to the seat after it paid a tax or was stolen from
    bounds: list[Bound] = []
    for e in view["exchanges"]:
        if "cards" not in e:
            continue
        cards = _codes(e["cards"])
        if e["from"] == seat:
            gave.setdefault(e["to"], []).extend(cards)
        elif e["to"] == seat and e["why"] == "give":
            back.setdefault(e["from"], []).extend(cards)
    for x, cards in gave.items():
        need = counts_of(cards)
        got = counts_of(back.get(x, []))
        others_played = counts_of([c for s, cs in by_seat.items() if s != x for c in cs])
        for c in range(NCODES):
            at_least = need[c] - got[c] - (played[c] - others_played[c])
            if at_least > 0:
                bounds.append((x, frozenset((c,)), at_least, 10**6))
    drawn_max = 2 * played[CROWN2]
    for e in view["exchanges"]:
        if e["to"] != seat or e["why"] not in ("steal", "tax") or "cards" not in e:
            continue
        giver, taken = e["from"], _codes(e["cards"])
        if e["why"] == "steal":
            eligible = list(NUMBERS)
            rank = {c: 12 - c for c in NUMBERS}
            expected = 1
        else:
            eligible = list(_PRESIDENT_RANK)
            rank = _PRESIDENT_RANK
            expected = 2 if characters[seat] == KING else 1
        if len(taken) == expected:
            lowest = max(rank[c] for c in taken)
            above = frozenset(c for c in eligible if rank[c] < lowest)
        else:
            above = frozenset(eligible)
        returned = sum(1 for c in gave.get(giver, []) if c in above)
        if above:
            bounds.append((giver, above, 0, returned + drawn_max))
    if "steal_possible" in view:
        beggar = characters.index("beggar")
        allowed = bool(view["steal_possible"])
        bounds.append((beggar, frozenset(NUMBERS), 1 if allowed else 0, 10**6 if allowed else 0))
    return bounds


def _fits(hands: dict[int, list[int]], bound: Bound) -> bool:
    seat, cards, lo, hi = bound
    k = sum(1 for c in hands[seat] if c in cards)
    return lo <= k <= hi
