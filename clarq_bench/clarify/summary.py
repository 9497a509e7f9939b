"""The track's figures for one system and language: selection figures with 95% bootstrap intervals over tasks
(scoring/stats.py, one cluster per task), need precision / recall / F1 / MSE, and chance on the same states. The
summary's schema lives in leaderboard/track_summary.py, labelled with the track."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ..core.defaults import DEFAULT_RESAMPLES, DEFAULT_SEED
from ..leaderboard.track_summary import TRACK, Estimate, SelectSummary
from ..scoring.stats import bootstrap_ratio, figure_seed
from .metrics import SELECTION_METRICS, binary_need_scores, need_scores
from .need_stats import need_intervals
from .random_baseline import random_expectation
from .rank_states import StateResult

__all__ = ["TRACK", "Estimate", "SelectSummary", "clustered", "summarize"]


def _figure_of(name: str) -> Callable[[StateResult], float]:
    return lambda result: result.figures[name]


def clustered(
    results: list[StateResult], value_of: Callable[[StateResult], float], name: str, seed: int, resamples: int
) -> Estimate:
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for result in results:
        sums[result.task_id] += value_of(result)
        counts[result.task_id] += 1
    keys = sorted(sums)
    interval = bootstrap_ratio(
        [sums[k] for k in keys], [counts[k] for k in keys], seed=figure_seed(seed, name), resamples=resamples
    )
    return Estimate(value=interval.value, low=interval.low, high=interval.high, n=len(results))


def summarize(
    results: list[StateResult],
    *,
    seeker: str,
    language: str,
    bank_counts: dict[str, int],
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    usage: dict[str, float] | None = None,
    chance: bool = True,
) -> SelectSummary:
    needed = [r for r in results if r.need_gold > 1]
    selection = {name: clustered(needed, _figure_of(name), name, seed, resamples) for name in SELECTION_METRICS}
    gold = [r.need_gold for r in results]
    predicted = [r.need_pred for r in results]
    mse = clustered(results, lambda r: (r.need_gold - r.need_pred) ** 2, "need_mse", seed, resamples)
    shapes = [(r.pool, r.relevant) for r in needed]
    by_task: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for r in results:
        by_task[r.task_id][0].append(r.need_gold)
        by_task[r.task_id][1].append(r.need_pred)
    intervals = need_intervals([by_task[k] for k in sorted(by_task)], seed=seed, resamples=resamples)
    return SelectSummary(
        seeker=seeker,
        language=language,
        tasks=len({r.task_id for r in results}),
        states=len(results),
        needed_states=len(needed),
        bank=bank_counts,
        selection=selection,
        need=need_scores(gold, predicted),
        need_binary=binary_need_scores(gold, predicted),
        need_mse=mse,
        need_intervals={k: Estimate(value=v, low=lo, high=hi, n=len(results)) for k, (v, lo, hi) in intervals.items()},
        random_expectation=random_expectation(shapes, seed=seed) if chance else {},
        errors=sum(1 for r in results if r.error),
        notes=sum(1 for r in results if r.note),
        usage=usage or {},
    )
