"""From answers to figures: per criterion, PCC-H and majority-vote PRV per system with bootstrap intervals over
items, judge reliabilities, each judge's position bias (on the swapped re-run) and how often the pairwise verdict
agrees with the difference in success and in AQD on the same task.

The intervals resample items with the reliabilities and item weights held at their full-data values (the ratio
sum W_q RV'_ql / sum W_q of scoring/stats.py). Only unswapped answers enter PCC-H; a judge who answered an item
twice counts with the last answer.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, Field

from ..core.defaults import DEFAULT_SEED
from ..core.transcript import Usage
from ..scoring.stats import DEFAULT_RESAMPLES, bootstrap_mean, bootstrap_ratio, figure_seed
from .answers import PairAnswer, system_option
from .items import ItemSet
from .pcch import majority_values, pcch


class Share(BaseModel):
    value: float | None
    low: float | None = None
    high: float | None = None


class Agreement(BaseModel):
    """Items where both the pairwise verdict and the run difference pick a side, and how many pick the same one."""

    agree: int
    n: int

    @property
    def share(self) -> float | None:
        return self.agree / self.n if self.n else None


class CriterionResult(BaseModel):
    criterion: str
    items: int = Field(description="Items with at least one valid answer.")
    pcch: tuple[Share, Share] = Field(description="PRV (percent) of system 1 and 2, PCC-H.")
    majority: tuple[Share, Share] = Field(description="PRV (percent) of system 1 and 2, majority vote.")
    reliability: dict[str, float] = Field(description="Judge -> r_w (Eq. 1, before clipping).")
    agreement_success: Agreement
    agreement_aqd: Agreement


class JudgeRow(BaseModel):
    judge: str
    answers: int
    invalid: int
    a_share: float | None = Field(description="Share of valid answers that chose position A.")
    swap_compared: int = 0
    swap_flips: int = 0

    @property
    def flip_share(self) -> float | None:
        return self.swap_flips / self.swap_compared if self.swap_compared else None


class PairwiseSummary(BaseModel):
    systems: tuple[str, str]
    run_ids: tuple[str, str]
    design: int
    seed: int
    items: int
    swapped_items: int
    criteria: list[CriterionResult]
    judges: list[JudgeRow]
    usage: dict[str, Usage] = Field(default_factory=dict)


def _latest(answers: list[PairAnswer], swapped: bool) -> dict[tuple[str, str, str], PairAnswer]:
    return {(a.judge, a.item, a.criterion): a for a in answers if a.swapped == swapped}


def choice_matrix(
    items: ItemSet, answers: dict[tuple[str, str, str], PairAnswer], judges: list[str], criterion: str
) -> np.ndarray:
    """Judges x items system-space options (-1 = no valid answer)."""
    out = np.full((len(judges), len(items.items)), -1, dtype=int)
    for w, judge in enumerate(judges):
        for q, item in enumerate(items.items):
            answer = answers.get((judge, item.id, criterion))
            if answer is not None:
                out[w, q] = system_option(answer)
    return out


def _agreement(verdict: np.ndarray, difference: np.ndarray) -> Agreement:
    both = (np.sign(verdict) != 0) & (np.sign(difference) != 0) & ~np.isnan(verdict)
    return Agreement(agree=int((np.sign(verdict[both]) == np.sign(difference[both])).sum()), n=int(both.sum()))


def _criterion(
    items: ItemSet, answers: dict, judges: list[str], criterion: str, seed: int, resamples: int
) -> CriterionResult:
    choices = choice_matrix(items, answers, judges, criterion)
    result = pcch(choices, items.design)
    ok = result.answered
    weight = result.weight[ok] if result.weight[ok].sum() > 0 else np.ones(int(ok.sum()))
    shares = []
    for s in (0, 1):
        interval = bootstrap_ratio(
            100 * weight * result.system_rv[ok, s],
            weight,
            resamples=resamples,
            seed=figure_seed(seed, f"pairwise/{criterion}/pcch/{s}"),
        )
        shares.append(Share(value=interval.value, low=interval.low, high=interval.high))
    majority = majority_values(choices, items.design)
    votes = []
    for s in (0, 1):
        interval = bootstrap_mean(
            list(100 * majority[ok, s]),
            resamples=resamples,
            seed=figure_seed(seed, f"pairwise/{criterion}/majority/{s}"),
        )
        votes.append(Share(value=interval.value, low=interval.low, high=interval.high))
    verdict = result.system_rv[:, 0] - result.system_rv[:, 1]
    success = np.array([float(i.sides[0].success) - float(i.sides[1].success) for i in items.items])
    aqd = np.array([float(i.sides[1].aqd - i.sides[0].aqd) for i in items.items])  # fewer extra questions is better
    return CriterionResult(
        criterion=criterion,
        items=int(ok.sum()),
        pcch=tuple(shares),
        majority=tuple(votes),
        reliability={j: float(r) for j, r in zip(judges, result.reliability)},
        agreement_success=_agreement(verdict, success),
        agreement_aqd=_agreement(verdict, aqd),
    )


def _judge_row(judge: str, answers: list[PairAnswer]) -> JudgeRow:
    mine = [a for a in answers if a.judge == judge]
    valid = [a for a in mine if a.choice is not None]
    first = {(a.item, a.criterion): a for a in valid if not a.swapped}
    again = {(a.item, a.criterion): a for a in valid if a.swapped}
    shared = sorted(set(first) & set(again))
    flips = sum(system_option(first[k]) != system_option(again[k]) for k in shared)
    return JudgeRow(
        judge=judge,
        answers=len(mine),
        invalid=len(mine) - len(valid),
        a_share=sum(a.choice == "A" for a in valid) / len(valid) if valid else None,
        swap_compared=len(shared),
        swap_flips=flips,
    )


def summarize(
    items: ItemSet,
    answers: list[PairAnswer],
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    usage: dict[str, Usage] | None = None,
) -> PairwiseSummary:
    """Every figure of the comparison from its items and all answers given so far."""
    judges = sorted({a.judge for a in answers})
    main = _latest(answers, swapped=False)
    criteria = [_criterion(items, main, judges, c, seed, resamples) for c in items.criteria]
    swapped = {a.item for a in answers if a.swapped}
    return PairwiseSummary(
        systems=items.systems,
        run_ids=items.run_ids,
        design=items.design,
        seed=items.seed,
        items=len(items.items),
        swapped_items=len(swapped),
        criteria=criteria,
        judges=[_judge_row(j, answers) for j in judges],
        usage=usage or {},
    )
