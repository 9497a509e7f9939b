"""clarq: a benchmark of how well language-model agents ask clarification questions.

The Python API (api/) is re-exported here: `clarq_bench.run(...)`, `score(...)`, `compare(...)`, `load_tasks(...)`
and the seeker names (`register_seeker`, `DialogueView`, ...). Importing the package is cheap on purpose: the API
loads on first use, and heavy modules (litellm, numpy, matplotlib) load only where used.
"""

from __future__ import annotations

from typing import Any as _Any

from .core.version import __version__

#: Names of the Python API (clarq_bench/api/), loaded on first access.
API = (
    "DialogueView",
    "RunResult",
    "Scored",
    "Seeker",
    "SeekerConfig",
    "SeekerTask",
    "audit_provider",
    "compare",
    "evaluate_provider",
    "load_tasks",
    "register_seeker",
    "run",
    "run_async",
    "score",
    "submit",
    "task_stats",
    "validate_tasks",
    "verify_submissions",
    "build_leaderboard",
    "judge_pairs",
    "judge_pairs_async",
    "pairwise_report",
    "people_server",
    "PairwiseResult",
    "select",
    "select_online_offline",
    "question_bank",
    "view",
    "list_runs",
    "estimate_run",
    "import_inspect",
    "search_provider",
    "play",
    "play_server",
)

__all__ = ["__version__", *API]


def __getattr__(name: str) -> _Any:
    if name in API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """Tab completion (`clarq_bench.<TAB>`, `dir(clarq_bench)`) shows the public API, not this module's helpers."""
    return sorted(__all__)
