"""Where tasks come from: one loader for the upstream layout, whatever folder holds it.

A data folder holds `English/` and/or `Chinese/`, each with files named `<N>._<Type_Name>.json` (N = task type).
The same code reads the downloaded upstream data, a local copy and the project's own `tasks/` folder. Malformed
input raises DataError naming the file and record; nothing else escapes for bad data.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.errors import ClarqError, DataError
from ..core.resources import shipped
from ..core.tasks import Language, ResponseTree, Split, Task, TaskBrief, make_task_id, split_of_type

LANGUAGE_FOLDERS: dict[str, str] = {"en": "English", "zh": "Chinese"}
FILE_NAME = re.compile(r"^(\d+)\._(.+)\.json$")
SPEAKER_PREFIX = re.compile(r"^\s*jax\s*[:：]\s*", re.IGNORECASE)
ENV_DATA = "CLARQ_DATA"
#: The project's own bilingual sample tasks: installed with the package, or at the top of a source checkout.
SAMPLE_TASKS = shipped("tasks")


def strip_speaker(line: str) -> str:
    """Drop the provider's `Jax:` prefix (any case, ASCII or full-width colon) and surrounding blanks."""
    return SPEAKER_PREFIX.sub("", line, count=1).strip()


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.split("\n") if line.strip()]


def brief_from_parts(parts: list[str], background: str) -> TaskBrief:
    """The seeker's brief from the five `background_splitted` strings (role, task, items, skills, scenes)."""
    return TaskBrief(
        role=parts[0].strip(),
        task_name=parts[1].strip(),
        items=tuple(_lines(parts[2])),
        skills=tuple(_lines(parts[3])),
        scenes=tuple(_lines(parts[4])),
        background=background,
    )


def _require(condition: bool, source: str, index: int, problem: str) -> None:
    if not condition:
        raise DataError(source, problem, index)


def is_placeholder(record: Any) -> bool:
    """Upstream files pad each type to 20 records with empty ones (`background == ""`)."""
    return isinstance(record, dict) and record.get("background") == ""


def parse_tree(
    texts: list[str], ids: list[str], explanations: list[str] | None, *, source: str, index: int
) -> ResponseTree:
    """Pair response lines with their ids (and explanations for non-root nodes, in order) into a tree."""
    _require(len(texts) == len(ids), source, index, f"{len(texts)} responses but {len(ids)} node ids")
    _require(all(t.strip() for t in texts), source, index, "an empty response line")
    _require("0" in ids, source, index, "no root node (id 0)")
    if explanations is not None:
        _require(
            len(explanations) == len(ids) - 1,
            source,
            index,
            f"{len(explanations)} explanations for {len(ids) - 1} non-root nodes",
        )
        _require(all(isinstance(e, str) for e in explanations), source, index, "an explanation is not a string")
    by_position = iter(explanations or [])
    triples = []
    for text, node_id in zip(texts, ids):
        explanation = None if node_id == "0" or explanations is None else next(by_position, None)
        triples.append((node_id, strip_speaker(text), explanation))
    try:
        return ResponseTree.build(triples)
    except ValueError as exc:
        raise DataError(source, str(exc), index) from None


def parse_record(
    record: Any, *, source: str, index: int, language: Language, type_number: int, type_name: str
) -> Task | None:
    """One upstream record -> Task, or None for a placeholder. Raises DataError on anything malformed."""
    _require(isinstance(record, dict), source, index, f"expected an object, got {type(record).__name__}")
    if is_placeholder(record):
        return None
    background = record.get("background")
    _require(isinstance(background, str) and background.strip() != "", source, index, "missing background text")
    all_response = record.get("all_response")
    _require(isinstance(all_response, str), source, index, "all_response must be a string")
    lines = _lines(all_response)
    _require(len(lines) >= 2 and len(lines) % 2 == 0, source, index, "all_response must split into two equal halves")
    half = len(lines) // 2
    texts, ids = lines[:half], lines[half:]
    explanations = record.get("all_response_exaplain")
    _require(explanations is None or isinstance(explanations, list), source, index, "explanations must be a list")
    tree = parse_tree(texts, ids, explanations, source=source, index=index)
    parts = record.get("background_splitted")
    _require(
        isinstance(parts, list) and len(parts) == 5 and all(isinstance(p, str) for p in parts),
        source,
        index,
        "background_splitted must be 5 strings (role, task, items, skills, scenes)",
    )
    brief = brief_from_parts(parts, background)
    return Task(
        id=make_task_id(language, type_number, index),
        language=language,
        type_number=type_number,
        type_name=type_name,
        index=index,
        split=split_of_type(type_number),
        brief=brief,
        tree=tree,
        source=source,
    )


def parse_file_name(path: Path) -> tuple[int, str]:
    """`3._Stealth_Mission.json` -> (3, "Stealth Mission")."""
    match = FILE_NAME.match(path.name)
    if not match:
        raise DataError(str(path), "file name must look like `<N>._<Type_Name>.json`")
    return int(match.group(1)), match.group(2).replace("_", " ")


def read_json(path: Path) -> Any:
    """Read a JSON file (task or released results file) with clarq_bench.core.jsonl's size and nesting limits, turning
    I/O and syntax problems into one-line DataErrors."""
    from ..core.jsonl import load_file

    return load_file(path)


def load_task_file(path: Path, language: Language) -> list[Task]:
    """All real tasks of one type file, placeholders skipped."""
    type_number, type_name = parse_file_name(path)
    records = read_json(path)
    if not isinstance(records, list):
        raise DataError(str(path), "expected a JSON array of task records")
    tasks = []
    for index, record in enumerate(records):
        task = parse_record(
            record, source=str(path), index=index, language=language, type_number=type_number, type_name=type_name
        )
        if task is not None:
            tasks.append(task)
    return tasks


def task_files(root: Path, language: Language) -> list[Path]:
    """The type files of one language, in type order; empty if that language's folder is absent."""
    folder = root / LANGUAGE_FOLDERS[language]
    if not folder.is_dir():
        return []
    files = [path for path in folder.iterdir() if path.suffix == ".json"]
    return sorted(files, key=lambda path: (parse_file_name(path)[0], path.name))


def load_tasks(
    root: Path,
    languages: Iterable[Language] = ("en", "zh"),
    *,
    split: Split | str | None = None,
    types: Iterable[int] | None = None,
) -> list[Task]:
    """Every task under `root` for the given languages, filtered by split and type numbers, in id order."""
    root = Path(root)
    if not root.is_dir():
        raise ClarqError(f"data folder {root} does not exist", "pass --data DIR or set CLARQ_DATA")
    wanted_types = set(types) if types is not None else None
    wanted_split = Split(split) if split is not None else None
    tasks: list[Task] = []
    found_any = False
    for language in languages:
        for path in task_files(root, language):
            found_any = True
            type_number, _ = parse_file_name(path)
            if wanted_types is not None and type_number not in wanted_types:
                continue
            tasks.extend(task for task in load_task_file(path, language) if wanted_split in (None, task.split))
    if not found_any:
        raise ClarqError(
            f"no task files under {root}",
            "expected English/ and/or Chinese/ folders of `<N>._<Type>.json` files",
        )
    return tasks


def resolve_data_dir(explicit: str | Path | None = None) -> Path:
    """Where the task data is: `--data DIR`, else $CLARQ_DATA, else the downloaded cache copy. `tasks/` where no
    such folder exists is the sample tasks installed with clarq, so the README's commands work from any folder.

    Offline with nothing downloaded, this is one clear error saying how to get the data.
    """
    if explicit:
        path = Path(explicit).expanduser()
        if not path.exists() and path.parts == ("tasks",):  # `--tasks tasks/` outside a checkout: the shipped samples
            return SAMPLE_TASKS
        return path
    from_env = os.environ.get(ENV_DATA)
    if from_env:
        return Path(from_env).expanduser()
    from .download import cached_data_dir, is_complete

    cached = cached_data_dir()
    if is_complete(cached):
        return cached
    raise ClarqError(
        "the ClarQ-LLM task data is not available",
        "run `clarq data download`, set CLARQ_DATA to a copy, pass --data DIR, or use --tasks tasks/ for the samples",
    )
