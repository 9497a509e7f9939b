"""Shared by the inspect tests: play the sample tasks through `inspect eval` and through `clarq run` with the same
scripted models on one fake OpenAI server, offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TASKS = str(REPO / "tasks")
SEEKER, PROVIDER = "openai/fake-seeker", "openai/fake-provider"


def inspect_model(name: str) -> str:
    """The inspect model string for a fake-server model (`openai-api/<service>/<model>`, service FAKE)."""
    return f"openai-api/fake/{name.split('/', 1)[1]}"


def run_inspect(
    log_dir: Path,
    *,
    model: str = "mockllm/model",
    model_args: dict[str, Any] | None = None,
    model_roles: dict[str, str] | None = None,
    **task_args: Any,
) -> Any:
    """One `inspect eval clarq_bench/clarq` from Python (the registered task, found through the entry point)."""
    from inspect_ai import eval as inspect_eval

    import clarq_bench.inspect_task.registry  # noqa: F401  what the entry point loads: a venv installed before the

    # entry point existed has no metadata for it (test_the_entry_point_is_declared checks the declaration)
    args = {"tasks": TASKS, **task_args}
    logs = inspect_eval(
        "clarq_bench/clarq",
        model=model,
        model_args=model_args or {},
        model_roles=model_roles,
        task_args=args,
        log_dir=str(log_dir),
        display="none",
        log_format="eval",
        max_connections=16,
    )
    assert len(logs) == 1
    return logs[0]
