"""MIMICS-Duo's own analysis (Tavakoli et al. 2022) from its released labels: Table 10's correlations and Tables 7 and
11's P@1 and MRR of the pane orders that offline labels give against an ideal order.

The four released files hold the same 1,034 query-clarification pairs row by row (checked: query, question and the
five options must agree). Table 10: Pearson's r over all pairs between coverage, diversity, understandability,
candidate-answer order, overall quality, engagement level, offline rating and the number of candidate answers.
Tables 7 and 11, per query (its panes): a method orders the panes by its label, highest first, every tie broken at
random, and P@1 and MRR (1 / rank of the first relevant pane) are averaged over `runs` draws. The relevant panes are
those with the query's highest ideal label (engagement level, or in Table 11 also the quality label or the offline
rating), read one of two ways (`RELEVANT`): "tied", every pane tied at the ideal's top is relevant; "one", one
relevant pane per query, drawn at random among those tied at the top in each draw (the paper: tied top panes "had to
be selected randomly"). Baselines: a random order (`runs` draws; mean and the standard deviation of the
query-averaged figure across draws) and the worst case, the ideal order reversed. Non-tied sets (`UNTIED`):
"label-and-engagement" keeps the queries whose top pane is unique both by the method's label and by the engagement
level (the reading that gives the paper's stated 152 queries / 500 pairs and 139 / 465); "label" keeps those whose top
pane is unique by the method's label alone.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from ..core.errors import DataError
from .mimics_duo_readings import RELEVANT, UNTIED

FILES = {
    "online": "Mimics-ClickExploreSampling.tsv",
    "rating": "Task1-OfflineRating.tsv",
    "quality": "Task2-QualityLabelling.tsv",
    "aspects": "Task3-AspectLabelling.tsv",
}
#: Table 10's measures: name -> (file, column); "answers" is counted from the options.
MEASURES = {
    "Coverage": ("aspects", "Coverage"),
    "Diversity": ("aspects", "Diversity"),
    "Understandability": ("aspects", "Understandability"),
    "Can. Ans. Order": ("aspects", "Importance Order"),
    "Quality Labelling": ("quality", "OverallClarificationPaneQuality"),
    "Eng. Level": ("online", "engagement_level"),
    "Offline Rating": ("rating", "offline rating"),
    "# of Can. Ans.": ("aspects", None),
}
ONLINE = {"Eng. Level"}
IDEAL = "Eng. Level"

KEY = ("query", "question", "option_1", "option_2", "option_3", "option_4", "option_5")


class Pane(BaseModel):
    query: str
    labels: dict[str, float]


def load_panes(folder: Path) -> list[Pane]:
    tables = {}
    for name, filename in FILES.items():
        path = Path(folder) / filename
        try:
            with path.open(encoding="utf-8", newline="") as stream:
                tables[name] = list(csv.DictReader(stream, delimiter="\t"))
        except FileNotFoundError:
            raise DataError(str(path), "no such file (`clarq data download --dataset mimics-duo`)") from None
        except (UnicodeDecodeError, csv.Error) as exc:
            raise DataError(str(path), f"not a UTF-8 tab-separated file ({exc})") from None
    count = len(tables["online"])
    panes = []
    for name, rows in tables.items():
        if len(rows) != count:
            raise DataError(FILES[name], f"{len(rows)} rows where {FILES['online']} has {count}")
    for index in range(count):
        row_of = {name: tables[name][index] for name in tables}
        keys = {name: tuple((row.get(k) or "").strip() for k in KEY) for name, row in row_of.items()}
        if len(set(keys.values())) != 1:
            raise DataError(FILES["rating"], "the files disagree on the query or the pane", index + 2)
        labels = {}
        for measure, (table, column) in MEASURES.items():
            if column is None:
                labels[measure] = float(sum(1 for k in KEY[2:] if (row_of[table].get(k) or "").strip()))
                continue
            raw = (row_of[table].get(column) or "").strip()
            try:
                labels[measure] = float(raw)
            except ValueError:
                raise DataError(FILES[table], f"{column} {raw!r} is not a number", index + 2) from None
        panes.append(Pane(query=keys["online"][0], labels=labels))
    return panes


def table10(panes: list[Pane]) -> dict[str, dict[str, float]]:
    """Pearson's r for every pair of measures (upper triangle, in MEASURES order)."""
    names = list(MEASURES)
    columns = {n: np.array([p.labels[n] for p in panes]) for n in names}
    return {
        a: {b: float(np.corrcoef(columns[a], columns[b])[0, 1]) for b in names[i + 1 :]} for i, a in enumerate(names)
    }


def by_query(panes: list[Pane]) -> list[list[Pane]]:
    groups: dict[str, list[Pane]] = {}
    for pane in panes:
        groups.setdefault(pane.query, []).append(pane)
    return list(groups.values())


def _scores(order_keys: np.ndarray, relevant: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P@1 and RR per draw; order_keys and relevant: draws x panes, lower keys first."""
    order = np.argsort(order_keys, axis=1, kind="stable")
    hits = np.take_along_axis(relevant, order, axis=1)
    first = hits.argmax(axis=1)
    return hits[:, 0].astype(float), 1.0 / (first + 1.0)


def rank_figures(
    queries: list[list[Pane]],
    method: str | None,
    ideal: str,
    *,
    runs: int,
    seed: int,
    worst: bool = False,
    relevant: str = "tied",
) -> dict[str, float]:
    """Mean P@1 and MRR over queries (and over `runs` random tie-breaks); method None = random order. No queries
    (a non-tied set that keeps none): every figure is NaN."""
    if relevant not in RELEVANT:
        raise ValueError(f"relevant must be one of {RELEVANT}, not {relevant!r}")
    if not queries:
        return dict.fromkeys(("P@1", "MRR", "P@1 sd", "MRR sd"), float("nan"))
    rng = np.random.default_rng(seed)
    p1, rr = np.zeros(runs), np.zeros(runs)
    for panes in queries:
        gold = np.array([p.labels[ideal] for p in panes])
        top = gold == gold.max()
        noise = rng.random((runs, len(panes)))
        if method is None and not worst:
            keys = noise
        else:
            label = gold if worst else -np.array([p.labels[method] for p in panes])  # type: ignore[index]
            dense = np.unique(label, return_inverse=True)[1]  # 0 first; a tie shares a rank, broken by the noise
            keys = dense[None, :] + noise * 0.5
        if relevant == "tied":
            chosen = np.broadcast_to(top, keys.shape)
        else:  # one of the tied top panes per draw, each as likely
            pick = np.flatnonzero(top)[rng.integers(int(top.sum()), size=runs)]
            chosen = np.arange(len(panes))[None, :] == pick[:, None]
        hit, reciprocal = _scores(keys, chosen)
        p1 += hit
        rr += reciprocal
    p1, rr = p1 / len(queries), rr / len(queries)
    return {
        "P@1": float(p1.mean()),
        "MRR": float(rr.mean()),
        "P@1 sd": float(p1.std(ddof=1)),
        "MRR sd": float(rr.std(ddof=1)),
    }


def _unique_top(panes: list[Pane], measure: str) -> bool:
    values = [p.labels[measure] for p in panes]
    return values.count(max(values)) == 1


def untied(queries: list[list[Pane]], method: str, reading: str = "label") -> list[list[Pane]]:
    """The queries whose highest `method` label belongs to one pane and, by "label-and-engagement", whose highest
    engagement level belongs to one pane too."""
    if reading not in UNTIED:
        raise ValueError(f"reading must be one of {UNTIED}, not {reading!r}")
    measures = (method,) if reading == "label" else (method, IDEAL)
    return [panes for panes in queries if all(_unique_top(panes, m) for m in measures)]


def mrr_bounds(queries: list[list[Pane]], method: str, ideal: str) -> tuple[float, float]:
    """MRR with every tie in the method's order broken against the relevant panes, and for them: the range any
    tie-break rule can give (relevant: the panes tied at the ideal's top). No queries: NaN."""
    if not queries:
        return float("nan"), float("nan")
    worst = best = 0.0
    for panes in queries:
        gold = np.array([p.labels[ideal] for p in panes])
        relevant = gold == gold.max()
        dense = np.unique(-np.array([p.labels[method] for p in panes]), return_inverse=True)[1]
        for sign, total in ((1, "best"), (-1, "worst")):
            order = np.lexsort((-sign * relevant, dense))  # by the method's rank, then relevant first (best) or last
            rank = 1.0 / (np.flatnonzero(relevant[order])[0] + 1.0)
            if total == "best":
                best += rank
            else:
                worst += rank
    return worst / len(queries), best / len(queries)


def worst_dense_mrr(queries: list[list[Pane]], ideal: str) -> float:
    """The worst case's MRR if panes with the same ideal label shared one rank (dense ranks): 1 / the number of
    distinct labels, averaged over queries. Not the paper's stated rule; shown beside its tied worst case, which it
    comes close to."""
    if not queries:
        return float("nan")
    return float(np.mean([1.0 / len({p.labels[ideal] for p in panes}) for panes in queries]))
