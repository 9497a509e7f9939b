"""Showing a Summary: a rich table in the terminal, report.md, PNG plots and summary.json in a folder.

rich and matplotlib are imported inside the functions that need them (matplotlib with the Agg back end, so
plots render without a display). Reads Summaries only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .metrics import Figure, Group, Summary
from ..core.redact import redact

HEADLINE = (
    ("success", "Success rate"),
    ("aqd", "AQD (released)"),
    ("aql", "AQL (released units)"),
    ("aql_tokens", "AQL (tokens)"),
    ("aqd_successful", "AQD, successful only"),
    ("elicitation_precision", "Elicitation precision"),
    ("redundancy_rate", "Redundancy rate"),
)
PLOTS = {"success_by_required": "success_by_required.png", "success_by_type": "success_by_type.png"}


def fmt(figure: Figure, digits: int = 4) -> str:
    """`0.4808 [0.4192, 0.5423]`, or `n/a`."""
    if figure.value is None:
        return "n/a"
    text = f"{figure.value:.{digits}f}"
    if figure.low is not None and figure.high is not None:
        text += f" [{figure.low:.{digits}f}, {figure.high:.{digits}f}]"
    return text


def headline_rows(summary: Summary) -> list[tuple[str, str, int]]:
    rows = [(label, fmt(getattr(summary, name)), getattr(summary, name).n) for name, label in HEADLINE]
    rows += [(f"pass^{k}", fmt(fig), fig.n) for k, fig in summary.pass_k.items() if int(k) > 1]
    return rows


def endings_line(summary: Summary) -> str:
    """How the dialogues ended, and a warning when some ended in an error (they count as failures, so the figures
    are partly a measure of the failure, not of the seeker)."""
    reasons = ", ".join(f"{reason} {count}" for reason, count in summary.end_reasons.items())
    line = f"Dialogues ended by: {reasons}."
    errors = summary.end_reasons.get("error", 0)
    if errors:
        line += (f" {errors} of {summary.dialogues} dialogues ended in an error and count as failures: the figures "
                 "are not a clean measurement (each transcript's `error` says why; `clarq run --resume RUN_DIR "
                 "--retry-errors` plays them again).")
    return line


def print_table(summary: Summary, console: Any = None) -> None:
    """The headline figures and the per-language slices as rich tables."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    table = Table(
        title=f"clarq score: {summary.source or 'dialogues'} ({summary.dialogues} dialogues, judge {summary.judge})"
    )
    table.add_column("figure")
    table.add_column("value [95% CI]", justify="right")
    table.add_column("n", justify="right")
    for label, value, n in headline_rows(summary):
        table.add_row(label, value, str(n))
    console.print(table)
    slices = Table(title="per language")
    for column in ("slice", "n", "success", "AQD", "AQL", "AQL tokens"):
        slices.add_column(column, justify="left" if column == "slice" else "right")
    for group in summary.by_language:
        slices.add_row(*_group_cells(group))
    console.print(slices)
    errored = summary.end_reasons.get("error", 0)
    console.print(("[bold red]" if errored else "") + escape(endings_line(summary)) + ("[/]" if errored else ""))


def _group_cells(group: Group) -> list[str]:
    return [group.key, str(group.dialogues), fmt(group.success, 3), fmt(group.aqd, 2), fmt(group.aql, 1),
            fmt(group.aql_tokens, 1)]  # fmt: skip


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(summary: Summary, plots: list[str] = ()) -> str:  # type: ignore[assignment]
    """report.md: headline figures with intervals, then breakdowns, turn labels and node outcomes."""
    group_header = ["slice", "n", "success", "AQD", "AQL", "AQL tokens"]
    parts = [
        f"# clarq score: {summary.source or 'dialogues'}",
        "",
        f"{summary.dialogues} dialogues on {summary.tasks} tasks (split {summary.split}, up to {summary.trials} "
        f"trials), judge `{summary.judge}`. Seekers: {', '.join(summary.seekers)}; providers: "
        f"{', '.join(summary.providers)}. Released AQL units: "
        + ", ".join(f"{k} = {v}" for k, v in summary.aql_units.items())
        + f"; token unit `{summary.token_unit}`. Intervals: {summary.bootstrap['confidence']:.0%} percentile "
        f"bootstrap over tasks, {summary.bootstrap['resamples']} resamples, seed {summary.bootstrap['seed']}.",
        "",
        ("**Warning:** " if summary.end_reasons.get("error") else "") + endings_line(summary),
        "",
        _md_table(["figure", "value [95% CI]", "n"], [[a, b, str(c)] for a, b, c in headline_rows(summary)]),
    ]
    for title, groups in (
        ("By language", summary.by_language),
        ("By task type", summary.by_type),
        ("By tree depth", summary.by_depth),
        ("By number of required nodes", summary.by_required),
    ):
        parts += ["", f"## {title}", "", _md_table(group_header, [_group_cells(g) for g in groups])]
    parts += [
        "",
        "## Seeker turns",
        "",
        _md_table(["label", "turns"], [[k, str(v)] for k, v in summary.turn_labels.items()]),
    ]
    parts += [
        "",
        "## Required nodes",
        "",
        _md_table(["outcome", "nodes"], [[k, str(v)] for k, v in summary.node_status.items()]),
    ]
    parts += ["", f"Provider claims not borne out by the text: {summary.unverified_claims}."]
    if plots:
        parts += [""] + [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    return "\n".join(parts) + "\n"


def _bar_plot(groups: list[Group], path: Path, xlabel: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{g.key.split('=', 1)[-1]}\nn={g.dialogues}" for g in groups]
    values = [g.success.value or 0.0 for g in groups]
    below = [
        max(0.0, v - (g.success.low if g.success.low is not None else v)) for v, g in zip(values, groups, strict=False)
    ]
    above = [
        max(0.0, (g.success.high if g.success.high is not None else v) - v)
        for v, g in zip(values, groups, strict=False)
    ]
    fig, ax = plt.subplots(figsize=(max(5.0, 0.35 * len(groups) + 2), 3.6))
    ax.bar(labels, values, yerr=[below, above], capsize=3, color="#4C72B0")
    ax.set_ylim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("success rate (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_plots(summary: Summary, folder: Path) -> list[Path]:
    """success_by_required.png and success_by_type.png (with interval whiskers)."""
    folder.mkdir(parents=True, exist_ok=True)
    required = folder / PLOTS["success_by_required"]
    by_type = folder / PLOTS["success_by_type"]
    _bar_plot(summary.by_required, required, "required nodes", "Success vs number of required nodes")
    _bar_plot(summary.by_type, by_type, "task type", "Success per task type")
    return [required, by_type]


def summary_payload(summary: Summary) -> dict[str, Any]:
    return summary.model_dump(mode="json")


def write_report(summary: Summary, folder: str | Path, *, plots: bool = True) -> list[Path]:
    """summary.json, report.md and (unless `plots` is False) the PNG plots into `folder`; returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    images = write_plots(summary, folder) if plots else []
    summary_path = folder / "summary.json"
    summary_path.write_text(redact(json.dumps(summary_payload(summary), ensure_ascii=False, indent=2)) + "\n",
                            encoding="utf-8")  # fmt: skip
    report_path = folder / "report.md"
    report_path.write_text(redact(markdown(summary, [str(p) for p in images])), encoding="utf-8")
    return [summary_path, report_path, *images]
