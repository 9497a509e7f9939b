"""Which task set a run was played on: the released benchmark, the project's sample tasks, or a custom folder.

Why: figures on the eight sample tasks (or on any folder of one's own) are not figures on the benchmark, and a table
that ranks them together misleads (a heuristic at 0.875 on the samples scores 0.388 on the 260 released tasks). The
answer comes from the tasks' content hashes, never from a folder name: task_sets.json (beside the download
checksums) holds the first 16 hex digits of Task.content_hash() of every released task and every sample task,
written by `python tools/task_sets.py --write` and checked against the data by the tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("checksums") / "task_sets.json"
BENCHMARK, SAMPLE, CUSTOM = "benchmark", "sample", "custom"
#: How each kind is named wherever a figure is shown (run output, report, submission, site).
TITLES = {
    BENCHMARK: "ClarQ-LLM benchmark tasks",
    SAMPLE: "sample tasks, not the benchmark",
    CUSTOM: "custom tasks, not the benchmark",
}
PREFIX = 16


@lru_cache(maxsize=1)
def known_sets() -> dict[str, dict[str, str]]:
    """kind -> task id -> content-hash prefix."""
    return json.loads(FILE.read_text(encoding="utf-8"))["sets"]


def kind_of(task_hashes: dict[str, str] | Iterable[tuple[str, str]]) -> str:
    """BENCHMARK when every task is a released task with its released content, SAMPLE when every one is a sample
    task, else CUSTOM (a mix, an edited task, or another folder). An empty set is CUSTOM."""
    pairs = list(task_hashes.items() if isinstance(task_hashes, dict) else task_hashes)
    if not pairs:
        return CUSTOM
    for kind in (BENCHMARK, SAMPLE):
        table = known_sets()[kind]
        if all(table.get(task_id) == digest[:PREFIX] for task_id, digest in pairs):
            return kind
    return CUSTOM


def describe(kind: str, count: int, total: int | None = None) -> str:
    """`ClarQ-LLM benchmark tasks (260)`, `sample tasks, not the benchmark (8)`; a subset says so."""
    part = f"{count} of {total}" if total and total != count else f"{count}"
    return f"{TITLES.get(kind, kind)} ({part})"


def sample_tasks_dir() -> Path | None:
    """The sample tasks (installed with the package, or a checkout's tasks/), where sample-task submissions verify."""
    from ..core.resources import shipped

    folder = shipped("tasks")
    return folder if (folder / "English").is_dir() else None
