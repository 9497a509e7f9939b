"""The items of a pairwise comparison: for every (task, trial) both runs played, the two dialogues, which one is
shown in position A (randomised per item from a recorded seed), and each side's success and AQD for the agreement
check. Saved as items.json in the comparison folder, so judges, people and a resumed session see the same sides.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ..core.errors import ClarqError
from ..core.jsonl import load_file, validate
from ..core.tasks import Task
from ..core.transcript import Transcript

CRITERIA = ("questions", "economy", "naturalness")
Design = Literal[2, 4]


class Side(BaseModel):
    """One system's dialogue on the item."""

    turns: list[tuple[str, str]] = Field(description="(speaker, text) in order; speaker is seeker or provider.")
    success: bool
    aqd: int


class PairItem(BaseModel):
    id: str = Field(description="task id#trial")
    task_id: str
    trial: int
    language: str
    brief: str
    sides: tuple[Side, Side] = Field(description="System 1 (RUN_A), system 2 (RUN_B).")
    shown_a: Literal[1, 2] = Field(description="The system shown in position A.")


class ItemSet(BaseModel):
    """Everything judges see, and how it was drawn."""

    systems: tuple[str, str] = Field(description="Names of RUN_A and RUN_B (their folder names).")
    run_ids: tuple[str, str] = Field(description="Their run ids (config.json), how the leaderboard finds them.")
    seed: int
    design: Design
    criteria: list[str]
    paired_on: str
    items: list[PairItem]

    def item(self, item_id: str) -> PairItem | None:
        return next((i for i in self.items if i.id == item_id), None)


def position_for(seed: int, item_id: str) -> Literal[1, 2]:
    """Which system goes in position A: a fair coin seeded by the set's seed and the item id (order-independent)."""
    digest = hashlib.sha256(f"{seed}|{item_id}".encode()).digest()
    return 1 if random.Random(digest).random() < 0.5 else 2


def _side(transcript: Transcript, success: bool, aqd: int) -> Side:
    return Side(turns=[(t.speaker.value, t.text) for t in transcript.turns], success=success, aqd=aqd)


def build_items(
    pairs: list[tuple[tuple[Transcript, Task, bool, int], tuple[Transcript, Task, bool, int]]],
    *,
    systems: tuple[str, str],
    run_ids: tuple[str, str],
    seed: int,
    design: Design,
    criteria: list[str],
    paired_on: str,
) -> ItemSet:
    """An ItemSet from matched ((transcript, task, success, aqd) of A, the same of B) pairs."""
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown or not criteria:
        raise ClarqError(
            f"unknown criterion {unknown[0] if unknown else '(none)'}", f"choose from {', '.join(CRITERIA)}"
        )
    items = []
    for (ta, task, sa, da), (tb, _, sb, db) in pairs:
        item_id = f"{ta.task_id}#{ta.trial}"
        items.append(
            PairItem(
                id=item_id,
                task_id=ta.task_id,
                trial=ta.trial,
                language=ta.language,
                brief=task.brief.background,
                sides=(_side(ta, sa, da), _side(tb, sb, db)),
                shown_a=position_for(seed, item_id),
            )
        )
    return ItemSet(
        systems=systems,
        run_ids=run_ids,
        seed=seed,
        design=design,
        criteria=list(criteria),
        paired_on=paired_on,
        items=items,
    )


def save_items(items: ItemSet, folder: Path) -> Path:
    from ..core.redact import redact

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "items.json"
    path.write_text(redact(items.model_dump_json(indent=1)), encoding="utf-8")
    return path


def load_items(folder: Path) -> ItemSet:
    path = folder / "items.json"
    if not path.is_file():
        raise ClarqError(f"{path} does not exist", "run `clarq judge-pairs RUN_A RUN_B` first")
    return validate(ItemSet, load_file(path), str(path), what="pairwise items")
