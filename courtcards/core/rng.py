"""Seeded, serializable randomness.

The generator is SplitMix64: its whole state is one 64-bit integer, so a game
state saves it to JSON exactly and a replay is bit-for-bit identical on any
Python version (``random.Random`` makes no such promise across versions).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_STEPS = np.arange(1, 1025, dtype=np.uint64) * np.uint64(_GAMMA)  # k * GAMMA, wrapping
_SHIFTS = [64 - n.bit_length() for n in range(1025)]  # below(n) keeps the top bits of a draw


def _outputs(state: int, count: int) -> list[int]:
    """The next ``count`` (at most 1024) outputs of SplitMix64 from ``state``: its state
    after k draws is ``state + k * GAMMA``, and each output a fixed mix of that."""
    z = _STEPS[:count] + np.uint64(state)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: list[int] = (z ^ (z >> np.uint64(31))).tolist()
    return out


class Rng:
    """A small deterministic generator owned by a game state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no bias).
        :meth:`next64` is written out here: this is the hottest call of a playout."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        shift = _SHIFTS[n] if n < 1025 else 64 - n.bit_length()
        z = self.state
        while True:
            z = (z + 0x9E3779B97F4A7C15) & _MASK
            state = z
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            r = (z ^ (z >> 31)) >> shift
            if r < n:
                self.state = state
                return r
            z = state

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place, with ``below(i + 1)`` for i from the top down.
        The draws are computed in NumPy batches; the result and the generator's state
        after are exactly those of drawing one at a time (:meth:`shuffle_slow`)."""
        size = len(items)
        if size < 2:
            return
        start = self.state
        buffer = _outputs(start, min(1024, size + size // 2 + 8))  # under 1.5 draws a card on average
        pos = 0
        shifts = _SHIFTS if size < len(_SHIFTS) else [64 - n.bit_length() for n in range(size + 1)]
        for i in range(size - 1, 0, -1):
            n = i + 1
            shift = shifts[n]
            while True:
                if pos == len(buffer):
                    buffer += _outputs((start + pos * _GAMMA) & _MASK, 256)
                j = buffer[pos] >> shift
                pos += 1
                if j < n:
                    break
            items[i], items[j] = items[j], items[i]
        self.state = (start + pos * _GAMMA) & _MASK

    def shuffle_slow(self, items: MutableSequence[T]) -> None:
        """The reference: Fisher-Yates one draw at a time."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def draws(self, expected: int) -> Draws:
        """Buffered ``below`` calls (for many small draws in a row); ``close()`` the result
        to hand the state back, exactly as if ``below`` had been called each time."""
        return Draws(self, expected)

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        other = Rng(0)
        other.state = self.state
        return other


class Draws:
    """``Rng.below`` from a batch of outputs; :meth:`close` hands the state back."""

    __slots__ = ("buffer", "pos", "rng", "start")

    def __init__(self, rng: Rng, expected: int) -> None:
        self.rng = rng
        self.start = rng.state
        self.buffer = _outputs(self.start, max(1, min(1024, expected)))
        self.pos = 0

    def below(self, n: int) -> int:
        shift = 64 - n.bit_length()
        buffer = self.buffer
        while True:
            if self.pos == len(buffer):
                buffer += _outputs((self.start + self.pos * _GAMMA) & _MASK, 256)
            r: int = buffer[self.pos] >> shift
            self.pos += 1
            if r < n:
                return r

    def close(self) -> None:
        self.rng.state = (self.start + self.pos * _GAMMA) & _MASK
