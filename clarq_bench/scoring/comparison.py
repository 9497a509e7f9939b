"""Paired comparison of two scored sets of dialogues on the same tasks: A - B for success (paired bootstrap and the
exact McNemar test), AQD, AQL and efficiency (success weighted by what the seeker said; paired bootstrap), with
intervals and p-values.

Dialogues pair on (task content hash, trial) when the caller knows each dialogue's task hash (clarq compare always
does): the same id on different task content (a run on the sample tasks/ against one on the real data) is refused,
never paired. Without hashes they pair on (task id, trial). When nothing is shared (an English run against a Chinese
one, whose parallel tasks differ in language) they pair on (type, index, trial) instead, and the Comparison says so.
Reads Verdicts (and the hashes given) only.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ..core.errors import ClarqError
from .judge import Verdict
from .stats import DEFAULT_RESAMPLES, DEFAULT_SEED, figure_seed, mcnemar_exact, paired_bootstrap


class Difference(BaseModel):
    """A - B on the paired dialogues for one figure."""

    figure: str
    a: float
    b: float
    difference: float
    low: float
    high: float
    p_value: float
    test: str


class Comparison(BaseModel):
    a: str
    b: str
    pairs: int
    paired_on: str
    unpaired_a: int
    unpaired_b: int
    mcnemar: dict[str, float | int]
    differences: list[Difference]
    settings_differ: list[str] = []  # "provider.name: offline -> gpt-4o", filled in by the caller that read configs
    cross_setting: list[str] = []  # provider, its mode or the turn cap differ: the difference is not the seekers' alone


def _key_by_id(v: Verdict) -> tuple[str, int]:
    return (v.task_id, v.trial)


def _key_by_position(v: Verdict) -> tuple[str, int]:
    return (v.task_id.split("/", 1)[-1], v.trial)


FIGURES: dict[str, Callable[[Verdict], float]] = {
    "success": lambda v: float(v.success),
    "aqd": lambda v: float(v.aqd),
    "aql": lambda v: v.aql,
    "aql_tokens": lambda v: v.aql_tokens,
    "efficiency": lambda v: v.efficiency,  # success weighted by what was said (scoring/charge.py)
}


Hashes = dict[tuple[str, int], str]


def _check_same_tasks(a: list[Verdict], b: list[Verdict], hashes_a: Hashes, hashes_b: Hashes) -> None:
    """Refuse when one task id names different task content on the two sides (different task data)."""
    shared = sorted({_key_by_id(v) for v in a} & {_key_by_id(v) for v in b})
    differ = [key for key in shared if hashes_a.get(key) != hashes_b.get(key)]
    if differ:
        raise ClarqError(
            f"{len(differ)} of the {len(shared)} dialogues the two sides share by task id were played on different "
            f"task content (first: {differ[0][0]}); the runs used different task data",
            "compare runs played on the same tasks (see `data_dir` / `tasks_digest` in their config.json)",
        )


def pair_verdicts(
    a: list[Verdict], b: list[Verdict], hashes_a: Hashes | None = None, hashes_b: Hashes | None = None
) -> tuple[list[tuple[Verdict, Verdict]], str, int, int]:
    """Matched (A, B) verdicts in key order, what they were paired on, and how many of each side stayed unpaired.

    With hashes ((task id, trial) -> task content hash, for each side), pairs on (hash, trial), after refusing
    ids whose content differs."""
    keys: list[tuple[str, Callable[[Verdict], tuple[str, int]], Callable[[Verdict], tuple[str, int]]]] = []
    if hashes_a is not None and hashes_b is not None:
        _check_same_tasks(a, b, hashes_a, hashes_b)
        keys.append(
            (
                "task content and trial",
                lambda v: (hashes_a.get(_key_by_id(v), ""), v.trial),
                lambda v: (hashes_b.get(_key_by_id(v), ""), v.trial),
            )
        )
    else:
        keys.append(("task id and trial", _key_by_id, _key_by_id))
    keys.append(("type, index and trial", _key_by_position, _key_by_position))
    for name, key_a, key_b in keys:
        left = {key_a(v): v for v in a}
        right = {key_b(v): v for v in b}
        shared = sorted(set(left) & set(right))
        if shared:
            return [(left[k], right[k]) for k in shared], name, len(left) - len(shared), len(right) - len(shared)
    raise ClarqError("the two runs share no task", "compare runs played on the same tasks")


def compare(
    a: list[Verdict],
    b: list[Verdict],
    *,
    names: tuple[str, str] = ("A", "B"),
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    hashes: tuple[Hashes, Hashes] | None = None,
) -> Comparison:
    """Paired differences A - B for success, AQD, AQL, AQL in tokens and efficiency, plus McNemar on success."""
    pairs, paired_on, only_a, only_b = pair_verdicts(a, b, *(hashes or (None, None)))
    differences = []
    for figure, value in FIGURES.items():
        left = [value(x) for x, _ in pairs]
        right = [value(y) for _, y in pairs]
        result = paired_bootstrap(left, right, seed=figure_seed(seed, f"compare/{figure}"), resamples=resamples)
        differences.append(
            Difference(
                figure=figure,
                a=sum(left) / len(left),
                b=sum(right) / len(right),
                difference=result.difference,
                low=result.low,
                high=result.high,
                p_value=result.p_value,
                test="paired bootstrap",
            )
        )
    test = mcnemar_exact([x.success for x, _ in pairs], [y.success for _, y in pairs])
    return Comparison(
        a=names[0],
        b=names[1],
        pairs=len(pairs),
        paired_on=paired_on,
        unpaired_a=only_a,
        unpaired_b=only_b,
        mcnemar={"a_only": test.a_only, "b_only": test.b_only, "p_value": test.p_value},
        differences=differences,
    )
