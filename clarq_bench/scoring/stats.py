"""Statistics helpers: seeded bootstrap intervals, paired comparisons, the exact McNemar test and pass^k.

Every interval is a percentile bootstrap over clusters (one cluster per task, so the trials of a task move
together), seeded from a base seed and the figure's name: the same input always gives the same interval, whatever
order figures are computed in. numpy is imported here only; nothing else in the scoring path needs it.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED

CONFIDENCE = 0.95
_BLOCK = 250  # resamples drawn per block, to bound memory on large runs


class Interval(NamedTuple):
    value: float | None
    low: float | None
    high: float | None


class PairedResult(NamedTuple):
    difference: float
    low: float
    high: float
    p_value: float
    n: int


class McNemar(NamedTuple):
    a_only: int  # pairs where A succeeded and B failed
    b_only: int
    p_value: float


def figure_seed(base: int, name: str) -> int:
    """A per-figure seed: stable across runs and independent of the order figures are computed in."""
    return (base * 1_000_003 + zlib.crc32(name.encode("utf-8"))) % (2**32)


def _resampled_ratios(num: np.ndarray, den: np.ndarray, seed: int, resamples: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = len(num)
    # Every cluster of the same whole-number weight (one dialogue a task, or k trials each): each resample's
    # denominator is then n x that weight, exactly (whole numbers below 2**53 add without rounding), so it is not
    # gathered and summed again per resample; the draws and every ratio stay the same.
    whole = bool(n) and float(den[0]).is_integer() and bool((den == den[0]).all()) and n * abs(den[0]) < 2**53
    out = []
    for start in range(0, resamples, _BLOCK):
        size = min(_BLOCK, resamples - start)
        idx = rng.integers(0, n, size=(size, n))
        top = num[idx].sum(axis=1)
        bottom = np.full(size, n * float(den[0])) if whole else den[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan))
    return np.concatenate(out)


def bootstrap_ratio(
    numerators: Sequence[float] | np.ndarray,
    denominators: Sequence[float] | np.ndarray,
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> Interval:
    """sum(num)/sum(den) and its percentile interval, resampling the (num, den) clusters with replacement.

    A plain mean is the case den = 1 per item; a mean over clustered items passes per-cluster sums and counts.
    Returns (None, None, None) when the denominator is zero, and a zero-width interval for one cluster.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if len(num) == 0 or den.sum() <= 0:
        return Interval(None, None, None)
    value = float(num.sum() / den.sum())
    if len(num) == 1:
        return Interval(value, value, value)
    ratios = _resampled_ratios(num, den, seed, resamples)
    ratios = ratios[~np.isnan(ratios)]
    if len(ratios) == 0:
        return Interval(value, None, None)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(ratios, [tail, 100 - tail])
    return Interval(value, float(low), float(high))


def bootstrap_mean(values: Sequence[float], **kwargs: float) -> Interval:
    """Mean of `values` with a percentile bootstrap interval (each value its own cluster)."""
    return bootstrap_ratio(list(values), [1.0] * len(values), **kwargs)  # type: ignore[arg-type]


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> PairedResult:
    """mean(a - b) over pairs, its percentile interval and a two-sided bootstrap p-value.

    The p-value is twice the smaller share of resampled differences on either side of zero (capped at 1), so
    identical inputs give difference 0, interval [0, 0] and p = 1.
    """
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(diff) == 0:
        raise ValueError("no pairs to compare")
    value = float(diff.mean())
    means = _resampled_ratios(diff, np.ones_like(diff), seed, resamples)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    p = min(1.0, 2 * min(float((means <= 0).mean()), float((means >= 0).mean())))
    return PairedResult(value, float(low), float(high), p, len(diff))


def mcnemar_exact(a_success: Sequence[bool], b_success: Sequence[bool]) -> McNemar:
    """Exact (binomial) McNemar test on paired successes: two-sided p from the discordant pairs."""
    if len(a_success) != len(b_success):
        raise ValueError("paired outcomes must have equal length")
    a_only = sum(1 for x, y in zip(a_success, b_success, strict=False) if x and not y)
    b_only = sum(1 for x, y in zip(a_success, b_success, strict=False) if y and not x)
    n = a_only + b_only
    if n == 0:
        return McNemar(0, 0, 1.0)
    tail = sum(math.comb(n, i) for i in range(min(a_only, b_only) + 1)) / 2**n
    return McNemar(a_only, b_only, min(1.0, 2 * tail))


def pass_hat_k(trials: int, successes: int, k: int) -> float:
    """Chance that k trials drawn without replacement from a task's `trials` all succeed: C(c,k)/C(n,k)."""
    if not 1 <= k <= trials:
        raise ValueError(f"k={k} needs 1..{trials} trials")
    return math.comb(successes, k) / math.comb(trials, k)
