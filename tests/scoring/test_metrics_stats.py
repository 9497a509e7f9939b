"""Bootstrap intervals, paired bootstrap, exact McNemar and pass^k."""

from __future__ import annotations

import pytest

from clarq_bench.scoring.stats import (
    bootstrap_mean,
    bootstrap_ratio,
    figure_seed,
    mcnemar_exact,
    paired_bootstrap,
    pass_hat_k,
)


def test_bootstrap_is_seeded_and_brackets_the_value():
    values = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
    first = bootstrap_mean(values, seed=7, resamples=500)
    assert first == bootstrap_mean(values, seed=7, resamples=500)
    assert first.value == 6 / 10
    assert 0 <= first.low <= first.value <= first.high <= 1
    continuous = [0.3, 1.7, 2.2, 5.1, 0.9, 3.3, 4.8, 2.6]
    assert bootstrap_mean(continuous, seed=8, resamples=500) != bootstrap_mean(continuous, seed=9, resamples=500)


def test_bootstrap_edge_cases():
    assert bootstrap_mean([]) == (None, None, None)
    assert bootstrap_mean([3.5]) == (3.5, 3.5, 3.5)
    assert bootstrap_mean([2, 2, 2], resamples=50) == (2.0, 2.0, 2.0)
    assert bootstrap_ratio([0, 0], [0, 0]) == (None, None, None)
    # clustered: (3 of 4) and (1 of 2) -> 4 / 6
    assert bootstrap_ratio([3, 1], [4, 2], resamples=50).value == 4 / 6


def test_figure_seed_depends_on_name_not_order():
    assert figure_seed(1, "success") == figure_seed(1, "success")
    assert figure_seed(1, "success") != figure_seed(1, "aqd")


def test_paired_bootstrap_of_identical_inputs_is_zero_with_p_one():
    a = [1.0, 0.0, 2.5, -1.0]
    result = paired_bootstrap(a, list(a), seed=3, resamples=200)
    assert (result.difference, result.low, result.high, result.p_value, result.n) == (0.0, 0.0, 0.0, 1.0, 4)


def test_paired_bootstrap_detects_a_consistent_gain():
    a = [1.0] * 30
    b = [0.0] * 25 + [1.0] * 5
    result = paired_bootstrap(a, b, seed=3, resamples=500)
    assert result.difference == pytest.approx(25 / 30)
    assert result.low > 0 and result.p_value < 0.01
    with pytest.raises(ValueError):
        paired_bootstrap([], [])


def test_mcnemar_exact_values():
    # 5 discordant pairs all favouring A: p = 2 * (1/2)^5
    assert mcnemar_exact([True] * 5 + [False], [False] * 5 + [False]) == (5, 0, 2 * 0.5**5)
    # 1 vs 2 discordant: p = 2 * (C(3,0) + C(3,1)) / 2^3 = 1 (capped)
    assert mcnemar_exact([True, False, False], [False, True, True]).p_value == 1.0
    # 0 vs 6: p = 2 / 64
    assert mcnemar_exact([False] * 6, [True] * 6).p_value == pytest.approx(2 / 64)
    assert mcnemar_exact([True, False], [True, False]) == (0, 0, 1.0)
    with pytest.raises(ValueError):
        mcnemar_exact([True], [])


def test_pass_hat_k():
    assert pass_hat_k(4, 2, 1) == 2 / 4
    assert pass_hat_k(4, 2, 2) == 1 / 6  # C(2,2)/C(4,2)
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(4, 3, 4) == 0.0
    with pytest.raises(ValueError):
        pass_hat_k(2, 1, 3)
