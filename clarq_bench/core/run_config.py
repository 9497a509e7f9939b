"""RunConfig: everything that decides what a run produces, recorded in runs/<id>/config.json (never a secret).
In core because every reader of a run folder (scoring, runs, submit) needs it, not only the runner.

Its hash decides whether a resume is allowed: execution-only settings (concurrency, spending cap, display) are
recorded but left out of the hash, since changing them does not change any dialogue. `diff_configs` names the
fields that differ, for the "config changed" error a resume gives.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.jsonl import flatten as _flatten
from .defaults import DEFAULT_CONCURRENCY, DEFAULT_MAX_TURNS, DEFAULT_SEED, DEFAULT_TURN_TIMEOUT

#: Recorded, but changing them does not change the dialogues, so a resume may change them freely.
EXECUTION_ONLY = frozenset(
    {"concurrency", "max_cost", "progress", "use_cache", "turn_timeout", "max_errors", "cache_path", "router_file"}
)
#: Recorded, left out of the hash because another hashed field already says it: `tasks_digest` covers the ids.
DERIVED = frozenset({"task_ids"})


class AgentSettings(BaseModel):
    """One side of the dialogue as named on the command line."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Registered name, `package.module:Class`, or (seekers) a model name.")
    model: str | None = Field(default=None, description="Model for LLM-backed agents (litellm name, as given).")
    mode: str | None = Field(default=None, description="Seeker: completion|chat. Provider: single|multi.")
    temperature: float = 0.0
    max_tokens: int | None = None
    options: dict[str, Any] = Field(default_factory=dict, description="Agent-specific settings (replay file, ...).")


class RunConfig(BaseModel):
    """A run, reproducibly: which tasks, which agents, how many trials with which seeds, the turn cap."""

    model_config = ConfigDict(extra="ignore")

    data_dir: str | None = Field(default=None, description="Task folder as resolved at the start of the run.")
    tasks_digest: str = Field(default="", description="SHA-256 over the selected tasks' content hashes.")
    languages: list[Literal["en", "zh"]] = Field(default_factory=lambda: ["en"])  # type: ignore[arg-type]  # the plugin reads the lambda as list[str]
    split: Literal["test", "dev", "all"] = "test"
    types: list[int] | None = None
    limit: int | None = Field(
        default=None,
        description="Only N of the selected tasks, spread over their types by `seed` (data.selection.spread_limit).",
    )
    task_ids: list[str] | None = Field(
        default=None,
        description="The ids of the tasks the run selected, in task "
        "order: what readers use (None in runs written before they were recorded).",
    )
    trials: int = Field(default=1, ge=1)
    seed: int = Field(default=DEFAULT_SEED, description="Trial t uses seed + t, passed to every model call.")
    max_turns: int = Field(default=DEFAULT_MAX_TURNS, ge=1, description="Seeker turns before the dialogue is cut off.")
    seeker: AgentSettings
    provider: AgentSettings
    judge_model: str | None = None
    api_base: str | None = Field(
        default=None,
        description="Normalized --api-base (no credentials): same model name, other endpoint, other model.",
    )
    router: dict[str, Any] | None = Field(
        default=None,
        description="--router pools the run's models use: per logical "
        "model its identity (a hash of the deployment list) and deployments, no keys.",
    )
    provider_fingerprint: str | None = Field(
        default=None, description="Offline providers: provider/identity.py digest."
    )
    seeker_tree_access: bool = Field(default=False, description="The seeker was handed the response tree (needs_tree).")
    concurrency: int = Field(default=DEFAULT_CONCURRENCY, ge=1)
    max_cost: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="Stop starting dialogues once this many USD are spent."
    )
    turn_timeout: float | None = Field(
        default=DEFAULT_TURN_TIMEOUT,
        gt=0,
        allow_inf_nan=False,
        description="Seconds one agent call may take; None: no limit.",
    )
    max_errors: int | None = Field(default=None, ge=1, description="Stop starting dialogues after this many errored.")
    use_cache: bool = True
    cache_path: str | None = Field(default=None, description="--cache file (absolute), reused on resume.")
    router_file: str | None = Field(default=None, description="--router file (absolute), reused on resume.")
    progress: bool = True

    def trial_seed(self, trial: int) -> int:
        """The distinct, recorded seed of one trial."""
        return self.seed + trial

    def hashed_fields(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude=set(EXECUTION_ONLY | DERIVED))

    def config_hash(self) -> str:
        blob = json.dumps(self.hashed_fields(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def diff_configs(old: RunConfig, new: RunConfig, *, hashed_only: bool = True) -> list[tuple[str, Any, Any]]:
    """(dotted field, old value, new value) for every field that differs, in field order."""
    dump = (lambda c: c.hashed_fields()) if hashed_only else (lambda c: c.model_dump(mode="json"))
    before, after = _flatten(dump(old)), _flatten(dump(new))
    keys = list(before) + [key for key in after if key not in before]
    return [(key, before.get(key), after.get(key)) for key in keys if before.get(key) != after.get(key)]


def describe_diff(changes: list[tuple[str, Any, Any]]) -> str:
    """`seeker.name: heuristic -> oracle; trials: 1 -> 3`."""
    return "; ".join(f"{key}: {json.dumps(old)} -> {json.dumps(new)}" for key, old, new in changes)
