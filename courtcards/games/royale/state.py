"""Rank Royale's rules engine (rulebook 003, rulings RR-1 to RR-6).

A round: both players choose a card in secret (a simultaneous decision, RR-3);
the cards are revealed and compared (RR-1, RR-4); a tier loser may have to
choose discards (a decision of the loser alone); then each player draws one
card (RR-5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final, Self, TypeAlias

from courtcards.core.errors import Refusal
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State, binomial, insert_in_order, nth_combination
from courtcards.games.royale import actions as A
from courtcards.games.royale.cards import (
    DECK,
    TEXT,
    TIER_NAMES,
    TIER_OF_RANK,
    beats,
    rank,
    texts,
    tier,
)

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue
    from courtcards.games.royale.game import RoyaleGame

_TEXT: Final = TEXT  # (as the names below: Final, the compiled module reads it without a lookup by name)
HAND_SIZE: Final = 6
PLAY: Final = "play"
DISCARD: Final = "discard"
OVER: Final = "over"
PHASES: Final = (PLAY, DISCARD, OVER)
COULD_NOT_DISCARD: Final = "could_not_discard"
ROUND_LIMIT: Final = "round_limit"
END_REASONS: Final = (COULD_NOT_DISCARD, ROUND_LIMIT)
MAX_RNG: Final = 2**64 - 1
OUTCOMES: Final = ("tie", "rank", "tier")


#: an entry of the rounds log, frozen: its JSON object's items with lists as tuples
LogEntry: TypeAlias = tuple[tuple[str, Any], ...]
LOG_KEYS: Final = ("round", "cards", "tiers", "outcome", "winner", "discard", "discarded", "lost")


def freeze_entry(entry: Mapping[str, Any]) -> LogEntry:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in entry.items())


def thaw_entry(entry: LogEntry) -> JSON:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in entry}


NO_DISCARDS: Final = ("discarded", ())


LogItem: TypeAlias = tuple[str, Any]


def _duel(c0: int, c1: int) -> tuple[str, int, int, tuple[LogItem, LogItem, LogItem, LogItem], str]:
    """RR-4 for two cards: (outcome, winner or -1, winning tier if discards are owed
    else -1, the rounds log's cards, tiers, outcome and winner items, and the
    event's words for the reveal and the outcome)."""
    r0, r1, t0, t1 = rank(c0), rank(c1), tier(c0), tier(c1)
    shown = f"{{seats.0}} plays {TEXT[c0]} ({TIER_NAMES[t0]}), {{seats.1}} plays {TEXT[c1]} ({TIER_NAMES[t1]})"
    if r0 == r1:
        outcome, w, win_tier = "tie", -1, -1
        words = f"{shown}: the same rank, nothing happens"
    elif t0 == t1:
        outcome, w, win_tier = "rank", 0 if r0 > r1 else 1, -1
        words = f"{shown}: the same tier, {{winner}} wins on rank"
    else:
        w = 0 if beats(t0, t1) else 1
        outcome, win_tier = "tier", (t0, t1)[w]
        words = f"{shown}: {TIER_NAMES[win_tier]} beats {TIER_NAMES[(t1, t0)[w]]}, {{loser}} must discard"
    cards, tiers = ("cards", (TEXT[c0], TEXT[c1])), ("tiers", (TIER_NAMES[t0], TIER_NAMES[t1]))
    return outcome, w, win_tier, (cards, tiers, ("outcome", outcome), ("winner", None if w < 0 else w)), words


DUELS: Final = tuple(_duel(c0, c1) for c0 in DECK for c1 in DECK)

N_CARDS: Final = tuple(f"{k} card{'s' * (k != 1)}" for k in range(53))
# the round's draws (RR-5), worded once per card: what everyone reads, and what each seat reads of its own
BOTH_DRAW: Final = "{seats.0} and {seats.1} each draw a card"
DRAWS_SEEN: Final = (
    tuple(f"{{seats.0}} draws {TEXT[c]} and {{seats.1}} draws a card" for c in DECK),
    tuple(f"{{seats.0}} draws a card and {{seats.1}} draws {TEXT[c]}" for c in DECK),
)
SEATS: Final = (0, 1)


def _round_data(c0: int, c1: int, w: int) -> dict[str, Any]:
    """The data of a round's reveal (events.py: "round"): the seats, the cards, the winner and loser on a win."""
    data: dict[str, Any] = {"seats": [0, 1], "round": 0, "cards": [_TEXT[c0], _TEXT[c1]]}
    if w >= 0:
        data["winner"], data["loser"] = w, 1 - w
    return data


def _draw_words(card: int, shuffled: int) -> tuple[str, str]:
    """A draw as everyone reads it and as the drawer reads it, after the drawer's
    name (RR-5: a reshuffle first if the deck was empty)."""
    if card < 0:
        return "has no card to draw", "has no card to draw"
    head = f"shuffles its discard pile of {N_CARDS[shuffled]} into a new deck and draws" if shuffled else "draws"
    return f"{head} a card", f"{head} {TEXT[card]}"


@cache
def discard_table(value: OptionValue) -> tuple[int, int, int]:
    """The ``discards`` option ``"low,middle,high"`` as three ints (RR-2)."""
    low, middle, high = (int(x) for x in str(value).split(","))
    return low, middle, high


_CHOSEN: Final = "{seat} has chosen a card (hidden until both have chosen)"
_DEALT: Final = f"{{seats.0}} and {{seats.1}} shuffle their decks and draw {HAND_SIZE} cards each"
# read in every action of a playout: held here, the compiled module reads them without a lookup by name
_PLAYS: Final = A.PLAYS
_NEW, _PUT, _ACTION, _WORDED, _DISCARD = A.new_action, A.set_field, A.RoyaleAction, A.WORDED, A.DISCARD


class RoyaleState(State):
    """A game of Rank Royale between seats 0 and 1."""

    game: RoyaleGame

    def __init__(self, game: RoyaleGame, options: dict[str, OptionValue], seed: int, *, shell: bool = False) -> None:
        if shell:
            return
        self._init_base(game, 2, options, seed)
        self.rng = Rng(seed)
        self.table = discard_table(options["discards"])
        self.limit: int | None = None if options["max_rounds"] is None else int(options["max_rounds"])
        self.loose = False  # loaded without the per-player checks (a hand may repeat a card)
        self.hands: list[list[int]] = [[], []]  # sorted by code
        self.decks: list[list[int]] = [[], []]  # top card last (a draw is a pop); JSON and places: top first
        self.piles: list[list[int]] = [[], []]  # discard piles, oldest first (views and positions: top first)
        self.phase = PLAY
        self.round = 1
        self.loser = -1  # the seat that must discard (DISCARD phase)
        self.owe = 0
        self._rounds: list[LogEntry] = []  # one public entry per round (``rounds_log``)
        self.reshuffles = [0, 0]
        # cards everyone knows a seat holds: its whole hand at its last reshuffle, less what it has played since
        self.known: list[list[int]] = [[], []]
        self.winner: int | None = None
        self.end_reason: str | None = None

    def _start(self) -> None:
        rng = self.rng
        for s in (0, 1):  # each shuffles its deck (the shuffled order from the top) and draws six from the top
            deck = list(DECK)
            rng.shuffle(deck)
            deck.reverse()
            self.hands[s] = sorted(deck[-HAND_SIZE:])
            del deck[-HAND_SIZE:]
            self.decks[s] = deck
        self.log_event(None, "deal", _DEALT, {"seats": [0, 1], "count": HAND_SIZE})

    @property
    def rounds_log(self) -> list[JSON]:
        """The public record of the rounds, one JSON object per round (a fresh copy)."""
        return [thaw_entry(e) for e in self._rounds]

    def _shell(self) -> Self:
        return type(self)(self.game, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        assert isinstance(new, RoyaleState)
        h, d, p, k = self.hands, self.decks, self.piles, self.known
        new.hands = [h[0][:], h[1][:]]
        new.decks = [d[0][:], d[1][:]]
        new.piles = [p[0][:], p[1][:]]
        new.known = [k[0][:], k[1][:]]
        new.reshuffles = self.reshuffles[:]
        new._rounds = self._rounds[:]
        new.table, new.limit, new.loose = self.table, self.limit, self.loose
        new.phase, new.round = self.phase, self.round
        new.loser, new.owe, new.winner, new.end_reason = self.loser, self.owe, self.winner, self.end_reason

    # -- decisions ---------------------------------------------------------------
    def _actors(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (0, 1)  # RR-3: a secret simultaneous choice
        if self.phase == DISCARD:
            return (self.loser,)
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def _listed_hand(self, seat: int) -> list[int]:
        """The cards ``_legal`` lists the choices of (a loose position's hand once each)."""
        hand = self.hands[seat]
        return sorted(set(hand)) if self.loose else hand

    def _legal(self, seat: int) -> list[Action]:
        hand = self._listed_hand(seat)
        if self.phase == PLAY:
            plays = _PLAYS
            return [plays[c] for c in hand]
        if self.phase == DISCARD and seat == self.loser:
            # A.discard_sorted written out: a call of it per discard listed is a Python call in the
            # compiled build (actions.py is not compiled), the most of a random playout's discard decision
            new, put, cls = _NEW, _PUT, _ACTION
            out: list[Action] = []
            for combo in combinations(hand, self.owe):
                act = new(cls)
                put(act, "cards", combo)
                out.append(act)
            return out
        return []

    def _random_action(self, seat: int, rng: Rng) -> Action:
        # what _legal lists at the drawn index, found without listing the others: a play is the card
        # of the hand at that index, a discard the combination (combinations' order)
        hand = self._listed_hand(seat)
        if self.phase == PLAY:
            return _PLAYS[hand[rng.below(len(hand))]]
        if self.phase != DISCARD or seat != self.loser:
            return State._random_action(self, seat, rng)
        cards = nth_combination(hand, self.owe, rng.below(binomial(len(hand), self.owe)))
        act = _NEW(_WORDED)  # worded now: the playout reads its text at once
        _PUT(act, "cards", cards)
        _PUT(act, "kind", _DISCARD)
        _PUT(act, "text", "discard " + " ".join([_TEXT[c] for c in cards]))
        return act

    def refusal(self, seat: int, action: Action) -> str | None:
        """RR-3 and RR-4 for one action: why it is refused, None if it is legal (the rules'
        one statement; ``_legal`` lists exactly what it allows, which the tests check)."""
        assert isinstance(action, A.RoyaleAction)
        hand = self.hands[seat]
        if self.phase == PLAY:
            if action.kind != "play":
                return Refusal("play_phase", "this is the play phase: choose one card from your hand, like '7H'")
        elif self.phase == DISCARD and seat == self.loser:
            if action.kind != "discard":
                return Refusal(
                    "must_discard",
                    f"you lost on tier and must discard {N_CARDS[self.owe]}, like 'discard 3C 9S'",
                    {"count": self.owe},
                )
        else:
            return Refusal("not_your_decision", "not your decision now")
        if len(set(action.cards)) != len(action.cards):
            return Refusal("card_twice", "a card is listed twice")
        missing = [_TEXT[c] for c in action.cards if c not in hand]
        if missing:
            return Refusal(
                "not_in_hand",
                f"you do not hold {', '.join(missing)} (hand: {' '.join(texts(hand)) or 'empty'})",
                {"cards": missing, "hand": list(texts(hand))},
            )
        if action.kind == "discard" and len(action.cards) != self.owe:
            return Refusal(
                "discard_count",
                f"you must discard exactly {N_CARDS[self.owe]}, not {len(action.cards)} (RR-2, RR-4)",
                {"count": self.owe, "given": len(action.cards)},
            )
        return None

    def _committed(self, seat: int, action: Action) -> None:
        # RR-3: the other seat learns that a card was chosen, never which, until both have chosen
        text = action.text
        self.log_event(
            seat,
            "commit",
            _CHOSEN,
            {"seat": seat},
            _Seen(seat, text, None, -1, -1),
        )

    def _resolve(self, actions: dict[int, Action]) -> None:
        # One event per action (the engine's log): the reveal with its outcome, and whatever
        # follows in the same action (the whole hand discarded, the draws), in one sentence.
        if self.phase == DISCARD:
            act: A.RoyaleAction = actions[self.loser]  # type: ignore[assignment]
            seat = self.loser
            shown = self._discard(seat, act.cards)
            self._end_round(
                "discard", "{seat} discards " + shown, {"seats": [0, 1], "seat": seat, "cards": shown.split()}, seat
            )
            return
        c0: int = actions[0].cards[0]  # type: ignore[attr-defined]
        c1: int = actions[1].cards[0]  # type: ignore[attr-defined]
        hands, piles, known = self.hands, self.piles, self.known
        hands[0].remove(c0)
        hands[1].remove(c1)
        piles[0].append(c0)
        piles[1].append(c1)
        if known[0] or known[1]:
            self._forget(0, (c0,))
            self._forget(1, (c1,))
        # RR-4: tier win, rank win or tie; the reveal is the first event to name either card (RR-3)
        outcome, w, win_tier, items, words = DUELS[c0 * 52 + c1]
        k = 0 if win_tier < 0 else self.table[win_tier]
        data = _round_data(c0, c1, w)
        data["round"] = self.round
        entry: LogEntry = (("round", self.round), items[0], items[1], items[2], items[3], ("discard", k), NO_DISCARDS)
        if outcome == "tier":
            loser = 1 - w
            held = len(hands[loser])
            if k > held:  # RR-4: cannot discard, loses at once
                self._rounds.append((*entry, ("lost", True)))
                data["discard"], data["held"] = k, held
                self.log_event(
                    None,
                    "round",
                    f"Round {self.round}: {words} {N_CARDS[k]} but holds {held}, "
                    "so {loser} loses and {winner} wins",
                    data,
                )
                self._finish(w, COULD_NOT_DISCARD)
                return
            self._rounds.append(entry)
            if k < held:
                data["discard"] = k
                self.log_event(None, "round", f"Round {self.round}: {words} {N_CARDS[k]}", data)
                self.phase, self.loser, self.owe = DISCARD, loser, k
                return
            # no choice to make: the whole hand goes
            shown = self._discard(loser, tuple(hands[loser]))
            data["discard"], data["discarded"] = k, shown.split()
            self._end_round("round", f"Round {self.round}: {words} {N_CARDS[k]}, its whole hand: {shown}", data)
            return
        self._rounds.append(entry)
        if outcome == "tie":
            self._end_round("round", f"Round {self.round}: {words}", data)
            return
        card, shuffled = self._draw(w)  # RR-4: the higher rank draws
        said, seen = _draw_words(card, shuffled)
        self._end_round(
            "round",
            f"Round {self.round}: {words} and {said}",
            data,
            None,
            f"Round {self.round}: {words} and {seen}",
            w,
            card,
        )

    def _forget(self, seat: int, cards: tuple[int, ...]) -> None:
        known = self.known[seat]
        for c in cards:
            if c in known:
                known.remove(c)

    def _discard(self, seat: int, cards: tuple[int, ...]) -> str:
        """Discard ``cards`` (in card order) from ``seat``'s hand; return them as text (discards are public)."""
        hand, pile = self.hands[seat], self.piles[seat]
        for c in cards:
            hand.remove(c)
        pile.extend(cards)
        if self.known[seat]:
            self._forget(seat, cards)
        shown = tuple([_TEXT[c] for c in cards])
        item = ("discarded", shown)
        last = self._rounds[-1]
        self._rounds[-1] = tuple(item if kv[0] == "discarded" else kv for kv in last)
        self.loser, self.owe = -1, 0
        return " ".join(shown)

    def _draw(self, seat: int) -> tuple[int, int]:
        """Draw one card (RR-5): (the card or -1 if there is none to draw, and the number
        of cards of the discard pile shuffled into a new deck first because the deck was empty, or 0)."""
        shuffled = 0
        if not self.decks[seat]:
            if not self.piles[seat]:
                return -1, 0
            deck = self.piles[seat]
            self.rng.shuffle(deck)
            deck.reverse()  # the shuffled order from the top, the top last
            self.decks[seat], self.piles[seat] = deck, []
            self.reshuffles[seat] += 1
            # every card not in the pile was in the hand: now public (see worlds.py)
            self.known[seat] = list(self.hands[seat])
            shuffled = len(deck)
        card = self.decks[seat].pop()
        insert_in_order(self.hands[seat], card)
        return card, shuffled

    def _end_round(
        self,
        kind: str,
        said: str,
        data: dict[str, Any],
        actor: int | None = None,
        seen: str | None = None,
        reader: int = -1,
        card: int = -1,
    ) -> None:
        """RR-5: each player draws one card; RR-6: the optional round limit. ``said`` is
        what the action did before the draws (by ``actor``, None for a reveal; ``seen``:
        its wording for seat ``reader``); the event adds the draws, each drawer reading
        its own card. ``kind`` and ``data``: the event's (events.py), ``card`` the one ``reader`` drew
        before the draws, which its secret data adds as ``drawn``."""
        d0, d1 = self.decks
        if d0 and d1:
            h0, h1 = self.hands
            a, b = d0.pop(), d1.pop()
            insert_in_order(h0, a)
            insert_in_order(h1, b)
            secret: Mapping[int, tuple[str, Mapping[str, Any]]]
            if seen is None:  # the usual round: each seat reads its own draw (worded when a view asks: _Seen)
                secret = _Seen(-1, said, data, a, b)
            else:
                secret = {
                    s: (
                        f"{seen if s == reader else said}; {DRAWS_SEEN[s][c]}",
                        {**data, "drawn": [_TEXT[x] for x in ((card, c) if s == reader else (c,)) if x >= 0]},
                    )
                    for s, c in ((0, a), (1, b))
                }
            self.log_event(actor, kind, f"{said}; {BOTH_DRAW}", data, secret)
        else:
            (a, sa), (b, sb) = self._draw(0), self._draw(1)
            (p0, o0), (p1, o1) = _draw_words(a, sa), _draw_words(b, sb)
            own = (a, b)
            secret = {
                s: (
                    f"{seen if s == reader and seen else said}; {{seats.0}} {o0 if s == 0 else p0}; "
                    f"{{seats.1}} {o1 if s == 1 else p1}",
                    {
                        **data,
                        "drawn": [_TEXT[c] for c in ((card, own[s]) if s == reader and seen else (own[s],)) if c >= 0],
                    },
                )
                for s in (0, 1)
            }
            self.log_event(actor, kind, f"{said}; {{seats.0}} {p0}; {{seats.1}} {p1}", data, secret)
        limit = self.limit
        if limit is not None and self.round >= limit:
            self.log_event(
                None, "round_limit", f"The round limit ({limit}) is reached: the game is a draw", {"limit": limit}
            )
            self._finish(None, ROUND_LIMIT)
            return
        self.round += 1
        self.phase = PLAY

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase, self.winner, self.end_reason = OVER, winner, reason
        self.loser, self.owe = -1, 0

    # -- results and views ----------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        w = self.winner
        details = {"rounds": len(self._rounds), "reason": self.end_reason, "score": "1 for a win, 0 otherwise"}
        if w is None:
            return Result(winner=None, ranking=(0, 1), scores=(0, 0), details=details)
        return Result(winner=w, ranking=(w, 1 - w), scores=(1, 0) if w == 0 else (0, 1), details=details)

    def view(self, seat: int | None) -> JSON:
        res = self.result()
        hands, piles = self.hands, self.piles
        return {
            "game": self.game.name,
            "seat": seat,
            "num_players": 2,
            "options": dict(self.options),
            "version": self.version,
            "round": self.round,
            "phase": self.phase,
            "to_move": list(self.to_move()),
            "turn": None,  # both decide at once (RR-3); a discard is the loser's alone (owed)
            "hand": [] if seat is None else texts(hands[seat]),
            "discard_table": dict(zip(TIER_NAMES, self.table, strict=True)),
            "tiers": dict(TIER_OF_RANK),
            "players": [
                {
                    "seat": s,
                    "hand_size": len(hands[s]),
                    "deck_size": len(self.decks[s]),
                    "discard": texts(piles[s][::-1]),
                    "reshuffles": self.reshuffles[s],
                    "known_cards": texts(self.known[s]),
                }
                for s in (0, 1)
            ],
            "owed": {"seat": self.loser, "count": self.owe} if self.phase == DISCARD else None,
            "rounds_log": self.rounds_log,
            "log": self.log_view(seat),
            "pending": self.pending_view(seat),
            "result": None if res is None else res.to_json(),
        }

    # -- cards by place (conformance) -------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for s in (0, 1):
            places[f"hand:{s}"] = texts(self.hands[s])
            places[f"deck:{s}"] = texts(self.decks[s][::-1])  # top card first
            places[f"discard:{s}"] = texts(self.piles[s][::-1])  # top card first, as in positions
        return places

    def deck(self) -> list[str]:
        return [_TEXT[c] for _ in (0, 1) for c in DECK]

    def hidden_places(self, seat: int | None) -> list[str]:
        return [f"hand:{s}" for s in (0, 1) if s != seat] + ["deck:0", "deck:1"]

    def replace_places(self, places: Mapping[str, list[str]]) -> RoyaleState:
        data = self.to_json()
        keys = {"hand": "hands", "deck": "decks", "discard": "discard"}
        for name, cards in places.items():
            kind, seat = name.split(":")
            data[keys[kind]][int(seat)] = list(cards)
        return self.game.load(data, strict=False)

    def invariants(self) -> list[str]:
        problems = []
        for s in (0, 1):
            own = Counter(self.hands[s] + self.decks[s] + self.piles[s])
            if own != Counter(DECK):
                problems.append(f"seat {s}'s hand, deck and discard pile are not one 52-card deck")
        if self.phase == PLAY and not all(self.hands):
            problems.append("a player must play but holds no card")
        return problems

    # -- JSON ------------------------------------------------------------------------------
    def _to_json(self) -> JSON:
        return {
            "rng": self.rng.state,
            "phase": self.phase,
            "round": self.round,
            "hands": [texts(h) for h in self.hands],
            "decks": [texts(d[::-1]) for d in self.decks],  # top card first
            "discard": [texts(p[::-1]) for p in self.piles],
            "owed": {"seat": self.loser, "count": self.owe} if self.phase == DISCARD else None,
            "rounds_log": self.rounds_log,
            "reshuffles": list(self.reshuffles),
            "known_cards": [texts(k) for k in self.known],
            "winner": self.winner,
            "end_reason": self.end_reason,
        }


class _Seen(Mapping[int, tuple[str, Mapping[str, Any]]]):
    """The secret records of an event (``courtcards.core.events``), worded only when a view asks:
    for ``seat`` >= 0, its choice ``said`` (RR-3: a commit); else each seat's own draw of a round's
    event (RR-5: seat 0 drew ``a``, seat 1 ``b``) after ``said``, its public words, and ``data``."""

    __slots__ = ("a", "b", "data", "records", "said", "seat")

    def __init__(self, seat: int, said: str, data: dict[str, Any] | None, a: int, b: int) -> None:
        self.seat, self.said, self.data, self.a, self.b = seat, said, data, a, b
        self.records: dict[int, tuple[str, Mapping[str, Any]]] | None = None

    def _records(self) -> dict[int, tuple[str, Mapping[str, Any]]]:
        if self.records is None:  # made once, when a view first asks
            said, seat, data = self.said, self.seat, self.data
            if data is None:
                self.records = {
                    seat: (
                        "{seat} chooses " + said + " (hidden until both have chosen)",
                        {"seat": seat, "action": said},
                    )
                }
            else:
                a, b = self.a, self.b
                self.records = {
                    0: (f"{said}; {DRAWS_SEEN[0][a]}", {**data, "drawn": [_TEXT[a]]}),
                    1: (f"{said}; {DRAWS_SEEN[1][b]}", {**data, "drawn": [_TEXT[b]]}),
                }
        return self.records

    def __getitem__(self, seat: int) -> tuple[str, Mapping[str, Any]]:
        return self._records()[seat]

    def get(self, seat: int, default: Any = None) -> Any:
        return self._records().get(seat, default)

    def __contains__(self, seat: object) -> bool:
        return seat in (0, 1) if self.data is not None else seat == self.seat

    def __iter__(self) -> Iterator[int]:
        return iter(self._records())

    def __len__(self) -> int:
        return 2 if self.data is not None else 1

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # by its arguments: the compiled class pickles no slots
        return _Seen, (self.seat, self.said, self.data, self.a, self.b)
