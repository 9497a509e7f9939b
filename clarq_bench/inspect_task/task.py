"""The registered inspect task `clarq_bench/clarq`: one Sample per (task, trial), clarq's dialogue as the solver,
clarq's judge as the scorer.

    inspect eval clarq_bench/clarq --model openai/gpt-4o -T lang=en -T provider=offline

Task options (`-T name=value`) keep the names of `clarq run`'s flags: lang, split, types, limit (spread over the
types, as `clarq run --limit`), trials, seed, max_turns, mode (completion|chat), provider (offline | offline-e5 |
llm: clarq's LLM provider on inspect's model role `provider`), provider_mode, provider_reading (llm: model, the
default, or strict), tasks (a task folder; default
$CLARQ_DATA, then the download cache), judge (none | llm: the leftover-node check on model role `judge`) and
solver (an inspect solver or agent, by registry name or file.py@name, to speak for the seeker).
The clarq configuration is kept in the task's metadata, so `clarq import-inspect` rebuilds the run folder from the log.
"""

from __future__ import annotations

from typing import Any

from ..core.defaults import DEFAULT_MAX_TURNS, DEFAULT_SEED
from ..core.errors import ClarqError
from ..core.provider_names import OFFLINE
from ..core.run_config import RunConfig
from ..core.run_folder import tasks_digest
from ..core.tasks import Task
from ..provider.registry import resolve_provider
from ..seekers.llm import render_brief
from ..seekers.registry import SeekerTask

#: The seeker name transcripts of this task record (its model is the one inspect evaluates).
SEEKER_NAME = "inspect"
#: Task metadata key holding the RunConfig (import-inspect reads it back from the log).
CONFIG_KEY = "clarq_config"
PROVIDERS = (*OFFLINE.names(), "llm")


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if str(value) not in allowed:
        raise ClarqError(f"-T {name}={value} is not one of {', '.join(allowed)}", f"pass -T {name}={allowed[0]}")
    return str(value)


def _count(name: str, value: Any, default: int | None) -> int | None:
    if value is None:
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ClarqError(f"-T {name}={value} is not a whole number", f"pass e.g. -T {name}=3") from None
    if number < 1 or str(number) != str(value).strip():
        raise ClarqError(f"-T {name}={value} must be a whole number of at least 1", f"pass e.g. -T {name}=3")
    return number


def build_config(
    *,
    lang: str,
    split: str,
    types: Any,
    limit: Any,
    trials: Any,
    seed: Any,
    max_turns: Any,
    mode: str,
    provider: str,
    provider_mode: str,
    tasks: str | None,
    solver: str | None,
    judge: str,
    provider_reading: str | None = None,
) -> tuple[RunConfig, list[Task]]:
    """The RunConfig these task options mean and the tasks it selects (checked as `clarq run` checks its flags):
    the options become the run's request and take `clarq run`'s own step (runner.prepare.configure), then the
    selected tasks and the offline provider's fingerprint are stamped."""
    from ..runner.prepare import RunOptions, configure

    lang = _choice("lang", lang, ("en", "zh", "all"))
    split = _choice("split", split, ("test", "dev", "all"))
    mode = _choice("mode", mode, ("completion", "chat"))
    provider = _choice("provider", provider, PROVIDERS)
    provider_mode = _choice("provider_mode", provider_mode, ("single", "multi-info"))
    if provider_reading:
        _choice("provider_reading", provider_reading, ("model", "strict"))
        if provider != "llm":
            raise ClarqError("-T provider_reading applies to the llm provider", "drop it, or pass -T provider=llm")
    _choice("judge", judge, ("none", "llm"))
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise ClarqError(f"-T seed={seed} is not a whole number", f"pass e.g. -T seed={DEFAULT_SEED}") from None
    request = RunOptions(
        tasks=tasks,
        lang=lang,
        split=split,
        types=str(types) if isinstance(types, int) else types,
        limit=_count("limit", limit, None),
        trials=_count("trials", trials, 1),
        seed=seed,
        max_turns=_count("max_turns", max_turns, DEFAULT_MAX_TURNS),
        seeker=SEEKER_NAME,
        seeker_mode=mode,
        seeker_option={"solver": solver} if solver else None,
        provider=provider,
        provider_mode=provider_mode,
        provider_reading=(provider_reading or "model") if provider == "llm" else None,
        judge_model=None if judge == "none" else "llm",
    )
    try:
        config, selected = configure(request, say_limit=False)
    except ClarqError as exc:
        if exc.problem != "no tasks selected":
            raise
        from ..data.loader import resolve_data_dir

        raise ClarqError(
            f"no tasks selected in {resolve_data_dir(tasks)}", "check -T lang, split, types and limit"
        ) from None
    fingerprint = None if provider == "llm" else resolve_provider(provider).fingerprint(provider_mode)
    stamped = {"tasks_digest": tasks_digest(selected), "task_ids": [task.id for task in selected]}
    return config.model_copy(update={**stamped, "provider_fingerprint": fingerprint}), selected


def samples(tasks: list[Task], trials: int) -> list[Any]:
    """One Sample per (task, trial): the seeker's brief as input, the task's facts as metadata."""
    from inspect_ai.dataset import Sample

    return [
        Sample(
            id=f"{task.id}#{trial}",
            input=render_brief(SeekerTask.of(task)),
            metadata={
                "task_id": task.id,
                "language": task.language,
                "type": task.type_number,
                "type_name": task.type_name,
                "split": task.split.value,
                "trial": trial,
                "required": task.required_count,
            },
        )
        for task in tasks
        for trial in range(trials)
    ]


def resolve_solver(name: str) -> Any:
    """An inspect solver or agent by registry name (`basic_agent`, `pkg/agent`) or `file.py@name`, as --solver
    resolves it."""
    from inspect_ai._eval.loader import solver_from_spec
    from inspect_ai.solver import SolverSpec

    return solver_from_spec(SolverSpec(solver=name))


def clarq_task(
    *,
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
    """The inspect Task (see the module docstring for the options)."""
    from inspect_ai import Task as InspectTask

    from ..scoring.lengths import token_counter
    from .scorer import clarq_scorer
    from .seeker import clarq_dialogue

    token_counter()  # loads o200k_base from litellm's bundled table: inspect counts tokens with it, offline too

    config, selected = build_config(
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
    by_id = {task.id: task for task in selected}
    inner = resolve_solver(solver) if solver else None
    return InspectTask(
        dataset=samples(selected, config.trials),
        solver=clarq_dialogue(by_id, config, inner),
        scorer=clarq_scorer(by_id, judge),
        metadata={CONFIG_KEY: config.model_dump(mode="json")},
    )
