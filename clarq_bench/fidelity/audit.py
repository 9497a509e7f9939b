"""How gameable is a provider? Play the red-team suite, the floor, the heuristic and the ceiling against it.

Why: a simulated provider that hands its tree to turns asking nothing specific makes every score a measure of keyword
coverage. The audit plays each strategy of seekers/adversarial.py (no clarification skill, never sees the tree),
`no-question` (the floor: nothing should do much better without asking), `heuristic` (an honest rule-based seeker)
and `oracle` (the ceiling: one good question per node) on the same tasks, judges every dialogue with the
deterministic judge (success = every required node obtained) and reports, per strategy and language, the success
rate with a task-clustered 95% bootstrap interval and the required nodes obtained per question (seeker turns after
the opening request that got a reply, goodbyes excluded).

The offline providers are CPU-bound Python, so their dialogues are spread over worker processes (one task per job,
every strategy of it); a model-backed provider is played in this process, many dialogues at once (asyncio),
through the one LLM client the caller built.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, computed_field

from ..core.defaults import DEFAULT_MAX_TURNS
from ..core.tasks import Task
from ..core.transcript import AgentInfo, EndReason, Usage
from ..scoring.judge import Verdict, judge_deterministic
from ..scoring.metrics import NON_QUESTIONS, Figure, figure

#: Types the audit plays by default: 14-26, held out from the tuning of the offline provider.
DEFAULT_TYPES = tuple(range(14, 27))
FLOOR = "no-question"
CEILING = "oracle"
REFERENCE = "heuristic"

Role = Literal["floor", "red-team", "template", "enumeration", "reference", "ceiling", "other"]

#: The bar for a provider that cannot be gamed: a red-team strategy succeeds on at most this share of tasks
#: (echo is allowed more: a quoted reply can still carry a real question's words).
RED_TEAM_TARGET = 0.10
TARGETS = {"red-echo": 0.20}
#: The bar for the template family (seekers/templates.py): no member succeeds on more than this share.
TEMPLATE_TARGET = 0.15


#: The held-out packed-ask members (seekers/packed.py): the template family's bar.
PACKED_TARGET = 0.15


def target_of(name: str) -> float | None:
    """The most a strategy may succeed on a provider that cannot be gamed (None: not a red-team strategy)."""
    from ..seekers.registry import PACKED

    if name in PACKED:
        return PACKED_TARGET
    role = role_of(name)
    if role == "template":
        return TEMPLATE_TARGET
    return TARGETS.get(name, RED_TEAM_TARGET) if role == "red-team" else None


def template_role(name: str) -> Role | None:
    """A member of the template family is "template", except the choice family (points that offer two names of the
    brief as alternatives: real choice questions when the names are options of one kind, which the reference answers
    too): "enumeration", judged by its efficiency against the heuristic's, not by the red-team bar. None for any other seeker."""
    from ..seekers.registry import TEMPLATES, is_template_spec

    if name not in TEMPLATES and not is_template_spec(name):
        return None
    from ..seekers.templates import parse_spec

    return "enumeration" if parse_spec(name).family == "choice" else "template"


def red_team() -> list[str]:
    """The shipped red-team strategies, in report order."""
    from ..seekers.registry import REDTEAM

    return list(REDTEAM)


def enumeration() -> list[str]:
    """The shipped enumeration strategies: plausible questions walking the whole brief. They have no success bar:
    the released provider answers such questions too, so they are reported with what they pay for it (nodes per
    question) rather than blocked."""
    from ..seekers.registry import ENUMERATION

    return list(ENUMERATION)


def default_strategies() -> list[str]:
    return [FLOOR, *red_team(), *enumeration(), REFERENCE, CEILING]


def role_of(name: str) -> Role:
    if name == FLOOR:
        return "floor"
    if name == CEILING:
        return "ceiling"
    if name == REFERENCE:
        return "reference"
    from ..seekers.registry import PACKED

    if name in red_team() or name in PACKED:
        return "red-team"
    if name in enumeration():
        return "enumeration"
    return template_role(name) or "other"


class StrategyResult(BaseModel):
    """One strategy in one language against the audited provider."""

    strategy: str
    role: Role
    language: str
    dialogues: int
    successes: int
    success: Figure = Field(description="Share of dialogues with every required node obtained (95% bootstrap CI).")
    nodes_per_question: Figure = Field(
        description="Required nodes first obtained per question (seeker turns after the opening that got a reply, "
        "goodbyes excluded)."
    )
    questions: int
    efficiency: Figure | None = Field(
        default=None,
        validation_alias=AliasChoices("efficiency", "success_eff"),
        description="Success weighted by what the seeker said (scoring/charge.py).",
    )
    errors: int = Field(description="Dialogues that ended with an error (counted as failures).")
    target: float | None = Field(default=None, description="Red team: the most success allowed.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def over_target(self) -> bool:
        return self.target is not None and (self.success.value or 0.0) > self.target


class AuditReport(BaseModel):
    """Everything `clarq provider-audit` prints; `--json` is this model."""

    provider: str
    provider_mode: str
    provider_reading: str | None = Field(default=None, description="An LLM provider's reading: model or strict.")
    model: str | None = None
    languages: list[str]
    types: list[int]
    tasks: dict[str, int]
    max_turns: int
    strategies: list[str]
    rows: list[StrategyResult]
    wall_seconds: float
    workers: int
    usage: Usage | None = None
    skipped: int = Field(default=0, description="Dialogues not played because --max-cost was spent.")

    def row(self, strategy: str, language: str) -> StrategyResult | None:
        return next((r for r in self.rows if r.strategy == strategy and r.language == language), None)


#: Builds the provider for one task (the caller decides name, mode and client).
ProviderFactory = Callable[[Task], Any]


async def play_one(
    task: Task,
    strategy: str,
    provider_factory: ProviderFactory,
    *,
    provider_name: str,
    max_turns: int,
    stop: Callable[[], bool] | None = None,
) -> Verdict:
    """One dialogue of `strategy` on `task`, judged deterministically."""
    from ..runner.dialogue import play_dialogue
    from ..seekers.registry import SeekerConfig, build_seeker

    seeker = build_seeker(strategy, task, SeekerConfig(name=strategy))
    transcript = await play_dialogue(
        task,
        seeker,
        provider_factory(task),
        max_turns=max_turns,
        seeker_info=AgentInfo(name=strategy),
        provider_info=AgentInfo(name=provider_name),
        budget_exhausted=stop,
    )
    return judge_deterministic(transcript, task)


async def play_all(
    tasks: Sequence[Task],
    strategies: Sequence[str],
    provider_factory: ProviderFactory,
    *,
    provider_name: str,
    max_turns: int,
    concurrency: int = 16,
    stop: Callable[[], bool] | None = None,
) -> list[Verdict]:
    """Every (task, strategy) dialogue, `concurrency` at once; dialogues not started before `stop()` are skipped."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(task: Task, strategy: str) -> Verdict | None:
        async with gate:
            if stop is not None and stop():
                return None
            return await play_one(
                task, strategy, provider_factory, provider_name=provider_name, max_turns=max_turns, stop=stop
            )

    done = await asyncio.gather(*(one(task, name) for task in tasks for name in strategies))
    return [verdict for verdict in done if verdict is not None]


def _offline_job(job: tuple[Task, list[str], str, str, int]) -> list[Verdict]:
    """Worker-process body: every strategy on one task against a freshly built offline provider."""
    task, strategies, provider, mode, max_turns = job
    from ..provider.factory import make_provider

    return asyncio.run(
        play_all(
            [task],
            strategies,
            lambda t: make_provider(provider, t, mode),
            provider_name=provider,
            max_turns=max_turns,
            concurrency=1,
        )
    )


def play_offline(
    tasks: Sequence[Task], strategies: Sequence[str], provider: str, mode: str, *, max_turns: int, workers: int
) -> list[Verdict]:
    """The offline providers' path: jobs of one task each over `workers` processes (in this process for 1)."""
    jobs = [(task, list(strategies), provider, mode, max_turns) for task in tasks]
    if workers <= 1 or len(jobs) <= 1:
        return [verdict for job in jobs for verdict in _offline_job(job)]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return [verdict for verdicts in pool.map(_offline_job, jobs, chunksize=4) for verdict in verdicts]


def default_workers() -> int:
    return max(1, min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def _questions(verdict: Verdict) -> int:
    return sum(turn.label not in NON_QUESTIONS for turn in verdict.seeker_turns)


def _first_obtained(verdict: Verdict) -> int:
    return sum(len(turn.nodes) for turn in verdict.seeker_turns if turn.label not in NON_QUESTIONS)


def tabulate(verdicts: Sequence[Verdict], strategies: Sequence[str], languages: Sequence[str]) -> list[StrategyResult]:
    """One row per (strategy, language) with intervals (seeded per figure, so a re-run prints the same table)."""
    by_key: dict[tuple[str, str], list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        by_key[(verdict.seeker, verdict.language)].append(verdict)
    rows = []
    for language in languages:
        for name in strategies:
            group = sorted(by_key.get((name, language), []), key=lambda v: v.task_id)
            if not group:
                continue
            rows.append(
                StrategyResult(
                    strategy=name,
                    role=role_of(name),
                    language=language,
                    dialogues=len(group),
                    successes=sum(v.success for v in group),
                    success=figure(group, f"{language}/{name}/success", lambda v: float(v.success)),
                    nodes_per_question=figure(
                        group,
                        f"{language}/{name}/nodes",
                        lambda v: float(_first_obtained(v)),
                        lambda v: float(_questions(v)),
                    ),
                    questions=sum(_questions(v) for v in group),
                    efficiency=figure(group, f"{language}/{name}/efficiency", lambda v: float(v.efficiency)),
                    errors=sum(v.end_reason == EndReason.error for v in group),
                    target=target_of(name),
                )
            )
    return rows


def audit(
    tasks: Sequence[Task],
    *,
    provider: str,
    mode: str = "single",
    strategies: Sequence[str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    workers: int | None = None,
    concurrency: int = 16,
    client: Any = None,
    reading: str | None = None,
) -> AuditReport:
    """Play every strategy on every task against `provider` and tabulate. `provider`: `offline`, `offline-e5`
    (played over `workers` processes), `package.module:Class` (called with (task, AgentSettings), as `clarq run`
    does), or a model name for the LLM provider through `client` (an LLMClient), in `reading` (model or strict)."""
    from ..provider.registry import resolve_provider

    names = list(strategies or default_strategies())
    languages = sorted({task.language for task in tasks}, key=["en", "zh"].index)
    started = time.perf_counter()
    spec = resolve_provider(provider)
    if spec.kind == "import":  # a provider of your own, built as `clarq run` builds it
        from ..core.run_config import AgentSettings

        settings = AgentSettings(name=provider, mode=mode)
        used, verdicts = (
            1,
            asyncio.run(
                play_all(
                    tasks,
                    names,
                    lambda task: spec.build(task, settings=settings),
                    provider_name=provider,
                    max_turns=max_turns,
                    concurrency=concurrency,
                )
            ),
        )
    elif spec.offline:
        used = workers or default_workers()
        verdicts = play_offline(tasks, names, provider, mode, max_turns=max_turns, workers=used)
    else:
        used = 1
        stop = (lambda: bool(client.budget_exhausted)) if client is not None else None
        options: dict[str, Any] = {} if client is None else {"client": client}
        if reading is not None:
            options["reading"] = reading
        verdicts = asyncio.run(_play_model(tasks, names, provider, mode, options, max_turns, concurrency, stop, client))
    wall = time.perf_counter() - started
    return AuditReport(
        provider=provider,
        provider_mode=mode,
        provider_reading=reading,
        model=client.resolve_model(provider) if client is not None else None,
        languages=languages,
        types=sorted({task.type_number for task in tasks}),
        tasks={lang: sum(task.language == lang for task in tasks) for lang in languages},
        max_turns=max_turns,
        strategies=names,
        rows=tabulate(verdicts, names, languages),
        wall_seconds=round(wall, 2),
        workers=used,
        usage=client.usage if client is not None else None,
        skipped=len(tasks) * len(names) - len(verdicts),
    )


async def _play_model(
    tasks: Sequence[Task],
    names: Sequence[str],
    provider: str,
    mode: str,
    options: dict[str, Any],
    max_turns: int,
    concurrency: int,
    stop: Callable[[], bool] | None,
    client: Any,
) -> list[Verdict]:
    from ..provider.factory import make_provider

    try:
        return await play_all(
            tasks,
            names,
            lambda task: make_provider(provider, task, mode, **options),
            provider_name=provider,
            max_turns=max_turns,
            concurrency=concurrency,
            stop=stop,
        )
    finally:
        if client is not None:
            await client.aclose()
