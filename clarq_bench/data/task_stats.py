"""Counts that describe a task set: per language, tasks per split, required nodes, tree shapes, types."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..core.tasks import Split, Task


def _histogram(values: Iterable[int]) -> dict[int, int]:
    return dict(sorted(Counter(values).items()))


def task_stats(tasks: list[Task]) -> dict[str, dict]:
    """Per language: tasks, test, dev, required nodes (all and test), nodes-per-task and depth histograms, types."""
    by_language: dict[str, list[Task]] = {}
    for task in tasks:
        by_language.setdefault(task.language, []).append(task)
    stats: dict[str, dict] = {}
    for language, group in sorted(by_language.items()):
        test = [task for task in group if task.split == Split.test]
        stats[language] = {
            "tasks": len(group),
            "test": len(test),
            "dev": len(group) - len(test),
            "required_nodes": sum(task.required_count for task in group),
            "required_nodes_test": sum(task.required_count for task in test),
            "nodes_per_task": _histogram(len(task.tree.nodes) for task in group),
            "required_per_task": _histogram(task.required_count for task in group),
            "depth": _histogram(task.tree.depth for task in group),
            "types": {task.type_number: task.type_name for task in sorted(group, key=lambda task: task.type_number)},
        }
    return stats
