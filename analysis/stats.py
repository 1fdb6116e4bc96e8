"""Small, dependency-free confidence intervals (normal quantiles via ``statistics.NormalDist``)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def interval(low, high, fmt: str = ".3f") -> str:
    """An interval as every report writes it: ``low to high`` (``0.220 to 0.221``; ``fmt`` the digits and
    sign, ``"+.2f"`` ...); prose puts it in parentheses after its figure: ``0.22 (0.20 to 0.24)``.

    >>> interval(-0.267, -0.26)
    '-0.267 to -0.260'
    """
    return f"{low:{fmt}} to {high:{fmt}}"


def normal_quantile(level: float) -> float:
    """Return the two-sided normal critical value z for a confidence ``level`` in (0, 1).

    This is ``NormalDist().inv_cdf((1 + level) / 2)``, i.e. the z such that a
    standard normal variable lies in [-z, z] with probability ``level``; it is
    shared by every interval in this package so that they all agree.

    >>> round(normal_quantile(0.95), 4)
    1.96
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")
    return NormalDist().inv_cdf((1.0 + level) / 2.0)


def mean_ci(values, *, level: float = 0.95) -> tuple[float, float, float]:
    """Return ``(mean, low, high)``: the sample mean and its normal-approximation confidence interval.

    The half-width is ``z * s / sqrt(n)`` with ``s`` the sample standard
    deviation (ddof=1) and ``z`` the two-sided normal quantile for ``level``.
    The observations must be independent (for seat scores of the non-declarers
    of one deal, pass one per-deal mean, not every seat). With fewer than two
    values the interval is undefined and ``(mean, nan, nan)`` is returned.

    >>> mean, low, high = mean_ci([-2, -4, -6, -8])
    >>> mean, round(high - mean, 3)
    (-5.0, 2.53)
    >>> mean_ci([3])
    (3.0, nan, nan)
    """
    z = normal_quantile(level)
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        raise ValueError("mean_ci needs at least one value, got an empty sequence")
    if np.isnan(x).any():
        raise ValueError("mean_ci got NaN values; drop them first")
    mean = float(x.mean())
    if x.size < 2:
        return mean, math.nan, math.nan
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean, mean - half, mean + half


def ratio_ci(numerator, denominator, *, level: float = 0.95) -> tuple[float, float, float]:
    """Return ``(ratio, low, high)``: ``mean(numerator) / mean(denominator)`` of paired per-unit values and its
    delta-method (first-order) normal interval, which accounts for their covariance.

    Meant for a share of a gap whose mean is clearly away from zero; when the denominator's interval holds
    zero the ratio is meaningless and ``(ratio, nan, nan)`` is returned.

    >>> ratio, low, high = ratio_ci([1, 2, 1, 2], [2, 4, 2, 4])
    >>> ratio, round(high - low, 6)
    (0.5, 0.0)
    """
    z = normal_quantile(level)
    a = np.asarray(numerator, dtype=float).ravel()
    b = np.asarray(denominator, dtype=float).ravel()
    if a.size != b.size or a.size == 0:
        raise ValueError(f"ratio_ci needs two paired non-empty sequences, got {a.size} and {b.size} values")
    ma, mb = float(a.mean()), float(b.mean())
    ratio = ma / mb if mb != 0 else math.nan
    if a.size < 2 or not np.isfinite(ratio):
        return ratio, math.nan, math.nan
    sb = float(b.std(ddof=1)) / math.sqrt(b.size)
    if abs(mb) <= z * sb:
        return ratio, math.nan, math.nan
    resid = a - ratio * b  # the ratio's influence per unit, times mean(b)
    half = z * float(resid.std(ddof=1)) / math.sqrt(a.size) / abs(mb)
    return ratio, ratio - half, ratio + half


def proportion_ci(successes, n, *, level: float = 0.95):
    """Return ``(share, low, high)``: a proportion and its Wilson score confidence interval.

    The Wilson interval stays inside [0, 1] and behaves well for shares near 0
    or 1 and for small ``n``, unlike the plain normal interval. ``successes``
    and ``n`` may be scalars (floats are returned) or equally shaped arrays
    (arrays are returned); every ``n`` must be positive and
    ``0 <= successes <= n``.

    >>> share, low, high = proportion_ci(5, 10)
    >>> share, round(low, 4), round(high, 4)
    (0.5, 0.2366, 0.7634)
    """
    z = normal_quantile(level)
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(~(m > 0)):
        raise ValueError(f"n must be positive, got {n!r}")
    if np.any(~((k >= 0) & (k <= m))):
        raise ValueError(f"successes must lie between 0 and n, got successes={successes!r}, n={n!r}")
    p = k / m
    z2 = z * z
    denom = 1.0 + z2 / m
    centre = (p + z2 / (2.0 * m)) / denom
    half = z * np.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m)) / denom
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))  # exact bounds, free of rounding
    high = np.where(k == m, 1.0, np.clip(centre + half, 0.0, 1.0))
    if p.ndim == 0:
        return float(p), float(low), float(high)
    return p, low, high


def paired_comparison(a, b, *, level: float = 0.95, weights=None) -> dict:
    """Compare two alternatives measured on the same units (deals): the mean of ``a − b`` and its interval.

    Returns ``n``, ``mean_a``, ``mean_b``, ``diff`` (mean of a − b), ``ci_low``/``ci_high`` (normal
    interval of the per-unit difference, ``mean_ci``), ``unpaired_half`` (the half-width had the two
    been measured on different units: ``z·sqrt((s_a² + s_b²)/n)``) and ``variance_reduction``
    (``1 − var(a − b) / (var(a) + var(b))``: the share of the variance that pairing removes; 0 when
    a and b are independent, near 1 when they move together, negative when they move in opposite
    directions: then the paired interval is wider than the unpaired one, and still the right one). Intervals are NaN with fewer than two units.
    ``weights`` counts how many units share each pair (a ``--summary`` run stores counts, not rows);
    the result equals that of the pairs repeated.

    >>> r = paired_comparison([10, 12, 14, 16], [9, 11, 14, 15])
    >>> r["diff"], round(r["variance_reduction"], 3)
    (0.75, 0.982)
    """
    x = np.asarray(a, dtype=float).ravel()
    y = np.asarray(b, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(f"paired_comparison needs equally long a and b, got {x.size} and {y.size}")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float).ravel()
    n = float(w.sum())

    def mean(v):
        return float((w * v).sum() / n) if n > 0 else math.nan

    def var(v):  # sample variance of the repeated units
        return float((w * (v - mean(v)) ** 2).sum() / (n - 1)) if n >= 2 else math.nan

    diff = mean(x - y)
    half = normal_quantile(level) * math.sqrt(var(x - y) / n) if n >= 2 else math.nan
    out = {"n": int(n) if weights is not None else x.size, "mean_a": mean(x), "mean_b": mean(y), "diff": diff,
           "ci_low": diff - half, "ci_high": diff + half, "unpaired_half": math.nan, "variance_reduction": math.nan}
    if n >= 2:
        both = var(x) + var(y)
        out["unpaired_half"] = normal_quantile(level) * math.sqrt(both / n)
        out["variance_reduction"] = 1.0 - var(x - y) / both if both > 0 else math.nan
    return out
