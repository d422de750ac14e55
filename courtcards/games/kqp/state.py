"""King Queens & Paupers' rules engine (rulebook 004, rulings KQ-1 to KQ-9).

Seats are fixed ids 0..n-1. Where they sit changes every round (KQ-2), so a
round keeps ``positions``: the seats from the King down to Pauper-2, i.e. the
last round's finishing order. Play goes clockwise, which is ``positions``
read backwards and round the table: Pauper-2, Pauper-1, the Commoners worst
to best, the Queen, the King, then Pauper-2 again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, cast

from courtcards.core.climbing import LegalList as _Legal
from courtcards.core.climbing import Record, frozen_record, thawed_record, transfers_view
from courtcards.core.errors import Refusal
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State
from courtcards.games.kqp import actions as A
from courtcards.games.kqp.actions import PASS
from courtcards.games.kqp.cards import (
    GOLD,
    KING,
    NAMES,
    NCODES,
    PLAIN,
    QUEEN,
    SILVER,
    TEXT,
    counts_of,
    deck_counts,
    texts,
)

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue
    from courtcards.games.kqp.game import KqpGame

TAX = "tax"  # the King and Queen choose their give-backs, at once and in secret (KQ-4)
DEAL = "deal"  # positions only: the cards as dealt, before taxes; loading collects them (KQ-4)
PLAY = "play"
OVER = "over"

K_ROLE, Q_ROLE, COMMONER, P1_ROLE, P2_ROLE = "king", "queen", "commoner", "pauper-1", "pauper-2"
ROLE_NAMES = {K_ROLE: "King", Q_ROLE: "Queen", COMMONER: "Commoner", P1_ROLE: "Pauper-1", P2_ROLE: "Pauper-2"}
_ORDINAL = ("", "1st", "2nd", "3rd", *(f"{k}th" for k in range(4, 10)))


# Interned plays: _SETS[v][a] is ``a`` cards of value ``v``.
_SETS: list[list[A.KqpAction]] = [
    [A.make("play", (v,) * a) for a in range(11)] if v in PLAIN else [] for v in range(NCODES)
]
# _FOLLOW[k][v]: (t, t x k) for every t above v up to Gold: the plain plays that may top k cards of v
_FOLLOW: list[list[tuple[tuple[int, A.KqpAction], ...]]] = [
    [tuple((t, _SETS[t][k]) for t in range(max(v + 1, 3), GOLD + 1)) if k else () for v in range(NCODES)]
    for k in range(11)
]

# Each seat's hand is also kept as one integer of "levels" (see hand_levels): bit
# k*19 + v is set when the hand holds at least k cards of value v. A following play
# then looks its legal list up by the bits that matter instead of scanning values.
LEVEL = 19
_LEVELS = [[sum(1 << (k * LEVEL + v) for k in range(1, c + 1)) for c in range(11)] for v in range(NCODES)]
_LEVELS[KING][1] = _LEVELS[KING][10]  # the King tops a set of any size: its bit is at every level
_QBIT, _KBIT = 1 << QUEEN, 1 << KING


def hand_levels(hand: list[int]) -> int:
    m = 0
    for v in range(3, NCODES):
        if hand[v]:
            m |= _LEVELS[v][hand[v]]
    return m


def _allowed(v: int, k: int, consecutive: bool) -> int:
    """The values (bits) that may top k cards of v: plain ones above (only v+1 in
    consecutive mode, KQ-7), Queens on a single or a double (KQ-5)."""
    if v >= QUEEN:
        return _KBIT if v == QUEEN else 0
    plain = range(v + 1, v + 2) if consecutive else range(v + 1, GOLD + 1)
    bits = sum(1 << t for t in plain if t <= GOLD)
    return bits | (_QBIT if k <= 2 else 0) | _KBIT


_ALLOW = [[[_allowed(v, k, c) if v >= 3 else 0 for v in range(NCODES)] for k in range(11)] for c in (False, True)]


def _follow_list(k: int, key: int) -> list[Action]:
    """The legal plays on k cards when ``key`` holds the bits of the allowed values
    held at least k times (Queens: a single needs one, a double both) and of the King."""
    out: list[Action] = [_SETS[t][k] for t in range(3, GOLD + 1) if key >> t & 1]
    if key & _QBIT:
        out.append(_Q1 if k == 1 else _QQ)
    if key & _KBIT:
        out.append(_K1)
    out.append(A.PASS)
    return out


# plain lists, not LegalLists: the core copies the list it hands out, and list() copies an exact list fastest
_FOLLOWS: list[dict[int, list[Action]]] = [{} for _ in range(11)]


def _follows(k: int, key: int) -> list[Action]:
    """``_follow_list``, cached by the bits that matter."""
    lists = _FOLLOWS[k]
    cached = lists.get(key)
    if cached is None:
        if len(lists) > 50_000:  # a bound on memory; play reaches far fewer
            lists.clear()
        cached = lists[key] = _follow_list(k, key)
    return cached


def _lead_list(h: list[int]) -> list[Action]:
    """Leading: any number of cards of one value (KQ-5), value by value up to the King: for each
    value the plays its count allows (a hand holds at most 10 of one), joined in one list display
    (written out: a loop over the values costs nearly three times as much)."""
    _, _, _, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, cs, cg, cq, ck = h
    L = _LEADS
    return [
        *L[3][c3],
        *L[4][c4],
        *L[5][c5],
        *L[6][c6],
        *L[7][c7],
        *L[8][c8],
        *L[9][c9],
        *L[10][c10],
        *L[11][c11],
        *L[12][c12],
        *L[13][c13],
        *L[14][c14],
        *L[SILVER][cs],
        *L[GOLD][cg],
        *L[QUEEN][cq],
        *L[KING][ck],
    ]


def plays_for(hand: list[int], count: int, value: int, consecutive: bool) -> list[Action]:
    """The legal plays of a hand (counts per card code) on a pile of ``count`` cards of ``value``
    (a card code), the pass included, as a seat holding it would have them (KQ-5, KQ-7); ``count`` 0:
    leading. For search bots testing guessed hands against the moves seen; a shared list, not to change.
    A hand that is not one count per card code, a count of cards or a value out of range raises ValueError."""
    if len(hand) != NCODES or min(hand) < 0 or not 0 <= count <= 10 or not 0 <= value < NCODES:
        raise ValueError(
            f"no KQP plays for hand {hand!r} on {count} cards of value {value!r}: a hand is "
            f"{NCODES} counts of at least 0, a pile 0-10 cards of a card code 0-{NCODES - 1}"
        )
    if count == 0:
        return _lead_list([min(c, 10) for c in hand])  # _LEADS has rows for up to 10 cards of a value
    return _follows(count, hand_levels(hand) >> count * LEVEL & _ALLOW[consecutive][count][value])


_DECKS = {n: tuple(c for c, k in enumerate(deck_counts(n)) for _ in range(k)) for n in range(4, 10)}
_GIVE1 = {v: A.make("give", (v,)) for v in PLAIN}
_GIVE2 = {v: {w: A.make("give", (v, w)) for w in PLAIN if w >= v} for v in PLAIN}
_Q1 = A.make("play", (QUEEN,))
_QQ = A.make("play", (QUEEN, QUEEN))
_K1 = A.make("play", (KING,))
# _LEADS[code][c]: the leads with c cards of ``code`` in hand, fewest cards first (KQ-5)
_LEADS: tuple[tuple[tuple[A.KqpAction, ...], ...], ...] = tuple(
    tuple(
        tuple(_SETS[v][1 : c + 1]) if v in PLAIN else (_Q1, _QQ)[:c] if v == QUEEN else (_K1,)[:c] if v == KING else ()
        for c in range(11)
    )
    for v in range(NCODES)
)

_record = frozen_record  # read-only log entries, lists as tuples, that copies of a state share
_json_record = thawed_record


def tax_cards(hand: list[int], k: int) -> list[int]:
    """The ``k`` highest cards a payer hands over, lowest first: never a Queen or
    the King; fewer if the hand holds fewer such cards (KQ-4)."""
    paid: list[int] = []
    for v in range(GOLD, 2, -1):
        paid += [v] * min(hand[v], k - len(paid))
    return paid[::-1]


def roles_for(positions: list[int]) -> list[str]:
    """Each seat's role, from the seats listed King first, Pauper-2 last (KQ-2)."""
    roles = [COMMONER] * len(positions)
    roles[positions[0]], roles[positions[1]] = K_ROLE, Q_ROLE
    roles[positions[-2]], roles[positions[-1]] = P1_ROLE, P2_ROLE
    return roles


# the flat pile fields and names of format_version 1 and 2 (KqpGame._upgrade_position rewrites them)
_FORMAT2_NAMES = {
    "totals": "says 'scores'",
    "top": "works the top play out from pile.cards",
    "pile_count": "works the count out from pile.cards",
    "first_value": "works it out from pile.cards",
    "plays": "works the number of plays out from pile.cards (pile.plays lists them)",
    "consecutive": "works consecutive mode out from pile.cards",
    "pile_log": "says 'plays' inside 'pile'",
    "owner": "says 'owner' inside 'pile'",
    "passes": "says 'passes' inside 'pile'",
}
_CONSECUTIVE = "; consecutive mode: every play on this pile must be one value up"
# The log's data for the hot path, made once: _SEAT_DATA[seat] ({"seat": s}, shared, read-only: a view's
# log copies it), _PLAYS[action] (its template, and its data for each seat, sharing one list of cards)
_SEAT_DATA = tuple({"seat": s} for s in range(16))
# the entries of a pile's log (seat, text), shared (tuples): _PASSED[seat], _LOGGED[action][seat]
_PASSED = tuple((s, "pass") for s in range(16))
_ONE_SEAT = tuple((s,) for s in range(16))


def _play_data(act: A.KqpAction) -> tuple[str, tuple[dict[str, Any], ...]]:
    cards = act.text.split()
    return "{seat} plays " + act.text + ".", tuple({"seat": s, "cards": cards} for s in range(16))


_PLAYS: dict[A.KqpAction, tuple[str, tuple[dict[str, Any], ...]]] = {
    act: _play_data(act) for act in [*(a for row in _SETS for a in row[1:]), _Q1, _QQ, _K1]
}
_LOGGED: dict[A.KqpAction, tuple[tuple[int, str], ...]] = {
    act: tuple((s, act.text) for s in range(16)) for act in _PLAYS
}


def _seats(key: str, k: int) -> str:
    """``{key.0}``, ``{key.0} and {key.1}``, ``{key.0}, {key.1} and {key.2}``: the ``k`` seats of the data's
    list ``key`` as placeholders of a template (courtcards.core.events)."""
    named = [f"{{{key}.{i}}}" for i in range(k)]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" and {named[-1]}"


class KqpState(State):
    """A game of King Queens & Paupers."""

    game: KqpGame

    def __init__(
        self, game: KqpGame, num_players: int, options: dict[str, OptionValue], seed: int, *, shell: bool = False
    ) -> None:
        if shell:
            return
        self._init_base(game, num_players, options, seed)
        n = num_players
        self.rng = Rng(seed)
        self.counts = deck_counts(n)
        self.hands: list[list[int]] = [[0] * NCODES for _ in range(n)]
        self.sizes = [0] * n
        self.levels = [0] * n  # hand_levels of each hand
        self.positions: list[int] = list(range(n))
        self.nxt: list[int] = []
        self.roles: tuple[str, ...] = ()  # each seat's role this round (KQ-2), replaced with positions
        self.place: tuple[int, ...] = ()  # each seat's position, King 1 .. Pauper-2 n
        self._set_positions(self.positions)
        self.pile: list[int] = []  # every card on the current pile, in the order played (top card last)
        # earlier piles of this round, in the order played (top card last); a tuple, so copies share it
        self.discard: tuple[int, ...] = ()
        self.top: tuple[int, ...] = ()
        self.pile_value = 0
        self.pile_count = 0
        self.owner = -1
        self.plays = 0  # plays on the current pile
        self.first_value = 0
        self.consecutive = False
        self.passes: list[int] = []  # seats that passed since the last play, in order
        self.pile_log: list[tuple[int, str]] = []  # the pile's plays and passes (the position's pile.plays)
        self.turn = 0
        self.phase = PLAY
        self.finished: list[int] = []
        self.totals = [0] * n  # the scores (KQ-8)
        self.round = 1
        self.rounds_log: list[Record] = []  # read-only entries, see _record
        self.taxes: list[Record] = []
        self.played: list[list[int]] = [[0] * NCODES for _ in range(n)]  # each seat's plays this round, public
        self.owed: dict[int, int] = {}
        self.winner: int | None = None

    def _set_positions(self, positions: list[int]) -> None:
        self.positions = list(positions)
        n = self.num_players
        nxt = [0] * n
        for i, s in enumerate(positions):
            nxt[s] = positions[i - 1]  # clockwise: towards Pauper-2, and from the King to Pauper-2
        self.nxt = nxt
        self.roles = tuple(roles_for(self.positions))
        place = [0] * n
        for i, s in enumerate(positions):
            place[s] = i + 1
        self.place = tuple(place)

    # -- setup -----------------------------------------------------------------------
    def _start(self) -> None:
        """The first round's positions are random (KQ-2)."""
        positions = list(range(self.num_players))
        self.rng.shuffle(positions)
        self._begin_round(positions)

    def _begin_round(self, positions: list[int]) -> None:
        n = self.num_players
        self._set_positions(positions)
        deck = list(_DECKS[n])
        self.rng.shuffle(deck)
        hands = [[0] * NCODES for _ in range(n)]
        size = self.options.get("hand_size")  # a small game's hands: the rest face up on the discard
        cut = len(deck) if size is None else n * int(size)
        for i, seat in enumerate(positions):  # one at a time, counter-clockwise from the King (KQ-3)
            h = hands[seat]
            for c in deck[i:cut:n]:
                h[c] += 1
        self.hands = hands
        self.sizes = [sum(h) for h in hands]
        self.levels = [hand_levels(h) for h in hands]
        self.played = [[0] * NCODES for _ in range(n)]
        self.discard = tuple(deck[cut:])
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        self.plays, self.first_value, self.consecutive, self.passes, self.pile_log = 0, 0, False, [], []
        self.finished = []
        self.taxes = []
        self.owed = {}
        self._log_deal()
        self._collect_taxes()

    def _log_deal(self) -> None:
        """The round's seating and deal, as one event (KQ-2, KQ-3)."""
        pos, roles, sizes = self.positions, self.roles, self.sizes
        seating = ", ".join(f"{ROLE_NAMES[roles[s]]} {{seating.{i}}}" for i, s in enumerate(pos))
        data: dict[str, Any] = {"round": self.round, "seating": list(pos), "roles": [ROLE_NAMES[roles[s]] for s in pos]}
        how = "drawn at random" if self.round == 1 else "by the last round's finish"
        big, small = sizes[pos[0]], sizes[pos[-1]]
        if big == small:
            dealt = f"{big} cards each"
        else:
            more = [s for s in pos if sizes[s] == big]
            less = [s for s in pos if sizes[s] == small]
            dealt = f"{big} cards each to {_seats('more', len(more))}, {small} each to {_seats('less', len(less))}"
            data["more"], data["less"] = more, less
        data["cards"] = [big, small]
        self.log_event(
            None,
            "deal",
            f"Round {self.round}: seats {how}: {seating}. "
            f"The cards are dealt one at a time from the King counter-clockwise: {dealt}.",
            data,
        )

    def _collect_taxes(self) -> None:
        """KQ-4: Pauper-2 pays the King two best cards, Pauper-1 the Queen one
        (never Queens or the King), fewer if they hold fewer such cards; then the
        King gives back two cards and the Queen one, whatever the payer could pay
        (fewer only if the King or Queen holds fewer such cards)."""
        pos = self.positions
        for payer, taker, k in ((pos[-1], pos[0], 2), (pos[-2], pos[1], 1)):
            paid = tax_cards(self.hands[payer], k)
            self._move(payer, taker, paid, "tax")
            if not paid:
                self.log_event(
                    payer,
                    "no_tax",
                    f"{self._who(payer, 'from')} has no card to pay {self._who(taker, 'to')} in tax.",
                    {"from": payer, "to": taker},
                )
            held = self.hands[taker]
            back = min(k, sum([held[v] for v in PLAIN]))
            if back:
                self.owed[taker] = back
            else:
                self.log_event(
                    taker,
                    "no_give_back",
                    f"{self._who(taker, 'from')} has no card to give back to {self._who(payer, 'to')}.",
                    {"from": taker, "to": payer},
                )
        if self.owed:
            self.phase = TAX
        else:
            self._begin_play()

    def _move(self, giver: int, taker: int, cards: list[int], why: str) -> None:
        gives, takes, levels = self.hands[giver], self.hands[taker], self.levels
        for c in cards:
            levels[giver] &= ~_LEVELS[c][gives[c]]
            levels[taker] &= ~_LEVELS[c][takes[c]]
            gives[c] -= 1
            takes[c] += 1
            levels[giver] |= _LEVELS[c][gives[c]]
            levels[taker] |= _LEVELS[c][takes[c]]
        self.sizes[giver] -= len(cards)
        self.sizes[taker] += len(cards)
        shown = [TEXT[c] for c in cards]
        self.taxes.append(_record({"from": giver, "to": taker, "cards": shown, "why": why}))
        if cards:  # KQ-4: everyone sees how many; only the two seats see which
            k = len(cards)
            verb = "pays" if why == "tax" else "gives back to"
            end = " in tax" if why == "tax" else ""
            public = f"{self._who(giver, 'from')} {verb} {self._who(taker, 'to')} {k} card{'s' if k > 1 else ''}{end}."
            private = f"{self._who(giver, 'from')} {verb} {self._who(taker, 'to')} {' '.join(shown)}{end}."
            data = {"from": giver, "to": taker, "count": k}
            told = (private, {**data, "cards": shown})
            self.log_event(giver, why, public, data, {giver: told, taker: told})

    def _who(self, seat: int, key: str = "seat") -> str:
        """``{seat} (Pauper-2)``: a seat for an event's template (its placeholder ``key``), with its role."""
        return f"{{{key}}} ({ROLE_NAMES[self.roles[seat]]})"

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.owed = {}
        self._new_pile(self.positions[-1])  # Pauper-2 leads the first pile (KQ-5)
        self.log_event(self.turn, "lead", f"{self._who(self.turn)} leads the first pile.", _SEAT_DATA[self.turn])

    def _new_pile(self, leader: int) -> None:
        self.discard = (*self.discard, *self.pile)
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        self.plays, self.first_value, self.consecutive, self.passes, self.pile_log = 0, 0, False, [], []
        self.turn = leader

    # -- decisions ---------------------------------------------------------------------
    def _actors(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (self.turn,)
        if self.phase == TAX:
            return tuple(sorted(self.owed))
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal(self, seat: int) -> list[Action]:
        if self.phase == PLAY:
            k = self.pile_count
            if k:  # following: the list for the bits that matter, made if not met before
                key = self.levels[seat] >> k * LEVEL & _ALLOW[self.consecutive][k][self.pile_value]
                return _FOLLOWS[k].get(key) or _follows(k, key)
            return _lead_list(self.hands[seat])
        if self.phase == TAX:
            return self._gives(seat)  # type: ignore[return-value]
        return []

    # -- the core's fast path while one seat plays (State._single_mover, State._apply_one) -----
    # Random playouts and search spend most of their time in to_move, legal_actions and apply.
    # In the play phase one seat decides and nothing is pending: the core then asks these hooks
    # instead of its general bookkeeping.
    def _single_mover(self) -> int:
        return self.turn if self.phase == PLAY else -1

    def _apply_one(self, seat: int, action: Action) -> int:
        """An action of the one seat to decide; answers who decides next, as _single_mover would."""
        if self.phase != PLAY:
            self._resolve({seat: action})
            return self.turn if self.phase == PLAY else -1
        # a pass or a play, here rather than in methods of their own (a call costs about as much as
        # the pass itself): random playouts and search spend most of their time here
        sizes = self.sizes
        if action is PASS:  # KQ-6
            passes = self.passes
            passes.append(seat)
            self.pile_log.append(_PASSED[seat])
            if len(passes) >= self.num_players - len(self.finished) - (1 if sizes[self.owner] else 0):
                return self._win_pile(seat)
            self.log_event(seat, "pass", "{seat} passes.", _SEAT_DATA[seat])
        else:  # a play (KQ-5, KQ-7)
            act: A.KqpAction = action  # type: ignore[assignment]
            cards = act.cards
            count = act.count
            c = cards[0]
            h = self.hands[seat]
            had = h[c]
            h[c] = left = had - count
            self.played[seat][c] += count
            levels, bits = self.levels, _LEVELS[c]
            levels[seat] = levels[seat] & ~bits[had] | bits[left]
            self.pile.extend(cards)
            sizes[seat] -= count
            value = act.value
            plays = self.plays = self.plays + 1
            if plays == 1:
                self.pile_count = count
                self.first_value = value
            elif plays == 2 and value == self.first_value + 1:
                self.consecutive = True  # KQ-7
            self.top = cards
            self.pile_value = value
            self.owner = seat
            self.passes = []
            self.pile_log.append(_LOGGED[act][seat])
            if sizes[seat] == 0:
                if self._went_out(seat, act, plays):
                    return self.turn if self.phase == PLAY else -1
            elif plays == 2 and self.consecutive:
                self.log_event(
                    seat,
                    "play",
                    "{seat} plays " + act.text + _CONSECUTIVE + ".",
                    {"seat": seat, "cards": act.text.split(), "consecutive": True},
                )
            else:
                template, data = _PLAYS[act]
                self.log_event(seat, "play", template, data[seat])
        nxt = self.nxt
        s = nxt[seat]
        while not sizes[s]:
            s = nxt[s]
        self.turn = s
        return s

    def _committed(self, seat: int, action: Action) -> None:
        # a give-back chosen in secret (KQ-4): only the seat sees which
        self.log_event(
            seat,
            "commit",
            f"{self._who(seat)} has chosen a give-back.",
            _SEAT_DATA[seat],
            {
                seat: (
                    f"{self._who(seat)} has chosen to give back {' '.join(action.text.split()[1:])}.",
                    {"seat": seat, "action": action.text},
                )
            },
        )

    def _legal_for(self, seat: int) -> tuple[list[Action], Any]:  # Any: a dict or a LegalList (.get)
        cache = self._legal_cache
        if cache[0] == self.version and cache[1] == seat and cache[3] is not None:
            return cache[2], cache[3]
        legal = _Legal(self._legal(seat))  # a copy: the lists of plays are shared
        self._legal_cache = (self.version, seat, legal, legal, self._move_entry()[3])
        return legal, legal

    def give_back_to(self, seat: int) -> int:
        """Whom the King (Pauper-2) or Queen (Pauper-1) gives back to."""
        return self.positions[-1] if seat == self.positions[0] else self.positions[-2]

    def _gives(self, seat: int) -> list[A.KqpAction]:
        """Every give-back, lowest cards first (KQ-4: never Queens or the King);
        the work is proportional to the number of give-backs, whatever is owed."""
        h = self.hands[seat]
        held = [v for v in PLAIN if h[v]]
        k = min(self.owed.get(seat, 0), sum(h[v] for v in held))
        if k == 1:
            return [_GIVE1[v] for v in held]
        if k == 2:
            out = []
            for i, v in enumerate(held):
                row = _GIVE2[v]
                if h[v] > 1:
                    out.append(row[v])
                out += [row[w] for w in held[i + 1 :]]
            return out
        out = []
        left = [0] * (len(held) + 1)  # cards held from index i on
        for i in range(len(held) - 1, -1, -1):
            left[i] = left[i + 1] + h[held[i]]

        def extend(i: int, chosen: tuple[int, ...], need: int) -> None:
            if need == 0:
                out.append(A.make("give", chosen))
                return
            for j in range(i, len(held)):
                if left[j] < need:
                    return
                v = held[j]
                for c in range(min(h[v], need), max(1, need - left[j + 1]) - 1, -1):  # lowest-first order
                    extend(j + 1, chosen + (v,) * c, need - c)

        extend(0, (), k)
        return out

    def _resolve(self, actions: dict[int, Action]) -> None:
        if self.phase == PLAY:
            ((seat, act),) = actions.items()
            self._apply_one(seat, act)
            return
        for seat in sorted(actions):  # TAX: both give-backs are revealed together
            act = actions[seat]
            assert isinstance(act, A.KqpAction)
            self._move(seat, self.give_back_to(seat), list(act.cards), "give")
        self._begin_play()

    # -- play ------------------------------------------------------------------------------
    def _went_out(self, seat: int, act: A.KqpAction, plays: int) -> bool:
        """``seat``'s play ``act`` (the pile's ``plays``-th) emptied its hand: log it (KQ-8: the k-th
        out scores k), and end the round if one seat is left holding cards; True if it ended."""
        self.finished.append(seat)
        k = len(self.finished)
        mode = _CONSECUTIVE if plays == 2 and self.consecutive else ""
        self.log_event(
            seat,
            "play",
            f"{{seat}} plays {act.text} and goes out {_ORDINAL[k]}: {k} point{'s' if k > 1 else ''}{mode}.",
            {"seat": seat, "cards": act.text.split(), "place": k, "consecutive": bool(mode)},
        )
        if k == self.num_players - 1:
            self._end_round()
            return True
        return False

    def _win_pile(self, seat: int) -> int:
        """``seat``'s pass (logged in the pile already) ends the pile (KQ-6): the owner leads a new
        pile, or the next holder to the owner's left; answers who leads."""
        owner = self.owner
        if self.sizes[owner]:
            self.log_event(
                seat,
                "pile_won",
                "{seat} passes: {owner} wins the pile and leads.",
                {"seat": seat, "owner": owner, "leader": owner},
            )
            self._new_pile(owner)
        else:
            leader = self._next_holder(owner)
            self.log_event(
                seat,
                "pile_won",
                "{seat} passes: {owner} wins the pile; {owner} is out, so {leader} leads.",
                {"seat": seat, "owner": owner, "leader": leader},
            )
            self._new_pile(leader)
        return self.turn

    def _next_holder(self, seat: int) -> int:
        nxt, sizes = self.nxt, self.sizes
        s = nxt[seat]
        while not sizes[s]:
            s = nxt[s]
        return s

    def _end_round(self) -> None:
        """KQ-8 scoring, KQ-9 the end of the game, else the next round (KQ-2)."""
        n = self.num_players
        last = next(s for s in range(n) if self.sizes[s])
        finish = [*self.finished, last]
        self.discard = (*self.discard, *self.pile)
        self.pile, self.top, self.pile_value, self.pile_count, self.owner = [], (), 0, 0, -1
        self.plays, self.first_value, self.consecutive, self.passes, self.pile_log = 0, 0, False, [], []
        points = [0] * n
        for place, s in enumerate(finish):
            points[s] = place + 1
            self.totals[s] += place + 1
        self.rounds_log.append(
            _record({"round": self.round, "finish": finish, "points": points, "scores": list(self.totals)})
        )
        self.finished = finish
        self.log_event(last, "last", f"{{seat}} is left holding cards: last, {n} points.", {"seat": last, "points": n})
        places = ", ".join(f"{_ORDINAL[i + 1]} {{finish.{i}}}" for i in range(len(finish)))
        scores = ", ".join(f"{{seats.{s}}} {self.totals[s]}" for s in range(n))
        self.log_event(
            None,
            "round_over",
            f"Round {self.round} is over: {places}. Scores: {scores}.",
            {
                "round": self.round,
                "finish": list(finish),
                "seats": list(range(n)),
                "points": points,
                "scores": list(self.totals),
            },
        )
        target = self.options["target"]
        rounds = self.options["rounds"]
        if (isinstance(target, int) and max(self.totals) >= target) or (
            isinstance(rounds, int) and self.round >= rounds
        ):
            rank = {s: i for i, s in enumerate(finish)}  # KQ-9: ties go to the better finish
            self.winner = w = min(range(n), key=lambda s: (self.totals[s], rank[s]))
            self.phase = OVER
            why = "the lowest score"
            if any(self.totals[s] == self.totals[w] for s in range(n) if s != w):
                why += ", tied but ahead in the last round"
            pts = self.totals[w]
            self.log_event(
                w,
                "game_over",
                f"The game is over: {{seat}} wins with {pts} point{'s' if pts != 1 else ''}, {why}.",
                {"seat": w, "points": pts, "tied": "tied" in why},
            )
            return
        self.round += 1
        self._begin_round(finish)

    # -- results and views -------------------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER or self.winner is None or not self.rounds_log:
            return None
        last = {s: i for i, s in enumerate(self.rounds_log[-1]["finish"])}
        ranking = sorted(range(self.num_players), key=lambda s: (self.totals[s], last[s]))
        return Result(
            winner=self.winner,
            ranking=tuple(ranking),
            scores=tuple(self.totals),
            details={
                "score": "points (lower is better)",
                "rounds": len(self.rounds_log),
                "finishes": [list(r["finish"]) for r in self.rounds_log],
            },
        )

    def order(self) -> list[int]:
        """Seats in clockwise play order, starting with Pauper-2 (KQ-2)."""
        return self.positions[::-1]

    def view(self, seat: int | None) -> JSON:
        n = self.num_players
        phase = self.phase
        play = phase == PLAY
        roles, place, sizes, totals, played, passes = (
            self.roles,
            self.place,
            self.sizes,
            self.totals,
            self.played,
            self.passes,
        )
        out_place = {s: i + 1 for i, s in enumerate(self.finished)} if phase != OVER else {}
        players = [
            {
                "seat": s,
                "hand_size": sizes[s],
                "score": totals[s],
                "role": roles[s],
                "position": place[s],
                "passed": play and s in passes,
                "out": out_place.get(s),
                "played": texts(played[s]),
            }
            for s in range(n)
        ]
        res = self.result() if phase == OVER else None
        count = self.pile_count
        return {
            "game": self.game.name,
            "seat": seat,
            "num_players": n,
            "options": dict(self.options),
            "version": self.version,
            "round": self.round,
            "phase": phase,
            "to_move": list(self.to_move()),
            "turn": self.turn if play else None,
            "hand": texts(self.hands[seat]) if seat is not None else [],
            "leading": play and count == 0,
            "positions": list(self.positions),
            "order": self.positions[::-1],
            "players": players,
            "pile": {
                "owner": self.owner if self.owner >= 0 else None,
                "value": TEXT[self.pile_value] if self.pile_value else None,
                "count": count,
                "top": [TEXT[c] for c in self.top],
                "cards": [TEXT[c] for c in reversed(self.pile)],
                "consecutive": self.consecutive,
                "plays": [[s, t] for s, t in self.pile_log],
                "passes": list(passes),
            },
            "discard": [TEXT[c] for c in reversed(self.discard)],
            "taxes": transfers_view(self.taxes, seat),
            "owed": {str(k): val for k, val in sorted(self.owed.items())},
            "finished": list(self.finished) if phase != OVER else [],
            "pending": self.pending_view(seat),
            "rounds_log": [_json_record(r) for r in self.rounds_log],
            "log": self.log_view(seat),
            "result": None if res is None else res.to_json(),
        }

    def invariants(self) -> list[str]:
        problems = []
        expect = sum(range(1, self.num_players + 1)) * len(self.rounds_log)
        if sum(self.totals) != expect:
            problems.append(f"totals {self.totals} do not add up to {expect} after {len(self.rounds_log)} rounds")
        if self.levels != [hand_levels(h) for h in self.hands] or self.sizes != [sum(h) for h in self.hands]:
            problems.append("the hands' sizes or levels are out of step with the hands")
        return problems

    # -- cards by place (conformance) --------------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places = {f"hand:{s}": texts(self.hands[s]) for s in range(self.num_players)}
        places["pile"] = [TEXT[c] for c in self.pile]
        places["discard"] = [TEXT[c] for c in self.discard]
        return places

    def deck(self) -> list[str]:
        return [TEXT[c] for c in range(NCODES) for _ in range(self.counts[c])]

    def hidden_places(self, seat: int | None) -> list[str]:
        return [f"hand:{s}" for s in range(self.num_players) if s != seat]

    def refusal(self, seat: int, action: Action) -> Refusal | None:
        """KQ-4 to KQ-7 for one action: why it is refused, None if it is legal. The rules'
        one statement; the fast generators (``_gives``, ``_legal``) list exactly the
        actions it allows (tests/test_kqp_views.py and the conformance suite check it)."""
        assert isinstance(action, A.KqpAction)
        return _why_not(self, seat, action)

    # -- copy --------------------------------------------------------------------------------
    def _shell(self) -> Self:
        return type(self)(self.game, self.num_players, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        d = cast(KqpState, new)
        d.counts, d.roles, d.place, d.discard, d.top = self.counts, self.roles, self.place, self.discard, self.top
        d.phase, d.round, d.turn, d.owner, d.winner = self.phase, self.round, self.turn, self.owner, self.winner
        d.pile_value, d.pile_count, d.plays = self.pile_value, self.pile_count, self.plays
        d.first_value, d.consecutive = self.first_value, self.consecutive
        d.hands = [h[:] for h in self.hands]
        d.played = [p[:] for p in self.played]
        d.sizes = self.sizes[:]
        d.levels = self.levels[:]
        d.positions = self.positions[:]
        d.nxt = self.nxt[:]
        d.pile = self.pile[:]
        d.passes = self.passes[:]
        d.pile_log = self.pile_log[:]  # tuples of (seat, text)
        d.finished = self.finished[:]
        d.totals = self.totals[:]
        d.rounds_log = self.rounds_log[:]  # read-only entries
        d.taxes = self.taxes[:]
        d.owed = self.owed.copy()

    # -- JSON --------------------------------------------------------------------------------
    def _to_json(self) -> JSON:
        return {
            "rng": self.rng.state,
            "phase": self.phase,
            "round": self.round,
            "positions": list(self.positions),
            "turn": self.turn,
            "hands": [texts(h) for h in self.hands],
            "pile": {
                "cards": [TEXT[c] for c in reversed(self.pile)],
                "owner": self.owner if self.owner >= 0 else None,
                "plays": [[s, t] for s, t in self.pile_log],
                "passes": list(self.passes),
            },
            "discard": [TEXT[c] for c in reversed(self.discard)],
            "finished": list(self.finished),
            "scores": list(self.totals),
            "rounds_log": [_json_record(r) for r in self.rounds_log],
            "taxes": [_json_record(e) for e in self.taxes],
            "played": [texts(p) for p in self.played],
            "owed": {str(k): v for k, v in sorted(self.owed.items())},
            "winner": self.winner,
        }


def _why_not(state: KqpState, seat: int, act: A.KqpAction) -> Refusal | None:
    h = state.hands[seat]
    need = counts_of(act.cards)
    short = [c for c in range(NCODES) if need[c] > h[c]]
    if state.phase == TAX:
        if act.kind != "give":
            return Refusal("must_give", "the King and Queen are giving cards back first: 'give CARDS' (KQ-4)")
        k = min(state.owed.get(seat, 0), sum(h[v] for v in PLAIN))
        if len(act.cards) != k:
            return Refusal(
                "wrong_count",
                f"give back exactly {k} card{'s' if k != 1 else ''}",
                {"count": k, "given": len(act.cards)},
            )
        if any(c not in PLAIN for c in act.cards):
            return Refusal(
                "court_card_in_tax",
                "Queens and the King are never given in taxes (KQ-4)",
                {"cards": [TEXT[c] for c in act.cards if c not in PLAIN]},
            )
        return _short(h, need, short[0]) if short else None
    if state.phase != PLAY or seat != state.turn:
        return Refusal("not_your_decision", "not your decision now", {"seat": seat})
    if act.kind == "give":
        return Refusal("not_taxes", "cards are only given back during taxes")
    k = state.pile_count
    if act.kind == "pass":
        if k == 0:
            return Refusal("leader_must_play", "you lead this pile: play any card or set of one value (KQ-5)")
        return None  # KQ-6
    if short:
        return _short(h, need, short[0])
    if not act.value:
        return Refusal("mixed_values", "a play is cards of one value (KQ-5)")
    if k == 0:
        return None  # leading: any set of one value (KQ-5)
    v = state.pile_value
    if v == KING:
        return Refusal("nothing_beats", "nothing beats the King (KQ-5)", {"pile": TEXT[v]})
    if act.value == KING:
        return None  # the King tops any set, in consecutive mode too (KQ-5, KQ-7)
    if v == QUEEN:
        return Refusal("king_beats_queen", "only the King beats a Queen (KQ-5)", {"pile": TEXT[v]})
    if act.value == QUEEN:
        if act.count == k:
            return None  # a single Queen on any single, both Queens on any double (KQ-5, KQ-7)
        queens = {"count": k, "given": act.count}
        if act.count == 1:
            return Refusal("queen_count", "a single Queen only tops a single card (KQ-5)", queens)
        return Refusal("queen_count", "both Queens together only top a double (KQ-5)", queens)
    if act.count != k:
        return Refusal(
            "wrong_count",
            f"the pile needs {k} card{'s' if k != 1 else ''}, you played {act.count}",
            {"count": k, "given": act.count},
        )
    if state.consecutive and act.value != v + 1:
        after = {"pile": TEXT[v], "value": TEXT[act.value]}
        if v + 1 <= GOLD:
            after["next"] = TEXT[v + 1]
        only = TEXT[v + 1] if v + 1 <= GOLD else "a Queen or the King"
        return Refusal(
            "not_consecutive",
            f"consecutive mode: only {only} (one value above {TEXT[v]}), a Queen or the King may follow (KQ-7)",
            after,
        )
    if act.value <= v:
        return Refusal(
            "too_low",
            f"{TEXT[act.value]} does not beat the pile's {TEXT[v]}",
            {"value": TEXT[act.value], "pile": TEXT[v]},
        )
    return None


def _short(hand: list[int], need: list[int], card: int) -> Refusal:
    have = hand[card]
    name = NAMES[card]
    return Refusal(
        "not_in_hand",
        f"you hold no {name}" if not have else f"you hold {have} × {name}, not {need[card]}",
        {"cards": [TEXT[card]], "held": have, "needed": need[card]},
    )
