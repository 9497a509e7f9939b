"""One answer of one judge (a model or a person) on one item and criterion, as recorded in JSONL.

Choices are recorded as given, in position space (A, B, both_good, both_bad; None = no valid answer, with the raw
text kept), next to the system that was shown in position A; `system_option` turns them into system space (0 =
system 1 better, 1 = system 2 better, 2 = both good, 3 = both bad), where aggregation works.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ..core.jsonl import dumps_line, read_jsonl
from ..core.redact import redact_data

Choice = Literal["A", "B", "both_good", "both_bad"]
OPTIONS: dict[int, tuple[str, ...]] = {2: ("A", "B"), 4: ("A", "B", "both_good", "both_bad")}
MAX_RAW = 500

#: Accepted spellings (lower-cased, spaces/underscores/hyphens collapsed) of each choice, English and Chinese.
_SPELLINGS: dict[str, Choice] = {
    "a": "A",
    "dialoguea": "A",
    "对话a": "A",
    "b": "B",
    "dialogueb": "B",
    "对话b": "B",
    "bothgood": "both_good",
    "both": "both_good",
    "bothequallygood": "both_good",
    "两者都好": "both_good",
    "都好": "both_good",
    "bothbad": "both_bad",
    "neither": "both_bad",
    "bothequallybad": "both_bad",
    "两者都不好": "both_bad",
    "都不好": "both_bad",
}


class PairAnswer(BaseModel):
    judge: str = Field(description="Model name, or person:NAME.")
    item: str
    criterion: str
    shown_a: Literal[1, 2] = Field(description="The system that was in position A when this answer was given.")
    swapped: bool = Field(False, description="Part of the swapped re-run (positions the other way round).")
    choice: Choice | None = Field(description="None: the answer was not one of the options (see raw).")
    raw: str = ""
    at: str = ""


def parse_choice(value: object, design: int) -> Choice | None:
    """The option `value` names under `design` (2 or 4), or None."""
    if not isinstance(value, str):
        return None
    key = re.sub(r"[\s_\-\"'.]+", "", value.strip().lower())
    choice = _SPELLINGS.get(key)
    return choice if choice in OPTIONS[design] else None


def system_option(answer: PairAnswer) -> int:
    """System-space option index of a valid answer (-1 for an invalid one)."""
    if answer.choice is None:
        return -1
    if answer.choice in ("A", "B"):
        system = answer.shown_a if answer.choice == "A" else 3 - answer.shown_a
        return system - 1
    return 2 if answer.choice == "both_good" else 3


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def append_answers(path: Path, answers: list[PairAnswer]) -> None:
    """Append answers as JSON lines in one write (a crash loses at most this call's lines); a last line an earlier
    crash left unfinished is cut first, so it never glues onto the new ones."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file() and path.stat().st_size:
        data = path.read_bytes()
        if not data.endswith(b"\n"):
            with path.open("r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)
    text = "".join(dumps_line(redact_data(a.model_dump(mode="json"))) for a in answers)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()


def read_answers(path: Path) -> list[PairAnswer]:
    """Every complete answer line of `path` (none when it does not exist; an unfinished last line is left out)."""
    if not path.is_file():
        return []
    records, _ = read_jsonl(path, PairAnswer, "pairwise answer")
    return records
