"""The hook points of the Rank engine, for rule variants defined outside it (docs/plugins.md).

A variant subclasses :class:`RankHooks`, overrides what it changes, and declares a game
that uses it::

    class KnightsGame(RankGame):
        info = dataclasses.replace(RankGame.info, name="rank_knights", title="Rank: Knights' Tokens")
        hooks = KnightsHooks()

The engine calls the hooks at the points their docstrings name; everything else (the
conservation checks, views, ids, bots, search, analysis) follows, since they read the
state rather than the rule. The hooks must be pure functions of their arguments.
"""

from __future__ import annotations

from collections.abc import Sequence


class RankHooks:
    """The standard rules (RK-10): the King gains 2 Royal Tokens, the Queen 1."""

    def tokens(self, finish: Sequence[int], num_players: int) -> list[int]:
        """Royal Tokens each seat gains at the end of a hand, from the hand's finishing
        order ``finish`` (seats, first out first; the last one is the Beggar). Not
        called in an Endless game (RK-15), which gives no tokens."""
        gained = [0] * num_players
        gained[finish[0]] += 2
        gained[finish[1]] += 1
        return gained


STANDARD = RankHooks()
