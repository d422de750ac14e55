"""Royals' rules engine (rulebook 002, rulings RY-1 to RY-8).

Each seat owns a 52-card deck. A card never changes owner, so every place is a
seat's: ``deck:s`` (bottom .. top), ``hand:s``, ``discard:s`` (bottom .. top,
public), ``royals:s`` (face and number cards in play) and ``table:s`` (cards
committed to a fight, face up after the reveal). Cards leaving play go to the
discard pile of the seat whose place they leave, which is their owner (RY-7).

A fight (attack or assassination) runs through the phases ``commit`` (one
secret simultaneous decision of every seat that commits a card), ``pair`` (the
defender pairs blocks with attacks, one pair at a time), ``hits`` (the defender
puts hits on Royals one at a time, in card order of the face cards) and
``losses`` (each hit Royal in card order is discarded or gets a lower number
card). Steps with a single possible outcome are carried out at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final, Self

from courtcards.core.errors import PositionError, Refusal
from courtcards.core.events import Step, join_steps, step_records
from courtcards.core.positions import Fields, as_int, as_list
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State, binomial, insert_in_order, nth_combination
from courtcards.games.royals import actions as A
from courtcards.games.royals.cards import (
    ATTACK_VALUES,
    BLOCK_VALUES,
    DECK,
    RANKS,
    TEXT,
    is_face,
    is_number,
    parse_card,
    rank,
    suit,
    texts,
)

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue
    from courtcards.games.royals.game import RoyalsGame

ACTION: Final = "action"  # the turn player chooses one of the four actions (RY-2)
COMMIT: Final = "commit"  # secret commitments to a fight (RY-4, RY-5)
PAIR: Final = "pair"  # the defender pairs blocks with attacks (RY-4)
HITS: Final = "hits"  # the defender spreads the hits over its Royals (RY-4)
LOSSES: Final = "losses"  # each hit Royal is discarded or gets a lower number card (RY-6)
OVER: Final = "over"
START: Final = "start"  # positions only: the turn is about to begin (win check, then draw up)
PHASES: Final = (ACTION, COMMIT, PAIR, HITS, LOSSES, OVER)

ATTACK: Final = "attack"
ASSASSINATE: Final = "assassinate"

Royal = tuple[int, int]  # (face card, number card)

# the actions' tables, held here: Final, the compiled module reads them without a lookup by name
_A_ROYALS: Final = A.ROYALS
_A_ATTACKS: Final = A.ATTACKS
_A_ASSASSINATES: Final = A.ASSASSINATES
_A_DISCARD_HAND: Final = A.DISCARD_HAND
_A_COMMITS_GET: Final = A.COMMITS_GET
_A_commit: Final = A.commit
_A_SINGLES: Final = A.SINGLES
_A_BLOCKS: Final = A.BLOCKS
_A_DONE: Final = A.DONE
_A_HITS: Final = A.HITS
_A_REPLACES: Final = A.REPLACES
_A_DISCARDS: Final = A.DISCARDS
_TEXT: Final = TEXT
# the kinds, compared by identity in the hot paths (every action's kind is the enum's member)
_K_ROYAL: Final = A.RoyalsKind.ROYAL
_K_ATTACK: Final = A.RoyalsKind.ATTACK
_K_DISCARD_HAND: Final = A.RoyalsKind.DISCARD_HAND
_K_DONE: Final = A.RoyalsKind.DONE
_K_DISCARD: Final = A.RoyalsKind.DISCARD
_ATTACK_VALUES: Final = ATTACK_VALUES
_BLOCK_VALUES: Final = BLOCK_VALUES
_RANKS: Final = RANKS

# sentences of the log worded once here, for the hot paths (random playouts word every event)
# (courtcards.core.events: each part of an action's event is a step, (template, data with its "kind"),
# its placeholders naming the step's own data, logged as (its wording function, its values): the
# functions at the end of this module; the log words and joins them into the event when it is read)
_COMMITTED: Final = "{seat} has committed (hidden until the reveal)"  # an event of its own
_DRAWS: Final = ("no card", "1 card", *(f"{k} cards" for k in range(2, 13)))
_ROYAL: Final = {
    (f, c): f"the Royal {_TEXT[f]} {_TEXT[c]} ({_RANKS[c]} point{'s' if _RANKS[c] > 1 else ''})"
    for f in DECK
    if is_face(f)
    for c in DECK
    if is_number(c) and suit(c) == suit(f)
}
_HITS: Final = ("no hits", "1 hit", *(f"{k} hits" for k in range(2, 80)))

_PHASE_WANTS: Final = {
    ACTION: "a turn action (royal, attack, assassinate, discard hand)",
    COMMIT: "the cards to commit ('commit ...')",
    PAIR: "a pairing ('block A with B') or 'done'",
    HITS: "where the next hit goes ('hit QH')",
    LOSSES: "'discard QH' or 'replace QH 3H' for the hit Royal",
}
_KINDS_BY_PHASE: Final = {
    ACTION: ("royal", "attack", "assassinate", "discard_hand"),
    COMMIT: ("commit",),
    PAIR: ("block", "done"),
    HITS: ("hit",),
    LOSSES: ("discard", "replace"),
}


@dataclass(init=False)  # __init__ written out: compiled, where the dataclass's own would be interpreted
class Fight:
    """An attack or assassination in progress."""

    kind: str
    attacker: int
    defender: int
    target: int  # face card of the Royal under assassination (-1: an attack)
    need: dict[int, int]  # cards each seat commits (the defender: at most)
    revealed: bool
    attacks: list[int]  # values of red number cards, ascending
    blocks: list[int]  # values of black number cards, ascending
    pairs: list[tuple[int, int]]  # (attack, block) in the order paired
    hits: int
    assigned: list[int]  # face card per hit, in card order
    resolved: int  # hit Royals already dealt with (in card order)
    committers: tuple[int, ...] | None = field(compare=False, repr=False)  # cache: need > 0

    def __init__(
        self,
        kind: str,
        attacker: int,
        defender: int,
        target: int = -1,
        need: dict[int, int] | None = None,
        revealed: bool = False,
        attacks: list[int] | None = None,
        blocks: list[int] | None = None,
        pairs: list[tuple[int, int]] | None = None,
        hits: int = 0,
        assigned: list[int] | None = None,
        resolved: int = 0,
        committers: tuple[int, ...] | None = None,
    ) -> None:
        self.kind, self.attacker, self.defender, self.target = kind, attacker, defender, target
        self.need = {} if need is None else need
        self.revealed = revealed
        self.attacks = [] if attacks is None else attacks
        self.blocks = [] if blocks is None else blocks
        self.pairs = [] if pairs is None else pairs
        self.hits = hits
        self.assigned = [] if assigned is None else assigned
        self.resolved = resolved
        self.committers = committers

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "attacker": self.attacker,
            "defender": self.defender,
            "target": _TEXT[self.target] if self.target >= 0 else None,
            "need": {str(s): k for s, k in sorted(self.need.items())},
            "revealed": self.revealed,
            "attacks": list(self.attacks),
            "blocks": list(self.blocks),
            "pairs": [list(p) for p in self.pairs],
            "hits": self.hits,
            "assigned": texts(self.assigned),
            "resolved": self.resolved,
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "fight", num_players: int = 6) -> Fight:
        """A fight as :meth:`to_json` writes it; left-out fields read as a fight just declared
        (the loader fills them in from the position: ``RoyalsState._complete_fight``)."""
        return cls.from_fields(Fields(data, path), num_players)

    @classmethod
    def from_fields(cls, f: Fields, n: int) -> Fight:
        kind = f.text("kind", (ATTACK, ASSASSINATE))
        attacker, defender = f.integer("attacker", 0, n - 1), f.integer("defender", 0, n - 1)
        if attacker == defender:
            raise PositionError(f.at("defender"), f"a seat cannot fight itself (attacker is seat {attacker})")
        target = -1
        if kind == ASSASSINATE:
            target = f.card("target", parse_card)
            if not is_face(target):
                raise PositionError(
                    f.at("target"), f"an assassination names a Royal by its face card, not {_TEXT[target]}"
                )
        elif f.data.get("target") is not None:
            raise PositionError(f.at("target"), "only an assassination has a target")
        need: dict[int, int] = {}
        if f.has("need"):
            nf = f.obj("need")
            for key in nf.data:
                if not (isinstance(key, str) and key.isdigit() and int(key) < n):
                    raise PositionError(nf.at(key), "is not a seat at this table")
                need[int(key)] = nf.integer(key, 0, 2 * n)

        def fight_values(key: str) -> list[int]:
            return sorted(f.ints(key, None, 1, 10, default=[]))

        pairs = []
        for i, pair in enumerate(f.array("pairs", default=[])):
            at = f"{f.at('pairs')}[{i}]"
            a, b = (as_int(v, f"{at}[{j}]", 1, 10) for j, v in enumerate(as_list(pair, at, 2)))
            if b < a:
                raise PositionError(at, f"a block of {b} cannot cancel an attack of {a} (RY-4)")
            pairs.append((a, b))
        fight = cls(
            kind=kind,
            attacker=attacker,
            defender=defender,
            target=target,
            need=need,
            revealed=f.boolean("revealed", default=False),
            attacks=fight_values("attacks"),
            blocks=fight_values("blocks"),
            pairs=pairs,
            hits=f.integer("hits", 0, 10 * n, default=0),
            assigned=f.cards("assigned", parse_card, default=[]),
            resolved=f.integer("resolved", 0, 12, default=0),
        )
        for i, face in enumerate(fight.assigned):
            if not is_face(face):
                raise PositionError(
                    f"{f.at('assigned')}[{i}]", f"a hit goes on a Royal, named by its face card, not {_TEXT[face]}"
                )
        if fight.assigned != sorted(fight.assigned):
            raise PositionError(f.at("assigned"), "hits are listed in card order of the face cards")
        return fight

    def copy(self) -> Fight:
        """An independent copy (every list and dict its own)."""
        new = Fight(
            self.kind,
            self.attacker,
            self.defender,
            self.target,
            dict(self.need),
            self.revealed,
            list(self.attacks),
            list(self.blocks),
            list(self.pairs),
            self.hits,
            list(self.assigned),
            self.resolved,
            self.committers,
        )
        return new

    def open_attacks(self) -> list[int]:
        return _minus(self.attacks, [a for a, _ in self.pairs])

    def open_blocks(self) -> list[int]:
        return _minus(self.blocks, [b for _, b in self.pairs])

    def wounds(self) -> list[tuple[int, int]]:
        """(face card, hits) of every hit Royal, in card order (``assigned`` is in card order)."""
        out: list[tuple[int, int]] = []
        last = count = -1
        for face in self.assigned:
            if face == last:
                count += 1
                continue
            if count > 0:
                out.append((last, count))
            last, count = face, 1
        if count > 0:
            out.append((last, count))
        return out


def _minus(values: list[int], used: list[int]) -> list[int]:
    """The values left, ascending, when each used one is taken away once."""
    left = sorted(values)
    for v in used:
        if v in left:
            left.remove(v)
    return left


class RoyalsState(State):
    """A game of Royals. Seats are 0..n-1; play passes to the left, seat i to i+1 (RY-2)."""

    game: RoyalsGame

    def __init__(
        self, game: RoyalsGame, num_players: int, options: dict[str, OptionValue], seed: int, *, shell: bool = False
    ) -> None:
        if shell:
            return
        self._init_base(game, num_players, options, seed)
        n = num_players
        # RY-1: 2 x players and 20 - players, unless the options make a smaller game
        limit, target = options.get("hand_limit"), options.get("target")
        self.hand_limit = limit if isinstance(limit, int) else 2 * n
        self.target = target if isinstance(target, int) else 20 - n
        self.rng = Rng(seed)
        self.decks: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.royals: list[list[Royal]] = [[] for _ in range(n)]
        self.table: list[list[int]] = [[] for _ in range(n)]
        self.phase = ACTION
        self.turn = 0
        self.turns = 0  # turns begun
        self.first_player = 0
        self.opening: list[list[str]] = []  # bottom cards shown to choose the first player, level by level
        self.fight: Fight | None = None
        self.last_fight: Fight | None = None  # the latest finished fight, with its revealed cards
        self.last_table: list[list[int]] = [[] for _ in range(num_players)]
        self.winner: int | None = None
        # what the action being carried out has caused so far: (public sentence, seat told more, its
        # sentences); apply() words them as one event of the log (RoyalsState._flush)
        self._said: list[Step] = []
        # the part of it one seat is told more of: (index in _said, seat, the cards it drew)
        self._told: tuple[int, int, list[int]] | None = None
        # per seat, the cards of its discard pile when it was last shuffled into a new
        # deck (public: the pile lay face up), None before any such shuffle
        self.new_decks: list[tuple[int, ...] | None] = [None] * n

    def _shell(self) -> Self:
        return type(self)(self.game, self.num_players, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        assert isinstance(new, RoyalsState)
        new.decks = [x.copy() for x in self.decks]
        new.hands = [x.copy() for x in self.hands]
        new.discards = [x.copy() for x in self.discards]
        new.royals = [x.copy() for x in self.royals]
        new.table = [x.copy() for x in self.table]
        new.last_table = [x.copy() for x in self.last_table]
        new.opening = [x.copy() for x in self.opening]
        new.new_decks = self.new_decks.copy()
        new._said = []
        new._told = None
        new.fight = None if self.fight is None else self.fight.copy()
        new.last_fight = None if self.last_fight is None else self.last_fight.copy()
        new.hand_limit, new.target, new.phase = self.hand_limit, self.target, self.phase
        new.turn, new.turns, new.first_player, new.winner = self.turn, self.turns, self.first_player, self.winner

    def points(self, seat: int) -> int:
        total = 0
        for _, num in self.royals[seat]:
            total += _RANKS[num]
        return total

    # -- setup -------------------------------------------------------------------------
    def _start(self) -> None:
        """RY-1: everyone shuffles and draws the hand limit; the highest bottom card starts."""
        n = self.num_players
        drawn = []
        for s in range(n):
            deck = list(DECK)
            self.rng.shuffle(deck)
            self.decks[s] = deck
            drawn.append(self._draw_up(s))
        public = f"Each seat shuffles its deck and draws {self.hand_limit} cards"
        data = {"count": self.hand_limit}
        self.log_event(None, "deal", public, data, _Dealt(public, data, drawn))
        self.first_player = self._choose_first()
        self._begin_turn(self.first_player)
        self._flush(self.first_player)

    def _choose_first(self) -> int:
        """RY-1: highest bottom card (Ace 1 .. King 13); ties look at the next card
        up among the tied players. Seat order breaks a tie no card can break."""
        tied = list(range(self.num_players))
        self.opening = []
        for level in range(min(len(d) for d in self.decks)):
            shown = [_TEXT[self.decks[s][level]] if s in tied else "" for s in range(self.num_players)]
            self.opening.append(shown)
            best = max([self.decks[s][level] % 13 for s in tied])  # the rank, less one
            tied = [s for s in tied if self.decks[s][level] % 13 == best]
            if len(tied) == 1:
                break
        chosen = tied[0]
        # RY-1: the bottom cards are shown to everyone
        seats: list[int] = []
        words = []
        for row in self.opening:
            named = []
            for s, t in enumerate(row):
                if t:
                    named.append(f"{{shown.{len(seats)}}} {t}")
                    seats.append(s)
            words.append(", ".join(named))
        self.log_event(
            chosen,
            "first_player",
            f"Bottom cards: {'; then '.join(words)}: {{seat}} goes first",
            {"seat": chosen, "shown": seats, "cards": [t for row in self.opening for t in row if t]},
        )
        return chosen

    def _draw_up(self, seat: int) -> list[int]:
        """Draw to the hand limit; an empty deck is replaced by the shuffled discard pile (RY-2).
        Returns the cards drawn, in the order drawn."""
        hand, deck = self.hands[seat], self.decks[seat]
        drawn: list[int] = []
        while len(hand) < self.hand_limit:
            if not deck:
                pile = self.discards[seat]
                if not pile:
                    break
                self.new_decks[seat] = tuple(sorted(pile))
                deck.extend(pile)
                pile.clear()
                self.rng.shuffle(deck)
                self._said.append((_reshuffle, seat, len(deck)))
            card = deck.pop()  # the top (the end)
            drawn.append(card)
            insert_in_order(hand, card)
        return drawn

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.fight = None
        self.phase = ACTION
        if self.points(seat) >= self.target:  # RY-2: winning at the start of one's turn
            self.winner = seat
            self.phase = OVER
            self._said.append((_wins, seat, self.points(seat), self.target))
            return
        limit = self.options.get("max_turns")
        if isinstance(limit, int) and self.turns >= limit:  # RY-8
            self.phase = OVER
            self._said.append((_turn_limit, limit))
            return
        self.turns += 1
        drawn = self._draw_up(seat)
        k = len(drawn)
        said = self._said
        if k:  # RY-2: the drawer alone sees the cards (named only when a view asks: see _Told)
            self._told = (len(said), seat, drawn)
        said.append((_draw, self.turns, seat, k))

    # -- decisions ---------------------------------------------------------------------
    def _actors(self) -> tuple[int, ...]:
        if self.phase == ACTION:
            return (self.turn,)
        if self.phase == COMMIT:
            assert self.fight is not None
            seats = self.fight.committers
            if seats is None:
                need = self.fight.need
                seats = self.fight.committers = tuple(s for s in range(self.num_players) if need.get(s, 0) > 0)
            return seats
        if self.phase in (PAIR, HITS, LOSSES):
            assert self.fight is not None
            return (self.fight.defender,)
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def _single_mover(self) -> int:  # the core's fast path: agrees with _actors
        phase = self.phase
        if phase == ACTION:
            return self.turn
        if phase in (COMMIT, OVER):
            return -1
        assert self.fight is not None
        return self.fight.defender

    def _legal(self, seat: int) -> list[Action]:
        out: list[A.RoyalsAction]
        if self.phase == ACTION:
            out = self._legal_turn(seat)
        elif self.phase == COMMIT:
            out = self._legal_commit(seat)
        elif self.phase == PAIR:
            out = self._legal_pair()
        elif self.phase == HITS:
            out = self._legal_hits()
        elif self.phase == LOSSES:
            out = self._legal_losses()
        else:
            out = []
        return out  # type: ignore[return-value]

    def _faces_and_numbers(self, seat: int) -> tuple[list[int], list[list[int]]]:
        """The face cards in ``seat``'s hand, and its number cards by suit, each in hand order (one pass)."""
        faces = []
        numbers: list[list[int]] = [[], [], [], []]
        for c in self.hands[seat]:
            if c % 13 >= 10:
                faces.append(c)
            else:
                numbers[c // 13].append(c)
        return faces, numbers

    def _royal_plays(self, seat: int) -> list[A.RoyalsAction]:
        """Each face card in hand with each number card of its suit, in hand order."""
        faces, numbers = self._faces_and_numbers(seat)
        table = _A_ROYALS
        return [table[f][c] for f in faces for c in numbers[f // 13]]

    # The rules of each decision are stated once, in the helpers below (``_targets``,
    # ``_may_assassinate``, ``_commit_need``, ``_cancels``, ``_hit_choices``,
    # ``_replacements``): the legal lists are built from them and ``refusal`` says
    # which of them an action fails.
    def _targets(self, seat: int) -> list[int]:
        """The seats ``seat`` may attack, or whose Royals it may try to assassinate:
        any other seat with a Royal in play (RY-4, RY-5)."""
        royals = self.royals
        return [s for s in range(self.num_players) if s != seat and royals[s]]

    def _may_assassinate(self, seat: int) -> bool:
        """RY-5: the assassin must commit a card, so needs one in hand."""
        return bool(self.hands[seat])

    def _commit_need(self, seat: int) -> tuple[int, bool]:
        """How many cards ``seat`` commits and whether that is only a maximum (the
        defender of an attack) (RY-4, RY-5; fixed as the fight is declared)."""
        fight = self.fight
        assert fight is not None
        return fight.need[seat], fight.kind == ATTACK and seat == fight.defender

    @staticmethod
    def _cancels(attack: int, block: int) -> bool:
        """RY-4: a block cancels an attack of equal or lower value."""
        return block >= attack

    def _legal_turn(self, seat: int) -> list[A.RoyalsAction]:
        out = self._royal_plays(seat)  # RY-3
        royals = self.royals
        others = self._targets(seat)
        out += [_A_ATTACKS[s] for s in others]  # RY-4
        if self._may_assassinate(seat):  # RY-5
            out += [_A_ASSASSINATES[s][f] for s in others for f, _ in royals[s]]
        out.append(_A_DISCARD_HAND)  # RY-2: always legal
        return out

    def _legal_commit(self, seat: int) -> list[A.RoyalsAction]:
        k, up_to = self._commit_need(seat)
        hand = self.hands[seat]
        get, commit = _A_COMMITS_GET, _A_commit
        if up_to:
            return [get(c) or commit(c) for size in range(k + 1) for c in combinations(hand, size)]
        if k == 1:
            singles = _A_SINGLES
            return [singles[c] for c in hand]
        return [get(c) or commit(c) for c in combinations(hand, k)]

    def _random_action(self, seat: int, rng: Rng) -> Action:
        # a turn or a commitment: the one _legal_turn or _legal_commit lists at the drawn index, found
        # without listing the others
        if self.phase == ACTION:
            return self._random_turn(seat, rng)
        if self.phase != COMMIT:
            return State._random_action(self, seat, rng)
        k, up_to = self._commit_need(seat)
        hand = self.hands[seat]
        n = len(hand)
        if k == 1 and not up_to:
            return _A_SINGLES[hand[rng.below(n)]]
        size = 0 if up_to else k  # the defender of an attack: every size up to k
        total = 0
        for s in range(size, k + 1):
            total += binomial(n, s)
        index = rng.below(total)
        count = binomial(n, size)
        while index >= count:  # the sizes in turn, as listed
            index -= count
            size += 1
            count = binomial(n, size)
        c = nth_combination(hand, size, index)
        return _A_COMMITS_GET(c) or _A_commit(c)

    def _random_turn(self, seat: int, rng: Rng) -> A.RoyalsAction:
        """What ``_legal_turn`` lists at the index drawn, from the sizes of its parts."""
        hand = self.hands[seat]
        # the hand is in card order: by suit, and in a suit its number cards before its face cards
        plays = 0
        held = 0  # number cards of the suit so far
        end = 0  # the first card of the next suit: faces are its three below
        for c in hand:
            if c >= end:
                end, held = c - c % 13 + 13, 0
            if c >= end - 3:
                plays += held
            else:
                held += 1
        royals = self.royals
        others = self._targets(seat)
        assassinations = 0
        if self._may_assassinate(seat):
            for s in others:
                assassinations += len(royals[s])
        i = rng.below(plays + len(others) + assassinations + 1)
        if i < plays:  # RY-3: each face card in hand order, with the number cards of its suit
            first = end = 0  # where the suit's cards begin in the hand
            for k, c in enumerate(hand):
                if c >= end:
                    end, first, held = c - c % 13 + 13, k, 0
                if c < end - 3:
                    held += 1
                elif i < held:
                    return _A_ROYALS[c][hand[first + i]]
                else:
                    i -= held
        i -= plays
        if i < len(others):  # RY-4
            return _A_ATTACKS[others[i]]
        i -= len(others)
        if i < assassinations:  # RY-5
            for s in others:
                if i < len(royals[s]):
                    return _A_ASSASSINATES[s][royals[s][i][0]]
                i -= len(royals[s])
        return _A_DISCARD_HAND  # RY-2

    def _legal_pair(self) -> list[A.RoyalsAction]:
        assert self.fight is not None
        blocks = sorted(set(self.fight.open_blocks()))
        table = _A_BLOCKS
        out = [table[a][b] for a in sorted(set(self.fight.open_attacks())) for b in blocks if self._cancels(a, b)]
        out.append(_A_DONE)
        return out

    def _hit_choices(self) -> list[int]:
        """Royals that may take the next hit: canonical card order, so each spread has one path."""
        assert self.fight is not None
        last = self.fight.assigned[-1] if self.fight.assigned else -1
        return [f for f, _ in self.royals[self.fight.defender] if f >= last]

    def _legal_hits(self) -> list[A.RoyalsAction]:
        return [_A_HITS[f] for f in self._hit_choices()]

    def _number_of(self, seat: int, face: int) -> int:
        """The number card under ``seat``'s Royal ``face``."""
        for f, number in self.royals[seat]:
            if f == face:
                return number
        raise KeyError(face)

    def _current_wound(self) -> tuple[int, int, int]:
        """(face, number, hits) of the hit Royal the defender deals with now."""
        assert self.fight is not None
        face, hits = self.fight.wounds()[self.fight.resolved]
        number = self._number_of(self.fight.defender, face)
        return face, number, hits

    def _replacements(self) -> tuple[int, list[int]]:
        """The hit Royal dealt with now and the number cards in hand that may replace its number."""
        assert self.fight is not None
        face, number, hits = self._current_wound()
        # RY-6: a number card of the suit of at most v - h, i.e. a code in [first, first + v - h)
        first = face - face % 13
        last = first + number % 13 + 1 - hits  # the number's rank, less the hits
        return face, [c for c in self.hands[self.fight.defender] if first <= c < last]

    def _legal_losses(self) -> list[A.RoyalsAction]:
        face, cards = self._replacements()
        table = _A_REPLACES[face]
        return [_A_DISCARDS[face], *(table[c] for c in cards)]

    # -- carrying out ------------------------------------------------------------------
    def _committed(self, seat: int, action: Action) -> None:
        # RY-4, RY-5: everyone sees that a seat has committed, only the seat sees what (until the reveal)
        self.log_event(seat, "commit", _COMMITTED, {"seat": seat}, _Commitment(seat, action))

    def _flush(self, seat: int | None) -> None:
        """Log what the action of ``seat`` caused as one event: its parts joined by "; ", and to a seat
        told more (its draw, its commitment) the same with its own wording of its part."""
        said, told = self._said, self._told
        if said:
            self._said, self._told = [], None
            self.log_event(seat, "action", None, said, None if told is None else _Told(said, told))

    def _resolve(self, actions: dict[int, Action]) -> None:
        """Carry out the action(s), then log what they caused as one event (``_flush``)."""
        if self.phase == COMMIT:
            self._reveal(actions)  # type: ignore[arg-type]
            self._flush(self.history[-1][0])
            return
        ((seat, act),) = actions.items()
        self._apply_one(seat, act)

    def _apply_one(self, seat: int, action: Action) -> int:
        """One seat's action outside the commitments (the core's fast path calls it directly); the
        seat that alone decides next, as ``_single_mover`` answers."""
        phase = self.phase
        if phase == COMMIT:
            self._resolve({seat: action})
            return self._single_mover()
        if phase == ACTION:
            self._turn_action(seat, action)  # type: ignore[arg-type]
        elif phase == PAIR:
            self._pair(action)  # type: ignore[arg-type]
        elif phase == HITS:
            self._hit(action.cards[0])  # type: ignore[attr-defined]
        elif phase == LOSSES:
            self._loss(action)  # type: ignore[arg-type]
        self._flush(seat)
        phase = self.phase  # _single_mover, inline
        if phase == ACTION:
            return self.turn
        if phase in (COMMIT, OVER):
            return -1
        assert self.fight is not None
        return self.fight.defender

    def _turn_action(self, seat: int, act: A.RoyalsAction) -> None:
        kind = act.kind
        hand = self.hands[seat]
        if kind is _K_ROYAL:
            face, number = act.cards
            hand.remove(face)
            hand.remove(number)
            royals = self.royals[seat]
            royals.append((face, number))
            royals.sort()
            self._said.append((_royal, seat, face, number))
            self._begin_turn((seat + 1) % self.num_players)
        elif kind is _K_DISCARD_HAND:
            self._said.append((_discard_hand, seat, tuple(hand)))
            self.discards[seat] += hand
            hand.clear()
            self._begin_turn((seat + 1) % self.num_players)
        elif kind is _K_ATTACK:
            self._begin_attack(seat, act.seat)
        else:
            self._begin_assassination(seat, act.seat, act.cards[0])

    def _begin_attack(self, attacker: int, defender: int) -> None:
        """RY-4: commitment sizes, each capped by the hand."""
        need: dict[int, int] = {}
        for s in range(self.num_players):
            royals, held = len(self.royals[s]), len(self.hands[s])
            need[s] = min(max(1, royals) if s == attacker else royals, held)
        # RY-4: what each seat must (the defender: may) commit is public
        committers = [s for s, k in need.items() if k]
        self.fight = Fight(ATTACK, attacker, defender, need=need, committers=tuple(committers))
        self._said.append((_attack, attacker, defender, committers, [need[s] for s in committers]))
        self._open_commitments()

    def _begin_assassination(self, assassin: int, owner: int, face: int) -> None:
        """RY-5: the assassin and the Royal's owner commit one card each (if they hold any)."""
        need = {s: 0 for s in range(self.num_players)}
        need[assassin] = min(1, len(self.hands[assassin]))
        need[owner] = min(1, len(self.hands[owner]))
        committers = [s for s, k in need.items() if k]
        self.fight = Fight(ASSASSINATE, assassin, owner, target=face, need=need, committers=tuple(committers))
        self._said.append((_assassinate, assassin, owner, face, committers, [need[s] for s in committers]))
        self._open_commitments()

    def _open_commitments(self) -> None:
        self.phase = COMMIT
        if not self._actors():
            self._reveal({})

    def _reveal(self, commits: dict[int, A.RoyalsAction]) -> None:
        """All committed cards are shown at once; red number cards attack, black ones block (RY-4, RY-5)."""
        fight = self.fight
        assert fight is not None
        if commits:  # the last seat to commit (the others were logged as they committed): revealed at once
            self._said.append((_commit, self.history[-1][0]))
        seats: list[int] = []
        tables: list[tuple[int, ...]] = []
        for s in range(self.num_players):  # in seat order
            commit = commits.get(s)
            if commit is None:
                continue
            cards = commit.cards
            hand, table = self.hands[s], self.table[s]
            for c in cards:
                hand.remove(c)
            table += cards
            seats.append(s)
            tables.append(tuple(table))
        fight.revealed = True
        attacks: list[int] = []
        blocks: list[int] = []
        for placed in self.table:
            for c in placed:
                if _ATTACK_VALUES[c]:
                    attacks.append(_ATTACK_VALUES[c])
                if _BLOCK_VALUES[c]:
                    blocks.append(_BLOCK_VALUES[c])
        attacks.sort()
        blocks.sort()
        fight.attacks, fight.blocks = attacks, blocks
        # RY-4, RY-5: red number cards attack, black ones block, whoever committed them
        self._said.append((_reveal, seats, tables, attacks, blocks))
        if fight.kind == ASSASSINATE:
            # at most one card each way: the block cancels the attack if it is as high
            if attacks and blocks and len(attacks) == 1 and blocks[-1] >= attacks[0]:
                fight.pairs.append((attacks[0], blocks[-1]))
                self._said.append((_cancel, attacks[0], blocks[-1]))
            self._count_hits()
            return
        self.phase = PAIR
        if not fight.pairs and not (attacks and blocks and blocks[-1] >= attacks[0]):
            self._count_hits()  # no block can cancel an attack: nothing to pair
        else:
            self._after_pairing_step()

    def _pair(self, act: A.RoyalsAction) -> None:
        assert self.fight is not None
        if act.kind is _K_DONE:
            self._said.append((_pairs_done, self.fight.defender))
            self._count_hits()
            return
        a, b = act.values
        self.fight.pairs.append((a, b))
        self._said.append((_block, self.fight.defender, a, b))
        self._after_pairing_step()

    def _after_pairing_step(self) -> None:
        assert self.fight is not None
        attacks, blocks = self.fight.open_attacks(), self.fight.open_blocks()
        if not (attacks and blocks and blocks[-1] >= attacks[0]):  # nothing left to pair but "done"
            self._count_hits()

    def _count_hits(self) -> None:
        """Every attack not cancelled scores one hit (RY-4)."""
        fight = self.fight
        assert fight is not None
        hits = fight.hits = len(fight.attacks) - len(fight.pairs)
        if fight.kind == ASSASSINATE:
            self._said.append((_hits_on, fight.defender, hits, fight.target))
        else:
            self._said.append((_hits, fight.defender, hits))
        if fight.kind == ASSASSINATE:
            fight.assigned = [fight.target] * fight.hits  # RY-5: all on the chosen Royal
            self._start_losses()
            return
        self.phase = HITS
        if fight.hits:
            self._auto_hits()
        else:
            self._end_fight()  # no hit: nothing to place and no loss

    def _auto_hits(self) -> None:
        fight = self.fight
        assert fight is not None
        while len(fight.assigned) < fight.hits:
            choices = self._hit_choices()
            if len(choices) > 1:
                return
            fight.assigned.append(choices[0])
        self._said.append((_spread, fight.defender, fight.wounds()))
        self._start_losses()

    def _hit(self, face: int) -> None:
        assert self.fight is not None
        self.fight.assigned.append(face)
        if len(self.fight.assigned) < self.fight.hits:
            self._said.append((_hit, self.fight.defender, len(self.fight.assigned), self.fight.hits, face))
        self._auto_hits()

    def _start_losses(self) -> None:
        self.phase = LOSSES
        self._next_loss()

    def _next_loss(self) -> None:
        """Deal with the hit Royals in card order; a Royal with no lower card to take is discarded."""
        fight = self.fight
        assert fight is not None
        count = len(fight.wounds())
        while fight.resolved < count:
            face, cards = self._replacements()
            if cards:
                return
            self._discard_royal(fight.defender, face)
            fight.resolved += 1
        self._end_fight()

    def _loss(self, act: A.RoyalsAction) -> None:
        fight = self.fight
        assert fight is not None
        seat = fight.defender
        face = act.cards[0]
        if act.kind is _K_DISCARD:
            self._discard_royal(seat, face)
        else:
            new = act.cards[1]
            old = self._number_of(seat, face)
            self.royals[seat] = sorted((f, new if f == face else n) for f, n in self.royals[seat])
            self.hands[seat].remove(new)
            self.discards[seat].append(old)  # RY-7
            self._said.append((_replace, seat, face, new, old))
        fight.resolved += 1
        self._next_loss()

    def _discard_royal(self, seat: int, face: int) -> None:
        number = self._number_of(seat, face)
        self.royals[seat].remove((face, number))
        self.discards[seat].extend((face, number))  # RY-6, RY-7
        self._said.append((_discard_royal, seat, face, number))

    def _end_fight(self) -> None:
        self.last_fight, self.last_table = self.fight, self.table
        self.table = [[] for _ in self.last_table]
        discards = self.discards
        for s, cards in enumerate(self.last_table):  # RY-7: to their owner's pile
            discards[s] += cards
        self._begin_turn((self.turn + 1) % self.num_players)

    # -- results and views ---------------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        scores = tuple(self.points(s) for s in range(self.num_players))
        ranking = sorted(range(self.num_players), key=lambda s: (s != self.winner, -scores[s], s))
        return Result(
            winner=self.winner,
            ranking=tuple(ranking),
            scores=scores,
            details={"score": "points in play", "target": self.target, "turns": self.turns},
        )

    def _last_fight_json(self) -> JSON | None:
        if self.last_fight is None:
            return None
        out = self.last_fight.to_json()
        out["table"] = [texts(t) for t in self.last_table]
        return out

    def _fight_view(self) -> JSON | None:
        fight = self.fight
        if fight is None:
            return None
        out = fight.to_json()
        if fight.kind == ATTACK:
            # the defender's chosen count is only seen at the reveal (a secret simultaneous choice)
            out["need"] = {
                str(s): {"count": k, "up_to": s == fight.defender} for s, k in sorted(fight.need.items()) if k
            }
        else:
            out["need"] = {str(s): {"count": k, "up_to": False} for s, k in sorted(fight.need.items()) if k}
        out["open_attacks"] = fight.open_attacks() if fight.revealed else []
        out["open_blocks"] = fight.open_blocks() if fight.revealed else []
        out["wounds"] = [[_TEXT[f], h] for f, h in fight.wounds()]
        return out

    def _new_deck_json(self, seat: int) -> list[str] | None:
        cards = self.new_decks[seat]
        return None if cards is None else texts(cards)

    def view(self, seat: int | None) -> JSON:
        players = [
            {
                "seat": s,
                "hand_size": len(self.hands[s]),
                "deck_size": len(self.decks[s]),
                "discard": texts(self.discards[s][::-1]),  # top card first
                "royals": [{"face": _TEXT[f], "number": _TEXT[c], "value": rank(c)} for f, c in self.royals[s]],
                "score": self.points(s),
                "table": texts(self.table[s]),
                "new_deck": self._new_deck_json(s),
            }
            for s in range(self.num_players)
        ]
        res = self.result()
        v: JSON = {
            "game": self.game.name,
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "version": self.version,
            "phase": self.phase,
            "round": max(self.turns, 1),
            "turn": self.turn,
            "hand_limit": self.hand_limit,
            "target": self.target,
            "first_player": self.first_player,
            "opening": [list(level) for level in self.opening],
            "to_move": list(self.to_move()),
            "players": players,
            "fight": self._fight_view(),
            "last_fight": self._last_fight_json(),
            "pending": self.pending_view(seat),
            "hand": [] if seat is None else texts(self.hands[seat]),
            "log": self.log_view(seat),
            "result": None if res is None else res.to_json(),
        }
        return v

    # -- cards by place (conformance) ---------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for s in range(self.num_players):
            places[f"deck:{s}"] = texts(self.decks[s])
            places[f"hand:{s}"] = texts(self.hands[s])
            places[f"discard:{s}"] = texts(self.discards[s])
            places[f"royals:{s}"] = [_TEXT[c] for royal in self.royals[s] for c in royal]
            places[f"table:{s}"] = texts(self.table[s])
        return places

    def deck(self) -> list[str]:
        return [_TEXT[c] for _ in range(self.num_players) for c in DECK]

    def hidden_places(self, seat: int | None) -> list[str]:
        hidden = [f"deck:{s}" for s in range(self.num_players)]
        hidden += [f"hand:{s}" for s in range(self.num_players) if s != seat]
        return hidden

    def replace_places(self, places: Mapping[str, list[str]]) -> RoyalsState:
        """A copy with the named places refilled (used to check what views hide;
        no check that each seat still holds one whole deck)."""
        other = self.copy()
        assert isinstance(other, RoyalsState)
        for name, cards in places.items():
            kind, _, num = name.partition(":")
            s = int(num)
            codes = [parse_card(t) for t in cards]
            if kind == "deck":
                other.decks[s] = codes
            elif kind == "hand":
                other.hands[s] = sorted(codes)
            elif kind == "discard":
                other.discards[s] = codes
            elif kind == "table":
                other.table[s] = codes
            else:
                raise PositionError(f"cannot replace the cards of {name!r}")
        return other

    def invariants(self) -> list[str]:
        problems = []
        for s in range(self.num_players):
            owned = self.decks[s] + self.hands[s] + self.discards[s] + self.table[s]
            owned += [c for royal in self.royals[s] for c in royal]
            if sorted(owned) != list(DECK):
                problems.append(f"seat {s}'s places do not hold exactly its own 52 cards")
            if len(self.hands[s]) > self.hand_limit:
                problems.append(f"seat {s} holds more than {self.hand_limit} cards")
            for f, c in self.royals[s]:
                if not (is_face(f) and is_number(c) and suit(f) == suit(c)):
                    problems.append(f"seat {s} has a malformed Royal {_TEXT[f]} {_TEXT[c]}")
        return problems

    def position_errors(self) -> list[str]:
        from courtcards.games.royals.positions import position_errors  # loading and its checks: not compiled

        return position_errors(self)

    # -- why an action is refused: the rules above, asked of one action --------------------------
    def refusal(self, seat: int, action: Action) -> Refusal | None:
        if not isinstance(action, A.RoyalsAction):
            return Refusal("not_this_game", "not a Royals action", {"action": action.text})
        phase = self.phase
        if action.kind not in _KINDS_BY_PHASE.get(phase, ()):
            return Refusal(
                "wrong_phase",
                f"the game wants {_PHASE_WANTS.get(phase, 'no action')} now",
                {"phase": phase, "kind": str(action.kind)},
            )
        if phase == ACTION:
            return self._turn_refusal(seat, action)
        if phase == COMMIT:
            return self._commit_refusal(seat, action)
        if phase == PAIR:
            return self._pair_refusal(action)
        if phase == HITS:
            return self._hit_refusal(action)
        return self._loss_refusal(seat, action)

    def _missing(self, seat: int, cards: tuple[int, ...]) -> Refusal | None:
        hand = self.hands[seat]
        missing = [_TEXT[c] for c in cards if c not in hand]
        if not missing:
            return None
        return Refusal("not_in_hand", f"{' and '.join(missing)} not in your hand", {"cards": missing})

    def _turn_refusal(self, seat: int, act: A.RoyalsAction) -> Refusal | None:
        kind = act.kind
        if kind == "discard_hand":
            return None  # RY-2: always legal
        if kind == "royal":
            face, number = act.cards
            if not (is_face(face) and is_number(number) and suit(face) == suit(number)):
                return Refusal(
                    "not_a_royal",
                    "a Royal is a face card and a number card of its suit (RY-3)",
                    {"cards": [_TEXT[face], _TEXT[number]]},
                )
            return self._missing(seat, act.cards)
        target = act.seat
        if target not in self._targets(seat):
            if target == seat:
                return Refusal(
                    "own_royals", "you cannot attack or assassinate your own Royals (RY-4, RY-5)", {"seat": seat}
                )
            if not 0 <= target < self.num_players:
                return Refusal(
                    "not_a_seat", f"there is no seat {target}", {"target": target, "players": self.num_players}
                )
            return Refusal("no_royals", f"seat {target} has no Royal in play (RY-4, RY-5)", {"seat": target})
        if kind == "assassinate":
            if act.cards[0] not in dict(self.royals[target]):
                return Refusal(
                    "no_such_royal",
                    f"seat {target} has no Royal {_TEXT[act.cards[0]]} in play",
                    {"seat": target, "face": _TEXT[act.cards[0]]},
                )
            if not self._may_assassinate(seat):
                return Refusal("nothing_to_commit", "you need a card in hand to commit to an assassination (RY-5)")
        return None

    def _commit_refusal(self, seat: int, act: A.RoyalsAction) -> Refusal | None:
        missing = self._missing(seat, act.cards)
        if missing:
            return missing
        k, up_to = self._commit_need(seat)
        size = len(act.cards)
        if size == k or (up_to and size < k):
            return None
        count = {"count": k, "given": size, "up_to": up_to}
        if up_to:
            return Refusal("commit_count", f"the defender commits at most {_cards(k)} (RY-4)", count)
        return Refusal("commit_count", f"you must commit exactly {_cards(k)} (RY-4, RY-5)", count)

    def _pair_refusal(self, act: A.RoyalsAction) -> Refusal | None:
        if act.kind == "done":
            return None
        fight = self.fight
        assert fight is not None
        a, b = act.values
        if not self._cancels(a, b):
            return Refusal(
                "block_too_low",
                "a block only cancels an attack of equal or lower value (RY-4)",
                {"attack": a, "block": b},
            )
        if a not in fight.open_attacks() or b not in fight.open_blocks():
            return Refusal("not_open", f"no open attack of {a} and block of {b} to pair", {"attack": a, "block": b})
        return None

    def _hit_refusal(self, act: A.RoyalsAction) -> Refusal | None:
        fight = self.fight
        assert fight is not None
        face = act.cards[0]
        if face in self._hit_choices():
            return None
        if face not in dict(self.royals[fight.defender]):
            return Refusal(
                "no_such_royal", f"you have no Royal {_TEXT[face]}", {"seat": fight.defender, "face": _TEXT[face]}
            )
        return Refusal(
            "hit_order",
            "hits are placed in card order of the face cards (each spread has one notation)",
            {"face": _TEXT[face], "faces": [_TEXT[f] for f in self._hit_choices()]},
        )

    def _loss_refusal(self, seat: int, act: A.RoyalsAction) -> Refusal | None:
        face, cards = self._replacements()
        if act.cards[0] != face:
            return Refusal(
                "wrong_royal",
                f"the hit Royal to deal with now is {_TEXT[face]}",
                {"face": _TEXT[face], "given": _TEXT[act.cards[0]]},
            )
        if act.kind == "discard":
            return None  # RY-6: a hit Royal may always be discarded
        new = act.cards[1]
        if new in cards:
            return None
        if new not in self.hands[seat]:
            return Refusal("not_in_hand", f"{_TEXT[new]} not in your hand", {"cards": [_TEXT[new]]})
        if not is_number(new) or suit(new) != suit(face):
            return Refusal(
                "wrong_suit",
                f"the new card must be a number card of {_TEXT[face]}'s suit (RY-6)",
                {"face": _TEXT[face], "cards": [_TEXT[new]]},
            )
        _, number, hits = self._current_wound()
        return Refusal(
            "too_high",
            f"{_TEXT[face]} takes {_HITS[hits]} at {rank(number)}: the new card must be at most "
            f"{rank(number) - hits} (RY-6)",
            {
                "face": _TEXT[face],
                "cards": [_TEXT[new]],
                "hits": hits,
                "number": rank(number),
                "most": rank(number) - hits,
            },
        )

    # -- JSON ---------------------------------------------------------------------------------
    def _to_json(self) -> JSON:
        return {
            "rng": self.rng.state,
            "phase": self.phase,
            "turn": self.turn,
            "turns": self.turns,
            "first_player": self.first_player,
            "opening": [list(level) for level in self.opening],
            "decks": [texts(d[::-1]) for d in self.decks],  # top card first
            "hands": [texts(h) for h in self.hands],
            "discards": [texts(d[::-1]) for d in self.discards],  # top card first
            "royals": [[[_TEXT[f], _TEXT[c]] for f, c in rs] for rs in self.royals],
            "table": [texts(t) for t in self.table],
            "fight": None if self.fight is None else self.fight.to_json(),
            "last_fight": self._last_fight_json(),
            "winner": self.winner,
            "new_decks": [self._new_deck_json(s) for s in range(self.num_players)],
        }


class _OneSeat(Mapping[int, tuple[str, Mapping[str, Any]]]):
    """The secret record of an event for the one seat told more (``courtcards.core.events``), worded
    (``_word``) when a view first asks."""

    __slots__ = ("record", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.record: tuple[str, Mapping[str, Any]] | None = None

    def _word(self) -> tuple[str, Mapping[str, Any]]:
        raise NotImplementedError

    def __getitem__(self, seat: int) -> tuple[str, Mapping[str, Any]]:
        if seat != self.seat:
            raise KeyError(seat)
        if self.record is None:  # made once, when a view first asks
            self.record = self._word()
        return self.record

    def get(self, seat: int, default: Any = None) -> Any:  # every view asks: no KeyError for other seats
        return self[seat] if seat == self.seat else default

    def __iter__(self) -> Iterator[int]:
        return iter((self.seat,))

    def __len__(self) -> int:
        return 1


class _Told(_OneSeat):
    """An action's event as the seat told more reads it: the event's parts with that seat's own record of
    its part (the cards it drew, named)."""

    __slots__ = ("parts", "told")

    def __init__(self, parts: list[Step], told: tuple[int, int, list[int]]) -> None:
        super().__init__(told[1])
        self.parts = parts
        self.told = told

    def _word(self) -> tuple[str, Mapping[str, Any]]:
        index, _, cards = self.told
        out = step_records(self.parts)
        template, data = out[index]
        shown = [_TEXT[c] for c in cards]  # the draw (RY-2): a commitment has its own record, _Commitment
        out[index] = (template + ": " + " ".join(shown), {**data, "cards": shown})
        return join_steps(out)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # by its arguments: the compiled class pickles no slots
        return _Told, (self.parts, self.told)


class _Dealt(Mapping[int, tuple[str, Mapping[str, Any]]]):
    """The secret records of the deal: each seat is told the cards it drew (RY-1), worded when a view
    first asks."""

    __slots__ = ("data", "drawn", "public")

    def __init__(self, public: str, data: dict[str, Any], drawn: list[list[int]]) -> None:
        self.public = public
        self.data = data
        self.drawn = drawn

    def __getitem__(self, seat: int) -> tuple[str, Mapping[str, Any]]:
        if not 0 <= seat < len(self.drawn):
            raise KeyError(seat)
        cards = self.drawn[seat]
        return (
            self.public + "; {seat} draws " + _names(cards),
            {**self.data, "seat": seat, "cards": [_TEXT[c] for c in cards]},
        )

    def get(self, seat: int, default: Any = None) -> Any:
        return self[seat] if 0 <= seat < len(self.drawn) else default

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.drawn)))

    def __len__(self) -> int:
        return len(self.drawn)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # by its arguments: the compiled class pickles no slots
        return _Dealt, (self.public, self.data, self.drawn)


class _Commitment(_OneSeat):
    """A commitment as the seat that made it reads it (RY-4, RY-5)."""

    __slots__ = ("action",)

    def __init__(self, seat: int, action: Action) -> None:
        super().__init__(seat)
        self.action = action

    def _word(self) -> tuple[str, Mapping[str, Any]]:
        cards: tuple[int, ...] = self.action.cards  # type: ignore[attr-defined]
        return (
            "{seat} commits " + (_names(cards) or "no card") + " (hidden until the reveal)",
            {"seat": self.seat, "action": self.action.text},
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # by its arguments: the compiled class pickles no slots
        return _Commitment, (self.seat, self.action)


def _cards(k: int) -> str:
    """``0 cards``, ``1 card``, ``2 cards``, ..."""
    return f"{k} card{'s' if k != 1 else ''}"


def _names(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join([_TEXT[c] for c in cards])


def _values(values: list[int]) -> str:
    return " ".join(map(str, values)) or "none"


# -- the steps of an action's event (see _said): each (template, data) from the values logged -----------------
def _reshuffle(seat: int, count: int) -> tuple[str, dict[str, Any]]:
    return (
        "{seat} shuffles its discard pile into a new deck (" + _cards(count) + ")",
        {"kind": "reshuffle", "seat": seat, "count": count},
    )


def _wins(seat: int, points: int, target: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{{seat}} begins its turn with {points} points in play (target {target}) and wins",
        {"kind": "wins", "seat": seat, "points": points, "target": target},
    )


def _turn_limit(limit: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{limit} turn{'s' if limit > 1 else ''} played: the game is a draw (turn limit)",
        {"kind": "turn_limit", "limit": limit},
    )


def _draw(turn: int, seat: int, count: int) -> tuple[str, dict[str, Any]]:
    return f"turn {turn}: {{seat}} draws {_DRAWS[count]}", {"kind": "draw", "turn": turn, "seat": seat, "count": count}


def _commit(seat: int) -> tuple[str, dict[str, Any]]:
    return "{seat} has committed", {"kind": "commit", "seat": seat}


def _royal(seat: int, face: int, number: int) -> tuple[str, dict[str, Any]]:
    return "{seat} plays " + _ROYAL[face, number], {
        "kind": "royal",
        "seat": seat,
        "cards": [_TEXT[face], _TEXT[number]],
    }


def _discard_hand(seat: int, hand: tuple[int, ...]) -> tuple[str, dict[str, Any]]:
    return (
        "{seat} discards its hand: " + (_names(hand) or "no cards"),
        {"kind": "discard_hand", "seat": seat, "cards": [_TEXT[c] for c in hand]},
    )


def _attack(attacker: int, defender: int, committers: list[int], counts: list[int]) -> tuple[str, dict[str, Any]]:
    said = ", ".join(
        [
            f"{{committers.{i}}} {'up to ' if s == defender else ''}{k}"
            for i, (s, k) in enumerate(zip(committers, counts, strict=True))
        ]
    )
    return (
        "{seat} attacks {defender} (cards to commit: " + (said or "none") + ")",
        {"kind": "attack", "seat": attacker, "defender": defender, "committers": committers, "counts": counts},
    )


def _assassinate(
    assassin: int, owner: int, face: int, committers: list[int], counts: list[int]
) -> tuple[str, dict[str, Any]]:
    said = ", ".join([f"{{committers.{i}}} {k}" for i, k in enumerate(counts)])
    return (
        f"{{seat}} tries to assassinate {{owner}}'s Royal {_TEXT[face]} (cards to commit: {said or 'none'})",
        {
            "kind": "assassinate",
            "seat": assassin,
            "owner": owner,
            "face": _TEXT[face],
            "committers": committers,
            "counts": counts,
        },
    )


def _reveal(
    seats: list[int], tables: list[tuple[int, ...]], attacks: list[int], blocks: list[int]
) -> tuple[str, dict[str, Any]]:
    names = [_names(table) for table in tables]
    shown = ", ".join([f"{{seats.{i}}} {named or 'nothing'}" for i, named in enumerate(names)])
    return (
        f"revealed: {shown or 'no cards'} (attacks {_values(attacks)}, blocks {_values(blocks)})",
        {"kind": "reveal", "seats": seats, "tables": names, "attacks": attacks, "blocks": blocks},
    )


def _cancel(attack: int, block: int) -> tuple[str, dict[str, Any]]:
    return (
        f"the block of {block} cancels the attack of {attack}",
        {"kind": "cancel", "attack": attack, "block": block},
    )


def _pairs_done(seat: int) -> tuple[str, dict[str, Any]]:
    return "{seat} pairs no more blocks", {"kind": "pairs_done", "seat": seat}


def _block(seat: int, attack: int, block: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{{seat}} blocks the attack of {attack} with the {block}",
        {"kind": "block", "seat": seat, "attack": attack, "block": block},
    )


def _hits(seat: int, hits: int) -> tuple[str, dict[str, Any]]:
    return f"{{seat}} takes {_HITS[hits]}", {"kind": "hits", "seat": seat, "hits": hits}


def _hits_on(seat: int, hits: int, face: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{{seat}} takes {_HITS[hits]} on its Royal {_TEXT[face]}",
        {"kind": "hits", "seat": seat, "hits": hits, "face": _TEXT[face]},
    )


def _spread(seat: int, wounds: list[tuple[int, int]]) -> tuple[str, dict[str, Any]]:
    spread = ", ".join(f"{_TEXT[f]} {h}" for f, h in wounds)
    return (
        f"{{seat}} spreads the hits: {spread}",
        {"kind": "spread", "seat": seat, "faces": [_TEXT[f] for f, _ in wounds], "hits": [h for _, h in wounds]},
    )


def _hit(seat: int, hit: int, hits: int, face: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{{seat}} puts hit {hit} of {hits} on {_TEXT[face]}",
        {"kind": "hit", "seat": seat, "hit": hit, "hits": hits, "face": _TEXT[face]},
    )


def _replace(seat: int, face: int, new: int, old: int) -> tuple[str, dict[str, Any]]:
    return (
        f"{{seat}} puts {_TEXT[new]} under its Royal {_TEXT[face]} in place of "
        f"{_TEXT[old]} ({_RANKS[old]} to {_RANKS[new]} points)",
        {"kind": "replace", "seat": seat, "face": _TEXT[face], "cards": [_TEXT[new], _TEXT[old]]},
    )


def _discard_royal(seat: int, face: int, number: int) -> tuple[str, dict[str, Any]]:
    return (
        "{seat} discards its Royal " + _TEXT[face] + " " + _TEXT[number],
        {"kind": "discard_royal", "seat": seat, "cards": [_TEXT[face], _TEXT[number]]},
    )
