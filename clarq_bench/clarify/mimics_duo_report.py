"""`clarq mimics-duo`: MIMICS-Duo's Tables 7, 10 and 11 recomputed from its released files, each figure printed
beside the paper's, in summary.json and report.md. Which figures reproduce is measured, not assumed: the report
gives every difference."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from .mimics_duo import MEASURES, ONLINE, by_query, load_panes, rank_figures, table10, untied

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
#: Table 7 (ideal: engagement level): method -> (P@1, MRR) with ties, (P@1, MRR) non-tied.
PAPER_TABLE7 = {"Offline Rating": ((0.382, 0.604), (0.382, 0.637)), "Quality Labelling": ((0.363, 0.599), (0.273, 0.576)),
                "random": ((0.332, 0.576), None), "worst": ((0.0, 0.437), (0.0, 0.307))}  # fmt: skip
#: Table 11: ideal -> method -> (P@1, MRR).
PAPER_TABLE11 = {
    "Eng. Level": {"Coverage": (0.333, 0.581), "Diversity": (0.340, 0.583), "Understandability": (0.376, 0.601),
                   "Can. Ans. Order": (0.314, 0.565), "random": (0.307, 0.561)},
    "Quality Labelling": {"Coverage": (0.317, 0.589), "Diversity": (0.297, 0.588), "Understandability": (0.340, 0.608),
                          "Can. Ans. Order": (0.343, 0.604), "random": (0.356, 0.614)},
    "Offline Rating": {"Coverage": (0.369, 0.625), "Diversity": (0.366, 0.626), "Understandability": (0.350, 0.613),
                       "Can. Ans. Order": (0.323, 0.584), "random": (0.268, 0.558)},
}  # fmt: skip
ASPECTS = ("Coverage", "Diversity", "Understandability", "Can. Ans. Order")


class Cell(BaseModel):
    ours: float
    paper: float | None = None


class MimicsDuoReport(BaseModel):
    pairs: int
    queries: int
    runs: int
    seed: int
    table10: dict[str, dict[str, Cell]]
    table10_offline_max_difference: float
    table7: dict[str, dict[str, dict]]  # method -> "ties" / "non-tied" -> figures (+ queries, paper)
    table11: dict[str, dict[str, dict]]  # ideal -> method -> figures (+ paper)


def analyse(folder: Path, *, runs: int = 1000, seed: int = 2022) -> MimicsDuoReport:
    panes = load_panes(folder)
    queries = by_query(panes)
    names = list(MEASURES)
    ours = table10(panes)
    t10 = {a: {b: Cell(ours=ours[a][b], paper=PAPER_TABLE10[a][j]) for j, b in enumerate(names[i + 1:])}
           for i, a in enumerate(names[:-1])}  # fmt: skip
    offline = [abs(c.ours - c.paper) for a, row in t10.items() for b, c in row.items()
               if c.paper is not None and not ({a, b} & ONLINE)]  # fmt: skip
    t7: dict[str, dict[str, dict]] = {}
    for method in ("Offline Rating", "Quality Labelling"):
        kept = untied(queries, method)
        paper = PAPER_TABLE7[method]
        t7[method] = {"ties": {**rank_figures(queries, method, "Eng. Level", runs=runs, seed=seed),
                               "queries": len(queries), "paper": paper[0]},
                      "non-tied": {**rank_figures(kept, method, "Eng. Level", runs=runs, seed=seed),
                                   "queries": len(kept), "pairs": sum(map(len, kept)), "paper": paper[1]},
                      "random, non-tied": {**rank_figures(kept, None, "Eng. Level", runs=runs, seed=seed),
                                           "queries": len(kept)}}  # fmt: skip
    t7["random"] = {"ties": {**rank_figures(queries, None, "Eng. Level", runs=runs, seed=seed),
                             "queries": len(queries), "paper": PAPER_TABLE7["random"][0]}}  # fmt: skip
    t7["worst"] = {"ties": {**rank_figures(queries, None, "Eng. Level", runs=runs, seed=seed, worst=True),
                            "queries": len(queries), "paper": PAPER_TABLE7["worst"][0]}}  # fmt: skip
    t11 = {ideal: {(m or "random"): {**rank_figures(queries, m, ideal, runs=runs, seed=seed),
                                     "paper": PAPER_TABLE11[ideal][m or "random"]}
                   for m in (*ASPECTS, None)} for ideal in PAPER_TABLE11}  # fmt: skip
    return MimicsDuoReport(pairs=len(panes), queries=len(queries), runs=runs, seed=seed, table10=t10,
                           table10_offline_max_difference=max(offline), table7=t7, table11=t11)


def _pair(figures: dict) -> str:
    paper = figures.get("paper")
    shown = f"{figures['P@1']:.3f} / {figures['MRR']:.3f}"
    return shown + (f" (paper {paper[0]:.3f} / {paper[1]:.3f})" if paper else "")


def markdown(report: MimicsDuoReport) -> str:
    names = list(MEASURES)
    lines = [f"# MIMICS-Duo from its released files\n\n{report.pairs} query-clarification pairs, {report.queries} "
             f"queries; random tie-breaks and baselines: {report.runs} draws, seed {report.seed}.\n",
             "## Table 10: Pearson's r (ours / paper)\n", "| | " + " | ".join(names[1:]) + " |",
             "|---" * len(names) + "|"]  # fmt: skip
    for i, a in enumerate(names[:-1]):
        cells = [""] * i + [f"{c.ours:.3f} / {c.paper:.3f}" for c in report.table10[a].values()]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += [f"\nOffline-offline cells: largest difference from the paper {report.table10_offline_max_difference:.4f}."
              " Cells with the engagement level are printed as computed; they differ from the paper's.\n",
              "## Table 7: ideal order by engagement level, P@1 / MRR\n", "| method | variant | queries | P@1 / MRR |",
              "|---|---|---|---|"]  # fmt: skip
    for method, variants in report.table7.items():
        for variant, figures in variants.items():
            lines.append(f"| {method} | {variant} | {figures['queries']} | {_pair(figures)} |")
    lines += ["\n## Table 11: panes ordered by an aspect, P@1 / MRR\n", "| ideal | method | P@1 / MRR |", "|---|---|---|"]
    for ideal, methods in report.table11.items():
        lines += [f"| {ideal} | {method} | {_pair(figures)} |" for method, figures in methods.items()]
    lines.append("\nTables 7 and 11 follow the paper's stated definitions (module clarq_bench/clarify/mimics_duo.py); "
                 "the paper does not say how it breaks ties below the top or which queries its non-tied sets keep, "
                 "so these figures are not expected to equal the paper's.")
    return "\n".join(lines) + "\n"


def write(report: MimicsDuoReport, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(report.model_dump(), indent=2) + "\n", encoding="utf-8")
    (out / "report.md").write_text(markdown(report), encoding="utf-8")
