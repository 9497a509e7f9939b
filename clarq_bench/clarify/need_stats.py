"""Bootstrap intervals for the weighted need precision / recall / F1: tasks are resampled (one cluster per task, as
scoring/stats.py does for every other figure) and the 4 x 4 confusion counts of the drawn tasks summed, so the
figure is recomputed on each resample in numpy rather than state by state."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED
from ..scoring.stats import CONFIDENCE, figure_seed

LABELS = 4


def confusion(gold: Sequence[int], predicted: Sequence[int]) -> np.ndarray:
    """Counts [gold - 1, predicted - 1] of 1-4 labels."""
    matrix = np.zeros((LABELS, LABELS))
    for g, p in zip(gold, predicted):
        matrix[g - 1, p - 1] += 1
    return matrix


def weighted_prf(matrices: np.ndarray) -> dict[str, np.ndarray]:
    """Weighted precision / recall / F1 of a stack of confusion matrices (..., 4, 4), as metrics.need_scores."""
    tp = np.diagonal(matrices, axis1=-2, axis2=-1)
    support = matrices.sum(axis=-1)
    called = matrices.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(called > 0, tp / np.where(called > 0, called, 1), 0.0)
        recall = np.where(support > 0, tp / np.where(support > 0, support, 1), 0.0)
        f1 = np.where(
            precision + recall > 0,
            2 * precision * recall / np.where(precision + recall > 0, precision + recall, 1),
            0.0,
        )
    total = support.sum(axis=-1, keepdims=True)
    weights = support / np.where(total > 0, total, 1)
    return {
        "precision": (weights * precision).sum(-1),
        "recall": (weights * recall).sum(-1),
        "f1": (weights * f1).sum(-1),
    }


def need_intervals(
    per_task: Sequence[tuple[Sequence[int], Sequence[int]]],
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
) -> dict[str, tuple[float, float, float]]:
    """(value, low, high) of each weighted figure, from (gold, predicted) lists per task."""
    if not per_task:
        return {}
    stack = np.stack([confusion(g, p) for g, p in per_task])
    point = weighted_prf(stack.sum(axis=0))
    rng = np.random.default_rng(figure_seed(seed, "need_prf"))
    drawn = stack[rng.integers(0, len(stack), size=(resamples, len(stack)))].sum(axis=1)
    figures = weighted_prf(drawn)
    tail = (1 - CONFIDENCE) / 2 * 100
    out = {}
    for name, values in figures.items():
        low, high = np.percentile(values, [tail, 100 - tail]) if len(stack) > 1 else (point[name], point[name])
        out[name] = (float(point[name]), float(low), float(high))
    return out
