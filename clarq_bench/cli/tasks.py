"""`clarq tasks list|show|stats|validate`: inspect the task data."""

from __future__ import annotations

import argparse

from .common import add_data_arguments, load_selected_tasks, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tasks", help="list, show, count and validate tasks")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, handler, help_text in (
        ("list", _list, "one line per task"),
        ("stats", _stats, "counts per language: splits, required nodes, tree shapes"),
        ("validate", _validate, "check every task file; non-zero exit on the first malformed record per file"),
    ):
        sub = actions.add_parser(name, help=help_text)
        add_data_arguments(sub)
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.set_defaults(handler=handler)
    show = actions.add_parser("show", help="one task: brief and response tree")
    show.add_argument("task_id", help="e.g. en/03/3")
    add_data_arguments(show)
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_show)


def _list(args: argparse.Namespace) -> int:
    tasks = load_selected_tasks(args)
    if args.json:
        print_json(
            [
                {
                    "id": t.id,
                    "type": t.type_name,
                    "split": t.split.value,
                    "required": t.required_count,
                    "depth": t.tree.depth,
                    "task": t.brief.task_name,
                }
                for t in tasks
            ]
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("id", "type", "split", "nodes", "depth", "task")
    for t in tasks:
        table.add_row(t.id, t.type_name, t.split.value, str(t.required_count), str(t.tree.depth), t.brief.task_name)
    Console().print(table)
    return 0


def _show(args: argparse.Namespace) -> int:
    args.lang = args.task_id.split("/")[0] if args.task_id.split("/")[0] in ("en", "zh") else args.lang
    from ..api.support import find_task

    task = find_task(load_selected_tasks(args), args.task_id)
    if args.json:
        print_json(task.model_dump(mode="json"))
        return 0
    from rich.console import Console
    from rich.tree import Tree

    console = Console()
    console.rule(f"{task.id}  {task.type_name} ({task.split.value})")
    console.print(task.brief.background)
    tree = Tree(f"[bold]0[/bold] {task.tree.root.text}")
    branches = {"0": tree}
    for node in task.tree.required:
        label = f"[bold]{node.id}[/bold] {node.text}"
        if node.explanation:
            label += f"\n[dim]{node.explanation}[/dim]"
        branches[node.id] = branches[node.parent or "0"].add(label)
    console.print(tree)
    return 0


def _stats(args: argparse.Namespace) -> int:
    from ..api import task_stats

    stats = task_stats(args.tasks or args.data, lang=args.lang, split=args.split, types=args.types)
    if args.json:
        print_json(stats)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("language", "tasks", "test", "dev", "required", "required (test)", "depth histogram")
    for language, row in stats.items():
        table.add_row(
            language,
            str(row["tasks"]),
            str(row["test"]),
            str(row["dev"]),
            str(row["required_nodes"]),
            str(row["required_nodes_test"]),
            ", ".join(f"{d}: {n}" for d, n in row["depth"].items()),
        )
    Console().print(table)
    return 0


def _validate(args: argparse.Namespace) -> int:
    import sys

    from ..api import validate_tasks

    root, report = validate_tasks(args.tasks or args.data)
    for problem in report.problems:
        print(f"clarq: invalid: {problem}", file=sys.stderr)
    if args.json:
        print_json(report.model_dump())
    elif not report.problems:
        print(f"{root}: {report.files} files, {report.tasks} tasks, all valid")
    return 1 if report.problems or report.files == 0 else 0
