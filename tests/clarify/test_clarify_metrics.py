"""The clarification track's measures against hand-computed values and the LAR paper's Table 1 (all 20 lists)."""

from __future__ import annotations

import math

import pytest

from clarq_bench.clarify.metrics import (
    binary_need_scores,
    lar,
    ndcg_at,
    need_scores,
    olar,
    precision_at_1,
    ranking_metrics,
    recall_at,
    reciprocal_rank,
    round_half_up,
)

#: Table 1 of Atanasova et al. (2019), "Evaluating Variable-Length Multiple-Option Lists": list, LAR, OLAR as printed
#: (c = correct, w = wrong).
TABLE_1 = [
    ("c", 1.00, 1.000),
    ("cw", 0.75, 0.756),
    ("wc", 0.75, 0.744),
    ("cww", 0.67, 0.675),
    ("wcw", 0.67, 0.663),
    ("wwc", 0.67, 0.659),
    ("cwww", 0.63, 0.634),
    ("wcww", 0.63, 0.622),
    ("wwcw", 0.63, 0.618),
    ("wwwc", 0.63, 0.616),
    ("cwwww", 0.60, 0.610),
    ("wcwww", 0.60, 0.598),
    ("wwcww", 0.60, 0.594),
    ("wwwcw", 0.60, 0.591),
    ("wwwwc", 0.60, 0.590),
    ("w", 0.50, 0.488),
    ("ww", 0.25, 0.244),
    ("www", 0.17, 0.163),
    ("wwww", 0.13, 0.122),
    ("wwwww", 0.10, 0.098),
]


@pytest.mark.parametrize(("listing", "lar_printed", "olar_printed"), TABLE_1)
def test_lar_and_olar_reproduce_table_1(listing: str, lar_printed: float, olar_printed: float) -> None:
    flags = [c == "c" for c in listing]
    assert round_half_up(lar(flags), 2) == lar_printed
    assert round_half_up(olar(flags), 3) == olar_printed


def test_table_1_orders_lists_as_its_gold_ranking() -> None:
    scores = [olar([c == "c" for c in listing]) for listing, _, _ in TABLE_1]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == 20


def test_round_half_up_is_not_bankers_rounding() -> None:
    assert round_half_up(0.125, 2) == 0.13 and round_half_up(0.625, 2) == 0.63 and round(0.625, 2) == 0.62
    assert round_half_up(2 / 3, 2) == 0.67 and round_half_up(0.0, 3) == 0.0


def test_empty_list_scores_nothing() -> None:
    assert lar([]) == olar([]) == reciprocal_rank([]) == precision_at_1([]) == 0.0


def test_ranking_measures_by_hand() -> None:
    flags = [False, True, False, True]  # relevant at ranks 2 and 4, three relevant in all
    assert reciprocal_rank(flags) == 0.5 and precision_at_1(flags) == 0.0 and precision_at_1([True, False]) == 1.0
    ideal3 = 1 + 1 / math.log2(3) + 1 / math.log2(4)  # = 2.1309
    assert ndcg_at(flags, 3, 3) == pytest.approx((1 / math.log2(3)) / ideal3)  # 0.2960
    assert ndcg_at(flags, 5, 3) == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / ideal3)
    assert ndcg_at(flags, 3, 1) == pytest.approx(1 / math.log2(3))  # one relevant: ideal DCG is 1
    assert recall_at(flags, 2, 3) == pytest.approx(1 / 3) and recall_at(flags, 10, 3) == pytest.approx(2 / 3)
    assert recall_at(flags, 10, 0) == 0.0 and ndcg_at(flags, 3, 0) == 0.0
    figures = ranking_metrics([True] + [False] * 40, [False, True], relevant=1)
    assert figures["mrr"] == 1.0 and figures["p@1"] == 1.0 and figures["recall@30"] == 1.0
    assert figures["list_length"] == 2.0 and figures["ndcg@3"] == 1.0
    # Recall@5 (ClariQ's first cut-off): the relevant item at rank 6 counts from Recall@10 on
    late = ranking_metrics([False] * 5 + [True], [], relevant=1)
    assert late["recall@5"] == 0.0 and late["recall@10"] == 1.0 and late["mrr"] == pytest.approx(1 / 6)
    assert figures["lar"] == 0.75 and figures["olar"] == pytest.approx((1 + 0.5 + 0.0499 / 2) / 2.0499)


def test_need_scores_weighted_by_gold_support_by_hand() -> None:
    gold = [1, 4, 4, 3]
    predicted = [1, 4, 3, 3]
    # label 1: P 1/1 R 1/1 F1 1 (w .25); label 4: P 1/1 R 1/2 F1 2/3 (w .5); label 3: P 1/2 R 1/1 F1 2/3 (w .25)
    scores = need_scores(gold, predicted)
    assert scores["precision"] == pytest.approx(0.25 + 0.5 + 0.125)
    assert scores["recall"] == pytest.approx(0.25 + 0.25 + 0.25)
    assert scores["f1"] == pytest.approx(0.25 + 1 / 3 + 1 / 6)
    assert scores["mse"] == pytest.approx(1 / 4)
    # a label only ever predicted weighs nothing but takes precision away from nobody else
    assert need_scores([4, 4], [2, 4])["precision"] == pytest.approx(1.0)
    assert need_scores([4, 4], [2, 4])["recall"] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        need_scores([1], [])
    assert need_scores([], []) == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "mse": 0.0}


def test_binary_need_by_hand() -> None:
    scores = binary_need_scores([1, 2, 4, 1], [3, 2, 1, 1])  # called: yes yes no no; needed: no yes yes no
    assert scores == {"precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert binary_need_scores([1, 1], [1, 1]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_need_intervals_recompute_the_weighted_figures_over_resampled_tasks() -> None:
    import random

    from clarq_bench.clarify.need_stats import need_intervals

    figures = need_intervals([([1, 4], [1, 4]), ([4, 3], [3, 3])], resamples=500)
    assert figures["precision"][0] == pytest.approx(0.875) and figures["recall"][0] == pytest.approx(0.75)
    assert figures["f1"][0] == pytest.approx(0.25 + 1 / 3 + 1 / 6)  # the hand example above, as two tasks
    assert all(low <= value <= high for value, low, high in figures.values())
    assert figures["f1"][1] < figures["f1"][2]  # two tasks that differ: the resamples differ too
    assert need_intervals([([1, 4, 4, 3], [1, 4, 3, 3])])["f1"][1:] == (figures["f1"][0],) * 2  # one task: no width
    rng = random.Random(3)
    gold = [rng.randint(1, 4) for _ in range(60)]
    predicted = [rng.randint(1, 4) for _ in range(60)]
    tasks = [(gold[i : i + 6], predicted[i : i + 6]) for i in range(0, 60, 6)]
    point = {name: value for name, (value, _, _) in need_intervals(tasks, resamples=10).items()}
    assert point == pytest.approx({k: v for k, v in need_scores(gold, predicted).items() if k != "mse"})
    assert need_intervals([]) == {}
