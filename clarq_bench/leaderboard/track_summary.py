"""The summary.json of the offline clarification track (`clarq select`), kept here so leaderboard code can read
track rows without importing the track: every such file says `"track": "clarify-offline"`, so it is never taken for
a dialogue result, and a dialogue summary is never taken for a track row."""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ValidationError

from ..core.errors import ClarqError
from ..core.jsonl import load_file

TRACK: Final = "clarify-offline"
MAX_SUMMARY_BYTES = 4 * 1024 * 1024  # a summary is a few kilobytes


class Estimate(BaseModel):
    """A figure averaged over states, with its 95% bootstrap interval over tasks."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0  # states averaged


class SelectSummary(BaseModel):
    """One system on one language of the offline track."""

    track: Literal["clarify-offline"] = TRACK
    seeker: str
    language: str
    tasks: int
    states: int
    needed_states: int
    bank: dict[str, int]
    selection: dict[str, Estimate]
    need: dict[str, float]
    need_binary: dict[str, float]
    need_mse: Estimate
    need_intervals: dict[str, Estimate] = {}  # weighted precision / recall / F1 with intervals over tasks
    random_expectation: dict[str, dict[str, float]]
    errors: int
    notes: int = 0  # states whose answer was used with something dropped (ids not in the pool)
    usage: dict[str, float] = {}


def read_track_summary(path: str | Path) -> SelectSummary:
    """A track row from a summary.json; anything else (a dialogue run's summary, a broken file) is one-line error.
    The file may come from anyone (the leaderboard reads a folder of them): size and nesting are capped first."""
    path = Path(path)
    payload = load_file(path, max_bytes=MAX_SUMMARY_BYTES)  # a one-line DataError naming the file
    if not isinstance(payload, dict) or payload.get("track") != TRACK:
        raise ClarqError(f"{path} is not a {TRACK} summary", "pass the summary.json written by `clarq select`")
    try:
        return SelectSummary.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ClarqError(f"{path}: malformed {TRACK} summary: {where}: {first['msg']}{more}") from None
