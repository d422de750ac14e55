"""Rank's rules engine (rulebooks 001 and 000, rulings RK-1 to RK-16)."""

from __future__ import annotations

from itertools import combinations_with_replacement, compress
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Self, cast

from courtcards.core.climbing import Record, transfers_view
from courtcards.core.climbing import frozen_record as _frozen
from courtcards.core.climbing import thawed_record as _thawed
from courtcards.core.errors import PositionError, Refusal
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State
from courtcards.games.rank import actions as A
from courtcards.games.rank.cards import (
    CODES,
    CROWN,
    CROWN2,
    DECK_COUNTS,
    DOWN,
    NAMES,
    NCODES,
    NUMBERS,
    TEXT,
    UP,
    WILD,
    canonical,
    texts,
)
from courtcards.games.rank.hooks import STANDARD, RankHooks

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue
    from courtcards.games.rank.game import RankGame

HAND_SIZE = 15
KING, QUEEN, KNIGHT, BEGGAR = "king", "queen", "knight", "beggar"

# Phases
KINGS_HAND: Final = "kings_hand"  # the King may take the King's Hand (RK-14)
BENEFIT: Final = "benefit"  # the King chooses lead or steal (RK-12)
GIVE_BACK: Final = "give_back"  # after a steal, the King gives one card (RK-12)
EXCHANGE: Final = "exchange"  # Classic President give-backs, King and Queen at once (RK-13)
PLAY: Final = "play"
OVER: Final = "over"

# Classic President: what the Beggar hands over first (RK-13).
_PRESIDENT_ORDER = (CROWN, CROWN2, *range(12, 0, -1))

_NONE, _UP, _DOWN = 0, 1, 2

# _LEFT[n][seat]: the seats to the left of seat, in order, ending with seat itself (RK-3)
_LEFT: Final = {n: tuple(tuple((s + i) % n for i in range(1, n + 1)) for s in range(n)) for n in range(1, 13)}
_DECKS = {d: tuple(c for c in range(NCODES) for _ in range(DECK_COUNTS[c] * d)) for d in (1, 2)}


def _set_action(x: int, a: int, lift: int, w: int, mod: int) -> A.RankAction:
    """The play of ``a`` cards of value ``x`` (plus one ``x-1`` if ``lift``),
    ``w`` Wilds and an optional modifier."""
    cards = (x,) * a + (x - 1,) * lift + (WILD,) * w + ((UP,) if mod == _UP else (DOWN,) if mod == _DOWN else ())
    return A.make("play", cards)


# Following a pile of count k: _FOLLOW[shape][k][x][a] is the set of a x's (shape 3: plus
# one x-1) with Wilds making up the count; shapes 0 plain, 1 Rank-Up, 2 Rank-Down, 3 lifted.
_SHAPES = ((0, _NONE), (0, _UP), (0, _DOWN), (1, _UP))
_FOLLOW: Final[tuple[dict[int, list[list[A.RankAction]]], ...]] = ({}, {}, {}, {})


_PLACEHOLDER: Final = A.PASS  # index 0 of a row: never read
# Wilds alone: _WILDS[w] and _WILDS_UP[w] (with a Rank-Up)
_WILDS: Final = [_PLACEHOLDER] + [A.make("play", (WILD,) * w) for w in range(1, 9)]
_WILDS_UP: Final = [_PLACEHOLDER] + [A.make("play", (WILD,) * w + (UP,)) for w in range(1, 9)]


def _follow_rows(shape: int, k: int) -> list[list[A.RankAction]]:
    rows = _FOLLOW[shape].get(k)
    if rows is None:
        lift, mod = _SHAPES[shape]
        rows = _FOLLOW[shape][k] = [
            [_PLACEHOLDER] + [_set_action(x, a, lift, k - lift - a, mod) for a in range(1, k - lift + 1)]
            if x > lift
            else []
            for x in range(13)
        ]
    return rows


# Following a single: _PLAIN1[x] is x alone, _UP1[x] is x U, _DOWN1[x] is x D
_PLAIN1: Final = [_PLACEHOLDER] + [_set_action(x, 1, 0, 0, _NONE) for x in NUMBERS]
_UP1: Final = [_PLACEHOLDER] + [_set_action(x, 1, 0, 0, _UP) for x in NUMBERS]
_DOWN1: Final = [_PLACEHOLDER] + [_set_action(x, 1, 0, 0, _DOWN) for x in NUMBERS]
# the actions module's names that apply reads at every action
_PASS: Final = A.PASS
_PASSES: Final = [_PASS]

# Leading: _LEAD[(x, c, wilds, ups, lift, downs)] lists, for a = 1..c x's and w = 0..wilds
# Wilds, the sets of a x's plain, with a Rank-Up, lifted (one x-1 and a Rank-Up), with a Rank-Down.
_LEAD: Final[dict[tuple[int, int, int, bool, int, bool], list[A.RankAction]]] = {}


def _lead_block(key: tuple[int, int, int, bool, int, bool]) -> list[A.RankAction]:
    x, c, wilds, ups, lift, downs = key
    block = _LEAD[key] = []
    for a in range(1, c + 1):
        for w in range(wilds + 1):
            block.append(_set_action(x, a, 0, w, _NONE))
            if ups:
                block.append(_set_action(x, a, 0, w, _UP))
                if lift:
                    block.append(_set_action(x, a, 1, w, _UP))
            if downs:
                block.append(_set_action(x, a, 0, w, _DOWN))
    return block


def _nth_held(h: list[int], low: int, i: int) -> int:
    """The ``i``-th value from ``low`` up to 12 that the hand ``h`` holds (counts per card code)."""
    for x in range(low, 13):
        if h[x]:
            if i == 0:
                return x
            i -= 1
    raise AssertionError("fewer values held than counted")


_CROWN: Final = A.make("play", (CROWN,))
_CROWN2: Final = A.make("play", (CROWN2,))


def _crown(h: list[int], i: int) -> A.RankAction:
    """The ``i``-th Crown play listed for the hand ``h`` (counts per card code)."""
    return _CROWN if h[CROWN] and i == 0 else _CROWN2


def _slice_size(n: int, a: int, b: int) -> int:
    """``len(row[a:b])`` for a row of ``n`` (0 <= a), without making the slice."""
    return (b if b < n else n) - a if a < b and a < n else 0


_LONE_UP: Final = A.make("play", (UP,))
_LONE_DOWN: Final = A.make("play", (DOWN,))


def _canonical_cards(raw: Any) -> list[int] | None:
    """The codes of a list of cards in canonical text (what the engine writes), or None
    if it is anything else (then the caller reads it card by card through Fields)."""
    if not isinstance(raw, (list, tuple)):
        return None
    try:
        return [CODES[t] for t in raw]
    except (KeyError, TypeError):
        return None


_PLAY_TEXTS: dict[str, str] = {}


# -- the event log's words (courtcards.core.events): seats are "seat N" --------------------
_NUMBER_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_ROLE_WORDS = {KING: "King", QUEEN: "Queen", KNIGHT: "Knight", BEGGAR: "Beggar"}


def _set_words(count: int, value: int) -> str:
    """How a set reads: "a 9", "an 8", "three 8s" (RK-4: the engine knows its count and value)."""
    words = _SET_WORDS.get((count, value))
    if words is None:
        if count == 1:
            words = f"an {value}" if value in (8, 11) else f"a {value}"
        else:
            words = f"{_NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else count} {value}s"
        _SET_WORDS[(count, value)] = words
    return words


_SET_WORDS: Final[dict[tuple[int, int], str]] = {}
#: each seat's event data {"seat": s}, shared by its events (read-only: a view's log copies it)
_SEAT_DATA: Final = tuple({"seat": s} for s in range(12))
_ONE_SEAT: Final = tuple((s,) for s in range(12))
_CARD_LISTS: Final[dict[str, list[str]]] = {}


def _card_list(text: str) -> list[str]:
    """An action's cards as a list of card texts, for event data (one list per action text, shared)."""
    got = _CARD_LISTS.get(text)
    if got is None:
        got = _CARD_LISTS[text] = text.split()
    return got


#: (action text, seat) -> the data of that seat's ordinary play of that action, made once (read-only, like _SEAT_DATA)
_PLAY_DATA: Final[dict[tuple[str, int], dict[str, Any]]] = {}


def _play_data(text: str, seat: int) -> dict[str, Any]:
    got = _PLAY_DATA[(text, seat)] = {"seat": seat, "cards": _card_list(text)}
    return got


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _cards_words(k: int) -> str:
    return "a card" if k == 1 else f"{k} cards"


class RankState(State):
    """A game of Rank. Seats are 0..n-1; play goes to the left, seat i to i+1 (RK-3)."""

    game: RankGame

    def __init__(
        self, game: RankGame, num_players: int, options: dict[str, OptionValue], seed: int, *, shell: bool = False
    ) -> None:
        if shell:
            return
        self._init_base(game, num_players, options, seed)
        n = num_players
        self.decks = 2 if n >= 7 else 1  # RK-1
        self.rng = Rng(seed)
        self.hands: list[list[int]] = [[0] * NCODES for _ in range(n)]
        self.sizes = [0] * n
        self.draw: list[int] = []  # bottom .. top here (drawn with pop()); saved and shown top card first
        self.pile: list[int] = []  # every card played this round in the order put down; shown top card first
        self.top: tuple[int, ...] = ()
        self.pile_value = 0
        self.pile_count = 0
        self.owner = -1
        self.discard = [0] * NCODES
        self.kings_hand = [0] * NCODES
        self.set_aside = [0] * NCODES
        self.kh_choice: str | None = None
        self.passed = [False] * n
        self.turn = 0
        self.phase = PLAY
        self.finished: list[int] = []
        self.characters = [KNIGHT] * n
        self.tokens = [0] * n
        self.kings = [0] * n
        self.hand_number = 1
        self.hands_log: list[Record] = []  # read-only entries, see _frozen
        self.exchanges: list[Record] = []
        self.owed: dict[int, int] = {}
        self.round_log: list[tuple[int, str]] = []
        self.last_round: list[tuple[int, str]] = []  # the finished round's plays, public (RK-16)
        self.winner: int | None = None

    # -- setup ---------------------------------------------------------------------
    def _start(self) -> None:
        """First hand: characters at random, deal, the King leads (RK-2)."""
        n = self.num_players
        chars = [KING, QUEEN, BEGGAR] + [KNIGHT] * (n - 3)
        self.rng.shuffle(chars)
        self.characters = chars
        self._deal(dealer=chars.index(BEGGAR))

    def _deal(self, dealer: int) -> None:
        """Shuffle every card and deal 15 each (option hand_size), one at a time from the dealer's left (RK-12)."""
        n = self.num_players
        size = int(self.options.get("hand_size") or HAND_SIZE)
        deck = list(_DECKS[self.decks])
        self.rng.shuffle(deck)
        self.hands = [[0] * NCODES for _ in range(n)]
        pos = n * size
        for i in range(n):  # the i-th seat from the dealer's left gets deck[i], deck[i + n], ...
            hand = self.hands[(dealer + 1 + i) % n]
            for c in deck[i:pos:n]:
                hand[c] += 1
        self.sizes = [size] * n
        self.kings_hand = [0] * NCODES
        self.set_aside = [0] * NCODES
        self.kh_choice = None
        if self.options["kings_hand"]:
            for c in deck[pos : pos + size]:
                self.kings_hand[c] += 1
            pos += size
        self.draw = deck[pos:]
        self.discard = [0] * NCODES
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        self.passed = [False] * n
        self.finished = []
        self.exchanges = []
        self.owed = {}
        self.round_log = []
        extra = "; the King's Hand is dealt face down" if self.options["kings_hand"] else ""
        if self.hand_number == 1:  # RK-2: characters at random
            chars = ", ".join(f"{{characters.{i}}} {_ROLE_WORDS[r]}" for i, r in enumerate((KING, QUEEN, BEGGAR)))
            self.log_event(
                None,
                "deal",
                f"Hand 1: characters dealt at random: {chars}; {size} cards each, "
                f"{len(self.draw)} in the draw pile{extra}.",
                {
                    "hand": 1,
                    "characters": [self.characters.index(r) for r in (KING, QUEEN, BEGGAR)],
                    "cards": size,
                    "draw": len(self.draw),
                    "kings_hand": bool(extra),
                },
            )
        else:
            self.log_event(
                None,
                "deal",
                f"Hand {self.hand_number} is dealt: {size} cards each, {len(self.draw)} in the draw pile{extra}.",
                {"hand": self.hand_number, "cards": size, "draw": len(self.draw), "kings_hand": bool(extra)},
            )
        if self.options["kings_hand"]:
            self.phase = KINGS_HAND
            self.log_event(
                None,
                "kings_hand_offer",
                "The King ({seat}) may take the King's Hand.",
                {"seat": self.characters.index(KING)},
            )
        else:
            self._begin_benefit()

    def _begin_benefit(self) -> None:
        king = self.characters.index(KING)
        if self.hand_number == 1:
            self.log_event(None, "lead", "The King ({seat}) leads.", {"seat": king})
            self._begin_play(king)  # no benefit in the first hand (RK-2)
        elif self.options["classic_president"]:
            self._president_exchange()
        else:
            self.phase = BENEFIT
            self.log_event(
                None, "benefit", "The King ({seat}) chooses: lead, or steal from the Beggar.", {"seat": king}
            )

    def _president_exchange(self) -> None:
        """RK-13: the Beggar gives the King his two highest cards, the
        second-to-last gives the Queen one (4+ players); they give back at once."""
        king, queen, beggar = (self.characters.index(r) for r in (KING, QUEEN, BEGGAR))
        self._hand_over(beggar, king, 2)
        if self.num_players >= 4:
            second_last = self.hands_log[-1]["finish"][-2]
            self._hand_over(second_last, queen, 1)
        self.owed = {e["to"]: len(e["cards"]) for e in self.exchanges if e["cards"]}
        if self.owed:
            self.phase = EXCHANGE
        else:
            self.log_event(None, "lead", "The King ({seat}) leads.", {"seat": king})
            self._begin_play(king)

    def _hand_over(self, giver: int, taker: int, k: int) -> None:
        h = self.hands[giver]
        taken: list[int] = []
        for c in _PRESIDENT_ORDER:
            taken += [c] * min(h[c], k - len(taken))
        self._move(giver, taker, taken, "tax")

    def _move(self, giver: int, taker: int, cards: list[int], why: str) -> None:
        for c in cards:
            self.hands[giver][c] -= 1
            self.hands[taker][c] += 1
        self.sizes[giver] -= len(cards)
        self.sizes[taker] += len(cards)
        cards_text = tuple(TEXT[c] for c in canonical(cards))
        self.exchanges.append(MappingProxyType({"from": giver, "to": taker, "cards": cards_text, "why": why}))
        # RK-12 / RK-13 / RK-16: everyone learns how many; only the two seats see which
        public, seen = _cards_words(len(cards)), " ".join(cards_text)
        if why == "steal":
            text = "The King ({to}) steals {c} from the Beggar ({from})."
        elif why == "tax":
            text = "{from} hands {c} to {to} (Classic President)."
        else:
            text = "{from} gives {c} back to {to}."
        data: dict[str, Any] = {"from": giver, "to": taker, "count": len(cards)}
        told = (text.replace("{c}", seen), {**data, "cards": list(cards_text)})
        self.log_event(giver, why, text.replace("{c}", public), data, {giver: told, taker: told})

    def _begin_play(self, leader: int) -> None:
        self.phase = PLAY
        self._new_round(leader)

    def _new_round(self, leader: int) -> None:
        for c in self.pile:
            self.discard[c] += 1
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        self.passed = [False] * self.num_players
        if self.round_log:
            self.last_round = self.round_log
        self.round_log = []
        self.turn = leader

    # -- the core's fast path while one seat plays (State._single_mover, State._apply_one) --
    def _single_mover(self) -> int:
        return self.turn if self.phase == PLAY and not self.pending else -1

    def _apply_one(self, seat: int, action: Action) -> int:
        if self.phase != PLAY:
            self._resolve({seat: action})
        elif action is _PASS:
            self._pass(seat)
        else:
            self._play(seat, action)  # type: ignore[arg-type]
        return self.turn if self.phase == PLAY else -1  # _single_mover, inline (nothing is pending in play)

    # -- decisions -------------------------------------------------------------------
    def _actors(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (self.turn,)
        if self.phase == EXCHANGE:
            return tuple(sorted(self.owed))
        if self.phase == OVER:
            return ()
        return (self.characters.index(KING),)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_plays(seat)  # type: ignore[return-value]
        # the other phases: their few candidates, kept by the rules' own statement (_why_not)
        if phase == KINGS_HAND:
            candidates = [A.KEEP, A.SWAP]
        elif phase == BENEFIT:
            candidates = [A.LEAD, A.STEAL]
        elif phase in (GIVE_BACK, EXCHANGE):
            held = [c for c in range(1, NCODES) if self.hands[seat][c]]
            candidates = [
                A.make("give", canonical(combo)) for combo in combinations_with_replacement(held, self._owed(seat))
            ]
        else:
            return []
        return [a for a in candidates if self._why_not(seat, a) is None]

    def plays_with(self, seat: int, hand: list[int]) -> list[Action]:
        """A what-if for search bots testing a guessed hand against the moves seen: the plays ``seat``,
        to move in the play phase, would have here holding ``hand`` (counts per card code, as many
        cards as it holds) instead of its own. The state is unchanged."""
        if self.phase != PLAY or self.pending or seat != self.turn:
            raise PositionError(f"seat {seat} is not the one to play here")
        if len(hand) != NCODES or min(hand) < 0 or sum(hand) != self.sizes[seat]:
            raise PositionError(f"a hand of {self.sizes[seat]} cards as counts per card code is needed, not {hand!r}")
        own = self.hands[seat]
        self.hands[seat] = hand
        try:
            return self._legal_plays(seat)  # type: ignore[return-value]
        finally:
            self.hands[seat] = own

    def _owed(self, seat: int) -> int:
        """How many cards ``seat`` gives back now: one after a steal (RK-12), else what it owes (RK-13)."""
        return 1 if self.phase == GIVE_BACK else self.owed.get(seat, 0)

    # -- the rules for one action: why it is refused (None: legal) ------------------------
    def refusal(self, seat: int, action: Action) -> Refusal | None:
        if not isinstance(action, A.RankAction):
            return Refusal("not_this_game", f"{action.text!r} is not a Rank action", {"action": action.text})
        if seat not in self._actors():
            return Refusal("not_your_decision", f"seat {seat} has no decision now", {"seat": seat})
        return self._why_not(seat, action)

    def _why_not(self, seat: int, act: A.RankAction) -> Refusal | None:
        """Why ``seat`` (a seat with the decision) may not take ``act`` now, or None if it
        may: the one statement of the rules for a given action. The other phases' legal
        actions are their candidates that pass it; the play phase's fast generator
        (_legal_plays) lists exactly the plays it allows (tests/test_rank_views.py checks
        that on many positions, and the conformance suite with check_refusals)."""
        phase = self.phase
        kind = act.kind
        if phase == PLAY:
            return self._why_not_play(seat, act)
        if phase == KINGS_HAND:
            if kind in ("swap", "keep"):
                return None
            return Refusal("swap_or_keep", "the King decides whether to take the King's Hand: 'swap' or 'keep'")
        if phase == BENEFIT:
            if kind == "lead":
                return None
            if kind == "steal":
                beggar = self.characters.index(BEGGAR)
                if any(self.hands[beggar][x] for x in NUMBERS):
                    return None
                return Refusal(
                    "nothing_to_steal",
                    "the Beggar holds no number card, so the King can only lead (RK-12)",
                    {"seat": beggar},
                )
            return Refusal("lead_or_steal", "the King chooses a benefit: 'lead' or 'steal'")
        if phase in (GIVE_BACK, EXCHANGE):
            if kind != "give":
                return Refusal(
                    "must_give",
                    "the King gives one card back to the Beggar: 'give CARD'"
                    if phase == GIVE_BACK
                    else "cards are given back: 'give CARDS'",
                    {"phase": phase, "count": self._owed(seat)},
                )
            need = self._owed(seat)
            if len(act.cards) != need:
                return Refusal(
                    "wrong_count",
                    f"give exactly {need} card{'s' if need != 1 else ''}",
                    {"count": need, "given": len(act.cards)},
                )
            return self._missing(seat, act)
        if phase == OVER:
            return Refusal("game_over", "the game is over")
        return Refusal("not_now", f"no {kind} now", {"action": str(kind)})

    def _why_not_play(self, seat: int, act: A.RankAction) -> Refusal | None:
        """RK-4 to RK-8: may ``seat``, to play, make this play or pass?"""
        k = self.pile_count
        if act is A.PASS:  # RK-8: anyone but the leader, and the owner is never asked
            if not k:
                return Refusal("leader_must_play", "the leader must play: any single card or set")
            return Refusal("own_pile", "you own the pile") if seat == self.owner else None
        if act.kind != "play":
            return Refusal("not_a_play", f"'{act.text}' is not a play; play cards or pass", {"action": act.text})
        missing = self._missing(seat, act)
        if missing:
            return missing
        cards = act.cards
        if CROWN in cards or CROWN2 in cards:  # RK-6: alone, it beats anything
            return None if act.is_crown else Refusal("crown_alone", "a Crown is always played alone (RK-6)")
        if cards.count(UP) + cards.count(DOWN) > 1:
            return Refusal("one_modifier", "a set takes at most one Rank-Up or Rank-Down (RK-4)")
        if act.is_lone_modifier:  # RK-7
            h = self.hands[seat]
            if self.sizes[seat] != h[UP] + h[DOWN]:
                return Refusal(
                    "lone_modifier",
                    "a lone Rank-Up or Rank-Down is only allowed when your hand holds nothing else (RK-7)",
                )
            moved = self.pile_value + (1 if cards[0] == UP else -1)
            if not k or 1 <= moved <= 13:
                return None
            return Refusal(
                "out_of_range",
                "the pile's value must stay within 1-13 (RK-7)",
                {"value": moved, "pile": self.pile_value},
            )
        nums = [c for c in cards if c in NUMBERS]
        if DOWN in cards and not nums:
            return Refusal("down_needs_number", "a Rank-Down needs at least one number card with it (RK-5)")
        if nums and nums[0] != nums[-1]:  # canonical order: highest first
            high, low = nums[0], nums[-1]
            if not (UP in cards and high - low == 1 and nums.count(low) == 1):
                return Refusal(
                    "mixed_values",
                    "the number cards must all have one value; with a Rank-Up, "
                    "exactly one card may be one lower (RK-4)",
                )
        if not k:  # RK-5: leading, any set of any count
            return None
        if act.count != k:
            return Refusal(
                "wrong_count",
                f"the pile needs {k} card{'s' if k != 1 else ''} (number cards and Wilds), you played {act.count}",
                {"count": k, "given": act.count},
            )
        if DOWN in cards:  # RK-5: a Rank-Down needs only the same count
            return None
        v = self.pile_value
        value = self._set_value(act)
        if value > v:
            return None
        if nums:
            return Refusal("too_low", f"a value of {value} does not beat the pile's {v}", {"value": value, "pile": v})
        if UP in cards:
            return Refusal("nothing_beats", f"nothing beats a {v}: 13 is the highest value (RK-4)", {"pile": v})
        return Refusal(
            "wilds_too_high",
            f"Wilds alone on a {v} would be {v + 1}, but on their own they go no higher "
            "than 12; with a Rank-Up they make a 13 (RK-4)",
            {"pile": v, "value": v + 1},
        )

    def _set_value(self, act: A.RankAction) -> int:
        """RK-4: the value the set ``act`` takes if played now (the engine plays it at this value)."""
        base = act.base
        if base == 0:  # Wilds alone: one above the pile (at most 12), or 1 when leading
            base = min(self.pile_value + 1, 12) if self.pile_count else 1
            if UP in act.cards:
                base += 1  # a Rank-Up adds one more: 13 on a 12 or an 11
        return base

    def _missing(self, seat: int, act: A.RankAction) -> Refusal | None:
        """Whether ``seat`` holds the cards of ``act`` (codes in canonical order: equal ones together)."""
        have = self.hands[seat]
        cards = act.cards
        for i, c in enumerate(cards):
            if i and cards[i - 1] == c:
                continue
            need = cards.count(c)
            if need > have[c]:
                held = "no" if have[c] == 0 else "only one" if have[c] == 1 else f"only {have[c]}"
                return Refusal(
                    "not_in_hand",
                    f"you hold {held} {NAMES[c]}{'' if have[c] == 1 else 's'}, and the play needs {need}",
                    {"cards": [TEXT[c]], "held": have[c], "needed": need},
                )
        return None

    def _legal_plays(self, seat: int) -> list[A.RankAction]:
        h = self.hands[seat]
        wilds, ups, downs = h[WILD], h[UP], h[DOWN]
        out: list[A.RankAction] = []
        if h[CROWN]:
            out.append(_CROWN)
        if h[CROWN2]:
            out.append(_CROWN2)
        only_mods = self.sizes[seat] == ups + downs
        k = self.pile_count
        if k == 0:  # leading: any set of any count (RK-5)
            if only_mods:  # lone Rank-Up / Rank-Down is shed (RK-7)
                if ups:
                    out.append(_LONE_UP)
                if downs:
                    out.append(_LONE_DOWN)
                return out
            has_up, has_down = ups > 0, downs > 0
            below = 0
            for x, c in enumerate(h[1:13], 1):
                if c:
                    key = (x, c, wilds, has_up, 1 if ups and below else 0, has_down)
                    out += _LEAD.get(key) or _lead_block(key)
                below = c
            for w in range(1, wilds + 1):
                out.append(_WILDS[w])  # value 1 (RK-4)
                if ups:
                    out.append(_WILDS_UP[w])  # value 2
            return out
        v = self.pile_value
        if only_mods:  # RK-7: the pile moves by one, within 1-13
            if ups and v < 13:
                out.append(_LONE_UP)
            if downs and v > 1:
                out.append(_LONE_DOWN)
            out.append(_PASS)
            return out
        if k == 1:  # the same sets as below, faster: single cards, with a modifier or not
            out += compress(_PLAIN1[v + 1 : 13], h[v + 1 : 13])
            if ups:
                start = v if v > 1 else 1
                out += compress(_UP1[start:13], h[start:13])
            if wilds:  # RK-4: alone never above 12; with a Rank-Up a 13 even on a 12
                if v < 12:
                    out.append(_WILDS[1])
                if ups and v < 13:
                    out.append(_WILDS_UP[1])
            if downs:
                out += compress(_DOWN1[1:13], h[1:13])
            if seat != self.owner:
                out.append(_PASS)
            return out
        for row, a, b in self._follow_parts(seat, k):
            out += row[a:b]
        return out

    def _follow_parts(self, seat: int, k: int) -> list[tuple[list[A.RankAction], int, int]]:
        """The plays of a follow of ``k`` > 1 cards (RK-4, RK-5), not counting the Crowns, as slices
        ``row[a:b]`` of the tables, in ``_legal_plays``' order (``_random_action`` draws from them)."""
        h = self.hands[seat]
        wilds, ups, downs = h[WILD], h[UP], h[DOWN]
        v = self.pile_value
        parts: list[tuple[list[A.RankAction], int, int]] = []
        low = k - wilds if k > wilds else 1
        rows = _FOLLOW[0].get(k) or _follow_rows(0, k)
        for t, c in enumerate(h[v + 1 : 13], v + 1):  # plain sets of value t
            if c:
                parts.append((rows[t], low, (c if c < k else k) + 1))
        if ups:
            rows = _FOLLOW[1].get(k) or _follow_rows(1, k)
            start = v if v > 1 else 1
            for x, c in enumerate(h[start:13], start):  # x's raised to x+1
                if c:
                    parts.append((rows[x], low, (c if c < k else k) + 1))
            rows = _FOLLOW[3].get(k) or _follow_rows(3, k)
            lifted = k - 1 - wilds if k - 1 > wilds else 1
            for t in range(v + 1 if v > 1 else 2, 13):  # t's with one t-1 lifted
                c = h[t]
                if c and h[t - 1]:
                    parts.append((rows[t], lifted, (c if c < k - 1 else k - 1) + 1))
        if wilds >= k:  # Wilds alone: one above the pile, never above 12; a Rank-Up reaches 13 (RK-4)
            if v < 12:
                parts.append((_WILDS, k, k + 1))
            if ups and v < 13:
                parts.append((_WILDS_UP, k, k + 1))
        if downs:  # RK-5: same count, any value
            rows = _FOLLOW[2].get(k) or _follow_rows(2, k)
            for x, c in enumerate(h[1:13], 1):
                if c:
                    parts.append((rows[x], low, (c if c < k else k) + 1))
        if seat != self.owner:
            parts.append((_PASSES, 0, 1))
        return parts

    def _random_action(self, seat: int, rng: Rng) -> Action:
        # a play (RK-4, RK-5): what _legal_plays lists at the drawn index, found from the sizes of what it
        # would list (a lead's blocks, the held values of a single card's follow, a follow's slices of the
        # tables) without listing it; a hand of modifiers only, and the other phases, are listed
        h = self.hands[seat]
        if self.phase != PLAY or self.sizes[seat] == h[UP] + h[DOWN]:
            return State._random_action(self, seat, rng)
        crowns = (1 if h[CROWN] else 0) + (1 if h[CROWN2] else 0)  # listed first
        k = self.pile_count
        if k == 0:
            return self._random_lead(h, crowns, rng)
        if k == 1:
            return self._random_single(seat, h, crowns, rng)
        return self._random_follow(seat, k, h, crowns, rng)

    @staticmethod
    def _random_lead(h: list[int], crowns: int, rng: Rng) -> Action:
        """A lead drawn as listed: the Crowns, each value's block (``_lead_block``, sized from its counts),
        the Wilds alone."""
        wilds, ups, downs = h[WILD], h[UP], h[DOWN]
        per = (wilds + 1) * (1 + (1 if downs else 0))  # a block's plays per count, less the Rank-Up's
        per_up = (wilds + 1) if ups else 0  # and those with the Rank-Up, as many again with a lift
        total = 2 * wilds if ups else wilds
        below = 0
        for x in range(1, 13):
            c = h[x]
            total += c * (per + (per_up * 2 if below else per_up))
            below = c
        i = rng.below(crowns + total) - crowns
        if i < 0:
            return _crown(h, i + crowns)
        below = 0
        for x in range(1, 13):
            c = h[x]
            if c:
                size = c * (per + (per_up * 2 if below else per_up))
                if i < size:
                    key = (x, c, wilds, ups > 0, 1 if ups and below else 0, downs > 0)
                    return (_LEAD.get(key) or _lead_block(key))[i]
                i -= size
            below = c
        return _WILDS_UP[i // 2 + 1] if ups and i % 2 else _WILDS[(i // 2 if ups else i) + 1]

    def _random_single(self, seat: int, h: list[int], crowns: int, rng: Rng) -> Action:
        """A follow of one card drawn as listed: the Crowns, the values held above the pile, raised by a
        Rank-Up (from the pile's value), a Wild alone, lowered by a Rank-Down (any value), the pass."""
        wilds, ups, downs = h[WILD], h[UP], h[DOWN]
        v = self.pile_value
        start = v if v > 1 else 1
        plain = up = held = 0
        for x in range(1, 13):
            if h[x]:
                held += 1
                plain += 1 if x > v else 0
                up += 1 if x >= start else 0
        up = up if ups else 0
        wild = (1 if v < 12 else 0) + (1 if ups and v < 13 else 0) if wilds else 0
        total = plain + up + wild + (held if downs else 0) + (1 if seat != self.owner else 0)
        i = rng.below(crowns + total) - crowns
        if i < 0:
            return _crown(h, i + crowns)
        if i < plain:
            return _PLAIN1[_nth_held(h, v + 1, i)]
        i -= plain
        if i < up:
            return _UP1[_nth_held(h, start, i)]
        i -= up
        if wilds:
            if v < 12:
                if i == 0:
                    return _WILDS[1]
                i -= 1
            if ups and v < 13:
                if i == 0:
                    return _WILDS_UP[1]
                i -= 1
        return _DOWN1[_nth_held(h, 1, i)] if downs and i < held else _PASS

    def _random_follow(self, seat: int, k: int, h: list[int], crowns: int, rng: Rng) -> Action:
        """A follow of ``k`` > 1 cards drawn as listed: the Crowns, then ``_follow_parts``' slices."""
        parts = self._follow_parts(seat, k)
        total = 0
        for row, a, b in parts:
            total += _slice_size(len(row), a, b)
        i = rng.below(crowns + total) - crowns
        if i < 0:
            return _crown(h, i + crowns)
        for row, a, b in parts:
            size = _slice_size(len(row), a, b)
            if i < size:
                return row[a + i]
            i -= size
        raise AssertionError("a drawn index past the listed plays")

    def _committed(self, seat: int, action: Action) -> None:
        # RK-13: the King's and the Queen's give-backs are chosen in secret, each seen by its chooser only
        self.log_event(
            seat,
            "commit",
            "{seat} has chosen what to give back.",
            {"seat": seat},
            {
                seat: (
                    "{seat} chooses to " + action.text + " (hidden until both have chosen).",
                    {"seat": seat, "action": action.text},
                )
            },
        )

    def _resolve(self, actions: dict[int, Action]) -> None:
        phase = self.phase
        if phase == PLAY:
            for seat, act in actions.items():
                if act is A.PASS:
                    self._pass(seat)
                else:
                    self._play(seat, act)  # type: ignore[arg-type]
            return
        king = self.characters.index(KING)
        if phase == KINGS_HAND:
            act = actions[king]
            assert isinstance(act, A.RankAction)
            if act.kind == "swap":
                self.set_aside, self.hands[king] = self.hands[king], self.kings_hand
            else:
                self.set_aside = self.kings_hand
            self.kings_hand = [0] * NCODES
            self.kh_choice = act.kind
            self.log_event(
                king,
                "kings_hand",
                "The King ({seat}) takes the King's Hand and sets his own aside unseen."
                if act.kind == "swap"
                else "The King ({seat}) keeps his hand; the King's Hand is set aside unseen.",
                {"seat": king, "swap": act.kind == "swap"},
            )
            self._begin_benefit()
        elif phase == BENEFIT:
            act = actions[king]
            assert isinstance(act, A.RankAction)
            if act.kind == "lead":
                self.log_event(king, "choose_lead", "The King ({seat}) chooses to lead.", {"seat": king})
                self._begin_play(king)
            else:
                beggar = self.characters.index(BEGGAR)
                best = max(x for x in NUMBERS if self.hands[beggar][x])
                self._move(beggar, king, [best], "steal")
                self.phase = GIVE_BACK
        elif phase == GIVE_BACK:
            act = actions[king]
            assert isinstance(act, A.RankAction)
            self._move(king, self.characters.index(BEGGAR), list(act.cards), "give")
            queen = self.characters.index(QUEEN)
            self.log_event(None, "lead", "The Queen ({seat}) leads.", {"seat": queen})
            self._begin_play(queen)  # the Queen leads after a steal
        elif phase == EXCHANGE:
            for seat in sorted(actions):
                act = actions[seat]
                assert isinstance(act, A.RankAction)
                back_to = next(e["from"] for e in self.exchanges if e["to"] == seat and e["why"] == "tax")
                self._move(seat, back_to, list(act.cards), "give")
            self.owed = {}
            self.log_event(None, "lead", "The King ({seat}) leads.", {"seat": king})
            self._begin_play(king)

    # -- play ----------------------------------------------------------------------------
    def _pass(self, seat: int) -> None:
        self.passed[seat] = True  # RK-8: out of this round
        self.round_log.append((seat, "pass"))
        self.log_event(seat, "pass", "{seat} passes.", _SEAT_DATA[seat])
        self._next(seat)

    def _out_words(self, seat: int) -> str:
        """ " and is out (2nd)" if ``seat`` just played its last card, else nothing (RK-10)."""
        return f" and is out ({_ordinal(len(self.finished))})" if self.sizes[seat] == 0 else ""

    def _play(self, seat: int, act: A.RankAction) -> None:
        h = self.hands[seat]
        cards = act.cards
        for c in cards:
            h[c] -= 1
        self.pile += cards  # in the order put down (each play in its notation's order)
        self.sizes[seat] -= len(cards)
        self.round_log.append((seat, act.text))
        if self.sizes[seat] == 0:
            self.finished.append(seat)
        if act.is_crown:  # RK-6: wins the round at once
            self.top = act.cards
            drawn: list[int] = []
            if act.cards[0] == CROWN2:
                for _ in range(min(2, len(self.draw))):
                    c = self.draw.pop()
                    drawn.append(c)
                    h[c] += 1
                    self.sizes[seat] += 1
                if self.sizes[seat] and self.finished and self.finished[-1] == seat:
                    self.finished.pop()  # drew back in: not out (RK-6)
            self._crown_event(seat, act, drawn)
            if self._hand_done():
                return
            if self.sizes[seat]:
                self._new_round(seat)
                return
            leader = self._left_holder(seat)  # RK-9: the next holder to the left leads
            self.log_event(None, "lead", "{seat} leads.", _SEAT_DATA[leader])
            self._new_round(leader)
            return
        if act.is_lone_modifier:  # RK-7
            self.passed[seat] = True
            name = "Rank-Up" if act.cards[0] == UP else "Rank-Down"
            if self.pile_count:
                self.pile_value += 1 if act.cards[0] == UP else -1
                self.log_event(
                    seat,
                    "lone",
                    f"{{seat}} plays a lone {name}: the pile is now "
                    f"{_set_words(self.pile_count, self.pile_value)}; {{seat}} sits out the "
                    f"round{self._out_words(seat)}.",
                    {"seat": seat, "cards": _card_list(act.text), "out": self.sizes[seat] == 0},
                )
                self._next(seat)
                return
            self.log_event(
                seat,
                "shed",
                f"{{seat}} sheds a lone {name} and sits out the round{self._out_words(seat)}.",
                {"seat": seat, "cards": _card_list(act.text), "out": self.sizes[seat] == 0},
            )
            if self._hand_done():
                return
            nxt = self._left(seat, lambda s: self.sizes[s] > 0 and not self.passed[s])
            if nxt < 0:  # everyone still holding cards has shed: a fresh round
                leader = self._left_holder(seat)
                self.log_event(None, "new_round", "A new round: {seat} leads.", _SEAT_DATA[leader])
                self._new_round(leader)
            else:
                self.turn = nxt
                self.log_event(None, "lead", "{seat} leads.", _SEAT_DATA[nxt])
            return
        base = act.base or self._set_value(act)  # RK-4: Wilds alone take their value from the pile
        if not self.pile_count:
            self.pile_count = act.count
        self.pile_value = base
        self.top = cards
        self.owner = seat
        words = _SET_WORDS.get((self.pile_count, base)) or _set_words(self.pile_count, base)
        if self.sizes[seat]:
            text = act.text
            self.log_event(
                seat,
                "play",
                f"{{seat}} plays {text} ({words}).",
                _PLAY_DATA.get((text, seat)) or _play_data(text, seat),
            )
        else:
            self.log_event(
                seat,
                "play",
                f"{{seat}} plays {act.text} ({words}) and is out ({_ordinal(len(self.finished))}).",
                {"seat": seat, "cards": _card_list(act.text), "place": len(self.finished)},
            )
        self._next(seat)

    def _crown_event(self, seat: int, act: A.RankAction, drawn: list[int]) -> None:
        """RK-6: the Crown wins the round; a Crown + Draw 2's cards are seen by the drawer only (RK-16)."""
        out = self._out_words(seat)
        if act.cards[0] == CROWN:
            self.log_event(
                seat,
                "crown",
                f"{{seat}} plays a Crown and wins the round{out}.",
                {"seat": seat, "cards": _card_list(act.text), "out": bool(out)},
            )
            return
        if not drawn:
            self.log_event(
                seat,
                "crown",
                f"{{seat}} plays a Crown + Draw 2 and wins the round; the draw pile is empty{out}.",
                {"seat": seat, "cards": _card_list(act.text), "out": bool(out), "drawn": 0},
            )
            return
        head = f"{{seat}} plays a Crown + Draw 2, wins the round and draws {_cards_words(len(drawn))}"
        data: dict[str, Any] = {"seat": seat, "cards": _card_list(act.text), "out": False, "drawn": len(drawn)}
        shown = [TEXT[c] for c in canonical(drawn)]
        self.log_event(
            seat, "crown", f"{head}.", data, {seat: (f"{head}: {' '.join(shown)}.", {**data, "drew": shown})}
        )

    def _next(self, seat: int) -> None:
        """After a play or pass by ``seat``: end the round or hand, or pass the turn."""
        sizes, passed = self.sizes, self.passed
        n = self.num_players
        if n - sizes.count(0) <= 1:
            self._end_hand([s for s in range(n) if sizes[s]])
            return
        owner = self.owner
        if owner >= 0:
            for s in range(n):
                if sizes[s] and not passed[s] and s != owner:
                    break
            else:  # RK-9: the owner leads, or the next holder to the owner's left
                leader = owner if sizes[owner] else self._left_holder(owner)
                self.log_event(
                    None,
                    "round_won",
                    "{seat} wins the round and leads." if leader == owner else "{seat} wins the round; {leader} leads.",
                    {"seat": owner, "leader": leader},
                )
                self._new_round(leader)
                return
        for s in _LEFT[n][seat]:
            if sizes[s] and not passed[s] and s != owner:  # RK-9: the owner answers no one but itself
                self.turn = s
                return
        leader = self._left_holder(seat)
        self.log_event(None, "new_round", "A new round: {seat} leads.", _SEAT_DATA[leader])
        self._new_round(leader)

    def _left(self, seat: int, ok: Any) -> int:
        n = self.num_players
        for i in range(1, n + 1):
            s = (seat + i) % n
            if ok(s):
                return s
        return -1

    def _left_holder(self, seat: int) -> int:
        return self._left(seat, lambda s: self.sizes[s] > 0)

    def _hand_done(self) -> bool:
        sizes = self.sizes
        if self.num_players - sizes.count(0) > 1:
            return False
        self._end_hand([s for s in range(self.num_players) if sizes[s]])
        return True

    def _end_hand(self, holders: list[int]) -> None:
        """RK-10: characters and tokens; RK-11 / RK-15: the end of the game."""
        for c in self.pile:
            self.discard[c] += 1
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        if self.round_log:
            self.last_round, self.round_log = self.round_log, []
        finish = self.finished + holders
        n = self.num_players
        chars = [KNIGHT] * n
        chars[finish[0]], chars[finish[1]], chars[finish[-1]] = KING, QUEEN, BEGGAR
        self.characters = chars
        self.kings[finish[0]] += 1
        endless = bool(self.options["endless"])
        gained = [0] * n if endless else self._hooks().tokens(finish, n)
        for s, k in enumerate(gained):
            self.tokens[s] += k
        self.hands_log.append(
            _frozen(
                {
                    "hand": self.hand_number,
                    "finish": finish,
                    "king": finish[0],
                    "queen": finish[1],
                    "beggar": finish[-1],
                    "tokens": list(self.tokens),
                }
            )
        )
        self.finished = finish
        self._hand_over_event(finish, endless, gained)
        place = {s: i for i, s in enumerate(finish)}
        if endless:
            if self.hand_number >= int(self.options["hands"] or 0):
                best = max(self.kings)
                self.winner = min((s for s in range(n) if self.kings[s] == best), key=place.__getitem__)
                self.phase = OVER
                self.log_event(
                    None,
                    "game_won",
                    f"{{seat}} wins the game, King in {best} of {self.hand_number} hands (RK-15).",
                    {"seat": self.winner, "kings": best, "hands": self.hand_number},
                )
                return
        else:
            target = int(self.options["tokens_to_win"] or 0)
            reached = [s for s in range(n) if self.tokens[s] >= target]
            if reached:  # RK-11: the better finish in this hand breaks a tie
                self.winner = min(reached, key=place.__getitem__)
                self.phase = OVER
                tie = " (the better finish this hand breaks the tie)" if len(reached) > 1 else ""
                self.log_event(
                    None,
                    "game_won",
                    f"{{seat}} wins the game with {self.tokens[self.winner]} Royal Tokens{tie}.",
                    {"seat": self.winner, "tokens": self.tokens[self.winner], "tie": bool(tie)},
                )
                return
        self.hand_number += 1
        self._deal(dealer=finish[-1])

    def _hooks(self) -> RankHooks:
        """The game's hook points (a variant's, or the standard rules)."""
        hooks = getattr(self.game, "hooks", STANDARD)
        assert isinstance(hooks, RankHooks)
        return hooks

    def _hand_over_event(self, finish: list[int], endless: bool, gained: list[int]) -> None:
        """RK-10: who is King, Queen, Knight and Beggar now, and the tokens (or times King)."""

        def plus(s: int) -> str:
            k = gained[s]
            return "" if endless or not k else f" (+{k} token{'s' * (k != 1)})"

        last = len(finish) - 1
        roles = [f"{{finish.0}} is King{plus(finish[0])}", f"{{finish.1}} Queen{plus(finish[1])}"]
        roles += [f"{{finish.{i}}} Knight{plus(finish[i])}" for i in range(2, last)]
        roles.append(f"{{finish.{last}}} Beggar{plus(finish[-1])}")
        scores = self.kings if endless else self.tokens
        tally = ", ".join(f"{{seats.{s}}} {k}" for s, k in enumerate(scores))
        self.log_event(
            None,
            "hand_over",
            f"Hand {self.hand_number} is over: {', '.join(roles)}. {'Times King' if endless else 'Tokens'}: {tally}.",
            {
                "hand": self.hand_number,
                "finish": list(finish),
                "gained": list(gained),
                "seats": list(range(len(scores))),
                "scores": list(scores),
                "endless": endless,
            },
        )

    # -- results and views -------------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER or self.winner is None:
            return None
        last = {s: i for i, s in enumerate(self.hands_log[-1]["finish"])}
        scores = self.kings if self.options["endless"] else self.tokens
        ranking = sorted(range(self.num_players), key=lambda s: (s != self.winner, -scores[s], last[s]))
        return Result(
            winner=self.winner,
            ranking=tuple(ranking),
            scores=tuple(scores),
            details={
                "score": "times King" if self.options["endless"] else "Royal Tokens",
                "kings": [h["king"] for h in self.hands_log],
                "hands": len(self.hands_log),
            },
        )

    def view(self, seat: int | None) -> JSON:
        n = self.num_players
        endless = self.options["endless"]
        out_place = {s: i + 1 for i, s in enumerate(self.finished)} if self.phase != OVER else {}
        players = [
            {
                "seat": s,
                "hand_size": self.sizes[s],
                "score": self.kings[s] if endless else self.tokens[s],  # what result().scores ranks by
                "passed": self.passed[s] and self.phase == PLAY,
                "out": out_place.get(s) if self.sizes[s] == 0 else None,
                "character": self.characters[s],
                "times_king": self.kings[s],
            }
            for s in range(n)
        ]
        res = self.result()
        v: JSON = {
            "game": self.game.name,
            "seat": seat,
            "num_players": n,
            "options": dict(self.options),
            "version": self.version,
            "round": self.hand_number,
            "phase": self.phase,
            "to_move": list(self.to_move()),
            "turn": self.turn if self.phase == PLAY else None,
            "hand": [] if seat is None else texts(self.hands[seat]),
            "log": self.log_view(seat),
            "leading": self.phase == PLAY and self.pile_count == 0,
            "players": players,
            "pile": {
                "owner": self.owner if self.owner >= 0 else None,
                "value": self.pile_value,
                "count": self.pile_count,
                "top": [TEXT[c] for c in self.top],
                "cards": [TEXT[c] for c in reversed(self.pile)],  # top card first
            },
            "round_log": [[s, t] for s, t in self.round_log],
            "last_round": [[s, t] for s, t in self.last_round],
            "deck_size": len(self.draw),
            "discard": texts(self.discard),
            "kings_hand": {
                "dealt": bool(self.options["kings_hand"]),
                "waiting": self.phase == KINGS_HAND,
                "choice": self.kh_choice,
            },
            "exchanges": transfers_view(self.exchanges, seat),  # RK-12/RK-16: cards seen by giver and taker only
            "pending": self.pending_view(seat),
            "hands_log": [_thawed(h) for h in self.hands_log],
            "result": None if res is None else res.to_json(),
        }
        if seat is not None and self.characters[seat] == KING:
            if self.kh_choice == "swap":  # RK-14: the King saw the hand he set aside
                v["kings_hand"]["set_aside"] = texts(self.set_aside)
            if self.phase == BENEFIT:  # RK-12: the King knows whether he may steal
                v["steal_possible"] = len(self._legal(seat)) == 2
        return v

    def invariants(self) -> list[str]:
        problems: list[str] = []
        n = self.num_players
        if any(self.sizes[s] != sum(self.hands[s]) for s in range(n)):
            problems.append(f"hand sizes {self.sizes} do not match the hands")
        for role in (KING, QUEEN, BEGGAR):
            if self.characters.count(role) != 1:
                problems.append(f"{self.characters.count(role)} players are {role}")
        if self.options["endless"] and any(self.tokens):
            problems.append("Royal Tokens were given in an Endless game (RK-15)")
        # RK-10: each hand gives exactly the tokens its finish gives (King 2, Queen 1; a variant's hook)
        totals = [sum(h["tokens"]) for h in self.hands_log]
        for a, b, h in zip(totals, totals[1:], self.hands_log[1:], strict=False):
            finish = list(h["finish"])
            per_hand = 0 if self.options["endless"] else sum(self._hooks().tokens(finish, n))
            if b - a != per_hand:
                problems.append(
                    f"token totals by hand {totals} do not grow by what hand {h['hand']} gives ({per_hand})"
                )
                break
        if self.hands_log and list(self.hands_log[-1]["tokens"]) != self.tokens:
            problems.append(f"tokens {self.tokens} differ from the last hand's {self.hands_log[-1]['tokens']}")
        if self.phase == PLAY:
            if self.sizes[self.turn] == 0 or self.passed[self.turn]:
                problems.append(f"seat {self.turn} is to play but is out of cards or has passed")
            if self.pile_count and not (1 <= self.pile_value <= 13 and 0 <= self.owner < n):
                problems.append(f"pile value {self.pile_value} or owner {self.owner} out of range")
            if self.pile_count and self.owner == self.turn:
                problems.append(f"seat {self.turn} is asked to beat its own pile")
            if any(self.sizes[s] for s in self.finished) or len(set(self.finished)) != len(self.finished):
                problems.append(f"finish order {self.finished} lists a player who holds cards, or twice")
        if self.phase != KINGS_HAND and any(self.kings_hand):
            problems.append("the King's Hand is still waiting outside its phase (RK-14)")
        return problems

    def position_errors(self) -> list[str]:
        from courtcards.games.rank.positions import position_errors  # loading and its checks: not compiled

        return position_errors(self)

    # -- cards by place (conformance) -------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places = {f"hand:{s}": texts(self.hands[s]) for s in range(self.num_players)}
        places["draw_pile"] = [TEXT[c] for c in reversed(self.draw)]  # top card first
        places["pile"] = [TEXT[c] for c in reversed(self.pile)]  # top card first
        places["discard"] = texts(self.discard)
        places["kings_hand"] = texts(self.kings_hand)
        places["set_aside"] = texts(self.set_aside)
        return places

    def deck(self) -> list[str]:
        return [TEXT[c] for c in range(NCODES) for _ in range(DECK_COUNTS[c] * self.decks)]

    def hidden_places(self, seat: int | None) -> list[str]:
        hidden = [f"hand:{s}" for s in range(self.num_players) if s != seat]
        hidden += ["draw_pile", "kings_hand"]
        king_swapped = self.kh_choice == "swap" and seat is not None and self.characters[seat] == KING
        if not king_swapped:
            hidden.append("set_aside")
        return hidden

    # -- copy ------------------------------------------------------------------------------
    def _shell(self) -> Self:
        return type(self)(self.game, self.num_players, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        d = cast(RankState, new)
        d.decks = self.decks
        d.hands = [h[:] for h in self.hands]
        d.sizes = self.sizes[:]
        d.draw = self.draw[:]
        d.pile = self.pile[:]
        d.top = self.top
        d.pile_value = self.pile_value
        d.pile_count = self.pile_count
        d.owner = self.owner
        d.discard = self.discard[:]
        d.kings_hand = self.kings_hand[:]
        d.set_aside = self.set_aside[:]
        d.kh_choice = self.kh_choice
        d.passed = self.passed[:]
        d.turn = self.turn
        d.phase = self.phase
        d.finished = self.finished[:]
        d.characters = self.characters[:]
        d.tokens = self.tokens[:]
        d.kings = self.kings[:]
        d.hand_number = self.hand_number
        d.hands_log = self.hands_log[:]  # read-only entries
        d.exchanges = self.exchanges[:]
        d.owed = self.owed.copy()
        d.round_log = self.round_log[:]  # tuples of (seat, text)
        d.last_round = self.last_round[:]
        d.winner = self.winner

    # -- JSON ------------------------------------------------------------------------------
    def _to_json(self) -> JSON:
        """The position (docs/notation.md, Rank positions): every pile top card first."""
        return {
            "rng": self.rng.state,
            "phase": self.phase,
            "round": self.hand_number,
            "hands": [texts(h) for h in self.hands],
            "draw_pile": [TEXT[c] for c in reversed(self.draw)],  # top card first: drawn next first
            "pile": [TEXT[c] for c in reversed(self.pile)],  # top card first
            "top": [TEXT[c] for c in self.top],
            "pile_value": self.pile_value,
            "pile_count": self.pile_count,
            "owner": self.owner if self.owner >= 0 else None,
            "discard": texts(self.discard),
            "kings_hand": texts(self.kings_hand),
            "set_aside": texts(self.set_aside),
            "kings_hand_choice": self.kh_choice,
            "passed": list(self.passed),
            "turn": self.turn,
            "finished": list(self.finished),
            "characters": list(self.characters),
            "tokens": list(self.tokens),
            "times_king": list(self.kings),
            "hands_log": [_thawed(h) for h in self.hands_log],
            "exchanges": [_thawed(e) for e in self.exchanges],
            "owed": {str(k): v for k, v in sorted(self.owed.items())},
            "round_log": [[s, t] for s, t in self.round_log],
            "last_round": [[s, t] for s, t in self.last_round],
            "winner": self.winner,
        }
