"""The offline-vs-online report: terminal tables, report.md and correlation.json (all through core/redact)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.redact import redact
from .online_offline import OFFLINE, ONLINE, CorrelationReport


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:+.3f}"


def coefficient_rows(block: dict[str, dict[str, Any]]) -> list[list[str]]:
    return [
        [pair, _num(c["pearson"]), _num(c["spearman"]), _num(c["kendall"]), str(c["n"])] for pair, c in block.items()
    ]


def seeker_rows(report: CorrelationReport) -> list[list[str]]:
    return [
        [t.seeker, str(len(set(t.offline) & set(t.online))), *(f"{t.means()[n]:.3f}" for n in (*OFFLINE, *ONLINE))]
        for t in report.seekers
    ]


def board_rows(report: CorrelationReport) -> list[list[str]]:
    agreement = report.leaderboards["agreement"]
    return [[pair, _num(v["kendall"]), "yes" if v["same_order"] else "no"] for pair, v in agreement.items()]


SEEKER_HEADER = ["seeker", "tasks", *OFFLINE, *ONLINE]
COEFF_HEADER = ["offline~online", "Pearson", "Spearman", "Kendall", "n"]
BOARD_HEADER = ["offline~online leaderboard", "Kendall tau", "same order"]


def sections(report: CorrelationReport) -> list[tuple[str, list[str], list[list[str]]]]:
    out = [
        ("seekers: offline (mean over tasks) and online (mean over tasks)", SEEKER_HEADER, seeker_rows(report)),
        ("across seekers (seeker means)", COEFF_HEADER, coefficient_rows(report.across_seekers)),
        ("pooled over (seeker, task) pairs", COEFF_HEADER, coefficient_rows(report.pooled)),
        ("do the two leaderboards rank the seekers alike?", BOARD_HEADER, board_rows(report)),
    ]
    out += [(f"per task: {name}", COEFF_HEADER, coefficient_rows(block)) for name, block in report.per_seeker.items()]
    return out


def print_report(report: CorrelationReport, console: Any = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    for title, header, rows in sections(report):
        table = Table(title=escape(title))
        for number, column in enumerate(header):
            table.add_column(column, justify="left" if number == 0 else "right")
        for row in rows:
            table.add_row(*(escape(cell) for cell in row))
        console.print(table)
    order = {name: " > ".join(report.leaderboards[name]) for name in (*OFFLINE, *ONLINE)}
    console.print(escape("leaderboards: " + "; ".join(f"{k}: {v}" for k, v in order.items())))


def markdown(report: CorrelationReport) -> str:
    lines = ["# Offline clarification track vs online dialogues (MIMICS-Duo style)", ""]
    for title, header, rows in sections(report):
        lines += [f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows] + [""]
    lines += ["## leaderboards", ""] + [
        f"- {name}: {' > '.join(report.leaderboards[name])}" for name in (*OFFLINE, *ONLINE)
    ]
    return "\n".join(lines) + "\n"


def write_report(report: CorrelationReport, folder: str | Path) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "correlation.json": json.dumps(report.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n",
        "report.md": markdown(report),
    }
    written = []
    for name, text in files.items():
        (folder / name).write_text(redact(text), encoding="utf-8")
        written.append(folder / name)
    return written
