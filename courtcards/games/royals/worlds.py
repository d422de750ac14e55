"""Fair world sampling for Royals: a complete state from one seat's view.

What a seat knows of seat ``t``'s cards (docs/engine/royals.md): the public ones
(discard pile, Royals, table) and so the set of its hidden ones (hand and deck);
the sizes of its hand and deck; the bottom cards shown to choose the first
player (``opening``), which stay at the bottom of ``t``'s deck until it is drawn
down past them or reshuffled; and after a reshuffle, the face-up pile that
became the new deck (``new_deck``), which holds every card still in the deck.
Its own hand it knows exactly.

Within those facts the hidden cards are dealt uniformly: the deck cards not
fixed by ``opening`` are a uniformly random ordered draw from the cards allowed
there, and the rest of the hidden cards form the hand. A pending commitment of
another seat is drawn uniformly among that seat's legal commitments in the
sampled world; the seat's own commitment is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import ViewError
from courtcards.core.rng import Rng
from courtcards.games.royals import actions as A
from courtcards.games.royals.cards import DECK, TEXT, is_face, is_number, suit
from courtcards.games.royals.state import ATTACK, COMMIT, OVER, PHASES, Fight, RoyalsState

if TYPE_CHECKING:
    from courtcards.games.royals.game import RoyalsGame

CODE = {t: c for c, t in enumerate(TEXT)}


class _Bad(Exception):
    """An inconsistency in a view (reported as a ViewError)."""


def sample_world(game: RoyalsGame, view: Mapping[str, Any], rng: Rng) -> RoyalsState:
    try:
        return _sample(game, view, rng)
    except _Bad as exc:
        raise ViewError(f"inconsistent Royals view: {exc}") from None


def _cards(items: Any) -> list[int]:
    if not isinstance(items, list):
        raise _Bad(f"{items!r} is not a list of cards")
    try:
        return [CODE[t] for t in items]
    except KeyError as exc:
        raise _Bad(f"{exc.args[0]!r} is not a card") from None


def _draw(pool: list[int], k: int, rng: Rng) -> list[int]:
    """``k`` items of ``pool`` in a uniformly random order (partial Fisher-Yates; shuffles ``pool``)."""
    size = len(pool)
    if k > size:
        raise _Bad(f"{k} deck cards to place but only {size} may be there")
    draws = rng.draws(k + k // 2 + 8)
    below = draws.below
    for i in range(k):
        j = i + below(size - i)
        pool[i], pool[j] = pool[j], pool[i]
    draws.close()
    return pool[:k]


def _sample(game: RoyalsGame, view: Mapping[str, Any], rng: Rng) -> RoyalsState:
    n: int = view["num_players"]
    me: int = view["seat"]
    options = game.resolve_options(n, view["options"])
    state = RoyalsState(game, n, options, 0)
    state.rng = Rng(rng.next64())
    players = view["players"]
    opening = [list(level) for level in view["opening"]]
    if len(players) != n or any(len(level) != n for level in opening):
        raise _Bad(f"players and opening must list {n} seats")
    for t, p in enumerate(players):
        if p["seat"] != t:
            raise _Bad(f"players[{t}] is seat {p['seat']!r}")
        royals = [(CODE[r["face"]], CODE[r["number"]]) for r in p["royals"]]
        if any(not (is_face(f) and is_number(c) and suit(f) == suit(c)) for f, c in royals):
            raise _Bad(f"seat {t} has a malformed Royal")
        discard, table = _cards(p["discard"])[::-1], _cards(p["table"])  # the view lists the pile top first
        new_deck = None if p["new_deck"] is None else tuple(_cards(p["new_deck"]))
        public = set(discard) | set(table) | {c for r in royals for c in r}
        if len(public) != len(discard) + len(table) + 2 * len(royals):
            raise _Bad(f"seat {t} shows a card twice")
        hidden = [c for c in DECK if c not in public]
        hand_size, deck_size = p["hand_size"], p["deck_size"]
        if len(hidden) != hand_size + deck_size:
            raise _Bad(f"seat {t} has {len(hidden)} hidden cards for a hand of {hand_size} and a deck of {deck_size}")
        shown = []
        for level in opening:
            if not level[t]:
                break
            shown.append(CODE[level[t]])
        if t == me:
            hand = _cards(view["hand"])
            deck = _own_deck(t, hidden, hand, shown, new_deck, deck_size, rng)
        else:
            deck = _hidden_deck(t, hidden, shown, new_deck, deck_size, rng)
            taken = set(deck)
            hand = [c for c in hidden if c not in taken]
        state.decks[t], state.hands[t] = deck, sorted(hand)
        state.discards[t], state.table[t], state.royals[t] = discard, table, sorted(royals)
        state.new_decks[t] = new_deck
    state.phase = view["phase"]
    if state.phase not in PHASES:
        raise _Bad(f"unknown phase {state.phase!r}")
    state.turn, state.turns, state.first_player = view["turn"], view["round"], view["first_player"]
    state.opening = opening
    result = view["result"]
    state.winner = None if result is None else result["winner"]
    if result is not None:  # 'round' counts from 1; a game won before any turn began has 0 turns
        state.turns = result["details"]["turns"]
    state.fight = None if view["fight"] is None else _fight(view["fight"], n)
    last = view["last_fight"]
    if last is not None:
        state.last_fight = Fight.from_json(last)
        state.last_table = [_cards(cards) for cards in last["table"]]
    if (state.phase == OVER) != (result is not None) or (state.fight is None) != (state.phase in ("action", OVER)):
        raise _Bad(f"phase {state.phase!r} does not fit the fight and the result")
    _pending(state, view, me, rng)
    state.version = view["version"]
    return state


def _own_deck(
    t: int, hidden: list[int], hand: list[int], shown: list[int], new_deck: tuple[int, ...] | None, size: int, rng: Rng
) -> list[int]:
    held = set(hand)
    if len(held) != len(hand) or not held <= set(hidden):
        raise _Bad(f"the seat's hand {' '.join(TEXT[c] for c in hand)} does not fit its hidden cards")
    rest = [c for c in hidden if c not in held]
    if new_deck is not None:
        if not set(rest) <= set(new_deck):
            raise _Bad(f"seat {t}'s deck holds cards that were not in its reshuffled pile")
        rng.shuffle(rest)
        return rest
    bottom = shown[: min(len(shown), size)]
    if not set(bottom) <= set(rest):
        raise _Bad(f"seat {t}'s opening cards are not at the bottom of its deck")
    fixed = set(bottom)
    others = [c for c in rest if c not in fixed]
    rng.shuffle(others)
    return bottom + others


def _hidden_deck(
    t: int, hidden: list[int], shown: list[int], new_deck: tuple[int, ...] | None, size: int, rng: Rng
) -> list[int]:
    if new_deck is not None:
        allowed = set(new_deck)
        return _draw([c for c in hidden if c in allowed], size, rng)
    # shown cards the deck was drawn down past are in the hand (or public)
    bottom = shown[: min(len(shown), size)]
    if not set(bottom) <= set(hidden):
        raise _Bad(f"seat {t}'s opening cards are not at the bottom of its deck")
    fixed = set(shown)
    return bottom + _draw([c for c in hidden if c not in fixed], size - len(bottom), rng)


def _fight(data: Mapping[str, Any], n: int) -> Fight:
    need = {s: 0 for s in range(n)}
    for s, item in dict(data["need"]).items():
        need[int(s)] = int(item["count"])
    fight = Fight.from_json({**data, "need": {}})
    fight.need = need
    return fight


def _pending(state: RoyalsState, view: Mapping[str, Any], me: int, rng: Rng) -> None:
    pending = view["pending"]
    committed = pending["committed"]
    if not committed:
        return
    if state.phase != COMMIT or state.fight is None:
        raise _Bad("commitments are pending outside a commit phase")
    actors = state._actors()
    for t in committed:
        if t not in actors:
            raise _Bad(f"seat {t} committed but has no commitment to make")
        if t == me:
            action = A.parse_action(pending["mine"])
            if action not in state._legal_commit(t):
                raise _Bad(f"the seat's own commitment {action.text!r} is not legal in its view")
        else:
            action = _random_commit(state, t, rng)
        state.pending[t] = action


def _random_commit(state: RoyalsState, seat: int, rng: Rng) -> A.RoyalsAction:
    """One of the seat's legal commitments, uniformly (without listing them)."""
    fight = state.fight
    assert fight is not None
    hand = list(state.hands[seat])
    k = fight.need[seat]
    if fight.kind == ATTACK and seat == fight.defender:
        weights = [comb(len(hand), j) for j in range(k + 1)]
        r = rng.below(sum(weights))
        size = 0
        while r >= weights[size]:
            r -= weights[size]
            size += 1
        k = size
    return A.make("commit", cards=tuple(sorted(_draw(hand, k, rng))))
