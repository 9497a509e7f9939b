"""`clarq runs [--dir runs/]`: the past runs, with how far each got and the command that finishes it."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("runs", help="list past runs: agents, progress, success, cost, resume command")
    parser.add_argument("--dir", default="runs", metavar="DIR", help="the runs folder (default: runs/)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.set_defaults(handler=handle_runs)


def handle_runs(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from ..api import list_runs
    from .common import print_json

    rows = list_runs(args.dir)
    if args.json:
        print_json([row.model_dump() | {"resume_command": row.resume_command} for row in rows])
        return 0
    console = Console()
    if not console.is_terminal:  # piped or captured: room for whole run ids on one line
        console = Console(width=180)
    if not rows:
        console.print(f"no runs in {args.dir}/ (start one with `clarq run`)", markup=False, highlight=False)
        return 0
    console.print(f"Runs in {args.dir}", markup=False, highlight=False, soft_wrap=True)
    table = Table()
    for name in ("run", "seeker", "provider", "lang", "dialogues", "success", "errors", "cost", "state"):
        table.add_column(
            name, justify="right" if name in ("dialogues", "success", "errors", "cost") else "left", overflow="fold"
        )
    for row in rows:
        total = "?" if row.total is None else str(row.total)
        success = "?" if row.successes is None else (f"{row.successes / row.done:.1%}" if row.done else "-")
        table.add_row(
            row.run_id,
            row.seeker,
            row.provider,
            "+".join(row.languages),
            f"{row.done}/{total}",
            success,
            str(row.errors),
            f"${row.cost_usd:.2f}",
            row.state,
        )
    console.print(table)
    unfinished = [row for row in rows if row.resume_command]
    for row in unfinished:
        console.print(
            f"{row.run_id}: {row.state}; continue with: {row.resume_command}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    return 0
