"""The offline track's output, in the style of `clarq score`: a rich table, report.md, summary.json and
selections.jsonl (one line per state: its need and the returned question ids), plus a bar plot against chance.
Everything written passes core/redact."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.redact import redact
from .rank_states import StateResult
from .summary import Estimate, SelectSummary

#: Question-ranking figures carry their own names: ClariQ's MRR / P@1 / nDCG measure document retrieval (metrics.py).
LABELS = {
    "mrr": "question-ranking MRR",
    "p@1": "question-ranking P@1",
    "ndcg@3": "question-ranking nDCG@3",
    "ndcg@5": "question-ranking nDCG@5",
    "recall@5": "Recall@5",
    "recall@10": "Recall@10",
    "recall@20": "Recall@20",
    "recall@30": "Recall@30",
    "lar": "LAR (returned list)",
    "olar": "OLAR (returned list)",
    "list_length": "returned list length",
}


def fmt(estimate: Estimate) -> str:
    if estimate.value is None:
        return "n/a"
    if estimate.low is None or estimate.high is None:
        return f"{estimate.value:.4f}"
    return f"{estimate.value:.4f} [{estimate.low:.4f}, {estimate.high:.4f}]"


def chance(summary: SelectSummary, name: str) -> str:
    found = summary.random_expectation.get(name)
    return f"{found['mean']:.4f} ± {found['sd']:.4f}" if found else ""


def rows(summary: SelectSummary) -> list[list[str]]:
    out = [[LABELS[name], fmt(estimate), chance(summary, name)] for name, estimate in summary.selection.items()]
    need = summary.need
    if summary.need_intervals:
        out += [
            [f"need {name} (weighted, 1-4)", fmt(summary.need_intervals[name]), ""]
            for name in ("precision", "recall", "f1")
        ]
    else:
        out += [
            [
                "need P / R / F1 (weighted, 1-4)",
                f"{need['precision']:.4f} / {need['recall']:.4f} / {need['f1']:.4f}",
                "",
            ]
        ]
    out += [
        ["need MSE", fmt(summary.need_mse), ""],
        [
            "need asked? P / R / F1",
            " / ".join(f"{summary.need_binary[k]:.4f}" for k in ("precision", "recall", "f1")),
            "",
        ],
    ]
    return out


def title(summary: SelectSummary) -> str:
    return (
        f"clarq select (offline clarification track): {summary.seeker}, {summary.language}, {summary.tasks} tasks, "
        f"{summary.states} states ({summary.needed_states} need a question)"
    )


def print_table(summary: SelectSummary, console: Any = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    table = Table(title=escape(title(summary)))
    for column, justify in (("figure", "left"), ("value [95% CI]", "right"), ("chance: mean ± sd", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for row in rows(summary):
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)
    if summary.errors:
        console.print(f"[bold red]{summary.errors} states recorded an error (see selections.jsonl)[/]")
    if summary.notes:
        console.print(f"{summary.notes} answers named questions outside the pool; those were dropped")


def markdown(summary: SelectSummary, plots: list[str] = ()) -> str:  # type: ignore[assignment]
    lines = [
        f"# {title(summary)}",
        "",
        "Track: offline clarification (not a dialogue result).",
        "",
        "| figure | value [95% CI] | chance: mean ± sd (1,000 permutations) |",
        "|---|---:|---:|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows(summary)]
    lines += ["", "Question bank: " + ", ".join(f"{k} {v}" for k, v in summary.bank.items()), ""]
    if summary.errors:
        lines += [f"{summary.errors} states recorded an error.", ""]
    lines += [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    return "\n".join(lines) + "\n"


def write_plot(summary: SelectSummary, folder: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n in summary.selection if n != "list_length"]
    values = [summary.selection[n].value or 0.0 for n in names]
    chances = [summary.random_expectation.get(n, {}).get("mean", 0.0) for n in names]
    fig, ax = plt.subplots(figsize=(8, 3.5))
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], values, width=0.4, label=summary.seeker)
    ax.bar([x + 0.2 for x in xs], chances, width=0.4, label="chance")
    ax.set_xticks(list(xs), [LABELS[n].split(" ")[0] for n in names], rotation=30)
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title(f"offline clarification track, {summary.language}")
    fig.tight_layout()
    path = folder / "selection.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def atomic_write_text(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def write_report(
    summary: SelectSummary, results: list[StateResult], folder: str | Path, *, plots: bool = True
) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [write_plot(summary, folder)] if plots else []
    files = {
        "summary.json": json.dumps(summary.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n",
        "report.md": markdown(summary, [str(p) for p in written]),
        "selections.jsonl": "".join(r.model_dump_json() + "\n" for r in results),
    }
    for name, text in files.items():
        atomic_write_text(folder / name, redact(text))
        written.append(folder / name)
    return written
