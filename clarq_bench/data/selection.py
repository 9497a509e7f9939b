"""Which tasks a command or a run works on: languages, split and type numbers, as `--lang`, `--split` and `--types`
spell them (`all`, `1-13,20`), resolved against the loader; the seeded `--limit` spread, and the tasks a run
folder records it played.

Imports core and the loader only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from ..core.defaults import DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.tasks import Language, Task


def parse_types(spec: str | list[int] | None) -> list[int] | None:
    """`1-13,20` -> [1..13, 20]; a list of numbers is taken as it is; None means all types."""
    if isinstance(spec, (list, tuple)):
        return [int(number) for number in spec]
    if not spec:
        return None
    numbers: list[int] = []
    try:
        for part in spec.split(","):
            low, _, high = part.strip().partition("-")
            numbers.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ClarqError(f"bad --types value {spec!r}", "use numbers and ranges such as 1-13,20") from None
    return numbers


def selected_languages(lang: str) -> tuple[Language, ...]:
    """en, zh or both; another value selects nothing (loading says which languages a folder has)."""
    return ("en", "zh") if lang == "all" else (cast("Language", lang),)


def load_selected(
    source: str | Path | None = None, *, lang: str = "all", split: str = "all", types: str | list[int] | None = None
) -> list[Task]:
    """The tasks of a data folder (None: $CLARQ_DATA, then the download cache) in `lang` (en, zh or all), `split`
    (test, dev or all) and `types` (`1-13,20`, a list of numbers, or None for all)."""
    from .loader import load_tasks, resolve_data_dir

    root = resolve_data_dir(source)
    languages, wanted = selected_languages(lang), parse_types(types)
    tasks = load_tasks(root, languages, split=None if split == "all" else split, types=wanted)
    if not tasks and wanted:
        raise no_tasks_error(root, languages, split, wanted)
    return tasks


def compact_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] -> `1-3,7,9-10`."""
    parts: list[str] = []
    for number in numbers:
        if parts and number == int(parts[-1].split("-")[-1]) + 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ",".join(parts)


def no_tasks_error(root: Path, languages: Sequence[str], split: str | None, types: list[int] | None) -> ClarqError:
    """Why a selection came out empty, with the type numbers the data does have for that language and split."""
    from .loader import load_tasks

    split = None if split in (None, "all") else split
    every = load_tasks(root, tuple(languages), split=split)  # type: ignore[arg-type]
    where = f"{'+'.join(languages)}, split {split or 'all'}"
    if not every:
        return ClarqError(f"no tasks selected: {root} has no {where} tasks", "check --lang, --split and --data")
    have = compact_ranges(sorted({task.type_number for task in every}))
    asked = compact_ranges(sorted(set(types or [])))
    return ClarqError(
        f"no tasks selected: no task of types {asked} ({where}); the valid types here are {have}",
        f"pass --types within {have}",
    )


def task_hint(task_id: str, known: list[str]) -> str:
    """`did you mean en/03/3?` for a type written without its zero (en/3/3) or a near miss, else where ids are."""
    import difflib
    import re

    match = re.fullmatch(r"(en|zh)/(\d+)/(\d+)", task_id.strip())
    padded = f"{match.group(1)}/{int(match.group(2)):02d}/{int(match.group(3))}" if match else ""
    close = [padded] if padded in known else difflib.get_close_matches(task_id, known, n=3, cutoff=0.75)
    return f"did you mean {' or '.join(close)}?" if close else "see `clarq tasks list` for the ids"


def find_task(tasks: list[Task], task_id: str) -> Task:
    """The task with this id; else one ClarqError line with the close ids."""
    for task in tasks:
        if task.id == task_id:
            return task
    raise ClarqError(f"no task {task_id!r}", task_hint(task_id, [t.id for t in tasks]))


def spread_limit(tasks: list[Task], limit: int, seed: int) -> list[Task]:
    """`limit` tasks spread over every selected type: the types in a seeded order, then round-robin, each type's
    tasks in a seeded order. The first N of the sorted list would be types 1-4, the types a provider may be tuned
    on. Returned in task order; the same seed always takes the same tasks (so --resume finds them again)."""
    import random

    rng = random.Random(f"limit/{seed}")
    by_type: dict[int, list[Task]] = {}
    for task in tasks:
        by_type.setdefault(task.type_number, []).append(task)
    queues = []
    for number in sorted(by_type):
        queue = list(by_type[number])
        rng.shuffle(queue)
        queues.append(queue)
    rng.shuffle(queues)
    chosen: list[Task] = []
    while len(chosen) < limit and any(queues):
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    picked = {id(task) for task in chosen}
    return [task for task in tasks if id(task) in picked]


def run_selection(root: Path, config: dict[str, Any]) -> list[Task]:
    """The tasks a run config selects from `root`: languages, split and types, then `limit` spread by `seed`.
    The runner's one rule; readers of a run folder use the ids config.json records and come here only for runs
    written before those were recorded."""
    from .loader import load_tasks

    languages = config.get("languages") or ["en"]
    split = config.get("split") or "test"
    tasks = load_tasks(root, languages, split=None if split == "all" else split, types=config.get("types"))
    limit = config.get("limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 and tasks:
        tasks = spread_limit(tasks, limit, int(config.get("seed", DEFAULT_SEED)))
    return tasks


def recorded_selection(root: Path, config: dict[str, Any]) -> list[Task]:
    """The tasks a run played on, by the ids its config.json records (in their order); older runs by the rule.
    An id the data folder lacks is a ClarqError naming it: the run was played on other task data."""
    ids = config.get("task_ids")
    if not isinstance(ids, list):
        return run_selection(root, config)
    from .loader import load_tasks

    languages = config.get("languages") or ["en"]
    by_id = {task.id: task for task in load_tasks(root, languages)}
    missing = [task_id for task_id in ids if task_id not in by_id]
    if missing:
        raise ClarqError(
            f"task {missing[0]} of the run is not in {root}"
            + (f" (nor {len(missing) - 1} more)" if len(missing) > 1 else ""),
            "pass the run's task data with --data DIR",
        )
    return [by_id[task_id] for task_id in ids]
