"""95% confidence intervals (Wilson for proportions, Student's t for means) and the tests behind verdicts:
chi-square, exact binomial, two proportions, Welch's t, and Holm's correction. Pure Python (no SciPy)."""

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


# -- tests -------------------------------------------------------------------------------------------
def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (series or continued fraction)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # Lentz's continued fraction for Q
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with ``df`` degrees of freedom."""
    return _gamma_q(df / 2, x / 2) if df > 0 else 1.0


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's goodness-of-fit test: the statistic, degrees of freedom and p-value (cells expecting 0 left out)."""
    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    stat = math.fsum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return stat, df, chi2_sf(stat, df)


EXACT_LIMIT = 20_000  # above this many trials the binomial test uses the normal approximation


def binomial_p(k: int, n: int, p0: float) -> float:
    """Two-sided p-value of ``k`` successes in ``n`` trials when the chance is ``p0``: exact (outcomes
    no likelier than the one seen) up to EXACT_LIMIT trials, else normal with a continuity correction."""
    if n <= 0 or p0 <= 0 or p0 >= 1:
        return 1.0 if n <= 0 or (p0 <= 0 and k == 0) or (p0 >= 1 and k == n) else 0.0
    if n > EXACT_LIMIT:
        sd = math.sqrt(n * p0 * (1 - p0))
        return min(1.0, 2 * normal_sf(max(0.0, abs(k - n * p0) - 0.5) / sd))
    lp, lq = math.log(p0), math.log1p(-p0)
    base = math.lgamma(n + 1)

    def logpmf(i: int) -> float:
        return base - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq

    seen = logpmf(k) + 1e-7  # a relative tolerance, as R's binom.test
    total = math.fsum(math.exp(v) for i in range(n + 1) if (v := logpmf(i)) <= seen)
    return min(1.0, total)


def two_proportions_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two rates differ (pooled z test; 1.0 when it cannot be told)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0
    return min(1.0, 2 * normal_sf(abs(k1 / n1 - k2 / n2) / math.sqrt(var)))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """The difference of two rates (second minus first) and its 95% Newcombe interval (from Wilson's)."""
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)), -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1 + aa * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + aa / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic ``t`` with ``df`` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    return min(1.0, beta_inc(df / 2, 0.5, df / (df + t * t)))


def welch(m1: float, sd1: float, n1: int, m2: float, sd2: float, n2: int) -> tuple[float, float, float, float]:
    """The difference of two means (second minus first), its 95% Welch interval and two-sided p-value."""
    d = m2 - m1
    if n1 < 2 or n2 < 2:
        return d, -math.inf, math.inf, 1.0
    v1, v2 = sd1 * sd1 / n1, sd2 * sd2 / n2
    se = math.sqrt(v1 + v2)
    if se == 0:
        return d, d, d, 1.0 if d == 0 else 0.0
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    half = t_quantile_975(max(1, math.floor(df))) * se
    return d, d - half, d + half, t_p(d / se, df)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: adjusted p-values in the given order (family-wise error control)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def sd(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def fleiss_kappa(groups: Sequence[Sequence[object]]) -> tuple[float, float, float, float]:
    """Agreement within groups beyond chance (Fleiss' kappa; each group: the outcomes of its replays, two or
    more each): kappa, its 95% interval (a t interval over the groups' agreement, the chance level held
    fixed) and the chance level. 0 when chance alone agrees (one outcome everywhere)."""
    counts: dict[object, int] = {}
    agree: list[float] = []
    for g in groups:
        k = len(g)
        seen: dict[object, int] = {}
        for o in g:
            seen[o] = seen.get(o, 0) + 1
            counts[o] = counts.get(o, 0) + 1
        agree.append(sum(c * (c - 1) for c in seen.values()) / (k * (k - 1)) if k > 1 else 1.0)
    total = sum(counts.values())
    chance = sum((c / total) ** 2 for c in counts.values()) if total else 1.0
    if chance >= 1:
        return 0.0, 0.0, 0.0, chance
    m, lo, hi = mean_ci(agree)
    return (m - chance) / (1 - chance), (lo - chance) / (1 - chance), (hi - chance) / (1 - chance), chance
