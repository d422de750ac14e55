"""Action ids: a fixed numbering of every action a game can ever offer.

Each game describes its numbering with an :class:`ActionCodec` for a given
player count and options (``Game.action_codec``). The numbering depends only on
the action, never on the state, so id ``i`` means the same thing in every
position of that configuration; it is documented per game in ``docs/engine/``
and frozen by the fixtures in ``tests/fixtures/action_ids/``
(:data:`ACTION_IDS_VERSION` changes whenever a numbering does).

A decision with combinatorially many choices (discard any k cards, commit any
cards) is split into a sequence of small decisions: an action encodes as a
tuple of ids, for example one card at a time and then ``done``. The encodings
of one decision are prefix-free, so the state can walk a seat's partial choice
(its *id prefix*) through the legal actions like a trie: the ids legal next are
exactly the next steps of the legal actions that start with the prefix.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from mypy_extensions import mypyc_attr

ACTION_IDS_VERSION = 2  # 2: Royals' commit ids in the one numbering of the 52 cards

A = TypeVar("A")


# compiled (mypyc), a plug-in game's codec (interpreted) must still be able to subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class ActionCodec(ABC):
    """The numbering of one game configuration (players and options)."""

    #: how many ids exist (OpenSpiel's ``num_distinct_actions``)
    size: int

    def __init__(self) -> None:
        self._encoded: dict[Hashable, tuple[int, ...]] = {}

    def encode(self, action: Hashable) -> tuple[int, ...]:
        """The id sequence of an engine action (length 1 for most actions)."""
        found = self._encoded.get(action)
        if found is None:
            found = self._encode(action)
            if len(self._encoded) < 100_000:
                self._encoded[action] = found
        return found

    @abstractmethod
    def _encode(self, action: Hashable) -> tuple[int, ...]:
        """Compute the id sequence of an action of this game."""

    @abstractmethod
    def describe(self, action_id: int) -> str:
        """What one id means, in words close to the notation (docs, fixtures)."""

    def table(self) -> list[str]:
        """Every id's description, in id order (the committed fixture)."""
        return [self.describe(i) for i in range(self.size)]


def choose_by_steps(
    legal: Sequence[A],
    encode: Callable[[A], tuple[int, ...]],
    values: Callable[[tuple[int, ...], list[int]], Sequence[float]],
) -> A:
    """The legal action reached by taking, at each id step of a decision, the next id of highest value
    (ties to the lowest id): ``values(prefix, ids)`` gives the values of the candidate next ``ids`` after
    ``prefix``; a step with one candidate is taken without asking. For a policy over ids (a network)."""
    encoded = [(encode(a), a) for a in legal]
    prefix: tuple[int, ...] = ()
    while True:
        depth = len(prefix)
        nexts: dict[int, A | None] = {}
        for ids, action in encoded:
            if ids[:depth] == prefix:
                nexts[ids[depth]] = action if len(ids) == depth + 1 else None
        candidates = list(nexts)
        if len(candidates) == 1:
            best = candidates[0]
        else:
            scored = zip(values(prefix, candidates), candidates, strict=True)
            best = max(scored, key=lambda vi: (float(vi[0]), -vi[1]))[1]
        done = nexts[best]
        if done is not None:
            return done
        prefix = (*prefix, best)


def fixture(game_name: str) -> dict[str, object]:
    """The committed record of a game's numbering (tests/fixtures/action_ids/):
    size and SHA-256 of the table for every configuration the conformance suite
    plays, and the whole table for the smallest and largest table sizes."""
    import hashlib

    from courtcards.core.game import get_game

    game = get_game(game_name)
    configs: list[dict[str, object]] = []
    tables: dict[str, list[str]] = {}
    seen: set[str] = set()
    for players, options in game.test_configs():
        codec = game.action_codec(players, options)
        table = codec.table()
        digest = hashlib.sha256("\n".join(table).encode()).hexdigest()
        key = f"{players} {sorted(options.items())}"
        if key in seen:
            continue
        seen.add(key)
        configs.append({"players": players, "options": dict(options), "size": codec.size, "sha256": digest})
        if players in (game.min_players, game.max_players) and not options and str(players) not in tables:
            tables[str(players)] = table
    for players in (game.min_players, game.max_players):
        if str(players) not in tables:
            tables[str(players)] = game.action_codec(players, {}).table()
    return {"game": game_name, "version": ACTION_IDS_VERSION, "configs": configs, "tables": tables}


def main(argv: list[str] | None = None) -> None:
    """Write the fixtures: ``python -m courtcards.core.ids DIR GAME...``."""
    import json
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name in args[1:]:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(fixture(name), indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
