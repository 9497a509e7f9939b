"""PCC-H against a hand-computed example: 4 judges x 4 items, in the 2-choice and the 4-choice design.

Options are in system space: 0 = system 1 better, 1 = system 2 better, 2 = both good, 3 = both bad. The Y vectors
below (the other judges' mean indicator per item) were worked out by hand from the matrices; Pearson's r of each
(X, Y) pair comes from the standard library, everything after that is written out.
"""

from __future__ import annotations

import math
from statistics import correlation, stdev

import numpy as np
import pytest

from clarq_bench.pairwise.pcch import majority_values, pcch


def h(*p: float) -> float:
    """Entropy with log base len(p) (Eq. 4), 0 log 0 = 0."""
    return -sum(x * math.log(x) for x in p if x > 0) / math.log(len(p))


def test_two_choice_by_hand() -> None:
    choices = np.array(
        [
            [0, 0, 0, 1],  # J1
            [0, 0, 0, 1],  # J2
            [0, 0, 1, 1],  # J3
            [1, 0, 1, 0],
        ]
    )  # J4
    # Eq. 1, option 0 (option 1 is its complement: the same r, so Eq. 1's sum over the two options is 2 r).
    # J1: X = (1,1,1,0); others J2,J3,J4 chose option 0 on q1..q4: (1,1,0) (1,1,1) (1,0,0) (0,0,1) -> Y below.
    # centred X = (1/4,1/4,1/4,-3/4), centred Y = (1,5,-3,-3)/12: sum of products 1/4, |X|^2 = 3/4, |Y|^2 = 44/144,
    # r = (1/4) / sqrt(3/4 * 44/144) = 6 / sqrt(132) = 0.5222.
    r1 = 6 / math.sqrt(132)
    assert correlation([1, 1, 1, 0], [2 / 3, 1, 1 / 3, 1 / 3]) == pytest.approx(r1)
    # J2 chose exactly as J1: the same r.  J3: X = (1,1,0,0), Y = (2/3, 1, 2/3, 1/3): centred Y = (0,1,0,-1)/3,
    # sum of products 1/3, |X|^2 = 1, |Y|^2 = 2/9, r = 1/sqrt(2).
    r3 = 1 / math.sqrt(2)
    assert correlation([1, 1, 0, 0], [2 / 3, 1, 2 / 3, 1 / 3]) == pytest.approx(r3)
    # J4: X = (0,1,0,1), Y = (1, 1, 2/3, 0): sum of products -1/3, |Y|^2 = 6/9, r = -1/sqrt(6) -> weight 0.
    r4 = -1 / math.sqrt(6)
    result = pcch(choices, 2)
    assert result.reliability == pytest.approx([2 * r1, 2 * r1, 2 * r3, 2 * r4])
    # Eq. 2 with weights (2 r1, 2 r1, 2 r3, 0): the factor 2 cancels: q1, q2 unanimous for system 1 among weighted judges, q4 for system 2;
    # q3: J1, J2 for system 1, J3 for system 2 -> RV = 2 r1 / (2 r1 + r3) = 0.5963.
    p3 = 2 * r1 / (2 * r1 + r3)
    assert result.rv == pytest.approx(np.array([[1, 0], [1, 0], [p3, 1 - p3], [0, 1]]))
    # Eqs. 4-5: H = 0 on the unanimous items (W = 1), H3 = h(p3, 1 - p3) = 0.9731, W3 = 0.0269.
    w3 = 1 - h(p3, 1 - p3)
    assert result.weight == pytest.approx([1, 1, w3, 1])
    # Eq. 6: PRV1 = 100 (1 + 1 + w3 p3 + 0) / (3 + w3) = 66.60; PRV2 = 100 - PRV1.
    prv1 = 100 * (2 + w3 * p3) / (3 + w3)
    assert prv1 == pytest.approx(66.604, abs=1e-3)
    assert result.prv == pytest.approx((prv1, 100 - prv1))
    # Majority: q3 is a 2-2 tie (J1, J2 against J3, J4): shared, so (1 + 1 + 1/2 + 0) / 4 = 62.5%.
    majority = majority_values(choices, 2)
    assert 100 * majority[:, 0].mean() == pytest.approx(62.5)


def test_four_choice_by_hand() -> None:
    choices = np.array(
        [
            [0, 0, 2, 1],  # J1
            [0, 0, 3, 1],  # J2
            [0, 2, 2, 1],  # J3
            [1, 1, 0, 0],
        ]
    )  # J4
    # Eq. 1: r_w is the sum over the options; a term whose X or Y does not vary is 0 (its covariance).
    # J1 (others J2, J3, J4): option 0 X=(1,1,0,0) Y=(2/3,1/3,1/3,1/3); option 1 X=(0,0,0,1) Y=(1/3,1/3,0,2/3);
    # option 2 X=(0,0,1,0) Y=(0,1/3,1/3,0); option 3 X never chosen: 0.
    r1 = (
        correlation([1, 1, 0, 0], [2 / 3, 1 / 3, 1 / 3, 1 / 3])
        + correlation([0, 0, 0, 1], [1 / 3, 1 / 3, 0, 2 / 3])
        + correlation([0, 0, 1, 0], [0, 1 / 3, 1 / 3, 0])
    )
    # J2 (others J1, J3, J4): option 0 X=(1,1,0,0) Y=(2/3,1/3,1/3,1/3); option 1 X=(0,0,0,1) Y=(1/3,1/3,0,2/3);
    # option 2 X never chosen; option 3 X=(0,0,1,0) Y=(0,0,0,0) has no variance: both 0.
    r2 = correlation([1, 1, 0, 0], [2 / 3, 1 / 3, 1 / 3, 1 / 3]) + correlation([0, 0, 0, 1], [1 / 3, 1 / 3, 0, 2 / 3])
    # J3 (others J1, J2, J4): option 0 X=(1,0,0,0) Y=(2/3,2/3,1/3,1/3); option 1 X=(0,0,0,1) Y=(1/3,1/3,0,2/3);
    # option 2 X=(0,1,1,0) Y=(0,0,1/3,0); option 3 X never chosen.
    r3 = (
        correlation([1, 0, 0, 0], [2 / 3, 2 / 3, 1 / 3, 1 / 3])
        + correlation([0, 0, 0, 1], [1 / 3, 1 / 3, 0, 2 / 3])
        + correlation([0, 1, 1, 0], [0, 0, 1 / 3, 0])
    )
    # J4 (others J1, J2, J3): option 0 X=(0,0,1,1) Y=(1,2/3,0,0); option 1 X=(1,1,0,0) Y=(0,0,0,1); 2 and 3 unused.
    r4 = correlation([0, 0, 1, 1], [1, 2 / 3, 0, 0]) + correlation([1, 1, 0, 0], [0, 0, 0, 1])
    assert r1 == pytest.approx(1.971197, abs=1e-6) and r2 == pytest.approx(1.393847, abs=1e-6)
    assert r3 == pytest.approx(r1) and r4 < 0
    result = pcch(choices, 4)
    assert result.reliability == pytest.approx([r1, r2, r3, r4])
    # Eq. 2 with weights (r1, r2, r3, 0), s = r1 + r2 + r3:
    s = r1 + r2 + r3
    rv = np.array(
        [
            [1, 0, 0, 0],  # q1: J1-J3 system 1 (J4 weighs 0)
            [(r1 + r2) / s, 0, r3 / s, 0],  # q2: J1, J2 system 1; J3 both good
            [0, 0, (r1 + r3) / s, r2 / s],  # q3: J1, J3 both good; J2 both bad
            [0, 1, 0, 0],
        ]
    )  # q4: J1-J3 system 2
    assert result.rv == pytest.approx(rv)
    # Eq. 3: RV'_1 = RV_1 + RV_good/2 - RV_bad/2 (and the same for system 2).
    q2_1 = (r1 + r2) / s + r3 / s / 2
    q2_2 = r3 / s / 2
    q3 = (r1 + r3) / s / 2 - r2 / s / 2
    assert result.system_rv == pytest.approx(np.array([[1, 0], [q2_1, q2_2], [q3, q3], [0, 1]]))
    # Eqs. 4-5 with log base 4: W = 1 - H.
    w2 = 1 - h((r1 + r2) / s, 0, r3 / s, 0)
    w3 = 1 - h(0, 0, (r1 + r3) / s, r2 / s)
    assert result.weight == pytest.approx([1, w2, w3, 1])
    # Eq. 6.
    prv1 = 100 * (1 + w2 * q2_1 + w3 * q3 + 0) / (2 + w2 + w3)
    prv2 = 100 * (0 + w2 * q2_2 + w3 * q3 + 1) / (2 + w2 + w3)
    assert (prv1, prv2) == pytest.approx((50.402, 39.761), abs=1e-3)  # a mean over usable options: 49.934, 38.033
    assert result.prv == pytest.approx((prv1, prv2))
    # Majority: q1 system 1 (3 votes), q2 system 1 (2 of 4), q3 both good (2 of 4: 1/2 each side), q4 system 2:
    # system 1 = (1 + 1 + 1/2 + 0) / 4 = 62.5%, system 2 = (0 + 0 + 1/2 + 1) / 4 = 37.5%.
    majority = majority_values(choices, 4)
    assert 100 * majority.mean(axis=0) == pytest.approx([62.5, 37.5])


def test_judges_without_variance_or_answers_and_all_zero_weights() -> None:
    # J1 always answers system 1 (no variance: r = 0); J2 answered nothing; J3 and J4 disagree everywhere.
    choices = np.array([[0, 0, 0, 0], [-1, -1, -1, -1], [0, 1, 0, 1], [1, 0, 1, 0]])
    result = pcch(choices, 2)
    assert result.reliability[0] == 0 and result.reliability[1] == 0
    assert result.reliability[2] < 0 and result.reliability[3] < 0
    # every weight is 0 after clipping: the three who answered count equally, J1 tips each item 2 to 1
    assert result.rv == pytest.approx(np.array([[2 / 3, 1 / 3]] * 4))
    assert result.prv == pytest.approx((200 / 3, 100 / 3))
    # an item nobody answered is left out, not counted as a tie
    partly = pcch(np.array([[0, -1], [0, -1], [1, -1]]), 2)
    assert list(partly.answered) == [True, False] and partly.prv[0] == pytest.approx(100 * partly.rv[0, 0])


def eq1_by_the_formula(choices: list[list[int]], w: int, options: int) -> float:
    """Eq. 1 as printed, in plain Python: sum_a sum_q (X - mean X)(Y - mean Y) / ((Q - 1) S_X S_Y), a 0/0 term = 0."""
    others = [v for v in range(len(choices)) if v != w]
    items = [q for q in range(len(choices[w])) if choices[w][q] >= 0 and any(choices[v][q] >= 0 for v in others)]
    total = 0.0
    for a in range(options):
        x = [float(choices[w][q] == a) for q in items]
        y = []
        for q in items:
            answered = [v for v in others if choices[v][q] >= 0]
            y.append(sum(choices[v][q] == a for v in answered) / len(answered))
        sx, sy = stdev(x), stdev(y)
        if sx == 0 or sy == 0:
            continue  # the numerator is 0 as well: the convention counts the term as 0
        mx, my = sum(x) / len(x), sum(y) / len(y)
        total += sum((xi - mx) * (yi - my) for xi, yi in zip(x, y)) / ((len(items) - 1) * sx * sy)
    return total


# 5 judges x 6 items, 4 options; J1 never uses "both bad", J4 never "both good", J5 only the two systems.
FIVE_BY_SIX = [[0, 0, 2, 1, 2, 0], [0, 2, 2, 1, 3, 0], [0, 0, 3, 1, 2, 1], [1, 0, 3, 0, 3, 0], [0, 1, 0, 1, 1, 0]]


def test_four_choice_matches_an_independent_computation_of_eq1_with_judges_using_different_options() -> None:
    r = [eq1_by_the_formula(FIVE_BY_SIX, w, 4) for w in range(5)]
    result = pcch(np.array(FIVE_BY_SIX), 4)
    assert result.reliability == pytest.approx(r, abs=1e-12)
    weights = [max(v, 0.0) for v in r]
    for q in range(6):  # Eq. 2 over the five judges
        expected = [sum(weights[w] * (FIVE_BY_SIX[w][q] == a) for w in range(5)) / sum(weights) for a in range(4)]
        assert result.rv[q] == pytest.approx(expected, abs=1e-12)
    # the fixture tells the paper's sum from a mean over each judge's usable options: item 3's RV of "both good"
    usable = [sum(1 for a in range(4) if any(row[q] == a for q in range(6))) for row in FIVE_BY_SIX]
    assert len(set(usable)) > 1
    mean_weights = [max(v, 0.0) / n for v, n in zip(r, usable)]
    by_mean = sum(mean_weights[w] * (FIVE_BY_SIX[w][2] == 2) for w in range(5)) / sum(mean_weights)
    assert abs(result.rv[2, 2] - by_mean) > 0.01


def test_two_choice_verdicts_do_not_depend_on_the_sum_or_a_single_option() -> None:
    # 2 options: the two terms of Eq. 1 are equal, so the sum is twice option 0's correlation and Eq. 2 cancels it
    two = np.array([[0, 1, 0, 0, 1], [0, 1, 1, 0, 1], [1, 1, 0, 0, 0], [0, 0, 0, 1, 1]])
    result = pcch(two, 2)
    assert result.reliability == pytest.approx([eq1_by_the_formula(two.tolist(), w, 2) for w in range(4)])
    single = [eq1_by_the_formula(two.tolist(), w, 2) / 2 for w in range(4)]
    weights = np.clip(single, 0, None)
    expected = (weights[:, None, None] * (two[:, :, None] == np.arange(2))).sum(axis=0) / weights.sum()
    assert result.rv == pytest.approx(expected)
