"""The submission record: a manifest (who, what, on which tasks, with which figures) plus transcripts and verdicts.

One model for both on-disk forms (a single JSON document, or a zip of manifest.json + transcripts.jsonl +
verdicts.jsonl). Verdicts travel with the transcripts so LLM-judged nodes carry their recorded decision; everything
else in them is recomputed by verification. The task-set hash is over sorted `task_id:content_hash` lines.
"""

from __future__ import annotations

import hashlib
from enum import Enum
from typing import Any, Final, Literal

from pydantic import BaseModel, Field

from ..core.transcript import AgentInfo, Transcript
from ..scoring.judge import Verdict

FORMAT: Final = "clarq-submission"
FORMAT_VERSION = 2  # 2: provider fingerprint, tree access, content seal


class Label(str, Enum):
    """standard: our provider at its default model and mode and the default turn cap; custom: anything else."""

    standard = "standard"
    custom = "custom"
    reference = "reference"  # imported from the released upstream dialogues
    oracle = "oracle-class"  # the seeker was handed the response tree: an upper bound, never ranked with seekers


#: Longest name/org and notes a submission may carry: they are published on the site as they are.
MAX_NAME_CHARS, MAX_NOTES_CHARS = 200, 4000


class Submitter(BaseModel):
    name: str = Field("", max_length=MAX_NAME_CHARS)
    org: str = Field("", max_length=MAX_NAME_CHARS)
    notes: str = Field("", max_length=MAX_NOTES_CHARS)


class Manifest(BaseModel):
    """Everything about a submission except the dialogues themselves."""

    format: Literal["clarq-submission"] = FORMAT
    format_version: int = FORMAT_VERSION
    clarq_version: str
    created_at: str
    submitter: Submitter = Field(default_factory=Submitter)
    run_id: str
    run_config: dict[str, Any] = Field(default_factory=dict, description="The run's config.json, secrets removed.")
    seeker: AgentInfo
    seeker_models: list[str] = Field(default_factory=list, description="Every seeker model version seen.")
    provider: AgentInfo
    provider_models: list[str] = Field(default_factory=list)
    judge: AgentInfo = Field(description='name "none" when only the deterministic stage ran.')
    label: Label
    label_reasons: list[str] = Field(default_factory=list, description="Why a run is custom.")
    partial: bool = False
    missing: list[str] = Field(default_factory=list, description="`task_id#trial` pairs the run lacks.")
    trials: int = 1
    max_turns: int | None = None
    task_hashes: dict[str, str] = Field(description="task id -> Task.content_hash() of every task in the set.")
    task_set_hash: str
    transcript_count: int
    metrics: dict[str, Any] = Field(description="Figures recomputed by `clarq leaderboard verify`.")
    provider_fingerprint: str | None = Field(
        default=None,
        description="Deterministic provider: its identity digest "
        "(provider/identity.py); verify replays only with the same one installed.",
    )
    tree_access: bool = Field(default=False, description="The seeker was built with the response tree (oracle-class).")
    dialogue_hashes: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Per dialogue: the digest of its record and verdict, then one digest per turn (seal.py).",
    )
    content_hash: str = Field(
        default="",
        description="SHA-256 over the manifest (this field aside) and every "
        "dialogue digest: any edit after packing changes it.",
    )


class Submission(BaseModel):
    manifest: Manifest
    transcripts: list[Transcript]
    verdicts: list[Verdict]


def task_set_hash(task_hashes: dict[str, str]) -> str:
    """SHA-256 over sorted `id:hash` lines: one fingerprint for the whole task set."""
    blob = "\n".join(f"{task_id}:{digest}" for task_id, digest in sorted(task_hashes.items()))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def dialogue_key(task_id: str, trial: int) -> str:
    return f"{task_id}#{trial}"
