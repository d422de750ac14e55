"""Five Tricks' rules engine (docs/rules.md in this package).

The state keeps each seat's hand, the cards set aside unseen, the trick on the
table (its leader and the cards played to it, in order) and the finished tricks
(leader, cards in play order, winner). Everything else (whose turn it is, tricks
won, who is known void in a suit) follows from those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields
from courtcards.core.rng import Rng
from courtcards.core.state import JSON, Action, Result, State

from courtcards_fivetricks.cards import DECK, PLAYS, SUIT_NAMES, SUITS, TEXT, FiveTricksAction, parse_card, suit, texts

if TYPE_CHECKING:
    from courtcards.core.options import OptionValue

    from courtcards_fivetricks.game import FiveTricksGame

PLAY, OVER = "play", "over"
MAX_RNG = 2**64 - 1
#: a finished trick: (leader, cards in play order, winner)
Trick = tuple[int, tuple[int, ...], int]


def trick_winner(leader: int, cards: tuple[int, ...] | list[int], n: int) -> int:
    """The seat whose card is the highest of the led suit."""
    led = suit(cards[0])
    best = max((c, i) for i, c in enumerate(cards) if suit(c) == led)[1]
    return (leader + best) % n


def seat_list(key: str, count: int) -> str:
    """A list of seats in an event's template: placeholders into the list ``data[key]`` of ``count`` seats."""
    names = [f"{{{key}.{i}}}" for i in range(count)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class FiveTricksState(State):
    """One game of Five Tricks for 2 to 4 seats."""

    game: FiveTricksGame

    def __init__(
        self, game: FiveTricksGame, num_players: int, options: dict[str, OptionValue], seed: int, *, shell: bool = False
    ) -> None:
        if shell:
            return
        self._init_base(game, num_players, options, seed)
        self.rng = Rng(seed)
        size = options["hand_size"]
        assert isinstance(size, int)
        self.hand_size = size
        self.hands: list[list[int]] = [[] for _ in range(num_players)]  # sorted by code
        self.aside: list[int] = []  # sorted
        self.leader = 0
        self.trick: list[int] = []  # cards of the trick on the table, in play order
        self.done: list[Trick] = []

    def _start(self) -> None:
        n, size = self.num_players, self.hand_size
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[s * size : (s + 1) * size]) for s in range(n)]
        self.aside = sorted(deck[n * size :])
        drawn = bool(self.options["random_leader"])
        self.leader = self.rng.below(n) if drawn else 0
        seats = seat_list("players", n)
        tail = f"{len(self.aside)} set aside unseen; {{leader}} leads{' (drawn at random)' * drawn}."
        data: dict[str, Any] = {
            "players": list(range(n)),
            "leader": self.leader,
            "size": size,
            "aside": len(self.aside),
        }
        secret = {
            s: (
                f"The deal: {size} cards each to {seats} ({{seat}} holds {' '.join(texts(self.hands[s]))}), " + tail,
                {**data, "seat": s, "cards": texts(self.hands[s])},
            )
            for s in range(n)
        }
        self.log_event(None, "deal", f"The deal: {size} cards each to {seats}, {tail}", data, secret)

    def _shell(self) -> Self:
        return type(self)(self.game, self.num_players, self.options, self.seed, shell=True)

    def _copy_into(self, new: State) -> None:
        assert isinstance(new, FiveTricksState)
        new.hand_size, new.leader = self.hand_size, self.leader
        new.hands = [h[:] for h in self.hands]
        new.aside, new.trick, new.done = self.aside[:], self.trick[:], self.done[:]

    # -- what follows from the fields ---------------------------------------------------
    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.num_players

    def tricks_won(self) -> list[int]:
        won = [0] * self.num_players
        for _, _, winner in self.done:
            won[winner] += 1
        return won

    def voids(self) -> list[set[int]]:
        """The suits each seat is known to lack: it did not follow when that suit was led."""
        out: list[set[int]] = [set() for _ in range(self.num_players)]
        for leader, cards, _ in [*self.done, (self.leader, tuple(self.trick), -1)]:
            if cards:
                led = suit(cards[0])
                for i, c in enumerate(cards):
                    if suit(c) != led:
                        out[(leader + i) % self.num_players].add(led)
        return out

    # -- decisions ----------------------------------------------------------------------
    def is_over(self) -> bool:
        return len(self.done) == self.hand_size

    def _actors(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn,)

    def _legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if self.trick:
            led = suit(self.trick[0])
            follow = [c for c in hand if suit(c) == led]
            if follow:
                return [PLAYS[c] for c in follow]
        return [PLAYS[c] for c in hand]

    def refusal(self, seat: int, action: Action) -> str | None:
        """The rules for one card: why it may not be played now, None if it may."""
        assert isinstance(action, FiveTricksAction)
        if self.is_over() or seat != self.turn:
            return "not your turn"
        hand = self.hands[seat]
        if action.card not in hand:
            return f"you do not hold {action.text} (hand: {' '.join(texts(hand)) or 'empty'})"
        if self.trick:
            led = suit(self.trick[0])
            follow = [c for c in hand if suit(c) == led]
            if follow and suit(action.card) != led:
                return f"you must follow {SUIT_NAMES[led]}: play {' or '.join(texts(follow))}"
        return None

    def _resolve(self, actions: dict[int, Action]) -> None:
        ((seat, action),) = actions.items()
        assert isinstance(action, FiveTricksAction)
        card, n = action.card, self.num_players
        self.hands[seat].remove(card)
        number = len(self.done) + 1
        data: dict[str, Any] = {"seat": seat, "card": action.text, "trick": number}
        if not self.trick:
            said = f"Trick {number}: {{seat}} leads {action.text}"
        elif suit(card) != suit(self.trick[0]):
            said = f"Trick {number}: {{seat}} plays {action.text}, having no {SUIT_NAMES[suit(self.trick[0])]}"
            data["void"] = SUIT_NAMES[suit(self.trick[0])]
        else:
            said = f"Trick {number}: {{seat}} plays {action.text}"
        self.trick.append(card)
        if len(self.trick) < n:
            self.log_event(seat, "play", said + ".", data)
            return
        cards = tuple(self.trick)
        winner = trick_winner(self.leader, cards, n)
        self.done.append((self.leader, cards, winner))
        self.leader, self.trick = winner, []
        best = TEXT[cards[(winner - self.done[-1][0]) % n]]
        data.update(winner=winner, best=best)
        if not self.is_over():
            self.log_event(seat, "trick", f"{said}; {{winner}} wins the trick with {best} and leads.", data)
            return
        self.log_event(seat, "trick", f"{said}; {{winner}} wins the last trick with {best}.", data)
        result = self.result()
        assert result is not None
        won = result.scores
        w = result.winner
        assert w is not None
        tied = [s for s in range(n) if won[s] == won[w] and s != w]
        tally = ", ".join(f"{{players.{s}}} {won[s]}" for s in range(n))
        why = f"; tied with {seat_list('tied', len(tied))}, it won a trick later" if tied else ""
        self.log_event(
            None,
            "game_over",
            f"The game is over: {{winner}} wins with {won[w]} of {self.hand_size} tricks ({tally}){why}.",
            {"winner": w, "players": list(range(n)), "tricks": list(won), "tied": tied},
        )

    # -- results and views --------------------------------------------------------------
    def result(self) -> Result | None:
        if not self.is_over():
            return None
        won = self.tricks_won()
        last = [0] * self.num_players  # the number of the last trick each seat won (0: none)
        for i, (_, _, winner) in enumerate(self.done, 1):
            last[winner] = i
        ranking = tuple(sorted(range(self.num_players), key=lambda s: (-won[s], -last[s], s)))
        tie = won.count(won[ranking[0]]) > 1
        return Result(
            winner=ranking[0],
            ranking=ranking,
            scores=tuple(won),
            details={"score": "tricks won", "tie_break": tie, "last_trick_won": last},
        )

    def log_json(self) -> list[JSON]:
        return [
            {"trick": i + 1, "leader": leader, "cards": texts(cards), "winner": winner}
            for i, (leader, cards, winner) in enumerate(self.done)
        ]

    def view(self, seat: int | None) -> JSON:
        res = self.result()
        n, won, voids = self.num_players, self.tricks_won(), self.voids()
        over = self.is_over()
        return {
            "game": self.game.name,
            "seat": seat,
            "num_players": n,
            "options": dict(self.options),
            "version": self.version,
            "phase": OVER if over else PLAY,
            "round": min(len(self.done) + 1, self.hand_size),
            "to_move": list(self.to_move()),
            "turn": None if over else self.turn,
            "hand": [] if seat is None else texts(self.hands[seat]),
            "players": [
                {
                    "seat": s,
                    "hand_size": len(self.hands[s]),
                    "score": won[s],
                    "voids": [SUITS[v] for v in sorted(voids[s])],
                }
                for s in range(n)
            ],
            "set_aside": len(self.aside),
            "leader": self.leader,
            "led_suit": SUITS[suit(self.trick[0])] if self.trick else None,
            "trick": [{"seat": (self.leader + i) % n, "card": TEXT[c]} for i, c in enumerate(self.trick)],
            "tricks_log": self.log_json(),
            "log": self.log_view(seat),
            "pending": self.pending_view(seat),
            "result": None if res is None else res.to_json(),
        }

    # -- cards by place -----------------------------------------------------------------
    def card_places(self) -> dict[str, list[str]]:
        places = {f"hand:{s}": texts(h) for s, h in enumerate(self.hands)}
        places["aside"] = texts(self.aside)
        places["trick"] = texts(self.trick)
        places["won"] = [TEXT[c] for _, cards, _ in self.done for c in cards]
        return places

    def deck(self) -> list[str]:
        return list(TEXT)

    def hidden_places(self, seat: int | None) -> list[str]:
        return [f"hand:{s}" for s in range(self.num_players) if s != seat] + ["aside"]

    def invariants(self) -> list[str]:
        problems = []
        played = len(self.done)
        voids = self.voids()
        for s, hand in enumerate(self.hands):
            owed = self.hand_size - played - (1 if (s - self.leader) % self.num_players < len(self.trick) else 0)
            if len(hand) != owed:
                problems.append(f"seat {s} holds {len(hand)} cards, not {owed}")
            for c in hand:
                if suit(c) in voids[s]:
                    problems.append(f"seat {s} holds {TEXT[c]} after failing to follow {SUIT_NAMES[suit(c)]}")
        if len(self.trick) >= self.num_players:
            problems.append("the trick on the table is complete")
        return problems

    # -- JSON ---------------------------------------------------------------------------
    def _to_json(self) -> JSON:
        return {
            "rng": self.rng.state,
            "hands": [texts(h) for h in self.hands],
            "aside": texts(self.aside),
            "leader": self.leader,
            "trick": texts(self.trick),
            "tricks_log": self.log_json(),
        }

    def load_json(self, data: Mapping[str, Any], strict: bool = True) -> None:
        """Fill this state from its JSON or an explicit position. Only ``hands`` is
        required; ``trick`` (cards on the table in play order) and ``tricks_log``
        default to none, ``leader`` to the winner of the last trick (seat 0 before the
        first), ``aside`` to the cards in no other place. ``strict`` (always, except for
        the conformance suite's reshuffled copies) checks hand sizes and voids."""
        n, f = self.num_players, Fields(data)
        if f.has("rng"):
            self.rng.state = f.integer("rng", 0, MAX_RNG)
        if not f.has("hands"):
            raise PositionError("hands", f"a Five Tricks position needs 'hands': {n} lists of cards")
        self.hands = [sorted(h) for h in f.card_lists("hands", parse_card, n)]
        done: list[Trick] = []
        voids: list[set[int]] = [set() for _ in range(n)]
        for i, entry in enumerate(f.objs("tricks_log", default=[])):
            if entry.integer("trick", 1, self.hand_size) != i + 1:
                raise PositionError(entry.at("trick"), f"must be {i + 1}: tricks are numbered in order")
            leader = entry.seat("leader", n)
            assert leader is not None
            cards = tuple(entry.cards("cards", parse_card))
            if len(cards) != n:
                raise PositionError(entry.at("cards"), f"a finished trick has {n} cards, not {len(cards)}")
            winner = trick_winner(leader, cards, n)
            if entry.seat("winner", n) != winner:
                raise PositionError(entry.at("winner"), f"seat {winner} wins this trick (the highest of the led suit)")
            if strict and done and leader != done[-1][2]:
                raise PositionError(entry.at("leader"), f"the winner of the trick before, seat {done[-1][2]}, leads")
            if strict:
                self._check_voids(voids, leader, cards, entry.at("cards"))
            done.append((leader, cards, winner))
        self.done = done
        if len(done) > self.hand_size:
            raise PositionError("tricks_log", f"a game has {self.hand_size} tricks, not {len(done)}")
        default_leader = done[-1][2] if done else 0
        leader = f.seat("leader", n, optional=True)
        self.leader = default_leader if leader is None else leader
        if strict and done and self.leader != default_leader:
            raise PositionError("leader", f"the winner of the last trick, seat {default_leader}, leads")
        self.trick = f.cards("trick", parse_card, default=[])
        if len(self.trick) >= n or (self.trick and self.is_over()):
            raise PositionError("trick", f"the trick on the table has {len(self.trick)} cards: too many")
        if strict:
            self._check_voids(voids, self.leader, tuple(self.trick), "trick")
        if f.data.get("aside") is not None:
            self.aside = sorted(f.cards("aside", parse_card))
        else:
            placed = {c for h in self.hands for c in h} | set(self.trick) | {c for _, cs, _ in done for c in cs}
            self.aside = [c for c in DECK if c not in placed]
        if strict:
            problems = self.invariants()
            if problems:
                raise PositionError("hands", "; ".join(problems))

    def _check_voids(self, voids: list[set[int]], leader: int, cards: tuple[int, ...], where: str) -> None:
        """No seat plays a suit it showed it lacked; record the voids these cards show."""
        for i, c in enumerate(cards):
            s = (leader + i) % self.num_players
            if suit(c) in voids[s]:
                raise PositionError(where, f"seat {s} plays {TEXT[c]} after failing to follow {SUIT_NAMES[suit(c)]}")
            if i and suit(c) != suit(cards[0]):
                voids[s].add(suit(cards[0]))
