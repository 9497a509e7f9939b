"""The provider checks as one call each, for the API and `clarq provider-eval` / `clarq provider-audit`: names and
credentials checked before anything starts, the LLM client built from the model-call options and closed after.

`evaluate_provider`: teacher-forced replay of released dialogues (provider_eval.py). `audit_provider`: the red-team
suite beside the floor and the ceiling (audit.py). `natural_eval`: the natural-question suite (natural_suite.py).
Nothing here prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from ..core.defaults import DEFAULT_MAX_TURNS
from ..core.errors import ClarqError


class Checked(NamedTuple):
    """A check's report (provider_eval.Report or audit.AuditReport) and whether --max-cost stopped it early."""

    report: Any
    budget_exhausted: bool


def provider_client(provider: str, llm: dict[str, Any]) -> Any:
    """An LLMClient for a model-backed provider, its credentials checked now (before any call), else None."""
    from ..llm.options import ModelCallOptions
    from ..provider.registry import resolve_provider
    from ..runner.prepare import open_client

    spec = resolve_provider(provider)  # `--provider gtp-4o` is one line, not 260 failing replays
    options = ModelCallOptions.of(llm)  # a misspelled option is one line too
    return open_client([("provider", spec.model)], options) if spec.model else None


async def _replay(
    dialogues: list, provider: str, mode: str, client: Any, concurrency: int, reading: str | None = None
) -> list:
    from ..provider.factory import make_provider
    from .provider_eval import replay

    options: dict[str, Any] = {} if client is None else {"client": client}
    if reading is not None:
        options["reading"] = reading
    stop = None if client is None else (lambda: client.budget_exhausted)  # --max-cost
    try:
        return await replay(
            dialogues, lambda task: make_provider(provider, task, mode, **options), concurrency=concurrency, stop=stop
        )
    finally:
        if client is not None:
            await client.aclose()


def evaluate_provider(
    dialogues: str | Path,
    *,
    provider: str = "offline",
    provider_mode: str = "single",
    types: str | list[int] | None = None,
    concurrency: int = 8,
    provider_reading: str | None = None,
    **llm: Any,
) -> Checked:
    """Replay the released dialogues in `dialogues` (a results file or folder) through `provider`, teacher-forced,
    and report its agreement with the released provider; `llm` holds the model-call options of `clarq run`, and
    `provider_reading` an LLM provider's reading (model, the default, or strict)."""
    import asyncio

    from ..data.selection import parse_types
    from ..provider.registry import resolve_provider
    from .provider_eval import load_dialogues, report

    reading = resolve_provider(provider).reading({"reading": provider_reading} if provider_reading else None)
    released = load_dialogues(dialogues, parse_types(types))
    if not released:
        raise ClarqError(f"no released dialogues in {dialogues} for these types", "check --dialogues and --types")
    client = provider_client(provider, llm)
    results = asyncio.run(_replay(released, provider, provider_mode, client, concurrency, reading))
    label = f"{provider} ({provider_mode}" + (f", {reading} reading)" if reading else ")")
    outcome = report(results, label)
    if client is None:
        return Checked(outcome, False)
    outcome = outcome.model_copy(update={"usage": client.usage, "model": client.resolve_model(provider)})
    return Checked(outcome, bool(client.budget_exhausted))


def natural_eval(
    *,
    provider: str = "offline",
    lang: str = "all",
    modes: list[str] | None = None,
    data: str | Path | None = None,
    concurrency: int = 8,
    family: str = "tuned",
    **llm: Any,
) -> Checked:
    """Play every wording of the natural-question suite (languages `lang`, provider modes `modes`, default both;
    `family`: the `tuned` suite or the `held-out` wordings, natural_suite.FAMILIES) against `provider` and report
    the share that gets the node a person would give; the suite is validated against its tasks first (a problem is
    one ClarqError), and `data` is the released data folder (else $CLARQ_DATA)."""
    import asyncio

    from ..data.selection import selected_languages
    from ..provider.factory import make_provider
    from .natural_suite import FAMILIES, MODES, load_suite, play, report, suite_tasks, validate

    languages = selected_languages(lang)
    chosen = list(modes or MODES)
    for mode in chosen:
        if mode not in MODES:
            raise ClarqError(f"unknown provider mode {mode!r}", f"use {' or '.join(MODES)}")
    if family not in FAMILIES:
        raise ClarqError(f"unknown natural-question family {family!r}", f"use {' or '.join(FAMILIES)}")
    suite = load_suite(languages, FAMILIES[family])
    tasks = suite_tasks(languages, data, named={w.task for w in suite} if family == "held-out" else None)
    problems = validate(suite, tasks)
    if problems:
        raise ClarqError(
            f"the natural-question suite does not fit these tasks: {problems[0]}"
            f"{f' (and {len(problems) - 1} more)' if len(problems) > 1 else ''}",
            "is --data the released ClarQ-LLM data?",
        )
    client = provider_client(provider, llm)
    options = {} if client is None else {"client": client}

    async def go() -> list:
        try:
            return await play(
                suite,
                tasks,
                lambda task, mode: make_provider(provider, task, mode, **options),
                modes=chosen,
                concurrency=concurrency,
            )
        finally:
            if client is not None:
                await client.aclose()

    outcome = report(asyncio.run(go()), provider, family)
    if client is None:
        return Checked(outcome, False)
    return Checked(outcome, bool(client.budget_exhausted))


def check_reference_reveals(
    dialogues: str | Path,
    *,
    types: str | list[int] | None = None,
    concurrency: int = 8,
    readings: tuple[str, ...] = ("model", "strict"),
) -> list[Any]:
    """The LLM provider, teacher-forced with a scripted model deciding as the released provider did, in each reading:
    the share of the reference's reveals it keeps, per file and per mode (teacher_forced.py). No model is called."""
    from ..data.selection import parse_types
    from .provider_eval import load_dialogues
    from .teacher_forced import teacher_forced

    released = load_dialogues(dialogues, parse_types(types))
    if not released:
        raise ClarqError(f"no released dialogues in {dialogues} for these types", "check --dialogues and --types")
    return teacher_forced(released, readings, concurrency)


def strategy_names(spec: str | list[str] | None) -> list[str]:
    """`a,b` (or a list) -> names, each resolved as `clarq run --seeker` resolves it (a registered name, a template
    spec or your own `package.module:Class` attacker); an unknown name is a one-line error before anything is played."""
    from ..seekers.registry import resolve_seeker
    from .audit import default_strategies

    if not spec:
        return default_strategies()
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [name.strip() for name in parts if name.strip()]
    if not names:
        raise ClarqError(f"bad --strategies value {spec!r}", "name seekers separated by commas, e.g. red-echo,oracle")
    for name in names:
        resolve_seeker(name)  # a bad spec or an import path naming nothing fails here, in one line
    return list(dict.fromkeys(names))


def audit_provider(
    source: str | Path | None = None,
    *,
    lang: str = "all",
    split: str = "all",
    types: str | list[int] | None = "14-26",
    provider: str = "offline",
    provider_mode: str = "single",
    provider_reading: str | None = None,
    strategies: str | list[str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    workers: int | None = None,
    concurrency: int = 16,
    **llm: Any,
) -> Checked:
    """Play the red-team suite, the floor and the ceiling against `provider` on the selected tasks (held-out types
    14-26 by default) and tabulate success and nodes per question; `llm` holds the model-call options and
    `provider_reading` an LLM provider's reading (model, the default, or strict)."""
    from ..data.selection import load_selected
    from ..provider.registry import resolve_provider
    from .audit import audit

    reading = resolve_provider(provider).reading({"reading": provider_reading} if provider_reading else None)

    if max_turns < 1:
        raise ClarqError("--max-turns must be at least 1", "pass a positive number of seeker turns")
    names = strategy_names(strategies)
    # a missing key fails before anything is loaded; a provider of your own gets no client
    client = provider_client(provider, llm)
    tasks = load_selected(source, lang=lang, split=split, types=types)
    if not tasks:
        raise ClarqError(
            f"no tasks match these flags (types {types})",
            "check --data/--tasks, --lang, --split and --types (default 14-26)",
        )
    report = audit(
        tasks,
        provider=provider,
        mode=provider_mode,
        strategies=names,
        max_turns=max_turns,
        workers=workers,
        concurrency=concurrency,
        client=client,
        reading=reading,
    )
    return Checked(report, client is not None and bool(client.budget_exhausted))


def search_provider(
    source: str | Path | None = None,
    *,
    lang: str = "all",
    split: str = "all",
    types: str | list[int] | None = "14-26",
    tune_types: str | list[int] | None = "1-13",
    provider: str = "offline",
    modes: list[str] | None = None,
    points: int = 60,
    seed: int = 0,
    tuned_on: str | list[str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    workers: int | None = None,
    concurrency: int = 16,
    **llm: Any,
) -> Checked:
    """Sweep the template family against `provider`: tune on `tune_types`, report on `types` (search.py)."""
    from ..data.selection import load_selected
    from .search import search

    if max_turns < 1:
        raise ClarqError("--max-turns must be at least 1", "pass a positive number of seeker turns")
    families = [f.strip() for f in (tuned_on.split(",") if isinstance(tuned_on, str) else tuned_on or []) if f.strip()]
    client = provider_client(provider, llm)  # a missing key fails before anything is loaded
    tune = load_selected(source, lang=lang, split=split, types=tune_types)
    report_tasks = load_selected(source, lang=lang, split=split, types=types)
    report = search(
        tune,
        report_tasks,
        provider=provider,
        modes=modes or ["single", "multi-info"],
        points=points,
        seed=seed,
        tuned_on=families,
        max_turns=max_turns,
        workers=workers,
        concurrency=concurrency,
        client=client,
    )
    return Checked(report, client is not None and bool(client.budget_exhausted))
