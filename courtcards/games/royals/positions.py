"""Royals: loading and checking a position (docs/notation.md), out of the compiled rules.

:func:`load_position` is the game's loader with the core's one signature
(:class:`courtcards.core.positions.LoadPosition`), called by ``Game._load_state``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields, LoadPosition, as_card, as_list
from courtcards.games.royals.cards import ATTACK_VALUES, BLOCK_VALUES, DECK, TEXT, is_face, is_number, parse_card, suit
from courtcards.games.royals.state import (
    ACTION,
    ASSASSINATE,
    ATTACK,
    COMMIT,
    HITS,
    LOSSES,
    OVER,
    PAIR,
    PHASES,
    START,
    Fight,
    Royal,
    RoyalsState,
    _cards,
    _names,
    _values,
)


def load_position(state: RoyalsState, data: Mapping[str, Any], strict: bool) -> None:
    """Fill ``state`` from full-state JSON or an explicit position (docs/notation.md).
    Every pile is listed top card first. Every field is read through
    :class:`~courtcards.core.positions.Fields`: a bad one raises PositionError naming it.

    Left-out fields: no Royals, empty hands, discard piles and tables; each
    seat's deck holds its remaining cards, shuffled (if ``decks`` is given,
    the remaining cards are in the discard pile instead). A fight may leave
    out what follows from the position (:func:`_complete_fight`).
    Phase ``start`` asks for the turn to begin: it is begun here."""
    n = state.num_players
    f = Fields(data)
    if f.has("rng"):
        state.rng.state = f.integer("rng", 0, 2**64 - 1)
    hands = _seat_cards(state, f, "hands")
    state.hands = [sorted(h) for h in hands] if hands is not None else [[] for _ in range(n)]
    state.table = _seat_cards(state, f, "table") or [[] for _ in range(n)]
    state.royals = _load_royals(state, f)
    decks = _seat_cards(state, f, "decks")
    discards = _seat_cards(state, f, "discards")
    state.decks = [[] for _ in range(n)]
    state.discards = [[] for _ in range(n)]
    for s in range(n):
        placed = state.hands[s] + state.table[s] + [c for r in state.royals[s] for c in r]
        placed += (decks[s] if decks else []) + (discards[s] if discards else [])
        dupes = sorted(c for c, k in Counter(placed).items() if k > 1)
        if dupes:
            raise PositionError("cards", f"seat {s} has {_names(dupes)} more than once")
        rest = sorted(set(DECK) - set(placed))
        if decks is not None and discards is not None and rest:
            raise PositionError("cards", f"seat {s}'s cards do not add up to its deck: missing {_names(rest)}")
        if decks is None:
            state.rng.shuffle(rest)
            state.decks[s] = rest
            state.discards[s] = discards[s][::-1] if discards else []  # kept bottom card first
        else:
            state.decks[s] = decks[s][::-1]
            state.discards[s] = discards[s][::-1] if discards is not None else rest
        if len(state.hands[s]) > state.hand_limit:
            raise PositionError(
                f"hands[{s}]", f"seat {s} holds {len(state.hands[s])} cards, above the limit {state.hand_limit}"
            )
    state.phase = f.text("phase", (*PHASES, START), default=ACTION)
    fight = None if f.data.get("fight") is None else Fight.from_fields(f.obj("fight"), n)
    state.fight = fight
    state.turn = f.integer("turn", 0, n - 1, default=fight.attacker if fight is not None else 0)
    state.turns = f.integer("turns", 0, default=0 if state.phase == START else 1)
    state.first_player = f.integer("first_player", 0, n - 1, default=state.turn)
    state.opening = []
    for i, level in enumerate(f.array("opening", default=[])):
        at = f"opening[{i}]"
        row = as_list(level, at, n)
        state.opening.append(["" if t == "" else TEXT[as_card(t, f"{at}[{j}]", parse_card)] for j, t in enumerate(row)])
    if fight is None and state.phase in (COMMIT, PAIR, HITS, LOSSES):
        raise PositionError("fight", f"phase {state.phase!r} needs a fight")
    if fight is not None:
        if state.phase not in (COMMIT, PAIR, HITS, LOSSES):
            raise PositionError("fight", f"no fight is under way in phase {state.phase!r}")
        if fight.attacker != state.turn:
            raise PositionError(
                "fight.attacker", f"the fight is seat {state.turn}'s turn action, not seat {fight.attacker}'s"
            )
        _complete_fight(state, f.obj("fight"))
    elif any(state.table):
        raise PositionError("table", "cards lie on the table only during a fight")
    state.last_fight, state.last_table = None, [[] for _ in range(n)]
    if f.data.get("last_fight") is not None:
        lf = f.obj("last_fight")
        state.last_fight = Fight.from_fields(lf, n)
        table = lf.card_lists("table", parse_card, n, default=None)
        if table is not None:
            state.last_table = table
    winner = f.opt_integer("winner", 0, n - 1)
    state.winner = winner
    if winner is not None and state.phase != OVER:
        raise PositionError("winner", f"a winner only once the game is over, not in phase {state.phase!r}")
    state.new_decks = [None] * n
    for i, pile in enumerate(f.array("new_decks", n, default=[None] * n)):
        if pile is not None:
            at = f"new_decks[{i}]"
            state.new_decks[i] = tuple(
                sorted(as_card(t, f"{at}[{j}]", parse_card) for j, t in enumerate(as_list(pile, at)))
            )
    if state.phase == START:  # the position asks for its turn to begin
        state._begin_turn(state.turn)
        state._flush(state.turn)


def _complete_fight(state: RoyalsState, f: Fields) -> None:
    """Fill in what a fight of an explicit position leaves out, and check what it gives.

    ``need``: the commitments RY-4 or RY-5 asks for, from the hands at the
    declaration (a seat's hand and its cards on the table); ``revealed``: after
    the commit phase; ``attacks`` and ``blocks``: the red and black number cards
    on the table; ``hits``: the attacks not cancelled; ``assigned``: for an
    assassination, every hit on its target."""
    fight = state.fight
    assert fight is not None
    n = state.num_players
    if fight.kind == ASSASSINATE and fight.target not in dict(state.royals[fight.defender]):
        raise PositionError("fight.target", f"seat {fight.defender} has no Royal {TEXT[fight.target]} in play")
    if not state.royals[fight.defender] and fight.kind == ATTACK and state.phase == COMMIT:
        raise PositionError("fight.defender", f"seat {fight.defender} has no Royal to attack (RY-4)")
    held = [len(state.hands[s]) + len(state.table[s]) for s in range(n)]
    rule = _rule_need(state, held)
    # in the losses phase each hit Royal dealt with was discarded or took a number card from the hand,
    # so the defender may have held up to that many more Royals or cards when the fight was declared
    slack = fight.resolved if state.phase == LOSSES else 0
    d = fight.defender
    if not f.has("need"):
        fight.need = rule
        fight.need[d] = max(rule[d], min(len(state.table[d]), rule[d] + slack))
    else:
        fight.need = {s: fight.need.get(s, rule[s]) for s in range(n)}  # a seat left out: as RY-4, RY-5 ask
        for s, k in fight.need.items():
            if k > held[s] + (slack if s == d else 0):
                raise PositionError(f"fight.need.{s}", f"seat {s} holds {_cards(held[s])}, it cannot commit {k}")
            if not rule[s] <= k <= rule[s] + (slack if s == d else 0):
                raise PositionError(f"fight.need.{s}", _need_reason(state, s, k, rule[s], held[s]))
    committing = state.phase == COMMIT
    if not f.has("revealed"):
        fight.revealed = not committing
    if fight.revealed == committing:
        raise PositionError("fight.revealed", "the cards are revealed after the commit phase, not before")
    if committing and any(state.table):
        raise PositionError(
            "table",
            "committed cards lie on the table only after the reveal (until then they are the seats' pending choices)",
        )
    played = [c for cards in state.table for c in cards]
    attacks = sorted([v for v in map(ATTACK_VALUES.__getitem__, played) if v])
    blocks = sorted([v for v in map(BLOCK_VALUES.__getitem__, played) if v])
    for key, values, shown in (("attacks", fight.attacks, attacks), ("blocks", fight.blocks, blocks)):
        if not f.has(key):
            values[:] = shown
        elif values != shown:
            raise PositionError(f"fight.{key}", f"the table shows {key} {_values(shown)}, not {_values(values)}")
    paired_attacks, paired_blocks = Counter(a for a, _ in fight.pairs), Counter(b for _, b in fight.pairs)
    if paired_attacks - Counter(attacks) or paired_blocks - Counter(blocks):
        raise PositionError("fight.pairs", "each pair needs its own attack and block on the table")
    if not f.has("hits") and state.phase in (HITS, LOSSES):
        fight.hits = len(attacks) - len(fight.pairs)
    if state.phase in (HITS, LOSSES) and fight.hits != len(attacks) - len(fight.pairs):
        raise PositionError(
            "fight.hits",
            f"{len(attacks)} attacks with {len(fight.pairs)} blocked make "
            f"{len(attacks) - len(fight.pairs)} hits, not {fight.hits}",
        )
    if not f.has("assigned") and fight.kind == ASSASSINATE and state.phase == LOSSES:
        fight.assigned = [fight.target] * fight.hits  # RY-5
    if len(fight.assigned) > fight.hits:
        raise PositionError("fight.assigned", f"{len(fight.assigned)} hits placed of {fight.hits}")
    if fight.resolved > len(fight.wounds()):
        raise PositionError(
            "fight.resolved", f"{fight.resolved} hit Royals dealt with, but only {len(fight.wounds())} are hit"
        )
    if state.phase == LOSSES and len(fight.assigned) != fight.hits:
        raise PositionError(
            "fight.assigned", f"every hit is placed before the losses: {len(fight.assigned)} of {fight.hits}"
        )
    faces = dict(state.royals[fight.defender])
    for face, _ in fight.wounds()[fight.resolved :]:
        if face not in faces:
            raise PositionError("fight.assigned", f"seat {fight.defender} has no Royal {TEXT[face]} in play")
    if fight.revealed:  # RY-4, RY-5: each seat committed what it had to (the defender of an attack: at most)
        for s in range(n):
            k, laid = fight.need[s], len(state.table[s])
            up_to = fight.kind == ATTACK and s == d
            if laid > k or (laid < k and not up_to):
                rules = "RY-4" if fight.kind == ATTACK else "RY-5"
                asked = f"{'at most ' if up_to else ''}{_cards(k)}"
                raise PositionError(f"table[{s}]", f"seat {s} commits {asked} to this fight ({rules}), not {laid}")


def _rule_need(state: RoyalsState, held: list[int]) -> dict[int, int]:
    """The cards each seat commits to the fight as RY-4 or RY-5 asks, from the Royals in play and
    ``held`` (each seat's hand and its cards on the table): the attacker max(1, its Royals), every
    other seat its Royals (the defender: at most), capped by the cards held; an assassination: one
    card each from the assassin and the Royal's owner, if they hold any."""
    fight = state.fight
    assert fight is not None
    n = state.num_players
    if fight.kind == ATTACK:
        return {
            s: min(max(1, len(state.royals[s])) if s == fight.attacker else len(state.royals[s]), held[s])
            for s in range(n)
        }
    need = {s: 0 for s in range(n)}
    need[fight.attacker] = min(1, held[fight.attacker])
    need[fight.defender] = min(1, held[fight.defender])
    return need


def _need_reason(state: RoyalsState, seat: int, k: int, asked: int, held: int) -> str:
    """Why an explicit ``need`` of ``k`` for ``seat`` is not the ``asked`` count of RY-4 or RY-5."""
    fight = state.fight
    assert fight is not None
    royals = len(state.royals[seat])
    has = f"seat {seat} has {royals} Royal{'s' if royals != 1 else ''} in play and holds {_cards(held)}"
    if fight.kind == ATTACK:
        role = (
            "the attacker"
            if seat == fight.attacker
            else "the defender"
            if seat == fight.defender
            else "a seat that joins"
        )
        return (
            f"{has}: as {role} it commits {'at most ' if seat == fight.defender else ''}{_cards(asked)} "
            f"to the attack, not {k} (RY-4)"
        )
    role = (
        "the assassin"
        if seat == fight.attacker
        else "the Royal's owner"
        if seat == fight.defender
        else "a seat outside the assassination"
    )
    return f"{has}: as {role} it commits {_cards(asked)}, not {k} (RY-5)"


def _seat_cards(state: RoyalsState, f: Fields, key: str) -> list[list[int]] | None:
    """Per seat, a list of cards (or their text separated by spaces); None if absent."""
    if f.data.get(key) is None:
        return None
    out = []
    for s, item in enumerate(f.array(key, state.num_players)):
        at = f"{key}[{s}]"
        words = item.split() if isinstance(item, str) else as_list(item, at)
        out.append([as_card(t, f"{at}[{j}]", parse_card) for j, t in enumerate(words)])
    return out


def _load_royals(state: RoyalsState, f: Fields) -> list[list[Royal]]:
    n = state.num_players
    if f.data.get("royals") is None:
        return [[] for _ in range(n)]
    out: list[list[Royal]] = []
    for s, items in enumerate(f.array("royals", n)):
        royals: list[Royal] = []
        for i, item in enumerate(as_list(items, f"royals[{s}]")):
            at = f"royals[{s}][{i}]"
            words = item.split() if isinstance(item, str) else as_list(item, at)
            if len(words) != 2:
                raise PositionError(at, f"a Royal is a face card and a number card, not {item!r}")
            face, number = (as_card(t, f"{at}[{j}]", parse_card) for j, t in enumerate(words))
            if not (is_face(face) and is_number(number) and suit(face) == suit(number)):
                raise PositionError(
                    at, f"{TEXT[face]} {TEXT[number]} is not a face card with a number card of its suit (RY-3)"
                )
            royals.append((face, number))
        out.append(sorted(royals))
    return out


def position_errors(state: RoyalsState) -> list[str]:
    """What makes a loaded position impossible beyond the invariants (State.position_errors)."""
    fight = state.fight
    if fight is None:
        return []
    n = state.num_players
    problems = []
    if fight.kind not in ("attack", "assassinate"):
        problems.append(f"fight.kind must be attack or assassinate, not {fight.kind!r}")
    if not (0 <= fight.attacker < n and 0 <= fight.defender < n) or fight.attacker == fight.defender:
        return [*problems, f"fight between seats {fight.attacker} and {fight.defender}: two different seats"]
    faces = {f for f, _ in state.royals[fight.defender]}
    if fight.kind == "assassinate" and fight.target not in faces:
        problems.append(f"fight.target is not one of seat {fight.defender}'s Royals")
    if any(not 0 <= s < n or k < 0 for s, k in fight.need.items()):
        problems.append("fight.need must give a seat and a count of at least 0")
    wounds = fight.wounds()
    if fight.hits < 0 or len(fight.assigned) > fight.hits or not 0 <= fight.resolved <= len(wounds):
        problems.append("fight.hits, fight.assigned and fight.resolved do not fit together")
    elif any(face not in faces for face, _ in wounds[fight.resolved :]):  # resolved ones may be gone
        problems.append(f"fight.assigned names a Royal seat {fight.defender} does not have")
    return problems


_SIGNATURE: LoadPosition[RoyalsState] = load_position  # the core's one signature (mypy checks it)
