"""Rank Royale's rules engine (rulebook 003, rulings RR-1 to RR-6).

A round: both players choose a card in secret (a simultaneous decision, RR-3);
the cards are revealed and compared (RR-1, RR-4); a tier loser may have to
choose discards (a decision of the loser alone); then each player draws one
card (RR-5).
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Mapping
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeAlias

from courtcards.core.errors import PositionError
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State
from courtcards.games.royale import actions as A
from courtcards.games.royale.cards import DECK, TEXT, TIER_NAMES, beats, parse_card, rank, texts, tier

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue
    from courtcards.games.royale.game import RoyaleGame

HAND_SIZE = 6
PLAY, DISCARD, OVER = "play", "discard", "over"
PHASES = (PLAY, DISCARD, OVER)
COULD_NOT_DISCARD, ROUND_LIMIT = "could_not_discard", "round_limit"


#: a public log entry, frozen: its JSON object's items with lists as tuples
LogEntry: TypeAlias = tuple[tuple[str, Any], ...]
LOG_KEYS = ("round", "cards", "tiers", "outcome", "winner", "discard", "discarded", "lost")


def freeze_entry(entry: Mapping[str, Any]) -> LogEntry:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in entry.items())


def thaw_entry(entry: LogEntry) -> JSON:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in entry}


NO_DISCARDS = ("discarded", ())


LogItem: TypeAlias = tuple[str, Any]


def _duel(c0: int, c1: int) -> tuple[str, int, int, tuple[LogItem, ...]]:
    """RR-4 for two cards: (outcome, winner or -1, winning tier if discards are owed
    else -1, and the log's cards, tiers, outcome and winner items)."""
    r0, r1, t0, t1 = rank(c0), rank(c1), tier(c0), tier(c1)
    if r0 == r1:
        outcome, w, win_tier = "tie", -1, -1
    elif t0 == t1:
        outcome, w, win_tier = "rank", 0 if r0 > r1 else 1, -1
    else:
        w = 0 if beats(t0, t1) else 1
        outcome, win_tier = "tier", (t0, t1)[w]
    cards, tiers = ("cards", (TEXT[c0], TEXT[c1])), ("tiers", (TIER_NAMES[t0], TIER_NAMES[t1]))
    return outcome, w, win_tier, (cards, tiers, ("outcome", outcome), ("winner", None if w < 0 else w))


DUELS = tuple(_duel(c0, c1) for c0 in DECK for c1 in DECK)


@cache
def discard_table(value: OptionValue) -> tuple[int, int, int]:
    """The ``discards`` option ``"low,middle,high"`` as three ints (RR-2)."""
    low, middle, high = (int(x) for x in str(value).split(","))
    return low, middle, high


class RoyaleState(State):
    """A game of Rank Royale between seats 0 and 1."""

    game: RoyaleGame

    def __init__(self, game: RoyaleGame, options: dict[str, OptionValue], seed: int) -> None:
        self._init_base(game, 2, options, seed)
        self.rng = Rng(seed)
        self.table = discard_table(options["discards"])
        self.limit: int | None = None if options["max_rounds"] is None else int(options["max_rounds"])
        self.loose = False  # loaded without the per-player checks (a hand may repeat a card)
        self.hands: list[list[int]] = [[], []]  # sorted by code
        self.decks: list[list[int]] = [[], []]  # top card first
        self.piles: list[list[int]] = [[], []]  # discard piles, oldest first
        self.phase = PLAY
        self.round = 1
        self.loser = -1  # the seat that must discard (DISCARD phase)
        self.owe = 0
        self._log: list[LogEntry] = []  # one public entry per round
        self.reshuffles = [0, 0]
        # cards everyone knows a seat holds: its whole hand at its last reshuffle, less what it has played since
        self.known: list[list[int]] = [[], []]
        self.winner: int | None = None
        self.end_reason: str | None = None

    def _start(self) -> None:
        self.decks = [list(DECK), list(DECK)]
        for deck in self.decks:
            self.rng.shuffle(deck)
        for s in (0, 1):  # each draws six from the top
            deck = self.decks[s]
            self.hands[s] = sorted(deck[:HAND_SIZE])
            del deck[:HAND_SIZE]

    @property
    def log(self) -> list[JSON]:
        """The public log, one JSON object per round (a fresh copy)."""
        return [thaw_entry(e) for e in self._log]

    def _copy_into(self, new: State) -> None:
        assert isinstance(new, RoyaleState)
        h, d, p, k = self.hands, self.decks, self.piles, self.known
        new.hands = [h[0][:], h[1][:]]
        new.decks = [d[0][:], d[1][:]]
        new.piles = [p[0][:], p[1][:]]
        new.known = [k[0][:], k[1][:]]
        new.reshuffles = self.reshuffles[:]
        new._log = self._log[:]

    # -- decisions ---------------------------------------------------------------
    def _actors(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (0, 1)  # RR-3: a secret simultaneous choice
        if self.phase == DISCARD:
            return (self.loser,)
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if self.loose:
            hand = sorted(set(hand))
        if self.phase == PLAY:
            plays = A.PLAYS
            return [plays[c] for c in hand]
        if self.phase == DISCARD and seat == self.loser:
            make = A.RoyaleAction
            return [make((A.DISCARD, *combo)) for combo in combinations(hand, self.owe)]
        return []

    def explain_illegal(self, seat: int, action: Action) -> str:
        assert isinstance(action, A.RoyaleAction)
        hand = self.hands[seat]
        if self.phase == PLAY and action.kind != "play":
            return "this is the play phase: choose one card from your hand, like '7H'"
        if self.phase == DISCARD and action.kind != "discard":
            return f"you lost on tier and must discard {self.owe} card(s), like 'discard 3C 9S'"
        missing = [TEXT[c] for c in action.cards if c not in hand]
        if missing:
            return f"you do not hold {', '.join(missing)} (hand: {' '.join(texts(hand)) or 'empty'})"
        if action.kind == "discard" and len(action.cards) != self.owe:
            return f"you must discard exactly {self.owe} card(s), not {len(action.cards)} (RR-2, RR-4)"
        return "not a legal action now"

    def _resolve(self, actions: dict[int, Action]) -> None:
        if self.phase == DISCARD:
            act: A.RoyaleAction = actions[self.loser]  # type: ignore[assignment]
            self._discard(self.loser, act.cards)
            self._end_round()
            return
        c0: int = actions[0][1]  # type: ignore[index]
        c1: int = actions[1][1]  # type: ignore[index]
        hands, piles, known = self.hands, self.piles, self.known
        hands[0].remove(c0)
        hands[1].remove(c1)
        piles[0].append(c0)
        piles[1].append(c1)
        if known[0] or known[1]:
            self._forget(0, (c0,))
            self._forget(1, (c1,))
        # RR-4: tier win, rank win or tie
        outcome, w, win_tier, items = DUELS[c0 * 52 + c1]
        k = 0 if win_tier < 0 else self.table[win_tier]
        entry: LogEntry = (("round", self.round), *items, ("discard", k), NO_DISCARDS)
        if outcome == "tier":
            loser = 1 - w
            held = len(hands[loser])
            if k > held:  # RR-4: cannot discard, loses at once
                self._log.append((*entry, ("lost", True)))
                self._finish(w, COULD_NOT_DISCARD)
                return
            self._log.append(entry)
            if k < held:
                self.phase, self.loser, self.owe = DISCARD, loser, k
                return
            self._discard(loser, tuple(hands[loser]))  # no choice to make: the whole hand goes
        else:
            self._log.append(entry)
            if outcome == "rank":
                self._draw(w)
        self._end_round()

    def _forget(self, seat: int, cards: tuple[int, ...]) -> None:
        known = self.known[seat]
        for c in cards:
            if c in known:
                known.remove(c)

    def _discard(self, seat: int, cards: tuple[int, ...]) -> None:
        """Discard ``cards`` (in card order) from ``seat``'s hand."""
        hand, pile = self.hands[seat], self.piles[seat]
        for c in cards:
            hand.remove(c)
        pile.extend(cards)
        if self.known[seat]:
            self._forget(seat, cards)
        item = ("discarded", tuple([TEXT[c] for c in cards]))
        last = self._log[-1]
        self._log[-1] = tuple(item if kv[0] == "discarded" else kv for kv in last)
        self.loser, self.owe = -1, 0

    def _draw(self, seat: int) -> None:
        """Draw one card; an empty deck is first rebuilt from the discard pile (RR-5)."""
        if not self.decks[seat]:
            if not self.piles[seat]:
                return
            deck = self.piles[seat]
            self.rng.shuffle(deck)
            self.decks[seat], self.piles[seat] = deck, []
            self.reshuffles[seat] += 1
            # every card not in the pile was in the hand: now public (see worlds.py)
            self.known[seat] = list(self.hands[seat])
        insort(self.hands[seat], self.decks[seat].pop(0))

    def _end_round(self) -> None:
        """RR-5: each player draws one card; RR-6: the optional round limit."""
        d0, d1 = self.decks
        if d0 and d1:
            h0, h1 = self.hands
            insort(h0, d0.pop(0))
            insort(h1, d1.pop(0))
        else:
            self._draw(0)
            self._draw(1)
        limit = self.limit
        if limit is not None and self.round >= limit:
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
        details = {"rounds": len(self._log), "reason": self.end_reason, "score": "1 for a win, 0 otherwise"}
        if w is None:
            return Result(winner=None, ranking=(0, 1), scores=(0, 0), details=details)
        return Result(winner=w, ranking=(w, 1 - w), scores=(1, 0) if w == 0 else (0, 1), details=details)

    def view(self, seat: int | None) -> JSON:
        res = self.result()
        v: JSON = {
            "game": "royale",
            "seat": seat,
            "num_players": 2,
            "options": dict(self.options),
            "version": self.version,
            "round": self.round,
            "phase": self.phase,
            "to_move": list(self.to_move()),
            "discard_table": dict(zip(TIER_NAMES, self.table, strict=True)),
            "players": [
                {
                    "seat": s,
                    "hand_size": len(self.hands[s]),
                    "deck_size": len(self.decks[s]),
                    "discard_pile": texts(self.piles[s]),
                    "reshuffles": self.reshuffles[s],
                    "known_cards": texts(self.known[s]),
                }
                for s in (0, 1)
            ],
            "owed": {"seat": self.loser, "count": self.owe} if self.phase == DISCARD else None,
            "log": self.log,
            "pending": self.pending_view(seat),
            "result": None if res is None else res.to_json(),
        }
        if seat is not None:
            v["hand"] = texts(self.hands[seat])
        return v

    # -- cards by place (conformance) -------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for s in (0, 1):
            places[f"hand:{s}"] = texts(self.hands[s])
            places[f"deck:{s}"] = texts(self.decks[s])
            places[f"discard:{s}"] = texts(self.piles[s])
        return places

    def deck(self) -> list[str]:
        return [TEXT[c] for _ in (0, 1) for c in DECK]

    def hidden_places(self, seat: int | None) -> list[str]:
        return [f"hand:{s}" for s in (0, 1) if s != seat] + ["deck:0", "deck:1"]

    def replace_places(self, places: Mapping[str, list[str]]) -> RoyaleState:
        data = self.to_json()
        keys = {"hand": "hands", "deck": "decks", "discard": "discard_piles"}
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
            "decks": [texts(d) for d in self.decks],
            "discard_piles": [texts(p) for p in self.piles],
            "owed": {"seat": self.loser, "count": self.owe} if self.phase == DISCARD else None,
            "log": self.log,
            "reshuffles": list(self.reshuffles),
            "known_cards": [texts(k) for k in self.known],
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    def load_json(self, data: Mapping[str, Any], strict: bool = True) -> None:
        """Fill this state from full-state JSON or an explicit position.

        Only ``hands`` is required. Missing ``decks``: each player's cards not
        in hand or discard pile, shuffled with the seed. Missing
        ``discard_piles``: each player's cards not in hand or deck. ``strict``
        (always, except for the conformance suite's resampled copies) checks
        that each player's cards are exactly one 52-card deck."""

        def card_lists(key: str) -> list[list[int]] | None:
            raw = data.get(key)
            if raw is None:
                return None
            if not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(x, list) for x in raw):
                raise PositionError(f"{key!r} must be two lists of cards (seat 0, seat 1), not {raw!r}")
            try:
                return [[parse_card(str(t)) for t in cards] for cards in raw]
            except Exception as exc:
                raise PositionError(f"{key!r}: {exc}") from None

        if "rng" in data:
            self.rng.state = int(data["rng"])
        hands = card_lists("hands")
        if hands is None:
            raise PositionError("a Rank Royale position needs 'hands': two lists of cards")
        decks, piles = card_lists("decks"), card_lists("discard_piles")
        new_decks: list[list[int]] = [[], []]
        new_piles: list[list[int]] = [[], []]
        for s in (0, 1):
            listed = hands[s] + (decks[s] if decks else []) + (piles[s] if piles else [])
            if strict:
                dupes = sorted(c for c, n in Counter(listed).items() if n > 1)
                if dupes:
                    raise PositionError(f"seat {s}: {' '.join(texts(dupes))} listed twice (each player has one deck)")
            seen = set(listed)
            rest = [c for c in DECK if c not in seen]
            new_piles[s] = piles[s] if piles else ([] if decks is None else rest)
            if decks is None:
                self.rng.shuffle(rest)
                new_decks[s] = rest
            else:
                new_decks[s] = decks[s]
                if strict and piles is not None and rest:
                    raise PositionError(f"seat {s}: cards in no place: {' '.join(texts(rest))}")
        if not strict:
            self.loose = True
            lists = (hands, new_decks, new_piles)
            total = Counter(c for group in lists for cards in group for c in cards)
            if total != Counter(DECK * 2):
                raise PositionError("the cards in the position are not two 52-card decks")
        self.decks, self.piles = new_decks, new_piles
        self.hands = [sorted(h) for h in hands]
        self.phase = str(data.get("phase", PLAY))
        if self.phase not in PHASES:
            raise PositionError(f"unknown phase {self.phase!r} (phases: {', '.join(PHASES)})")
        self.round = int(data.get("round", 1))
        owed = data.get("owed")
        if self.phase == DISCARD:
            if not isinstance(owed, Mapping) or owed.get("seat") not in (0, 1):
                raise PositionError("a discard phase needs 'owed': {\"seat\": 0 or 1, \"count\": n}")
            self.loser, self.owe = int(owed["seat"]), int(owed.get("count", 0))
            if strict and not 1 <= self.owe <= len(self.hands[self.loser]):
                raise PositionError(f"seat {self.loser} cannot owe {self.owe} card(s) holding "
                                    f"{len(self.hands[self.loser])} (RR-4)")
        self._log = [freeze_entry(e) for e in _log_entries(data.get("log", []))]
        if self.phase == DISCARD and not self._log:
            self._log.append(freeze_entry({"round": self.round, "cards": [], "tiers": [], "outcome": "tier",
                                           "winner": 1 - self.loser, "discard": self.owe, "discarded": []}))
        self.reshuffles = [int(x) for x in data.get("reshuffles", [0, 0])]
        known = card_lists("known_cards") or [[], []]
        self.known = [sorted(k) for k in known]
        if strict and not all(set(k) <= set(h) for k, h in zip(self.known, self.hands, strict=True)):
            raise PositionError("'known_cards' must be cards in the same player's hand")
        self.winner = data.get("winner")
        self.end_reason = data.get("end_reason")
        if strict and self.phase == PLAY and not all(self.hands):
            raise PositionError("both players must hold a card in the play phase")


def _log_entries(raw: Any) -> list[Mapping[str, Any]]:
    """Check a loaded public log: a list of objects whose values are scalars or lists of scalars."""
    if not isinstance(raw, list):
        raise PositionError(f"'log' must be a list of round entries, not {raw!r}")
    for entry in raw:
        if not isinstance(entry, Mapping) or not all(isinstance(k, str) for k in entry):
            raise PositionError(f"a 'log' entry must be a JSON object, not {entry!r}")
        for key, value in entry.items():
            items = value if isinstance(value, list) else [value]
            if not all(v is None or isinstance(v, (str, int, float)) for v in items):
                raise PositionError(f"'log' entry {key!r}: {value!r} is not a value or a list of values")
    return raw
