"""`clarq mimics-duo`: MIMICS-Duo's Tables 7, 10 and 11 recomputed from its released files, each figure printed
beside the paper's, in summary.json and report.md. Which figures reproduce is measured, not assumed: every cell shows
its difference from the paper's, and the cells that miss are listed with what is known of why.

Readings (module mimics_duo): Table 7's non-tied sets by default keep the queries whose top pane is unique by the
method's label and by the engagement level, the one reading of the paper's text that gives its stated counts (152
queries / 500 pairs for the offline rating, 139 / 465 for the quality label); Table 11 by default counts one relevant
pane per query, drawn at random among the panes tied at the ideal's top, as the paper says tied top panes were
picked. The other readings stay available (`untied="label"`, `relevant="tied"`). Table 7's tied columns always count
every pane tied at the engagement top as relevant: that is the reading whose random baseline (P@1 0.333) is the
paper's 0.332; one relevant pane per query would give 0.305.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .mimics_duo import (
    IDEAL,
    MEASURES,
    ONLINE,
    Pane,
    by_query,
    load_panes,
    mrr_bounds,
    rank_figures,
    table10,
    untied,
    worst_dense_mrr,
)
from .mimics_duo_readings import RELEVANT, UNTIED

#: Table 10 of the paper (upper triangle, in MEASURES order).
PAPER_TABLE10 = {
    "Coverage": [0.421, 0.313, 0.178, 0.227, -0.061, 0.273, 0.306],
    "Diversity": [0.260, 0.117, 0.176, -0.029, 0.245, 0.269],
    "Understandability": [0.159, 0.226, 0.034, 0.227, 0.055],
    "Can. Ans. Order": [0.064, 0.003, 0.044, -0.178],
    "Quality Labelling": [-0.032, 0.225, 0.165],
    "Eng. Level": [-0.001, -0.079],
    "Offline Rating": [0.262],
}
#: Table 7 (ideal: engagement level), row -> the paper's figures. Its random ranker on the non-tied sets is given per
#: set; its worst case on them is one figure (0.307, the quality set's here), shown beside both sets.
PAPER_TABLE7 = {
    ("Offline Rating", "ties"): {"P@1": 0.382, "MRR": 0.604},
    ("Offline Rating", "non-tied"): {"P@1": 0.382, "MRR": 0.637, "queries": 152, "pairs": 500},
    ("Offline Rating", "random, non-tied"): {"P@1": 0.309, "MRR": 0.586, "P@1 sd": 0.038, "MRR sd": 0.024},
    ("Offline Rating", "worst, non-tied"): {"P@1": 0.0, "MRR": 0.307},
    ("Quality Labelling", "ties"): {"P@1": 0.363, "MRR": 0.599},
    ("Quality Labelling", "non-tied"): {"P@1": 0.273, "MRR": 0.576, "queries": 139, "pairs": 465},
    ("Quality Labelling", "random, non-tied"): {"P@1": 0.306, "MRR": 0.581, "P@1 sd": 0.041, "MRR sd": 0.025},
    ("Quality Labelling", "worst, non-tied"): {"P@1": 0.0, "MRR": 0.307},
    ("random", "ties"): {"P@1": 0.332, "MRR": 0.576, "P@1 sd": 0.026, "MRR sd": 0.015},
    ("worst", "ties"): {"P@1": 0.0, "MRR": 0.437},
}
#: Table 11: ideal -> method -> (P@1, MRR).
PAPER_TABLE11 = {
    "Eng. Level": {
        "Coverage": (0.333, 0.581),
        "Diversity": (0.340, 0.583),
        "Understandability": (0.376, 0.601),
        "Can. Ans. Order": (0.314, 0.565),
        "random": (0.307, 0.561),
    },
    "Quality Labelling": {
        "Coverage": (0.317, 0.589),
        "Diversity": (0.297, 0.588),
        "Understandability": (0.340, 0.608),
        "Can. Ans. Order": (0.343, 0.604),
        "random": (0.356, 0.614),
    },
    "Offline Rating": {
        "Coverage": (0.369, 0.625),
        "Diversity": (0.366, 0.626),
        "Understandability": (0.350, 0.613),
        "Can. Ans. Order": (0.323, 0.584),
        "random": (0.268, 0.558),
    },
}
ASPECTS = ("Coverage", "Diversity", "Understandability", "Can. Ans. Order")
FIGURES = ("P@1", "MRR", "P@1 sd", "MRR sd")
#: a cell reproduces when it rounds to the paper's 3 decimals (half a unit of the last printed digit, and a hair).
EXACT = 0.0005 + 1e-9
#: what is known of why a cell misses, by (table, method or row, variant or ideal); shown only for cells that miss.
WHY = {
    ("7", "ties"): "no reading of ties on the release gives the tied columns (every pane tied at the engagement top "
    "relevant gives the random baseline's P@1 0.332, but neither that nor one relevant pane drawn at "
    "random gives the methods' figures); they appear "
    "to come from data other than the release, as Table 10's engagement cells do",
    ("7", "worst"): "reversing the engagement order puts the top pane(s) last in every query, so MRR is the mean "
    "of 1 / (n - k + 1) (n panes, k tied at the top): the figure here is the only one the stated rule "
    "gives on the release. If panes with the same engagement level shared one rank (dense ranks, "
    "not the paper's stated rule), the MRR would be {bounds}: the paper's figure may count ranks "
    "that way",
    ("7", "non-tied"): "P@1 is exact (the top panes are unique); MRR depends on how ties below the top of the method's "
    "order are broken, which the paper does not say; here at random. Any tie-break gives an MRR in "
    "{bounds}",
    ("7", "random, non-tied"): "a mean and sd over random draws; the paper's draws are unknown",
    ("7", "worst, non-tied"): "the paper prints one worst-case figure for both non-tied sets",
    ("11", "random"): "the random ranker's expectation is the same for every ideal with one relevant pane per query "
    "(mean 1/n = 0.305); the paper's three figures (0.307, 0.356, 0.268) spread about 2 sd of a "
    "single draw (0.026) around it, as if each were one draw",
    ("11", "aspect"): "ties in the method's order and at the ideal's top are broken at random; the paper's draws are "
    "unknown",
}


class Cell(BaseModel):
    ours: float
    paper: float | None = None


class RankRow(BaseModel):
    """One row of Table 7 or 11: our figures, the paper's, and how many queries and pairs were scored."""

    table: str
    ideal: str
    method: str
    variant: str
    queries: int
    pairs: int
    figures: dict[str, float]
    paper: dict[str, float]
    differences: dict[str, float]
    misses: list[str]  # the cells (figures and counts) that do not round to the paper's
    why: str | None = None


class MimicsDuoReport(BaseModel):
    pairs: int
    queries: int
    runs: int
    seed: int
    untied: str
    relevant: str
    table10: dict[str, dict[str, Cell]]
    table10_offline_max_difference: float
    table7: list[RankRow]
    table11: list[RankRow]


def _row(
    table: str,
    ideal: str,
    method: str,
    variant: str,
    kept: list,
    figures: dict,
    paper: dict,
    why: str,
    bounds: tuple[float, ...] | None = None,
) -> RankRow:
    counts = {"queries": len(kept), "pairs": sum(map(len, kept))}
    diffs = {k: figures[k] - paper[k] for k in FIGURES if k in paper}
    misses = [k for k, d in diffs.items() if not abs(d) <= EXACT]  # NaN (no queries kept) misses too
    misses += [k for k, n in counts.items() if k in paper and paper[k] != n]
    return RankRow(
        table=table,
        ideal=ideal,
        method=method,
        variant=variant,
        **counts,
        figures=figures,
        paper=paper,
        differences=diffs,
        misses=misses,
        why=WHY[(table, why)].format(bounds=_span(bounds)) if misses else None,
    )


def _span(bounds: tuple[float, ...] | None) -> str:
    if not bounds:
        return ""
    return "-".join(f"{b:.3f}" for b in bounds)


def analyse(
    folder: Path, *, runs: int = 1000, seed: int = 2022, untied_reading: str = UNTIED[0], relevant: str = RELEVANT[0]
) -> MimicsDuoReport:
    if untied_reading not in UNTIED or relevant not in RELEVANT:
        raise ValueError(f"untied must be one of {UNTIED} and relevant one of {RELEVANT}")
    panes = load_panes(folder)
    queries = by_query(panes)
    names = list(MEASURES)
    ours = table10(panes)
    t10 = {
        a: {b: Cell(ours=ours[a][b], paper=PAPER_TABLE10[a][j]) for j, b in enumerate(names[i + 1 :])}
        for i, a in enumerate(names[:-1])
    }
    offline = [
        abs(c.ours - c.paper)
        for a, row in t10.items()
        for b, c in row.items()
        if c.paper is not None and not ({a, b} & ONLINE)
    ]

    def figures(kept: list[list[Pane]], method: str | None, ideal: str = IDEAL, **how: Any) -> dict[str, float]:
        return rank_figures(kept, method, ideal, runs=runs, seed=seed, **how)

    t7 = []
    for method in ("Offline Rating", "Quality Labelling"):
        kept = untied(queries, method, untied_reading)
        t7 += [
            _row("7", IDEAL, method, "ties", queries, figures(queries, method), PAPER_TABLE7[method, "ties"], "ties"),
            _row(
                "7",
                IDEAL,
                method,
                "non-tied",
                kept,
                figures(kept, method),
                PAPER_TABLE7[method, "non-tied"],
                "non-tied",
                mrr_bounds(kept, method, IDEAL),
            ),
            _row(
                "7",
                IDEAL,
                method,
                "random, non-tied",
                kept,
                figures(kept, None),
                PAPER_TABLE7[method, "random, non-tied"],
                "random, non-tied",
            ),
            _row(
                "7",
                IDEAL,
                method,
                "worst, non-tied",
                kept,
                figures(kept, None, worst=True),
                PAPER_TABLE7[method, "worst, non-tied"],
                "worst, non-tied",
            ),
        ]
    t7 += [
        _row("7", IDEAL, "random", "ties", queries, figures(queries, None), PAPER_TABLE7["random", "ties"], "ties"),
        _row(
            "7",
            IDEAL,
            "worst",
            "ties",
            queries,
            figures(queries, None, worst=True),
            PAPER_TABLE7["worst", "ties"],
            "worst",
            (worst_dense_mrr(queries, IDEAL),),
        ),
    ]
    t11 = []
    for ideal, methods in PAPER_TABLE11.items():
        for aspect in (*ASPECTS, None):
            name = aspect or "random"
            paper = dict(zip(("P@1", "MRR"), methods[name]))
            t11.append(
                _row(
                    "11",
                    ideal,
                    name,
                    f"relevant: {relevant}",
                    queries,
                    figures(queries, aspect, ideal, relevant=relevant),
                    paper,
                    "random" if aspect is None else "aspect",
                )
            )
    return MimicsDuoReport(
        pairs=len(panes),
        queries=len(queries),
        runs=runs,
        seed=seed,
        untied=untied_reading,
        relevant=relevant,
        table10=t10,
        table10_offline_max_difference=max(offline),
        table7=t7,
        table11=t11,
    )


def _cell(row: RankRow, key: str) -> str:
    ours = f"{row.figures[key]:.3f}"
    if key not in row.paper:
        return f"{ours} | -"
    return f"{ours} | {row.paper[key]:.3f} ({row.differences[key]:+.3f})"


def _count(row: RankRow, key: str) -> str:
    return f"{getattr(row, key)}" + (f" ({row.paper[key]:g})" if key in row.paper else "")


def _rank_table(rows: list[RankRow], first: str) -> list[str]:
    head = (
        "| {} | method | variant | queries (paper) | pairs (paper) | P@1 | paper | MRR | paper | P@1 sd | paper "
        "| MRR sd | paper | misses |"
    )
    out = [head.format(first), "|---" * 14 + "|"]
    for row in rows:
        lead = row.ideal if first == "ideal" else ""
        out.append(
            f"| {lead} | {row.method} | {row.variant} | {_count(row, 'queries')} | {_count(row, 'pairs')} | "
            + " | ".join(_cell(row, k) for k in FIGURES)
            + f" | {', '.join(row.misses) or '-'} |"
        )
    return out


def _misses(rows: list[RankRow]) -> list[str]:
    out = []
    for why in dict.fromkeys(r.why for r in rows if r.why):
        cells = "; ".join(
            f"{r.method}{'' if r.table == '7' else ' against ' + r.ideal}, {r.variant}: {', '.join(r.misses)}"
            for r in rows
            if r.why == why
        )
        out.append(f"- {cells}. Why: {why}.")
    return out or ["- none"]


def markdown(report: MimicsDuoReport) -> str:
    names = list(MEASURES)
    intro = (
        f"# MIMICS-Duo from its released files\n\n{report.pairs} query-clarification pairs, {report.queries} "
        f"queries; random tie-breaks and baselines: {report.runs} draws, seed {report.seed}. Readings: non-tied "
        f"sets `{report.untied}`, Table 11's relevant panes `{report.relevant}` (`clarq mimics-duo --help`).\n"
    )
    lines = [
        intro,
        "## Table 10: Pearson's r (ours / paper)\n",
        "| | " + " | ".join(names[1:]) + " |",
        "|---" * len(names) + "|",
    ]
    for i, a in enumerate(names[:-1]):
        cells = [""] * i + [f"{c.ours:.3f} / {c.paper:.3f}" for c in report.table10[a].values()]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    online = [c for a, row in report.table10.items() for b, c in row.items() if {a, b} & ONLINE]
    missed = sum(1 for c in online if c.paper is not None and not abs(c.ours - c.paper) <= EXACT)
    table10_note = (
        f"\nOffline-offline cells: largest difference from the paper "
        f"{report.table10_offline_max_difference:.4f}. Cells with the engagement level that do not "
        f"reproduce: {missed} of {len(online)}; where the offline cells reproduce on the same pairs, the "
        "paper's engagement column appears to come from data other than the release.\n"
    )
    table7_note = (
        "Figures beside the paper's (difference in brackets); a cell misses when it does not round to the "
        "paper's 3 decimals (or its count differs). The tied columns count every pane tied at the "
        "engagement top as relevant.\n"
    )
    lines += [table10_note, "## Table 7: ideal order by engagement level\n", table7_note]
    lines += _rank_table(report.table7, "")
    lines += [
        "\nCells that do not reproduce:\n",
        *_misses(report.table7),
        "\n## Table 11: panes ordered by an aspect\n",
    ]
    lines += _rank_table(report.table11, "ideal")
    within = max(abs(d) for r in report.table11 if r.method != "random" for d in r.differences.values())
    lines += [
        f"\nAspect rows: largest difference from the paper {within:.3f}. Cells that do not reproduce:\n",
        *_misses(report.table11),
    ]
    return "\n".join(lines) + "\n"


def write(report: MimicsDuoReport, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(report.model_dump(), indent=2) + "\n", encoding="utf-8")
    (out / "report.md").write_text(markdown(report), encoding="utf-8")
