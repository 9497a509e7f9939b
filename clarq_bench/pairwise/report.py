"""The pairwise report, like `clarq score`'s: rich tables on the terminal, report.md and summary.json in the session
folder, and pairwise-row.json (the leaderboard's schema) for `clarq leaderboard build --pairwise DIR`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.redact import redact, redact_data
from ..leaderboard.pairwise_rows import PairwiseCriterionRow, PairwiseRow
from .aggregate import Agreement, PairwiseSummary, Share

ROW_FILE = "pairwise-row.json"


def pct(share: Share) -> str:
    if share.value is None:
        return "n/a"
    interval = f" [{share.low:.1f}, {share.high:.1f}]" if share.low is not None and share.high is not None else ""
    return f"{share.value:.1f}{interval}"


def agree(a: Agreement) -> str:
    return f"{a.agree}/{a.n} ({100 * a.share:.0f}%)" if a.share is not None else "n/a (no item where both pick a side)"


def ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def criteria_rows(summary: PairwiseSummary) -> list[list[str]]:
    return [
        [
            c.criterion,
            pct(c.pcch[0]),
            pct(c.pcch[1]),
            pct(c.majority[0]),
            pct(c.majority[1]),
            str(c.items),
            agree(c.agreement_success),
            agree(c.agreement_aqd),
        ]
        for c in summary.criteria
    ]


CRITERIA_HEADER = [
    "criterion",
    "A PCC-H % [95% CI]",
    "B PCC-H % [95% CI]",
    "A majority %",
    "B majority %",
    "items",
    "agrees with success diff",
    "agrees with AQD diff",
]


def judge_rows(summary: PairwiseSummary) -> list[list[str]]:
    rows = []
    for j in summary.judges:
        rel = [f"{c.reliability.get(j.judge, 0):+.2f}" for c in summary.criteria]
        flips = f"{j.swap_flips}/{j.swap_compared} ({100 * j.flip_share:.0f}%)" if j.flip_share is not None else "n/a"
        rows.append([j.judge, *rel, str(j.answers), str(j.invalid), ratio(j.a_share), flips])
    return rows


def judge_header(summary: PairwiseSummary) -> list[str]:
    return [
        "judge",
        *(f"r {c.criterion}" for c in summary.criteria),
        "answers",
        "invalid",
        "chose A",
        "flips when swapped",
    ]


def title(summary: PairwiseSummary) -> str:
    return (
        f"A = {summary.systems[0]}   B = {summary.systems[1]}   ({summary.items} items, {summary.design}-choice, "
        f"position seed {summary.seed}, {summary.swapped_items} re-run swapped)"
    )


def print_report(summary: PairwiseSummary, console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    for heading, header, rows in (
        (title(summary), CRITERIA_HEADER, criteria_rows(summary)),
        ("judges: reliability r_w (Eq. 1, before clipping), position bias", judge_header(summary), judge_rows(summary)),
    ):
        table = Table(title=redact(heading))
        for column in header:
            table.add_column(column)
        for row in rows:
            table.add_row(*(redact(cell) for cell in row))
        console.print(table)
    if summary.usage:
        spent = ", ".join(
            f"{role}: {u.calls} calls ({u.cached_calls} cached), {u.prompt_tokens + u.completion_tokens} "
            f"tokens, ${u.cost_usd:.4f}"
            for role, u in summary.usage.items()
        )
        console.print(f"usage: {spent}", markup=False, highlight=False)


def _md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows])


def markdown(summary: PairwiseSummary) -> str:
    parts = [
        f"# Pairwise comparison\n\n{title(summary)}\n",
        "PRV: the percentage of relevance value each side won per criterion; PCC-H weights each judge by its "
        "reliability (Eq. 1: the sum over the options of its Pearson correlation with the other judges, negative "
        "values counted as 0) and each item by "
        "1 - the normalised entropy of its weighted answers; majority vote weighs judges and items equally. "
        "Intervals: bootstrap 95% over items. Agreement: items where both the PCC-H verdict and the run "
        "difference (success; AQD, fewer extra questions counting as better) pick a side.\n",
        _md(CRITERIA_HEADER, criteria_rows(summary)),
        "\n## Judges\n",
        "Position bias: of the answers given on both the original and the swapped order of an item, the share "
        "that changed side. r: reliability (Eq. 1) per criterion, before negative values are clipped to 0.\n",
        _md(judge_header(summary), judge_rows(summary)),
    ]
    if summary.usage:
        rows = [
            [
                role,
                str(u.calls),
                str(u.cached_calls),
                str(u.prompt_tokens),
                str(u.completion_tokens),
                f"{u.cost_usd:.4f}",
            ]
            for role, u in summary.usage.items()
        ]
        parts += ["\n## Usage\n", _md(["role", "calls", "cached", "prompt tokens", "completion tokens", "USD"], rows)]
    return "\n".join(parts) + "\n"


def leaderboard_row(summary: PairwiseSummary) -> PairwiseRow:
    return PairwiseRow(
        run_a=summary.run_ids[0],
        run_b=summary.run_ids[1],
        design=summary.design,
        items=summary.items,
        judges=[j.judge for j in summary.judges],
        criteria=[
            PairwiseCriterionRow(
                criterion=c.criterion,
                pcch=(c.pcch[0].value, c.pcch[1].value),
                pcch_low=(c.pcch[0].low, c.pcch[1].low),
                pcch_high=(c.pcch[0].high, c.pcch[1].high),
                majority=(c.majority[0].value, c.majority[1].value),
            )
            for c in summary.criteria
        ],
    )


def payload(summary: PairwiseSummary) -> dict[str, Any]:
    data = summary.model_dump(mode="json")
    for judge, row in zip(data["judges"], summary.judges):
        judge["flip_share"] = row.flip_share
    for criterion, result in zip(data["criteria"], summary.criteria):
        for key in ("agreement_success", "agreement_aqd"):
            criterion[key]["share"] = getattr(result, key).share
    return redact_data(data)


def write_report(summary: PairwiseSummary, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "summary.json": json.dumps(payload(summary), indent=1, ensure_ascii=False),
        "report.md": redact(markdown(summary)),
        ROW_FILE: redact(leaderboard_row(summary).model_dump_json(indent=1)),
    }
    for name, text in files.items():
        (folder / name).write_text(text + ("\n" if not text.endswith("\n") else ""), encoding="utf-8")
    return [folder / name for name in files]
