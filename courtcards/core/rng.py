"""Seeded, serializable randomness.

The generator is SplitMix64: its whole state is one 64-bit integer, so a game
state saves it to JSON exactly and a replay is bit-for-bit identical on any
Python version (``random.Random`` makes no such promise across versions).

Scripted draws (for OpenSpiel's chance nodes, ``courtcards.envs.openspiel``): every draw a game
makes is ``below(n)`` (``shuffle`` is Fisher-Yates, ``below(i + 1)`` for i from the top down;
``choice`` is one ``below``), a uniform integer in ``[0, n)``. A generator can instead be given those
outcomes (:meth:`Rng.set_script`, or :func:`script_next` for the generator a new game makes): it
answers from them in order, and raises :class:`ChanceNeeded` with ``n`` at the first draw past them.
A seeded generator's draws are one such script, so the same outcomes give the same game.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from types import FunctionType
from typing import Any, Final, TypeVar

import numpy as np
from mypy_extensions import i64

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_TWO64: Final = 1 << 64
_GAMMA: Final = 0x9E3779B97F4A7C15
_STEPS: Final = np.arange(1, 1025, dtype=np.uint64) * np.uint64(_GAMMA)  # k * GAMMA, wrapping
_SHIFTS: Final = [64 - n.bit_length() for n in range(1025)]  # below(n) keeps the top bits of a draw


_S30: Final = np.uint64(30)
_S27: Final = np.uint64(27)
_S31: Final = np.uint64(31)
_M1: Final = np.uint64(0xBF58476D1CE4E5B9)
_M2: Final = np.uint64(0x94D049BB133111EB)


_TOP: Final = 51  # a shuffle of at most 4096 items (bounds of 13 bits at most) reads the top 13 bits only
_S_TOP: Final = np.uint64(_TOP)


def _mix(state: int, count: int) -> Any:
    """The next ``count`` (at most 1024) outputs of SplitMix64 from ``state``, a NumPy array: its
    state after k draws is ``state + k * GAMMA``, and each output a fixed mix of that. (NumPy's
    calls cost more than its arithmetic here: the constants are made once, the steps in place.)"""
    z = _STEPS[:count] + np.uint64(state)
    z ^= z >> _S30
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def _outputs(state: int, count: int) -> list[int]:
    """The next ``count`` (at most 1024) outputs of SplitMix64 from ``state``."""
    out: list[int] = _mix(state, count).tolist()
    return out


def _tops(state: int, count: int) -> list[int]:
    """The top 13 bits of each of those outputs (``output >> 51``): small ints, which a compiled
    shuffle shifts without making a Python int of 64 bits at every draw."""
    out: list[int] = (_mix(state, count) >> _S_TOP).tolist()
    return out


# SplitMix64's constants as signed 64-bit integers, each less 2**64 (tests/test_core.py checks them)
_GAMMA_I64: Final = -0x61C8864680B583EB
_M1_I64: Final = -0x40A7B892E31B1A47
_M2_I64: Final = -0x6B2FB644ECCEEE15


def _native_shuffle(items: list[Any], start: i64) -> i64:
    """:meth:`Rng.shuffle` of a list from the generator state ``start`` (as a signed 64-bit integer);
    answers the state after. Only for the compiled build, where ``i64`` is a machine integer whose
    arithmetic wraps (CPython's C flags include -fwrapv) and ``>>`` is arithmetic, hence the masks
    that make each shift logical; interpreted, nothing wraps and this is never called (``_NATIVE``)."""
    s: i64 = start
    i: i64 = len(items) - 1
    gamma: i64 = _GAMMA_I64  # once: constants past 62 bits are Python ints in the compiled module
    m1: i64 = _M1_I64
    m2: i64 = _M2_I64
    bits: i64 = 0  # the bit length of n (i + 1), which falls by one as n passes a power of two
    m: i64 = i + 1
    while m:
        m >>= 1
        bits += 1
    while i > 0:
        n: i64 = i + 1
        if n < (1 << (bits - 1)):
            bits -= 1
        while True:
            s += gamma
            z: i64 = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * m1
            z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * m2
            z ^= (z >> 31) & 0x1FFFFFFFF
            j: i64 = (z >> (64 - bits)) & ((1 << bits) - 1)  # the top ``bits`` bits
            if j < n:
                break
        items[i], items[j] = items[j], items[i]
        i -= 1
    return s


# compiled (setup.py), this module's functions are C functions, not Python ones
_NATIVE: Final = not isinstance(_native_shuffle, FunctionType)


class ChanceNeeded(Exception):
    """A scripted generator was asked for a draw its script does not hold: ``below(n)``."""

    def __init__(self, n: int) -> None:
        super().__init__(f"a draw in [0, {n}) is needed and the script has no more outcomes")
        self.n = n


# the script the next generator made takes (script_next): one at most
_NEXT_SCRIPT: list[tuple[int, ...]] = []


def script_next(outcomes: tuple[int, ...] | None) -> None:
    """Make the next :class:`Rng` constructed (a new game's, in ``Game.new_game``) a scripted one that
    answers from ``outcomes``; ``None`` disarms. Not thread-safe: arm, construct, disarm in one thread."""
    _NEXT_SCRIPT.clear()
    if outcomes is not None:
        _NEXT_SCRIPT.append(tuple(outcomes))


class Rng:
    """A small deterministic generator owned by a game state.

    Its whole state is :attr:`state` (one 64-bit integer). Compiled, :meth:`below` draws
    one output at a time in 64-bit machine integers. Interpreted, it reads outputs from a
    batch computed ahead in NumPy (16 at first, up to 256 as a generator keeps drawing);
    the batch is only a cache of the outputs that follow ``state``. Either way every result,
    and ``state`` after it, is exactly that of drawing one output at a time (:meth:`next64`,
    :meth:`below_slow`)."""

    __slots__ = ("_base", "_batch", "_pos", "_s", "_script", "_size", "_used")
    _s: i64  # compiled (_NATIVE): the state itself, as a signed 64-bit integer; no batch is used
    _base: int  # the state before the first output of _batch
    _batch: tuple[int, ...]  # immutable: copies share it
    _pos: int  # outputs of _batch used
    _size: int  # the next batch's size
    _script: tuple[int, ...] | None  # scripted draws (module docstring); None: seeded
    _used: int  # outcomes of _script used

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self.state = seed
        self._script = _NEXT_SCRIPT.pop() if _NEXT_SCRIPT else None
        self._used = 0

    def set_script(self, outcomes: tuple[int, ...] | None) -> None:
        """Answer the next draws from ``outcomes`` (then raise :class:`ChanceNeeded`); ``None``: draw
        from the seed again (the state as it was)."""
        self._script = None if outcomes is None else tuple(outcomes)
        self._used = 0
        self._base = (self._base + self._pos * _GAMMA) & _MASK  # the batch dropped, the state kept
        self._batch, self._pos = (), 0

    def script_left(self) -> int:
        """How many scripted outcomes are still unused (-1 for a seeded generator)."""
        script = self._script
        return -1 if script is None else len(script) - self._used

    def _scripted(self, n: int) -> int:
        script = self._script
        assert script is not None
        if self._used == len(script):
            raise ChanceNeeded(n)
        r = script[self._used]
        if not 0 <= r < n:
            raise ValueError(f"scripted outcome {r} is not a draw in [0, {n})")
        self._used += 1
        return r

    @property
    def state(self) -> int:
        if _NATIVE:
            return int(self._s) & _MASK
        return (self._base + self._pos * _GAMMA) & _MASK

    @state.setter
    def state(self, value: int) -> None:
        value &= _MASK
        if _NATIVE:
            self._s = value - _TWO64 if value >> 63 else value
        self._base = value
        self._batch = ()
        self._pos = 0
        self._size = 16

    def next64(self) -> int:
        if self._script is not None:
            raise ValueError("a scripted generator only makes bounded draws (below, shuffle, choice), not next64")
        z = self.state = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling on the top bits, no bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        if _NATIVE and self._script is None:  # one output at a time, in machine integers
            if n >= 1025:
                return self.below_slow(n)
            top: i64 = _SHIFTS[n]
            keep: i64 = (1 << (64 - top)) - 1  # the top bits, the shift made logical
            bound: i64 = n
            s: i64 = self._s
            gamma: i64 = _GAMMA_I64
            m1: i64 = _M1_I64
            m2: i64 = _M2_I64
            while True:
                s += gamma
                z: i64 = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * m1
                z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * m2
                z ^= (z >> 31) & 0x1FFFFFFFF
                r64: i64 = (z >> top) & keep
                if r64 < bound:
                    self._s = s
                    return r64
        shift = _SHIFTS[n] if n < 1025 else 64 - n.bit_length()
        batch, pos = self._batch, self._pos
        while True:
            if pos == len(batch):
                if self._script is not None:  # scripted: the batch stays empty, so every draw comes here
                    return self._scripted(n)
                self._base = (self._base + pos * _GAMMA) & _MASK
                batch = self._batch = tuple(_outputs(self._base, self._size))
                self._size = min(256, 2 * self._size)
                pos = 0
            r: int = batch[pos] >> shift
            pos += 1
            if r < n:
                self._pos = pos
                return r

    def below_slow(self, n: int) -> int:
        """The reference for :meth:`below`: one output at a time."""
        shift = 64 - n.bit_length()
        while True:
            r = self.next64() >> shift
            if r < n:
                return r

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place, with ``below(i + 1)`` for i from the top down.
        Compiled, a list is shuffled in 64-bit machine integers (:func:`_native_shuffle`);
        otherwise the draws are computed in NumPy batches. The result and the generator's
        state after are exactly those of drawing one at a time (:meth:`shuffle_slow`)."""
        size = len(items)
        if size < 2:
            return
        if self._script is not None:
            for i in range(size - 1, 0, -1):
                j = self._scripted(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        if _NATIVE and type(items) is list:
            self._s = _native_shuffle(items, self._s)
            return
        start = self.state
        top = _TOP if size <= 4096 else 0  # up to 4096 items every draw is >> 51 or more: the top bits only
        draw = _tops if top else _outputs
        buffer = draw(start, min(1024, size + size // 2 + 8))  # under 1.5 draws a card on average
        pos = 0
        shifts = _SHIFTS if size < len(_SHIFTS) else [64 - n.bit_length() for n in range(size + 1)]
        for i in range(size - 1, 0, -1):
            n = i + 1
            shift = shifts[n] - top
            while True:
                if pos == len(buffer):
                    buffer += draw((start + pos * _GAMMA) & _MASK, 256)
                j = buffer[pos] >> shift
                pos += 1
                if j < n:
                    break
            items[i], items[j] = items[j], items[i]
        self.state = (start + pos * _GAMMA) & _MASK

    def shuffle_slow(self, items: MutableSequence[T]) -> None:
        """The reference: Fisher-Yates one draw at a time."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below_slow(i + 1)
            items[i], items[j] = items[j], items[i]

    def draws(self, expected: int) -> Draws:
        """Buffered ``below`` calls (for many small draws in a row); ``close()`` the result
        to hand the state back, exactly as if ``below`` had been called each time."""
        if self._script is not None:
            raise ValueError("a scripted generator draws with below(), not draws()")
        return Draws(self, expected)

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        other = Rng(0)
        if _NATIVE:
            other._s = self._s
        other._base, other._batch, other._pos, other._size = self._base, self._batch, self._pos, self._size
        other._script, other._used = self._script, self._used
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
