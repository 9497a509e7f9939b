"""Pure list and classification measures of the offline clarification track, as their papers define them.

Question ranking on ClarQ-LLM states: reciprocal rank, P@1 and nDCG@k (binary gains) of the relevant *questions*,
and Recall@5/10/20/30 over the full ranking. They are clarq's own figures: ClariQ's MRR, P@1 and nDCG (its Table 5)
measure the documents retrieved once the chosen question and its answer are added to the request, with graded
qrels, which this track does not compute; ClariQ's question relevance is Recall@k, which clariq_score.py computes
with the official tool's conventions (clarq's here: states with need > 1 only, the ranking as given, a ranking
that repeats an id refused by run.py). Variable-length lists (Atanasova et al. 2019): Length-Aware Recall LAR = (R + 1/|l|) / 2 and Ordered LAR
OLAR = (R + 1/|l| + newMAX * RR) / (2 + newMAX), newMAX = 0.0499 (the smallest gap between two Priority scores of
lists up to five long, minus an insignificant epsilon), so the Priority term never outweighs Confidence. R is the
recall of the correct answers (the paper's setting has one); an empty list scores 0 (it offers nothing). Need
prediction (ClariQ): precision, recall and F1 averaged over the 1-4 labels weighted by gold support, and MSE.
Each function takes relevance flags in rank order, so it is checked by hand in tests/clarify/test_clarify_metrics.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

NEW_MAX = 0.0499


def reciprocal_rank(flags: Sequence[bool]) -> float:
    """1 / rank of the first relevant item, 0 when there is none."""
    return next((1.0 / rank for rank, hit in enumerate(flags, start=1) if hit), 0.0)


def precision_at_1(flags: Sequence[bool]) -> float:
    return 1.0 if flags and flags[0] else 0.0


def ndcg_at(flags: Sequence[bool], k: int, relevant: int) -> float:
    """Binary-gain nDCG@k: DCG of the top k over the DCG of `relevant` relevant items ranked first."""
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, relevant) + 1))
    if ideal == 0:
        return 0.0
    return sum(1.0 / math.log2(rank + 1) for rank, hit in enumerate(flags[:k], start=1) if hit) / ideal


def recall_at(flags: Sequence[bool], k: int, relevant: int) -> float:
    """Share of the `relevant` items found in the top k (0 when nothing is relevant)."""
    return sum(1 for hit in flags[:k] if hit) / relevant if relevant else 0.0


def list_recall(flags: Sequence[bool], correct: int = 1) -> float:
    """Recall of a returned list against `correct` correct answers (capped at 1)."""
    return min(sum(1 for hit in flags if hit), correct) / correct if correct else 0.0


def lar(flags: Sequence[bool], correct: int = 1) -> float:
    """Length-Aware Recall: the mean of the list's recall and 1/|list|."""
    if not flags:
        return 0.0
    return (list_recall(flags, correct) + 1.0 / len(flags)) / 2


def olar(flags: Sequence[bool], correct: int = 1, new_max: float = NEW_MAX) -> float:
    """Ordered LAR: LAR's two terms plus the reciprocal rank rescaled to [0, new_max], normalised to [0, 1]."""
    if not flags:
        return 0.0
    return (list_recall(flags, correct) + 1.0 / len(flags) + new_max * reciprocal_rank(flags)) / (2 + new_max)


def round_half_up(value: float, digits: int) -> float:
    """Round as printed tables do (0.125 -> 0.13), not banker's rounding; the float's shortest repr is used."""
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def need_scores(gold: Sequence[int], predicted: Sequence[int]) -> dict[str, float]:
    """ClariQ's need figures: precision, recall and F1 per gold label, averaged weighted by gold support (labels
    never in gold weigh 0), and the mean squared error of the 1-4 scores."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted differ in length")
    if not gold:
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0, "mse": 0.0}
    labels = sorted(set(gold) | set(predicted))
    total = len(gold)
    out = {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    for label in labels:
        support = sum(1 for g in gold if g == label)
        if not support:
            continue
        true_pos = sum(1 for g, p in zip(gold, predicted) if g == p == label)
        called = sum(1 for p in predicted if p == label)
        precision = true_pos / called if called else 0.0
        recall = true_pos / support
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        weight = support / total
        out["precision"] += weight * precision
        out["recall"] += weight * recall
        out["f1"] += weight * f1
    out["mse"] = sum((g - p) ** 2 for g, p in zip(gold, predicted)) / total
    return out


def binary_need_scores(gold: Sequence[int], predicted: Sequence[int]) -> dict[str, float]:
    """Precision, recall and F1 of "a question is needed" (score above 1) as a yes/no decision."""
    needed = [g > 1 for g in gold]
    called = [p > 1 for p in predicted]
    true_pos = sum(1 for g, p in zip(needed, called) if g and p)
    precision = true_pos / sum(called) if sum(called) else 0.0
    recall = true_pos / sum(needed) if sum(needed) else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def ranking_metrics(ranking_flags: Sequence[bool], returned_flags: Sequence[bool], relevant: int) -> dict[str, float]:
    """Every per-state selection figure: the full ranking's and the returned list's."""
    return {
        "mrr": reciprocal_rank(ranking_flags),
        "p@1": precision_at_1(ranking_flags),
        "ndcg@3": ndcg_at(ranking_flags, 3, relevant),
        "ndcg@5": ndcg_at(ranking_flags, 5, relevant),
        "recall@5": recall_at(ranking_flags, 5, relevant),
        "recall@10": recall_at(ranking_flags, 10, relevant),
        "recall@20": recall_at(ranking_flags, 20, relevant),
        "recall@30": recall_at(ranking_flags, 30, relevant),
        "lar": lar(returned_flags),
        "olar": olar(returned_flags),
        "list_length": float(len(returned_flags)),
    }


SELECTION_METRICS = (
    "mrr",
    "p@1",
    "ndcg@3",
    "ndcg@5",
    "recall@5",
    "recall@10",
    "recall@20",
    "recall@30",
    "lar",
    "olar",
    "list_length",
)
