"""What chance scores on the same states: 1,000 seeded random permutations of every state's pool, each with a
random list length 1-5 (as the `random` ranker draws), giving the mean and standard deviation of each averaged
selection figure. Only where the relevant candidates land matters, so each permutation draws the positions of a
state's r relevant candidates among its n as the indexes of the r smallest of n uniform keys."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.defaults import DEFAULT_SEED
from .metrics import NEW_MAX

PERMUTATIONS = 1000
FIGURES = ("mrr", "p@1", "ndcg@3", "ndcg@5", "recall@5", "recall@10", "recall@20", "recall@30", "lar", "olar")


def _one_state(rng: np.random.Generator, n: int, r: int, permutations: int) -> dict[str, np.ndarray]:
    zeros = np.zeros(permutations)
    length = rng.integers(1, 6, permutations)
    if r == 0:
        lar = 0.5 / length
        return {**dict.fromkeys(FIGURES, zeros), "lar": lar, "olar": 1.0 / length / (2 + NEW_MAX)}
    keys = rng.random((permutations, n), dtype=np.float32)
    positions = np.sort(
        np.argpartition(keys, r - 1, axis=1)[:, :r] if r < n else np.tile(np.arange(n), (permutations, 1)), axis=1
    )
    first = positions[:, 0]
    gains = 1.0 / np.log2(positions + 2.0)
    out = {"mrr": 1.0 / (first + 1.0), "p@1": (first == 0).astype(float)}
    for k in (3, 5):
        ideal = sum(1.0 / np.log2(rank + 1.0) for rank in range(1, min(k, r) + 1))
        out[f"ndcg@{k}"] = np.where(positions < k, gains, 0.0).sum(axis=1) / ideal
    for k in (5, 10, 20, 30):
        out[f"recall@{k}"] = (positions < k).sum(axis=1) / r
    hit = (first < length).astype(float)
    out["lar"] = (hit + 1.0 / length) / 2
    out["olar"] = (hit + 1.0 / length + NEW_MAX * hit / (first + 1.0)) / (2 + NEW_MAX)
    return out


def random_expectation(
    shapes: Sequence[tuple[int, int]], *, seed: int = DEFAULT_SEED, permutations: int = PERMUTATIONS
) -> dict[str, dict[str, float]]:
    """For states given as (pool size n, relevant count r): per figure, the mean and sd over `permutations` of the
    figure averaged over the states."""
    if not shapes:
        return {}
    rng = np.random.default_rng(seed)
    totals = {name: np.zeros(permutations) for name in FIGURES}
    for n, r in shapes:
        for name, values in _one_state(rng, n, r, permutations).items():
            totals[name] += values
    out = {}
    for name, total in totals.items():
        averaged = total / len(shapes)
        out[name] = {"mean": float(averaged.mean()), "sd": float(averaged.std(ddof=1)) if permutations > 1 else 0.0}
    return out
