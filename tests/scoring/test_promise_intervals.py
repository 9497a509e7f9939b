"""The README promises 95% percentile-bootstrap intervals over clusters (tasks). Pinned against the exact bootstrap
distribution of a small known sample, enumerated here (every ordered draw of n clusters out of n), not against the
code's own output: a 90% interval, or a resample of n-1 clusters, lands on other quantiles."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from clarq_bench.scoring.stats import bootstrap_mean, bootstrap_ratio, paired_bootstrap

SAMPLE = [0.0, 0.0, 1.0, 5.0, 9.0]  # chosen so the 2.5% / 97.5% quantiles sit inside an atom, not on its edge
RESAMPLES = 20_000  # enough for the percentile of 20,000 resampled means to hit the exact atom on every seed


def exact_bootstrap(values: list[float], draws: int) -> tuple[list[float], np.ndarray]:
    """The exact distribution of the mean of `draws` clusters drawn with replacement (atoms, cumulative share)."""
    counts = Counter(round(sum(seq) / draws, 9) for seq in itertools.product(values, repeat=draws))
    atoms = sorted(counts)
    return atoms, np.cumsum([counts[a] for a in atoms]) / sum(counts.values())


def quantile(values: list[float], share: float) -> float:
    atoms, cumulative = exact_bootstrap(values, len(values))
    return atoms[int(np.searchsorted(cumulative, share))]


def test_the_exact_quantiles_tell_95_from_90_percent_and_n_from_n_minus_1_draws() -> None:
    """The fixture itself: the mutants' quantiles are far from the promised ones."""
    low, high = quantile(SAMPLE, 0.025), quantile(SAMPLE, 0.975)
    assert (low, high) == (0.2, 6.4)
    assert (quantile(SAMPLE, 0.05), quantile(SAMPLE, 0.95)) == (0.4, 5.6)  # a 90% interval
    atoms, cumulative = exact_bootstrap(SAMPLE, len(SAMPLE) - 1)  # n-1 clusters per resample
    assert atoms[int(np.searchsorted(cumulative, 0.975))] == 6.75


@pytest.mark.parametrize("seed", [1, 8848, 20260101])
def test_a_mean_interval_sits_on_the_exact_2_5_and_97_5_percent_quantiles(seed: int) -> None:
    interval = bootstrap_mean(SAMPLE, seed=seed, resamples=RESAMPLES)
    assert interval.value == pytest.approx(3.0)
    assert interval.low == pytest.approx(quantile(SAMPLE, 0.025), abs=0.05)
    assert interval.high == pytest.approx(quantile(SAMPLE, 0.975), abs=0.05)


@pytest.mark.parametrize("seed", [2, 8848])
def test_a_clustered_ratio_resamples_whole_clusters_at_95_percent(seed: int) -> None:
    """Each cluster counts once whatever its weight: clusters of weight 2 with sums 2x give the same interval."""
    interval = bootstrap_ratio([2 * v for v in SAMPLE], [2.0] * len(SAMPLE), seed=seed, resamples=RESAMPLES)
    assert (interval.low, interval.high) == pytest.approx((0.2, 6.4), abs=0.05)


@pytest.mark.parametrize("seed", [3, 8848])
def test_a_paired_interval_and_p_value_follow_the_exact_bootstrap(seed: int) -> None:
    diffs = [-2.0, -2.0, 1.0, 3.0, 5.0]  # quantiles -1.4 / 3.4 (90%: -1.0 / 3.0)
    result = paired_bootstrap(diffs, [0.0] * len(diffs), seed=seed, resamples=RESAMPLES)
    atoms, cumulative = exact_bootstrap(diffs, len(diffs))
    at_or_below_zero = float(cumulative[atoms.index(0.0)])
    at_or_above_zero = 1 - float(cumulative[atoms.index(0.0) - 1])
    assert result.difference == pytest.approx(1.0) and result.n == 5
    assert result.low == pytest.approx(quantile(diffs, 0.025), abs=0.05)
    assert result.high == pytest.approx(quantile(diffs, 0.975), abs=0.05)
    assert result.p_value == pytest.approx(2 * min(at_or_below_zero, at_or_above_zero), abs=0.02)


def test_a_resample_of_weightless_clusters_is_dropped_not_counted_as_zero() -> None:
    """AQD over successful dialogues: tasks with none weigh 0. A resample drawing only those has no ratio at all
    (dropped), so the interval of a figure every weighted cluster puts at 3 is [3, 3], never reaching 0."""
    interval = bootstrap_ratio([0.0, 0.0, 3.0], [0.0, 0.0, 1.0], seed=5, resamples=2000)
    assert interval == (3.0, 3.0, 3.0)
    assert bootstrap_ratio([0.0, 0.0], [0.0, 0.0]) == (None, None, None)
