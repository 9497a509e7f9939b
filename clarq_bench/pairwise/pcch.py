"""PCC-H (Pearson Correlation Coefficient - Information Entropy) and majority vote over a judges x items matrix.

Input: `choices[w][q]` = the option judge w chose on item q, in system space (0 = system 1 better, 1 = system 2
better, and in the 4-choice design 2 = both good, 3 = both bad), or -1 when w gave no valid answer on q.

- Eq. 1, reliability r_w: the sum over the A options of the Pearson correlation, over the items w answered (and at
  least one other judge answered), of w's 0/1 indicator for option a with the mean indicator of the other judges on
  that item, as the paper prints it. Convention for an option whose term is 0/0 (w never used it, or always did, or
  the others' mean does not vary): the term is 0, which is what its numerator, the covariance, is. With 2 options
  the two terms are equal, so r_w is twice the single correlation (Eq. 2 cancels the factor); with 4 a judge who
  used fewer options has fewer non-zero terms, which is why the sum and a mean over the usable options rank judges
  differently. A judge with fewer than 2 shared items: r_w = 0. The weight is r_w with negative values clipped to 0.
- Eq. 2: RV_qa = sum_w r_w X_wqa / sum_w r_w over the judges who answered q. When every one of them has weight 0,
  they count equally (else the item would vanish).
- Eq. 3 (4 options): RV'_ql = RV_ql + RV_q,both_good / 2 - RV_q,both_bad / 2 for each system l.
- Eqs. 4-6, whose exact form the paper does not print; our choice: H_q = -sum_a RV_qa log RV_qa / log A (the
  entropy of the reliability-weighted answer shares of Eq. 2, before Eq. 3, in [0, 1] by the log base A), W_q = 1 -
  H_q (a unanimous item weighs 1, an evenly split one 0), PRV_l = 100 * sum_q W_q RV'_ql / sum_q W_q. When every
  W_q is 0 the items count equally.

Majority vote: each item goes to the option most judges chose (ties share the item equally), the 4-choice rule is
applied to those shares, and PRV is their mean over items with equal weights (the paper's baseline).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PCCH(NamedTuple):
    reliability: np.ndarray  # r_w by Eq. 1 (a sum over options, before clipping), one per judge
    rv: np.ndarray  # items x options: Eq. 2 shares (NaN rows for items nobody answered)
    system_rv: np.ndarray  # items x 2: Eq. 3 (the 2-choice design: the shares themselves)
    entropy: np.ndarray  # items: Eq. 4
    weight: np.ndarray  # items: Eq. 5
    prv: tuple[float, float]  # Eq. 6, percent, for system 1 and system 2
    answered: np.ndarray  # items: True where at least one judge answered


def _pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    if len(x) < 2 or np.std(x) == 0 or np.std(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def reliabilities(choices: np.ndarray, options: int) -> np.ndarray:
    """Eq. 1 for every judge: the sum of the per-option terms, 0/0 terms as 0 (unclipped)."""
    judges = choices.shape[0]
    indicator = np.stack([(choices == a).astype(float) for a in range(options)], axis=2)  # J x Q x A
    answered = choices >= 0
    out = np.zeros(judges)
    for w in range(judges):
        others = np.delete(np.arange(judges), w)
        counts = answered[others].sum(axis=0)
        usable = answered[w] & (counts > 0)
        if usable.sum() < 2:
            continue
        y_all = indicator[others].sum(axis=0)[usable] / counts[usable][:, None]
        x_all = indicator[w][usable]
        out[w] = float(sum(r for a in range(options) if (r := _pearson(x_all[:, a], y_all[:, a])) is not None))
    return out


def relevance(choices: np.ndarray, options: int, weights: np.ndarray) -> np.ndarray:
    """Eq. 2: items x options shares weighted by `weights` (equal weights where all answering judges weigh 0)."""
    indicator = np.stack([(choices == a).astype(float) for a in range(options)], axis=2)
    answered = (choices >= 0).astype(float)
    rv = np.full((choices.shape[1], options), np.nan)
    for q in range(choices.shape[1]):
        who = answered[:, q] > 0
        if not who.any():
            continue
        w = weights[who] if weights[who].sum() > 0 else np.ones(int(who.sum()))
        rv[q] = (w[:, None] * indicator[who, q, :]).sum(axis=0) / w.sum()
    return rv


def system_values(rv: np.ndarray) -> np.ndarray:
    """Eq. 3: items x 2 values per system (4 options: half of both-good added, half of both-bad taken off)."""
    if rv.shape[1] == 2:
        return rv.copy()
    bonus = rv[:, 2:3] / 2 - rv[:, 3:4] / 2
    return rv[:, 0:2] + bonus


def entropy_weights(rv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eqs. 4-5: (H_q normalised by log A, W_q = 1 - H_q) per item."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(rv > 0, rv * np.log(np.where(rv > 0, rv, 1)), 0.0)
    entropy = -terms.sum(axis=1) / np.log(rv.shape[1])
    entropy = np.clip(entropy, 0.0, 1.0)
    return entropy, 1.0 - entropy


def weighted_prv(values: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """Eq. 6 in percent; equal item weights when every weight is 0."""
    w = weight if weight.sum() > 0 else np.ones_like(weight)
    return tuple(float(100 * (w * values[:, s]).sum() / w.sum()) for s in (0, 1))  # type: ignore[return-value]


def pcch(choices: np.ndarray, options: int) -> PCCH:
    """The whole method on one matrix; items nobody answered are left out of Eqs. 4-6."""
    choices = np.asarray(choices, dtype=int)
    r = reliabilities(choices, options)
    rv = relevance(choices, options, np.clip(r, 0.0, None))
    answered = ~np.isnan(rv).any(axis=1)
    sys_rv = system_values(rv)
    entropy, weight = np.full(len(rv), np.nan), np.full(len(rv), np.nan)
    entropy[answered], weight[answered] = entropy_weights(rv[answered])
    prv = weighted_prv(sys_rv[answered], weight[answered]) if answered.any() else (float("nan"), float("nan"))
    return PCCH(r, rv, sys_rv, entropy, weight, prv, answered)


def majority_values(choices: np.ndarray, options: int) -> np.ndarray:
    """Items x 2: each item's plurality option (ties shared) through Eq. 3; NaN rows where nobody answered."""
    choices = np.asarray(choices, dtype=int)
    shares = np.full((choices.shape[1], options), np.nan)
    for q in range(choices.shape[1]):
        votes = np.array([(choices[:, q] == a).sum() for a in range(options)], dtype=float)
        if votes.sum() == 0:
            continue
        top = votes == votes.max()
        shares[q] = top / top.sum()
    return system_values(shares)
