"""inspect's entry point (`[project.entry-points.inspect_ai] clarq_bench = ...`): registers the task
`clarq_bench/clarq`, so `inspect eval clarq_bench/clarq` finds it once clarq-bench[inspect] is installed."""

from __future__ import annotations

from typing import Any

from inspect_ai import task

from ..core.defaults import DEFAULT_MAX_TURNS, DEFAULT_SEED
from .scorer import qualified
from .task import clarq_task


@task(name=qualified("clarq"))
def clarq(
    lang: str = "en",
    split: str = "test",
    types: Any = None,
    limit: Any = None,
    trials: Any = 1,
    seed: Any = DEFAULT_SEED,
    max_turns: Any = DEFAULT_MAX_TURNS,
    mode: str = "completion",
    provider: str = "offline",
    provider_mode: str = "single",
    tasks: str | None = None,
    solver: str | None = None,
    judge: str = "none",
    provider_reading: str | None = None,
) -> Any:
    """clarq: the model (or `-T solver=` agent) asks clarification questions of clarq's simulated user."""
    return clarq_task(
        lang=lang,
        split=split,
        types=types,
        limit=limit,
        trials=trials,
        seed=seed,
        max_turns=max_turns,
        mode=mode,
        provider=provider,
        provider_mode=provider_mode,
        tasks=tasks,
        solver=solver,
        judge=judge,
        provider_reading=provider_reading,
    )
