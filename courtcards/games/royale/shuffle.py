"""The deal's shuffle, fast: exactly :meth:`Rng.shuffle` (the same permutation and
the same generator state after). SplitMix64's k-th output depends only on the
seed and k, so a batch of outputs is computed at once with NumPy (uint64
arithmetic wraps like the generator's masks), already cut to the bit widths
:meth:`Rng.below` takes; the rejection loop then runs over plain ints.
Shuffling one card at a time in Python was a third of a random game's time."""

from __future__ import annotations

from operator import length_hint
from typing import Any

import numpy as np

from courtcards.core.rng import Rng

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_BATCH = 512
_STEPS = np.arange(1, _BATCH + 1, dtype=np.uint64) * np.uint64(_GAMMA)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S56 = np.uint64(30), np.uint64(27), np.uint64(56)
_WIDTHS = 7  # bit widths 1..7 cover lists of up to 127 items
# a byte's top b bits, for b = 1..7
_TOP = [bytes(v >> (8 - b) for v in range(256)) for b in range(1, _WIDTHS + 1)]


def _outputs(state: int, count: int) -> list[bytes]:
    """The next ``count`` outputs of a SplitMix64 in ``state``, cut to their top
    b bits for b = 1..7 (row b - 1; bytes index as small ints, fast). The
    generator's last step (z ^= z >> 31) leaves the top 31 bits alone: skipped."""
    z = _STEPS[:count] + np.uint64(state)
    z ^= z >> _S30
    z *= _MIX1
    z ^= z >> _S27
    z *= _MIX2
    top = (z >> _S56).astype(np.uint8).tobytes()
    return [top.translate(table) for table in _TOP]


def shuffle(rng: Rng, *lists: list[Any]) -> None:
    """Shuffle each list in turn in place, as ``rng.shuffle`` would one after the other."""
    total = sum(len(items) for items in lists)
    count = total + total // 2 + 24  # enough but once in millions of deals (then the slow way)
    if max((len(items) for items in lists), default=0) >= 1 << _WIDTHS or count > _BATCH:
        for items in lists:
            rng.shuffle(items)
        return
    rows = _outputs(rng.state, count)
    results = []
    k = 0
    for items in lists:
        perm = list(items)
        n = len(perm)
        while n > 1:
            width = n.bit_length()
            outs = iter(rows[width - 1][k:])
            for i in range(n - 1, max(1 << (width - 1), 2) - 2, -1):  # bounds i + 1 drawn with this width
                for j in outs:
                    if j <= i:
                        break
                else:  # ran out of the batch: the slow way
                    for items in lists:
                        rng.shuffle(items)
                    return
                perm[i], perm[j] = perm[j], perm[i]
            k = count - length_hint(outs)
            n = i
        results.append(perm)
    for items, perm in zip(lists, results, strict=True):
        items[:] = perm
    rng.state = (rng.state + k * _GAMMA) & _MASK
