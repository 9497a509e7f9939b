"""Reading the released ClarQ-LLM dialogue files (`results/*.json`) as they are.

A results file is 31 lists (task types) of 10 records. Each record keeps only the response half of `all_response`
and the non-root ids in `gold_structure`; `l2l[0]` holds one dialogue as a list of strings that starts with the
provider's greeting and alternates seeker/provider. This module gives each record back as a ReleasedDialogue with
its Task rebuilt, so scoring, provider replay and the replay seeker all read the files one way.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..core.errors import DataError
from ..core.tasks import Language, Task, make_task_id, split_of_type
from .loader import FILE_NAME, _lines, brief_from_parts, parse_tree, read_json

#: The upstream type names, in type order (the same in both languages' file names).
TYPE_NAMES = (
    "Gather Resources",
    "Escort Mission",
    "Stealth Mission",
    "Survival Challenge",
    "Construction Task",
    "Defense Mission",
    "Competition",
    "Weapon Manufacturing",
    "Hunting Expedition",
    "Rescue Mission",
    "Arena Battle",
    "Scientific Experiment",
    "Photography Mission",
    "Trade Task",
    "Exploration Journey",
    "Electrical Engineering",
    "Automobile Manufacturing",
    "Painting Task",
    "Repair Mission",
    "Training Session",
    "Digging Mission",
    "Electronic Engineering",
    "Planting Task",
    "Alliance Building",
    "Cooking Delicacies",
    "Video Production",
    "Animal Care",
    "Archaeological Excavation",
    "Escape Mission",
    "Planning Tourism",
    "Magic Task",
)


class ReleasedDialogue(BaseModel):
    """One released dialogue with the task it was played on."""

    task: Task
    lines: list[str]
    source: str

    @property
    def seeker_lines(self) -> list[str]:
        return self.lines[1::2]

    @property
    def provider_lines(self) -> list[str]:
        """Provider utterances, greeting included (index 0)."""
        return self.lines[0::2]


def language_of_results_file(path: Path) -> Language:
    """`...Comp.En.json` -> en, `...Comp.Ch.json` -> zh."""
    match = re.search(r"\.(En|Ch)\.json$", path.name)
    if not match:
        raise DataError(str(path), "cannot tell the language: expected a name ending in .En.json or .Ch.json")
    return "en" if match.group(1) == "En" else "zh"


def _parse_released_record(
    record: Any, *, source: str, position: int, language: Language, type_number: int, index: int
) -> ReleasedDialogue | None:
    if not isinstance(record, dict):
        raise DataError(source, f"expected an object, got {type(record).__name__}", position)
    dialogues = record.get("l2l")
    if not dialogues or not isinstance(dialogues, list) or not dialogues[0]:
        return None  # dev tasks and unplayed records carry no dialogue
    lines = dialogues[0]
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise DataError(source, "l2l[0] must be a list of strings", position)
    texts = _lines(record.get("all_response") or "")
    gold = record.get("gold_structure")
    if not isinstance(gold, list) or not all(isinstance(g, str) for g in gold):
        raise DataError(source, "gold_structure must be a list of node ids", position)
    explanations = record.get("all_response_exaplain")
    tree = parse_tree(texts, ["0", *gold], explanations, source=source, index=position)
    parts = record.get("background_splitted") or ["", "", "", "", ""]
    if not (isinstance(parts, list) and len(parts) == 5 and all(isinstance(p, str) for p in parts)):
        raise DataError(source, "background_splitted must be 5 strings", position)
    brief = brief_from_parts(parts, str(record.get("background") or ""))
    task = Task(
        id=make_task_id(language, type_number, index),
        language=language,
        type_number=type_number,
        type_name=TYPE_NAMES[type_number - 1] if type_number <= len(TYPE_NAMES) else f"Type {type_number}",
        index=index,
        split=split_of_type(type_number),
        brief=brief,
        tree=tree,
        source=source,
    )
    return ReleasedDialogue(task=task, lines=list(lines), source=source)


def load_released_dialogues(path: str | Path) -> list[ReleasedDialogue]:
    """Every played dialogue of one released results file, in task order."""
    path = Path(path)
    if FILE_NAME.match(path.name):
        raise DataError(str(path), "this is a task file, not a released dialogue file")
    language = language_of_results_file(path)
    data = read_json(path)
    if not isinstance(data, list) or not all(isinstance(group, list) for group in data):
        raise DataError(str(path), "expected a JSON array of per-type arrays of records")
    dialogues: list[ReleasedDialogue] = []
    position = 0
    for type_offset, group in enumerate(data):
        for index, record in enumerate(group):
            released = _parse_released_record(
                record,
                source=str(path),
                position=position,
                language=language,
                type_number=type_offset + 1,
                index=index,
            )
            if released is not None:
                dialogues.append(released)
            position += 1
    return dialogues


def released_files(path: str | Path) -> list[Path]:
    """A results file, or every `*.json` results file in a folder."""
    path = Path(path)
    if path.is_dir():
        return sorted(p for p in path.glob("*.json") if re.search(r"\.(En|Ch)\.json$", p.name))
    if not path.exists():
        raise DataError(str(path), "no such file or folder")
    return [path]
