"""95% confidence intervals: Wilson for proportions, Student's t for means."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """The proportion and its Wilson score interval (0, 0, 1 when there are no trials)."""
    if trials <= 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def t_quantile_975(df: int) -> float:
    """Student's t 97.5% quantile (Cornish-Fisher expansion; within 0.1% for df >= 3, exact enough below)."""
    if df <= 0:
        return math.inf
    exact = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305, 4: 2.776445105}
    if df in exact:
        return exact[df]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its t interval (a single value or none: an interval of just the mean)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile with linear interpolation (numpy's default)."""
    if not values:
        return 0.0
    s = sorted(values)
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)
