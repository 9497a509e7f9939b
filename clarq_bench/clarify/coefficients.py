"""Pearson, Spearman (Pearson of average ranks) and Kendall's tau-b, in plain Python: the offline-vs-online report
compares a handful of seekers and a few hundred tasks, so no dependency is worth it. Each returns None where the
coefficient is undefined (fewer than two pairs, or a constant side)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    n = len(x)
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of their positions."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    return pearson(average_ranks(x), average_ranks(y)) if len(x) == len(y) else pearson(x, y)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """(concordant - discordant) / sqrt((n0 - ties in x) (n0 - ties in y)), over all pairs."""
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                ties_x += 1
                ties_y += 1
            elif dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    pairs = len(x) * (len(x) - 1) // 2
    denominator = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    return (concordant - discordant) / denominator if denominator > 0 else None


def all_three(x: Sequence[float], y: Sequence[float]) -> dict[str, float | None]:
    return {"pearson": pearson(x, y), "spearman": spearman(x, y), "kendall": kendall_tau_b(x, y), "n": len(x)}
